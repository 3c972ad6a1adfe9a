// A long-running ninja (--watch) that is about to sleep gives back what it
// does not need while asleep, so that it holds no more memory than a
// one-shot run: the heap memory freed since the last time, and the
// resident pages of its own code (they stay in the page cache and come back
// in a fraction of a millisecond when it wakes).
#ifndef RONIN_BASE_IDLE_MEMORY_H_
#define RONIN_BASE_IDLE_MEMORY_H_

namespace ronin {

// Best effort: a kernel that cannot do part of it does the rest.
void ReleaseMemoryBeforeIdle();

}  // namespace ronin

#endif  // RONIN_BASE_IDLE_MEMORY_H_

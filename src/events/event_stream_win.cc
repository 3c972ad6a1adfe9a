// event_stream.h on Windows: a path only. "fd:N" is refused: Windows
// passes handles, not C runtime descriptors, to the programs it starts, so
// a reader has no descriptor to give (a handle form may come later). A
// reader that goes away makes the write fail (no signal to hold off).
#include "events/event_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/file_io.h"
#include "base/util.h"

namespace ronin {

std::unique_ptr<EventStream> EventStream::Open(const std::string& where, std::string* err) {
  if (where.compare(0, 3, "fd:") == 0) {
    *err = "'" + where + "': a file descriptor is not implemented on Windows (programs get handles there); give a file path";
    return nullptr;
  }
  int fd = OpenFile(where.c_str(), O_WRONLY | O_CREAT | O_TRUNC);
  if (fd < 0) {
    *err = "opening " + where + ": " + strerror(errno);
    return nullptr;
  }
  return std::unique_ptr<EventStream>(new EventStream(fd, true));
}

EventStream::EventStream(int fd, bool owned) : fd_(fd), owned_(owned) {}

EventStream::~EventStream() {
  if (owned_ && fd_ >= 0) close(fd_);
}

bool EventStream::WriteLine() { return WriteFully(fd_, line_.data(), line_.size()); }

}  // namespace ronin

// The single-threaded floor of a no-op: what any executor that keeps no
// state between runs must do at least, done as cheaply as one thread can.
// It reads every manifest file and the two logs whole (without parsing
// them) and stats every file of the graph and of the deps log once, in
// the order listed. misc/bench/run.py writes the list (untimed) and times
// this program beside both ninjas in the no-op scenarios.
//
//   stat_floor LIST      LIST: one "r PATH" (read whole) or "s PATH" (stat)
//                        a line, paths relative to the working directory
//
// Prints what it did ("read N files, B bytes; statted M files, K missing")
// so the bench can check the work. Reading LIST itself (a few MB from the
// page cache, mapped) is the one cost a real executor would not have.

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

// Reads `path` to its end into `buffer` (reused: the floor keeps nothing).
long ReadWhole(const std::string& path, std::vector<char>* buffer) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  long total = 0;
  for (;;) {
    ssize_t got = read(fd, buffer->data(), buffer->size());
    if (got <= 0) break;
    total += got;
  }
  close(fd);
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: stat_floor LIST\n");
    return 2;
  }
  int fd = open(argv[1], O_RDONLY | O_CLOEXEC);
  struct stat list_stat;
  if (fd < 0 || fstat(fd, &list_stat) != 0) {
    perror(argv[1]);
    return 1;
  }
  size_t size = list_stat.st_size;
  const char* list = static_cast<const char*>(
      size ? mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0) : nullptr);
  close(fd);
  if (size && list == MAP_FAILED) {
    perror("mmap");
    return 1;
  }
  std::vector<char> buffer(1 << 20);
  std::string path;
  long files_read = 0, bytes_read = 0, statted = 0, missing = 0;
  for (const char *line = list, *end = list + size; line < end;) {
    const char* newline = static_cast<const char*>(memchr(line, '\n', end - line));
    if (!newline) newline = end;
    if (newline - line > 2) {
      path.assign(line + 2, newline);
      if (line[0] == 'r') {
        long got = ReadWhole(path, &buffer);
        if (got < 0) {
          perror(path.c_str());
          return 1;
        }
        ++files_read;
        bytes_read += got;
      } else {
        struct stat st;
        ++statted;
        if (stat(path.c_str(), &st) != 0) ++missing;
      }
    }
    line = newline + 1;
  }
  printf("read %ld files, %ld bytes; statted %ld files, %ld missing\n", files_read, bytes_read, statted,
         missing);
  return 0;
}

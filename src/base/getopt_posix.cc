// getopt.h on POSIX: the C library's getopt_long.
#include "base/getopt.h"

namespace ronin {

int GetoptLong(int argc, char** argv, const char* shortopts, const option* longopts) {
  return getopt_long(argc, argv, shortopts, longopts, nullptr);
}

}  // namespace ronin

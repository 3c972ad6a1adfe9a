// msvc_deps.h's NormalizeIncludePath on POSIX: as Ninja on POSIX, the path
// made canonical, nothing more.
#include "scan/msvc_deps.h"

#include "base/util.h"

namespace ronin {

bool NormalizeIncludePath(std::string* path, std::string*) {
  CanonicalizePath(path);
  return true;
}

}  // namespace ronin

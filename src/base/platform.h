// What differs between the platforms in code that is otherwise shared. The
// rest of what differs lives in pairs of files, x_posix.cc and x_win.cc,
// behind one header x.h; this is the one header that asks the compiler
// (_WIN32). Shared code tests kWindows with `if constexpr` only for small
// differences within one piece of logic:
//
// * Paths: on Windows '\' separates path components as '/' does. A node's
//   identity uses '/'; the node remembers which of its path's separators
//   (the first 64) the manifest or a depfile wrote as '\', its slash bits
//   (Ninja's name; bit i for the i-th separator), so that $in, $out and the
//   messages that show a path as written give that spelling back
//   (Decanonicalize in util.h). POSIX paths have no such bits: there
//   SlashBits is empty, so a Node, which derives from it, takes no byte
//   more.
// * Commands: on Windows $in and $out are quoted for a CreateProcess
//   command line, not for a POSIX shell.
// * Text files (an rspfile): written with CRLF line ends on Windows.
#ifndef RONIN_BASE_PLATFORM_H_
#define RONIN_BASE_PLATFORM_H_

#include <cstdint>

namespace ronin {

// Marks a function as taking a printf format (its argument number
// `format_index`) and the arguments for it (from `first_index`). The C99 dialect on both: mingw's own printf,
// which ronin uses, follows it (the default "printf" there means MSVC's).
#ifdef _WIN32
#define RONIN_PRINTF(format_index, first_index) __attribute__((format(gnu_printf, format_index, first_index)))
#else
#define RONIN_PRINTF(format_index, first_index) __attribute__((format(printf, format_index, first_index)))
#endif

#ifdef _WIN32
constexpr bool kWindows = true;
// What separates the directories of PATH.
constexpr char kPathListSeparator = ';';

class SlashBits {
 public:
  uint64_t slash_bits() const { return bits_; }
  void set_slash_bits(uint64_t bits) { bits_ = bits; }

 private:
  uint64_t bits_ = 0;
};
#else
constexpr bool kWindows = false;
constexpr char kPathListSeparator = ':';

class SlashBits {
 public:
  static constexpr uint64_t slash_bits() { return 0; }
  void set_slash_bits(uint64_t) {}
};
#endif

}  // namespace ronin

#endif  // RONIN_BASE_PLATFORM_H_

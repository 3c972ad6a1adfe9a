// Extraction of header dependencies from cl.exe /showIncludes output
// (`deps = msvc`).
#ifndef RONIN_SCAN_MSVC_DEPS_H_
#define RONIN_SCAN_MSVC_DEPS_H_

#include <string>
#include <string_view>
#include <vector>

namespace ronin {

// cl.exe's English /showIncludes prefix, used when `msvc_deps_prefix` is empty.
constexpr std::string_view kDefaultShowIncludesPrefix = "Note: including file: ";

// Rewrites a path into canonical form in place (ninja's CanonicalizePath).
using PathCanonicalizer = void (*)(std::string* path);

// Splits compiler output into what the user should see and the headers it
// included, exactly like ninja 1.13.2 on POSIX:
// * Lines end at LF, CRLF or a lone CR. Every kept line is returned followed by
//   "\n" (CRLF becomes LF; a final unterminated line gains one; "" stays "").
// * A line starting with `prefix` (case-sensitive, at column 0) followed by a
//   non-empty path (after skipping spaces only; tabs are kept) is an include
//   line: it is dropped from the output. Its path is passed through
//   `canonicalize` if given; paths that then contain "program files" or
//   "microsoft visual studio" (ASCII case-insensitive) are not recorded.
// * Before the first include line, lines ending in .c/.cc/.cxx/.cpp/.c++
//   (case-insensitive) are cl's echo of the source file name and are dropped.
// * *includes is set to the recorded paths, deduplicated and sorted bytewise
//   (ninja collects them in a std::set, so this is the order its deps log
//   records, not the order of appearance). Pass the canonicalizer so that
//   dedup, the system-header check and the order all see canonical paths as
//   ninja does ("c:/Program Files/../x.h" is recorded as "c:/x.h").
std::string FilterShowIncludes(std::string_view output, std::string_view prefix,
                               std::vector<std::string>* includes,
                               PathCanonicalizer canonicalize = nullptr);

// Rewrites an include path as the platform records it; false with *err.
using IncludeNormalizer = bool (*)(std::string* path, std::string* err);
// As above with a normalizer that may fail, as the build uses it: false
// with *err at the first path it refuses (*filtered is then incomplete).
bool FilterShowIncludes(std::string_view output, std::string_view prefix, std::vector<std::string>* includes,
                        IncludeNormalizer normalize, std::string* filtered, std::string* err);

// The platform's include paths, as Ninja records them. POSIX
// (msvc_deps_posix.cc): CanonicalizePath. Windows (msvc_deps_win.cc), as
// ninja.exe: canonical, then, when on the working directory's drive, made
// relative to it (RelativeIncludePath); false with *err for a path
// Windows cannot make absolute. (ninja.exe also refuses one longer than
// MAX_PATH, "path too long"; ronin takes it: doc/manual.md, On Windows.)
bool NormalizeIncludePath(std::string* path, std::string* err);

// `path` relative to `base`, both absolute with '/' separators: the
// components they share at the start (compared ignoring ASCII case) are
// dropped, and each remaining one of `base` becomes "..". "." when nothing
// is left. The components are the text between '/'s, an empty one at the
// end of "C:/" included, as ninja.exe splits them.
std::string RelativeIncludePath(std::string_view path, std::string_view base);

}  // namespace ronin

#endif  // RONIN_SCAN_MSVC_DEPS_H_

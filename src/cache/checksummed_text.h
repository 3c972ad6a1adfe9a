// The framing the build cache's stored texts share (cache entries,
// cache/cache_store.h; manifests of discovered files, cache/discovered_deps_manifest.h):
// a header line naming the format, the body, and a last line
// "sum <sha256 of everything before it>", so that a truncated, altered or
// foreign text is refused before its body is parsed.
#ifndef RONIN_CACHE_CHECKSUMMED_TEXT_H_
#define RONIN_CACHE_CHECKSUMMED_TEXT_H_

#include <string>
#include <string_view>

namespace ronin {

// `header` (a whole line), `body`, then the checksum line.
std::string WithChecksum(std::string_view header, std::string_view body);

// The body of a text WithChecksum(header, ...) wrote; false if `text` has
// another header or its checksum line is missing or wrong.
bool ChecksummedBody(std::string_view text, std::string_view header, std::string_view* body);

}  // namespace ronin

#endif  // RONIN_CACHE_CHECKSUMMED_TEXT_H_

// Text for HTML pages (the report, the browse server's pages): decoding
// UTF-8 and escaping text so that any bytes make a valid page.
#ifndef RONIN_BASE_HTML_TEXT_H_
#define RONIN_BASE_HTML_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace ronin {

// Escapes text for HTML content and quoted attribute values (& < > " ').
// Paths are bytes, not necessarily UTF-8: invalid UTF-8 and control
// characters other than tab and newline become U+FFFD, so the page is
// always valid UTF-8.
std::string HtmlEscape(std::string_view text);

// The length of the well-formed UTF-8 sequence at the start of `text`
// (shortest form, no surrogates, at most U+10FFFF) with its code point in
// *code, or 0 if there is none.
size_t DecodeUtf8(std::string_view text, uint32_t* code);

}  // namespace ronin

#endif  // RONIN_BASE_HTML_TEXT_H_

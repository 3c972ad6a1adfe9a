#include "base/html_text.h"

namespace ronin {

size_t DecodeUtf8(std::string_view text, uint32_t* code) {
  if (text.empty()) return 0;
  unsigned char lead = static_cast<unsigned char>(text[0]);
  size_t length;
  if (lead < 0x80) {
    *code = lead;
    return 1;
  }
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
    *code = lead & 0x1f;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    *code = lead & 0x0f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    *code = lead & 0x07;
  } else {
    return 0;
  }
  if (text.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c & 0xc0) != 0x80) return 0;
    *code = (*code << 6) | (c & 0x3f);
  }
  if ((length == 3 && *code < 0x800) || (length == 4 && *code < 0x10000)) return 0;  // overlong
  if ((*code >= 0xd800 && *code <= 0xdfff) || *code > 0x10ffff) return 0;
  return length;
}

std::string HtmlEscape(std::string_view text) {
  static const char kReplacement[] = "\xef\xbf\xbd";  // U+FFFD
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    unsigned char c = static_cast<unsigned char>(text[0]);
    uint32_t code;
    size_t length = DecodeUtf8(text, &code);
    if (length == 0) {
      out += kReplacement;  // one replacement per invalid byte
      length = 1;
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c == '\'') {
      out += "&#39;";
    } else if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f) {
      out += kReplacement;
    } else {
      out.append(text.substr(0, length));
    }
    text.remove_prefix(length);
  }
  return out;
}

}  // namespace ronin

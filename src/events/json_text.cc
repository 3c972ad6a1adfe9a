#include "events/json_text.h"

#include <cstdint>

#include "base/html_text.h"
#include "base/util.h"

namespace ronin {

void AppendJsonText(std::string_view text, std::string* out) {
  out->push_back('"');
  // Runs of well-formed UTF-8 are escaped as compdb escapes them; each
  // byte between them becomes U+FFFD.
  size_t run = 0;
  size_t i = 0;
  while (i < text.size()) {
    if (static_cast<unsigned char>(text[i]) < 0x80) {
      ++i;
      continue;
    }
    uint32_t code;
    size_t length = DecodeUtf8(text.substr(i), &code);
    if (length > 0) {
      i += length;
      continue;
    }
    AppendJsonString(text.substr(run, i - run), out);
    out->append("\xEF\xBF\xBD");
    run = ++i;
  }
  AppendJsonString(text.substr(run), out);
  out->push_back('"');
}

}  // namespace ronin

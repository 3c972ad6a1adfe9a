// See net/http_common.h.
#include "net/http_common.h"

#include <string.h>

namespace ronin {

namespace {

bool IsTokenChar(unsigned char c) {
  // RFC 9110 tchar.
  if (c >= '0' && c <= '9') return true;
  if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') return true;
  return strchr("!#$%&'*+-.^_`|~", c) != nullptr && c != '\0';
}

}  // namespace

bool IsHttpToken(std::string_view text) {
  if (text.empty()) return false;
  for (unsigned char c : text) {
    if (!IsTokenChar(c)) return false;
  }
  return true;
}

bool IsHttpFieldValue(std::string_view value) {
  for (unsigned char c : value) {
    if ((c < 0x20 && c != '\t') || c == 0x7f) return false;
  }
  return true;
}

std::string_view TrimHttpBlanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool ParsePort(std::string_view text, int* port) {
  if (text.empty() || text.size() > 5) return false;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    value = value * 10 + (c - '0');
  }
  if (value < 1 || value > 65535) return false;
  *port = value;
  return true;
}

std::string AsciiLower(std::string_view text) {
  std::string lower(text);
  for (char& c : lower) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return lower;
}

bool NextHttpLine(std::string_view data, size_t* pos, std::string_view* line, bool* bad) {
  size_t newline = data.find('\n', *pos);
  if (newline == std::string_view::npos) return false;
  *line = data.substr(*pos, newline - *pos);
  if (!line->empty() && line->back() == '\r') line->remove_suffix(1);
  *bad = line->find('\r') != std::string_view::npos;
  *pos = newline + 1;
  return true;
}

bool ParseHttpHeaderLine(std::string_view line, std::pair<std::string, std::string>* header) {
  if (line.empty() || line.front() == ' ' || line.front() == '\t') return false;
  size_t colon = line.find(':');
  if (colon == std::string_view::npos || !IsHttpToken(line.substr(0, colon))) return false;
  std::string_view value = TrimHttpBlanks(line.substr(colon + 1));
  if (!IsHttpFieldValue(value)) return false;
  header->first = AsciiLower(line.substr(0, colon));
  header->second.assign(value);
  return true;
}

int HexDigitValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace ronin

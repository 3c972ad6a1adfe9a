#include "events/json_value.h"

#include <errno.h>
#include <stdlib.h>

#include <string>

namespace ronin {

const JsonValue* JsonValue::Find(std::string_view key) const {
  for (const auto& member : members)
    if (member.first == key) return &member.second;
  return nullptr;
}

namespace {

class JsonParser {
 public:
  explicit JsonParser(std::string_view text) : text_(text) {}

  bool ParseDocument(JsonValue* value, std::string* err) {
    SkipSpace();
    if (!ParseValue(value, 0)) return Fail(err);
    SkipSpace();
    if (pos_ != text_.size()) {
      problem_ = "text after the value";
      return Fail(err);
    }
    return true;
  }

 private:
  bool Fail(std::string* err) {
    *err = "offset " + std::to_string(pos_) + ": " + problem_;
    return false;
  }
  bool Problem(const char* what) {
    problem_ = what;
    return false;
  }
  void SkipSpace() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\r'))
      ++pos_;
  }
  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return Problem("not a JSON value");
    pos_ += word.size();
    return true;
  }

  bool ParseValue(JsonValue* value, int depth) {
    if (depth > kMaxJsonDepth) return Problem("nested too deep");
    if (pos_ >= text_.size()) return Problem("unexpected end");
    switch (text_[pos_]) {
      case '{': return ParseObject(value, depth);
      case '[': return ParseArray(value, depth);
      case '"':
        value->type = JsonValue::Type::kString;
        return ParseString(&value->string);
      case 't':
        value->type = JsonValue::Type::kBool;
        value->boolean = true;
        return Literal("true");
      case 'f':
        value->type = JsonValue::Type::kBool;
        return Literal("false");
      case 'n':
        return Literal("null");
      default:
        return ParseNumber(value);
    }
  }

  bool ParseObject(JsonValue* value, int depth) {
    value->type = JsonValue::Type::kObject;
    ++pos_;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == '}') {
      ++pos_;
      return true;
    }
    for (;;) {
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != '"') return Problem("expected a member name");
      value->members.emplace_back();
      if (!ParseString(&value->members.back().first)) return false;
      SkipSpace();
      if (pos_ >= text_.size() || text_[pos_] != ':') return Problem("expected ':'");
      ++pos_;
      SkipSpace();
      if (!ParseValue(&value->members.back().second, depth + 1)) return false;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == '}') {
        ++pos_;
        return true;
      }
      return Problem("expected ',' or '}'");
    }
  }

  bool ParseArray(JsonValue* value, int depth) {
    value->type = JsonValue::Type::kArray;
    ++pos_;
    SkipSpace();
    if (pos_ < text_.size() && text_[pos_] == ']') {
      ++pos_;
      return true;
    }
    for (;;) {
      SkipSpace();
      value->items.emplace_back();
      if (!ParseValue(&value->items.back(), depth + 1)) return false;
      SkipSpace();
      if (pos_ < text_.size() && text_[pos_] == ',') {
        ++pos_;
        continue;
      }
      if (pos_ < text_.size() && text_[pos_] == ']') {
        ++pos_;
        return true;
      }
      return Problem("expected ',' or ']'");
    }
  }

  static void AppendUtf8(uint32_t code, std::string* out) {
    if (code < 0x80) {
      out->push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out->push_back(static_cast<char>(0xc0 | (code >> 6)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else if (code < 0x10000) {
      out->push_back(static_cast<char>(0xe0 | (code >> 12)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
    } else {
      out->push_back(static_cast<char>(0xf0 | (code >> 18)));
      out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3f)));
      out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3f)));
      out->push_back(static_cast<char>(0x80 | (code & 0x3f)));
    }
  }

  // Four hex digits after "\u"; false if they are not.
  bool ReadHex4(uint32_t* code) {
    if (text_.size() - pos_ < 4) return Problem("short \\u escape");
    *code = 0;
    for (int i = 0; i < 4; ++i) {
      char c = text_[pos_++];
      int digit = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (digit < 0) return Problem("bad \\u escape");
      *code = *code << 4 | static_cast<uint32_t>(digit);
    }
    return true;
  }

  bool ParseUnicodeEscape(std::string* out) {
    uint32_t code;
    if (!ReadHex4(&code)) return false;
    if (code >= 0xd800 && code <= 0xdbff && text_.substr(pos_, 2) == "\\u") {
      size_t back = pos_;
      pos_ += 2;
      uint32_t low;
      if (!ReadHex4(&low)) return false;
      if (low >= 0xdc00 && low <= 0xdfff) {
        AppendUtf8(0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00), out);
        return true;
      }
      pos_ = back;  // not a pair: the second escape stands on its own
    }
    AppendUtf8(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code, out);
    return true;
  }

  bool ParseString(std::string* out) {
    ++pos_;  // the opening quote
    for (;;) {
      size_t plain = pos_;
      while (pos_ < text_.size() && text_[pos_] != '"' && text_[pos_] != '\\' &&
             static_cast<unsigned char>(text_[pos_]) >= 0x20)
        ++pos_;
      out->append(text_.data() + plain, pos_ - plain);
      if (pos_ >= text_.size()) return Problem("unterminated string");
      char c = text_[pos_++];
      if (c == '"') return true;
      if (c != '\\') return Problem("control character in a string");
      if (pos_ >= text_.size()) return Problem("unterminated string");
      char escape = text_[pos_++];
      switch (escape) {
        case '"': out->push_back('"'); break;
        case '\\': out->push_back('\\'); break;
        case '/': out->push_back('/'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'u':
          if (!ParseUnicodeEscape(out)) return false;
          break;
        default:
          return Problem("bad escape in a string");
      }
    }
  }

  bool ParseNumber(JsonValue* value) {
    size_t start = pos_;
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    size_t digits = pos_;
    while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
    if (pos_ == digits) return Problem("not a JSON value");
    if (text_[digits] == '0' && pos_ - digits > 1) return Problem("leading zero");
    bool integral = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      integral = false;
      size_t fraction = ++pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == fraction) return Problem("no digits after '.'");
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      integral = false;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      size_t exponent = pos_;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') ++pos_;
      if (pos_ == exponent) return Problem("no digits in the exponent");
    }
    std::string number(text_.substr(start, pos_ - start));
    value->number = strtod(number.c_str(), nullptr);
    value->type = JsonValue::Type::kNumber;
    if (integral) {
      errno = 0;
      long long integer = strtoll(number.c_str(), nullptr, 10);
      if (errno != ERANGE) {
        value->type = JsonValue::Type::kInteger;
        value->integer = integer;
      }
    }
    return true;
  }

  std::string_view text_;
  size_t pos_ = 0;
  const char* problem_ = "";
};

}  // namespace

bool ParseJson(std::string_view text, JsonValue* value, std::string* err) {
  *value = JsonValue();
  return JsonParser(text).ParseDocument(value, err);
}

}  // namespace ronin

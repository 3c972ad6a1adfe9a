// A JSON reader for the event stream's lines (event_history.h): enough JSON
// for any line a stream holds, and a clear error for anything else.
#ifndef RONIN_EVENTS_JSON_VALUE_H_
#define RONIN_EVENTS_JSON_VALUE_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ronin {

struct JsonValue {
  enum class Type { kNull, kBool, kInteger, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  int64_t integer = 0;  // kInteger: a number without fraction or exponent that fits
  double number = 0;    // kNumber (and kInteger, as a double)
  std::string string;
  std::vector<JsonValue> items;                             // kArray
  std::vector<std::pair<std::string, JsonValue>> members;  // kObject, in order

  // The member `key` of an object, or null.
  const JsonValue* Find(std::string_view key) const;
  bool is_string() const { return type == Type::kString; }
  bool is_integer() const { return type == Type::kInteger; }
};

// Values nest at most this deep (an event nests 3): the parser recurses,
// and its depth must not be the input's to choose.
constexpr int kMaxJsonDepth = 32;

// Parses `text`, one JSON value with nothing but white space around it.
// False with *err ("offset N: what") on anything else. Strings are
// returned as UTF-8 (\u escapes decoded, lone surrogates as U+FFFD).
bool ParseJson(std::string_view text, JsonValue* value, std::string* err);

}  // namespace ronin

#endif  // RONIN_EVENTS_JSON_VALUE_H_

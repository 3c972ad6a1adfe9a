// JSON text for the event stream: strings that are always valid JSON and
// valid UTF-8, whatever bytes a path or a command's output holds.
#ifndef RONIN_EVENTS_JSON_TEXT_H_
#define RONIN_EVENTS_JSON_TEXT_H_

#include <string>
#include <string_view>

namespace ronin {

// Appends `text` as a quoted JSON string: '"', '\' and control characters
// escaped, well-formed UTF-8 kept as it is, and every byte that is not part
// of well-formed UTF-8 replaced by U+FFFD (so a path that is not UTF-8
// reads back changed; doc/events.md says so).
void AppendJsonText(std::string_view text, std::string* out);

}  // namespace ronin

#endif  // RONIN_EVENTS_JSON_TEXT_H_

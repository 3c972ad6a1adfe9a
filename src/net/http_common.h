// The pieces of HTTP/1.1 syntax and socket handling that the server of
// `-t browse` (net/http_server.h) and the cache's client (net/http_client.h) share.
#ifndef RONIN_NET_HTTP_COMMON_H_
#define RONIN_NET_HTTP_COMMON_H_

#include <stddef.h>

#include <string>
#include <string_view>
#include <utility>

namespace ronin {

// RFC 9110 token: one or more tchar.
bool IsHttpToken(std::string_view text);

// Header values: visible characters, blanks and obs-text; no controls.
bool IsHttpFieldValue(std::string_view value);

// `text` without leading and trailing spaces and tabs.
std::string_view TrimHttpBlanks(std::string_view text);

// A port "1".."65535": decimal digits only, no sign, space or other junk.
bool ParsePort(std::string_view text, int* port);

// ASCII lower case (header names, schemes and host names are ASCII).
std::string AsciiLower(std::string_view text);

// The next line of `data` from `*pos` without its line end (LF or CRLF);
// false if no complete line is there yet. A CR anywhere else is an error,
// reported through *bad.
bool NextHttpLine(std::string_view data, size_t* pos, std::string_view* line, bool* bad);

// "name: value" into its lower-cased name and its trimmed value. False for
// anything else, including whitespace before the colon and obsolete line
// folding (RFC 9112 §5.1, §5.2): both have been used to smuggle requests
// and responses past proxies.
bool ParseHttpHeaderLine(std::string_view line, std::pair<std::string, std::string>* header);

// The value of one hex digit, or -1.
int HexDigitValue(char c);

}  // namespace ronin

#endif  // RONIN_NET_HTTP_COMMON_H_

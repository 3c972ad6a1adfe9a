// Fuzz target: the HTTP client's response parser and URL parser
// (net/http_client.h), which read what a cache server (or anything listening
// on its port) sends back, and what a user writes in --cache=.
//
// Input: the first byte picks the feeding step (1..64 bytes at a time) and
// whether the request was a HEAD; the rest is the bytes of a connection,
// also tried as a URL.
// Checks: nothing crashes; feeding in pieces gives the same result, status,
// body and consumed length as feeding at once (the parser has no hidden
// dependence on how reads split the stream); a body never exceeds the
// limit; an error always says why; a parsed URL has a host and a valid
// port, and its prefix never ends in '/'.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "net/http_client.h"

using namespace ronin;

namespace {

constexpr size_t kMaxBody = 4096;

struct Outcome {
  HttpResponseParser::Result result;
  size_t used;
  int status;
  std::string body;
  bool keep_alive;
};

Outcome FeedAll(std::string_view bytes, size_t step, bool head_request) {
  HttpResponseParser parser(kMaxBody, head_request);
  Outcome outcome{HttpResponseParser::kNeedMore, 0, 0, {}, false};
  while (outcome.used < bytes.size() && outcome.result == HttpResponseParser::kNeedMore) {
    std::string_view piece = bytes.substr(outcome.used, step);
    size_t used = 0;
    outcome.result = parser.Feed(piece, &used);
    FUZZ_CHECK(used <= piece.size());
    outcome.used += used;
    if (outcome.result == HttpResponseParser::kNeedMore) FUZZ_CHECK(used == piece.size());
  }
  if (outcome.result == HttpResponseParser::kNeedMore) outcome.result = parser.FeedEnd();
  if (outcome.result == HttpResponseParser::kError) {
    FUZZ_CHECK(!parser.error().empty());
    FUZZ_CHECK(!parser.keep_alive());
    outcome.used = 0;  // where an error is found depends on the pieces
  }
  if (outcome.result == HttpResponseParser::kDone) {
    FUZZ_CHECK(parser.status() >= 200 && parser.status() <= 599);
    FUZZ_CHECK(parser.body().size() <= kMaxBody);
    outcome.status = parser.status();
    outcome.body = parser.body();
    outcome.keep_alive = parser.keep_alive();
  }
  return outcome;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  size_t step = (data[0] & 63) + 1;
  bool head_request = data[0] & 64;
  std::string_view bytes(reinterpret_cast<const char*>(data + 1), size - 1);

  Outcome whole = FeedAll(bytes, bytes.size() + 1, head_request);
  Outcome pieces = FeedAll(bytes, step, head_request);
  FUZZ_CHECK(whole.result == pieces.result);
  FUZZ_CHECK(whole.used == pieces.used);
  FUZZ_CHECK(whole.status == pieces.status);
  FUZZ_CHECK(whole.body == pieces.body);
  FUZZ_CHECK(whole.keep_alive == pieces.keep_alive);

  HttpUrl url;
  std::string err;
  if (ParseHttpUrl(bytes, &url, &err)) {
    FUZZ_CHECK(!url.host.empty());
    FUZZ_CHECK(url.port >= 1 && url.port <= 65535);
    FUZZ_CHECK(url.prefix.empty() || (url.prefix[0] == '/' && url.prefix.back() != '/'));
  } else {
    FUZZ_CHECK(!err.empty());
  }
  return 0;
}

// A minimal HTTP/1.1 client, enough for the build cache's HTTP backend
// (cache/http_cache_store.h): GET and PUT over kept-alive connections to one
// server, with bounded waits and bounded sizes. Plain http:// only (see
// "The HTTP cache" in doc/design.md for why there is no TLS).
//
// URL parsing, request writing and response parsing are plain functions
// and a byte-fed parser, testable (and fuzzed) without sockets. Everything
// a server sends is untrusted: every length is checked before use, and no
// response can make the client wait or allocate without bound.
#ifndef RONIN_NET_HTTP_CLIENT_H_
#define RONIN_NET_HTTP_CLIENT_H_

#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "net/socket.h"

namespace ronin {

// An http:// URL split for requests: "http://HOST[:PORT][/PREFIX]".
struct HttpUrl {
  std::string host;         // a name, or an IP address (IPv6 without brackets)
  int port = 80;
  std::string host_header;  // the Host header's value: host[:port] as written
  std::string prefix;       // "" or "/a/b" (no trailing slash); still percent-encoded
};

// False with *err for anything but an absolute http:// URL with a host:
// https:// (with a hint), user info, a query or fragment, a bad port,
// spaces or control characters.
bool ParseHttpUrl(std::string_view url, HttpUrl* parsed, std::string* err);

// The request head for `method` on `target` ("/prefix/ac/<key>"), asking to
// keep the connection open; with a Content-Length when `body_size` >= 0.
std::string FormatHttpRequest(std::string_view method, std::string_view target,
                              std::string_view host_header, int64_t body_size);

// Bounds on a response head; the body's bound is the parser's argument.
constexpr size_t kHttpMaxResponseHead = 64 * 1024;
constexpr size_t kHttpMaxResponseHeaders = 100;
// Longest chunk-size or trailer line of a chunked body.
constexpr size_t kHttpMaxChunkLine = 4096;

// Reads one response from the bytes of a connection, fed as they arrive.
// Content-Length, chunked and close-delimited bodies; interim 1xx
// responses (100 Continue) are skipped; responses to HEAD, 204 and 304 have
// no body. Anything malformed, ambiguous (two different Content-Lengths,
// both Content-Length and chunked) or larger than `max_body` is an error.
class HttpResponseParser {
 public:
  enum Result { kNeedMore, kDone, kError };

  explicit HttpResponseParser(size_t max_body, bool head_request = false);

  // Consumes a prefix of `data`; *used says how much (bytes after a
  // complete response are not consumed). kDone when the response is whole.
  Result Feed(std::string_view data, size_t* used);
  // The connection was closed: kDone if that ends a close-delimited body.
  Result FeedEnd();

  // After kDone.
  int status() const { return status_; }
  const std::string& body() const { return body_; }
  // The server lets the connection be used again (HTTP/1.1 without
  // "Connection: close", or HTTP/1.0 with keep-alive; never after a
  // close-delimited body).
  bool keep_alive() const { return keep_alive_; }
  // Header names lower-cased, values trimmed, of the final response.
  const std::vector<std::pair<std::string, std::string>>& headers() const { return headers_; }
  // After kError: what was wrong, for a warning.
  const std::string& error() const { return error_; }

 private:
  enum State { kHead, kLengthBody, kChunkSize, kChunkData, kChunkDataEnd, kTrailers, kUntilClose, kFinished, kFailed };

  Result Fail(const std::string& message);
  Result OnHead(std::string_view head);
  // Takes one line into line_ (bounded by `max`); true once it is complete.
  bool TakeLine(std::string_view* data, size_t max, bool* too_long);
  Result OnChunkSizeLine(std::string_view line);

  size_t max_body_;
  bool head_request_;
  State state_ = kHead;
  std::string line_;  // the line being read (head, chunk size, trailer)
  std::string head_;  // the complete lines of the head so far
  int leading_empty_lines_ = 0;
  size_t trailers_ = 0;
  uint64_t remaining_ = 0;
  int status_ = 0;
  bool keep_alive_ = false;
  std::vector<std::pair<std::string, std::string>> headers_;
  std::string body_;
  std::string error_;
};

// One response head parsed: status line and headers. Returns false with
// *err if it is not HTTP/1.x or any header is malformed. `head` holds the
// lines without the final empty line.
struct HttpResponseHead {
  int minor_version = 1;
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
};
bool ParseHttpResponseHead(std::string_view head, HttpResponseHead* parsed, std::string* err);

// Bounds on one exchange with a server.
struct HttpTimeouts {
  int connect_ms = 3000;   // to establish the connection
  int idle_ms = 10000;     // the longest wait for the next byte either way
  int total_ms = 60000;    // a whole request and response
};

// One connection to a server, kept open between requests when the server
// allows. Not thread-safe: one user at a time (see HttpConnectionPool).
class HttpConnection {
 public:
  HttpConnection(std::vector<sockaddr_storage> addresses, HttpTimeouts timeouts);
  ~HttpConnection();
  HttpConnection(const HttpConnection&) = delete;
  HttpConnection& operator=(const HttpConnection&) = delete;

  // Sends `method target` with `body` (when `with_body`) and reads the
  // response, whose body may be at most `max_body` bytes. On a failure
  // before any byte of the response arrived over a kept-alive connection
  // (the server closed it meanwhile), retries once on a new one. False
  // with *err when no valid response came in time.
  bool Request(std::string_view method, std::string_view target, std::string_view host_header,
               std::string_view body, bool with_body, size_t max_body,
               HttpResponseParser* response, std::string* err);

 private:
  bool Connect(int64_t deadline_ms, std::string* err);
  bool Exchange(const std::string& head, std::string_view body, HttpResponseParser* response,
                bool* got_bytes, std::string* err);
  bool SendAll(std::string_view bytes, int64_t deadline_ms, std::string* err);
  // Waits for `events` on the socket until the earlier of the idle bound
  // and `deadline_ms`; false with *err on a timeout.
  bool Wait(short events, int64_t deadline_ms, std::string* err);
  void Close();

  std::vector<sockaddr_storage> addresses_;
  HttpTimeouts timeouts_;
  int fd_ = -1;
};

}  // namespace ronin

#endif  // RONIN_NET_HTTP_CLIENT_H_

// A small HTTP/1.1 server, enough for `ninja -t browse` to serve pages
// without Python. Request parsing, response writing and the URL/HTML
// escaping are plain functions so they can be tested without sockets; the
// server is a single-threaded poll() loop over non-blocking sockets, so one
// slow or silent client cannot hold up the others. Every connection gets one
// response and is then closed ("Connection: close"), which keeps the state
// per connection trivial.
//
// Everything a client sends is untrusted: sizes are bounded, every byte of
// the request head is checked, and nothing a client sends can make the
// server exit.
#ifndef RONIN_NET_HTTP_SERVER_H_
#define RONIN_NET_HTTP_SERVER_H_

#include <stddef.h>
#include <stdint.h>

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "net/socket.h"

namespace ronin {

// Bounds on a request head. A node path is at most a few KiB even when
// every byte is percent-encoded, so these only ever stop abuse.
constexpr size_t kHttpMaxRequestLine = 32 * 1024;
constexpr size_t kHttpMaxHead = 64 * 1024;
constexpr size_t kHttpMaxHeaders = 100;
// Empty lines tolerated before the request line (RFC 9112 §2.2 asks
// servers to skip at least one).
constexpr int kHttpMaxLeadingEmptyLines = 4;

struct HttpRequest {
  std::string method;
  std::string target;     // the request-target, exactly as sent
  int minor_version = 1;  // HTTP/1.<minor_version>
  // Header names lower-cased, values without surrounding blanks, in order.
  std::vector<std::pair<std::string, std::string>> headers;

  // The first header called `lower_name`, or null.
  const std::string* FindHeader(std::string_view lower_name) const;
};

// Parses the request head at the start of `data` (request line, headers,
// empty line; bare LF line ends are accepted). Returns 0 when more bytes are
// needed, 200 when *request is filled in, or the status of the error
// response to send: 400 (malformed), 414 (request line too long), 431 (head
// too large or too many headers), 505 (not HTTP/1.x). A malformed request
// line is reported as soon as it is complete, without waiting for the
// headers. Anything after the head (a body, a pipelined request) is ignored.
int ParseHttpRequest(std::string_view data, HttpRequest* request);

// Splits a request-target in origin form ("/path?query") or absolute form
// ("http://host/path?query") into its raw path and query. *has_query tells
// "/" from "/?". False for any other form ("*", "example.com:80").
bool SplitRequestTarget(std::string_view target, std::string* path, std::string* query,
                        bool* has_query);

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/html; charset=utf-8";
  // Extra headers (Location, Allow); Content-Length, Connection and the
  // like are added when serialising.
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
};

// "OK", "Not Found"... ("Unknown" for a status this server never sends).
const char* HttpReasonPhrase(int status);

// The response as sent: status line, headers (with Content-Length and
// "Connection: close"; Date when `date` is not empty), an empty line and,
// unless `head_only` (a HEAD request), the body.
std::string SerializeHttpResponse(const HttpResponse& response, bool head_only,
                                  std::string_view date);

// An IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") for a Date header.
std::string HttpDate(int64_t unix_seconds);

// A small HTML page for an error status, with an optional explanation.
HttpResponse HttpErrorResponse(int status, std::string_view detail = {});

// Percent-decoding as a lenient browser-facing server does it: "%XX" with
// two hex digits becomes that byte, anything else (a lone '%', "%zz") is
// kept as is, and '+' stays '+' (this is a path, not form data).
std::string PercentDecode(std::string_view text);

// Percent-encodes every byte except unreserved characters (RFC 3986:
// letters, digits, "-._~") and '/', so the result is safe in a URL query
// and in an HTML attribute, and decodes back to exactly `text`.
std::string PercentEncode(std::string_view text);

// `text` as a numeric IPv4 or IPv6 address with `port` filled in.
bool ParseNumericAddress(const std::string& text, int port, sockaddr_storage* address);

// The addresses a server for `host` listens on, with `port` filled in:
// every interface for an empty host, a numeric IPv4 or IPv6 address as
// given, else the name's entries in `hosts_file` (as /etc/hosts), and
// "localhost" as the loopback addresses if the file does not list it.
// Names are not looked up in DNS: that needs glibc's NSS modules, which a
// static ninja cannot load reliably, and a local server binds local names.
// False with the resolver's message when nothing matches.
bool ResolveListenAddresses(const std::string& host, int port, const char* hosts_file,
                            std::vector<sockaddr_storage>* addresses, std::string* err);

class HttpServer {
 public:
  using Handler = std::function<HttpResponse(const HttpRequest&)>;

  // Connection bounds: how many clients at once (more wait in the listen
  // backlog), how long a client may take to send its request head, how long
  // a response may stall, and how long a closing connection is drained.
  static constexpr size_t kMaxConnections = 64;
  static constexpr int64_t kReadTimeoutMillis = 10000;
  static constexpr int64_t kWriteTimeoutMillis = 30000;
  static constexpr int64_t kDrainTimeoutMillis = 1000;
  static constexpr size_t kMaxDrainBytes = 1 << 20;
  // How long to stop accepting after running out of descriptors.
  static constexpr int64_t kAcceptRetryMillis = 100;

  explicit HttpServer(Handler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // Binds `host` (see ResolveListenAddresses) and starts listening. Port 0
  // picks a free port. IPv4 addresses are preferred, as "localhost" should
  // mean 127.0.0.1 to clients that only try that.
  bool Listen(const std::string& host, int port, std::string* err);
  // The port actually bound (after Listen).
  int port() const { return port_; }

  // Serves until `stop_fd` becomes readable (a signal handler's self-pipe).
  // False with *err if polling itself fails.
  bool Serve(int stop_fd, std::string* err);

  // The response to a complete, well-formed request: GET and HEAD go to the
  // handler, any other method gets 405.
  HttpResponse Respond(const HttpRequest& request) const;

 private:
  struct Connection;

  void AcceptPending();
  void OnEvent(Connection* connection, short revents);
  void OnReadable(Connection* connection);
  void StartResponse(Connection* connection, const HttpResponse& response, bool head_only);
  void WritePending(Connection* connection);

  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  int64_t accept_paused_until_ = 0;
  std::vector<Connection> connections_;
};

}  // namespace ronin

#endif  // RONIN_NET_HTTP_SERVER_H_

// See net/http_server.h. The parser is strict where ambiguity could matter
// (request line, header syntax, Host) and lenient where browsers and humans
// are sloppy (bare LF, stray '%' in the query).
#include "net/http_server.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <algorithm>

#include "base/disk.h"
#include "base/html_text.h"
#include "base/util.h"
#include "net/http_common.h"

namespace ronin {

namespace {

// A request-target is visible ASCII only: browsers percent-encode the rest.
bool IsValidTarget(std::string_view target) {
  if (target.empty()) return false;
  for (unsigned char c : target) {
    if (c < 0x21 || c > 0x7e) return false;
  }
  return true;
}

// "METHOD SP TARGET SP HTTP/1.x": 200, or the error status.
int ParseRequestLine(std::string_view line, HttpRequest* request) {
  size_t first = line.find(' ');
  size_t second = first == std::string_view::npos ? first : line.find(' ', first + 1);
  if (second == std::string_view::npos || line.find(' ', second + 1) != std::string_view::npos)
    return 400;
  std::string_view method = line.substr(0, first);
  std::string_view target = line.substr(first + 1, second - first - 1);
  std::string_view version = line.substr(second + 1);
  if (!IsHttpToken(method) || !IsValidTarget(target)) return 400;
  if (version.size() != 8 || version.substr(0, 5) != "HTTP/" || version[6] != '.' ||
      !isdigit(static_cast<unsigned char>(version[5])) ||
      !isdigit(static_cast<unsigned char>(version[7])))
    return 400;
  if (version[5] != '1') return 505;
  request->method.assign(method);
  request->target.assign(target);
  request->minor_version = version[7] - '0';
  return 200;
}

// "name: value": 200 or 400 (see ParseHttpHeaderLine).
int ParseHeaderLine(std::string_view line, HttpRequest* request) {
  std::pair<std::string, std::string> header;
  if (!ParseHttpHeaderLine(line, &header)) return 400;
  request->headers.push_back(std::move(header));
  return 200;
}

// HTTP/1.1 requests must name exactly one Host (RFC 9112 §3.2).
bool HasValidHost(const HttpRequest& request) {
  if (request.minor_version == 0) return true;
  int hosts = 0;
  for (const auto& header : request.headers) hosts += header.first == "host";
  return hosts == 1;
}

}  // namespace

const std::string* HttpRequest::FindHeader(std::string_view lower_name) const {
  for (const auto& header : headers) {
    if (header.first == lower_name) return &header.second;
  }
  return nullptr;
}

int ParseHttpRequest(std::string_view data, HttpRequest* request) {
  *request = HttpRequest();
  size_t pos = 0;
  std::string_view line;
  bool bad = false;
  // The request line, after the few empty lines some clients send first.
  for (int empty_lines = 0;; ++empty_lines) {
    if (!NextHttpLine(data, &pos, &line, &bad))
      return data.size() - pos > kHttpMaxRequestLine ? 414 : 0;
    if (bad) return 400;
    if (line.size() > kHttpMaxRequestLine) return 414;
    if (!line.empty()) break;
    if (empty_lines == kHttpMaxLeadingEmptyLines) return 400;
  }
  int status = ParseRequestLine(line, request);
  if (status != 200) return status;
  // Header lines up to the empty line that ends the head.
  for (;;) {
    if (!NextHttpLine(data, &pos, &line, &bad)) return data.size() > kHttpMaxHead ? 431 : 0;
    if (bad) return 400;
    if (pos > kHttpMaxHead) return 431;
    if (line.empty()) break;
    if (request->headers.size() == kHttpMaxHeaders) return 431;
    if (ParseHeaderLine(line, request) != 200) return 400;
  }
  return HasValidHost(*request) ? 200 : 400;
}

bool SplitRequestTarget(std::string_view target, std::string* path, std::string* query,
                        bool* has_query) {
  // Absolute form (what a client sends to a proxy): drop scheme and authority.
  std::string scheme = AsciiLower(target.substr(0, 8));
  size_t skip = scheme.compare(0, 7, "http://") == 0 ? 7 : scheme == "https://" ? 8 : 0;
  if (skip) {
    size_t end = target.find_first_of("/?", skip);
    target = end == std::string_view::npos ? std::string_view("/") : target.substr(end);
    if (target.front() == '?') {  // "http://host?q" has an empty path, i.e. "/"
      path->assign("/");
      query->assign(target.substr(1));
      *has_query = true;
      return true;
    }
  }
  if (target.empty() || target.front() != '/') return false;
  size_t question = target.find('?');
  *has_query = question != std::string_view::npos;
  path->assign(target.substr(0, question));
  query->assign(*has_query ? target.substr(question + 1) : std::string_view());
  return true;
}

const char* HttpReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 302:
      return "Found";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 408:
      return "Request Timeout";
    case 414:
      return "URI Too Long";
    case 431:
      return "Request Header Fields Too Large";
    case 500:
      return "Internal Server Error";
    case 505:
      return "HTTP Version Not Supported";
    default:
      return "Unknown";
  }
}

std::string SerializeHttpResponse(const HttpResponse& response, bool head_only,
                                  std::string_view date) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " +
                    HttpReasonPhrase(response.status) + "\r\n";
  if (!date.empty()) out += "Date: " + std::string(date) + "\r\n";
  out += "Content-Type: " + response.content_type + "\r\n";
  out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
  // The pages are generated from the graph loaded at startup; a restarted
  // server may have a different graph, so nothing should be cached.
  out += "Cache-Control: no-store\r\n";
  // Defence in depth: the pages need no scripts, frames or remote content.
  out += "Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'\r\n";
  out += "X-Content-Type-Options: nosniff\r\n";
  for (const auto& header : response.headers) out += header.first + ": " + header.second + "\r\n";
  out += "Connection: close\r\n\r\n";
  if (!head_only) out += response.body;
  return out;
}

std::string HttpDate(int64_t unix_seconds) {
  // The calendar by arithmetic (days to year/month/day in the proleptic
  // Gregorian calendar, eras of 400 years): no gmtime_r, which not every
  // C library has, and strftime's %a and %b would follow the locale.
  int64_t days = unix_seconds >= 0 ? unix_seconds / 86400 : -((-unix_seconds + 86399) / 86400);
  int64_t second_of_day = unix_seconds - days * 86400;
  int64_t shifted = days + 719468;  // days since 0000-03-01
  int64_t era = (shifted >= 0 ? shifted : shifted - 146096) / 146097;
  int64_t day_of_era = shifted - era * 146097;
  int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
  int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
  int64_t march_month = (5 * day_of_year + 2) / 153;  // 0 = March
  int day = static_cast<int>(day_of_year - (153 * march_month + 2) / 5 + 1);
  int month = static_cast<int>(march_month < 10 ? march_month + 3 : march_month - 9);  // 1..12
  int64_t year = year_of_era + era * 400 + (month <= 2 ? 1 : 0);
  int weekday = static_cast<int>(((days % 7) + 11) % 7);  // 1970-01-01 was a Thursday (4)
  static const char kDays[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char kMonths[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char buffer[64];
  snprintf(buffer, sizeof(buffer), "%s, %02d %s %04lld %02d:%02d:%02d GMT", kDays[weekday], day,
           kMonths[month - 1], static_cast<long long>(year), static_cast<int>(second_of_day / 3600),
           static_cast<int>(second_of_day / 60 % 60), static_cast<int>(second_of_day % 60));
  return buffer;
}

HttpResponse HttpErrorResponse(int status, std::string_view detail) {
  HttpResponse response;
  response.status = status;
  std::string title = std::to_string(status) + " " + HttpReasonPhrase(status);
  response.body = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                  title + "</title>\n</head>\n<body>\n<h1>" + title + "</h1>\n";
  if (!detail.empty()) response.body += "<p>" + HtmlEscape(detail) + "</p>\n";
  response.body += "</body>\n</html>\n";
  return response;
}

std::string PercentDecode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i + 2 < text.size() && HexDigitValue(text[i + 1]) >= 0 &&
        HexDigitValue(text[i + 2]) >= 0) {
      out.push_back(
          static_cast<char>(HexDigitValue(text[i + 1]) * 16 + HexDigitValue(text[i + 2])));
      i += 2;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

std::string PercentEncode(std::string_view text) {
  static const char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    bool unreserved = (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
                      c == '-' || c == '.' || c == '_' || c == '~' || c == '/';
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}


// One client. `in` collects the request head; `out` is the response being
// sent. After the response the write side is shut and the connection is
// drained for a moment, so that closing it with unread request bytes (a
// body, a pipelined request, garbage) cannot make the kernel reset the
// connection before the client has read the response.
struct HttpServer::Connection {
  enum class State { kReading, kWriting, kDraining, kClosed };

  int fd = -1;
  State state = State::kReading;
  std::string in;
  std::string out;
  size_t out_offset = 0;
  size_t drained = 0;
  int64_t deadline = 0;  // MonotonicMillis() after which the connection is dropped
};

HttpServer::HttpServer(Handler handler) : handler_(std::move(handler)) {}

HttpServer::~HttpServer() {
  for (Connection& connection : connections_) {
    if (connection.fd >= 0) CloseSocket(connection.fd);
  }
  if (listen_fd_ >= 0) CloseSocket(listen_fd_);
}

bool ParseNumericAddress(const std::string& text, int port, sockaddr_storage* address) {
  memset(address, 0, sizeof(*address));
  sockaddr_in* v4 = reinterpret_cast<sockaddr_in*>(address);
  if (inet_pton(AF_INET, text.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(port));
    return true;
  }
  sockaddr_in6* v6 = reinterpret_cast<sockaddr_in6*>(address);
  if (inet_pton(AF_INET6, text.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    return true;
  }
  return false;
}

namespace {

// Lines of `path` are "address name alias..." with '#' comments.
// Names match case-insensitively.
void AppendHostsFileAddresses(const char* path, const std::string& name, int port,
                              std::vector<sockaddr_storage>* addresses) {
  std::string contents, err;
  if (RealDiskInterface().ReadFile(path, &contents, &err) != FileReader::Status::kOkay) return;
  std::string lower_name = AsciiLower(name);
  size_t start = 0;
  while (start < contents.size()) {
    size_t end = contents.find('\n', start);
    if (end == std::string::npos) end = contents.size();
    std::string_view line(contents.data() + start, end - start);
    start = end + 1;
    line = line.substr(0, line.find('#'));
    std::vector<std::string_view> fields = WhitespaceFields(line);
    for (size_t f = 1; f < fields.size(); ++f) {
      sockaddr_storage address;
      if (AsciiLower(fields[f]) == lower_name &&
          ParseNumericAddress(std::string(fields[0]), port, &address)) {
        addresses->push_back(address);
        break;
      }
    }
  }
}

}  // namespace

bool ResolveListenAddresses(const std::string& host, int port, const char* hosts_file,
                            std::vector<sockaddr_storage>* addresses, std::string* err) {
  addresses->clear();
  sockaddr_storage address;
  if (host.empty()) {
    ParseNumericAddress("0.0.0.0", port, &address);
    addresses->push_back(address);
    ParseNumericAddress("::", port, &address);
    addresses->push_back(address);
    return true;
  }
  if (ParseNumericAddress(host, port, &address)) {
    addresses->push_back(address);
    return true;
  }
  AppendHostsFileAddresses(hosts_file, host, port, addresses);
  if (addresses->empty() && AsciiLower(host) == "localhost") {
    ParseNumericAddress("127.0.0.1", port, &address);
    addresses->push_back(address);
    ParseNumericAddress("::1", port, &address);
    addresses->push_back(address);
  }
  if (addresses->empty()) {
    *err = "Name or service not known";  // glibc's words for EAI_NONAME
    return false;
  }
  return true;
}

bool HttpServer::Listen(const std::string& host, int port, std::string* err) {
  std::vector<sockaddr_storage> addresses;
  if (!ResolveListenAddresses(host, port, "/etc/hosts", &addresses, err)) return false;
  // IPv4 first, then IPv6, each in the order found.
  std::stable_partition(addresses.begin(), addresses.end(),
                        [](const sockaddr_storage& a) { return a.ss_family == AF_INET; });
  *err = "no usable address";
  for (const sockaddr_storage& address : addresses) {
    int fd = OpenSocket(address.ss_family, SOCK_STREAM, /*non_blocking=*/false);
    if (fd < 0) {
      *err = strerror(errno);
      continue;
    }
    // (With SO_REUSEADDR, as Python's HTTPServer: restarting right after a
    // stop must not fail on connections still in TIME_WAIT.)
    if (!BindAndListen(fd, address, 128)) {
      *err = strerror(errno);
      CloseSocket(fd);
      continue;
    }
    if (int bound_port = LocalPort(fd)) port_ = bound_port;
    SetNonBlockingCloexec(fd);
    listen_fd_ = fd;
    err->clear();
    break;
  }
  return listen_fd_ >= 0;
}

HttpResponse HttpServer::Respond(const HttpRequest& request) const {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse response = HttpErrorResponse(405, "Only GET and HEAD are supported.");
    response.headers.emplace_back("Allow", "GET, HEAD");
    return response;
  }
  return handler_(request);
}

void HttpServer::AcceptPending() {
  while (connections_.size() < kMaxConnections) {
    int fd = AcceptSocket(listen_fd_);
    if (fd < 0) {
      // Out of descriptors or memory: the pending connection stays in the
      // backlog and the socket stays readable, so retrying at once would
      // spin. Anything else (EAGAIN, a connection reset while queued) is
      // over with.
      if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
        accept_paused_until_ = MonotonicMillis() + kAcceptRetryMillis;
      return;
    }
    Connection connection;
    connection.fd = fd;
    connection.deadline = MonotonicMillis() + kReadTimeoutMillis;
    connections_.push_back(std::move(connection));
  }
}

void HttpServer::StartResponse(Connection* connection, const HttpResponse& response,
                               bool head_only) {
  connection->out = SerializeHttpResponse(response, head_only, HttpDate(time(nullptr)));
  connection->in.clear();
  connection->in.shrink_to_fit();
  connection->state = Connection::State::kWriting;
  connection->deadline = MonotonicMillis() + kWriteTimeoutMillis;
  WritePending(connection);
}

void HttpServer::WritePending(Connection* connection) {
  while (connection->out_offset < connection->out.size()) {
    int64_t n = SendSocket(connection->fd, connection->out.data() + connection->out_offset,
                           connection->out.size() - connection->out_offset);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) connection->state = Connection::State::kClosed;
      return;
    }
    connection->out_offset += static_cast<size_t>(n);
    connection->deadline = MonotonicMillis() + kWriteTimeoutMillis;  // progress resets the clock
  }
  connection->out.clear();
  connection->out.shrink_to_fit();
  ShutdownSending(connection->fd);
  connection->state = Connection::State::kDraining;
  connection->deadline = MonotonicMillis() + kDrainTimeoutMillis;
}

void HttpServer::OnReadable(Connection* connection) {
  char buffer[16384];
  int64_t n = ReceiveSocket(connection->fd, buffer, sizeof(buffer));
  if (n < 0) {
    if (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)
      connection->state = Connection::State::kClosed;
    return;
  }
  if (n == 0) {  // the client is done (or gave up before a full request)
    connection->state = Connection::State::kClosed;
    return;
  }
  if (connection->state == Connection::State::kDraining) {
    connection->drained += static_cast<size_t>(n);
    if (connection->drained > kMaxDrainBytes) connection->state = Connection::State::kClosed;
    return;
  }
  connection->in.append(buffer, static_cast<size_t>(n));
  // Only a new line can complete the head or a line to check, so parsing
  // only then bounds the work per connection to a few passes over the
  // (bounded) head, however the client slices its bytes.
  bool new_line = memchr(buffer, '\n', static_cast<size_t>(n)) != nullptr;
  if (!new_line && connection->in.size() <= kHttpMaxHead) return;
  HttpRequest request;
  int status = ParseHttpRequest(connection->in, &request);
  if (status == 0 && connection->in.size() > kHttpMaxHead) status = 431;
  if (status == 0) return;
  if (status != 200) {
    StartResponse(connection, HttpErrorResponse(status), false);
    return;
  }
  StartResponse(connection, Respond(request), request.method == "HEAD");
}

void HttpServer::OnEvent(Connection* connection, short revents) {
  if (revents & POLLNVAL) {
    connection->state = Connection::State::kClosed;
    return;
  }
  if (connection->state == Connection::State::kWriting) {
    if (revents & (POLLOUT | POLLERR | POLLHUP)) WritePending(connection);
    return;
  }
  // Reading or draining: an error or hang-up shows up as a failed or empty read.
  if (revents & (POLLIN | POLLERR | POLLHUP)) OnReadable(connection);
}

bool HttpServer::Serve(int stop_fd, std::string* err) {
  std::vector<pollfd> fds;
  for (;;) {
    // Drop finished and timed-out connections.
    int64_t now = MonotonicMillis();
    for (Connection& connection : connections_) {
      if (connection.state != Connection::State::kClosed && now >= connection.deadline)
        connection.state = Connection::State::kClosed;
      if (connection.state == Connection::State::kClosed && connection.fd >= 0) {
        CloseSocket(connection.fd);
        connection.fd = -1;
      }
    }
    connections_.erase(std::remove_if(connections_.begin(), connections_.end(),
                                      [](const Connection& c) { return c.fd < 0; }),
                       connections_.end());

    fds.clear();
    fds.push_back(PollEntry(stop_fd, POLLIN));
    // At capacity, new clients wait in the backlog until a slot frees up.
    bool accepting = connections_.size() < kMaxConnections && now >= accept_paused_until_;
    fds.push_back(PollEntry(accepting ? listen_fd_ : -1, POLLIN));
    int64_t timeout = accepting ? 60000 : kAcceptRetryMillis;
    for (const Connection& connection : connections_) {
      short events = connection.state == Connection::State::kWriting ? POLLOUT : POLLIN;
      fds.push_back(PollEntry(connection.fd, events));
      timeout = std::min(timeout, std::max<int64_t>(connection.deadline - now, 0));
    }
    int ready = PollSockets(fds.data(), fds.size(), static_cast<int>(timeout));
    if (ready < 0) {
      if (errno == EINTR) continue;  // a signal: the stop pipe says whether to stop
      *err = std::string("poll: ") + strerror(errno);
      return false;
    }
    if (fds[0].revents) return true;
    for (size_t i = 0; i < connections_.size(); ++i) {
      if (fds[i + 2].revents) OnEvent(&connections_[i], fds[i + 2].revents);
    }
    if (fds[1].revents) AcceptPending();
  }
}

}  // namespace ronin

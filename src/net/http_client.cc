// See net/http_client.h. The parser is strict about framing (where a response
// ends decides what the next one is) and about sizes, and indifferent to
// everything else a server says (reason phrases, headers it does not need).
#include "net/http_client.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include <algorithm>

#include "net/http_common.h"

namespace ronin {

namespace {

bool IsHostChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_';
}

// The authority part "host[:port]" or "[v6][:port]".
bool ParseAuthority(std::string_view authority, HttpUrl* url, std::string* err) {
  std::string_view host = authority, port;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) {
      *err = "unterminated [IPv6 address]";
      return false;
    }
    host = authority.substr(1, close - 1);
    std::string_view after = authority.substr(close + 1);
    if (!after.empty() && after.front() != ':') {
      *err = "junk after [IPv6 address]";
      return false;
    }
    if (!after.empty()) port = after.substr(1);
    if (host.empty() || host.find_first_not_of("0123456789abcdefABCDEF:.") != std::string_view::npos) {
      *err = "bad IPv6 address";
      return false;
    }
  } else {
    size_t colon = authority.find(':');
    if (colon != std::string_view::npos) {
      host = authority.substr(0, colon);
      port = authority.substr(colon + 1);
    }
    for (char c : host) {
      if (!IsHostChar(c)) {
        *err = "bad character in host name";
        return false;
      }
    }
  }
  if (host.empty()) {
    *err = "no host";
    return false;
  }
  if (authority.find(':', host.size()) != std::string_view::npos && !ParsePort(port, &url->port)) {
    *err = "bad port";
    return false;
  }
  url->host.assign(host);
  url->host_header.assign(authority);
  return true;
}

// "10 s", "0.3 s": a timeout as the warning says it.
std::string Seconds(int millis) {
  std::string text = std::to_string(millis / 1000);
  if (millis % 1000) text += "." + std::to_string(millis % 1000 / 100);
  return text + " s";
}

int64_t NowMillis() {
  timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return int64_t{now.tv_sec} * 1000 + now.tv_nsec / 1000000;
}

// The comma-separated elements of a header value, trimmed and lower-cased.
std::vector<std::string> ListElements(std::string_view value) {
  std::vector<std::string> elements;
  while (true) {
    size_t comma = value.find(',');
    std::string_view element = TrimHttpBlanks(value.substr(0, comma));
    if (!element.empty()) elements.push_back(AsciiLower(element));
    if (comma == std::string_view::npos) return elements;
    value.remove_prefix(comma + 1);
  }
}

// A decimal Content-Length (at most 18 digits); -1 if malformed.
int64_t ParseLength(std::string_view text) {
  if (text.empty() || text.size() > 18) return -1;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace

bool ParseHttpUrl(std::string_view url, HttpUrl* parsed, std::string* err) {
  for (unsigned char c : url) {
    if (c <= 0x20 || c >= 0x7f) {
      *err = "spaces and control characters are not allowed in a URL";
      return false;
    }
  }
  std::string scheme = AsciiLower(url.substr(0, url.find(':')));
  if (scheme == "https") {
    *err = "https:// is not supported; run a TLS terminator (stunnel, nginx) on this machine and "
           "give its http:// address (see the manual)";
    return false;
  }
  if (scheme != "http" || url.substr(scheme.size(), 3) != "://") {
    *err = "not an http:// URL";
    return false;
  }
  if (url.find_first_of("?#") != std::string_view::npos) {
    *err = "a query or fragment is not allowed in the cache URL";
    return false;
  }
  std::string_view rest = url.substr(scheme.size() + 3);
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (authority.find('@') != std::string_view::npos) {
    *err = "user names and passwords in the URL are not supported";
    return false;
  }
  HttpUrl result;
  if (!ParseAuthority(authority, &result, err)) return false;
  std::string_view path = slash == std::string_view::npos ? std::string_view() : rest.substr(slash);
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  result.prefix.assign(path);
  *parsed = result;
  return true;
}

std::string FormatHttpRequest(std::string_view method, std::string_view target,
                              std::string_view host_header, int64_t body_size) {
  std::string head;
  head.append(method).append(" ").append(target).append(" HTTP/1.1\r\nHost: ");
  head.append(host_header).append("\r\nUser-Agent: ronin\r\n");
  if (body_size >= 0) head.append("Content-Length: ").append(std::to_string(body_size)).append("\r\n");
  head.append("\r\n");
  return head;
}

bool ParseHttpResponseHead(std::string_view head, HttpResponseHead* parsed, std::string* err) {
  size_t pos = 0;
  std::string_view line;
  bool bad = false;
  if (!NextHttpLine(head, &pos, &line, &bad) || bad) {
    *err = "no status line";
    return false;
  }
  // "HTTP/1.x SP 3DIGIT [SP reason]"
  if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || line[7] < '0' || line[7] > '9' ||
      line[8] != ' ' || (line.size() > 12 && line[12] != ' ')) {
    *err = "not an HTTP/1.x status line";
    return false;
  }
  int status = 0;
  for (char c : line.substr(9, 3)) {
    if (c < '0' || c > '9') {
      *err = "bad status code";
      return false;
    }
    status = status * 10 + (c - '0');
  }
  if (status < 100 || status > 599) {
    *err = "bad status code";
    return false;
  }
  parsed->minor_version = line[7] - '0';
  parsed->status = status;
  parsed->headers.clear();
  while (NextHttpLine(head, &pos, &line, &bad) && !line.empty()) {
    std::pair<std::string, std::string> header;
    if (bad || parsed->headers.size() >= kHttpMaxResponseHeaders || !ParseHttpHeaderLine(line, &header)) {
      *err = "malformed header";
      return false;
    }
    parsed->headers.push_back(std::move(header));
  }
  return true;
}

HttpResponseParser::HttpResponseParser(size_t max_body, bool head_request)
    : max_body_(max_body), head_request_(head_request) {}

HttpResponseParser::Result HttpResponseParser::Fail(const std::string& message) {
  state_ = kFailed;
  error_ = message;
  keep_alive_ = false;
  return kError;
}

bool HttpResponseParser::TakeLine(std::string_view* data, size_t max, bool* too_long) {
  size_t newline = data->find('\n');
  size_t take = newline == std::string_view::npos ? data->size() : newline + 1;
  line_.append(data->substr(0, take));
  data->remove_prefix(take);
  *too_long = line_.size() > max;
  return newline != std::string_view::npos;
}

HttpResponseParser::Result HttpResponseParser::OnHead(std::string_view head) {
  HttpResponseHead parsed;
  std::string err;
  if (!ParseHttpResponseHead(head, &parsed, &err)) return Fail(err);
  if (parsed.status < 200) {
    // An interim response (100 Continue, 103 Early Hints): the real one follows.
    if (parsed.status == 101) return Fail("unexpected protocol switch");
    state_ = kHead;
    return kNeedMore;
  }
  status_ = parsed.status;
  headers_ = std::move(parsed.headers);
  keep_alive_ = parsed.minor_version >= 1;
  int64_t length = -1;
  bool chunked = false;
  for (const auto& header : headers_) {
    if (header.first == "connection") {
      for (const std::string& option : ListElements(header.second)) {
        if (option == "close") keep_alive_ = false;
        if (option == "keep-alive" && parsed.minor_version == 0) keep_alive_ = true;
      }
    } else if (header.first == "transfer-encoding") {
      for (const std::string& coding : ListElements(header.second)) {
        if (coding != "chunked" || chunked) return Fail("unsupported transfer coding '" + coding + "'");
        chunked = true;
      }
    } else if (header.first == "content-length") {
      for (const std::string& element : ListElements(header.second)) {
        int64_t value = ParseLength(element);
        if (value < 0 || (length >= 0 && value != length)) return Fail("bad Content-Length");
        length = value;
      }
    }
  }
  if (chunked && length >= 0) return Fail("both Content-Length and chunked");
  if (head_request_ || status_ == 204 || status_ == 304) {
    state_ = kFinished;
  } else if (chunked) {
    state_ = kChunkSize;
  } else if (length >= 0) {
    if (static_cast<uint64_t>(length) > max_body_) return Fail("response larger than the limit");
    remaining_ = static_cast<uint64_t>(length);
    state_ = remaining_ == 0 ? kFinished : kLengthBody;
  } else {
    keep_alive_ = false;  // the body ends where the connection does
    state_ = kUntilClose;
  }
  return state_ == kFinished ? kDone : kNeedMore;
}

HttpResponseParser::Result HttpResponseParser::OnChunkSizeLine(std::string_view line) {
  // "HEX [; extension]" (RFC 9112 §7.1); extensions are ignored.
  line = TrimHttpBlanks(line.substr(0, line.find(';')));
  if (line.empty() || line.size() > 15) return Fail("bad chunk size");
  uint64_t size = 0;
  for (char c : line) {
    int digit = HexDigitValue(c);
    if (digit < 0) return Fail("bad chunk size");
    size = size * 16 + static_cast<uint64_t>(digit);
  }
  if (size > max_body_ - body_.size()) return Fail("response larger than the limit");
  remaining_ = size;
  state_ = size == 0 ? kTrailers : kChunkData;
  return kNeedMore;
}

HttpResponseParser::Result HttpResponseParser::Feed(std::string_view data, size_t* used) {
  const size_t size = data.size();
  Result result = state_ == kFinished ? kDone : state_ == kFailed ? kError : kNeedMore;
  while (result == kNeedMore && !data.empty()) {
    bool too_long = false;
    switch (state_) {
      case kHead: {
        if (!TakeLine(&data, kHttpMaxResponseHead - head_.size(), &too_long)) {
          if (too_long) result = Fail("response head too large");
          break;
        }
        if (too_long) {
          result = Fail("response head too large");
          break;
        }
        bool empty = line_ == "\n" || line_ == "\r\n";
        if (!empty) {
          head_ += line_;
        } else if (head_.empty()) {
          // RFC 9112 §2.2: tolerate a few empty lines before the status line.
          if (++leading_empty_lines_ > 4) result = Fail("empty lines instead of a response");
        } else {
          std::string head;
          head.swap(head_);
          result = OnHead(head);
        }
        line_.clear();
        break;
      }
      case kLengthBody:
      case kChunkData: {
        size_t take = static_cast<size_t>(std::min<uint64_t>(remaining_, data.size()));
        body_.append(data.substr(0, take));
        data.remove_prefix(take);
        remaining_ -= take;
        if (remaining_ == 0) {
          state_ = state_ == kLengthBody ? kFinished : kChunkDataEnd;
          if (state_ == kFinished) result = kDone;
        }
        break;
      }
      case kChunkSize:
      case kChunkDataEnd:
      case kTrailers: {
        if (!TakeLine(&data, kHttpMaxChunkLine, &too_long)) {
          if (too_long) result = Fail("chunk line too long");
          break;
        }
        if (too_long) {
          result = Fail("chunk line too long");
          break;
        }
        std::string_view line = line_;
        line.remove_suffix(1);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.find('\r') != std::string_view::npos) {
          result = Fail("stray CR in a chunked body");
          break;
        }
        std::string copy(line);
        line_.clear();
        if (state_ == kChunkSize) {
          result = OnChunkSizeLine(copy);
        } else if (state_ == kChunkDataEnd) {
          if (!copy.empty()) result = Fail("chunk longer than its size");
          else state_ = kChunkSize;
        } else if (copy.empty()) {
          state_ = kFinished;
          result = kDone;
        } else {
          std::pair<std::string, std::string> trailer;
          if (!ParseHttpHeaderLine(copy, &trailer) || ++trailers_ > kHttpMaxResponseHeaders)
            result = Fail("malformed trailer");
        }
        break;
      }
      case kUntilClose:
        if (data.size() > max_body_ - body_.size()) {
          result = Fail("response larger than the limit");
          break;
        }
        body_.append(data);
        data = {};
        break;
      case kFinished:
      case kFailed:
        break;
    }
  }
  *used = size - data.size();
  return result;
}

HttpResponseParser::Result HttpResponseParser::FeedEnd() {
  if (state_ == kFinished) return kDone;
  if (state_ == kFailed) return kError;
  if (state_ == kUntilClose) {
    state_ = kFinished;
    return kDone;
  }
  if (state_ == kHead && line_.empty() && head_.empty()) return Fail("connection closed without a response");
  return Fail("connection closed in the middle of a response");
}

HttpConnection::HttpConnection(std::vector<sockaddr_storage> addresses, HttpTimeouts timeouts)
    : addresses_(std::move(addresses)), timeouts_(timeouts) {}

HttpConnection::~HttpConnection() { Close(); }

void HttpConnection::Close() {
  if (fd_ >= 0) CloseSocket(fd_);
  fd_ = -1;
}

bool HttpConnection::Wait(short events, int64_t deadline_ms, std::string* err) {
  while (true) {
    int64_t now = NowMillis();
    int64_t wait = std::min<int64_t>(timeouts_.idle_ms, deadline_ms - now);
    if (wait <= 0) {
      *err = "no complete response within " + Seconds(timeouts_.total_ms);
      return false;
    }
    pollfd poll_fd = PollEntry(fd_, events);
    int ready = PollSockets(&poll_fd, 1, static_cast<int>(wait));
    if (ready > 0) return true;
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) {
      *err = std::string("poll: ") + strerror(errno);
      return false;
    }
    if (wait == timeouts_.idle_ms) {
      *err = "no answer for " + Seconds(timeouts_.idle_ms);
      return false;
    }
  }
}

bool HttpConnection::Connect(int64_t deadline_ms, std::string* err) {
  if (addresses_.empty()) {
    *err = "the host name could not be resolved via /etc/hosts or DNS";
    return false;
  }
  int64_t connect_deadline = std::min(deadline_ms, NowMillis() + timeouts_.connect_ms);
  for (const sockaddr_storage& address : addresses_) {
    Close();
    fd_ = OpenSocket(address.ss_family, SOCK_STREAM, /*non_blocking=*/true);
    if (fd_ < 0) {
      *err = std::string("socket: ") + strerror(errno);
      continue;
    }
    SetSocketNoDelay(fd_);  // no 40 ms Nagle stall per request
    if (ConnectSocket(fd_, address) == 0) return true;
    if (errno != EINPROGRESS) {
      *err = std::string("connect: ") + strerror(errno);
      continue;
    }
    pollfd poll_fd = PollEntry(fd_, POLLOUT);
    int ready;
    do {
      int64_t wait = connect_deadline - NowMillis();
      ready = wait > 0 ? PollSockets(&poll_fd, 1, static_cast<int>(wait)) : 0;
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0) {
      *err = "connect: timed out";
      continue;
    }
    int error = SocketPendingError(fd_);
    if (error == 0) return true;
    *err = std::string("connect: ") + strerror(error);
  }
  Close();
  return false;
}

bool HttpConnection::SendAll(std::string_view bytes, int64_t deadline_ms, std::string* err) {
  while (!bytes.empty()) {
    int64_t sent = SendSocket(fd_, bytes.data(), bytes.size());
    if (sent > 0) {
      bytes.remove_prefix(static_cast<size_t>(sent));
    } else if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      if (!Wait(POLLOUT, deadline_ms, err)) return false;
    } else if (!(sent < 0 && errno == EINTR)) {
      *err = std::string("send: ") + (sent < 0 ? strerror(errno) : "nothing sent");
      return false;
    }
  }
  return true;
}

bool HttpConnection::Exchange(const std::string& head, std::string_view body,
                              HttpResponseParser* response, bool* got_bytes, std::string* err) {
  int64_t deadline = NowMillis() + timeouts_.total_ms;
  *got_bytes = false;
  if (fd_ < 0 && !Connect(deadline, err)) return false;
  if (!SendAll(head, deadline, err) || !SendAll(body, deadline, err)) return false;
  char buffer[65536];
  while (true) {
    if (!Wait(POLLIN, deadline, err)) return false;
    int64_t got = ReceiveSocket(fd_, buffer, sizeof buffer);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) continue;
    if (got < 0) {
      *err = std::string("recv: ") + strerror(errno);
      return false;
    }
    HttpResponseParser::Result result;
    size_t used = 0;
    if (got == 0) {
      result = response->FeedEnd();
    } else {
      *got_bytes = true;
      result = response->Feed(std::string_view(buffer, static_cast<size_t>(got)), &used);
    }
    if (result == HttpResponseParser::kError) {
      *err = response->error();
      return false;
    }
    if (result == HttpResponseParser::kDone) {
      // Bytes beyond the response are not ours to read: start afresh.
      if (!response->keep_alive() || used < static_cast<size_t>(got)) Close();
      return true;
    }
  }
}

bool HttpConnection::Request(std::string_view method, std::string_view target,
                             std::string_view host_header, std::string_view body, bool with_body,
                             size_t max_body, HttpResponseParser* response, std::string* err) {
  std::string head = FormatHttpRequest(method, target, host_header,
                                       with_body ? static_cast<int64_t>(body.size()) : -1);
  bool head_request = method == "HEAD";
  bool reused = fd_ >= 0;
  bool got_bytes = false;
  *response = HttpResponseParser(max_body, head_request);
  if (Exchange(head, body, response, &got_bytes, err)) return true;
  Close();
  if (!reused || got_bytes) return false;
  // The server had closed the kept-alive connection: one more try on a new one.
  *response = HttpResponseParser(max_body, head_request);
  if (Exchange(head, body, response, &got_bytes, err)) return true;
  Close();
  return false;
}

}  // namespace ronin

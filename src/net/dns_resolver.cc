// See net/dns_resolver.h.
#include "net/dns_resolver.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <random>

#include "base/disk.h"
#include "base/util.h"
#include "net/http_common.h"  // AsciiLower, ParsePort
#include "net/http_server.h"  // ParseNumericAddress

namespace ronin {

namespace {

constexpr int kMaxNameservers = 3;
constexpr size_t kMaxSearchDomains = 6;
constexpr int kMaxTimeoutMs = 2000;
constexpr int kMaxAttempts = 2;
constexpr int kMaxOptionValue = 1 << 20;  // more than any option's range
constexpr int kMaxCnameSteps = 16;
// A name is at most 255 bytes on the wire, so more jumps than this loop.
constexpr int kMaxPointerJumps = 128;
constexpr size_t kMaxUdpAnswer = 4096;

// "ADDR", "V4:PORT" or "[V6]:PORT".
bool ParseNameserver(std::string_view text, sockaddr_storage* address) {
  std::string host(text);
  int port = 53;
  size_t colon = text.rfind(':');
  if (!text.empty() && text[0] == '[') {
    size_t close = text.find(']');
    if (close == std::string_view::npos || close + 1 >= text.size() || text[close + 1] != ':')
      return false;
    host = std::string(text.substr(1, close - 1));
    colon = close + 1;
  } else if (colon == std::string_view::npos || text.find(':') != colon) {
    return ParseNumericAddress(host, port, address);  // no port (IPv6 has several colons)
  } else {
    host = std::string(text.substr(0, colon));
  }
  return ParsePort(text.substr(colon + 1), &port) && ParseNumericAddress(host, port, address);
}

// "name:N" as N, when `option` is "name:N".
bool OptionValue(std::string_view option, std::string_view name, int* value) {
  if (option.size() <= name.size() + 1 || option.substr(0, name.size()) != name ||
      option[name.size()] != ':')
    return false;
  // Its leading digits, saturating: every caller clamps the value to a small
  // range, and a huge number must not overflow on the way (a minus sign
  // reads as 0, which those ranges treat as atoi's negative value).
  *value = 0;
  for (char c : option.substr(name.size() + 1)) {
    if (c < '0' || c > '9') break;
    *value = std::min(*value * 10 + (c - '0'), kMaxOptionValue);
  }
  return true;
}

}  // namespace

ResolvConf ParseResolvConf(std::string_view text) {
  ResolvConf conf;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    start = end + 1;
    line = line.substr(0, std::min(line.find('#'), line.find(';')));
    std::vector<std::string_view> fields = WhitespaceFields(line);
    if (fields.size() < 2) continue;
    sockaddr_storage address;
    if (fields[0] == "nameserver") {
      if (conf.nameservers.size() < kMaxNameservers && ParseNameserver(fields[1], &address))
        conf.nameservers.push_back(address);
    } else if (fields[0] == "search" || fields[0] == "domain") {
      conf.search.clear();  // the last of these lines wins, as glibc
      for (size_t i = 1; i < fields.size() && conf.search.size() < kMaxSearchDomains; ++i)
        conf.search.emplace_back(fields[i]);
    } else if (fields[0] == "options") {
      for (size_t i = 1; i < fields.size(); ++i) {
        int value = 0;
        if (OptionValue(fields[i], "ndots", &value)) conf.ndots = std::clamp(value, 0, 15);
        if (OptionValue(fields[i], "timeout", &value))
          conf.timeout_ms = std::clamp(value * 1000, 100, kMaxTimeoutMs);
        if (OptionValue(fields[i], "attempts", &value))
          conf.attempts = std::clamp(value, 1, kMaxAttempts);
      }
    }
  }
  if (conf.nameservers.empty()) {
    sockaddr_storage local;
    ParseNumericAddress("127.0.0.1", 53, &local);
    conf.nameservers.push_back(local);
  }
  return conf;
}

bool BuildDnsQuery(uint16_t id, std::string_view name, uint16_t type, std::string* packet) {
  if (!name.empty() && name.back() == '.') name.remove_suffix(1);
  if (name.empty() || name.size() > 253) return false;
  const unsigned char header[12] = {static_cast<unsigned char>(id >> 8),
                                    static_cast<unsigned char>(id & 0xff),
                                    0x01, 0x00,  // a query, recursion desired
                                    0, 1, 0, 0, 0, 0, 0, 0};
  packet->assign(reinterpret_cast<const char*>(header), sizeof(header));
  size_t start = 0;
  while (start <= name.size()) {
    size_t end = std::min(name.find('.', start), name.size());
    size_t length = end - start;
    if (length == 0 || length > 63) return false;
    packet->push_back(static_cast<char>(length));
    packet->append(name.substr(start, length));
    start = end + 1;
  }
  const unsigned char tail[5] = {0, static_cast<unsigned char>(type >> 8),
                                 static_cast<unsigned char>(type & 0xff), 0, 1};  // class IN
  packet->append(reinterpret_cast<const char*>(tail), sizeof(tail));
  return true;
}

namespace {

// Reads a packet front to back; every read is bounds-checked.
class PacketReader {
 public:
  explicit PacketReader(std::string_view packet) : packet_(packet) {}

  size_t offset() const { return offset_; }
  bool Skip(size_t n) {
    if (packet_.size() - offset_ < n) return false;
    offset_ += n;
    return true;
  }
  bool U16(uint16_t* value) {
    if (packet_.size() - offset_ < 2) return false;
    *value = static_cast<uint16_t>(Byte(offset_) << 8 | Byte(offset_ + 1));
    offset_ += 2;
    return true;
  }
  bool Bytes(size_t n, std::string_view* bytes) {
    if (packet_.size() - offset_ < n) return false;
    *bytes = packet_.substr(offset_, n);
    offset_ += n;
    return true;
  }
  // A possibly compressed name at the current offset, lowercased, labels
  // joined by '.'; the reader moves past its in-place part. Pointer loops
  // are cut by a jump limit (no recursion).
  bool Name(std::string* name) { return NameAt(offset_, name, &offset_); }
  bool NameAt(size_t at, std::string* name, size_t* after) const {
    name->clear();
    size_t wire_length = 1;
    int jumps = 0;
    bool jumped = false;
    for (;;) {
      if (at >= packet_.size()) return false;
      unsigned length = Byte(at);
      if ((length & 0xc0) == 0xc0) {
        if (at + 1 >= packet_.size() || ++jumps > kMaxPointerJumps) return false;
        if (!jumped) *after = at + 2;
        jumped = true;
        at = (length & 0x3f) << 8 | Byte(at + 1);
        continue;
      }
      if (length & 0xc0) return false;  // reserved label types
      if (length == 0) {
        if (!jumped) *after = at + 1;
        return true;
      }
      if (packet_.size() - at - 1 < length) return false;
      wire_length += length + 1;
      if (wire_length > 255) return false;
      std::string_view label = packet_.substr(at + 1, length);
      if (label.find('.') != std::string_view::npos) return false;  // would alias two labels
      if (!name->empty()) name->push_back('.');
      *name += AsciiLower(label);
      at += 1 + length;
    }
  }

 private:
  unsigned Byte(size_t at) const { return static_cast<unsigned char>(packet_[at]); }

  std::string_view packet_;
  size_t offset_ = 0;
};

struct Record {
  std::string owner;
  uint16_t type;
  std::string data;  // the address bytes, or the CNAME's target name
};

}  // namespace

bool ParseDnsResponse(std::string_view packet, uint16_t id, std::string_view name, uint16_t type,
                      DnsAnswer* answer, std::string* err) {
  *answer = DnsAnswer();
  PacketReader reader(packet);
  uint16_t got_id, flags, questions, answers;
  if (!reader.U16(&got_id) || !reader.U16(&flags) || !reader.U16(&questions) ||
      !reader.U16(&answers) || !reader.Skip(4)) {
    *err = "shorter than a DNS header";
    return false;
  }
  if (got_id != id || !(flags & 0x8000)) {
    *err = "not the answer to this query";
    return false;
  }
  answer->truncated = flags & 0x0200;
  answer->rcode = flags & 0x000f;
  std::string asked = AsciiLower(name);
  if (!asked.empty() && asked.back() == '.') asked.pop_back();
  std::string question;
  uint16_t question_type, question_class;
  if (questions != 1 || !reader.Name(&question) || !reader.U16(&question_type) ||
      !reader.U16(&question_class) || question != asked || question_type != type ||
      question_class != 1) {
    *err = "answers another question";
    return false;
  }
  std::vector<Record> records;
  for (uint16_t i = 0; i < answers; ++i) {
    Record record;
    uint16_t record_class, length;
    std::string_view data;
    if (!reader.Name(&record.owner) || !reader.U16(&record.type) || !reader.U16(&record_class) ||
        !reader.Skip(4) || !reader.U16(&length)) {
      if (answer->truncated) break;  // a truncated answer may end anywhere
      *err = "malformed answer record";
      return false;
    }
    size_t data_offset = reader.offset();
    if (!reader.Bytes(length, &data)) {
      if (answer->truncated) break;
      *err = "answer record data past the end";
      return false;
    }
    if (record_class != 1) continue;
    if (record.type == kDnsTypeCname) {
      size_t after = 0;
      if (!reader.NameAt(data_offset, &record.data, &after) || after > data_offset + length) {
        *err = "malformed CNAME";
        return false;
      }
    } else if ((record.type == kDnsTypeA && length == 4) ||
               (record.type == kDnsTypeAaaa && length == 16)) {
      record.data = std::string(data);
    } else {
      continue;  // other types, and addresses of the wrong size, are ignored
    }
    records.push_back(std::move(record));
  }
  // Follow the CNAME chain from the question's name (bounded: a loop ends).
  std::string current = asked;
  for (int step = 0; step < kMaxCnameSteps; ++step) {
    auto cname = std::find_if(records.begin(), records.end(), [&](const Record& r) {
      return r.type == kDnsTypeCname && r.owner == current;
    });
    if (cname == records.end()) break;
    current = cname->data;
  }
  for (const Record& record : records) {
    if (record.type == type && record.owner == current) answer->addresses.push_back(record.data);
  }
  return true;
}

namespace {

std::string AddressText(const sockaddr_storage& address) {
  char text[INET6_ADDRSTRLEN] = "?";
  if (address.ss_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in&>(address).sin_addr, text, sizeof(text));
  else
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6&>(address).sin6_addr, text,
              sizeof(text));
  return text;
}

sockaddr_storage WithAddress(std::string_view bytes, int port) {
  sockaddr_storage address;
  memset(&address, 0, sizeof(address));
  if (bytes.size() == 4) {
    sockaddr_in* v4 = reinterpret_cast<sockaddr_in*>(&address);
    v4->sin_family = AF_INET;
    v4->sin_port = htons(static_cast<uint16_t>(port));
    memcpy(&v4->sin_addr, bytes.data(), 4);
  } else {
    sockaddr_in6* v6 = reinterpret_cast<sockaddr_in6*>(&address);
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(static_cast<uint16_t>(port));
    memcpy(&v6->sin6_addr, bytes.data(), 16);
  }
  return address;
}

enum class Outcome { kFound, kNoName, kFailed };

// One A and one AAAA query for `name` to `server`, answered within
// `timeout_ms`. Answers that do not parse are ignored (a spoofer or a
// stale answer), so they cost no more than the timeout.
Outcome AskServer(const sockaddr_storage& server, const std::string& name, int timeout_ms,
                  std::vector<std::string>* found, std::string* err) {
  static std::mt19937 random_ids{std::random_device{}()};
  const uint16_t types[2] = {kDnsTypeA, kDnsTypeAaaa};
  uint16_t ids[2];
  std::string queries[2];
  for (int i = 0; i < 2; ++i) {
    ids[i] = static_cast<uint16_t>(random_ids());
    if (!BuildDnsQuery(ids[i], name, types[i], &queries[i])) {
      *err = "not a valid DNS name";
      return Outcome::kNoName;
    }
  }
  std::string where = "nameserver " + AddressText(server);
  int fd = OpenSocket(server.ss_family, SOCK_DGRAM, /*non_blocking=*/false);
  if (fd < 0 || ConnectSocket(fd, server) != 0) {
    *err = where + ": " + strerror(errno);
    if (fd >= 0) CloseSocket(fd);
    return Outcome::kFailed;
  }
  bool answered[2] = {false, false};
  DnsAnswer answers[2];
  for (int i = 0; i < 2; ++i) SendSocket(fd, queries[i].data(), queries[i].size());
  int64_t deadline = MonotonicMillis() + timeout_ms;
  *err = where + ": no answer within " + std::to_string(timeout_ms) + " ms";
  while (!(answered[0] && answered[1])) {
    int64_t left = deadline - MonotonicMillis();
    pollfd waiting = PollEntry(fd, POLLIN);
    if (left <= 0 || PollSockets(&waiting, 1, static_cast<int>(left)) <= 0) break;
    char buffer[kMaxUdpAnswer];
    int64_t got = ReceiveSocket(fd, buffer, sizeof(buffer));
    if (got < 0) {
      if (errno == EINTR) continue;
      *err = where + ": " + strerror(errno);  // e.g. an ICMP port unreachable
      break;
    }
    std::string ignored;
    for (int i = 0; i < 2; ++i) {
      if (!answered[i] && ParseDnsResponse(std::string_view(buffer, got), ids[i], name,
                                           types[i], &answers[i], &ignored))
        answered[i] = true;
    }
  }
  CloseSocket(fd);
  for (int i = 0; i < 2; ++i) {
    if (answered[i]) found->insert(found->end(), answers[i].addresses.begin(),
                                   answers[i].addresses.end());
  }
  if (!found->empty()) return Outcome::kFound;
  if (!answered[0] || !answered[1]) return Outcome::kFailed;
  for (const DnsAnswer& answer : answers) {
    if (answer.truncated) {
      *err = where + ": answer truncated (DNS over TCP is not supported)";
      return Outcome::kFailed;
    }
    if (answer.rcode != 0 && answer.rcode != 3) {
      *err = where + ": answered with error code " + std::to_string(answer.rcode);
      return Outcome::kFailed;
    }
  }
  *err = where + ": no such name";
  return Outcome::kNoName;
}

// The names to ask for `host`, in order, as glibc: the name as given first
// when it has at least ndots dots, else after the search domains.
std::vector<std::string> Candidates(const std::string& host, const ResolvConf& conf) {
  if (!host.empty() && host.back() == '.') return {host};
  std::vector<std::string> names;
  int dots = static_cast<int>(std::count(host.begin(), host.end(), '.'));
  if (dots >= conf.ndots) names.push_back(host);
  for (const std::string& domain : conf.search) names.push_back(host + "." + domain);
  if (dots < conf.ndots) names.push_back(host);
  return names;
}

}  // namespace

bool ResolveWithDns(const std::string& host, int port, const char* resolv_conf_path,
                    std::vector<sockaddr_storage>* addresses, std::string* err) {
  if (const char* path = getenv("RONIN_RESOLV_CONF")) resolv_conf_path = path;
  std::string contents, read_err;
  RealDiskInterface().ReadFile(resolv_conf_path, &contents, &read_err);  // absent: defaults
  ResolvConf conf = ParseResolvConf(contents);
  std::string last_err = "no nameserver";
  for (const std::string& name : Candidates(host, conf)) {
    bool no_name = false;
    for (int attempt = 0; attempt < conf.attempts && !no_name; ++attempt) {
      for (const sockaddr_storage& server : conf.nameservers) {
        std::vector<std::string> found;
        Outcome outcome = AskServer(server, name, conf.timeout_ms, &found, &last_err);
        if (outcome == Outcome::kFound) {
          for (const std::string& bytes : found) addresses->push_back(WithAddress(bytes, port));
          return true;
        }
        if (outcome == Outcome::kNoName) {
          no_name = true;  // an answer, not a failure: the next server would say the same
          break;
        }
      }
    }
  }
  *err = last_err;
  return false;
}

}  // namespace ronin

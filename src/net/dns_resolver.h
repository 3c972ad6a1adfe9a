// A DNS stub resolver for the HTTP cache's host name, used after the
// numeric and /etc/hosts attempts (ResolveListenAddresses) find nothing.
// ninja is a static binary, so glibc's getaddrinfo (NSS) is not usable;
// this asks the nameservers of /etc/resolv.conf directly, over UDP.
#ifndef RONIN_NET_DNS_RESOLVER_H_
#define RONIN_NET_DNS_RESOLVER_H_

#include <stdint.h>

#include <string>
#include <string_view>
#include <vector>
#include "net/socket.h"

namespace ronin {

// What /etc/resolv.conf says, as far as a stub resolver needs.
struct ResolvConf {
  std::vector<sockaddr_storage> nameservers;  // at most 3, as glibc
  std::vector<std::string> search;            // at most 6 domains
  int ndots = 1;
  int timeout_ms = 2000;  // per nameserver and try; capped at 2 s
  int attempts = 1;       // rounds over the nameservers; capped at 2
};

// `nameserver ADDR` lines (IPv4 or IPv6; also ADDR:PORT and [V6]:PORT, which
// glibc ignores, so that tests can name a server on a high port), `search`
// and `domain`, and `options ndots:N timeout:N attempts:N`. Unknown lines
// are skipped. No nameserver means 127.0.0.1, as glibc.
ResolvConf ParseResolvConf(std::string_view text);

constexpr uint16_t kDnsTypeA = 1;
constexpr uint16_t kDnsTypeCname = 5;
constexpr uint16_t kDnsTypeAaaa = 28;

// A recursive query for `name` (dots between labels, an optional final
// dot). False for a name DNS cannot carry (empty label, label > 63 bytes,
// name > 253 bytes).
bool BuildDnsQuery(uint16_t id, std::string_view name, uint16_t type, std::string* packet);

// What a response says about the question asked.
struct DnsAnswer {
  int rcode = 0;        // 0 no error, 3 NXDOMAIN, ...
  bool truncated = false;
  // The addresses (4 bytes for A, 16 for AAAA) of `name`, or of the end of
  // the CNAME chain starting at `name` within the answer section.
  std::vector<std::string> addresses;
};

// Parses `packet` as the answer to query `id` for (`name`, `type`). False,
// with the reason, for anything malformed or not answering that question
// (wrong id, not a response, another question, bad compression pointers).
bool ParseDnsResponse(std::string_view packet, uint16_t id, std::string_view name, uint16_t type,
                      DnsAnswer* answer, std::string* err);

// The A and AAAA addresses of `host` with `port` filled in, asking the
// nameservers of `resolv_conf_path` (RONIN_RESOLV_CONF overrides it, for
// tests). Bounded in time by ResolvConf's timeout and attempts. False with
// a reason when nothing was found.
bool ResolveWithDns(const std::string& host, int port, const char* resolv_conf_path,
                    std::vector<sockaddr_storage>* addresses, std::string* err);

// The addresses of `host` (a name or a numeric address) with `port`, as
// this platform finds them: on POSIX a numeric address, then /etc/hosts
// (ResolveListenAddresses), then ResolveWithDns with /etc/resolv.conf
// (host_resolution_posix.cc); on Windows a numeric address, then the
// system's hosts file, then the system's resolver (host_resolution_win.cc).
// False with a reason when nothing was found.
bool ResolveHost(const std::string& host, int port, std::vector<sockaddr_storage>* addresses,
                 std::string* err);

}  // namespace ronin

#endif  // RONIN_NET_DNS_RESOLVER_H_

// dns_resolver.h's ResolveHost on Windows: the hosts file under the system
// directory, then the system's resolver (getaddrinfo), which knows the
// machine's DNS servers (there is no resolv.conf to read). For tests,
// RONIN_RESOLV_CONF names nameservers that ronin's own client asks instead,
// as on POSIX (under wine getaddrinfo is the Linux host's, which no test
// can point at a DNS server of its own).
#include "net/dns_resolver.h"
#include "net/http_server.h"  // ResolveListenAddresses: numeric and hosts-file names

#include <stdlib.h>
#include <string.h>

namespace ronin {

namespace {

std::string HostsFile() {
  char system[MAX_PATH];
  UINT size = GetSystemDirectoryA(system, sizeof system);
  if (size == 0 || size >= sizeof system) return "C:\\Windows\\System32\\drivers\\etc\\hosts";
  return std::string(system, size) + "\\drivers\\etc\\hosts";
}

}  // namespace

bool ResolveHost(const std::string& host, int port, std::vector<sockaddr_storage>* addresses,
                 std::string* err) {
  if (ResolveListenAddresses(host, port, HostsFile().c_str(), addresses, err)) return true;
  if (const char* resolv_conf = getenv("RONIN_RESOLV_CONF"))
    return ResolveWithDns(host, port, resolv_conf, addresses, err);
  // A socket starts Winsock, which getaddrinfo needs.
  int probe = OpenSocket(AF_INET, SOCK_STREAM, false);
  if (probe >= 0) CloseSocket(probe);
  addrinfo hints = {};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::string service = std::to_string(port);
  int error = getaddrinfo(host.c_str(), service.c_str(), &hints, &found);
  if (error != 0) {
    *err = gai_strerrorA(error);
    return false;
  }
  for (addrinfo* at = found; at; at = at->ai_next) {
    if (at->ai_family != AF_INET && at->ai_family != AF_INET6) continue;
    sockaddr_storage address = {};
    memcpy(&address, at->ai_addr, at->ai_addrlen);
    addresses->push_back(address);
  }
  freeaddrinfo(found);
  if (addresses->empty()) *err = "no address found";
  return !addresses->empty();
}

}  // namespace ronin

// dns_resolver.h's ResolveHost on POSIX: ninja is a static binary, so not
// glibc's getaddrinfo (NSS), but /etc/hosts and then ronin's own DNS stub.
#include "net/dns_resolver.h"
#include "net/http_server.h"  // ResolveListenAddresses: numeric and /etc/hosts names

namespace ronin {

bool ResolveHost(const std::string& host, int port, std::vector<sockaddr_storage>* addresses,
                 std::string* err) {
  return ResolveListenAddresses(host, port, "/etc/hosts", addresses, err) ||
         ResolveWithDns(host, port, "/etc/resolv.conf", addresses, err);
}

}  // namespace ronin

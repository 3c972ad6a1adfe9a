// Fuzz target: the DNS stub resolver's response parser and resolv.conf
// parser (net/dns_resolver.h), which read what any host on the path may send
// to the resolver's UDP port, and a file the user edits.
//
// Input: the first byte picks the query type (A or AAAA) and the question
// name ("cache.test" or "a.b"); the rest is a response packet (its first
// two bytes are taken as the query id, so parsing gets past the header),
// also tried as a resolv.conf.
// Checks: nothing crashes or loops; a failure always says why; addresses
// have the size of the asked type; a query built for the name parses back
// as its own question with no answer; resolv.conf always yields 1 to 3
// nameservers and bounded options.
#include <stddef.h>
#include <stdint.h>

#include <string>
#include <string_view>

#include "fuzz_support.h"
#include "net/dns_resolver.h"

using namespace ronin;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  uint16_t type = (data[0] & 1) ? kDnsTypeAaaa : kDnsTypeA;
  std::string_view name = (data[0] & 2) ? "a.b" : "cache.test";
  std::string_view packet(reinterpret_cast<const char*>(data + 1), size - 1);
  uint16_t id = packet.size() >= 2 ? static_cast<uint16_t>(data[1] << 8 | data[2]) : 0;

  DnsAnswer answer;
  std::string err;
  if (ParseDnsResponse(packet, id, name, type, &answer, &err)) {
    FUZZ_CHECK(answer.rcode >= 0 && answer.rcode <= 15);
    for (const std::string& address : answer.addresses)
      FUZZ_CHECK(address.size() == (type == kDnsTypeA ? 4u : 16u));
  } else {
    FUZZ_CHECK(!err.empty());
  }

  // A query is not a response (no QR bit), so it never parses as one.
  std::string query;
  FUZZ_CHECK(BuildDnsQuery(id, name, type, &query));
  FUZZ_CHECK(!ParseDnsResponse(query, id, name, type, &answer, &err));
  query[2] = static_cast<char>(query[2] | 0x80);
  FUZZ_CHECK(ParseDnsResponse(query, id, name, type, &answer, &err));
  FUZZ_CHECK(answer.addresses.empty() && answer.rcode == 0);

  ResolvConf conf = ParseResolvConf(packet);
  FUZZ_CHECK(conf.nameservers.size() >= 1 && conf.nameservers.size() <= 3);
  FUZZ_CHECK(conf.search.size() <= 6);
  FUZZ_CHECK(conf.timeout_ms >= 100 && conf.timeout_ms <= 2000);
  FUZZ_CHECK(conf.attempts >= 1 && conf.attempts <= 2);
  return 0;
}

// Tests for the DNS stub resolver's plain parts (net/dns_resolver.h):
// resolv.conf, queries, and responses built here byte by byte.
#include "net/dns_resolver.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>

#include <string>

using namespace ronin;

namespace {

std::string U16(uint16_t value) {
  return std::string{static_cast<char>(value >> 8), static_cast<char>(value & 0xff)};
}

std::string Header(uint16_t id, uint16_t flags, uint16_t answers) {
  return U16(id) + U16(flags) + U16(1) + U16(answers) + U16(0) + U16(0);
}

// A record whose owner is `owner` (wire bytes, maybe a pointer).
std::string Record(const std::string& owner, uint16_t type, const std::string& data) {
  return owner + U16(type) + U16(1) + std::string("\0\0\0\x3c", 4) + U16(data.size()) + data;
}

const std::string kCacheTest = std::string("\5cache\4test\0", 12);
const std::string kQuestionA = kCacheTest + U16(kDnsTypeA) + U16(1);
const std::string kPointerToQuestion = "\xc0\x0c";  // the question's name at offset 12
const std::string kLoopback("\x7f\0\0\x01", 4);

std::string Parse(const std::string& packet, uint16_t type = kDnsTypeA, DnsAnswer* out = nullptr) {
  DnsAnswer answer;
  std::string err;
  if (!ParseDnsResponse(packet, 0x1234, "Cache.Test", type, &answer, &err)) return "error: " + err;
  if (out) *out = answer;
  std::string text = "rcode " + std::to_string(answer.rcode);
  for (const std::string& bytes : answer.addresses) {
    char buffer[64];
    inet_ntop(bytes.size() == 4 ? AF_INET : AF_INET6, bytes.data(), buffer, sizeof(buffer));
    text += std::string(" ") + buffer;
  }
  return text;
}

TEST(DnsQueryTest, LabelsTypeAndClass) {
  std::string packet;
  ASSERT_TRUE(BuildDnsQuery(0x1234, "cache.test.", kDnsTypeAaaa, &packet));
  EXPECT_EQ(Header(0x1234, 0x0100, 0) + kCacheTest + U16(kDnsTypeAaaa) + U16(1), packet);
  EXPECT_FALSE(BuildDnsQuery(1, "a..b", kDnsTypeA, &packet));
  EXPECT_FALSE(BuildDnsQuery(1, "", kDnsTypeA, &packet));
  EXPECT_FALSE(BuildDnsQuery(1, std::string(64, 'x'), kDnsTypeA, &packet));
}

TEST(DnsResponseTest, AddressThroughCompressionPointer) {
  std::string packet = Header(0x1234, 0x8180, 2) + kQuestionA +
                       Record(kPointerToQuestion, kDnsTypeA, kLoopback) +
                       Record(kPointerToQuestion, kDnsTypeA, std::string("\x0a\0\0\x02", 4));
  EXPECT_EQ("rcode 0 127.0.0.1 10.0.0.2", Parse(packet));
}

TEST(DnsResponseTest, FollowsCnameChain) {
  // cache.test CNAME www.cache.test (label + pointer), www CNAME box.test,
  // box.test A 10.1.1.1; an A record of the first name in between is not
  // the end of the chain.
  size_t second_owner = 12 + kQuestionA.size() + 2 + 10;  // the CNAME's data
  std::string chain = Header(0x1234, 0x8180, 4) + kQuestionA +
                      Record(kPointerToQuestion, kDnsTypeCname, "\3www\xc0\x0c");
  std::string box = std::string("\3box\4test\0", 10);
  chain += Record(std::string("\xc0", 1) + static_cast<char>(second_owner), kDnsTypeCname, box);
  chain += Record("\x03" "box" "\xc0\x12", kDnsTypeA, "\x0a\x01\x01\x01");  // box + ".test" of the question
  chain += Record(kPointerToQuestion, kDnsTypeA, std::string("\x0b\0\0\x01", 4));
  EXPECT_EQ("rcode 0 10.1.1.1", Parse(chain));
}

TEST(DnsResponseTest, CnameLoopEnds) {
  std::string packet = Header(0x1234, 0x8180, 1) + kQuestionA +
                       Record(kPointerToQuestion, kDnsTypeCname, kPointerToQuestion);
  EXPECT_EQ("rcode 0", Parse(packet));
}

TEST(DnsResponseTest, NxdomainAndAaaa) {
  EXPECT_EQ("rcode 3", Parse(Header(0x1234, 0x8183, 0) + kQuestionA));
  std::string v6(16, '\0');
  v6[15] = 1;
  std::string packet = Header(0x1234, 0x8180, 2) + kCacheTest + U16(kDnsTypeAaaa) + U16(1) +
                       Record(kPointerToQuestion, kDnsTypeAaaa, v6) +
                       Record(kPointerToQuestion, kDnsTypeA, kLoopback);  // not asked for
  EXPECT_EQ("rcode 0 ::1", Parse(packet, kDnsTypeAaaa));
}

TEST(DnsResponseTest, OtherQueriesAndGarbageAreRejected) {
  EXPECT_EQ("error: shorter than a DNS header", Parse("\x12\x34\x81"));
  EXPECT_EQ("error: not the answer to this query",
            Parse(Header(0x4321, 0x8180, 0) + kQuestionA));
  EXPECT_EQ("error: not the answer to this query", Parse(Header(0x1234, 0x0100, 0) + kQuestionA));
  EXPECT_EQ("error: answers another question",
            Parse(Header(0x1234, 0x8180, 0) + kCacheTest + U16(kDnsTypeAaaa) + U16(1)));
  EXPECT_EQ("error: answers another question",
            Parse(Header(0x1234, 0x8180, 0) + "\xc0\x0c" + U16(1) + U16(1)));  // self pointer
  EXPECT_EQ("error: answer record data past the end",
            Parse(Header(0x1234, 0x8180, 1) + kQuestionA +
                  Record(kPointerToQuestion, kDnsTypeA, kLoopback).substr(0, 14)));
  EXPECT_EQ("error: malformed answer record",
            Parse(Header(0x1234, 0x8180, 1) + kQuestionA + "\xc0"));
  // A wrong-sized address is skipped, not trusted.
  EXPECT_EQ("rcode 0", Parse(Header(0x1234, 0x8180, 1) + kQuestionA +
                             Record(kPointerToQuestion, kDnsTypeA, std::string("\x7f\0\0", 3))));
}

TEST(DnsResponseTest, TruncatedAnswerKeepsWhatCame) {
  DnsAnswer answer;
  std::string packet = Header(0x1234, 0x8380, 2) + kQuestionA +
                       Record(kPointerToQuestion, kDnsTypeA, kLoopback) + "\xc0";
  EXPECT_EQ("rcode 0 127.0.0.1", Parse(packet, kDnsTypeA, &answer));
  EXPECT_TRUE(answer.truncated);
}

TEST(ResolvConfTest, NameserversSearchAndOptions) {
  ResolvConf conf = ParseResolvConf(
      "# comment\n"
      "nameserver 10.0.0.1\n"
      "nameserver ::1  # local\n"
      "nameserver 127.0.0.1:5353\n"
      "nameserver 10.0.0.9\n"  // a fourth is ignored, as glibc
      "search a.example b.example\n"
      "options ndots:2 timeout:9 attempts:5 rotate\n"
      "bogus line\n");
  ASSERT_EQ(3u, conf.nameservers.size());
  EXPECT_EQ(AF_INET, conf.nameservers[0].ss_family);
  EXPECT_EQ(AF_INET6, conf.nameservers[1].ss_family);
  EXPECT_EQ(htons(53), reinterpret_cast<sockaddr_in6&>(conf.nameservers[1]).sin6_port);
  EXPECT_EQ(htons(5353), reinterpret_cast<sockaddr_in&>(conf.nameservers[2]).sin_port);
  EXPECT_EQ((std::vector<std::string>{"a.example", "b.example"}), conf.search);
  EXPECT_EQ(2, conf.ndots);
  EXPECT_EQ(2000, conf.timeout_ms);  // capped
  EXPECT_EQ(2, conf.attempts);       // capped

  ResolvConf v6_port = ParseResolvConf("nameserver [::1]:5300\nnameserver 1.2.3.4:0\n");
  ASSERT_EQ(1u, v6_port.nameservers.size());
  EXPECT_EQ(htons(5300), reinterpret_cast<sockaddr_in6&>(v6_port.nameservers[0]).sin6_port);

  // Out-of-range values are clamped, huge ones without overflowing (fuzz
  // target dns_response found `timeout:17777777777777`).
  ResolvConf huge = ParseResolvConf("options timeout:17777777777777 ndots:99999999999 attempts:-3\n");
  EXPECT_EQ(2000, huge.timeout_ms);
  EXPECT_EQ(15, huge.ndots);
  EXPECT_EQ(1, huge.attempts);
  ResolvConf small = ParseResolvConf("options timeout:0 ndots:-1 attempts:x\n");
  EXPECT_EQ(100, small.timeout_ms);
  EXPECT_EQ(0, small.ndots);
  EXPECT_EQ(1, small.attempts);

  ResolvConf empty = ParseResolvConf("");
  ASSERT_EQ(1u, empty.nameservers.size());  // 127.0.0.1, as glibc
  EXPECT_EQ(AF_INET, empty.nameservers[0].ss_family);
}

}  // namespace

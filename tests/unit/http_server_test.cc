// Tests for net/http_server.h: request parsing and its limits, request-target
// splitting, percent-encoding, response writing, and one
// real server on the loopback interface (slow and broken clients must not
// stop it from answering others).
#include "net/http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "test_support.h"

#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>

namespace ronin {
namespace {

int Parse(const std::string& data, HttpRequest* request = nullptr) {
  HttpRequest scratch;
  return ParseHttpRequest(data, request ? request : &scratch);
}

TEST(HttpParseTest, SimpleGet) {
  HttpRequest request;
  ASSERT_EQ(200, Parse("GET /?a%20b HTTP/1.1\r\nHost: localhost:8000\r\nAccept:  */* \r\n\r\n",
                       &request));
  EXPECT_EQ("GET", request.method);
  EXPECT_EQ("/?a%20b", request.target);
  EXPECT_EQ(1, request.minor_version);
  ASSERT_EQ(2u, request.headers.size());
  EXPECT_EQ("host", request.headers[0].first);
  EXPECT_EQ("localhost:8000", request.headers[0].second);
  ASSERT_NE(nullptr, request.FindHeader("accept"));
  EXPECT_EQ("*/*", *request.FindHeader("accept"));
  EXPECT_EQ(nullptr, request.FindHeader("cookie"));
}

TEST(HttpParseTest, EveryPrefixIsIncomplete) {
  const std::string full = "GET /x HTTP/1.1\r\nHost: h\r\nX-Y: z\r\n\r\n";
  for (size_t length = 0; length < full.size(); ++length)
    EXPECT_EQ(0, Parse(full.substr(0, length))) << length;
  EXPECT_EQ(200, Parse(full));
}

TEST(HttpParseTest, BareLineFeedsAndBodyIgnored) {
  HttpRequest request;
  EXPECT_EQ(200, Parse("HEAD / HTTP/1.1\nHost: h\n\nbody bytes", &request));
  EXPECT_EQ("HEAD", request.method);
  EXPECT_EQ(200, Parse("GET / HTTP/1.1\r\nHost: h\r\n\r\nGET / HTTP/1.1\r\n"));
}

TEST(HttpParseTest, HostRules) {
  HttpRequest request;
  EXPECT_EQ(200, Parse("GET / HTTP/1.0\r\n\r\n", &request));
  EXPECT_EQ(0, request.minor_version);
  EXPECT_EQ(400, Parse("GET / HTTP/1.1\r\n\r\n"));
  EXPECT_EQ(400, Parse("GET / HTTP/1.1\r\nHost: a\r\nHOST: b\r\n\r\n"));
}

TEST(HttpParseTest, LeadingEmptyLines) {
  std::string request = "GET / HTTP/1.1\r\nHost: h\r\n\r\n";
  std::string lines;
  for (int i = 0; i < kHttpMaxLeadingEmptyLines; ++i) lines += "\r\n";
  EXPECT_EQ(200, Parse(lines + request));
  EXPECT_EQ(400, Parse(lines + "\r\n" + request));
}

TEST(HttpParseTest, BadRequestLines) {
  for (const char* line : {
           "GET /",                   // HTTP/0.9
           "GET  / HTTP/1.1",         // two spaces
           "GET / HTTP/1.1 ",         // trailing space
           " GET / HTTP/1.1",         // leading space
           "G@T / HTTP/1.1",          // not a token
           "GET /a\x01 HTTP/1.1",     // control in the target
           "GET /\xc3\xbc HTTP/1.1",  // raw non-ASCII in the target
           "GET / http/1.1",          // case matters
           "GET / HTTP/1.10",         // one digit each
           "GET / HTTP/1.x",          //
           "GET / HTTP/11",           //
           "GET\t/ HTTP/1.1",         // tabs are not separators
           "\x16\x03\x01\x02\x00",    // a TLS hello
       }) {
    EXPECT_EQ(400, Parse(std::string(line) + "\r\nHost: h\r\n\r\n")) << line;
  }
  EXPECT_EQ(505, Parse("GET / HTTP/2.0\r\nHost: h\r\n\r\n"));
  EXPECT_EQ(505, Parse("GET / HTTP/0.9\r\n\r\n"));
}

TEST(HttpParseTest, BadRequestLineIsReportedBeforeTheHeaders) {
  EXPECT_EQ(400, Parse("GARBAGE\r\n"));
  EXPECT_EQ(400, Parse("GET / HTTP/1.1\rX\r\n"));  // CR inside a line
  EXPECT_EQ(0, Parse("GET / HTTP/1.1\r\n"));
}

TEST(HttpParseTest, BadHeaders) {
  for (const char* header : {
           "NoColon",
           "Name : value",     // space before the colon
           " folded: value",   // obsolete line folding
           "\tfolded: value",  //
           ": empty name",     //
           "Bad\x01Name: v",   //
           "Name: a\x01b",     // control in the value
           "Name: a\x7f",      //
           "Na\rme: v",        // stray CR
       }) {
    EXPECT_EQ(400, Parse(std::string("GET / HTTP/1.1\r\nHost: h\r\n") + header + "\r\n\r\n"))
        << header;
  }
  // Tabs and obs-text are fine in values.
  EXPECT_EQ(200, Parse("GET / HTTP/1.1\r\nHost: h\r\nX: a\tb\xe9\r\n\r\n"));
}

TEST(HttpParseTest, RequestLineLimit) {
  std::string target = "/?" + std::string(kHttpMaxRequestLine, 'a');
  EXPECT_EQ(414, Parse("GET " + target));  // too long, even before its end
  EXPECT_EQ(414, Parse("GET " + target + " HTTP/1.1\r\nHost: h\r\n\r\n"));
  std::string fits = "/?" + std::string(kHttpMaxRequestLine - 20, 'a');
  EXPECT_EQ(200, Parse("GET " + fits + " HTTP/1.1\r\nHost: h\r\n\r\n"));
}

TEST(HttpParseTest, HeadLimits) {
  std::string head = "GET / HTTP/1.1\r\nHost: h\r\n";
  std::string big = head + "X: " + std::string(kHttpMaxHead, 'v');
  EXPECT_EQ(431, Parse(big));
  EXPECT_EQ(431, Parse(big + "\r\n\r\n"));

  std::string many = head;
  for (size_t i = 1; i < kHttpMaxHeaders; ++i) many += "X-" + std::to_string(i) + ": v\r\n";
  EXPECT_EQ(200, Parse(many + "\r\n"));  // exactly the maximum
  EXPECT_EQ(431, Parse(many + "One-More: v\r\n\r\n"));
}

TEST(HttpParseTest, RandomBytesNeverCrash) {
  std::mt19937 random(12345);
  const std::string alphabet = "GET /?HTP1.\r\n :\x00\xff\t%aZ";
  for (int round = 0; round < 20000; ++round) {
    std::string data;
    size_t length = random() % 64;
    for (size_t i = 0; i < length; ++i) {
      data += round % 2 ? static_cast<char>(random() & 0xff) : alphabet[random() % alphabet.size()];
    }
    if (round % 3 == 0) data = "GET / HTTP/1.1\r\n" + data;
    int status = Parse(data);
    EXPECT_TRUE(status == 0 || status == 200 || status == 400 || status == 505) << status;
  }
}

TEST(HttpTargetTest, OriginForm) {
  std::string path, query;
  bool has_query;
  ASSERT_TRUE(SplitRequestTarget("/", &path, &query, &has_query));
  EXPECT_EQ("/", path);
  EXPECT_FALSE(has_query);
  ASSERT_TRUE(SplitRequestTarget("/?", &path, &query, &has_query));
  EXPECT_TRUE(has_query);
  EXPECT_EQ("", query);
  ASSERT_TRUE(SplitRequestTarget("/dir/x?a?b#c", &path, &query, &has_query));
  EXPECT_EQ("/dir/x", path);
  EXPECT_EQ("a?b#c", query);
}

TEST(HttpTargetTest, AbsoluteForm) {
  std::string path, query;
  bool has_query;
  ASSERT_TRUE(SplitRequestTarget("http://localhost:8000/?foo", &path, &query, &has_query));
  EXPECT_EQ("/", path);
  EXPECT_EQ("foo", query);
  ASSERT_TRUE(SplitRequestTarget("HTTP://host", &path, &query, &has_query));
  EXPECT_EQ("/", path);
  EXPECT_FALSE(has_query);
  ASSERT_TRUE(SplitRequestTarget("https://host?q", &path, &query, &has_query));
  EXPECT_EQ("/", path);
  EXPECT_EQ("q", query);
  EXPECT_FALSE(SplitRequestTarget("*", &path, &query, &has_query));
  EXPECT_FALSE(SplitRequestTarget("host:80", &path, &query, &has_query));
  EXPECT_FALSE(SplitRequestTarget("", &path, &query, &has_query));
}

TEST(HttpUrlTest, PercentDecode) {
  EXPECT_EQ("AB", PercentDecode("%41%42"));
  EXPECT_EQ("\xc3\xbc", PercentDecode("%c3%BC"));
  EXPECT_EQ(std::string(1, '\0'), PercentDecode("%00"));
  // Lenient: what is not an escape stays as it is.
  EXPECT_EQ("%", PercentDecode("%"));
  EXPECT_EQ("%4", PercentDecode("%4"));
  EXPECT_EQ("%zz", PercentDecode("%zz"));
  EXPECT_EQ("50%done", PercentDecode("50%done"));
  EXPECT_EQ("%A", PercentDecode("%%41"));
  EXPECT_EQ("a+b", PercentDecode("a+b"));    // a path, not form data
  EXPECT_EQ("%41", PercentDecode("%2541"));  // decoded once only
}

TEST(HttpUrlTest, PercentEncode) {
  EXPECT_EQ("dir/a-b_c.d~e", PercentEncode("dir/a-b_c.d~e"));
  EXPECT_EQ("a%20b%26%3C%3E%25%23%3F%22%27%2B", PercentEncode("a b&<>%#?\"'+"));
  EXPECT_EQ("%C3%BC%FF%00", PercentEncode(std::string("\xc3\xbc\xff\0", 4)));
}

TEST(HttpUrlTest, EveryByteRoundTrips) {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  std::string encoded = PercentEncode(all);
  for (char c : encoded) {
    EXPECT_TRUE(isalnum(static_cast<unsigned char>(c)) || strchr("-._~/%", c)) << c;
  }
  EXPECT_EQ(all, PercentDecode(encoded));
}

TEST(HttpResponseTest, Serialize) {
  HttpResponse response;
  response.status = 302;
  response.headers.emplace_back("Location", "/?x");
  response.body = "<p>moved</p>";
  std::string out = SerializeHttpResponse(response, false, "Thu, 01 Jan 1970 00:00:00 GMT");
  EXPECT_EQ(0u, out.find("HTTP/1.1 302 Found\r\nDate: Thu, 01 Jan 1970 00:00:00 GMT\r\n"));
  EXPECT_NE(std::string::npos, out.find("\r\nContent-Type: text/html; charset=utf-8\r\n"));
  EXPECT_NE(std::string::npos, out.find("\r\nContent-Length: 12\r\n"));
  EXPECT_NE(std::string::npos, out.find("\r\nLocation: /?x\r\n"));
  EXPECT_NE(std::string::npos, out.find("\r\nConnection: close\r\n\r\n<p>moved</p>"));
  EXPECT_EQ(out.size() - 12, out.find("<p>moved</p>"));

  std::string head = SerializeHttpResponse(response, true, "");
  EXPECT_EQ(std::string::npos, head.find("Date:"));
  EXPECT_NE(std::string::npos, head.find("\r\nContent-Length: 12\r\n"));
  EXPECT_EQ(head.size() - 4, head.find("\r\n\r\n"));  // no body
}

TEST(HttpResponseTest, Date) {
  EXPECT_EQ("Thu, 01 Jan 1970 00:00:00 GMT", HttpDate(0));
  EXPECT_EQ("Sun, 06 Nov 1994 08:49:37 GMT", HttpDate(784111777));
}

TEST(HttpResponseTest, ErrorPage) {
  HttpResponse response = HttpErrorResponse(404, "unknown target '<x>'");
  EXPECT_EQ(404, response.status);
  EXPECT_NE(std::string::npos, response.body.find("<title>404 Not Found</title>"));
  EXPECT_NE(std::string::npos, response.body.find("unknown target &#39;&lt;x&gt;&#39;"));
  EXPECT_STREQ("Request Header Fields Too Large", HttpReasonPhrase(431));
}

TEST(HttpServerTest, RespondChecksTheMethod) {
  int calls = 0;
  HttpServer server([&calls](const HttpRequest&) {
    ++calls;
    HttpResponse response;
    response.body = "ok";
    return response;
  });
  HttpRequest request;
  request.method = "POST";
  HttpResponse response = server.Respond(request);
  EXPECT_EQ(405, response.status);
  ASSERT_EQ(1u, response.headers.size());
  EXPECT_EQ("Allow", response.headers[0].first);
  EXPECT_EQ(0, calls);
  request.method = "GET";
  EXPECT_EQ("ok", server.Respond(request).body);
  request.method = "HEAD";
  EXPECT_EQ("ok", server.Respond(request).body);  // the body is dropped when sending
  EXPECT_EQ(2, calls);
}

// A connected loopback client with a receive timeout.
int Connect(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address = {};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval timeout = {5, 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  if (connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

// Sends `data` and reads the reply up to the server's close.
std::string Exchange(int port, const std::string& data) {
  int fd = Connect(port);
  if (fd < 0) return "connect failed";
  send(fd, data.data(), data.size(), 0);
  std::string reply;
  char buffer[4096];
  ssize_t n;
  while ((n = recv(fd, buffer, sizeof(buffer), 0)) > 0) reply.append(buffer, n);
  close(fd);
  return reply;
}

class HttpServerLoopTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(0, pipe(stop_));
    server_.reset(new HttpServer([](const HttpRequest& request) {
      HttpResponse response;
      response.body = "target=" + request.target;
      return response;
    }));
    std::string err;
    ASSERT_TRUE(server_->Listen("127.0.0.1", 0, &err)) << err;
    ASSERT_GT(server_->port(), 0);
    thread_ = std::thread([this] { served_ok_ = server_->Serve(stop_[0], &serve_err_); });
  }

  void TearDown() override {
    if (thread_.joinable()) {
      ASSERT_EQ(1, write(stop_[1], "x", 1));
      thread_.join();
    }
    EXPECT_TRUE(served_ok_) << serve_err_;
    close(stop_[0]);
    close(stop_[1]);
  }

  int stop_[2] = {-1, -1};
  std::unique_ptr<HttpServer> server_;
  std::thread thread_;
  bool served_ok_ = false;
  std::string serve_err_;
};

TEST_F(HttpServerLoopTest, ServesAndAnswersHead) {
  std::string reply = Exchange(server_->port(), "GET /?a HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_EQ(0u, reply.find("HTTP/1.1 200 OK\r\n")) << reply;
  EXPECT_EQ(reply.size() - 10, reply.find("target=/?a"));
  reply = Exchange(server_->port(), "HEAD /?a HTTP/1.1\r\nHost: h\r\n\r\n");
  EXPECT_EQ(0u, reply.find("HTTP/1.1 200 OK\r\n"));
  EXPECT_NE(std::string::npos, reply.find("Content-Length: 10\r\n"));
  EXPECT_EQ(reply.size() - 4, reply.find("\r\n\r\n"));
}

TEST_F(HttpServerLoopTest, GarbageThenService) {
  EXPECT_EQ(0u, Exchange(server_->port(), "\x16\x03\x01 garbage\r\n\r\n").find("HTTP/1.1 400 "));
  EXPECT_EQ(0u,
            Exchange(server_->port(), "PUT / HTTP/1.1\r\nHost: h\r\n\r\n").find("HTTP/1.1 405 "));
  EXPECT_EQ(0u,
            Exchange(server_->port(), std::string(kHttpMaxHead + 100, 'x')).find("HTTP/1.1 414 "));
  EXPECT_EQ(0u,
            Exchange(server_->port(), "GET / HTTP/1.1\r\nHost: h\r\n\r\n").find("HTTP/1.1 200 "));
}

TEST_F(HttpServerLoopTest, SilentClientsDoNotBlockOthers) {
  int silent = Connect(server_->port());
  int partial = Connect(server_->port());
  ASSERT_GE(silent, 0);
  ASSERT_GE(partial, 0);
  send(partial, "GET / HT", 8, 0);
  std::string reply = Exchange(server_->port(), "GET /?b HTTP/1.0\r\n\r\n");
  EXPECT_EQ(0u, reply.find("HTTP/1.1 200 OK\r\n"));
  // The partial request can still finish.
  send(partial, "TP/1.0\r\n\r\n", 10, 0);
  char buffer[64];
  ssize_t n = recv(partial, buffer, sizeof(buffer), 0);
  ASSERT_GT(n, 12);
  EXPECT_EQ("HTTP/1.1 200", std::string(buffer, 12));
  close(silent);
  close(partial);
}

TEST(HttpServerListenTest, ReportsBindErrors) {
  HttpServer first([](const HttpRequest&) { return HttpResponse(); });
  std::string err;
  ASSERT_TRUE(first.Listen("127.0.0.1", 0, &err)) << err;
  HttpServer second([](const HttpRequest&) { return HttpResponse(); });
  EXPECT_FALSE(second.Listen("127.0.0.1", first.port(), &err));
  EXPECT_EQ("Address already in use", err);
  EXPECT_FALSE(second.Listen("no.such.host.invalid", 0, &err));
  EXPECT_FALSE(err.empty());
}

std::vector<std::string> Resolve(const std::string& host, const std::string& hosts_file,
                                 std::string* err) {
  std::vector<sockaddr_storage> addresses;
  std::vector<std::string> text;
  if (!ResolveListenAddresses(host, 8080, hosts_file.c_str(), &addresses, err)) return text;
  for (const sockaddr_storage& address : addresses) {
    char buffer[INET6_ADDRSTRLEN] = "";
    if (address.ss_family == AF_INET) {
      const sockaddr_in* v4 = reinterpret_cast<const sockaddr_in*>(&address);
      inet_ntop(AF_INET, &v4->sin_addr, buffer, sizeof(buffer));
      text.push_back(std::string(buffer) + ":" + std::to_string(ntohs(v4->sin_port)));
    } else {
      const sockaddr_in6* v6 = reinterpret_cast<const sockaddr_in6*>(&address);
      inet_ntop(AF_INET6, &v6->sin6_addr, buffer, sizeof(buffer));
      text.push_back("[" + std::string(buffer) + "]:" + std::to_string(ntohs(v6->sin6_port)));
    }
  }
  return text;
}

using Addresses = std::vector<std::string>;

TEST(ResolveListenAddressesTest, EmptyHostMeansEveryInterface) {
  std::string err;
  EXPECT_EQ((Addresses{"0.0.0.0:8080", "[::]:8080"}), Resolve("", "/nonexistent", &err));
}

TEST(ResolveListenAddressesTest, NumericAddressesAsGiven) {
  std::string err;
  EXPECT_EQ(Addresses{"127.0.0.1:8080"}, Resolve("127.0.0.1", "/nonexistent", &err));
  EXPECT_EQ(Addresses{"[::1]:8080"}, Resolve("::1", "/nonexistent", &err));
  EXPECT_EQ(Addresses{"[fe80::1]:8080"}, Resolve("fe80::1", "/nonexistent", &err));
}

TEST(ResolveListenAddressesTest, NamesFromTheHostsFile) {
  test::ScopedTempDir dir;
  test::WriteRealFile(dir.File("hosts"),
                "# comment localhost\n"
                "127.0.0.1\tlocalhost loopback\n"
                "::1 localhost ip6-localhost  # both\n"
                "10.1.2.3 build-box.example build-box\n"
                "not-an-address broken\n"
                "\n"
                "10.9.9.9 Build-Box\n");
  std::string err;
  EXPECT_EQ((Addresses{"127.0.0.1:8080", "[::1]:8080"}), Resolve("localhost", dir.File("hosts"), &err));
  EXPECT_EQ(Addresses{"127.0.0.1:8080"}, Resolve("LOOPBACK", dir.File("hosts"), &err));
  // Every line that names the host, case-insensitively, in file order.
  EXPECT_EQ((Addresses{"10.1.2.3:8080", "10.9.9.9:8080"}), Resolve("build-box", dir.File("hosts"), &err));
  EXPECT_TRUE(Resolve("broken", dir.File("hosts"), &err).empty());
  EXPECT_EQ("Name or service not known", err);
  err.clear();
  EXPECT_TRUE(Resolve("comment", dir.File("hosts"), &err).empty());
  EXPECT_EQ("Name or service not known", err);
}

TEST(ResolveListenAddressesTest, LocalhostWithoutAHostsFile) {
  std::string err;
  EXPECT_EQ((Addresses{"127.0.0.1:8080", "[::1]:8080"}), Resolve("localhost", "/nonexistent", &err));
  EXPECT_TRUE(Resolve("example.invalid", "/nonexistent", &err).empty());
  EXPECT_EQ("Name or service not known", err);
}

TEST(HttpServerListenTest, ListensOnLocalhostPreferringIpv4) {
  HttpServer server([](const HttpRequest&) { return HttpResponse(); });
  std::string err;
  ASSERT_TRUE(server.Listen("localhost", 0, &err)) << err;
  EXPECT_GT(server.port(), 0);
  int client = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(client, 0);
  sockaddr_in address;
  memset(&address, 0, sizeof(address));
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<uint16_t>(server.port()));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(0, connect(client, reinterpret_cast<sockaddr*>(&address), sizeof(address)));
  close(client);
}

}  // namespace
}  // namespace ronin

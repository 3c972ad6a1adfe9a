#include "net/http_client.h"

#include <gtest/gtest.h>

#include <string>

namespace ronin {
namespace {

// Feeds `bytes` in pieces of `step` bytes; the final result.
HttpResponseParser::Result FeedInSteps(HttpResponseParser* parser, std::string_view bytes,
                                       size_t step, size_t* total_used) {
  HttpResponseParser::Result result = HttpResponseParser::kNeedMore;
  *total_used = 0;
  while (*total_used < bytes.size() && result == HttpResponseParser::kNeedMore) {
    size_t used = 0;
    std::string_view piece = bytes.substr(*total_used, step);
    result = parser->Feed(piece, &used);
    *total_used += used;
    if (used < piece.size()) break;
  }
  return result;
}

TEST(HttpUrl, SplitsHostPortAndPrefix) {
  HttpUrl url;
  std::string err;
  ASSERT_TRUE(ParseHttpUrl("http://cache.example:8080/team/ronin/", &url, &err)) << err;
  EXPECT_EQ("cache.example", url.host);
  EXPECT_EQ(8080, url.port);
  EXPECT_EQ("cache.example:8080", url.host_header);
  EXPECT_EQ("/team/ronin", url.prefix);

  ASSERT_TRUE(ParseHttpUrl("HTTP://10.0.0.1", &url, &err)) << err;
  EXPECT_EQ("10.0.0.1", url.host);
  EXPECT_EQ(80, url.port);
  EXPECT_EQ("", url.prefix);

  ASSERT_TRUE(ParseHttpUrl("http://[::1]:9090/c", &url, &err)) << err;
  EXPECT_EQ("::1", url.host);
  EXPECT_EQ(9090, url.port);
  EXPECT_EQ("[::1]:9090", url.host_header);
}

TEST(HttpUrl, RejectsWhatItCannotServe) {
  HttpUrl url;
  for (const char* bad : {"https://host/", "ftp://host/", "http://", "http:///x", "http://host:0/",
                          "http://host:65536/", "http://host:/", "http://host:8x/", "http://u:p@host/",
                          "http://host/a?b", "http://host/a#b", "http://ho st/", "http://[::1/",
                          "http://[::1]x/", "http://h\x01/", "host:80", ""}) {
    std::string err;
    EXPECT_FALSE(ParseHttpUrl(bad, &url, &err)) << bad;
    EXPECT_FALSE(err.empty()) << bad;
  }
  std::string err;
  ParseHttpUrl("https://host/", &url, &err);
  EXPECT_NE(std::string::npos, err.find("TLS terminator"));
}

TEST(HttpRequest, HeadAsSent) {
  EXPECT_EQ("PUT /c/cas/ab HTTP/1.1\r\nHost: h:1\r\nUser-Agent: ronin\r\nContent-Length: 3\r\n\r\n",
            FormatHttpRequest("PUT", "/c/cas/ab", "h:1", 3));
  EXPECT_EQ("GET / HTTP/1.1\r\nHost: h\r\nUser-Agent: ronin\r\n\r\n",
            FormatHttpRequest("GET", "/", "h", -1));
}

TEST(HttpResponseParser, ContentLengthInAnyPieces) {
  std::string response = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX: y\r\n\r\nhelloHTTP/1.1 ...";
  for (size_t step = 1; step <= response.size(); ++step) {
    HttpResponseParser parser(100);
    size_t used;
    ASSERT_EQ(HttpResponseParser::kDone, FeedInSteps(&parser, response, step, &used)) << step;
    EXPECT_EQ(response.find("hello") + 5, used);  // the next response is not consumed
    EXPECT_EQ(200, parser.status());
    EXPECT_EQ("hello", parser.body());
    EXPECT_TRUE(parser.keep_alive());
  }
}

TEST(HttpResponseParser, ChunkedWithExtensionsAndTrailers) {
  std::string response =
      "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
      "5;name=value\r\nhello\r\nA\r\n, world!!!\r\n0\r\nTrailer: x\r\n\r\n";
  for (size_t step = 1; step <= response.size(); ++step) {
    HttpResponseParser parser(100);
    size_t used;
    ASSERT_EQ(HttpResponseParser::kDone, FeedInSteps(&parser, response, step, &used)) << step;
    EXPECT_EQ("hello, world!!!", parser.body());
    EXPECT_EQ(response.size(), used);
  }
}

TEST(HttpResponseParser, BodyUntilClose) {
  HttpResponseParser parser(100);
  size_t used;
  EXPECT_EQ(HttpResponseParser::kNeedMore, parser.Feed("HTTP/1.0 200 OK\n\nsome", &used));
  EXPECT_EQ(HttpResponseParser::kNeedMore, parser.Feed(" bytes", &used));
  EXPECT_EQ(HttpResponseParser::kDone, parser.FeedEnd());
  EXPECT_EQ("some bytes", parser.body());
  EXPECT_FALSE(parser.keep_alive());
}

TEST(HttpResponseParser, InterimResponsesAndBodilessStatuses) {
  HttpResponseParser parser(100);
  size_t used;
  EXPECT_EQ(HttpResponseParser::kDone,
            parser.Feed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n", &used));
  EXPECT_EQ(201, parser.status());
  HttpResponseParser no_content(100);
  EXPECT_EQ(HttpResponseParser::kDone, no_content.Feed("HTTP/1.1 204 No Content\r\n\r\n", &used));
  HttpResponseParser head(100, true);
  EXPECT_EQ(HttpResponseParser::kDone, head.Feed("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", &used));
  EXPECT_EQ("", head.body());
}

TEST(HttpResponseParser, ConnectionHeader) {
  size_t used;
  HttpResponseParser close(100);
  close.Feed("HTTP/1.1 404 Not Found\r\nConnection: Close\r\nContent-Length: 0\r\n\r\n", &used);
  EXPECT_EQ(404, close.status());
  EXPECT_FALSE(close.keep_alive());
  HttpResponseParser old(100);
  old.Feed("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n", &used);
  EXPECT_TRUE(old.keep_alive());
}

TEST(HttpResponseParser, RejectsMalformedAndOversized) {
  for (const char* bad : {
           "SSH-2.0-OpenSSH\r\n\r\n",
           "HTTP/2 200\r\n\r\n",
           "HTTP/1.1 20 OK\r\n\r\n",
           "HTTP/1.1 2000 OK\r\n\r\n",
           "HTTP/1.1 999 OK\r\n\r\n",
           "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
           "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
           "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n",  // over the limit of 100
           "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n65\r\n",  // 101 > 100
           "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n",
           "HTTP/1.1 200 OK\r\n folded: header\r\n\r\n",
           "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
           "HTTP/1.1 101 Switching Protocols\r\n\r\n",
           "\r\n\r\n\r\n\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
       }) {
    HttpResponseParser parser(100);
    size_t used;
    EXPECT_EQ(HttpResponseParser::kError, parser.Feed(bad, &used)) << bad;
    EXPECT_FALSE(parser.error().empty()) << bad;
    EXPECT_FALSE(parser.keep_alive());
  }
}

TEST(HttpResponseParser, BoundsTheHead) {
  HttpResponseParser parser(100);
  std::string huge = "HTTP/1.1 200 OK\r\nX: " + std::string(kHttpMaxResponseHead, 'a');
  size_t used;
  EXPECT_EQ(HttpResponseParser::kError, parser.Feed(huge, &used));
  HttpResponseParser many(100);
  std::string head = "HTTP/1.1 200 OK\r\n";
  for (size_t i = 0; i <= kHttpMaxResponseHeaders; ++i) head += "X: y\r\n";
  EXPECT_EQ(HttpResponseParser::kError, many.Feed(head + "\r\n", &used));
}

TEST(HttpResponseParser, EndOfConnection) {
  HttpResponseParser nothing(100);
  EXPECT_EQ(HttpResponseParser::kError, nothing.FeedEnd());
  EXPECT_NE(std::string::npos, nothing.error().find("without a response"));
  HttpResponseParser short_body(100);
  size_t used;
  short_body.Feed("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nabc", &used);
  EXPECT_EQ(HttpResponseParser::kError, short_body.FeedEnd());
}

}  // namespace
}  // namespace ronin

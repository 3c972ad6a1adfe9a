// Tests for base/html_text.h: escaping any bytes into valid HTML text, and
// UTF-8 decoding.
#include "base/html_text.h"

#include <gtest/gtest.h>

#include <string>

namespace ronin {
namespace {

TEST(HtmlTextTest, EscapesMarkup) {
  EXPECT_EQ("&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;",
            HtmlEscape("<a href=\"x\" title='y'>&amp;"));
  EXPECT_EQ("plain/path.c", HtmlEscape("plain/path.c"));
}

TEST(HtmlTextTest, KeepsValidUtf8) {
  EXPECT_EQ("\xc3\xbc \xe2\x82\xac \xf0\x9d\x84\x9e",
            HtmlEscape("\xc3\xbc \xe2\x82\xac \xf0\x9d\x84\x9e"));
  EXPECT_EQ("a\tb\nc", HtmlEscape("a\tb\nc"));
}

TEST(HtmlTextTest, ReplacesWhatIsNotText) {
  const std::string kReplacement = "\xef\xbf\xbd";
  EXPECT_EQ(kReplacement + "x", HtmlEscape("\xffx"));
  EXPECT_EQ(kReplacement + kReplacement, HtmlEscape("\xc0\xaf"));  // overlong '/'
  EXPECT_EQ(kReplacement + kReplacement + kReplacement, HtmlEscape("\xed\xa0\x80"));  // surrogate
  EXPECT_EQ(kReplacement + kReplacement + "a", HtmlEscape("\xe2\x82"
                                                          "a"));   // truncated
  EXPECT_EQ(kReplacement + kReplacement, HtmlEscape("\xf4\x90"));  // beyond U+10FFFF
  EXPECT_EQ(kReplacement + kReplacement + kReplacement + kReplacement,
            HtmlEscape(std::string("\0\x01\r\x7f", 4)));
}

TEST(HtmlTextTest, DecodeUtf8) {
  uint32_t code = 0;
  EXPECT_EQ(1u, DecodeUtf8("A", &code));
  EXPECT_EQ(0x41u, code);
  EXPECT_EQ(2u, DecodeUtf8("\xc2\xa0", &code));
  EXPECT_EQ(0xa0u, code);
  EXPECT_EQ(4u, DecodeUtf8("\xf4\x8f\xbf\xbf", &code));
  EXPECT_EQ(0x10ffffu, code);
  EXPECT_EQ(0u, DecodeUtf8("", &code));
  EXPECT_EQ(0u, DecodeUtf8("\x80", &code));
  EXPECT_EQ(0u, DecodeUtf8("\xe0\x80\x80", &code));
}

}  // namespace
}  // namespace ronin

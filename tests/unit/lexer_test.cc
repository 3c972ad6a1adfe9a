// Tests for the manifest tokeniser. Error texts (message, context line and
// caret) were checked against ninja 1.13.2 parsing the same bytes.
#include "graph/lexer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace ronin {
namespace {

// Every token up to and including TEOF (or the first ERROR).
std::vector<Lexer::Token> Tokens(const std::string& input) {
  Lexer lexer("input", input);
  std::vector<Lexer::Token> tokens;
  for (;;) {
    Lexer::Token token = lexer.ReadToken();
    tokens.push_back(token);
    if (token == Lexer::TEOF || token == Lexer::ERROR) break;
  }
  return tokens;
}

std::string Names(const std::vector<Lexer::Token>& tokens) {
  std::string result;
  for (Lexer::Token token : tokens) {
    if (!result.empty()) result += ' ';
    result += Lexer::TokenName(token);
  }
  return result;
}

// Evaluates an EvalString with no variables defined.
class EmptyEnv : public Env {
 public:
  void AppendVariable(std::string_view name, std::string* out) const override {
    out->append("<");
    out->append(name);
    out->append(">");
  }
};

std::string Eval(const EvalString& value) { return value.Evaluate(EmptyEnv()); }

// Reads "name = value\n" the way the parser does; returns the error or the value.
std::string ReadLet(const std::string& input) {
  Lexer lexer("input", input);
  std::string_view name;
  if (!lexer.ReadIdent(&name)) return "no ident";
  if (lexer.ReadToken() != Lexer::EQUALS) return "no equals";
  EvalString value;
  std::string err;
  if (!lexer.ReadVarValue(&value, &err)) return "ERR:" + err;
  return Eval(value);
}

TEST(LexerTest, Keywords) {
  EXPECT_EQ("'build' 'pool' 'rule' 'default' 'include' 'subninja' newline eof",
            Names(Tokens("build pool rule default include subninja\n")));
}

TEST(LexerTest, Punctuation) {
  EXPECT_EQ("'=' ':' '|' '||' '|@' newline eof", Names(Tokens("= : | || |@\n")));
  // No spaces needed between them.
  EXPECT_EQ("':' '||' '|@' '|' '=' eof", Names(Tokens(":|||@|=")));
}

TEST(LexerTest, KeywordsNeedLongestMatch) {
  EXPECT_EQ("identifier newline eof", Names(Tokens("buildx\n")));
  EXPECT_EQ("identifier eof", Names(Tokens("build.ninja")));
  EXPECT_EQ("identifier eof", Names(Tokens("rules")));
  EXPECT_EQ("identifier eof", Names(Tokens("pool-depth")));
  EXPECT_EQ("identifier eof", Names(Tokens("subninja_x")));
  EXPECT_EQ("identifier eof", Names(Tokens("defaults")));
  EXPECT_EQ("identifier eof", Names(Tokens("include2")));
}

TEST(LexerTest, IdentifierCharacters) {
  std::string lexer_text("aZ09_.-x rest");
  Lexer lexer("input", lexer_text);
  std::string_view ident;
  ASSERT_TRUE(lexer.ReadIdent(&ident));
  EXPECT_EQ("aZ09_.-x", ident);
  ASSERT_TRUE(lexer.ReadIdent(&ident));  // whitespace after an ident is eaten
  EXPECT_EQ("rest", ident);
  EXPECT_FALSE(lexer.ReadIdent(&ident));  // at EOF
}

TEST(LexerTest, ReadIdentFailsOnNonIdentifier) {
  for (const char* input : {"$x", ":", "=", "@a", " a", "\n"}) {
    std::string lexer_text(input);
    Lexer lexer("input", lexer_text);
    std::string_view ident = "unchanged";
    EXPECT_FALSE(lexer.ReadIdent(&ident)) << input;
    EXPECT_EQ("unchanged", ident);
  }
}

TEST(LexerTest, IndentOnlyAtLineStartBeforeContent) {
  EXPECT_EQ("indent identifier '=' identifier newline eof", Names(Tokens("  a = b\n")));
  // Whitespace-only lines are just newlines.
  EXPECT_EQ("newline newline eof", Names(Tokens("   \n\n")));
  EXPECT_EQ("newline eof", Names(Tokens("    \r\n")));
}

TEST(LexerTest, CommentsAreSkippedWithTheirNewline) {
  EXPECT_EQ("'build' eof", Names(Tokens("# comment\nbuild")));
  EXPECT_EQ("'build' eof", Names(Tokens("   # indented comment\nbuild")));
  EXPECT_EQ("'build' eof", Names(Tokens("# one\n# two\r\n  # three\nbuild")));
}

TEST(LexerTest, CommentWithoutNewlineAtEofIsAnError) {
  EXPECT_EQ("lexing error", Names(Tokens("# comment")));
}

TEST(LexerTest, CrLfIsANewlineButALoneCrIsNot) {
  EXPECT_EQ("identifier newline identifier newline eof", Names(Tokens("a\r\nb\n")));
  EXPECT_EQ("identifier lexing error", Names(Tokens("a\rb\n")));
}

TEST(LexerTest, TabsAreErrors) {
  std::string lexer_text("\tbuild\n");
  Lexer lexer("input", lexer_text);
  EXPECT_EQ(Lexer::ERROR, lexer.ReadToken());
  EXPECT_EQ("tabs are not allowed, use spaces", lexer.DescribeLastError());
  std::string other_text("@");
  Lexer other("input", other_text);
  EXPECT_EQ(Lexer::ERROR, other.ReadToken());
  EXPECT_EQ("lexing error", other.DescribeLastError());
}

TEST(LexerTest, NulByteEndsTheInput) {
  std::string input("a\0b", 3);
  EXPECT_EQ("identifier eof", Names(Tokens(input)));
  EXPECT_EQ("eof", Names(Tokens("")));
}

TEST(LexerTest, TokenNames) {
  EXPECT_STREQ("lexing error", Lexer::TokenName(Lexer::ERROR));
  EXPECT_STREQ("'build'", Lexer::TokenName(Lexer::BUILD));
  EXPECT_STREQ("':'", Lexer::TokenName(Lexer::COLON));
  EXPECT_STREQ("'default'", Lexer::TokenName(Lexer::DEFAULT));
  EXPECT_STREQ("'='", Lexer::TokenName(Lexer::EQUALS));
  EXPECT_STREQ("identifier", Lexer::TokenName(Lexer::IDENT));
  EXPECT_STREQ("'include'", Lexer::TokenName(Lexer::INCLUDE));
  EXPECT_STREQ("indent", Lexer::TokenName(Lexer::INDENT));
  EXPECT_STREQ("newline", Lexer::TokenName(Lexer::NEWLINE));
  EXPECT_STREQ("'|'", Lexer::TokenName(Lexer::PIPE));
  EXPECT_STREQ("'||'", Lexer::TokenName(Lexer::PIPE2));
  EXPECT_STREQ("'|@'", Lexer::TokenName(Lexer::PIPEAT));
  EXPECT_STREQ("'pool'", Lexer::TokenName(Lexer::POOL));
  EXPECT_STREQ("'rule'", Lexer::TokenName(Lexer::RULE));
  EXPECT_STREQ("'subninja'", Lexer::TokenName(Lexer::SUBNINJA));
  EXPECT_STREQ("eof", Lexer::TokenName(Lexer::TEOF));
}

TEST(LexerTest, ErrorHintOnlyForColon) {
  EXPECT_STREQ(" ($ also escapes ':')", Lexer::TokenErrorHint(Lexer::COLON));
  EXPECT_STREQ("", Lexer::TokenErrorHint(Lexer::NEWLINE));
  EXPECT_STREQ("", Lexer::TokenErrorHint(Lexer::EQUALS));
}

TEST(LexerTest, PeekAndUnread) {
  std::string lexer_text("build x\n");
  Lexer lexer("input", lexer_text);
  EXPECT_FALSE(lexer.PeekToken(Lexer::RULE));
  EXPECT_TRUE(lexer.PeekToken(Lexer::BUILD));
  EXPECT_EQ(Lexer::IDENT, lexer.ReadToken());
  lexer.UnreadToken();
  EXPECT_EQ(Lexer::IDENT, lexer.ReadToken());
  EXPECT_EQ(Lexer::NEWLINE, lexer.ReadToken());
  EXPECT_TRUE(lexer.PeekToken(Lexer::TEOF));
}

TEST(LexerTest, ContinuationAfterTokens) {
  // "$\n" (and "$\r\n") after a token is whitespace, as are following spaces.
  EXPECT_EQ("'build' identifier newline eof", Names(Tokens("build $\n    foo\n")));
  EXPECT_EQ("'rule' identifier newline eof", Names(Tokens("rule $\r\n  foo\n")));
}

TEST(LexerTest, VarValueKeepsEverythingToTheNewline) {
  EXPECT_EQ("a:b|c d || e", ReadLet("x = a:b|c d || e\n"));
  EXPECT_EQ("not # a comment", ReadLet("x = not # a comment\n"));
  EXPECT_EQ("abc  ", ReadLet("x =    abc  \n"));  // leading spaces go, trailing stay
  EXPECT_EQ("a\tb", ReadLet("x = a\tb\n"));        // tabs inside values are fine
  EXPECT_EQ("", ReadLet("x =\n"));
}

TEST(LexerTest, VarValueEscapes) {
  EXPECT_EQ("$ : x", ReadLet("x = $$$ $:$ x\n"));
  EXPECT_EQ("<a>b <c.d>e <f>.g", ReadLet("x = ${a}b ${c.d}e $f.g\n"));
  EXPECT_EQ("<a-b_1>", ReadLet("x = $a-b_1\n"));
}

TEST(LexerTest, VarValueContinuationDropsLeadingSpaces) {
  EXPECT_EQ("ab", ReadLet("x = a$\n    b\n"));
  EXPECT_EQ("a b", ReadLet("x = a $\n    b\n"));
  EXPECT_EQ("ab", ReadLet("x = a$\r\n  b\r\n"));
}

TEST(LexerTest, VarValueConsumesCrLf) {
  std::string lexer_text("abc\r\nbuild");
  Lexer lexer("input", lexer_text);
  EvalString value;
  std::string err;
  ASSERT_TRUE(lexer.ReadVarValue(&value, &err)) << err;
  EXPECT_EQ("abc", Eval(value));
  EXPECT_EQ(Lexer::BUILD, lexer.ReadToken());
}

TEST(LexerTest, EvalStringSegments) {
  std::string lexer_text("cc $in -o ${out}.o\n");
  Lexer lexer("input", lexer_text);
  EvalString value;
  std::string err;
  ASSERT_TRUE(lexer.ReadVarValue(&value, &err));
  EXPECT_EQ("[cc ][$in][ -o ][$out][.o]", value.Serialize());
  EXPECT_EQ("cc ${in} -o ${out}.o", value.Unparse());
  EXPECT_FALSE(value.IsLiteral());
}

TEST(LexerTest, PathsEndAtSpaceColonPipeAndNewline) {
  std::string lexer_text("a b:c|d\n");
  Lexer lexer("input", lexer_text);
  std::vector<std::string> seen;
  std::string err;
  for (int i = 0; i < 12; ++i) {
    EvalString path;
    ASSERT_TRUE(lexer.ReadPath(&path, &err)) << err;
    if (!path.empty()) {
      seen.push_back(Eval(path));
      continue;
    }
    Lexer::Token token = lexer.ReadToken();
    seen.push_back(Lexer::TokenName(token));
    if (token == Lexer::NEWLINE) break;
  }
  EXPECT_EQ((std::vector<std::string>{"a", "b", "':'", "c", "'|'", "d", "newline"}), seen);
}

TEST(LexerTest, PathEscapes) {
  std::string lexer_text("a$ b$:c$$d $\n   next\r\n");
  Lexer lexer("input", lexer_text);
  EvalString path;
  std::string err;
  ASSERT_TRUE(lexer.ReadPath(&path, &err));
  EXPECT_EQ("a b:c$d", Eval(path));
  path.Clear();
  ASSERT_TRUE(lexer.ReadPath(&path, &err));
  EXPECT_EQ("next", Eval(path));
  path.Clear();
  ASSERT_TRUE(lexer.ReadPath(&path, &err));
  EXPECT_TRUE(path.empty());
  EXPECT_EQ(Lexer::NEWLINE, lexer.ReadToken());
  EXPECT_EQ(Lexer::TEOF, lexer.ReadToken());
}

TEST(LexerTest, BadDollarEscape) {
  EXPECT_EQ(
      "ERR:input:1: bad $-escape (literal $ must be written as $$)\n"
      "x = $!\n"
      "    ^ near here",
      ReadLet("x = $!\n"));
  EXPECT_EQ(
      "ERR:input:1: bad $-escape (literal $ must be written as $$)\n"
      "x = ${a b}\n"
      "    ^ near here",
      ReadLet("x = ${a b}\n"));
}

// Reads "x = <value>\n" with `$^` treated as `mode` says.
std::string ReadValueWith(Lexer::NewlineEscape mode, const std::string& value) {
  std::string text = value + "\n";
  Lexer lexer("input", text);
  lexer.SetNewlineEscape(mode);
  EvalString eval;
  std::string err;
  if (!lexer.ReadVarValue(&eval, &err)) return "ERR:" + err;
  return Eval(eval);
}

TEST(LexerTest, NewlineEscapeIsABadEscapeByDefault) {
  // What Ninja 1.13.2 says: a manifest that never asked for 1.14.
  EXPECT_EQ(
      "ERR:input:1: bad $-escape (literal $ must be written as $$)\n"
      "x = a$^b\n"
      "     ^ near here",
      ReadLet("x = a$^b\n"));
}

TEST(LexerTest, NewlineEscapeRefusedWithTheMessageOf114) {
  // Ninja 1.14 reports it at the last token (here the '='), not at the escape.
  std::string text("x = a$^b\n");
  Lexer lexer("input", text);
  lexer.SetNewlineEscape(Lexer::NewlineEscape::kNeedsVersion);
  std::string_view name;
  ASSERT_TRUE(lexer.ReadIdent(&name));
  ASSERT_EQ(Lexer::EQUALS, lexer.ReadToken());
  EvalString value;
  std::string err;
  EXPECT_FALSE(lexer.ReadVarValue(&value, &err));
  EXPECT_EQ(
      "input:1: using $^ escape requires specifying 'ninja_required_version' with version "
      "greater or equal 1.14\n"
      "x = a$^b\n"
      "  ^ near here",
      err);
}

TEST(LexerTest, NewlineEscapeWhenAllowed) {
  EXPECT_EQ("a\nb\n\nc \n", ReadValueWith(Lexer::NewlineEscape::kAllowed, "a$^b$^$^c $^"));
  EXPECT_EQ("ERR:input:1: bad $-escape (literal $ must be written as $$)\na$^\n ^ near here",
            ReadValueWith(Lexer::NewlineEscape::kBadEscape, "a$^"));
}

TEST(LexerTest, NewlineEscapeInAPath) {
  std::string text("a$^b c\n");
  Lexer lexer("input", text);
  lexer.SetNewlineEscape(Lexer::NewlineEscape::kAllowed);
  EvalString path;
  std::string err;
  ASSERT_TRUE(lexer.ReadPath(&path, &err)) << err;
  EXPECT_EQ("a\nb", Eval(path));
}

TEST(LexerTest, UnexpectedEof) {
  EXPECT_EQ(
      "ERR:input:1: unexpected EOF\n"
      "x = abc\n"
      "       ^ near here",
      ReadLet("x = abc"));
  // A continuation at the very end: the error is on the (empty) next line.
  EXPECT_EQ("ERR:input:2: unexpected EOF\n", ReadLet("x = $\n"));
}

TEST(LexerTest, LoneCarriageReturnInValue) {
  EXPECT_EQ(
      "ERR:input:1: lexing error\n"
      "x = a\ry\n"
      "     ^ near here",
      ReadLet("x = a\ry\n"));
}

TEST(LexerTest, TabInsidePathIsPartOfIt) {
  // ninja 1.13.2 accepts "build a<TAB>b: phony" as the target "a<TAB>b".
  std::string input = "build a\tb: phony\n";
  Lexer lexer("input", input);
  ASSERT_EQ(Lexer::BUILD, lexer.ReadToken());
  EvalString path;
  std::string err;
  ASSERT_TRUE(lexer.ReadPath(&path, &err));
  EXPECT_EQ("a\tb", Eval(path));
  EXPECT_EQ(Lexer::COLON, lexer.ReadToken());
}

TEST(LexerTest, ErrorLineNumbersCountNewlines) {
  EXPECT_EQ(
      "ERR:input:3: bad $-escape (literal $ must be written as $$)\n"
      "  c$%\n"
      "   ^ near here",
      ReadLet("x = a$\n  b$\n  c$%\n"));
}

TEST(LexerTest, ErrorAtColumnZeroHasNoContext) {
  std::string lexer_text("a\n\tb\n");
  Lexer lexer("file.ninja", lexer_text);
  EXPECT_EQ(Lexer::IDENT, lexer.ReadToken());
  EXPECT_EQ(Lexer::NEWLINE, lexer.ReadToken());
  EXPECT_EQ(Lexer::ERROR, lexer.ReadToken());
  std::string err;
  EXPECT_FALSE(lexer.Error(lexer.DescribeLastError(), &err));
  EXPECT_EQ("file.ninja:2: tabs are not allowed, use spaces\n", err);
}

TEST(LexerTest, ContextIsTruncatedAt72Columns) {
  std::string b50(50, 'b');
  EXPECT_EQ(
      "ERR:input:1: bad $-escape (literal $ must be written as $$)\n"
      "x = " + b50 + "$! " + std::string(15, 'b') + "...\n" +
          std::string(54, ' ') + "^ near here",
      ReadLet("x = " + b50 + "$! " + b50 + b50 + "\n"));
  // Column 71 still gets context; exactly 72 characters are shown.
  std::string b67(67, 'b');
  EXPECT_EQ(
      "ERR:input:1: bad $-escape (literal $ must be written as $$)\n"
      "x = " + b67 + "$...\n" + std::string(71, ' ') + "^ near here",
      ReadLet("x = " + b67 + "$!\n"));
}

TEST(LexerTest, ErrorAtColumn72OrBeyondHasNoContext) {
  EXPECT_EQ("ERR:input:1: bad $-escape (literal $ must be written as $$)\n",
            ReadLet("x = " + std::string(68, 'b') + "$!\n"));
  EXPECT_EQ("ERR:input:1: bad $-escape (literal $ must be written as $$)\n",
            ReadLet("x = " + std::string(100, 'b') + "$!\n"));
}

}  // namespace
}  // namespace ronin

// Tokeniser for the manifest language (and dyndep files). The scanner in
// graph/lexer.in.cc is compiled by re2c into graph/lexer.cc; both are committed.
#ifndef RONIN_GRAPH_LEXER_H_
#define RONIN_GRAPH_LEXER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "graph/eval.h"

namespace ronin {

class Lexer {
 public:
  enum Token {
    ERROR, BUILD, COLON, DEFAULT, EQUALS, IDENT, INCLUDE, INDENT, NEWLINE,
    PIPE, PIPE2, PIPEAT, POOL, RULE, SUBNINJA, TEOF,
  };
  static const char* TokenName(Token token);
  // Extra advice appended to "expected X" errors.
  static const char* TokenErrorHint(Token expected);

  Lexer() = default;
  // `input` must be followed by a NUL byte in memory (std::string data is).
  Lexer(std::string_view filename, std::string_view input) { Start(filename, input); }
  void Start(std::string_view filename, std::string_view input);

  Token ReadToken();
  void UnreadToken() { ofs_ = last_token_; }
  // Reads the next token if it is `token`; otherwise leaves it unread.
  bool PeekToken(Token token);

  // An identifier (rule, pool or variable name); false if none is next.
  bool ReadIdent(std::string_view* out);
  // A path on a build/default/include line: ends at space, ':', '|' or newline.
  bool ReadPath(EvalString* path, std::string* err) { return ReadEvalString(path, true, err); }
  // The right side of "name = value": ends at the newline, which it consumes.
  bool ReadVarValue(EvalString* value, std::string* err) { return ReadEvalString(value, false, err); }

  // What `$^` (a newline, Ninja 1.14) is: a bad $-escape as in 1.13.2 (a
  // manifest that never asked for 1.14), refused with 1.14's message (one
  // that did, elsewhere: a file's requirement holds for that file only), or
  // a newline. ManifestParser decides.
  enum class NewlineEscape : uint8_t { kBadEscape, kNeedsVersion, kAllowed };
  void SetNewlineEscape(NewlineEscape mode) { newline_escape_ = mode; }
  NewlineEscape newline_escape() const { return newline_escape_; }

  // Formats "FILE:LINE: message" plus the source line and a caret, into *err.
  bool Error(std::string_view message, std::string* err) const;
  std::string DescribeLastError() const;

  std::string_view filename() const { return filename_; }

 private:
  bool ReadEvalString(EvalString* eval, bool path, std::string* err);
  void EatWhitespace();

  std::string_view filename_;
  std::string_view input_;
  const char* ofs_ = nullptr;
  const char* last_token_ = nullptr;
  NewlineEscape newline_escape_ = NewlineEscape::kBadEscape;
};

}  // namespace ronin

#endif  // RONIN_GRAPH_LEXER_H_

// The manifest scanner. Edit this file, not graph/lexer.cc; regenerate with
//   re2c -W -i -b --no-generation-date --no-version -o src/graph/lexer.cc src/graph/lexer.in.cc
// (CMake does this automatically when re2c is installed.)
#include "graph/lexer.h"

#include <string.h>

namespace ronin {

const char* Lexer::TokenName(Token token) {
  switch (token) {
    case ERROR: return "lexing error";
    case BUILD: return "'build'";
    case COLON: return "':'";
    case DEFAULT: return "'default'";
    case EQUALS: return "'='";
    case IDENT: return "identifier";
    case INCLUDE: return "'include'";
    case INDENT: return "indent";
    case NEWLINE: return "newline";
    case PIPE2: return "'||'";
    case PIPE: return "'|'";
    case PIPEAT: return "'|@'";
    case POOL: return "'pool'";
    case RULE: return "'rule'";
    case SUBNINJA: return "'subninja'";
    case TEOF: return "eof";
  }
  return "";
}

const char* Lexer::TokenErrorHint(Token expected) {
  return expected == COLON ? " ($ also escapes ':')" : "";
}

void Lexer::Start(std::string_view filename, std::string_view input) {
  filename_ = filename;
  input_ = input;
  ofs_ = input.data();
  last_token_ = nullptr;
}

bool Lexer::Error(std::string_view message, std::string* err) const {
  int line = 1;
  const char* line_start = input_.data();
  for (const char* p = input_.data(); p < last_token_; ++p) {
    if (*p == '\n') {
      ++line;
      line_start = p + 1;
    }
  }
  int column = last_token_ ? static_cast<int>(last_token_ - line_start) : 0;

  err->assign(filename_);
  err->append(":" + std::to_string(line) + ": ");
  err->append(message);
  err->push_back('\n');

  // Show the offending line (cut at 72 columns) and a caret, unless the
  // problem is at the very start of the line.
  const int kTruncateColumn = 72;
  if (column > 0 && column < kTruncateColumn) {
    const char* input_end = input_.data() + input_.size();
    int length = 0;
    bool truncated = true;
    for (; length < kTruncateColumn; ++length) {
      const char* c = line_start + length;
      if (c >= input_end || *c == '\0' || *c == '\n') {
        truncated = false;
        break;
      }
    }
    err->append(line_start, length);
    if (truncated) err->append("...");
    err->push_back('\n');
    err->append(column, ' ');
    err->append("^ near here");
  }
  return false;
}

std::string Lexer::DescribeLastError() const {
  if (last_token_ && *last_token_ == '\t') return "tabs are not allowed, use spaces";
  return "lexing error";
}

bool Lexer::PeekToken(Token token) {
  if (ReadToken() == token) return true;
  UnreadToken();
  return false;
}

/*!re2c
  re2c:define:YYCTYPE = "unsigned char";
  re2c:define:YYCURSOR = p;
  re2c:define:YYMARKER = marker;
  re2c:yyfill:enable = 0;

  nul = "\000";
  simple_varname = [a-zA-Z0-9_-]+;
  varname = [a-zA-Z0-9_.-]+;
*/

Lexer::Token Lexer::ReadToken() {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(ofs_);
  const unsigned char* marker = nullptr;
  const unsigned char* start;
  Token token;
  for (;;) {
    start = p;
    /*!re2c
      [ ]* "#" [^\000\n]* "\n" { continue; }
      [ ]* "\r\n"  { token = NEWLINE; break; }
      [ ]* "\n"    { token = NEWLINE; break; }
      [ ]+         { token = INDENT; break; }
      "build"      { token = BUILD; break; }
      "pool"       { token = POOL; break; }
      "rule"       { token = RULE; break; }
      "default"    { token = DEFAULT; break; }
      "="          { token = EQUALS; break; }
      ":"          { token = COLON; break; }
      "|@"         { token = PIPEAT; break; }
      "||"         { token = PIPE2; break; }
      "|"          { token = PIPE; break; }
      "include"    { token = INCLUDE; break; }
      "subninja"   { token = SUBNINJA; break; }
      varname      { token = IDENT; break; }
      nul          {
        // Stay on the NUL: reading again yields eof again, never past the end.
        token = TEOF;
        p = start;
        break;
      }
      [^]          { token = ERROR; break; }
    */
  }
  (void)marker;
  last_token_ = reinterpret_cast<const char*>(start);
  ofs_ = reinterpret_cast<const char*>(p);
  if (token != NEWLINE && token != TEOF) EatWhitespace();
  return token;
}

void Lexer::EatWhitespace() {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(ofs_);
  const unsigned char* marker = nullptr;
  for (;;) {
    ofs_ = reinterpret_cast<const char*>(p);
    /*!re2c
      [ ]+       { continue; }
      "$\r\n"    { continue; }
      "$\n"      { continue; }
      nul        { break; }
      [^]        { break; }
    */
  }
  (void)marker;
}

bool Lexer::ReadIdent(std::string_view* out) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(ofs_);
  const unsigned char* start;
  for (;;) {
    start = p;
    /*!re2c
      varname {
        *out = std::string_view(reinterpret_cast<const char*>(start), p - start);
        break;
      }
      [^] {
        last_token_ = reinterpret_cast<const char*>(start);
        return false;
      }
    */
  }
  last_token_ = reinterpret_cast<const char*>(start);
  ofs_ = reinterpret_cast<const char*>(p);
  EatWhitespace();
  return true;
}

bool Lexer::ReadEvalString(EvalString* eval, bool path, std::string* err) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(ofs_);
  const unsigned char* marker = nullptr;
  const unsigned char* start;
  auto view = [](const unsigned char* from, size_t size) {
    return std::string_view(reinterpret_cast<const char*>(from), size);
  };
  for (;;) {
    start = p;
    /*!re2c
      [^$ :\r\n|\000]+ {
        eval->AddText(view(start, p - start));
        continue;
      }
      "\r\n" {
        if (path) p = start;
        break;
      }
      [ :|\n] {
        if (path) {
          p = start;
          break;
        }
        if (*start == '\n') break;
        eval->AddText(view(start, 1));
        continue;
      }
      "$$" | "$ " | "$:" {
        // The escaped byte itself, as a view into the buffer.
        eval->AddText(view(start + 1, 1));
        continue;
      }
      "$\r\n" [ ]* { continue; }
      "$\n" [ ]* { continue; }
      "${" varname "}" {
        eval->AddVariable(view(start + 2, p - start - 3));
        continue;
      }
      "$" simple_varname {
        eval->AddVariable(view(start + 1, p - start - 1));
        continue;
      }
      "$^" {
        if (newline_escape_ == NewlineEscape::kAllowed) {
          eval->AddText("\n");  // static text: never merged with the buffer's
          continue;
        }
        if (newline_escape_ == NewlineEscape::kNeedsVersion) {
          // As Ninja 1.14 reports it: at the last token, not at the escape.
          return Error("using $^ escape requires specifying 'ninja_required_version' with version "
                       "greater or equal 1.14", err);
        }
        last_token_ = reinterpret_cast<const char*>(start);
        return Error("bad $-escape (literal $ must be written as $$)", err);
      }
      "$" [^] {
        last_token_ = reinterpret_cast<const char*>(start);
        return Error("bad $-escape (literal $ must be written as $$)", err);
      }
      nul {
        last_token_ = reinterpret_cast<const char*>(start);
        return Error("unexpected EOF", err);
      }
      [^] {
        last_token_ = reinterpret_cast<const char*>(start);
        return Error(DescribeLastError(), err);
      }
    */
  }
  (void)marker;
  last_token_ = reinterpret_cast<const char*>(start);
  ofs_ = reinterpret_cast<const char*>(p);
  if (path) EatWhitespace();
  return true;
}

}  // namespace ronin

// src/scan/depfile_parser.cc is GENERATED from src/scan/depfile_parser.in.cc by re2c 3.0.
// Edit only the .in.cc file, then regenerate (from the repository root) with:
//   re2c -W -i --no-generation-date --no-version -o src/scan/depfile_parser.cc src/scan/depfile_parser.in.cc
//
// Depfile syntax, as accepted by ninja 1.13.2. Everything below marked
// "(observed)" was established by feeding depfiles to the real binary and
// reading back `ninja -t deps` (inputs) and `-d explain` / error messages
// (targets):
//
// * A depfile is a sequence of names separated by anything that is not a
//   name byte. Name bytes: A-Z a-z 0-9 + ? " ' & , / _ : . ~ ( ) { } % = @
//   [ ] ! - and 0x80-0xFF. Every other byte (space, tab, lone CR, NUL, #, |,
//   $, *, ;, <, >, `, ^, control bytes...) just ends the current name.
// * LF or CRLF ends the current name and the current rule: the next name is a
//   target again. Backslash + LF/CRLF ends the name but NOT the rule
//   (observed: "a\<LF>b" is two names, "a" and "b", both inputs).
// * Escapes inside a name (n = length of a run of backslashes):
//     n backslashes + space: n odd  -> (n-1)/2 backslashes + space, name goes on
//                            n even -> n backslashes, name ends (observed)
//     n backslashes + '#'   -> n-1 backslashes + '#'            (observed)
//     n backslashes + ':'   -> n-1 backslashes + ':', unless the ':' is
//        followed by space, tab, CR, LF, NUL or end of input: then all n
//        backslashes and the ':' are kept, so the name ends in ':' and is a
//        target ("c\: d" -> input "c\" and "d"; observed)
//     n backslashes + any other byte except NUL/CR/LF -> kept literally,
//        so Windows paths like C:\x\y.h survive (observed)
//     "$$" -> "$"; a lone '$' ends the name ("a$b" -> "a", "b"; observed)
//   A backslash followed by NUL, a lone CR or end of input is a separator.
// * A name whose last byte is ':' is a target; the ':' is dropped. The name is
//   classified by the state *before* its own colon: "out: a: b" yields the
//   inputs a, b, and no new target (observed).
// * Inputs are deduplicated. A target that already appeared as an input (gcc
//   -MP phony rule "a.h:") is not recorded as a target, and any further NEW
//   input in that same rule (up to the next newline, also after other targets
//   in between) is the error "inputs may not also have inputs"; repeating an
//   already-known input there is fine (observed: "out: a.h\na.h: a.h" is OK).
//   A name that was a target and later appears as an input IS recorded as an
//   input (observed: "out: a\nb: out" -> ins a, out).
// * Content with at least one non-empty name but no ':' anywhere is the
//   error "expected ':' in depfile"; content without any name (empty,
//   whitespace, "$", ":") parses fine with no targets (observed).
// * NUL bytes are ordinary separators, not the end of input (observed:
//   "out: a\0b c" -> a, b, c).

#include "scan/depfile_parser.h"

#include <cstring>
#include <unordered_set>

namespace ronin {
namespace {

// Why the scan of one name stopped.
enum class Stop {
  kSeparator,  // The name ended; the rule continues.
  kNewline,    // The name ended and so did the rule.
  kEnd,        // End of input.
};

// Scans names out of [cur, lim), unescaping each into the same buffer. The
// write position never overtakes the read position (no escape expands), so
// unread input is never clobbered.
class Scanner {
 public:
  Scanner(char* begin, char* end) : cur_(begin), lim_(end) {}

  bool AtEnd() const { return cur_ >= lim_; }

  // Scans one name starting at the current position. On return the name's
  // unescaped bytes are in *name.
  Stop ScanName(std::string_view* name) {
    char* begin = cur_;
    out_ = cur_;
    Stop stop = Scan();
    *name = std::string_view(begin, static_cast<size_t>(out_ - begin));
    return stop;
  }

 private:
  Stop Scan();

  void Copy(const char* from, size_t len) {
    std::memmove(out_, from, len);  // Regions may overlap.
    out_ += len;
  }
  void Put(char c, size_t count) {
    std::memset(out_, c, count);
    out_ += count;
  }

  // True if a "\:" escape at the cursor should stay literal: the colon then
  // ends a target name (e.g. "c\:" followed by whitespace).
  bool ColonIsFinal() const {
    if (cur_ >= lim_) return true;
    char c = *cur_;
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\0';
  }

  char* cur_;
  char* lim_;
  char* out_ = nullptr;
};

Stop Scanner::Scan() {
  for (;;) {
    const char* start = cur_;
    char* marker = cur_;
    // The generic API reads through YYPEEK, which yields a fake NUL at the
    // limit: the lexer never dereferences past the end of the input, and a
    // real NUL inside the input is just another byte.
    /*!re2c
      re2c:yyfill:enable = 0;
      re2c:eof = 0;
      re2c:api = custom;
      re2c:api:style = free-form;
      re2c:define:YYCTYPE = "unsigned char";
      re2c:define:YYLESSTHAN = "cur_ >= lim_";
      re2c:define:YYPEEK = "(cur_ < lim_ ? static_cast<unsigned char>(*cur_) : 0)";
      re2c:define:YYSKIP = "++cur_;";
      re2c:define:YYBACKUP = "marker = cur_;";
      re2c:define:YYRESTORE = "cur_ = marker;";

      namebyte = [A-Za-z0-9+?"'&,/_:.~(){}%=@!\x5B\x5D\x80-\xFF-];
      bs = "\\";
      newline = "\r"? "\n";

      namebyte+ {
        Copy(start, static_cast<size_t>(cur_ - start));
        continue;
      }
      bs+ " " {
        size_t n = static_cast<size_t>(cur_ - start) - 1;
        if (n % 2 == 1) {  // Escaped space: halve the pairs, keep the space.
          Put('\\', n / 2);
          Put(' ', 1);
          continue;
        }
        Put('\\', n);  // The backslashes escape each other; space separates.
        return Stop::kSeparator;
      }
      bs+ "#" {
        Put('\\', static_cast<size_t>(cur_ - start) - 2);
        Put('#', 1);
        continue;
      }
      bs+ ":" {
        size_t n = static_cast<size_t>(cur_ - start) - 1;
        Put('\\', ColonIsFinal() ? n : n - 1);
        Put(':', 1);
        continue;
      }
      bs+ [^\x00\r\n] {
        Copy(start, static_cast<size_t>(cur_ - start));
        continue;
      }
      "$$" {
        Put('$', 1);
        continue;
      }
      bs newline { return Stop::kSeparator; }
      newline    { return Stop::kNewline; }
      $          { return Stop::kEnd; }
      *          { return Stop::kSeparator; }
    */
  }
}

// Classifies parsed names into targets and inputs, one rule at a time.
class RuleBuilder {
 public:
  explicit RuleBuilder(DepfileParser* parser) : parser_(parser) {}

  bool AddName(std::string_view name, std::string* err);
  void EndRule() {
    in_targets_ = true;
    poisoned_ = false;
  }
  // True if some non-empty name was seen but never a ':'.
  bool MissingColon() const { return saw_name_ && !saw_colon_; }

 private:
  DepfileParser* parser_;
  std::unordered_set<std::string_view> ins_seen_;
  std::unordered_set<std::string_view> outs_seen_;
  bool in_targets_ = true;  // Before this rule's ':'.
  bool poisoned_ = false;   // This rule re-declared an input as a target.
  bool saw_name_ = false;
  bool saw_colon_ = false;
};

bool RuleBuilder::AddName(std::string_view name, std::string* err) {
  // Decided before looking at the name's own colon: "a: b:" makes "b" an
  // input, just like ninja.
  const bool is_input = !in_targets_;
  if (!name.empty() && name.back() == ':') {
    name.remove_suffix(1);
    in_targets_ = false;
    saw_colon_ = true;
  }
  if (name.empty()) return true;
  saw_name_ = true;
  if (ins_seen_.count(name) != 0) {
    // Known input: a duplicate, or an -MP phony target for it.
    if (!is_input) poisoned_ = true;
    return true;
  }
  if (is_input) {
    if (poisoned_) {
      *err = "inputs may not also have inputs";
      return false;
    }
    ins_seen_.insert(name);
    parser_->ins.push_back(name);
    return true;
  }
  if (outs_seen_.insert(name).second) parser_->outs.push_back(name);
  return true;
}

}  // namespace

bool DepfileParser::Parse(std::string* content, std::string* err) {
  outs.clear();
  ins.clear();
  Scanner scanner(content->data(), content->data() + content->size());
  RuleBuilder rules(this);
  while (!scanner.AtEnd()) {
    std::string_view name;
    Stop stop = scanner.ScanName(&name);
    if (!rules.AddName(name, err)) return false;
    if (stop == Stop::kNewline) rules.EndRule();
    if (stop == Stop::kEnd) break;
  }
  if (rules.MissingColon()) {
    *err = "expected ':' in depfile";
    return false;
  }
  return true;
}

}  // namespace ronin

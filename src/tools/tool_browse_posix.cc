// `ninja -t browse`: a web page per graph node, served by the small HTTP
// server in net/http_server.cc instead of Ninja's Python script.
//
// Ninja hands its browse arguments to a Python argparse parser, so the
// options, the help and the error messages here reproduce what that parser
// prints (Python 3.11 wording, wrapped to the terminal width as argparse
// does). The pages are our own: the node, the edge that builds it with its
// inputs by kind, that edge's outputs, and the edges that use the node.
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/html_text.h"
#include "base/util.h"
#include "driver/ninja_main.h"
#include "net/http_server.h"
#include "tools/tool_common.h"

extern char** environ;

namespace ronin {

namespace {

// ---------------------------------------------------------------------------
// Command line, read as Ninja's browse script's argparse parser reads it.

const char kProg[] = "ninja -t browse";

enum class BrowseOption { kHelp, kPort, kHostname, kNoBrowser, kNinjaCommand, kFile };

struct OptionString {
  const char* text;
  BrowseOption option;
};

// In the script's definition order: argparse lists the candidates of an
// ambiguous abbreviation in this order.
const OptionString kOptionStrings[] = {
    {"-h", BrowseOption::kHelp},
    {"--help", BrowseOption::kHelp},
    {"--port", BrowseOption::kPort},
    {"-p", BrowseOption::kPort},
    {"--hostname", BrowseOption::kHostname},
    {"-a", BrowseOption::kHostname},
    {"--no-browser", BrowseOption::kNoBrowser},
    {"--ninja-command", BrowseOption::kNinjaCommand},
    {"-f", BrowseOption::kFile},
};

bool TakesValue(BrowseOption option) {
  return option != BrowseOption::kHelp && option != BrowseOption::kNoBrowser;
}

// How argparse names an option in "argument X: ..." errors.
const char* OptionName(BrowseOption option) {
  switch (option) {
    case BrowseOption::kHelp:
      return "-h/--help";
    case BrowseOption::kPort:
      return "--port/-p";
    case BrowseOption::kHostname:
      return "--hostname/-a";
    case BrowseOption::kNoBrowser:
      return "--no-browser";
    case BrowseOption::kNinjaCommand:
      return "--ninja-command";
    case BrowseOption::kFile:
      return "-f";
  }
  return "";
}

bool FindOptionString(std::string_view text, BrowseOption* option) {
  for (const OptionString& candidate : kOptionStrings) {
    if (text == candidate.text) {
      *option = candidate.option;
      return true;
    }
  }
  return false;
}

bool IsPythonSpace(char c) {
  // str.strip() also strips the ASCII information separators 0x1c-0x1f.
  return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

// Python's int(text): blanks around, a sign, decimal digits with single
// underscores between them. The magnitude saturates at 10^15 (ports and
// terminal widths only need to know "too big").
bool ParsePythonInt(std::string_view text, long long* value) {
  while (!text.empty() && IsPythonSpace(text.front())) text.remove_prefix(1);
  while (!text.empty() && IsPythonSpace(text.back())) text.remove_suffix(1);
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty()) return false;
  const long long kCap = 1000000000000000LL;
  long long magnitude = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '_') {
      bool between_digits = i > 0 && i + 1 < text.size() &&
                            isdigit(static_cast<unsigned char>(text[i - 1])) &&
                            isdigit(static_cast<unsigned char>(text[i + 1]));
      if (!between_digits) return false;
      continue;
    }
    if (!isdigit(static_cast<unsigned char>(c))) return false;
    magnitude = std::min(kCap, magnitude * 10 + (c - '0'));
  }
  *value = negative ? -magnitude : magnitude;
  return true;
}

// Python's repr() of a command-line string, for argparse's error messages.
// Command-line bytes that are not UTF-8 reach Python as lone surrogates.
std::string PythonRepr(std::string_view text) {
  bool has_single = text.find('\'') != std::string_view::npos;
  bool has_double = text.find('"') != std::string_view::npos;
  char quote = has_single && !has_double ? '"' : '\'';
  std::string out(1, quote);
  char hex[16];
  for (size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if (c == '\\' || c == static_cast<unsigned char>(quote)) {
        out += '\\';
        out += static_cast<char>(c);
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c < 0x20 || c == 0x7f) {
        snprintf(hex, sizeof(hex), "\\x%02x", c);
        out += hex;
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // Valid UTF-8 is printed as is, except the non-printable U+0080-U+00A0
    // and U+00AD; other bytes reach Python as lone surrogates.
    uint32_t code = 0;
    size_t length = DecodeUtf8(text.substr(i), &code);
    if (length == 0) {
      snprintf(hex, sizeof(hex), "\\udc%02x", c);
      out += hex;
      ++i;
      continue;
    }
    if (code <= 0xa0 || code == 0xad) {
      snprintf(hex, sizeof(hex), "\\x%02x", code);
      out += hex;
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  out += quote;
  return out;
}

// argparse wraps to the terminal: $COLUMNS, else stdout's width, else 80;
// it keeps two columns free.
int HelpWidth() {
  long long columns = 0;
  const char* env = getenv("COLUMNS");
  if (!env || !ParsePythonInt(env, &columns)) columns = 0;
  if (columns <= 0) {
    struct winsize size;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
      columns = size.ws_col;
    else
      columns = 80;
  }
  return static_cast<int>(std::min(columns, 100000LL)) - 2;
}

std::string Join(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) out += separator;
    out += parts[i];
  }
  return out;
}

// argparse's line filling for the usage: parts go on a line while they fit,
// every line but a prefixed first one starts with `indent`.
std::vector<std::string> FillUsageLines(const std::vector<std::string>& parts,
                                        const std::string& indent, int text_width,
                                        const std::string* prefix) {
  std::vector<std::string> lines;
  std::vector<std::string> line;
  int line_length = static_cast<int>(prefix ? prefix->size() : indent.size()) - 1;
  for (const std::string& part : parts) {
    if (line_length + 1 + static_cast<int>(part.size()) > text_width && !line.empty()) {
      lines.push_back(indent + Join(line, " "));
      line.clear();
      line_length = static_cast<int>(indent.size()) - 1;
    }
    line.push_back(part);
    line_length += static_cast<int>(part.size()) + 1;
  }
  if (!line.empty()) lines.push_back(indent + Join(line, " "));
  if (prefix && !lines.empty()) lines[0].erase(0, indent.size());
  return lines;
}

void Append(std::vector<std::string>* lines, const std::vector<std::string>& more) {
  lines->insert(lines->end(), more.begin(), more.end());
}

// "usage: ninja -t browse [-h] ...\n", wrapped as argparse wraps it.
std::string FormatUsage(int width) {
  const std::string prefix = "usage: ";
  const std::string prog = kProg;
  const std::vector<std::string> optionals = {"[-h]",
                                              "[--port PORT]",
                                              "[--hostname HOSTNAME]",
                                              "[--no-browser]",
                                              "[--ninja-command NINJA_COMMAND]",
                                              "[-f F]"};
  const std::vector<std::string> positionals = {"[initial_target]"};
  std::string usage = prog + " " + Join(optionals, " ") + " " + Join(positionals, " ");
  if (static_cast<int>(prefix.size() + usage.size()) <= width) return prefix + usage + "\n";

  std::vector<std::string> lines;
  int prog_end = static_cast<int>(prefix.size() + prog.size());
  if (4 * prog_end <= 3 * width) {  // a short prog: parts follow it
    std::string indent(prog_end + 1, ' ');
    std::vector<std::string> first = {prog};
    Append(&first, optionals);
    lines = FillUsageLines(first, indent, width, &prefix);
    Append(&lines, FillUsageLines(positionals, indent, width, nullptr));
  } else {  // a long prog gets a line of its own
    std::string indent(prefix.size(), ' ');
    std::vector<std::string> all = optionals;
    Append(&all, positionals);
    lines = FillUsageLines(all, indent, width, nullptr);
    if (lines.size() > 1) {
      lines = FillUsageLines(optionals, indent, width, nullptr);
      Append(&lines, FillUsageLines(positionals, indent, width, nullptr));
    }
    lines.insert(lines.begin(), prog);
  }
  return prefix + Join(lines, "\n") + "\n";
}

// Python's textwrap.wrap() for help texts (single-spaced, no hyphens):
// greedy filling, and words longer than a line are cut to fill it.
std::vector<std::string> WrapHelpText(const std::string& text, int width) {
  std::vector<std::string> chunks;  // words and the single spaces between them, reversed
  size_t start = 0;
  while (start <= text.size()) {
    size_t space = text.find(' ', start);
    if (space == std::string::npos) space = text.size();
    if (!chunks.empty()) chunks.push_back(" ");
    chunks.push_back(text.substr(start, space - start));
    start = space + 1;
  }
  std::reverse(chunks.begin(), chunks.end());
  std::vector<std::string> lines;
  while (!chunks.empty()) {
    if (chunks.back() == " " && !lines.empty()) chunks.pop_back();
    std::string line;
    while (!chunks.empty() && static_cast<int>(line.size() + chunks.back().size()) <= width) {
      line += chunks.back();
      chunks.pop_back();
    }
    if (!chunks.empty() && static_cast<int>(chunks.back().size()) > width) {
      size_t room = width < 1 ? 1 : static_cast<size_t>(width) - line.size();
      line += chunks.back().substr(0, room);
      chunks.back().erase(0, room);
    }
    if (!line.empty() && line.back() == ' ') line.pop_back();
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

struct HelpEntry {
  const char* invocation;
  const char* help;
};

const HelpEntry kPositionalHelp[] = {
    {"initial_target", "Initial target to show (default all)"},
};
const HelpEntry kOptionHelp[] = {
    {"-h, --help", "show this help message and exit"},
    {"--port PORT, -p PORT", "Port number to use (default 8000)"},
    {"--hostname HOSTNAME, -a HOSTNAME", "Hostname to bind to (default localhost)"},
    {"--no-browser", "Do not open a webbrowser on startup."},
    {"--ninja-command NINJA_COMMAND", "Path to ninja binary (default ninja)"},
    {"-f F", "Path to build.ninja file (default build.ninja)"},
};

// The help argparse prints for -h.
std::string FormatHelp(int width) {
  int max_help_position = std::min(24, std::max(width - 20, 4));
  int longest = 0;
  for (const HelpEntry& entry : kPositionalHelp)
    longest = std::max(longest, static_cast<int>(strlen(entry.invocation)) + 2);
  for (const HelpEntry& entry : kOptionHelp)
    longest = std::max(longest, static_cast<int>(strlen(entry.invocation)) + 2);
  int help_position = std::min(longest + 2, max_help_position);
  int help_width = std::max(width - help_position, 11);
  int invocation_width = help_position - 4;  // indented by 2, two spaces before the help

  auto format_entry = [&](const HelpEntry& entry) {
    std::string out = "  ";
    std::string invocation = entry.invocation;
    std::vector<std::string> lines = WrapHelpText(entry.help, help_width);
    if (static_cast<int>(invocation.size()) <= invocation_width) {
      invocation.resize(invocation_width, ' ');
      out += invocation + "  " + lines[0] + "\n";
    } else {
      out += invocation + "\n" + std::string(help_position, ' ') + lines[0] + "\n";
    }
    for (size_t i = 1; i < lines.size(); ++i)
      out += std::string(help_position, ' ') + lines[i] + "\n";
    return out;
  };
  std::string help = FormatUsage(width) + "\npositional arguments:\n";
  for (const HelpEntry& entry : kPositionalHelp) help += format_entry(entry);
  help += "\noptions:\n";
  for (const HelpEntry& entry : kOptionHelp) help += format_entry(entry);
  return help;
}

struct BrowseArgs {
  std::string host = "localhost";
  long long port = 8000;
  bool open_browser = true;
  std::string target = "all";
  bool target_given = false;
};

// One command-line string, classified as argparse does before parsing.
struct ArgItem {
  enum class Kind { kPositional, kDoubleDash, kOption, kUnknownOption } kind;
  std::string text;
  BrowseOption option = BrowseOption::kHelp;
  std::string option_string;
  bool has_explicit = false;  // "--port=80", "-p80": the value is attached
  std::string explicit_arg;
};

// Prints argparse's error (usage, then "PROG: error: MESSAGE") and gives
// its exit status.
int ArgumentError(const std::string& message) {
  fputs(FormatUsage(HelpWidth()).c_str(), stderr);
  fprintf(stderr, "%s: error: %s\n", kProg, message.c_str());
  return 2;
}

int OptionError(BrowseOption option, const std::string& message) {
  return ArgumentError(std::string("argument ") + OptionName(option) + ": " + message);
}

// "-5" and "-.5" are values, not options (the parser has no such options).
bool LooksLikeNegativeNumber(std::string_view text) {
  size_t i = 1;
  while (i < text.size() && isdigit(static_cast<unsigned char>(text[i]))) ++i;
  if (i == text.size()) return i > 1;
  if (text[i] != '.' || i + 1 == text.size()) return false;
  for (++i; i < text.size(); ++i) {
    if (!isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

// argparse's _parse_optional: exact option, "--opt=value", unique prefix of
// a long option, short option with the value attached. Returns 2 (after the
// error) for an ambiguous prefix, -1 otherwise.
int ClassifyArg(const std::string& arg, ArgItem* item) {
  item->text = arg;
  item->kind = ArgItem::Kind::kPositional;
  if (arg.empty() || arg[0] != '-') return -1;
  if (FindOptionString(arg, &item->option)) {
    item->kind = ArgItem::Kind::kOption;
    item->option_string = arg;
    return -1;
  }
  if (arg.size() == 1) return -1;
  size_t equals = arg.find('=');
  if (equals != std::string::npos && FindOptionString(arg.substr(0, equals), &item->option)) {
    item->kind = ArgItem::Kind::kOption;
    item->option_string = arg.substr(0, equals);
    item->has_explicit = true;
    item->explicit_arg = arg.substr(equals + 1);
    return -1;
  }
  std::vector<ArgItem> matches;
  for (const OptionString& candidate : kOptionStrings) {
    ArgItem match;
    match.kind = ArgItem::Kind::kOption;
    match.option = candidate.option;
    match.option_string = candidate.text;
    std::string_view name = candidate.text;
    if (arg[1] == '-') {  // long: a prefix, the value only after '='
      std::string prefix = arg.substr(0, equals);
      if (name.compare(0, prefix.size(), prefix) != 0) continue;
      match.has_explicit = equals != std::string::npos;
      if (match.has_explicit) match.explicit_arg = arg.substr(equals + 1);
    } else if (name == std::string_view(arg).substr(0, 2)) {  // "-p80"
      match.has_explicit = true;
      match.explicit_arg = arg.substr(2);
    } else if (name.compare(0, arg.size(), arg) != 0) {
      continue;
    }
    matches.push_back(match);
  }
  if (matches.size() > 1) {
    std::vector<std::string> names;
    for (const ArgItem& match : matches) names.push_back(match.option_string);
    return ArgumentError("ambiguous option: " + arg + " could match " + Join(names, ", "));
  }
  if (matches.size() == 1) {
    matches[0].text = arg;
    *item = matches[0];
    return -1;
  }
  if (LooksLikeNegativeNumber(arg) || arg.find(' ') != std::string::npos) return -1;
  item->kind = ArgItem::Kind::kUnknownOption;
  return -1;
}

// Applies one option; returns an exit status to stop with, or -1.
int TakeOption(BrowseOption option, const std::string& value, BrowseArgs* args) {
  switch (option) {
    case BrowseOption::kHelp:
      fputs(FormatHelp(HelpWidth()).c_str(), stdout);
      return 0;
    case BrowseOption::kPort:
      if (!ParsePythonInt(value, &args->port))
        return OptionError(option, "invalid int value: " + PythonRepr(value));
      return -1;
    case BrowseOption::kHostname:
      args->host = value;
      return -1;
    case BrowseOption::kNoBrowser:
      args->open_browser = false;
      return -1;
    case BrowseOption::kNinjaCommand:  // this process is the ninja to query
    case BrowseOption::kFile:          // the manifest is already loaded (use ninja -f)
      return -1;
  }
  return -1;
}

// argparse's consume_optional for the option at items[*index]: collects the
// actions of a group of flags ("-hp80"), then applies them in order.
int ConsumeOption(const std::vector<ArgItem>& items, size_t* index, BrowseArgs* args) {
  const ArgItem& item = items[*index];
  BrowseOption option = item.option;
  std::string option_string = item.option_string;
  bool has_explicit = item.has_explicit;
  std::string explicit_arg = item.explicit_arg;
  std::vector<std::pair<BrowseOption, std::string>> actions;
  size_t stop = *index + 1;
  for (;;) {
    if (!TakesValue(option)) {
      actions.emplace_back(option, "");
      if (!has_explicit) break;
      // "-hx": a flag followed by more single-letter options.
      BrowseOption next;
      if (option_string[1] == '-' || explicit_arg.empty() ||
          !FindOptionString(std::string("-") + explicit_arg[0], &next))
        return OptionError(option, "ignored explicit argument " + PythonRepr(explicit_arg));
      option = next;
      option_string = std::string("-") + explicit_arg[0];
      explicit_arg.erase(0, 1);
      has_explicit = !explicit_arg.empty();
      continue;
    }
    if (has_explicit) {
      actions.emplace_back(option, explicit_arg);
      break;
    }
    if (stop >= items.size() || items[stop].kind != ArgItem::Kind::kPositional)
      return OptionError(option, "expected one argument");
    actions.emplace_back(option, items[stop].text);
    ++stop;
    break;
  }
  for (const auto& action : actions) {
    int status = TakeOption(action.first, action.second, args);
    if (status >= 0) return status;
  }
  *index = stop;
  return -1;
}

// Parses the tool's arguments. Returns the exit status if the tool should
// stop (help, or an error already printed), -1 to go on.
int ParseBrowseArgs(int argc, char** argv, BrowseArgs* args) {
  std::vector<ArgItem> items(argc);
  bool after_double_dash = false;
  for (int i = 0; i < argc; ++i) {
    std::string arg = argv[i];
    if (after_double_dash) {
      items[i].kind = ArgItem::Kind::kPositional;
      items[i].text = arg;
    } else if (arg == "--") {
      items[i].kind = ArgItem::Kind::kDoubleDash;
      items[i].text = arg;
      after_double_dash = true;
    } else {
      int status = ClassifyArg(arg, &items[i]);
      if (status >= 0) return status;
    }
  }
  std::vector<std::string> extras;
  bool positional_done = false;
  for (size_t i = 0; i < items.size();) {
    if (items[i].kind == ArgItem::Kind::kOption) {
      int status = ConsumeOption(items, &i, args);
      if (status >= 0) return status;
      continue;
    }
    if (items[i].kind == ArgItem::Kind::kUnknownOption) {
      extras.push_back(items[i++].text);
      continue;
    }
    // A run of values: the first run fills initial_target ("--" around it
    // dropped); everything else is unrecognized.
    size_t end = i;
    while (end < items.size() && (items[end].kind == ArgItem::Kind::kPositional ||
                                  items[end].kind == ArgItem::Kind::kDoubleDash))
      ++end;
    if (!positional_done) {
      positional_done = true;
      while (i < end && items[i].kind == ArgItem::Kind::kDoubleDash) ++i;
      if (i < end) {
        args->target = items[i++].text;
        args->target_given = true;
      }
      while (i < end && items[i].kind == ArgItem::Kind::kDoubleDash) ++i;
    }
    for (; i < end; ++i) extras.push_back(items[i].text);
  }
  if (!extras.empty()) return ArgumentError("unrecognized arguments: " + Join(extras, " "));
  return -1;
}

// ---------------------------------------------------------------------------
// Pages.

const char kStyle[] =
    "body { font-family: sans-serif; margin: 2em 3em; line-height: 1.4; }\n"
    "h1 { font-size: 1.5em; font-weight: normal; text-align: center; overflow-wrap: anywhere; }\n"
    "h2 { font-size: 1.2em; font-weight: normal; border-bottom: 1px solid #ccc;"
    " margin: 1.5em 0 0.5em; }\n"
    "h3 { font-size: 1em; margin: 1em 0 0.3em; }\n"
    "ul { list-style: none; margin: 0; padding-left: 1em; column-width: 30em; }\n"
    "li { break-inside: avoid; }\n"
    "code, a { font-family: monospace; overflow-wrap: anywhere; }\n"
    ".note { color: #666; }\n";

std::string PageUrl(std::string_view path) { return "/?" + PercentEncode(path); }

std::string Link(const Node* node) {
  return "<a href=\"" + PageUrl(node->path) + "\">" + HtmlEscape(node->path) + "</a>";
}

// <h3>title</h3><ul id=...> with one linked node per item, if any.
void AppendNodeList(const char* id, const std::string& title, const CompactVector<Node*>& nodes,
                    size_t begin, size_t end, std::string* html) {
  if (begin >= end) return;
  *html += "<h3>" + title + "</h3>\n<ul id=\"" + id + "\">\n";
  for (size_t i = begin; i < end; ++i) *html += "<li>" + Link(nodes[i]) + "</li>\n";
  *html += "</ul>\n";
}

// The edge that builds the page's node: rule, inputs by kind, outputs.
void AppendInEdge(const Edge* edge, std::string* html) {
  *html += "<h2>Built by rule <code>" + HtmlEscape(edge->rule->name()) + "</code></h2>\n";
  const CompactVector<Node*>& in = edge->inputs;
  size_t explicit_end = edge->explicit_input_count();
  size_t implicit_end = in.size() - edge->order_only_deps;
  if (in.empty() && edge->validations().empty()) *html += "<p class=\"note\">No inputs.</p>\n";
  AppendNodeList("explicit", "Inputs", in, 0, explicit_end, html);
  AppendNodeList("implicit", "Implicit inputs <code>|</code>", in, explicit_end, implicit_end,
                 html);
  AppendNodeList("order-only", "Order-only inputs <code>||</code>", in, implicit_end, in.size(),
                 html);
  AppendNodeList("validations", "Validations <code>|@</code>", edge->validations(), 0,
                 edge->validations().size(), html);
  *html += "<h3>Outputs</h3>\n<ul id=\"outputs\">\n";
  for (size_t i = 0; i < edge->outputs.size(); ++i) {
    *html += "<li>" + Link(edge->outputs[i]);
    if (edge->is_implicit_out(i)) *html += " <span class=\"note\">(implicit)</span>";
    *html += "</li>\n";
  }
  *html += "</ul>\n";
}

// How `edge` uses `node`: "explicit", "implicit", "order-only" (joined if
// the node is listed more than once).
std::string InputKinds(const Edge* edge, const Node* node) {
  std::vector<std::string> kinds;
  for (size_t i = 0; i < edge->inputs.size(); ++i) {
    if (edge->inputs[i] != node) continue;
    const char* kind = edge->is_order_only(i) ? "order-only"
                       : edge->is_implicit(i) ? "implicit"
                                              : "explicit";
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) kinds.push_back(kind);
  }
  return Join(kinds, ", ");
}

// One item per distinct edge: its rule, how it uses the node (if `node`),
// and its outputs.
void AppendEdgeList(const char* id, const char* title, const CompactVector<Edge*>& edges,
                    const Node* node, std::string* html) {
  if (edges.empty()) return;
  *html += std::string("<h2>") + title + "</h2>\n<ul id=\"" + id + "\">\n";
  // An edge is listed once per use of the node; a widely used node can
  // have very many edges, hence the set.
  std::unordered_set<const Edge*> seen;
  for (const Edge* edge : edges) {
    if (!seen.insert(edge).second) continue;
    *html += "<li>";
    for (size_t i = 0; i < edge->outputs.size(); ++i)
      *html += (i ? ", " : "") + Link(edge->outputs[i]);
    *html += " <span class=\"note\">(rule <code>" + HtmlEscape(edge->rule->name()) + "</code>";
    if (node) *html += ", " + InputKinds(edge, node) + " input";
    *html += ")</span></li>\n";
  }
  *html += "</ul>\n";
}

std::string NodePage(const State& state, const Node* node) {
  std::string title = HtmlEscape(node->path);
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
      "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n<h1><code>" + title +
      "</code></h1>\n";
  if (node->in_edge)
    AppendInEdge(node->in_edge, &html);
  else
    html += "<p class=\"note\">Not built by any rule.</p>\n";
  AppendEdgeList("dependents", "Used by", node->out_edges, node, &html);
  AppendEdgeList("validation-for", "Validation for", state.ValidationUsers(node), nullptr, &html);
  html += "</body>\n</html>\n";
  return html;
}

class BrowsePages {
 public:
  BrowsePages(NinjaMain* ninja, std::string start) : ninja_(ninja), start_(std::move(start)) {}

  // "/" (and "/?") redirect to the start page, "/?PATH" is PATH's page.
  HttpResponse Handle(const HttpRequest& request) {
    std::string path, query;
    bool has_query = false;
    if (!SplitRequestTarget(request.target, &path, &query, &has_query))
      return HttpErrorResponse(400, "Unsupported request target.");
    if (path != "/") return HttpErrorResponse(404, "Pages are at /?PATH.");
    if (query.empty()) return Redirect(start_);
    std::string target = PercentDecode(query);
    if (target.find('\0') != std::string::npos)
      return HttpErrorResponse(400, "A path cannot contain a NUL byte.");
    std::string err;
    // As `-t query`: canonicalised, and "foo.c^" names foo.c's first output.
    Node* node = ninja_->CollectTarget(target.c_str(), &err);
    if (!node) return HttpErrorResponse(404, err);
    HttpResponse response;
    response.body = NodePage(ninja_->state_, node);
    return response;
  }

 private:
  static HttpResponse Redirect(const std::string& target) {
    HttpResponse response;
    response.status = 302;
    std::string url = PageUrl(target);
    response.headers.emplace_back("Location", url);
    response.body =
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>302 Found</title>\n</head>\n<body>\n<p><a href=\"" +
        url + "\">" + HtmlEscape(target) + "</a></p>\n</body>\n</html>\n";
    return response;
  }

  NinjaMain* ninja_;
  std::string start_;
};

// Ninja's browse starts at "all". Where there is no such target that page
// would only be an error, so the first default target is shown instead.
std::string StartTarget(NinjaMain* ninja) {
  if (ninja->state_.LookupNode("all")) return "all";
  std::string err;
  std::vector<Node*> defaults = ninja->state_.DefaultNodes(&err);
  return defaults.empty() ? "all" : std::string(defaults[0]->path);
}

// ---------------------------------------------------------------------------
// Running the server.

// SIGINT and SIGTERM write to a pipe that the server polls, so a signal
// arriving at any moment (even just before poll() blocks) stops it.
volatile sig_atomic_t g_stop_signal = 0;
int g_stop_pipe_write = -1;

void OnStopSignal(int signal_number) {
  int saved_errno = errno;
  g_stop_signal = signal_number;
  char byte = 0;
  ssize_t ignored = write(g_stop_pipe_write, &byte, 1);
  (void)ignored;
  errno = saved_errno;
}

class StopSignals {
 public:
  bool Install(std::string* err) {
    if (pipe(fds_) != 0) {
      *err = std::string("pipe: ") + strerror(errno);
      return false;
    }
    for (int fd : fds_) {
      fcntl(fd, F_SETFD, FD_CLOEXEC);
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    }
    g_stop_pipe_write = fds_[1];
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = OnStopSignal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
    // Children (the browser opener) are reaped by the kernel.
    struct sigaction no_zombies;
    memset(&no_zombies, 0, sizeof(no_zombies));
    no_zombies.sa_handler = SIG_DFL;
    no_zombies.sa_flags = SA_NOCLDWAIT;
    sigaction(SIGCHLD, &no_zombies, &old_chld_);
    sigset_t unblock;
    sigemptyset(&unblock);
    sigaddset(&unblock, SIGINT);
    sigaddset(&unblock, SIGTERM);
    sigprocmask(SIG_UNBLOCK, &unblock, nullptr);
    installed_ = true;
    return true;
  }

  ~StopSignals() {
    if (installed_) {
      sigaction(SIGINT, &old_int_, nullptr);
      sigaction(SIGTERM, &old_term_, nullptr);
      sigaction(SIGCHLD, &old_chld_, nullptr);
      g_stop_pipe_write = -1;
    }
    for (int fd : fds_) {
      if (fd >= 0) close(fd);
    }
  }

  int read_fd() const { return fds_[0]; }

 private:
  int fds_[2] = {-1, -1};
  bool installed_ = false;
  struct sigaction old_int_, old_term_, old_chld_;
};

// Starts `argv` in the background in its own process group (a Ctrl-C meant
// for the server must not reach the browser). False if it could not start.
bool SpawnDetached(const std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (const std::string& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_init(&attr);
  sigset_t empty;
  sigemptyset(&empty);
  posix_spawnattr_setsigmask(&attr, &empty);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK);
  pid_t pid;
  int result = posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&actions);
  return result == 0;
}

// Like Python's webbrowser: each command of $BROWSER (':'-separated; "%s"
// stands for the URL, else the URL is the last argument), then the
// desktop's opener. Failure is silent: the URL has been printed.
void OpenBrowser(const std::string& url) {
  std::vector<std::vector<std::string>> commands;
  const char* browser = getenv("BROWSER");
  std::string list = browser ? browser : "";
  for (size_t start = 0; start < list.size();) {
    size_t end = list.find(':', start);
    if (end == std::string::npos) end = list.size();
    std::vector<std::string> args;
    bool has_placeholder = false;
    std::string entry = list.substr(start, end - start);
    for (size_t word = entry.find_first_not_of(' '); word != std::string::npos;) {
      size_t word_end = std::min(entry.find(' ', word), entry.size());
      std::string arg = entry.substr(word, word_end - word);
      size_t placeholder = arg.find("%s");
      if (placeholder != std::string::npos) {
        arg.replace(placeholder, 2, url);
        has_placeholder = true;
      }
      args.push_back(arg);
      word = entry.find_first_not_of(' ', word_end);
    }
    if (!args.empty()) {
      if (!has_placeholder) args.push_back(url);
      commands.push_back(args);
    }
    start = end + 1;
  }
#ifdef __APPLE__
  commands.push_back({"open", url});
#else
  commands.push_back({"xdg-open", url});
#endif
  for (const std::vector<std::string>& command : commands) {
    if (SpawnDetached(command)) return;
  }
}

// The host part of a URL a browser on this machine can use.
std::string UrlHost(const std::string& host) {
  if (host.empty() || host == "0.0.0.0" || host == "::") return "localhost";
  if (host.find(':') != std::string::npos) return "[" + host + "]";
  return host;
}

// Serves until a stop signal; returns that signal, or -1 after an error.
int Serve(NinjaMain* ninja, const BrowseArgs& args) {
  std::string start = args.target_given ? args.target : StartTarget(ninja);
  BrowsePages pages(ninja, start);
  HttpServer server([&pages](const HttpRequest& request) { return pages.Handle(request); });
  std::string err;
  std::string where = args.host + ":" + std::to_string(args.port);
  if (args.port < 0 || args.port > 65535) {
    Error("cannot listen on %s: port must be 0-65535", where.c_str());
    return -1;
  }
  if (!server.Listen(args.host, static_cast<int>(args.port), &err)) {
    Error("cannot listen on %s: %s", where.c_str(), err.c_str());
    return -1;
  }
  StopSignals signals;
  if (!signals.Install(&err)) {
    Error("%s", err.c_str());
    return -1;
  }
  fprintf(stderr, "Web server pid %d\n", static_cast<int>(getpid()));
  // The port actually bound: the same as asked for, unless that was 0.
  printf("Web server running on %s:%d, ctl-C to abort...\n", args.host.c_str(), server.port());
  fflush(stdout);
  if (args.open_browser) {
    OpenBrowser("http://" + UrlHost(args.host) + ":" + std::to_string(server.port()) +
                PageUrl(start));
  }
  if (!server.Serve(signals.read_fd(), &err)) {
    Error("%s", err.c_str());
    return -1;
  }
  return g_stop_signal;
}

}  // namespace

int ToolBrowse(NinjaMain* ninja, const Options*, int argc, char** argv) {
  BrowseArgs args;
  int status = ParseBrowseArgs(argc, argv, &args);
  if (status >= 0) return status;
  // Every dyndep file up front (quietly: most exist only after a build), so
  // that each page shows the whole known graph whatever was visited before.
  LoadAllDyndepsQuietly(ninja);
  int stop_signal = Serve(ninja, args);
  if (stop_signal < 0) return 1;
  if (stop_signal == SIGTERM) {
    // Die of the signal, as Ninja's Python server does, now that the
    // sockets are closed.
    fflush(stdout);
    signal(SIGTERM, SIG_DFL);
    raise(SIGTERM);
  }
  // Ctrl-C: Ninja's script ends the "^C" line and exits successfully.
  printf("\n");
  return 0;
}

}  // namespace ronin

#include "graph/manifest_parser.h"

#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "base/disk.h"
#include "base/util.h"
#include "base/version.h"
#include "graph/state.h"

namespace ronin {

void ParseVersion(const char* version, int* major, int* minor) {
  *major = atoi(version);
  const char* dot = strchr(version, '.');
  *minor = dot ? atoi(dot + 1) : 0;
}

ManifestParser::ManifestParser(State* state, FileReader* reader, ManifestParserOptions options)
    : state_(state), reader_(reader), options_(options), env_(state->root_scope()) {}

bool ManifestParser::Load(const std::string& filename, std::string* err, Lexer* parent) {
  files_.clear();
  open_counts_.clear();
  if (!OpenFile(filename, env_, err, parent)) return false;
  return ParseFilesAndLinkUsers(err);
}

bool ManifestParser::ParseTest(std::string_view input, std::string* err) {
  files_.clear();
  files_.emplace_back();
  File& file = files_.back();
  file.contents.assign(input);
  file.canonical = "input";
  file.env = env_;
  file.lexer.Start("input", file.contents);
  return ParseFilesAndLinkUsers(err);
}

bool ManifestParser::ParseFilesAndLinkUsers(std::string* err) {
  size_t first_edge = state_->edges().size();
  extra_users_.clear();
  bool ok = ParseFiles(err);
  state_->LinkUsers(first_edge, extra_users_);  // after a failed parse too: the graph stays whole
  return ok;
}

bool ManifestParser::OpenFile(const std::string& filename, Scope* env, std::string* err, Lexer* includer) {
  // Includes are followed with an explicit stack of files, so their nesting
  // never touches the C++ stack. A file may include itself (Ninja allows it:
  // usually the second round fails on a duplicate rule), but a file open
  // that many times over is a cycle that would never end.
  std::string canonical = filename;
  CanonicalizePath(&canonical);
  const size_t kMaxNesting = 100000;
  const int kMaxReentries = 64;
  std::string problem;
  if (open_counts_[canonical] >= kMaxReentries) {
    auto last = std::find_if(files_.rbegin(), files_.rend(),
                             [&](const File& file) { return file.canonical == canonical; });
    problem = "include cycle:";
    for (auto it = last.base() - 1; it != files_.end(); ++it) problem += " " + it->canonical + " ->";
    problem += " " + canonical;
  } else if (files_.size() >= kMaxNesting) {
    problem = "includes nested more than " + std::to_string(kMaxNesting) + " deep";
  }
  std::string contents, read_err;
  if (problem.empty() && reader_->ReadFile(filename, &contents, &read_err) != FileReader::Status::kOkay)
    problem = read_err;
  if (!problem.empty()) {
    *err = "loading '" + filename + "': " + problem;
    if (includer) includer->Error(std::string(*err), err);
    return false;
  }
  ++open_counts_[canonical];
  files_.emplace_back();
  File& file = files_.back();
  file.contents = std::move(contents);
  file.canonical = std::move(canonical);
  file.env = env;
  // The text dies with the frame; the name is kept for error messages.
  file.lexer.Start(state_->arena()->Copy(filename), file.contents);
  return true;
}

void ManifestParser::ResumeTopFile() {
  lexer_ = files_.back().lexer;
  env_ = files_.back().env;
  // Once any file asked for 1.14, a refused $^ gets 1.14's message.
  if (asked_for_1_14_ && lexer_.newline_escape() == Lexer::NewlineEscape::kBadEscape)
    lexer_.SetNewlineEscape(Lexer::NewlineEscape::kNeedsVersion);
}

bool ManifestParser::ParseFiles(std::string* err) {
  while (!files_.empty()) {
    ResumeTopFile();
    bool opened = false;
    if (!ParseStatements(err, &opened)) return false;
    if (opened) continue;  // an included file is now on top
    --open_counts_[files_.back().canonical];
    files_.pop_back();
    if (files_.empty()) break;
    // Back in the includer, right after the include statement's path.
    ResumeTopFile();
    if (!ExpectToken(Lexer::NEWLINE, err)) return false;
    files_.back().lexer = lexer_;
  }
  return true;
}

bool ManifestParser::ParseStatements(std::string* err, bool* opened) {
  for (;;) {
    Lexer::Token token = lexer_.ReadToken();
    switch (token) {
      case Lexer::POOL:
        if (!ParsePool(err)) return false;
        break;
      case Lexer::BUILD:
        if (!ParseEdge(err)) return false;
        break;
      case Lexer::RULE:
        if (!ParseRule(err)) return false;
        break;
      case Lexer::DEFAULT:
        if (!ParseDefault(err)) return false;
        break;
      case Lexer::IDENT: {
        lexer_.UnreadToken();
        std::string_view name;
        EvalString& let_value = scratch_let_;
        let_value.Clear();
        if (!ParseLet(&name, &let_value, err)) return false;
        std::string value = let_value.Evaluate(*env_);
        if (ValueTooLarge(value)) return ValueTooLargeError(name, err);
        // Checked at once, so an old binary stops before tripping over newer syntax.
        if (name == "ninja_required_version") {
          CheckNinjaVersion(value);
          // As in Ninja 1.14, for the rest of this file only (not its includes).
          if (VersionAtLeast(value, 1, 14)) {
            asked_for_1_14_ = true;
            lexer_.SetNewlineEscape(Lexer::NewlineEscape::kAllowed);
          }
        }
        env_->AddBinding(state_->InternName(name), state_->arena()->Copy(value));
        break;
      }
      case Lexer::INCLUDE:
      case Lexer::SUBNINJA:
        if (!OpenInclude(token == Lexer::SUBNINJA, err)) return false;
        *opened = true;
        return true;
      case Lexer::ERROR:
        return lexer_.Error(lexer_.DescribeLastError(), err);
      case Lexer::TEOF:
        return true;
      case Lexer::NEWLINE:
        break;
      default:
        return lexer_.Error(std::string("unexpected ") + Lexer::TokenName(token), err);
    }
  }
}

bool VersionAtLeast(const std::string& version, int major, int minor) {
  int file_major, file_minor;
  ParseVersion(version.c_str(), &file_major, &file_minor);
  return file_major > major || (file_major == major && file_minor >= minor);
}

void ManifestParser::CheckNinjaVersion(std::string_view version) {
  std::string required(version);
  int bin_major, bin_minor, file_major, file_minor;
  // The manifest language of 1.14 ($^) is understood, so a file that
  // requires 1.14 is accepted; messages still name the release matched.
  ParseVersion(kManifestLanguageVersion, &bin_major, &bin_minor);
  ParseVersion(required.c_str(), &file_major, &file_minor);
  if (bin_major > file_major) {
    warned_ = true;
    Warning("ninja executable version (%s) greater than build file ninja_required_version (%s); "
            "versions may be incompatible.",
            kNinjaVersion, required.c_str());
  } else if ((bin_major == file_major && bin_minor < file_minor) || bin_major < file_major) {
    Fatal("ninja version (%s) incompatible with build file ninja_required_version version (%s).",
          kNinjaVersion, required.c_str());
  }
}

bool ManifestParser::ExpectToken(Lexer::Token expected, std::string* err) {
  Lexer::Token token = lexer_.ReadToken();
  if (token == expected) return true;
  std::string message = std::string("expected ") + Lexer::TokenName(expected) + ", got " +
                        Lexer::TokenName(token) + Lexer::TokenErrorHint(expected);
  return lexer_.Error(message, err);
}

bool ManifestParser::ValueTooLargeError(std::string_view name, std::string* err) {
  return lexer_.Error("value of variable '" + std::string(name) + "' is longer than " +
                          std::to_string(kMaxValueSize >> 20) + " MiB (a variable expanding to itself many times?)",
                      err);
}

bool ManifestParser::ParseLet(std::string_view* key, EvalString* value, std::string* err) {
  if (!lexer_.ReadIdent(key)) return lexer_.Error("expected variable name", err);
  if (!ExpectToken(Lexer::EQUALS, err)) return false;
  return lexer_.ReadVarValue(value, err);
}

bool ManifestParser::ParsePool(std::string* err) {
  std::string_view name;
  if (!lexer_.ReadIdent(&name)) return lexer_.Error("expected pool name", err);
  if (!ExpectToken(Lexer::NEWLINE, err)) return false;
  if (state_->LookupPool(name)) return lexer_.Error("duplicate pool '" + std::string(name) + "'", err);

  int depth = -1;
  while (lexer_.PeekToken(Lexer::INDENT)) {
    std::string_view key;
    EvalString value;
    if (!ParseLet(&key, &value, err)) return false;
    if (key != "depth") return lexer_.Error("unexpected variable '" + std::string(key) + "'", err);
    std::string depth_text = value.Evaluate(*env_);
    depth = atoi(depth_text.c_str());
    if (depth < 0) return lexer_.Error("invalid pool depth", err);
  }
  if (depth < 0) return lexer_.Error("expected 'depth =' line", err);
  state_->AddPool(state_->NewPool(name, depth));
  return true;
}

bool ManifestParser::ParseRule(std::string* err) {
  std::string_view name;
  if (!lexer_.ReadIdent(&name)) return lexer_.Error("expected rule name", err);
  if (!ExpectToken(Lexer::NEWLINE, err)) return false;
  if (env_->LookupRuleLocal(name))
    return lexer_.Error("duplicate rule '" + std::string(name) + "'", err);

  Rule* rule = state_->NewRule(name);
  while (lexer_.PeekToken(Lexer::INDENT)) {
    std::string_view key;
    EvalString value;
    if (!ParseLet(&key, &value, err)) return false;
    int index = Rule::BindingIndex(key);
    if (index < 0) return lexer_.Error("unexpected variable '" + std::string(key) + "'", err);
    value.Persist(state_->arena());
    rule->SetBinding(index, std::move(value));
  }

  auto is_empty = [rule](Rule::Binding key) {
    const EvalString* value = rule->GetBinding(key);
    return !value || value->empty();
  };
  if (is_empty(Rule::kRspfile) != is_empty(Rule::kRspfileContent))
    return lexer_.Error("rspfile and rspfile_content need to be both specified", err);
  if (is_empty(Rule::kCommand)) return lexer_.Error("expected 'command =' line", err);
  env_->AddRule(rule);
  return true;
}

bool ManifestParser::ParseDefault(std::string* err) {
  EvalString eval;
  if (!lexer_.ReadPath(&eval, err)) return false;
  if (eval.empty()) return lexer_.Error("expected target name", err);
  do {
    std::string path;
    if (!EvaluatePath(eval, *env_, &path, err)) return false;
    std::string default_err;
    if (!state_->AddDefault(path, &default_err)) return lexer_.Error(default_err, err);
    eval.Clear();
    if (!lexer_.ReadPath(&eval, err)) return false;
  } while (!eval.empty());
  return ExpectToken(Lexer::NEWLINE, err);
}

bool ManifestParser::EvaluatePath(const EvalString& eval, const Env& env, std::string* path,
                                  std::string* err) {
  path->clear();
  eval.EvaluateInto(env, path);
  if (path->empty()) return lexer_.Error("empty path", err);
  CanonicalizePath(path);
  return true;
}

size_t ManifestParser::EvaluateEdgePaths(const Edge* edge, size_t count) {
  // Paths see the edge's own bindings first, then the file scope.
  EdgeBindingEnv env(edge);
  path_views_.resize(count);
  path_hashes_.resize(count);
  path_unchecked_.assign(count, 0);
  if constexpr (kWindows) path_slash_bits_.assign(count, 0);
  evaluated_paths_.clear();
  evaluated_offsets_.clear();
  size_t evaluated = count;
  for (size_t i = 0; i < count; ++i) {
    size_t begin = i == 0 ? 0 : scratch_path_ends_[i - 1];
    size_t end = scratch_path_ends_[i];
    std::string_view path;
    // Most paths are literal and already canonical: use the manifest text
    // (CanonicalEdgePath checks it once the path table has been asked).
    if (scratch_paths_.AsSingleLiteral(begin, end, &path)) {
      path_unchecked_[i] = 1;
    } else {
      scratch_path_.clear();
      scratch_paths_.EvaluateInto(env, begin, end, &scratch_path_);
      if (scratch_path_.empty()) {
        evaluated = i;  // "empty path", reported in order by the caller
        break;
      }
      if constexpr (kWindows)
        CanonicalizePath(&scratch_path_, &path_slash_bits_[i]);
      else
        CanonicalizePath(&scratch_path_);
      evaluated_offsets_.emplace_back(i, evaluated_paths_.size());
      evaluated_paths_.append(scratch_path_);
      path = scratch_path_;  // for the hash; the view is set below
    }
    path_views_[i] = path;
    path_hashes_[i] = HashString(path);
    state_->PrefetchNode(path_hashes_[i]);
  }
  // The buffer no longer moves: point the evaluated paths into it.
  for (const auto& [index, offset] : evaluated_offsets_)
    path_views_[index] = std::string_view(evaluated_paths_.data() + offset, path_views_[index].size());
  return evaluated;
}

Node* ManifestParser::EdgePathNode(size_t i) {
  std::string_view path = path_views_[i];
  if (Node* node = state_->LookupNode(path, path_hashes_[i])) return node;
  uint64_t slash_bits = kWindows ? path_slash_bits_[i] : 0;
  if (path_unchecked_[i] && !IsCanonicalPath(path)) {
    late_path_.assign(path);
    CanonicalizePath(&late_path_, &slash_bits);
    path = late_path_;
    path_hashes_[i] = HashString(path);
  }
  return state_->GetNode(path, path_hashes_[i], slash_bits);
}

bool ManifestParser::ReadPathList(size_t* used, int* count, std::string* err) {
  // Paths go into one reused scratch EvalString: parsing an edge allocates
  // nothing here once the scratch has grown.
  for (;;) {
    size_t segments_before = scratch_paths_.segment_count();
    if (!lexer_.ReadPath(&scratch_paths_, err)) return false;
    if (scratch_paths_.segment_count() == segments_before) return true;
    scratch_path_ends_.push_back(scratch_paths_.segment_count());
    ++*used;
    ++*count;
  }
}

bool ManifestParser::ParseEdge(std::string* err) {
  size_t used = 0;
  scratch_paths_.Clear();
  scratch_path_ends_.clear();
  int explicit_outs = 0, implicit_outs = 0;
  if (!ReadPathList(&used, &explicit_outs, err)) return false;
  if (lexer_.PeekToken(Lexer::PIPE) && !ReadPathList(&used, &implicit_outs, err)) return false;
  size_t outs_end = used;
  if (outs_end == 0) return lexer_.Error("expected path", err);
  if (!ExpectToken(Lexer::COLON, err)) return false;

  std::string_view rule_name;
  if (!lexer_.ReadIdent(&rule_name)) return lexer_.Error("expected build command name", err);
  const Rule* rule = env_->LookupRule(rule_name);
  if (!rule) return lexer_.Error("unknown build rule '" + std::string(rule_name) + "'", err);

  int explicit_ins = 0, implicit_ins = 0, order_only_ins = 0, validation_count = 0;
  if (!ReadPathList(&used, &explicit_ins, err)) return false;
  if (lexer_.PeekToken(Lexer::PIPE) && !ReadPathList(&used, &implicit_ins, err)) return false;
  if (lexer_.PeekToken(Lexer::PIPE2) && !ReadPathList(&used, &order_only_ins, err)) return false;
  size_t ins_end = used;
  if (lexer_.PeekToken(Lexer::PIPEAT) && !ReadPathList(&used, &validation_count, err)) return false;
  if (!ExpectToken(Lexer::NEWLINE, err)) return false;

  // Edge bindings are evaluated right away, in the enclosing scope.
  scratch_bindings_.clear();
  while (lexer_.PeekToken(Lexer::INDENT)) {
    std::string_view key;
    EvalString& value = scratch_let_;
    value.Clear();
    if (!ParseLet(&key, &value, err)) return false;
    scratch_value_.clear();
    value.EvaluateInto(*env_, &scratch_value_);
    if (ValueTooLarge(scratch_value_)) return ValueTooLargeError(key, err);
    scratch_bindings_.push_back(Edge::Binding::Of(state_->InternName(key), state_->arena()->Copy(scratch_value_)));
  }

  Edge* edge = state_->AddEdge(rule, env_);
  if (!scratch_bindings_.empty()) state_->SetEdgeBindings(edge, scratch_bindings_);
  std::string pool_name = edge->GetBinding(Rule::kPool);
  if (!pool_name.empty()) {
    Pool* pool = state_->LookupPool(pool_name);
    if (!pool) return lexer_.Error("unknown pool name '" + pool_name + "'", err);
    edge->pool = pool;
  }

  // Every path is evaluated and hashed first, and its slot in the path
  // table prefetched, so the lookups below overlap their cache misses.
  size_t evaluated = EvaluateEdgePaths(edge, used);

  edge->outputs.reserve(outs_end);
  for (size_t i = 0; i < outs_end; ++i) {
    if (i >= evaluated) return lexer_.Error("empty path", err);
    if (!state_->AddOut(edge, EdgePathNode(i), err)) return lexer_.Error(std::string(*err), err);
  }
  edge->implicit_outs = implicit_outs;

  edge->inputs.reserve(ins_end - outs_end);
  for (size_t i = outs_end; i < ins_end; ++i) {
    if (i >= evaluated) return lexer_.Error("empty path", err);
    state_->AddInLater(edge, EdgePathNode(i));
  }
  edge->implicit_deps = implicit_ins;
  edge->order_only_deps = order_only_ins;

  if (used > ins_end) edge->MutableExtras()->validations.reserve(used - ins_end);
  for (size_t i = ins_end; i < used; ++i) {
    if (i >= evaluated) return lexer_.Error("empty path", err);
    state_->AddValidation(edge, EdgePathNode(i)->path);
  }

  if (!options_.phony_cycle_is_error && edge->maybe_phonycycle_diagnostic()) {
    // Old CMake versions wrote phony statements naming themselves as
    // inputs; drop such inputs rather than reporting a cycle.
    Node* out = edge->outputs[0];
    auto new_end = std::remove(edge->inputs.begin(), edge->inputs.end(), out);
    if (new_end != edge->inputs.end()) {
      // The node keeps this edge as a user, so it is not a root node (as in Ninja).
      for (auto it = new_end; it != edge->inputs.end(); ++it) extra_users_.emplace_back(edge, out);
      edge->inputs.erase(new_end, edge->inputs.end());
      // Ninja keeps the section counts as written and classifies inputs
      // from the end: the last order_only_deps are order-only, the
      // implicit_deps before them implicit. Where a count no longer fits
      // its arithmetic wraps and that section (and those before it) is
      // empty. The same classification, with counts that stay in range:
      size_t count = edge->inputs.size();
      if (count < static_cast<size_t>(edge->order_only_deps)) {
        edge->order_only_deps = 0;
        edge->implicit_deps = 0;
      } else if (count < static_cast<size_t>(edge->order_only_deps) + edge->implicit_deps) {
        edge->implicit_deps = 0;
      }
      if (!options_.quiet) {
        warned_ = true;
        Warning("phony target '%s' names itself as an input; ignoring [-w phonycycle=warn]",
                std::string(out->path).c_str());
      }
    }
  }

  // The dyndep file must be one of the edge's declared inputs.
  std::string dyndep = edge->GetUnescapedDyndep();
  if (!dyndep.empty()) {
    uint64_t slash_bits;
    CanonicalizePath(&dyndep, &slash_bits);
    Node* file = state_->GetNode(dyndep, HashString(dyndep), slash_bits);
    edge->MutableExtras()->dyndep = file;
    file->dyndep_pending = true;
    state_->set_uses_dyndep();
    if (std::find(edge->inputs.begin(), edge->inputs.end(), file) == edge->inputs.end())
      return lexer_.Error("dyndep '" + dyndep + "' is not an input", err);
  }
  return true;
}

bool ManifestParser::OpenInclude(bool new_scope, std::string* err) {
  EvalString eval;
  if (!lexer_.ReadPath(&eval, err)) return false;
  std::string path = eval.Evaluate(*env_);
  // The includer resumes here (its newline is checked after the file).
  files_.back().lexer = lexer_;
  Scope* env = new_scope ? state_->NewScope(env_) : env_;
  return OpenFile(path, env, err, &lexer_);
}

}  // namespace ronin

#include "scan/dyndep.h"

#include "base/disk.h"
#include "base/util.h"
#include "base/version.h"
#include "graph/graph.h"
#include "graph/lexer.h"
#include "graph/state.h"
#include "scan/explain.h"

namespace ronin {

bool EdgeIdLess::operator()(const Edge* a, const Edge* b) const { return a->id < b->id; }

namespace {

class DyndepParser {
 public:
  DyndepParser(State* state, DyndepFile* file) : state_(state), file_(file) {}

  bool Parse(std::string_view filename, std::string_view input, std::string* err) {
    lexer_.Start(filename, input);
    bool have_version = false;
    for (;;) {
      Lexer::Token token = lexer_.ReadToken();
      switch (token) {
        case Lexer::BUILD:
          if (!have_version) return lexer_.Error("expected 'ninja_dyndep_version = ...'", err);
          if (!ParseEdge(err)) return false;
          break;
        case Lexer::IDENT:
          lexer_.UnreadToken();
          if (have_version) return lexer_.Error(std::string("unexpected ") + Lexer::TokenName(token), err);
          if (!ParseVersion(err)) return false;
          have_version = true;
          break;
        case Lexer::ERROR:
          return lexer_.Error(lexer_.DescribeLastError(), err);
        case Lexer::TEOF:
          if (!have_version) return lexer_.Error("expected 'ninja_dyndep_version = ...'", err);
          return true;
        case Lexer::NEWLINE:
          break;
        default:
          return lexer_.Error(std::string("unexpected ") + Lexer::TokenName(token), err);
      }
    }
  }

 private:
  bool ParseLet(std::string_view* key, EvalString* value, std::string* err) {
    if (!lexer_.ReadIdent(key)) return lexer_.Error("expected variable name", err);
    if (!ExpectToken(Lexer::EQUALS, err)) return false;
    return lexer_.ReadVarValue(value, err);
  }

  bool ExpectToken(Lexer::Token expected, std::string* err) {
    Lexer::Token token = lexer_.ReadToken();
    if (token == expected) return true;
    return lexer_.Error(std::string("expected ") + Lexer::TokenName(expected) + ", got " +
                            Lexer::TokenName(token) + Lexer::TokenErrorHint(expected),
                        err);
  }

  bool ParseVersion(std::string* err) {
    std::string_view name;
    EvalString value;
    if (!ParseLet(&name, &value, err)) return false;
    if (name != "ninja_dyndep_version") return lexer_.Error("expected 'ninja_dyndep_version = ...'", err);
    std::string version = value.Evaluate(env_);
    int major, minor;
    ronin::ParseVersion(version.c_str(), &major, &minor);
    if (major != 1 || minor != 0)
      return lexer_.Error("unsupported 'ninja_dyndep_version = " + version + "'", err);
    return true;
  }

  bool ReadPaths(std::vector<EvalString>* paths, std::string* err) {
    for (;;) {
      EvalString path;
      if (!lexer_.ReadPath(&path, err)) return false;
      if (path.empty()) return true;
      paths->push_back(std::move(path));
    }
  }

  bool EvaluatePath(const EvalString& eval, std::string* path, std::string* err, uint64_t* slash_bits = nullptr) {
    *path = eval.Evaluate(env_);
    if (path->empty()) return lexer_.Error("empty path", err);
    uint64_t bits;
    CanonicalizePath(path, slash_bits ? slash_bits : &bits);
    return true;
  }

  bool ParseEdge(std::string* err) {
    Dyndeps* dyndeps = nullptr;
    {
      EvalString out;
      if (!lexer_.ReadPath(&out, err)) return false;
      if (out.empty()) return lexer_.Error("expected path", err);
      std::string path;
      if (!EvaluatePath(out, &path, err)) return false;
      Node* node = state_->LookupNode(path);
      if (!node || !node->in_edge) return lexer_.Error("no build statement exists for '" + path + "'", err);
      auto inserted = file_->emplace(node->in_edge, Dyndeps());
      if (!inserted.second) return lexer_.Error("multiple statements for '" + path + "'", err);
      dyndeps = &inserted.first->second;
    }
    {
      EvalString out;
      if (!lexer_.ReadPath(&out, err)) return false;
      if (!out.empty()) return lexer_.Error("explicit outputs not supported", err);
    }
    std::vector<EvalString> outs, ins;
    if (lexer_.PeekToken(Lexer::PIPE) && !ReadPaths(&outs, err)) return false;
    if (!ExpectToken(Lexer::COLON, err)) return false;

    std::string_view rule_name;
    if (!lexer_.ReadIdent(&rule_name) || rule_name != "dyndep")
      return lexer_.Error("expected build command name 'dyndep'", err);
    {
      EvalString in;
      if (!lexer_.ReadPath(&in, err)) return false;
      if (!in.empty()) return lexer_.Error("explicit inputs not supported", err);
    }
    if (lexer_.PeekToken(Lexer::PIPE) && !ReadPaths(&ins, err)) return false;
    if (lexer_.PeekToken(Lexer::PIPE2)) return lexer_.Error("order-only inputs not supported", err);
    if (!ExpectToken(Lexer::NEWLINE, err)) return false;

    if (lexer_.PeekToken(Lexer::INDENT)) {
      std::string_view key;
      EvalString value;
      if (!ParseLet(&key, &value, err)) return false;
      if (key != "restat") return lexer_.Error("binding is not 'restat'", err);
      dyndeps->restat = !value.Evaluate(env_).empty();
    }

    std::string path;
    for (const EvalString& in : ins) {
      uint64_t slash_bits;
      if (!EvaluatePath(in, &path, err, &slash_bits)) return false;
      dyndeps->implicit_inputs.push_back(state_->GetNode(path, HashString(path), slash_bits));
    }
    for (const EvalString& out : outs) {
      uint64_t slash_bits;
      if (!EvaluatePath(out, &path, err, &slash_bits)) return false;
      dyndeps->implicit_outputs.push_back(state_->GetNode(path, HashString(path), slash_bits));
    }
    return true;
  }

  State* state_;
  DyndepFile* file_;
  Scope env_;  // dyndep files define no variables; $x expands to ""
  Lexer lexer_;
};

}  // namespace

bool ParseDyndepText(State* state, const std::string& filename, const std::string& input,
                     DyndepFile* file, std::string* err) {
  DyndepParser parser(state, file);
  return parser.Parse(filename, input, err);
}

bool ParseDyndepFile(State* state, DiskInterface* disk, const std::string& path, DyndepFile* file,
                     std::string* err) {
  std::string contents, read_err;
  if (disk->ReadFile(path, &contents, &read_err) != FileReader::Status::kOkay) {
    *err = "loading '" + path + "': " + read_err;
    return false;
  }
  return ParseDyndepText(state, path, contents, file, err);
}

bool DyndepLoader::LoadDyndeps(Node* node, DyndepFile* file, std::string* err) const {
  node->dyndep_pending = false;
  if (!ParseDyndepFile(state_, disk_, std::string(node->path), file, err)) return false;

  for (Edge* edge : node->out_edges) {
    if (edge->dyndep() != node) continue;
    auto it = file->find(edge);
    if (it == file->end()) {
      *err = "'" + std::string(edge->outputs[0]->path) + "' not mentioned in its dyndep file '" +
             std::string(node->path) + "'";
      return false;
    }
    it->second.used = true;
    if (!UpdateEdge(edge, it->second, err)) return false;
  }
  for (const auto& entry : *file) {
    if (entry.second.used) continue;
    *err = "dyndep file '" + std::string(node->path) + "' mentions output '" +
           std::string(entry.first->outputs[0]->path) +
           "' whose build statement does not have a dyndep binding for the file";
    return false;
  }
  return true;
}

bool DyndepLoader::UpdateEdge(Edge* edge, const Dyndeps& dyndeps, std::string* err) const {
  // An edge binding, so it never leaks into the file scope.
  if (dyndeps.restat) {
    state_->AddEdgeBinding(edge, "restat", "1");
    edge->command_hash_known = false;  // a command could refer to $restat
  }
  for (Node* output : dyndeps.implicit_outputs) {
    if (output->in_edge) {
      *err = "multiple rules generate " + std::string(output->path);
      return false;
    }
    output->in_edge = edge;
    // Its users may have counted it as a built source file.
    for (Edge* user : output->out_edges) user->ForgetReadyInputs();
    edge->outputs.push_back(output);
    ++edge->implicit_outs;
  }
  // Declared inputs, so before the discovered ones (graph.h), which a
  // depfile or the deps log may have added already.
  edge->inputs.insert(edge->inputs.end() - edge->order_only_deps - edge->discovered_deps,
                      dyndeps.implicit_inputs.begin(), dyndeps.implicit_inputs.end());
  edge->implicit_deps += static_cast<int32_t>(dyndeps.implicit_inputs.size());
  edge->ForgetReadyInputs();
  for (Node* input : dyndeps.implicit_inputs) input->out_edges.push_back(edge);
  return true;
}

}  // namespace ronin

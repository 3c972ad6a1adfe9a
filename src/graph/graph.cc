#include "graph/graph.h"

#include <algorithm>
#include <new>

#include "base/disk.h"
#include "base/metrics.h"

namespace ronin {

Arena* GraphArena() {
  static Arena* arena = new Arena;  // lives as long as the graph: the process
  return arena;
}

bool Node::Stat(DiskInterface* disk, std::string* err) {
  METRIC_RECORD("node stat");
  mtime = disk->Stat(std::string(path), err);
  if (mtime == -1) return false;
  existence = mtime != 0 ? Existence::kExists : Existence::kMissing;
  return true;
}

static_assert(sizeof(void*) != 8 || sizeof(Edge) == 120, "Edge grew: 52k of them in the bench tree");
static_assert(sizeof(void*) != 8 || sizeof(Node) == (kWindows ? 64 : 56),
              "Node grew: 103k of them in the bench tree (slash bits only on Windows)");

const CompactVector<Node*>& Edge::validations() const {
  static const CompactVector<Node*> kNone;
  return extras ? extras->validations : kNone;
}

Edge::Extras* Edge::MutableExtras() {
  if (!extras) extras = new (GraphArena()->AllocateArray<Extras>(1)) Extras;
  return extras;
}

bool Edge::AllInputsReady() const {
  if (ready_inputs > inputs.size()) ready_inputs = 0;  // inputs removed: look again
  for (; ready_inputs < inputs.size(); ++ready_inputs) {
    const Node* input = inputs[ready_inputs];
    if (input->in_edge && !input->in_edge->outputs_ready) return false;
  }
  return true;
}

namespace {

// Resolves variables for one edge, in Ninja's order: $in/$out first, then
// the edge's own scope, then the rule's binding (evaluated in this same
// environment), then the enclosing scopes.
class EdgeEnv : public Env {
 public:
  enum class Escape { kShell, kNone };

  EdgeEnv(const Edge* edge, Escape escape, bool* cycle_found = nullptr)
      : edge_(edge), escape_(escape), cycle_found_(cycle_found) {}

  void AppendVariable(std::string_view name, std::string* out) const override {
    if (cycle_found_ && *cycle_found_) return;
    if (name == "in" || name == "in_newline") {
      AppendPaths(edge_->inputs.data(), edge_->inputs.data() + edge_->explicit_input_count(),
                  name == "in" ? ' ' : '\n', out);
      return;
    }
    if (name == "out") {
      AppendPaths(edge_->outputs.data(), edge_->outputs.data() + edge_->explicit_output_count(),
                  ' ', out);
      return;
    }
    if (recursive_ && HasCycle(name)) return;

    const EvalString* rule_value = edge_->rule->GetBinding(name);
    // The outermost lookup is not recorded: rule variables rarely refer to
    // each other, so cycle tracking starts only one level down.
    bool record = recursive_ && rule_value;
    if (record) lookups_.push_back(name);
    recursive_ = true;

    // The innermost scope is the edge's own bindings if it has any, else
    // (Ninja's quirk) its file scope, which thus beats the rule.
    const Scope* scope = edge_->scope;
    std::string_view local;
    bool found = false;
    if (edge_->binding_count) {
      found = edge_->FindOwnBinding(name, &local);
    } else if (const std::string_view* value = scope->LookupLocal(name)) {
      local = *value;
      found = true;
    }
    if (found) {
      out->append(local);
    } else if (rule_value) {
      rule_value->EvaluateInto(*this, out);
    } else if (edge_->binding_count) {
      out->append(scope->LookupVariable(name));
    } else if (const Scope* parent = scope->parent()) {
      out->append(parent->LookupVariable(name));
    }
    if (record) lookups_.pop_back();
  }

 private:
  // Fatal on a cycle, unless asked to report it instead.
  bool HasCycle(std::string_view name) const {
    auto it = std::find(lookups_.begin(), lookups_.end(), name);
    if (it == lookups_.end()) return false;
    if (cycle_found_) {
      *cycle_found_ = true;
      return true;
    }
    std::string cycle;
    for (; it != lookups_.end(); ++it) {
      cycle.append(*it);
      cycle.append(" -> ");
    }
    cycle.append(name);
    Fatal("cycle in rule variables: %s", cycle.c_str());
  }

  void AppendPaths(Node* const* begin, Node* const* end, char separator, std::string* out) const {
    for (Node* const* node = begin; node != end; ++node) {
      if (node != begin) out->push_back(separator);
      // As written in the manifest: on Windows with its backslashes.
      std::string spelled;
      std::string_view path = (*node)->path;
      if ((*node)->slash_bits()) path = spelled = (*node)->PathDecanonicalized();
      if (escape_ == Escape::kShell)
        AppendCommandEscaped(path, out);
      else
        out->append(path);
    }
  }

  const Edge* edge_;
  Escape escape_;
  bool* cycle_found_;
  mutable std::vector<std::string_view> lookups_;
  mutable bool recursive_ = false;
};

std::string Lookup(const Edge* edge, std::string_view key, EdgeEnv::Escape escape) {
  std::string result;
  EdgeEnv(edge, escape).AppendVariable(key, &result);
  return result;
}

}  // namespace

std::string Edge::GetBinding(std::string_view key) const {
  return Lookup(this, key, EdgeEnv::Escape::kShell);
}

std::string Edge::GetBinding(Rule::Binding key) const {
  std::string_view literal;
  if (RuleLiteralIsBinding(key, &literal)) return std::string(literal);
  return Lookup(this, Rule::BindingName(key), EdgeEnv::Escape::kShell);
}

bool Edge::RuleLiteralIsBinding(Rule::Binding key, std::string_view* value) const {
  // EdgeEnv::AppendVariable's order: the edge's own bindings (or, without
  // any, its file scope), the rule, then the enclosing scopes. When neither
  // the edge nor any of those scopes defines the name, the rule decides,
  // and literal text (restat = 1, deps = gcc) needs no evaluation: the scan
  // asks each edge for several such names.
  uint32_t defined;
  if (!scope->ReservedNamesInChain(&defined) || (defined >> key) & 1) return false;
  std::string_view own;
  if (binding_count && FindOwnBinding(Rule::BindingName(key), &own)) return false;
  const EvalString* rule_value = rule->GetBinding(key);
  if (!rule_value || rule_value->segment_count() == 0) {
    *value = std::string_view();
    return true;
  }
  return rule_value->AsSingleLiteral(value);
}

namespace {

// Appends ";rspfile=" and the rspfile content to `command`, or nothing if
// the content is empty. Evaluated in place: link edges' contents are
// megabytes, which a copy would hold twice.
void AppendRspfileContent(const Edge* edge, bool* cycle, std::string* command) {
  const std::string_view kSeparator = ";rspfile=";
  size_t before = command->size();
  command->append(kSeparator);
  EdgeEnv(edge, EdgeEnv::Escape::kShell, cycle).AppendVariable("rspfile_content", command);
  if (command->size() == before + kSeparator.size()) command->resize(before);
}

}  // namespace

std::string Edge::EvaluateCommand(bool include_rspfile) const {
  std::string command = GetBinding(Rule::kCommand);
  if (include_rspfile) AppendRspfileContent(this, nullptr, &command);
  return command;
}

bool Edge::TryEvaluateCommand(std::string* command, bool include_rspfile) const {
  bool cycle = false;
  command->clear();
  EdgeEnv(this, EdgeEnv::Escape::kShell, &cycle).AppendVariable("command", command);
  if (include_rspfile && !cycle) AppendRspfileContent(this, &cycle, command);
  return !cycle;
}

std::string Edge::GetUnescapedDepfile() const {
  return Lookup(this, "depfile", EdgeEnv::Escape::kNone);
}

std::string Edge::GetUnescapedDyndep() const {
  return Lookup(this, "dyndep", EdgeEnv::Escape::kNone);
}

std::string Edge::GetUnescapedRspfile() const {
  return Lookup(this, "rspfile", EdgeEnv::Escape::kNone);
}

}  // namespace ronin

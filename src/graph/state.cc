#include "graph/state.h"

#include <new>

namespace ronin {

namespace {
Rule MakePhonyRule() {
  Rule rule("phony");
  rule.MarkPhony();
  return rule;
}
}  // namespace

const Rule kPhonyRule = MakePhonyRule();

State::State() : default_pool_("", 0), console_pool_("console", 1, /*is_console=*/true) {
  root_scope_.AddRule(&kPhonyRule);
  AddPool(&default_pool_);
  AddPool(&console_pool_);
}

Node* State::GetNode(std::string_view path, uint64_t hash, uint64_t slash_bits) {
  if (Node* node = paths_.Find(path, hash)) return node;
  Node* node = &nodes_.emplace_back(arena_.Copy(path));
  node->set_slash_bits(slash_bits);
  paths_.Insert(node, hash);
  if (observer_) observer_->NodeCreated(node);
  return node;
}

Node* State::LookupNode(std::string_view path) const { return paths_.Find(path); }

Node* State::SpellcheckNode(std::string_view path) const {
  const int kMaxValidEditDistance = 3;
  int best = kMaxValidEditDistance + 1;
  Node* result = nullptr;
  for (const Node& node : nodes_) {
    int distance = EditDistance(node.path, path, kMaxValidEditDistance);
    if (distance < best) {
      best = distance;
      result = const_cast<Node*>(&node);
    }
  }
  return result;
}

std::string_view State::InternName(std::string_view name) {
  auto it = names_.find(name);
  if (it != names_.end()) return *it;
  std::string_view copy = arena_.Copy(name);
  names_.insert(copy);
  return copy;
}

void State::SetEdgeBindings(Edge* edge, const std::vector<Edge::Binding>& bindings) {
  Edge::Binding* array = arena_.AllocateArray<Edge::Binding>(bindings.size());
  uint32_t count = 0;
  // A name bound twice keeps its last value. Edges have a handful of
  // bindings; a hash index keeps pathological ones linear.
  std::unordered_map<std::string_view, uint32_t> index;
  bool indexed = bindings.size() > 16;
  for (const Edge::Binding& binding : bindings) {
    Edge::Binding* existing = nullptr;
    if (indexed) {
      auto it = index.find(binding.name());
      if (it != index.end()) existing = &array[it->second];
    } else {
      for (uint32_t i = 0; i < count; ++i)
        if (array[i].name() == binding.name()) existing = &array[i];
    }
    if (existing) {
      existing->value_text = binding.value_text;
      continue;
    }
    if (indexed) index.emplace(binding.name(), count);
    new (&array[count++]) Edge::Binding(binding);
  }
  edge->bindings = array;
  edge->binding_count = count;
}

void State::AddEdgeBinding(Edge* edge, std::string_view name, std::string_view value) {
  std::vector<Edge::Binding> bindings(edge->bindings, edge->bindings + edge->binding_count);
  bindings.push_back(Edge::Binding::Of(InternName(name), arena_.Copy(value)));
  SetEdgeBindings(edge, bindings);
}

Edge* State::AddEdge(const Rule* rule, Scope* scope) {
  Edge* edge = &edges_.emplace_back();
  edge->rule = rule;
  edge->pool = &default_pool_;
  edge->scope = scope;
  edge->id = static_cast<uint32_t>(edges_.size() - 1);
  return edge;
}

bool State::AddOut(Edge* edge, Node* node, std::string* err) {
  if (Edge* other = node->in_edge) {
    if (other == edge)
      *err = std::string(node->path) + " is defined as an output multiple times";
    else
      *err = "multiple rules generate " + std::string(node->path);
    return false;
  }
  edge->outputs.push_back(node);
  node->in_edge = edge;
  node->generated_by_dep_loader = false;
  return true;
}

void State::AddIn(Edge* edge, Node* node) {
  edge->inputs.push_back(node);
  node->out_edges.push_back(edge);
  node->generated_by_dep_loader = false;
}

void State::LinkUsers(size_t first_edge, const std::vector<std::pair<Edge*, Node*>>& extra_users) {
  // Twice over the same users: first counted, then stored.
  for (int pass = 0; pass < 2; ++pass) {
    auto extra = extra_users.begin();
    for (size_t i = first_edge; i < edges_.size(); ++i) {
      Edge* edge = &edges_[i];
      auto link = [pass, edge](Node* node) {
        if (pass == 0) {
          node->out_edges.CountForLater();
        } else {
          node->out_edges.AllocateCounted();
          node->out_edges.push_back(edge);
        }
      };
      for (Node* input : edge->inputs) link(input);
      for (; extra != extra_users.end() && extra->first == edge; ++extra) link(extra->second);
    }
  }
}

void State::AddValidation(Edge* edge, std::string_view path) {
  Node* node = GetNode(path);
  edge->MutableExtras()->validations.push_back(node);
  validation_users_[node].push_back(edge);
  node->generated_by_dep_loader = false;
}

const CompactVector<Edge*>& State::ValidationUsers(const Node* node) const {
  static const CompactVector<Edge*> kNone;
  auto it = validation_users_.find(node);
  return it == validation_users_.end() ? kNone : it->second;
}

bool State::AddDefault(std::string_view path, std::string* err) {
  Node* node = LookupNode(path);
  if (!node) {
    *err = "unknown target '" + std::string(path) + "'";
    return false;
  }
  defaults_.push_back(node);
  return true;
}

Pool* State::LookupPool(std::string_view name) const {
  Pool* const* pool = pools_.Find(name);
  return pool ? *pool : nullptr;
}

std::vector<Pool*> State::pools() const {
  std::vector<Pool*> result;
  for (const auto& entry : pools_.entries()) result.push_back(entry.second);
  return result;
}

std::vector<Node*> State::RootNodes(std::string* err) const {
  std::vector<Node*> roots;
  for (const Edge* edge : edges()) {
    for (Node* output : edge->outputs) {
      if (output->out_edges.empty()) roots.push_back(output);
    }
  }
  if (!edges_.empty() && roots.empty()) *err = "could not determine root nodes of build graph";
  return roots;
}

std::vector<Node*> State::DefaultNodes(std::string* err) const {
  return defaults_.empty() ? RootNodes(err) : defaults_;
}

void State::Reset() {
  for (Node& node : nodes_) node.ResetState();
  for (Edge* edge : edges()) {
    edge->outputs_ready = false;
    edge->ForgetReadyInputs();
    edge->deps_loaded = false;
    edge->mark = Edge::Visit::kNone;
  }
}

void State::ForgetVerdicts() {
  for (Node& node : nodes_) ForgetVerdictOf(&node);
  for (Edge* edge : edges()) ForgetVerdictOf(edge);
}

void State::ForgetVerdictOf(Node* node) {
  node->dirty = false;
  // A missing phony output took its newest input's mtime: worked out again.
  if (node->existence == Node::Existence::kMissing) node->mtime = 0;
}

void State::ForgetVerdictOf(Edge* edge) {
  edge->outputs_ready = false;
  edge->ForgetReadyInputs();
  edge->mark = Edge::Visit::kNone;
  edge->prev_elapsed_time_millis = -1;  // read from the log again: it may have run since
}

Scope* State::NewScope(Scope* parent) {
  scopes_.emplace_back(parent);
  return &scopes_.back();
}

void State::NoteReservedNames() {
  root_scope_.NoteReservedNames();
  for (Scope& scope : scopes_) scope.NoteReservedNames();
}

Rule* State::NewRule(std::string_view name) {
  rules_.emplace_back(arena_.Copy(name));
  return &rules_.back();
}

Pool* State::NewPool(std::string_view name, int depth) {
  pool_storage_.emplace_back(arena_.Copy(name), depth);
  return &pool_storage_.back();
}

}  // namespace ronin

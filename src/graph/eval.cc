#include "graph/eval.h"

namespace ronin {

namespace {
const char* const kBindingNames[Rule::kBindingCount] = {
    "command", "depfile", "dyndep", "description", "deps", "generator", "pool",
    "restat", "rspfile", "rspfile_content", "msvc_deps_prefix",
};
}  // namespace

int Rule::BindingIndex(std::string_view name) {
  for (int i = 0; i < kBindingCount; ++i)
    if (name == kBindingNames[i]) return i;
  return -1;
}

const char* Rule::BindingName(int index) { return kBindingNames[index]; }

void EvalString::AddText(std::string_view text) {
  if (text.empty()) return;
  // Adjacent text in the same buffer becomes one segment.
  if (!segments_.empty()) {
    Segment& last = segments_.back();
    if (!last.is_variable && last.data + last.size == text.data()) {
      last.size += static_cast<uint32_t>(text.size());
      return;
    }
  }
  segments_.push_back({text.data(), static_cast<uint32_t>(text.size()), false});
}

void EvalString::AddVariable(std::string_view name) {
  segments_.push_back({name.data(), static_cast<uint32_t>(name.size()), true});
}

#ifdef RONIN_FUZZING
size_t g_fuzz_eval_budget = static_cast<size_t>(-1);
#endif

void EvalString::EvaluateInto(const Env& env, size_t begin, size_t end, std::string* out) const {
  for (size_t i = begin; i < end; ++i) {
    const Segment& segment = segments_[i];
    if (ValueTooLarge(*out)) return;  // the caller reports it
#ifdef RONIN_FUZZING
    if (out->size() > kFuzzEvalMaxSize || g_fuzz_eval_budget == 0) return;
    size_t size_before = out->size();
#endif
    if (segment.is_variable)
      env.AppendVariable(segment.view(), out);
    else
      out->append(segment.data, segment.size);
#ifdef RONIN_FUZZING
    size_t cost = 1 + out->size() - size_before;
    g_fuzz_eval_budget = cost >= g_fuzz_eval_budget ? 0 : g_fuzz_eval_budget - cost;
#endif
  }
}

bool EvalString::IsLiteral() const {
  for (const Segment& segment : segments_)
    if (segment.is_variable) return false;
  return true;
}

std::string EvalString::LiteralText() const {
  std::string text;
  for (const Segment& segment : segments_) text.append(segment.data, segment.size);
  return text;
}

void EvalString::Persist(Arena* arena) {
  for (Segment& segment : segments_) segment.data = arena->Copy(segment.view()).data();
}

std::string EvalString::Serialize() const {
  std::string result;
  for (const Segment& segment : segments_) {
    result += '[';
    if (segment.is_variable) result += '$';
    result.append(segment.data, segment.size);
    result += ']';
  }
  return result;
}

std::string EvalString::Unparse() const {
  std::string result;
  for (const Segment& segment : segments_) {
    if (segment.is_variable) {
      result += "${";
      result.append(segment.data, segment.size);
      result += '}';
    } else {
      result.append(segment.data, segment.size);
    }
  }
  return result;
}

std::atomic<uint64_t> Scope::bindings_changed_{0};

void Scope::NoteReservedNames() {
  uint32_t bits = 0;
  for (const Scope* scope = this; scope; scope = scope->parent_) {
    for (int i = 0; i < Rule::kBindingCount; ++i)
      if (scope->vars_.Find(Rule::BindingName(i))) bits |= uint32_t{1} << i;
  }
  reserved_in_chain_ = bits;
  reserved_noted_at_ = bindings_changed_.load(std::memory_order_relaxed);
}

std::string_view Scope::LookupVariable(std::string_view name) const {
  for (const Scope* scope = this; scope; scope = scope->parent_) {
    if (const std::string_view* value = scope->vars_.Find(name)) return *value;
  }
  return std::string_view();
}

void Scope::AppendVariable(std::string_view name, std::string* out) const {
  out->append(LookupVariable(name));
}

const Rule* Scope::LookupRuleLocal(std::string_view name) const {
  const Rule* const* rule = rules_.Find(name);
  return rule ? *rule : nullptr;
}

const Rule* Scope::LookupRule(std::string_view name) const {
  for (const Scope* scope = this; scope; scope = scope->parent_) {
    if (const Rule* rule = scope->LookupRuleLocal(name)) return rule;
  }
  return nullptr;
}

}  // namespace ronin

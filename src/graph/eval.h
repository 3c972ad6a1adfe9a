// Variables and scopes: the manifest's unevaluated strings (EvalString),
// the scope chain that resolves $name (Scope), and rules, whose bindings
// stay unevaluated until an edge asks for them.
#ifndef RONIN_GRAPH_EVAL_H_
#define RONIN_GRAPH_EVAL_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/arena.h"

namespace ronin {

#ifdef RONIN_FUZZING
// Fuzz builds only (tests/fuzz, misc/fuzz.sh; never in ninja): a cap on the
// work EvaluateInto does, so inputs that are exponential by design (in Ninja
// too), such as chains of `b = $a$a`, end quickly instead of exhausting the
// fuzzer's memory or time. A result stops growing once it is longer than
// kFuzzEvalMaxSize (small: a file of such lines keeps every value), and
// nothing more is expanded once the budget (one unit per segment plus the
// bytes it appended, reset by the harness before each input) is spent.
extern size_t g_fuzz_eval_budget;
constexpr size_t kFuzzEvalMaxSize = 1 << 16;
#endif

// The largest value one evaluation produces (documented in doc/manual.md).
// Chains like `b = $a$a` double at every line; Ninja grows them until the
// kernel kills it. An evaluation stops appending once its result is past
// this size, and callers that keep a value report it as an error
// (ValueTooLarge), so memory stays bounded by a few times this.
constexpr size_t kMaxValueSize = size_t(64) << 20;
inline bool ValueTooLarge(const std::string& value) { return value.size() > kMaxValueSize; }

// Anything that can resolve a variable name. Appending (rather than
// returning a string) lets evaluation build one result without temporaries.
class Env {
 public:
  virtual ~Env() = default;
  virtual void AppendVariable(std::string_view name, std::string* out) const = 0;
};

// A parsed string such as "cc $in -o ${out}": literal and variable segments.
// Segments are views; they point into the manifest buffer while parsing and
// into an Arena once Persist() has been called.
class EvalString {
 public:
  // The graph image stores and restores segments as they are.
  friend class GraphImageWriter;
  friend class GraphImageReader;

  void AddText(std::string_view text);
  void AddVariable(std::string_view name);
  void Clear() { segments_.clear(); }
  bool empty() const { return segments_.empty(); }

  void EvaluateInto(const Env& env, std::string* out) const { EvaluateInto(env, 0, segments_.size(), out); }
  std::string Evaluate(const Env& env) const {
    std::string result;
    EvaluateInto(env, &result);
    return result;
  }

  // Literal text when there are no variables (fast path for paths).
  bool IsLiteral() const;
  // The text, if the string is exactly one literal segment.
  bool AsSingleLiteral(std::string_view* text) const { return AsSingleLiteral(0, segments_.size(), text); }
  std::string LiteralText() const;

  // Segments [begin, end) as a string of their own. A build line's paths
  // are read back to back into one EvalString (ManifestParser::ReadPathList),
  // so a 100k-path line costs a segment per path, not an EvalString each.
  // (Paths are separated in the text, so one's text never merges into the
  // next one's segment.)
  size_t segment_count() const { return segments_.size(); }
  bool AsSingleLiteral(size_t begin, size_t end, std::string_view* text) const {
    if (end - begin != 1 || segments_[begin].is_variable) return false;
    *text = segments_[begin].view();
    return true;
  }
  void EvaluateInto(const Env& env, size_t begin, size_t end, std::string* out) const;

  // Copies every segment into `arena` so the string outlives the buffer.
  void Persist(Arena* arena);

  // "[text][$var]" form, for tests and `-t rules -d` (which prints ${var}).
  std::string Serialize() const;
  std::string Unparse() const;

 private:
  struct Segment {
    const char* data;
    uint32_t size;
    bool is_variable;
    std::string_view view() const { return std::string_view(data, size); }
  };
  std::vector<Segment> segments_;
};

// A small string-keyed map: linear search while small, hashed when large.
// Most scopes (edge bindings) hold a handful of entries, so the index is
// allocated only once a map grows past that.
template <typename Value>
class SmallMap {
 public:
  const Value* Find(std::string_view key) const {
    if (index_) {
      auto it = index_->find(key);
      return it == index_->end() ? nullptr : &entries_[it->second].second;
    }
    for (const auto& entry : entries_)
      if (entry.first == key) return &entry.second;
    return nullptr;
  }
  // Inserts or replaces.
  void Set(std::string_view key, Value value) {
    if (Value* existing = const_cast<Value*>(Find(key))) {
      *existing = value;
      return;
    }
    entries_.emplace_back(key, value);
    if (index_) {
      index_->emplace(key, entries_.size() - 1);
    } else if (entries_.size() > kLinearLimit) {
      index_.reset(new std::unordered_map<std::string_view, size_t>);
      for (size_t i = 0; i < entries_.size(); ++i) index_->emplace(entries_[i].first, i);
    }
  }
  const std::vector<std::pair<std::string_view, Value>>& entries() const { return entries_; }

 private:
  static constexpr size_t kLinearLimit = 12;
  std::vector<std::pair<std::string_view, Value>> entries_;
  std::unique_ptr<std::unordered_map<std::string_view, size_t>> index_;
};

class Rule {
 public:
  // The only keys a rule may bind.
  enum Binding {
    kCommand, kDepfile, kDyndep, kDescription, kDeps, kGenerator, kPool,
    kRestat, kRspfile, kRspfileContent, kMsvcDepsPrefix, kBindingCount
  };
  static int BindingIndex(std::string_view name);  // -1 if not reserved
  static const char* BindingName(int index);

  explicit Rule(std::string_view name) : name_(name) {}
  std::string_view name() const { return name_; }

  void SetBinding(int index, EvalString value) {
    bindings_[index] = std::move(value);
    has_[index] = true;
  }
  // nullptr when the rule does not bind this key.
  const EvalString* GetBinding(int index) const { return has_[index] ? &bindings_[index] : nullptr; }
  const EvalString* GetBinding(std::string_view name) const {
    int index = BindingIndex(name);
    return index < 0 ? nullptr : GetBinding(index);
  }
  bool IsPhony() const { return is_phony_; }
  void MarkPhony() { is_phony_ = true; }

 private:
  std::string_view name_;
  EvalString bindings_[kBindingCount];
  bool has_[kBindingCount] = {};
  bool is_phony_ = false;
};

// A file scope (top-level file, or a subninja), or an edge's own bindings.
// Lookup falls back to the parent scope; values are arena-owned strings.
class Scope : public Env {
 public:
  friend class GraphImageWriter;
  friend class GraphImageReader;

  explicit Scope(Scope* parent = nullptr) : parent_(parent) {}
  Scope* parent() const { return parent_; }

  void AddBinding(std::string_view name, std::string_view value) {
    vars_.Set(name, value);
    bindings_changed_.fetch_add(1, std::memory_order_relaxed);
  }
  const std::string_view* LookupLocal(std::string_view name) const { return vars_.Find(name); }
  std::string_view LookupVariable(std::string_view name) const;
  void AppendVariable(std::string_view name, std::string* out) const override;

  void AddRule(const Rule* rule) { rules_.Set(rule->name(), rule); }
  const Rule* LookupRuleLocal(std::string_view name) const;
  const Rule* LookupRule(std::string_view name) const;
  const std::vector<std::pair<std::string_view, const Rule*>>& rules() const { return rules_.entries(); }

  // Which of the rules' reserved names (bit 1 << Rule::Binding) this scope
  // or an enclosing one defines as a variable: an edge asking for one that
  // none of them defines needs no scope lookups (Edge::GetBinding). Taken
  // by NoteReservedNames once the manifest is loaded; any binding added
  // anywhere since makes it unknown (false).
  void NoteReservedNames();
  bool ReservedNamesInChain(uint32_t* bits) const {
    *bits = reserved_in_chain_;
    return reserved_noted_at_ == bindings_changed_.load(std::memory_order_relaxed);
  }

 private:
  // Counts AddBinding calls in every scope: a mask noted at another count
  // may be out of date.
  static std::atomic<uint64_t> bindings_changed_;
  uint64_t reserved_noted_at_ = ~uint64_t{0};
  uint32_t reserved_in_chain_ = 0;
  Scope* parent_;
  SmallMap<std::string_view> vars_;
  SmallMap<const Rule*> rules_;
};

}  // namespace ronin

#endif  // RONIN_GRAPH_EVAL_H_

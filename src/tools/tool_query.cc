// Tools that walk the graph and print it: commands, inputs, multi-inputs,
// query and graph. Every walk uses an explicit stack, so deep graphs cannot
// exhaust the C stack.
#include <stdio.h>

#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/util.h"
#include "driver/ninja_main.h"
#include "tools/tool_common.h"

namespace ronin {

namespace {

bool CollectTargets(NinjaMain* ninja, int argc, char** argv, std::vector<Node*>* targets) {
  std::string err;
  if (ninja->CollectTargetsFromArgs(argc, argv, targets, &err)) return true;
  Error("%s", err.c_str());
  return false;
}

// Prints the commands of `edge` and (unless only_last) of everything it
// depends on, inputs first; each edge once across all calls sharing `seen`.
void PrintCommands(const Edge* root, bool only_last, std::unordered_set<const Edge*>* seen) {
  struct Frame {
    const Edge* edge;
    size_t next_input;
  };
  std::vector<Frame> stack;
  auto enter = [&](const Edge* edge) {
    if (edge && seen->insert(edge).second) stack.push_back({edge, 0});
  };
  enter(root);
  while (!stack.empty()) {
    Frame& frame = stack.back();
    const Edge* edge = frame.edge;
    if (!only_last && frame.next_input < edge->inputs.size()) {
      enter(edge->inputs[frame.next_input++]->in_edge);
      continue;
    }
    stack.pop_back();
    if (!edge->is_phony()) PrintRaw(edge->EvaluateCommand() + "\n");
  }
}

// The inputs needed to build targets, in dependency order (an input after
// everything it depends on). Outputs of phony edges are walked through but
// not listed; validations are never followed.
class InputsCollector {
 public:
  void Visit(const Node* target) {
    struct Frame {
      const Edge* edge;
      size_t next_input;
    };
    std::vector<Frame> stack;
    if (target->in_edge) stack.push_back({target->in_edge, 0});
    while (!stack.empty()) {
      Frame& frame = stack.back();
      if (frame.next_input == frame.edge->inputs.size()) {
        stack.pop_back();
        // The input whose subtree just finished comes after that subtree.
        if (!stack.empty()) Add(stack.back().edge->inputs[stack.back().next_input - 1]);
        continue;
      }
      const Node* input = frame.edge->inputs[frame.next_input++];
      if (!visited_.insert(input).second) continue;
      if (input->in_edge)
        stack.push_back({input->in_edge, 0});
      else
        Add(input);
    }
  }

  void Reset() {
    visited_.clear();
    inputs_.clear();
  }

  std::vector<std::string> Strings(bool shell_escape) const {
    std::vector<std::string> result;
    result.reserve(inputs_.size());
    for (const Node* input : inputs_) {
      // As the manifest spells it (backslashes kept on Windows), quoted as
      // a command would quote it (for CreateProcess on Windows).
      std::string spelled = input->PathDecanonicalized();
      result.emplace_back();
      if (shell_escape)
        AppendCommandEscaped(spelled, &result.back());
      else
        result.back() = std::move(spelled);
    }
    return result;
  }

 private:
  void Add(const Node* input) {
    if (!(input->in_edge && input->in_edge->is_phony())) inputs_.push_back(input);
  }

  std::unordered_set<const Node*> visited_;
  std::vector<const Node*> inputs_;
};

const char kInputsUsage[] =
    "Usage '-t inputs [options] [targets]\n"
    "\n"
    "List all inputs used for a set of targets, sorted in dependency order.\n"
    "Note that by default, results are shell escaped, and sorted alphabetically,\n"
    "and never include validation target paths.\n"
    "\n"
    "Options:\n"
    "  -h, --help          Print this message.\n"
    "  -0, --print0            Use \\0, instead of \\n as a line terminator.\n"
    "  -E, --no-shell-escape   Do not shell escape the result.\n"
    "  -d, --dependency-order  Sort results by dependency order.\n";

const char kMultiInputsUsage[] =
    "Usage '-t multi-inputs [options] [targets]\n"
    "\n"
    "Print one or more sets of inputs required to build targets, sorted in dependency order.\n"
    "The tool works like inputs tool but with addition of the target for each line.\n"
    "The output will be a series of lines with the following elements:\n"
    "<target> <delimiter> <input> <terminator>\n"
    "Note that a given input may appear for several targets if it is used by more than one "
    "targets.\n"
    "Options:\n"
    "  -h, --help                   Print this message.\n"
    "  -d  --delimiter=DELIM        Use DELIM instead of TAB for field delimiter.\n"
    "  -0, --print0                 Use \\0, instead of \\n as a line terminator.\n";

// Ninja's graphviz writer identifies nodes and edges by address.
void PrintGraphNode(const Node* node) {
  std::string label(node->path);
  std::replace(label.begin(), label.end(), '\\', '/');
  printf("\"%p\" [label=\"", static_cast<const void*>(node));
  PrintRaw(label);
  printf("\"]\n");
}

void PrintGraphEdge(const Edge* edge) {
  std::string rule(edge->rule->name());
  if (edge->inputs.size() == 1 && edge->outputs.size() == 1) {
    // One in, one out: a labelled arrow (the space before the label is Ninja's).
    printf("\"%p\" -> \"%p\" [label=\" %s\"]\n", static_cast<const void*>(edge->inputs[0]),
           static_cast<const void*>(edge->outputs[0]), rule.c_str());
    return;
  }
  printf("\"%p\" [label=\"%s\", shape=ellipse]\n", static_cast<const void*>(edge), rule.c_str());
  for (const Node* output : edge->outputs)
    printf("\"%p\" -> \"%p\"\n", static_cast<const void*>(edge), static_cast<const void*>(output));
  for (size_t i = 0; i < edge->inputs.size(); ++i) {
    printf("\"%p\" -> \"%p\" [arrowhead=none%s]\n", static_cast<const void*>(edge->inputs[i]),
           static_cast<const void*>(edge), edge->is_order_only(i) ? " style=dotted" : "");
  }
}

}  // namespace

int ToolCommands(NinjaMain* ninja, const Options*, int argc, char** argv) {
  ToolArgs args(argc, argv);
  bool only_last = false;
  for (int opt; (opt = args.Next("hs")) != -1;) {
    if (opt == 's') {
      only_last = true;
      continue;
    }
    printf(
        "usage: ninja -t commands [options] [targets]\n"
        "\n"
        "options:\n"
        "  -s     only print the final command to build [target], not the whole chain\n");
    return 1;
  }
  std::vector<Node*> targets;
  if (!CollectTargets(ninja, args.rest_count(), args.rest(), &targets)) return 1;
  std::unordered_set<const Edge*> seen;
  for (const Node* target : targets) PrintCommands(target->in_edge, only_last, &seen);
  return 0;
}

int ToolInputs(NinjaMain* ninja, const Options*, int argc, char** argv) {
  const option kLongOptions[] = {{"help", no_argument, nullptr, 'h'},
                                 {"no-shell-escape", no_argument, nullptr, 'E'},
                                 {"print0", no_argument, nullptr, '0'},
                                 {"dependency-order", no_argument, nullptr, 'd'},
                                 {nullptr, 0, nullptr, 0}};
  ToolArgs args(argc, argv);
  bool shell_escape = true;
  bool dependency_order = false;
  char terminator = '\n';
  for (int opt; (opt = args.Next("h0Ed", kLongOptions)) != -1;) {
    switch (opt) {
      case 'd':
        dependency_order = true;
        break;
      case 'E':
        shell_escape = false;
        break;
      case '0':
        terminator = '\0';
        break;
      default:
        fputs(kInputsUsage, stdout);
        return 1;
    }
  }
  std::vector<Node*> targets;
  if (!CollectTargets(ninja, args.rest_count(), args.rest(), &targets)) return 1;

  InputsCollector collector;
  for (const Node* target : targets) collector.Visit(target);
  std::vector<std::string> inputs = collector.Strings(shell_escape);
  // Sorted after escaping, as Ninja does.
  if (!dependency_order) std::sort(inputs.begin(), inputs.end());
  for (std::string& input : inputs) {
    input.push_back(terminator);
    PrintRaw(input);
  }
  return 0;
}

int ToolMultiInputs(NinjaMain* ninja, const Options*, int argc, char** argv) {
  const option kLongOptions[] = {{"help", no_argument, nullptr, 'h'},
                                 {"delimiter", required_argument, nullptr, 'd'},
                                 {"print0", no_argument, nullptr, '0'},
                                 {nullptr, 0, nullptr, 0}};
  ToolArgs args(argc, argv);
  std::string delimiter = "\t";
  char terminator = '\n';
  for (int opt; (opt = args.Next("d:h0", kLongOptions)) != -1;) {
    switch (opt) {
      case 'd':
        delimiter = optarg;
        break;
      case '0':
        terminator = '\0';
        break;
      default:
        fputs(kMultiInputsUsage, stdout);
        return 1;
    }
  }
  std::vector<Node*> targets;
  if (!CollectTargets(ninja, args.rest_count(), args.rest(), &targets)) return 1;

  InputsCollector collector;
  std::string line;
  for (const Node* target : targets) {
    // Each target gets its own walk: shared inputs repeat per target.
    collector.Reset();
    collector.Visit(target);
    for (const std::string& input : collector.Strings(/*shell_escape=*/false)) {
      line.assign(target->path);
      line += delimiter;
      line += input;
      line.push_back(terminator);
      PrintRaw(line);
    }
  }
  return 0;
}

int ToolQuery(NinjaMain* ninja, const Options*, int argc, char** argv) {
  if (argc == 0) {
    Error("expected a target to query");
    return 1;
  }
  for (int i = 0; i < argc; ++i) {
    std::string err;
    Node* node = ninja->CollectTarget(argv[i], &err);
    if (!node) {
      Error("%s", err.c_str());
      return 1;
    }
    PrintRaw(std::string(node->path) + ":\n");
    if (Edge* edge = node->in_edge) {
      if (edge->dyndep() && edge->dyndep()->dyndep_pending) LoadDyndepsOrWarn(ninja, edge->dyndep());
      PrintRaw("  input: " + std::string(edge->rule->name()) + "\n");
      for (size_t in = 0; in < edge->inputs.size(); ++in) {
        const char* label = edge->is_implicit(in) ? "| " : edge->is_order_only(in) ? "|| " : "";
        PrintRaw("    " + std::string(label) + std::string(edge->inputs[in]->path) + "\n");
      }
      if (!edge->validations().empty()) {
        PrintRaw("  validations:\n");
        for (const Node* validation : edge->validations())
          PrintRaw("    " + std::string(validation->path) + "\n");
      }
    }
    PrintRaw("  outputs:\n");
    for (const Edge* edge : node->out_edges) {
      for (const Node* output : edge->outputs) PrintRaw("    " + std::string(output->path) + "\n");
    }
    if (!ninja->state_.ValidationUsers(node).empty()) {
      PrintRaw("  validation for:\n");
      for (const Edge* edge : ninja->state_.ValidationUsers(node)) {
        for (const Node* output : edge->outputs)
          PrintRaw("    " + std::string(output->path) + "\n");
      }
    }
  }
  return 0;
}

int ToolGraph(NinjaMain* ninja, const Options*, int argc, char** argv) {
  std::vector<Node*> targets;
  if (!CollectTargets(ninja, argc, argv, &targets)) return 1;

  printf(
      "digraph ninja {\n"
      "rankdir=\"LR\"\n"
      "node [fontsize=10, shape=box, height=0.25]\n"
      "edge [fontsize=10]\n");
  std::unordered_set<const Node*> visited_nodes;
  std::unordered_set<const Edge*> visited_edges;
  // Preorder: a node, its producing edge, then each input's subtree in turn.
  std::vector<Node*> stack(targets.rbegin(), targets.rend());
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    if (!visited_nodes.insert(node).second) continue;
    PrintGraphNode(node);
    Edge* edge = node->in_edge;
    if (!edge || !visited_edges.insert(edge).second) continue;
    if (edge->dyndep() && edge->dyndep()->dyndep_pending) LoadDyndepsOrWarn(ninja, edge->dyndep());
    PrintGraphEdge(edge);
    stack.insert(stack.end(), edge->inputs.rbegin(), edge->inputs.rend());
  }
  printf("}\n");
  return 0;
}

}  // namespace ronin

// Parses build.ninja (and the files it includes) into a State.
#ifndef RONIN_GRAPH_MANIFEST_PARSER_H_
#define RONIN_GRAPH_MANIFEST_PARSER_H_

#include <string>
#include <string_view>

#include <deque>
#include <unordered_map>
#include <vector>

#include "graph/graph.h"
#include "graph/lexer.h"

namespace ronin {

class FileReader;
class Scope;
class State;

struct ManifestParserOptions {
  // -w phonycycle=err keeps self-referencing phony inputs (a cycle error later).
  bool phony_cycle_is_error = false;
  // Suppresses the phonycycle warning (used by tools that reparse silently).
  bool quiet = false;
};

class ManifestParser {
 public:
  ManifestParser(State* state, FileReader* reader, ManifestParserOptions options = {});

  // Loads and parses a file. `parent` (the includer's lexer) prefixes
  // read errors with the include statement's FILE:LINE.
  bool Load(const std::string& filename, std::string* err, Lexer* parent = nullptr);
  // Parses text directly (tests and fuzzers), as a file named "input".
  bool ParseTest(std::string_view input, std::string* err);
  // True once the parse printed a warning (such a graph is not imaged:
  // loading the image would not repeat it).
  bool warned() const { return warned_; }

 private:
  // A file being parsed: its text, its scope, and (while a file it includes
  // is parsed) where its lexer stands.
  struct File {
    std::string contents;
    std::string canonical;
    Scope* env = nullptr;
    Lexer lexer;
  };
  // Reads a file and makes it the one being parsed.
  bool OpenFile(const std::string& filename, Scope* env, std::string* err, Lexer* includer);
  // Parses until the stack of files is empty.
  bool ParseFiles(std::string* err);
  // Makes the top file's lexer and scope the current ones.
  void ResumeTopFile();
  // Parses the files opened, then gives nodes their users (State::LinkUsers).
  bool ParseFilesAndLinkUsers(std::string* err);
  // Parses the top file's statements until its end, or until an include
  // opened another file (*opened).
  bool ParseStatements(std::string* err, bool* opened);
  bool OpenInclude(bool new_scope, std::string* err);
  bool ParsePool(std::string* err);
  bool ParseRule(std::string* err);
  bool ParseLet(std::string_view* key, EvalString* value, std::string* err);
  // The error for a value past kMaxValueSize (graph/eval.h).
  bool ValueTooLargeError(std::string_view name, std::string* err);
  bool ParseEdge(std::string* err);
  // Reads space-separated paths into scratch_paths_ (path *used and on)
  // until an empty one (the end of the list); counts them in *count.
  bool ReadPathList(size_t* used, int* count, std::string* err);
  bool ParseDefault(std::string* err);
  bool ExpectToken(Lexer::Token expected, std::string* err);
  // Evaluates a path, rejects an empty one, canonicalises it.
  bool EvaluatePath(const EvalString& eval, const Env& env, std::string* path, std::string* err);
  // Evaluates, canonicalises and hashes a build statement's first `count`
  // scratch paths into path_views_/path_hashes_; returns how many were
  // non-empty before the first empty one.
  size_t EvaluateEdgePaths(const Edge* edge, size_t count);
  // The node of the build line's path i. A literal path is checked for
  // canonical form only here, and only when the graph does not have it yet
  // (every node's path is canonical), as most paths of a large build are.
  Node* EdgePathNode(size_t i);
  void CheckNinjaVersion(std::string_view version);

  State* state_;
  FileReader* reader_;
  ManifestParserOptions options_;
  Scope* env_;
  Lexer lexer_;
  std::deque<File> files_;  // outermost first
  std::unordered_map<std::string, int> open_counts_;  // canonical name -> times in files_
  // A build line's paths, back to back: path i is segments
  // [scratch_path_ends_[i - 1], scratch_path_ends_[i]).
  EvalString scratch_paths_;
  std::vector<size_t> scratch_path_ends_;
  EvalString scratch_let_;
  std::vector<Edge::Binding> scratch_bindings_;
  std::string scratch_value_;
  // Paths that are not literal and canonical are evaluated into one buffer.
  std::string scratch_path_;
  std::string evaluated_paths_;
  std::vector<std::pair<size_t, size_t>> evaluated_offsets_;  // (path index, offset)
  std::vector<std::string_view> path_views_;
  std::vector<uint64_t> path_hashes_;
  std::vector<char> path_unchecked_;  // a literal path not yet checked for canonical form
  // The evaluated paths' slash bits (platform.h), by path index; filled only
  // where paths have them (Windows).
  std::vector<uint64_t> path_slash_bits_;
  std::string late_path_;  // a literal path that turned out not canonical, canonicalised
  // Phony edges' inputs dropped for naming the edge's own output: the node
  // keeps the edge as a user (as in Ninja), once per input dropped.
  std::vector<std::pair<Edge*, Node*>> extra_users_;
  bool warned_ = false;
  // Some file said ninja_required_version >= 1.14 (the $^ escape).
  bool asked_for_1_14_ = false;
};

}  // namespace ronin

#endif  // RONIN_GRAPH_MANIFEST_PARSER_H_

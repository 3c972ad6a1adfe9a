// The graph image: a compact copy of the State a manifest parse produced,
// kept in `.ronin_graph` in the directory ninja runs in, and loaded instead
// of parsing when nothing it was made from changed (the exact set of
// manifest files read, by path, size, nanosecond mtime, inode and device;
// ronin's binary and image format; -f and -w phonycycle).
//
// File layout (little-endian; doc/design.md has the sections):
//   header: magic "RONINGRF", u32 format, u32 key size, u64 body size,
//           u64 hashes (rapidhash) of the key and of the strings
//   key:    identity, input file, phonycycle flag, manifest file stamps
//   body:   strings (NUL-terminated), then blocks (each with its hash, cut
//           between items) of: names, pools, rules, scopes, nodes, edges,
//           node users, defaults, flags, command hashes
//
// Every count, index and string reference read from an image is checked
// before use; a damaged image is a miss, never trusted (fuzz_graph_image).
#ifndef RONIN_IMAGE_GRAPH_IMAGE_H_
#define RONIN_IMAGE_GRAPH_IMAGE_H_

#include <cstdint>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "base/disk.h"
#include "graph/state.h"
#include "image/graph_image_format.h"

namespace ronin {

// Where the image lives (relative to the directory ninja runs in).
extern const char kGraphImagePath[];

// RONIN_GRAPH_IMAGE, read once: "0" never reads or writes the image, "1"
// writes one after every parse (whatever the manifest's size: for tests);
// otherwise one is written only for manifests of kImageWorthBytes or more.
enum class GraphImageSetting { kOff, kWhenItPays, kAlways };
GraphImageSetting GraphImageConfigured();
// False when RONIN_GRAPH_IMAGE=0: always parse, never write.
bool GraphImageEnabled();

// Below this much manifest text (all files a parse read), loading an image
// saves under ~1 ms of a no-op (doc/performance.md, "When the graph image
// pays"): not worth a file beside the user's. fmt's 110 KB CMake manifest
// gets one, a one-target CMake project's 8 KB does not.
constexpr uint64_t kImageWorthBytes = 64 << 10;

// One manifest file as it was when the parse read it.
struct ManifestStamp {
  std::string path;
  uint64_t size = 0;
  int64_t mtime_ns = 0;
  uint64_t inode = 0;
  uint64_t device = 0;
  // Modified within the last seconds before it was read: a later change
  // could keep size and mtime (coarse clocks), so its content hash is
  // compared too.
  bool racy = false;
  uint64_t content_hash = 0;
};

// What an image was made from (image/graph_image_key.cc).
struct GraphImageKey {
  std::string identity;  // image format, ronin version, this binary's stamp
  std::string input_file;
  bool phony_cycle_is_error = false;
  std::vector<ManifestStamp> files;

  // The key of a run with these options (no files yet).
  static GraphImageKey ForOptions(std::string_view input_file, bool phony_cycle_is_error);
  void Write(ImageOut* out) const;
  bool Read(ImageIn* in);
  // Same identity and options as `current`, and every file stamps the same now.
  bool Matches(const GraphImageKey& current) const;
};

// Forwards reads to another reader, stamping each file before it is read
// (a change after the stamp then always shows as a different stamp).
class StampingFileReader : public FileReader {
 public:
  StampingFileReader(FileReader* inner, std::vector<ManifestStamp>* stamps) : inner_(inner), stamps_(stamps) {}
  Status ReadFile(const std::string& path, std::string* contents, std::string* err) override;
  // False if some file could not be stamped (the graph is then not imaged).
  bool complete() const { return complete_; }

 private:
  FileReader* inner_;
  std::vector<ManifestStamp>* stamps_;
  bool complete_ = true;
};

// Loads an image into an empty State (image/graph_image_reader.cc).
class GraphImageReader {
 public:
  enum class Result {
    kLoaded,
    kMiss,     // missing, stale or damaged before anything was loaded: parse
    kDamaged,  // damaged after the State was partly filled: parse into a fresh one
  };
  // Loads `path` if its key matches `current`.
  // `files_read`, when set, gets the paths of the manifest files the image
  // was made from (once it is loaded).
  static Result Load(const char* path, const GraphImageKey& current, State* state,
                     std::vector<std::string>* files_read = nullptr);
  // Loads an image body (the key already checked) into `state`; the body
  // must stay alive as long as the State. For the loader and the fuzzer.
  // `verify_blocks` false skips the blocks' hashes (the fuzzer).
  static bool LoadBody(std::string_view body, State* state, std::string* err, bool verify_blocks = true);
  // The same with the strings apart (they must stay alive as long as the
  // State) and the sections' blocks read one by one.
  static bool LoadParts(std::string_view strings, ImageBlocks* blocks, State* state, std::string* err);

 private:
  class Decoder;
};

// Writes the image of a freshly parsed State in the background
// (image/graph_image_writer.cc): the structure is read at once on a thread of its
// own while the logs load, the command hashes when the prefetcher is done;
// the file is written to a temporary name and renamed into place.
class GraphImageWriter {
 public:
  GraphImageWriter(State* state, GraphImageKey key, std::string path);
  // Waits for the thread to finish writing.
  ~GraphImageWriter();
  // Call before anything changes the graph (the scan), after the prefetcher
  // is joined: waits until the structure is read, then hands over the
  // edges' command hashes (computing those not known yet, into the edges).
  void FinishReading();
  // The image of `state` with `key`, as one buffer (tests, the fuzz corpus).
  static std::string Serialize(const State& state, const GraphImageKey& key);

 private:
  class Encoder;
  void Run();

  State* state_;
  GraphImageKey key_;
  std::string path_;
  ChunkedStore<Node>::Snapshot nodes_;  // the logs may add nodes meanwhile
  std::vector<uint64_t> hashes_;  // per edge, where hash_known_
  std::vector<bool> hash_known_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool structure_done_ = false;
  bool hashes_given_ = false;
  std::thread thread_;
};

}  // namespace ronin

#endif  // RONIN_IMAGE_GRAPH_IMAGE_H_

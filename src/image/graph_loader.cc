#include "image/graph_loader.h"

#include <unistd.h>

#include <chrono>

#include "base/file_io.h"
#include "base/metrics.h"
#include "graph/manifest_parser.h"

namespace ronin {

namespace {

// -d stats shows a "graph image load" row only when the image was used, so
// Ninja's table is unchanged otherwise (and tests can tell a load from a parse).
void RecordImageLoad(std::chrono::steady_clock::time_point start) {
  if (!g_metrics) return;
  static Metric* metric = g_metrics->NewMetric("graph image load");
  auto elapsed = std::chrono::steady_clock::now() - start;
  metric->count++;
  metric->total_micros += std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count();
}

// The image is only a cache, and its writer holds two descriptors while the
// build opens its lock and logs and starts its first jobs: under a limit this
// tight those would race for the last few, and the build must win.
bool DescriptorsToSpare() {
  constexpr int64_t kFewest = 64;
  int64_t limit = OpenFileLimit();
  return limit < 0 || limit >= kFewest;
}

// Whether loading an image of this parse would save enough to be worth a file.
bool ImagePays(const GraphImageKey& key) {
  if (GraphImageConfigured() == GraphImageSetting::kAlways) return true;
  uint64_t bytes = 0;
  for (const ManifestStamp& file : key.files) bytes += file.size;
  return bytes >= kImageWorthBytes;
}

}  // namespace

GraphLoad LoadGraph(State* state, DiskInterface* disk, const GraphLoadOptions& options,
                    std::unique_ptr<GraphImageWriter>* writer, std::string* err) {
  GraphImageKey key = GraphImageKey::ForOptions(options.input_file, options.phony_cycle_is_error);
  if (options.use_image) {
    auto start = std::chrono::steady_clock::now();
    switch (GraphImageReader::Load(kGraphImagePath, key, state, options.manifest_files)) {
      case GraphImageReader::Result::kLoaded:
        RecordImageLoad(start);
        state->NoteReservedNames();
        return GraphLoad::kOk;
      case GraphImageReader::Result::kDamaged:
        return GraphLoad::kImageDamaged;
      case GraphImageReader::Result::kMiss:
        break;
    }
  }
  bool imageable = false;
  {
    // The parser and its scratch buffers go before the build starts: the
    // logs and the builder reuse that memory instead of adding to the peak.
    StampingFileReader stamping(disk, &key.files);
    ManifestParserOptions parser_options;
    parser_options.phony_cycle_is_error = options.phony_cycle_is_error;
    bool stamp = options.write_image || options.manifest_files;
    ManifestParser parser(state, stamp ? &stamping : static_cast<FileReader*>(disk), parser_options);
    bool parsed = parser.Load(options.input_file, err);
    if (options.manifest_files)
      for (const ManifestStamp& file : key.files) options.manifest_files->push_back(file.path);
    if (!parsed) return GraphLoad::kError;
    // A parse that warned is not imaged: loading would not warn again.
    imageable = !parser.warned() && stamping.complete();
  }
  if (options.write_image) {
    if (imageable && DescriptorsToSpare() && ImagePays(key)) {
      writer->reset(new GraphImageWriter(state, std::move(key), kGraphImagePath));
    } else {
      unlink(kGraphImagePath);  // an image there was stale (this run parsed): no clutter left behind
    }
  }
  state->NoteReservedNames();
  return GraphLoad::kOk;
}

}  // namespace ronin

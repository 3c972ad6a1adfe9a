// Fills a State with the manifest's graph: from the graph image when it is
// current (image/graph_image.h), else by parsing, after which an image of the
// result may be written in the background for the next run.
#ifndef RONIN_IMAGE_GRAPH_LOADER_H_
#define RONIN_IMAGE_GRAPH_LOADER_H_

#include <memory>
#include <string>
#include <vector>

#include "image/graph_image.h"

namespace ronin {

struct GraphLoadOptions {
  const char* input_file = "build.ninja";
  bool phony_cycle_is_error = false;
  bool use_image = true;    // load a current image instead of parsing
  bool write_image = true;  // after a parse, write the image (in *writer)
  // When set: filled with the path of every manifest file the graph came
  // from, the input file and what it includes, as read (--watch watches
  // them); on a failed parse, the files read up to the failure.
  std::vector<std::string>* manifest_files = nullptr;
};

enum class GraphLoad {
  kOk,
  kError,         // the parse failed: *err says why
  kImageDamaged,  // the State is half filled: load again into a fresh one, without the image
};

GraphLoad LoadGraph(State* state, DiskInterface* disk, const GraphLoadOptions& options,
                    std::unique_ptr<GraphImageWriter>* writer, std::string* err);

}  // namespace ronin

#endif  // RONIN_IMAGE_GRAPH_LOADER_H_

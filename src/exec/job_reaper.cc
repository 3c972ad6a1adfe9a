// job_reaper.h's part common to both platforms (the reaper itself is in
// job_reaper_posix.cc; job_reaper_win.cc has none yet).
#include "exec/job_reaper.h"

#include "graph/graph.h"

namespace ronin {

JobFiles JobFilesOf(const Edge& edge) {
  JobFiles files;
  std::string depfile = edge.GetUnescapedDepfile();
  for (const Node* output : edge.outputs) files.push_back({std::string(output->path), output->mtime, !depfile.empty()});
  if (!depfile.empty()) files.push_back({depfile, 0, true});
  return files;
}

}  // namespace ronin

// job_reaper.h's part common to both platforms: which files a killed job
// leaves to remove, and the events ninja sends (exec/job_reaper_protocol.h).
// The reapers themselves are in job_reaper_posix.cc (a forked child) and
// job_reaper_win.cc (a job object, and ninja.exe started again).
#include "exec/job_reaper.h"

#include <cstring>

#include "exec/job_reaper_protocol.h"
#include "graph/graph.h"

namespace ronin {

JobFiles JobFilesOf(const Edge& edge) {
  JobFiles files;
  std::string depfile = edge.GetUnescapedDepfile();
  for (const Node* output : edge.outputs) files.push_back({std::string(output->path), output->mtime, !depfile.empty()});
  if (!depfile.empty()) files.push_back({depfile, 0, true});
  return files;
}

namespace reaper_protocol {

namespace {

void AppendBytes(std::string* out, const void* bytes, size_t size) {
  out->append(static_cast<const char*>(bytes), size);
}

std::string HeaderOnly(const Header& header) {
  return std::string(reinterpret_cast<const char*>(&header), sizeof(header));
}

}  // namespace

std::string AddEvent(int32_t id, bool whole_group, const JobFiles& files) {
  std::string message(sizeof(Header), '\0');
  for (const JobFile& file : files) {
    uint32_t length = static_cast<uint32_t>(file.path.size());
    if (length & kAlways) continue;  // 2 GiB paths do not exist
    length |= file.always ? kAlways : 0;
    AppendBytes(&message, &file.mtime, sizeof(file.mtime));
    AppendBytes(&message, &length, sizeof(length));
    message += file.path;
  }
  Header header{id, kAdd | (whole_group ? 0 : kLonePid), static_cast<uint32_t>(message.size() - sizeof(Header))};
  memcpy(&message[0], &header, sizeof(header));
  return message;
}

std::string RemoveEvent(int32_t id, bool whole_group) {
  return HeaderOnly(Header{id, kRemove | (whole_group ? 0 : kLonePid), 0});
}

std::string LetGoOfLockEvent() { return HeaderOnly(Header{0, kLetGoOfLock, 0}); }

}  // namespace reaper_protocol

}  // namespace ronin

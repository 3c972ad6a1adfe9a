// The graph image's key: what an image was made from, and whether that
// still holds (image/graph_image.h).
#include <stdlib.h>
#include <string.h>

#include "base/file_io.h"
#include "base/hash.h"
#include "base/version.h"
#include "image/graph_image.h"

namespace ronin {

const char kGraphImagePath[] = ".ronin_graph";

namespace {

// Bumped whenever the body's layout or the meaning of a field changes.
// 2: a node's slash bits (Windows), after its flags.
const uint32_t kImageFormat = 2;
// A file modified this recently (seconds) may change again without its
// size or mtime changing (a clock tick is milliseconds on some file systems).
const int64_t kRacyWindowSeconds = 2;

// (The stamp's mtime is in file_io.h's units: nanoseconds on POSIX.)
void Stamp(const FileStatus& st, ManifestStamp* stamp) {
  stamp->size = st.size;
  stamp->mtime_ns = st.mtime;
  stamp->inode = st.inode;
  stamp->device = st.device;
}

// This binary: a rebuilt ronin never trusts an older ronin's image. (The
// link is read first: tools such as valgrind resolve it to the program
// they run, where stat would see the tool itself.)
std::string BinaryStamp() {
  std::string path = ExecutablePath();
  FileStatus st;
  if (path.empty() || !StatPath(path.c_str(), &st)) return "unknown-binary";
  return std::to_string(st.size) + ":" + std::to_string(st.mtime) + ":" + std::to_string(st.inode);
}

bool SameFile(const ManifestStamp& recorded) {
  FileStatus st;
  if (!StatPath(recorded.path.c_str(), &st)) return false;
  ManifestStamp now;
  Stamp(st, &now);
  if (now.size != recorded.size || now.mtime_ns != recorded.mtime_ns || now.inode != recorded.inode ||
      now.device != recorded.device)
    return false;
  if (!recorded.racy) return true;
  std::string contents, err;
  RealDiskInterface disk;
  if (disk.ReadFile(recorded.path, &contents, &err) != FileReader::Status::kOkay) return false;
  return RapidHash(contents.data(), contents.size()) == recorded.content_hash;
}

}  // namespace

GraphImageSetting GraphImageConfigured() {
  static const GraphImageSetting setting = [] {
    const char* value = getenv("RONIN_GRAPH_IMAGE");
    if (value && strcmp(value, "0") == 0) return GraphImageSetting::kOff;
    if (value && strcmp(value, "1") == 0) return GraphImageSetting::kAlways;
    return GraphImageSetting::kWhenItPays;
  }();
  return setting;
}

bool GraphImageEnabled() { return GraphImageConfigured() != GraphImageSetting::kOff; }

GraphImageKey GraphImageKey::ForOptions(std::string_view input_file, bool phony_cycle_is_error) {
  static const std::string identity =
      "ronin-graph-image " + std::to_string(kImageFormat) + " " + kNinjaVersion + " " + BinaryStamp();
  GraphImageKey key;
  key.identity = identity;
  key.input_file = std::string(input_file);
  key.phony_cycle_is_error = phony_cycle_is_error;
  return key;
}

void GraphImageKey::Write(ImageOut* out) const {
  out->Str(identity);
  out->Str(input_file);
  out->U32(phony_cycle_is_error);
  out->U32(static_cast<uint32_t>(files.size()));
  for (const ManifestStamp& file : files) {
    out->Str(file.path);
    out->U64(file.size);
    out->U64(static_cast<uint64_t>(file.mtime_ns));
    out->U64(file.inode);
    out->U64(file.device);
    out->U32(file.racy);
    out->U64(file.content_hash);
  }
}

bool GraphImageKey::Read(ImageIn* in) {
  uint32_t phony = 0, count = 0;
  if (!in->Str(&identity) || !in->Str(&input_file) || !in->U32(&phony) || !in->U32(&count)) return false;
  phony_cycle_is_error = phony != 0;
  const size_t kMinStampSize = 4 + 5 * 8 + 4;
  if (!in->Fits(count, kMinStampSize)) return false;
  files.resize(count);
  for (ManifestStamp& file : files) {
    uint32_t racy = 0;
    if (!in->Str(&file.path) || !in->U64(&file.size) || !in->I64(&file.mtime_ns) || !in->U64(&file.inode) ||
        !in->U64(&file.device) || !in->U32(&racy) || !in->U64(&file.content_hash))
      return false;
    file.racy = racy != 0;
  }
  return in->at_end();
}

bool GraphImageKey::Matches(const GraphImageKey& current) const {
  if (identity != current.identity || input_file != current.input_file ||
      phony_cycle_is_error != current.phony_cycle_is_error || files.empty())
    return false;
  for (const ManifestStamp& file : files)
    if (!SameFile(file)) return false;
  return true;
}

FileReader::Status StampingFileReader::ReadFile(const std::string& path, std::string* contents,
                                                std::string* err) {
  ManifestStamp stamp;
  stamp.path = path;
  FileStatus st;
  bool stamped = StatPath(path.c_str(), &st);
  if (stamped) Stamp(st, &stamp);
  Status status = inner_->ReadFile(path, contents, err);
  if (status != Status::kOkay) return status;
  if (!stamped || stamp.size != contents->size()) {
    complete_ = false;  // changed between the stat and the read
  } else {
    stamp.racy = stamp.mtime_ns > FileTimeNow() - kRacyWindowSeconds * kFileTimeUnitsPerSecond;
    if (stamp.racy) stamp.content_hash = RapidHash(contents->data(), contents->size());
  }
  stamps_->push_back(std::move(stamp));
  return status;
}

}  // namespace ronin

// Byte-level helpers of the graph image (image/graph_image.h): fixed-width
// little-endian integers appended to a buffer, and a cursor that reads them
// back and fails (never reads past the end) on a short or damaged buffer.
#ifndef RONIN_IMAGE_GRAPH_IMAGE_FORMAT_H_
#define RONIN_IMAGE_GRAPH_IMAGE_FORMAT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "base/platform.h"

namespace ronin {

// The file's fixed header: magic, u32 format, u32 key size, u64 body size,
// u64 hashes (rapidhash) of the key and of the body's strings. The rest of
// the body is a sequence of blocks, each [u32 size][u64 hash][bytes], cut
// only between items so a loader holds one block at a time.
constexpr char kImageMagic[8] = {'R', 'O', 'N', 'I', 'N', 'G', 'R', 'F'};
// 4: the strings' hash is chained over chunks (ImageStringsHash), so the
// writer streams them instead of holding them whole.
constexpr uint32_t kImageHeaderFormat = 4;
constexpr size_t kImageHeaderSize = 8 + 4 + 4 + 3 * 8;
constexpr size_t kImageBlockHeaderSize = 4 + 8;
// A block is cut at the first item boundary past this size (small: the
// writer and the loader each hold one block at a time).
constexpr size_t kImageBlockTarget = 128 << 10;

// The strings' hash: rapidhash of each kImageStringsChunk bytes in turn,
// seeded with the hash so far (the writer hashes each chunk as it leaves).
constexpr size_t kImageStringsChunk = 128 << 10;
inline uint64_t ImageStringsHash(const char* strings, size_t size,
                                 uint64_t (*hash_seeded)(const void*, size_t, uint64_t)) {
  uint64_t hash = 0;
  for (size_t done = 0; done < size; done += kImageStringsChunk)
    hash = hash_seeded(strings + done, std::min(kImageStringsChunk, size - done), hash);
  return hash;
}

// A node's flags in the image. With kNodeSlashBits its slash bits
// (base/platform.h) follow as a u64, never 0: only Windows has any, and a
// POSIX image with the flag is damaged (its loader then reads each node
// as before slash bits, with no instruction more).
constexpr uint32_t kNodeFromDepLoader = 1;
constexpr uint32_t kNodeDyndepPending = 2;
constexpr uint32_t kNodeSlashBits = 4;
constexpr uint32_t kNodeFlagsAll = kNodeFromDepLoader | kNodeDyndepPending | (kWindows ? kNodeSlashBits : 0);

// Bytes written at a cursor into room kept ahead (a U32 is a store, not a
// call to std::string::append: an image takes millions of them).
class ImageOut {
 public:
  void U32(uint32_t value) { Append(&value, sizeof value); }
  void U64(uint64_t value) { Append(&value, sizeof value); }
  void Str(std::string_view text) {
    U32(static_cast<uint32_t>(text.size()));
    Append(text.data(), text.size());
  }
  void Append(const void* bytes, size_t size) {
    if (size > room_.size() - size_) Grow(size);
    if (size) memcpy(&room_[size_], bytes, size);
    size_ += size;
  }
  std::string_view data() const { return std::string_view(room_.data(), size_); }
  size_t size() const { return size_; }
  void clear() { size_ = 0; }
  void reserve(size_t size) {
    if (size > room_.size()) room_.resize(size);
  }
  // The bytes written, moved out.
  std::string Take() {
    room_.resize(size_);
    size_ = 0;
    return std::move(room_);
  }

 private:
  void Grow(size_t more) { room_.resize(std::max(room_.size() * 2, size_ + more)); }

  std::string room_;  // [0, size_) written
  size_t size_ = 0;
};

class ImageIn {
 public:
  explicit ImageIn(std::string_view data) : cursor_(data.data()), end_(data.data() + data.size()) {}

  bool U32(uint32_t* value) { return Read(value, sizeof *value); }
  bool U64(uint64_t* value) { return Read(value, sizeof *value); }
  bool I32(int32_t* value) { return Read(value, sizeof *value); }
  bool I64(int64_t* value) { return Read(value, sizeof *value); }
  bool Str(std::string* text) {
    uint32_t size;
    if (!U32(&size) || size > left()) return false;
    text->assign(cursor_, size);
    cursor_ += size;
    return true;
  }
  // A view of the next `size` bytes.
  bool Bytes(size_t size, const char** bytes) {
    if (size > left()) return false;
    *bytes = cursor_;
    cursor_ += size;
    return true;
  }
  // True if `count` items of at least `item_size` bytes each could follow:
  // counts read from the image are checked before anything is sized by them.
  bool Fits(uint64_t count, size_t item_size) const { return count <= left() / item_size; }
  size_t left() const { return static_cast<size_t>(end_ - cursor_); }
  bool at_end() const { return cursor_ == end_; }

 private:
  bool Read(void* value, size_t size) {
    if (size > left()) return false;
    memcpy(value, cursor_, size);
    cursor_ += size;
    return true;
  }

  const char* cursor_;
  const char* end_;
};

// Where the loader gets the body's blocks from (a file or a buffer).
class ImageBlocks {
 public:
  virtual ~ImageBlocks() = default;
  // The next block; false when there is none or it is damaged.
  virtual bool Next(std::string_view* block) = 0;
  virtual bool done() const = 0;
  // Bytes of blocks not handed out yet: bounds what a count may reserve.
  virtual uint64_t bytes_left() const = 0;
};

// The blocks of a body in memory. Hashes are checked unless `verify` is
// false (the fuzzer, which cannot forge them).
class MemoryImageBlocks : public ImageBlocks {
 public:
  MemoryImageBlocks(std::string_view blocks, bool verify, uint64_t (*hash)(const void*, size_t))
      : in_(blocks), verify_(verify), hash_(hash) {}
  bool Next(std::string_view* block) override {
    uint32_t size = 0;
    uint64_t expected = 0;
    const char* bytes = nullptr;
    if (!in_.U32(&size) || !in_.U64(&expected) || !in_.Bytes(size, &bytes)) return false;
    if (verify_ && hash_(bytes, size) != expected) return false;
    *block = std::string_view(bytes, size);
    return true;
  }
  bool done() const override { return in_.at_end(); }
  uint64_t bytes_left() const override { return in_.left(); }

 private:
  ImageIn in_;
  bool verify_;
  uint64_t (*hash_)(const void*, size_t);
};

// The body of a whole image (what follows the header and the key); empty
// if the image is too short.
inline std::string_view ImageBody(std::string_view image) {
  if (image.size() < kImageHeaderSize) return {};
  uint32_t key_size;
  memcpy(&key_size, image.data() + sizeof kImageMagic + 4, sizeof key_size);
  if (key_size > image.size() - kImageHeaderSize) return {};
  return image.substr(kImageHeaderSize + key_size);
}

// A body is a u32 size, that many bytes of strings, then the sections.
inline bool SplitImageBody(std::string_view body, std::string_view* strings, std::string_view* sections) {
  uint32_t size;
  if (body.size() < sizeof size) return false;
  memcpy(&size, body.data(), sizeof size);
  if (size > body.size() - sizeof size) return false;
  *strings = body.substr(sizeof size, size);
  *sections = body.substr(sizeof size + size);
  return true;
}

}  // namespace ronin

#endif  // RONIN_IMAGE_GRAPH_IMAGE_FORMAT_H_

// Byte-level helpers of the graph image (graph_image.h): fixed-width
// little-endian integers appended to a buffer, and a cursor that reads them
// back and fails (never reads past the end) on a short or damaged buffer.
#ifndef RONIN_GRAPH_IMAGE_FORMAT_H_
#define RONIN_GRAPH_IMAGE_FORMAT_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace ronin {

class ImageOut {
 public:
  void U32(uint32_t value) { Append(&value, sizeof value); }
  void U64(uint64_t value) { Append(&value, sizeof value); }
  void Str(std::string_view text) {
    U32(static_cast<uint32_t>(text.size()));
    data_.append(text);
  }
  void Append(const void* bytes, size_t size) { data_.append(static_cast<const char*>(bytes), size); }
  std::string& data() { return data_; }

 private:
  std::string data_;
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

}  // namespace ronin

#endif  // RONIN_GRAPH_IMAGE_FORMAT_H_

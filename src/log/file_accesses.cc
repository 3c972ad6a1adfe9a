#include "log/file_accesses.h"

namespace ronin {

void FileAccesses::Note(std::string_view path, FileAccess access) {
  ++count_;
  auto it = records_.find(std::string(path));
  if (it == records_.end()) it = records_.emplace(std::string(path), Record()).first;
  Record& record = it->second;
  bool looks = access == FileAccess::kRead || access == FileAccess::kProbe || access == FileAccess::kExecute;
  if (looks && !record.Wrote()) record.read_before_write = true;
  record.accesses |= static_cast<uint8_t>(access);
}

std::string CanonicalAbsolutePath(std::string_view base, std::string_view path) {
  std::string joined;
  if (path.empty() || path[0] != '/') {
    joined.reserve(base.size() + 1 + path.size());
    joined.append(base);
    joined.push_back('/');
  }
  joined.append(path);
  std::string out;
  out.reserve(joined.size());
  size_t i = 0;
  while (i < joined.size()) {
    size_t end = joined.find('/', i);
    if (end == std::string::npos) end = joined.size();
    std::string_view component(joined.data() + i, end - i);
    if (component == "..") {
      size_t slash = out.rfind('/');
      out.resize(slash == std::string::npos ? 0 : slash);  // "/.." stays "/"
    } else if (!component.empty() && component != ".") {
      out.push_back('/');
      out.append(component);
    }
    i = end + 1;
  }
  if (out.empty()) out = "/";
  return out;
}

}  // namespace ronin

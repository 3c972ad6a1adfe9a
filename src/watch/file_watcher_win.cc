// FileWatcher on Windows: ReadDirectoryChangesW, one overlapped read per
// watched directory (not recursive: a watch sees its own entries, as an
// inotify watch does), every read completing on one I/O completion port.
//
// Windows tells no "closed after writing": a file being written reports
// each write (FILE_ACTION_MODIFIED) and a new file its creation first. So
// every change here may continue, and a wait collects until the tree has
// been quiet for the settle time (bounded by the settle limit); an entry is
// never reported as "created, to be closed later", since no close would
// follow.
#include "watch/file_watcher.h"

#include <windows.h>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>

#include "base/util.h"
#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {
namespace {

// Wakes a wait: Ctrl-C, Ctrl-Break or the console closing (the console
// control handler posts it; the watcher's port outlives its handler).
constexpr ULONG_PTR kInterruptKey = ~ULONG_PTR{0};

volatile LONG g_watch_interrupted = 0;
HANDLE volatile g_watch_port = nullptr;

BOOL WINAPI NoteInterrupt(DWORD event) {
  if (event != CTRL_C_EVENT && event != CTRL_BREAK_EVENT && event != CTRL_CLOSE_EVENT) return FALSE;
  InterlockedExchange(&g_watch_interrupted, 1);
  if (HANDLE port = g_watch_port) PostQueuedCompletionStatus(port, 0, kInterruptKey, nullptr);
  return TRUE;
}

// What a read asks for: entries coming, going or renamed, and their
// contents or times changing.
constexpr DWORD kNotifyFilter = FILE_NOTIFY_CHANGE_FILE_NAME | FILE_NOTIFY_CHANGE_DIR_NAME |
                                FILE_NOTIFY_CHANGE_LAST_WRITE | FILE_NOTIFY_CHANGE_SIZE |
                                FILE_NOTIFY_CHANGE_CREATION | FILE_NOTIFY_CHANGE_ATTRIBUTES;
// Room for the changes of one directory between two waits (~50 short
// names): a build tree has thousands of directories, and a read that
// overflows it loses nothing, it reports an overflow.
constexpr DWORD kBufferBytes = 4096;

// A directory as the file system knows it: its volume and file index.
using Identity = std::pair<DWORD, uint64_t>;

struct DirectoryRead {
  HANDLE handle = INVALID_HANDLE_VALUE;
  OVERLAPPED overlapped = {};
  bool live = false;
  Identity identity;
  alignas(DWORD) char buffer[kBufferBytes];
};

bool IdentityOf(HANDLE handle, Identity* identity, bool* is_directory) {
  BY_HANDLE_FILE_INFORMATION info;
  if (!GetFileInformationByHandle(handle, &info)) return false;
  *identity = Identity(info.dwVolumeSerialNumber, (uint64_t{info.nFileIndexHigh} << 32) | info.nFileIndexLow);
  *is_directory = (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
  return true;
}

HANDLE OpenDirectory(const std::string& path, DWORD flags) {
  return CreateFileW(WidePath(path).c_str(), FILE_LIST_DIRECTORY,
                     FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_EXISTING,
                     FILE_FLAG_BACKUP_SEMANTICS | flags, nullptr);
}

// The last component of a watched directory's path, as its parent names it
// (ASCII case folded: Windows' names are case-insensitive); "" when the
// path has none ("", ".", "..").
std::string LeafName(const std::string& path) {
  size_t slash = path.find_last_of("/\\");
  std::string leaf = slash == std::string::npos ? path : path.substr(slash + 1);
  if (leaf == "." || leaf == "..") return "";
  for (char& c : leaf)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return leaf;
}

class ReadDirectoryWatcher : public FileWatcher {
 public:
  ReadDirectoryWatcher(HANDLE port, int64_t max_watches) : port_(port), max_watches_(max_watches) {
    g_watch_interrupted = 0;
    g_watch_port = port_;
    SetConsoleCtrlHandler(NoteInterrupt, TRUE);
  }
  ~ReadDirectoryWatcher() override;

  WatchResult Watch(const std::string& dir, int* watch, std::string* err) override;
  bool Wait(int64_t timeout_millis, int64_t settle_millis, int64_t settle_limit_millis, Changes* changes,
            std::string* err) override;
  bool interrupted() const override { return g_watch_interrupted != 0; }
  size_t watch_count() const override { return watch_count_; }
  std::string LimitDescription() const override;

 private:
  // Takes one completion, waiting up to `timeout_millis` (-1: no limit);
  // false when none came in time.
  bool TakeCompletion(int64_t timeout_millis, Changes* changes, std::string* err);
  void Interpret(int watch, const DirectoryRead& read, DWORD bytes, Changes* changes);
  // An entry of watch `parent` removed or renamed away: a watched directory
  // by that name is lost (Windows may never complete the read of a
  // directory that was removed).
  void LoseChild(const DirectoryRead& parent, const std::string& name, Changes* changes);
  bool StartRead(DirectoryRead* read);
  void Lose(int watch, Changes* changes);
  // Notes which entry of which directory watch `id` is, for LoseChild.
  void NoteParent(const std::string& path, int id);

  HANDLE port_;
  int64_t max_watches_;
  bool limited_by_us_ = false;
  // Reads by watch id. An entry stays allocated after its watch is gone:
  // the kernel may still complete a read into its buffer.
  std::vector<std::unique_ptr<DirectoryRead>> reads_;
  // A directory's identity (volume, file index) -> its watch id, so that
  // two names of one directory share a watch.
  std::map<Identity, int> ids_;
  // (parent directory, entry name in it) -> watch ids of that entry.
  std::multimap<std::pair<Identity, std::string>, int> children_;
  size_t watch_count_ = 0;
};

ReadDirectoryWatcher::~ReadDirectoryWatcher() {
  SetConsoleCtrlHandler(NoteInterrupt, FALSE);
  g_watch_port = nullptr;
  size_t pending = 0;
  for (auto& read : reads_) {
    if (read->handle == INVALID_HANDLE_VALUE) continue;
    CancelIoEx(read->handle, &read->overlapped);
    CloseHandle(read->handle);
    ++pending;
  }
  // A cancelled read completes before its buffer may go: each is waited
  // for (a second at most: the kernel completes them at once).
  while (pending > 0) {
    DWORD bytes;
    ULONG_PTR key;
    OVERLAPPED* overlapped = nullptr;
    BOOL ok = GetQueuedCompletionStatus(port_, &bytes, &key, &overlapped, 1000);
    if (!ok && !overlapped) break;  // timed out
    if (overlapped) --pending;
  }
  CloseHandle(port_);
}

FileWatcher::WatchResult ReadDirectoryWatcher::Watch(const std::string& dir, int* watch, std::string* err) {
  std::string path = dir.empty() ? "." : dir;
  HANDLE handle = OpenDirectory(path, FILE_FLAG_OVERLAPPED);
  if (handle == INVALID_HANDLE_VALUE) {
    DWORD error = GetLastError();
    if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND || error == ERROR_DIRECTORY ||
        error == ERROR_INVALID_NAME)
      return WatchResult::kMissing;
    if (error == ERROR_NO_SYSTEM_RESOURCES || error == ERROR_NOT_ENOUGH_MEMORY ||
        error == ERROR_TOO_MANY_OPEN_FILES)
      return WatchResult::kOutOfWatches;
    *err = "watching " + path + ": " + LastErrorText();
    return WatchResult::kFailed;
  }
  Identity identity;
  bool is_directory = false;
  if (!IdentityOf(handle, &identity, &is_directory) || !is_directory) {
    CloseHandle(handle);
    return WatchResult::kMissing;  // a file where a directory is expected
  }
  auto known = ids_.find(identity);
  if (known != ids_.end() && reads_[known->second]->live) {
    CloseHandle(handle);
    *watch = known->second;
    return WatchResult::kWatching;
  }
  if (max_watches_ >= 0 && static_cast<int64_t>(watch_count_) >= max_watches_) {
    CloseHandle(handle);
    limited_by_us_ = true;
    return WatchResult::kOutOfWatches;
  }
  int id = static_cast<int>(reads_.size());
  reads_.emplace_back(new DirectoryRead);
  DirectoryRead* read = reads_.back().get();
  read->handle = handle;
  read->identity = identity;
  if (!CreateIoCompletionPort(handle, port_, static_cast<ULONG_PTR>(id), 0) || !StartRead(read)) {
    *err = "watching " + path + ": " + LastErrorText();
    CloseHandle(handle);
    read->handle = INVALID_HANDLE_VALUE;
    return WatchResult::kFailed;
  }
  read->live = true;
  ids_[identity] = id;
  NoteParent(path, id);
  ++watch_count_;
  *watch = id;
  return WatchResult::kWatching;
}

void ReadDirectoryWatcher::NoteParent(const std::string& path, int id) {
  std::string leaf = LeafName(path);
  if (leaf.empty()) return;
  HANDLE parent = OpenDirectory(path + "/..", 0);
  if (parent == INVALID_HANDLE_VALUE) return;
  Identity identity;
  bool is_directory = false;
  if (IdentityOf(parent, &identity, &is_directory)) children_.emplace(std::make_pair(identity, leaf), id);
  CloseHandle(parent);
}

bool ReadDirectoryWatcher::StartRead(DirectoryRead* read) {
  read->overlapped = OVERLAPPED{};
  return ReadDirectoryChangesW(read->handle, read->buffer, kBufferBytes, FALSE, kNotifyFilter, nullptr,
                               &read->overlapped, nullptr) != 0;
}

std::string ReadDirectoryWatcher::LimitDescription() const {
  if (limited_by_us_) return "RONIN_WATCH_LIMIT = " + std::to_string(max_watches_);
  return "the system's resources for open directory handles";
}

bool ReadDirectoryWatcher::Wait(int64_t timeout_millis, int64_t settle_millis, int64_t settle_limit_millis,
                                Changes* changes, std::string* err) {
  if (g_watch_interrupted) {
    changes->interrupted = true;
    return true;
  }
  // Completions may already be queued (changes made during a build).
  while (changes->empty() && TakeCompletion(0, changes, err)) {
  }
  if (!err->empty()) return false;
  if (changes->empty() && !TakeCompletion(timeout_millis, changes, err)) return err->empty();
  int64_t limit = MonotonicMillis() + settle_limit_millis;
  for (;;) {
    while (TakeCompletion(0, changes, err)) {
    }
    if (!err->empty()) return false;
    int64_t left = limit - MonotonicMillis();
    if (left <= 0 || changes->interrupted || !changes->may_continue) return true;
    if (!TakeCompletion(std::min(settle_millis, left), changes, err)) return err->empty();
  }
}

bool ReadDirectoryWatcher::TakeCompletion(int64_t timeout_millis, Changes* changes, std::string* err) {
  DWORD bytes = 0;
  ULONG_PTR key = 0;
  OVERLAPPED* overlapped = nullptr;
  DWORD wait = timeout_millis < 0 ? INFINITE : static_cast<DWORD>(timeout_millis);
  BOOL ok = GetQueuedCompletionStatus(port_, &bytes, &key, &overlapped, wait);
  if (key == kInterruptKey && !overlapped) {
    changes->interrupted = true;
    return true;
  }
  if (!overlapped) {
    DWORD error = GetLastError();
    if (error == WAIT_TIMEOUT) return false;
    *err = "GetQueuedCompletionStatus: " + LastErrorText();
    return false;
  }
  int watch = static_cast<int>(key);
  if (watch < 0 || static_cast<size_t>(watch) >= reads_.size() || !reads_[watch]->live) return true;
  DirectoryRead* read = reads_[watch].get();
  if (!ok && GetLastError() == ERROR_NOTIFY_ENUM_DIR) {
    bytes = 0;  // too many changes to list: an overflow
  } else if (!ok) {
    // The directory went away (deleted, renamed, its volume gone).
    Lose(watch, changes);
    return true;
  }
  Interpret(watch, *read, bytes, changes);
  if (!StartRead(read)) Lose(watch, changes);
  return true;
}

void ReadDirectoryWatcher::Interpret(int watch, const DirectoryRead& read, DWORD bytes, Changes* changes) {
  // Any change may be followed by more of the same save (see the top).
  changes->may_continue = true;
  if (bytes == 0) {  // the buffer overflowed: its changes are lost
    changes->overflow = true;
    return;
  }
  for (const char* at = read.buffer;;) {
    const FILE_NOTIFY_INFORMATION* info = reinterpret_cast<const FILE_NOTIFY_INFORMATION*>(at);
    std::string name = Utf8Text(info->FileName, info->FileNameLength / sizeof(WCHAR));
    if (info->Action == FILE_ACTION_REMOVED || info->Action == FILE_ACTION_RENAMED_OLD_NAME)
      LoseChild(read, name, changes);
    changes->entries.push_back({watch, name, false});
    if (!info->NextEntryOffset) break;
    at += info->NextEntryOffset;
  }
}

void ReadDirectoryWatcher::LoseChild(const DirectoryRead& parent, const std::string& name, Changes* changes) {
  auto range = children_.equal_range(std::make_pair(parent.identity, LeafName(name)));
  std::vector<int> lost;
  for (auto it = range.first; it != range.second; ++it) lost.push_back(it->second);
  children_.erase(range.first, range.second);
  for (int child : lost)
    if (reads_[child]->live) Lose(child, changes);
}

void ReadDirectoryWatcher::Lose(int watch, Changes* changes) {
  DirectoryRead* read = reads_[watch].get();
  read->live = false;
  --watch_count_;
  CancelIoEx(read->handle, &read->overlapped);
  CloseHandle(read->handle);
  read->handle = INVALID_HANDLE_VALUE;
  changes->lost.push_back(watch);
  changes->may_continue = true;
}

}  // namespace

bool FileWatcher::Available(std::string*) { return true; }

std::unique_ptr<FileWatcher> FileWatcher::Create(int64_t max_watches, std::string* err) {
  HANDLE port = CreateIoCompletionPort(INVALID_HANDLE_VALUE, nullptr, 0, 1);
  if (!port) {
    *err = "CreateIoCompletionPort: " + LastErrorText();
    return nullptr;
  }
  return std::unique_ptr<FileWatcher>(new ReadDirectoryWatcher(port, max_watches));
}

}  // namespace ronin

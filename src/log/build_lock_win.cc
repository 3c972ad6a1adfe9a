// build_lock.h on Windows: a named mutex per build directory, named by the
// directory's identity (its volume's serial number and its file index), so
// that every spelling of the directory finds the same lock. The system
// releases it when its owner exits, however it exits. The owner's process
// id is published beside it in a named shared block, so that a second
// ninja can say whom it waits for, and a ninja started by a command of the
// running build (an ancestor holds the lock) does not wait for it. Since
// the system frees the mutex as soon as its owner dies, the job reaper of a
// ninja that died holds a second mutex, the lock's handover, until the
// commands are gone and their outputs removed: a ninja that took the lock
// waits for that too.
#include "log/build_lock.h"

#include <stdio.h>

#include <map>
#include <string>

#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

namespace {

struct HeldLock {
  HANDLE mutex;
  HANDLE holder_block;
};

// Directories already locked by this process, by their lock's name.
std::map<std::string, HeldLock>& HeldLocks() {
  static std::map<std::string, HeldLock> held;
  return held;
}

// "ronin-build-dir-SERIAL-INDEX", or "" (with *err) if the directory
// cannot be opened.
std::string LockName(const std::string& dir, std::string* err) {
  HANDLE handle = CreateFileW(WidePath(dir).c_str(), 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                              nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (handle == INVALID_HANDLE_VALUE) {
    *err = "opening build directory " + dir + ": " + LastErrorText();
    return std::string();
  }
  BY_HANDLE_FILE_INFORMATION info;
  bool known = GetFileInformationByHandle(handle, &info);
  CloseHandle(handle);
  if (!known) {
    *err = "opening build directory " + dir + ": " + LastErrorText();
    return std::string();
  }
  char name[96];
  snprintf(name, sizeof name, "Local\\ronin-build-dir-%08lx-%08lx%08lx", static_cast<unsigned long>(info.dwVolumeSerialNumber),
           static_cast<unsigned long>(info.nFileIndexHigh), static_cast<unsigned long>(info.nFileIndexLow));
  return name;
}

// The shared block holding the owner's process id (created if missing).
HANDLE OpenHolderBlock(const std::string& lock_name) {
  return CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, sizeof(DWORD),
                            (lock_name + "-holder").c_str());
}

DWORD ReadHolder(HANDLE block) {
  if (!block) return 0;
  auto* pid = static_cast<volatile DWORD*>(MapViewOfFile(block, FILE_MAP_READ, 0, 0, sizeof(DWORD)));
  if (!pid) return 0;
  DWORD holder = *pid;
  UnmapViewOfFile(const_cast<DWORD*>(pid));
  return holder;
}

void WriteHolder(HANDLE block, DWORD holder) {
  if (!block) return;
  auto* pid = static_cast<volatile DWORD*>(MapViewOfFile(block, FILE_MAP_WRITE, 0, 0, sizeof(DWORD)));
  if (!pid) return;
  *pid = holder;
  UnmapViewOfFile(const_cast<DWORD*>(pid));
}

// Whether `candidate` is this process's parent, grandparent, ...
bool IsAncestor(DWORD candidate) {
  std::map<DWORD, DWORD> parents = ParentProcessIds();
  DWORD pid = GetCurrentProcessId();
  // Bounded: process ids are reused, so the chain may loop.
  for (size_t steps = 0; steps < parents.size(); ++steps) {
    auto parent = parents.find(pid);
    if (parent == parents.end() || parent->second == 0) return false;
    pid = parent->second;
    if (pid == candidate) return true;
  }
  return false;
}

std::string HandoverName(const std::string& lock_name) { return lock_name + "-handover"; }

// Waits until no job reaper holds the lock's handover (bounded: a reaper
// is done within seconds, and a handover nobody holds is free at once).
void WaitForHandover(const std::string& lock_name) {
  HANDLE handover = OpenMutexA(SYNCHRONIZE | MUTEX_MODIFY_STATE, FALSE, HandoverName(lock_name).c_str());
  if (!handover) return;
  DWORD result = WaitForSingleObject(handover, 30 * 1000);
  if (result == WAIT_OBJECT_0 || result == WAIT_ABANDONED) ReleaseMutex(handover);
  CloseHandle(handover);
}

void Hold(const std::string& name, HANDLE mutex, HANDLE holder_block) {
  WriteHolder(holder_block, GetCurrentProcessId());
  HeldLocks()[name] = {mutex, holder_block};
  WaitForHandover(name);
}

}  // namespace

bool LockBuildDirectory(const std::string& dir, bool* waited, std::string* err) {
  *waited = false;
  std::string name = LockName(dir, err);
  if (name.empty()) return false;
  if (HeldLocks().count(name)) return true;
  HANDLE mutex = CreateMutexA(nullptr, FALSE, name.c_str());
  if (!mutex) return true;  // no lock to be had: go on as Ninja would
  HANDLE holder_block = OpenHolderBlock(name);
  DWORD result = WaitForSingleObject(mutex, 0);
  if (result == WAIT_OBJECT_0 || result == WAIT_ABANDONED) {
    Hold(name, mutex, holder_block);  // kept until exit, when the system releases it
    return true;
  }
  DWORD holder = ReadHolder(holder_block);
  if (holder != 0 && IsAncestor(holder)) {
    // Started by the running build itself.
    CloseHandle(mutex);
    if (holder_block) CloseHandle(holder_block);
    return true;
  }
  fflush(stdout);
  if (holder != 0)
    fprintf(stderr, "ninja: waiting for the ninja already running in this build directory (pid %lu)...\n",
            static_cast<unsigned long>(holder));
  else
    fprintf(stderr, "ninja: waiting for the ninja already running in this build directory...\n");
  *waited = true;
  result = WaitForSingleObject(mutex, INFINITE);
  if (result != WAIT_OBJECT_0 && result != WAIT_ABANDONED) {
    CloseHandle(mutex);
    if (holder_block) CloseHandle(holder_block);
    return true;
  }
  Hold(name, mutex, holder_block);
  return true;
}

std::vector<int> HeldBuildLockDescriptors() { return {}; }

std::vector<std::string> BuildLockHandoverNames() {
  std::vector<std::string> names;
  for (const auto& held : HeldLocks()) names.push_back(HandoverName(held.first));
  return names;
}

}  // namespace ronin

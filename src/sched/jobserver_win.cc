// jobserver.h on Windows: the pool is a named semaphore whose count is the
// free tokens (make's Windows form, the one ninja.exe 1.13 accepts). A
// token is taken by a wait that does not block and given back by a release.
// There is no descriptor to wait on: while no token is free, the build
// waits for one of its own jobs to end, as ninja.exe 1.13 does.
#include "sched/jobserver.h"

#include <stdlib.h>

#include "base/util.h"
#include "base/win32.h"

namespace ronin {

namespace {

HANDLE Semaphore(void* handle) { return static_cast<HANDLE>(handle); }

void SetMakeflags(const char* value) {
  // The C library's copy (getenv) and the process's (what commands get).
  _putenv_s("MAKEFLAGS", value ? value : "");
  SetEnvironmentVariableA("MAKEFLAGS", value);
}

}  // namespace

bool IsJobserverPipe(int, int) { return false; }

bool Jobserver::CanOpen(const JobserverConfig& config, std::string* reason) {
  switch (config.mode) {
    case JobserverConfig::Mode::kPipe:
      *reason = "Pipe-based protocol is not supported!";
      return false;
    case JobserverConfig::Mode::kFifo:
      *reason = "FIFO mode is not supported on Windows!";
      return false;
    default:
      return true;
  }
}

std::unique_ptr<Jobserver> Jobserver::Open(const JobserverConfig& config, std::string* err) {
  std::unique_ptr<Jobserver> client(new Jobserver);
  client->semaphore_ = OpenSemaphoreA(SYNCHRONIZE | SEMAPHORE_MODIFY_STATE, FALSE, config.value.c_str());
  if (!client->semaphore_) {
    *err = "Error opening semaphore: " + LastErrorText();
    return nullptr;
  }
  return client;
}

std::unique_ptr<Jobserver> Jobserver::OpenFifo(const std::string&, std::string* err) {
  *err = "FIFO mode is not supported on Windows!";
  return nullptr;
}

std::unique_ptr<Jobserver> Jobserver::OpenPipe(int, int, std::string* err) {
  *err = "Pipe-based protocol is not supported!";
  return nullptr;
}

std::unique_ptr<Jobserver> Jobserver::CreatePool(int jobs, std::string* err) {
  std::unique_ptr<Jobserver> pool(new Jobserver);
  int tokens = jobs > 1 ? jobs - 1 : 0;
  for (int attempt = 0; !pool->semaphore_; ++attempt) {
    std::string name = "ninja-jobserver-" + std::to_string(GetCurrentProcessId()) + "-" + std::to_string(attempt);
    // Not inherited: commands open it by name, as make's children do.
    HANDLE semaphore = CreateSemaphoreA(nullptr, tokens, tokens > 0 ? tokens : 1, name.c_str());
    if (semaphore && GetLastError() == ERROR_ALREADY_EXISTS && attempt < 100) {
      CloseHandle(semaphore);
      continue;
    }
    if (!semaphore) {
      *err = "CreateSemaphore " + name + ": " + LastErrorText();
      return nullptr;
    }
    pool->semaphore_ = semaphore;
    pool->fifo_path_ = name;
  }
  const char* old = getenv("MAKEFLAGS");
  pool->had_makeflags_ = old != nullptr;
  pool->old_makeflags_ = old ? old : "";
  std::string makeflags = PoolMakeflags(pool->old_makeflags_, jobs, "--jobserver-auth=" + pool->fifo_path_);
  SetMakeflags(makeflags.c_str());
  pool->exported_makeflags_ = true;
  return pool;
}

Jobserver::~Jobserver() {
  ReleaseAll();
  if (semaphore_) CloseHandle(Semaphore(semaphore_));
  if (exported_makeflags_) SetMakeflags(had_makeflags_ ? old_makeflags_.c_str() : nullptr);
}

bool Jobserver::ReadToken() {
  if (broken_ || !semaphore_) return false;
  DWORD result = WaitForSingleObject(Semaphore(semaphore_), 0);
  if (result == WAIT_OBJECT_0) {
    tokens_.push_back('+');
    return true;
  }
  // WAIT_TIMEOUT: none free now. A failure: stop asking (the implicit slot
  // still lets the build go on).
  if (result != WAIT_TIMEOUT) broken_ = true;
  return false;
}

void Jobserver::ReturnToken() {
  tokens_.pop_back();
  if (!broken_ && !ReleaseSemaphore(Semaphore(semaphore_), 1, nullptr)) broken_ = true;
}

}  // namespace ronin

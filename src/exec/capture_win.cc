// capture.h on Windows: CreateProcess with an inherited anonymous pipe as
// stdout, read until the command and its children close it.
#include "exec/capture.h"

#include "base/util.h"
#include "base/wide_path.h"
#include "base/win32.h"

namespace ronin {

int RunCapturingStdout(const std::string& command, const std::string* environment, std::string* output) {
  SECURITY_ATTRIBUTES inherited = {sizeof inherited, nullptr, TRUE};
  HANDLE nul = CreateFileA("NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherited,
                           OPEN_EXISTING, 0, nullptr);
  if (nul == INVALID_HANDLE_VALUE) Fatal("couldn't open nul");
  HANDLE read_end, write_end;
  if (!CreatePipe(&read_end, &write_end, &inherited, 0)) Fatal("CreatePipe: %s", LastErrorText().c_str());
  if (!SetHandleInformation(read_end, HANDLE_FLAG_INHERIT, 0))
    Fatal("SetHandleInformation: %s", LastErrorText().c_str());

  STARTUPINFOW startup = {};
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = nul;
  startup.hStdOutput = write_end;
  startup.hStdError = GetStdHandle(STD_ERROR_HANDLE);
  PROCESS_INFORMATION process = {};
  // UTF-16, so that the command's UTF-8 reaches it whatever the code page
  // (the environment block stays in the code page's bytes, as -e gives it).
  std::wstring line;
  void* block = environment ? const_cast<char*>(environment->data()) : nullptr;
  if (!WideCommandLine(command, &line) ||
      !CreateProcessW(nullptr, &line[0], nullptr, nullptr, /*inherit handles=*/TRUE, 0, block, nullptr, &startup,
                      &process))
    Fatal("CreateProcess: %s", LastErrorText().c_str());
  CloseHandle(nul);
  CloseHandle(write_end);

  for (;;) {
    char buffer[64 << 10];
    DWORD got = 0;
    if (!ReadFile(read_end, buffer, sizeof buffer, &got, nullptr) && GetLastError() != ERROR_BROKEN_PIPE)
      Fatal("ReadFile: %s", LastErrorText().c_str());
    if (got == 0) break;
    output->append(buffer, got);
  }
  if (WaitForSingleObject(process.hProcess, INFINITE) == WAIT_FAILED)
    Fatal("WaitForSingleObject: %s", LastErrorText().c_str());
  DWORD code = 0;
  if (!GetExitCodeProcess(process.hProcess, &code)) Fatal("GetExitCodeProcess: %s", LastErrorText().c_str());
  CloseHandle(read_end);
  CloseHandle(process.hProcess);
  CloseHandle(process.hThread);
  return static_cast<int>(code);
}

}  // namespace ronin

/* jobtree: a command that starts a child and outlives its welcome, for the job reaper's test
   (tests/blackbox/test_win_job_reaper.py), and the TerminateProcess that kills ninja.exe.

   jobtree run OUT    appends OUT to ran.log, writes its parent's (ninja.exe's) process id to
                      ninja.pid, starts `jobtree child` (inheriting no handle: nothing ties it
                      to the build but the job), writes "partial" to OUT, creates OUT.started,
                      sleeps $JOBTREE_SECONDS (default 0), writes "done" to OUT and waits for
                      its child.
   jobtree child      sleeps $JOBTREE_SECONDS, then creates a file in $JOBTREE_MARKS (if set):
                      a mark that it survived.
   jobtree kill FILE  TerminateProcess of the process whose id FILE holds (exit code 1).
   jobtree hold DIR   holds the handover of DIR's build lock as a job reaper does (the mutex
                      src/log/build_lock_win.cc names by the folder's volume and file index),
                      creates DIR\held, and lets go once DIR\release exists (60 s at most).

   Build: x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -o jobtree.exe jobtree.c (wine.py does). */
#include <windows.h>
#include <tlhelp32.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static DWORD seconds(void) {
  const char *text = getenv("JOBTREE_SECONDS");
  return text ? (DWORD)atoi(text) : 0;
}

static void write_text(const char *path, const char *text, int append) {
  FILE *f = fopen(path, append ? "ab" : "wb");
  if (!f) exit(3);
  fputs(text, f);
  fclose(f);
}

static DWORD parent_id(void) {
  DWORD self = GetCurrentProcessId(), parent = 0;
  HANDLE snapshot = CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0);
  PROCESSENTRY32 entry;
  memset(&entry, 0, sizeof entry);
  entry.dwSize = sizeof entry;
  for (BOOL more = Process32First(snapshot, &entry); more; more = Process32Next(snapshot, &entry))
    if (entry.th32ProcessID == self) parent = entry.th32ParentProcessID;
  CloseHandle(snapshot);
  return parent;
}

static int run(const char *out) {
  char text[MAX_PATH + 16];
  snprintf(text, sizeof text, "%s\n", out);
  write_text("ran.log", text, 1);
  snprintf(text, sizeof text, "%lu", (unsigned long)parent_id());
  write_text("ninja.pid", text, 0);
  char self[MAX_PATH], line[MAX_PATH + 16];
  GetModuleFileNameA(NULL, self, MAX_PATH);
  snprintf(line, sizeof line, "\"%s\" child", self);
  STARTUPINFOA startup;
  memset(&startup, 0, sizeof startup);
  startup.cb = sizeof startup;
  PROCESS_INFORMATION child;
  if (!CreateProcessA(self, line, NULL, NULL, FALSE, 0, NULL, NULL, &startup, &child)) return 4;
  write_text(out, "partial\n", 0);
  snprintf(text, sizeof text, "%s.started", out);
  write_text(text, "", 0);
  Sleep(seconds() * 1000);
  write_text(out, "done\n", 1);
  WaitForSingleObject(child.hProcess, INFINITE);
  return 0;
}

static int child(void) {
  Sleep(seconds() * 1000);
  const char *marks = getenv("JOBTREE_MARKS");
  if (marks) {
    char path[MAX_PATH];
    snprintf(path, sizeof path, "%s\\%lu", marks, (unsigned long)GetCurrentProcessId());
    write_text(path, "survived\n", 0);
  }
  return 0;
}

static int kill_process(const char *file) {
  char text[32] = {0};
  FILE *f = fopen(file, "rb");
  if (!f || !fgets(text, sizeof text, f)) return 2;
  fclose(f);
  HANDLE process = OpenProcess(PROCESS_TERMINATE | SYNCHRONIZE, FALSE, (DWORD)strtoul(text, NULL, 10));
  if (!process || !TerminateProcess(process, 1)) return 3;
  WaitForSingleObject(process, 10000);
  return 0;
}

static int hold(const char *dir) {
  HANDLE folder = CreateFileA(dir, 0, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL, OPEN_EXISTING,
                              FILE_FLAG_BACKUP_SEMANTICS, NULL);
  BY_HANDLE_FILE_INFORMATION info;
  if (folder == INVALID_HANDLE_VALUE || !GetFileInformationByHandle(folder, &info)) return 2;
  CloseHandle(folder);
  char name[128], path[MAX_PATH];
  snprintf(name, sizeof name, "Local\\ronin-build-dir-%08lx-%08lx%08lx-handover",
           (unsigned long)info.dwVolumeSerialNumber, (unsigned long)info.nFileIndexHigh,
           (unsigned long)info.nFileIndexLow);
  HANDLE handover = CreateMutexA(NULL, TRUE, name);
  if (!handover || GetLastError() == ERROR_ALREADY_EXISTS) return 3;
  snprintf(path, sizeof path, "%s\\held", dir);
  write_text(path, "", 0);
  snprintf(path, sizeof path, "%s\\release", dir);
  for (int i = 0; i < 1200 && GetFileAttributesA(path) == INVALID_FILE_ATTRIBUTES; i++) Sleep(50);
  ReleaseMutex(handover);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "run") == 0) return run(argv[2]);
  if (argc == 2 && strcmp(argv[1], "child") == 0) return child();
  if (argc == 3 && strcmp(argv[1], "kill") == 0) return kill_process(argv[2]);
  if (argc == 3 && strcmp(argv[1], "hold") == 0) return hold(argv[2]);
  fprintf(stderr, "usage: jobtree run OUT | jobtree child | jobtree kill PIDFILE | jobtree hold DIR\n");
  return 2;
}

/* memhog: tests/blackbox/memhog.py as a Windows program, for --keep-free-memory's
   tests under wine (test_win_option_suites). Holds N MiB (allocated and every page
   written) for SECONDS, then appends "start end peak_bytes" (monotonic seconds, its own
   peak working set) to LOG. With FAKE_MEMINFO_DIR set, it takes its N MiB off that
   folder's fake MemAvailable (DIR/base bytes minus what helpers hold, DIR/held) before
   allocating and gives them back before exiting, so the fake meminfo ninja reads
   (RONIN_MEMORY_INFO_DIR) sees it as the system's would. Helpers take turns through a
   lock on DIR/lock.

   usage: memhog N SECONDS LOG

   Build: x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -o memhog.exe memhog.c (wine.py does). */
#include <windows.h>
#include <psapi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fail(const char *what) {
  fprintf(stderr, "memhog: %s: error %lu\n", what, (unsigned long)GetLastError());
  ExitProcess(1);
}

static long long read_number(const char *path) {
  char text[64] = "";
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  return _atoi64(text);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "wb");
  if (!f || fputs(text, f) < 0 || fclose(f) != 0) fail(path);
}

/* Renames over a file ninja may be reading: Windows refuses while it is open. */
static void replace_file(const char *from, const char *to) {
  for (int tries = 0; !MoveFileExA(from, to, MOVEFILE_REPLACE_EXISTING); tries++) {
    if (tries == 500) fail(to);
    Sleep(10);
  }
}

/* The fake MemAvailable is DIR/base minus what the helpers hold, never below 0. */
static void adjust_fake_meminfo(long long delta_bytes) {
  const char *dir = getenv("FAKE_MEMINFO_DIR");
  if (!dir) return;
  char path[MAX_PATH], tmp[MAX_PATH], text[160];
  snprintf(path, sizeof path, "%s/lock", dir);
  HANDLE lock = CreateFileA(path, GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                            OPEN_ALWAYS, 0, NULL);
  OVERLAPPED whole = {0};
  if (lock == INVALID_HANDLE_VALUE || !LockFileEx(lock, LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &whole)) fail(path);
  snprintf(path, sizeof path, "%s/held", dir);
  long long held = read_number(path) - delta_bytes;
  snprintf(text, sizeof text, "%lld", held);
  write_text(path, text);
  snprintf(path, sizeof path, "%s/base", dir);
  long long available = read_number(path) - held;
  snprintf(text, sizeof text, "MemTotal: 99999999 kB\nMemAvailable: %lld kB\n",
           (available > 0 ? available : 0) / 1024);
  snprintf(tmp, sizeof tmp, "%s/meminfo.tmp", dir);
  snprintf(path, sizeof path, "%s/meminfo", dir);
  write_text(tmp, text);
  replace_file(tmp, path);
  UnlockFileEx(lock, 0, 1, 0, &whole);
  CloseHandle(lock);
}

static double monotonic_seconds(void) {
  LARGE_INTEGER now, frequency;
  QueryPerformanceCounter(&now);
  QueryPerformanceFrequency(&frequency);
  return (double)now.QuadPart / (double)frequency.QuadPart;
}

/* One line appended with one write, as the helpers end at about the same time. */
static void append_line(const char *log, const char *line) {
  HANDLE f = CreateFileA(log, FILE_APPEND_DATA, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL, OPEN_ALWAYS, 0, NULL);
  DWORD written;
  if (f == INVALID_HANDLE_VALUE || !WriteFile(f, line, (DWORD)strlen(line), &written, NULL)) fail(log);
  CloseHandle(f);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: memhog N SECONDS LOG\n");
    return 2;
  }
  long long bytes = _atoi64(argv[1]) << 20;
  adjust_fake_meminfo(-bytes);
  /* VirtualAlloc, not malloc: a compiler may drop a malloc'd block nothing reads. */
  char *held = VirtualAlloc(NULL, (size_t)bytes, MEM_COMMIT | MEM_RESERVE, PAGE_READWRITE);
  if (!held) fail("VirtualAlloc");
  memset(held, 1, (size_t)bytes); /* every page written: resident */
  double start = monotonic_seconds();
  Sleep((DWORD)(atof(argv[2]) * 1000));
  double end = monotonic_seconds();
  PROCESS_MEMORY_COUNTERS counters;
  if (!GetProcessMemoryInfo(GetCurrentProcess(), &counters, sizeof counters)) fail("GetProcessMemoryInfo");
  char line[128];
  snprintf(line, sizeof line, "%f %f %llu\n", start, end, (unsigned long long)counters.PeakWorkingSetSize);
  append_line(argv[3], line);
  VirtualFree(held, 0, MEM_RELEASE);
  adjust_fake_meminfo(bytes);
  return 0;
}

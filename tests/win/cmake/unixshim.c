/* A Windows program that runs one Linux program, for CMake under wine: built once per
   program (clang-cl.exe, lld-link.exe, ...) with -DUNIX_PROGRAM='"/usr/bin/clang-cl-14"'
   and linked with the workplace's unixrun.c (shared/tools/windows/, compiled with
   -Dmain=unixrun_main), which starts the program through wine, waits for it and passes
   its output and exit code on. The arguments are given as the Linux program needs them:
   "Z:" (wine's drive for /) is dropped and backslashes become slashes, since a Linux
   tool reads '\' as part of a name. test_win_cmake.py builds it. */
#include <stdlib.h>
#include <string.h>

int unixrun_main(int argc, char **argv);

static char *linux_spelling(const char *arg) {
  char *out = malloc(strlen(arg) + 1), *o = out;
  for (const char *p = arg; *p; p++) {
    if ((p[0] == 'Z' || p[0] == 'z') && p[1] == ':' && (p[2] == '\\' || p[2] == '/')) p += 2;
    *o++ = *p == '\\' ? '/' : *p;
  }
  *o = '\0';
  return out;
}

int main(int argc, char **argv) {
  char **args = calloc(argc + 2, sizeof(char *));
  args[0] = argv[0];
  args[1] = UNIX_PROGRAM;
  for (int i = 1; i < argc; i++) args[i + 1] = linux_spelling(argv[i]);
  return unixrun_main(argc + 1, args);
}

/* handles: what a command inherited, for the handle-list test (tests/blackbox/test_win_handles.py).

   handles OUT   writes to OUT a line for each inheritable handle of this process other than
                 its standard ones: "file NAME" (NAME the last part of the file's path, "?"
                 where the system will not say), "pipe", "char" (a console or device) or
                 "other"; "none" without one.

   A process's own handles at its start (its working directory's, the system's keys and
   events) are not inheritable, and an inherited handle keeps the flag: so each line is a
   handle the command inherited from whoever started it, beyond the standard ones it was given.

   Build: x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -o handles.exe handles.c (wine.py does). */
#include <windows.h>
#include <stdio.h>
#include <string.h>

static int is_standard(HANDLE handle) {
  return handle == GetStdHandle(STD_INPUT_HANDLE) || handle == GetStdHandle(STD_OUTPUT_HANDLE) ||
         handle == GetStdHandle(STD_ERROR_HANDLE);
}

/* The last part of a file's path, or "?". */
static void file_name(HANDLE handle, char *name, size_t size) {
  union {
    FILE_NAME_INFO info;
    char bytes[sizeof(FILE_NAME_INFO) + 4096 * sizeof(WCHAR)];
  } name_info;
  char path[4096 * 3];
  strcpy(name, "?");
  if (!GetFileInformationByHandleEx(handle, FileNameInfo, &name_info, sizeof name_info)) return;
  int length = WideCharToMultiByte(CP_UTF8, 0, name_info.info.FileName,
                                   (int)(name_info.info.FileNameLength / sizeof(WCHAR)), path, sizeof path - 1,
                                   NULL, NULL);
  if (length <= 0) return;
  path[length] = '\0';
  const char *last = path;
  for (const char *at = path; *at; ++at)
    if (*at == '\\' || *at == '/') last = at + 1;
  snprintf(name, size, "%s", last);
}

static void describe(HANDLE handle, FILE *out) {
  char name[1024];
  switch (GetFileType(handle)) {
    case FILE_TYPE_DISK:
      file_name(handle, name, sizeof name);
      fprintf(out, "file %s\n", name);
      break;
    case FILE_TYPE_PIPE:
      fprintf(out, "pipe\n");
      break;
    case FILE_TYPE_CHAR:
      fprintf(out, "char\n");
      break;
    default:
      fprintf(out, "other\n");
  }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: handles OUT\n");
    return 2;
  }
  /* Looked at before OUT is opened (the C library opens it inheritable). */
  HANDLE inherited[1024];
  int count = 0;
  for (ULONG_PTR value = 4; value <= 65536 && count < 1024; value += 4) {
    HANDLE handle = (HANDLE)value;
    DWORD flags;
    if (is_standard(handle) || !GetHandleInformation(handle, &flags) || !(flags & HANDLE_FLAG_INHERIT)) continue;
    inherited[count++] = handle;
  }
  FILE *out = fopen(argv[1], "wb");
  if (!out) return 3;
  for (int i = 0; i < count; ++i) describe(inherited[i], out);
  if (!count) fprintf(out, "none\n");
  fclose(out);
  return 0;
}

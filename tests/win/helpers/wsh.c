/* wsh: the commands of ronin's Windows differential tests (tests/blackbox/wine.py).

   Ninja on Windows starts a command with CreateProcess, without a shell, so
   the tests' POSIX-style commands ("echo $out >> ran.log; touch $out") need a
   program that understands them. This one is installed under the name of
   each of its builtins (echo.exe, touch.exe, cat.exe, ...): whichever name
   CreateProcess finds first, it reads its whole command line as a small
   shell script, so a manifest shared with the Linux tests runs unchanged and
   `-t commands`, compdb and the log's command hashes stay what they are there.

   The language: words separated by blanks; ';', newline, '&&' and '||'
   between commands; '#' at the start of a word comments out the rest of the
   line; redirections >, >>, <, 2>, 2>>, 2>&1, >&2. Quoting follows Windows,
   as Ninja's $in/$out escaping does there: "..." groups, and a backslash is
   literal unless a run of them comes before '"' (2n of them stand for n and
   the quote counts, 2n+1 for n and a literal '"'); '...' is literal as in sh.
   There are no variables, globs or pipes. A first word that names no builtin
   runs as a program (CreateProcess, which searches PATH). A first word
   "wsh" is dropped, so `wsh.exe SCRIPT` runs SCRIPT.

   Build: x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -o wsh.exe wsh.c (wine.py does). */
#include <windows.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct io {
  HANDLE in, out, err;
};

/* ---- memory and text ---------------------------------------------------- */

struct buf {
  char *data;
  size_t len, cap;
};

static void *xrealloc(void *p, size_t n) {
  p = realloc(p, n ? n : 1);
  if (!p) ExitProcess(125);
  return p;
}

static void buf_add(struct buf *b, const char *s, size_t n) {
  if (b->len + n + 1 > b->cap) {
    b->cap = (b->len + n + 1) * 2;
    b->data = xrealloc(b->data, b->cap);
  }
  memcpy(b->data + b->len, s, n);
  b->len += n;
  b->data[b->len] = '\0';
}

static void buf_addc(struct buf *b, char c) { buf_add(b, &c, 1); }
static void buf_adds(struct buf *b, const char *s) { buf_add(b, s, strlen(s)); }

static char *buf_take(struct buf *b) {
  if (!b->data) buf_add(b, "", 0);
  char *s = b->data;
  b->data = NULL;
  b->len = b->cap = 0;
  return s;
}

static wchar_t *to_wide(const char *s) {
  int n = MultiByteToWideChar(CP_UTF8, 0, s, -1, NULL, 0);
  wchar_t *w = xrealloc(NULL, n * sizeof(wchar_t));
  MultiByteToWideChar(CP_UTF8, 0, s, -1, w, n);
  return w;
}

static char *to_utf8(const wchar_t *w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  char *s = xrealloc(NULL, n);
  WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
  return s;
}

/* ---- output -------------------------------------------------------------- */

static void put(HANDLE h, const char *s, size_t n) {
  while (n > 0) {
    DWORD written = 0;
    if (!WriteFile(h, s, (DWORD)n, &written, NULL) || written == 0) return;
    s += written;
    n -= written;
  }
}

/* One message on the error handle, in one write, like "cat: x: No such file". */
static void complain(struct io *io, const char *fmt, ...) {
  char text[2048];
  va_list args;
  va_start(args, fmt);
  int n = vsnprintf(text, sizeof text - 1, fmt, args);
  va_end(args);
  if (n < 0) return;
  if (n > (int)sizeof text - 2) n = (int)sizeof text - 2;
  text[n++] = '\n';
  put(io->err, text, (size_t)n);
}

/* ---- files ----------------------------------------------------------------- */

static HANDLE open_file(const char *path, DWORD access, DWORD disposition) {
  SECURITY_ATTRIBUTES inherit = {sizeof inherit, NULL, TRUE};
  wchar_t *w = to_wide(path);
  HANDLE h = CreateFileW(w, access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherit,
                         disposition, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, NULL);
  free(w);
  return h;
}

/* The whole content of a file; NULL when it cannot be read. */
static char *read_file(const char *path, size_t *len) {
  HANDLE h = open_file(path, GENERIC_READ, OPEN_EXISTING);
  if (h == INVALID_HANDLE_VALUE) return NULL;
  struct buf b = {0};
  char chunk[65536];
  DWORD got;
  while (ReadFile(h, chunk, sizeof chunk, &got, NULL) && got > 0) buf_add(&b, chunk, got);
  CloseHandle(h);
  *len = b.len;
  return buf_take(&b);
}

static int is_directory(const char *path) {
  wchar_t *w = to_wide(path);
  DWORD attributes = GetFileAttributesW(w);
  free(w);
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY);
}

static void copy_handle(HANDLE from, HANDLE to) {
  char chunk[65536];
  DWORD got;
  while (ReadFile(from, chunk, sizeof chunk, &got, NULL) && got > 0) put(to, chunk, got);
}

/* ---- builtins ---------------------------------------------------------------- */

static int exiting; /* set by `exit`: the script stops after this command */

static int run_echo(int argc, char **argv, struct io *io) {
  int newline = 1, first = 1;
  if (argc > 1 && strcmp(argv[1], "-n") == 0) newline = 0, first = 2;
  struct buf b = {0};
  for (int i = first; i < argc; i++) {
    if (i > first) buf_addc(&b, ' ');
    buf_adds(&b, argv[i]);
  }
  if (newline) buf_addc(&b, '\n');
  put(io->out, b.data ? b.data : "", b.len);
  free(b.data);
  return 0;
}

/* printf's backslash escapes: \n \t \r \a \b \f \v \\ and octal \NNN. */
static const char *printf_escape(const char *p, struct buf *b) {
  static const char from[] = "ntrabfv\\", to[] = "\n\t\r\a\b\f\v\\";
  const char *hit = *p ? strchr(from, *p) : NULL;
  if (hit) {
    buf_addc(b, to[hit - from]);
    return p + 1;
  }
  if (*p >= '0' && *p <= '7') {
    int value = 0, digits = 0;
    while (digits < 3 && *p >= '0' && *p <= '7') value = value * 8 + (*p++ - '0'), digits++;
    buf_addc(b, (char)value);
    return p;
  }
  buf_addc(b, '\\');
  return p;
}

/* One pass of the format; returns how many arguments it used. */
static int printf_pass(const char *fmt, char **args, int count, struct buf *b) {
  int used = 0;
  for (const char *p = fmt; *p;) {
    if (*p == '\\') {
      p = printf_escape(p + 1, b);
    } else if (*p == '%' && p[1] == '%') {
      buf_addc(b, '%');
      p += 2;
    } else if (*p == '%' && p[1] && strchr("sdc", p[1])) {
      const char *arg = used < count ? args[used] : NULL;
      used += arg != NULL;
      if (p[1] == 's') buf_adds(b, arg ? arg : "");
      if (p[1] == 'c' && arg && *arg) buf_addc(b, *arg);
      if (p[1] == 'd') {
        char number[32];
        snprintf(number, sizeof number, "%ld", arg ? strtol(arg, NULL, 0) : 0L);
        buf_adds(b, number);
      }
      p += 2;
    } else {
      buf_addc(b, *p++);
    }
  }
  return used;
}

/* The format is reused while arguments remain, as POSIX printf does. */
static int run_printf(int argc, char **argv, struct io *io) {
  if (argc < 2) {
    complain(io, "printf: usage: printf format [arguments]");
    return 2;
  }
  struct buf b = {0};
  char **args = argv + 2;
  int left = argc - 2;
  do {
    int used = printf_pass(argv[1], args, left, &b);
    if (used == 0) break;
    args += used;
    left -= used;
  } while (left > 0);
  put(io->out, b.data ? b.data : "", b.len);
  free(b.data);
  return 0;
}

static int file_time(const char *path, FILETIME *time) {
  HANDLE h = open_file(path, FILE_READ_ATTRIBUTES, OPEN_EXISTING);
  if (h == INVALID_HANDLE_VALUE) return 0;
  int ok = GetFileTime(h, NULL, NULL, time);
  CloseHandle(h);
  return ok;
}

/* The file system's "now": the time a file made this instant gets. Linux stamps files from a
   coarse clock that trails the precise one (GetSystemTimeAsFileTime) by up to a scheduler
   tick, and ninja's start-of-command time is such a stamp (it writes .ninja_lock and reads its
   time back). A touch stamped from the precise clock could then be newer than the start of a
   command that began after it, and a correct build would look dirty to the next run. POSIX
   touch and Windows' own stamps both come from the file system's clock, so this one does too. */
static void file_system_now(FILETIME *now) {
  char dir[MAX_PATH], scratch[MAX_PATH];
  GetSystemTimeAsFileTime(now);
  if (!GetTempPathA(sizeof dir, dir) || !GetTempFileNameA(dir, "wsh", 0, scratch)) return;
  file_time(scratch, now);
  DeleteFileA(scratch);
}

/* touch [-r REFERENCE] FILE...: creates each file and sets its time to now (or REFERENCE's). */
static int run_touch(int argc, char **argv, struct io *io) {
  FILETIME when;
  file_system_now(&when);
  int i = 1, status = 0;
  if (argc > 2 && strcmp(argv[1], "-r") == 0) {
    if (!file_time(argv[2], &when)) {
      complain(io, "touch: failed to get attributes of '%s': No such file or directory", argv[2]);
      return 1;
    }
    i = 3;
  }
  for (; i < argc; i++) {
    HANDLE h = open_file(argv[i], FILE_WRITE_ATTRIBUTES, OPEN_ALWAYS);
    if (h == INVALID_HANDLE_VALUE) {
      complain(io, "touch: cannot touch '%s': No such file or directory", argv[i]);
      status = 1;
      continue;
    }
    SetFileTime(h, NULL, NULL, &when);
    CloseHandle(h);
  }
  return status;
}

/* Writes data to path, replacing it: a new file with a new time, as Linux cp makes. */
static int write_file(const char *path, const char *data, size_t len) {
  HANDLE h = open_file(path, GENERIC_WRITE, CREATE_ALWAYS);
  if (h == INVALID_HANDLE_VALUE) return 0;
  put(h, data, len);
  CloseHandle(h);
  return 1;
}

static int run_cp(int argc, char **argv, struct io *io) {
  if (argc != 3) {
    complain(io, "cp: usage: cp SOURCE DEST");
    return 1;
  }
  size_t len;
  char *data = read_file(argv[1], &len);
  if (!data) {
    complain(io, "cp: cannot stat '%s': No such file or directory", argv[1]);
    return 1;
  }
  int ok = write_file(argv[2], data, len);
  free(data);
  if (!ok) complain(io, "cp: cannot create regular file '%s': No such file or directory", argv[2]);
  return !ok;
}

static int run_cat(int argc, char **argv, struct io *io) {
  if (argc == 1) {
    copy_handle(io->in, io->out);
    return 0;
  }
  int status = 0;
  for (int i = 1; i < argc; i++) {
    size_t len;
    char *data = read_file(argv[i], &len);
    if (!data) {
      complain(io, "cat: %s: No such file or directory", argv[i]);
      status = 1;
      continue;
    }
    put(io->out, data, len);
    free(data);
  }
  return status;
}

/* cmp [-s] A B: 0 when equal, 1 when different, 2 when one cannot be read. */
static int run_cmp(int argc, char **argv, struct io *io) {
  int quiet = argc > 1 && strcmp(argv[1], "-s") == 0;
  if (argc != 3 + quiet) {
    complain(io, "cmp: usage: cmp [-s] FILE1 FILE2");
    return 2;
  }
  size_t len[2];
  char *data[2];
  for (int i = 0; i < 2; i++) {
    data[i] = read_file(argv[1 + quiet + i], &len[i]);
    if (!data[i]) {
      complain(io, "cmp: %s: No such file or directory", argv[1 + quiet + i]);
      return 2;
    }
  }
  int same = len[0] == len[1] && memcmp(data[0], data[1], len[0]) == 0;
  if (!same && !quiet) {
    char line[1024];
    snprintf(line, sizeof line, "%s %s differ\n", argv[1], argv[2]);
    put(io->out, line, strlen(line));
  }
  free(data[0]);
  free(data[1]);
  return !same;
}

static int make_directory(const char *path) {
  wchar_t *w = to_wide(path);
  int ok = CreateDirectoryW(w, NULL) || GetLastError() == ERROR_ALREADY_EXISTS;
  free(w);
  return ok;
}

/* mkdir [-p] DIR...: with -p, every missing parent too and no complaint about existing ones. */
static int run_mkdir(int argc, char **argv, struct io *io) {
  int parents = argc > 1 && strcmp(argv[1], "-p") == 0, status = 0;
  for (int i = 1 + parents; i < argc; i++) {
    if (!parents && is_directory(argv[i])) {
      complain(io, "mkdir: cannot create directory '%s': File exists", argv[i]);
      status = 1;
      continue;
    }
    char *path = _strdup(argv[i]);
    for (char *p = path + 1; parents && *p; p++) {
      if (*p != '/' && *p != '\\') continue;
      char separator = *p;
      *p = '\0';
      make_directory(path);
      *p = separator;
    }
    if (!make_directory(path)) {
      complain(io, "mkdir: cannot create directory '%s': No such file or directory", argv[i]);
      status = 1;
    }
    free(path);
  }
  return status;
}

static int run_rm(int argc, char **argv, struct io *io) {
  int force = argc > 1 && strcmp(argv[1], "-f") == 0, status = 0;
  for (int i = 1 + force; i < argc; i++) {
    wchar_t *w = to_wide(argv[i]);
    if (!DeleteFileW(w) && !force) {
      complain(io, "rm: cannot remove '%s': No such file or directory", argv[i]);
      status = 1;
    }
    free(w);
  }
  return status;
}

/* mv SOURCE DEST: a rename that replaces DEST, as POSIX's rename does. */
static int run_mv(int argc, char **argv, struct io *io) {
  if (argc != 3) {
    complain(io, "mv: usage: mv SOURCE DEST");
    return 1;
  }
  wchar_t *from = to_wide(argv[1]), *to = to_wide(argv[2]);
  int ok = MoveFileExW(from, to, MOVEFILE_REPLACE_EXISTING);
  free(from);
  free(to);
  if (!ok) complain(io, "mv: cannot move '%s' to '%s'", argv[1], argv[2]);
  return !ok;
}

static int run_sleep(int argc, char **argv, struct io *io) {
  if (argc != 2) {
    complain(io, "sleep: usage: sleep SECONDS");
    return 1;
  }
  Sleep((DWORD)(atof(argv[1]) * 1000));
  return 0;
}

/* head -c N FILE (or -cN): the file's first N bytes. */
static int run_head(int argc, char **argv, struct io *io) {
  int joined = argc == 3 && strncmp(argv[1], "-c", 2) == 0 && argv[1][2];
  if (!joined && (argc != 4 || strcmp(argv[1], "-c") != 0)) {
    complain(io, "head: usage: head -c N FILE");
    return 2;
  }
  const char *file = argv[argc - 1];
  size_t len, want = (size_t)atol(joined ? argv[1] + 2 : argv[2]);
  char *data = read_file(file, &len);
  if (!data) {
    complain(io, "head: %s: No such file or directory", file);
    return 1;
  }
  put(io->out, data, len < want ? len : want);
  free(data);
  return 0;
}

/* waitfile FILE: returns once FILE exists (a command that holds a build until the test lets
   it go, as the Linux tests' `while [ ! -e FILE ]; do sleep 0.01; done`). */
static int run_waitfile(int argc, char **argv, struct io *io) {
  if (argc != 2) {
    complain(io, "waitfile: usage: waitfile FILE");
    return 2;
  }
  wchar_t *w = to_wide(argv[1]);
  while (GetFileAttributesW(w) == INVALID_FILE_ATTRIBUTES) Sleep(10);
  free(w);
  return 0;
}

/* The number of entries in a folder, "." and ".." left out. */
static int count_entries(const char *folder) {
  char pattern[MAX_PATH];
  snprintf(pattern, sizeof pattern, "%s\\*", folder);
  wchar_t *w = to_wide(pattern);
  WIN32_FIND_DATAW found;
  HANDLE h = FindFirstFileW(w, &found);
  free(w);
  int count = 0;
  if (h == INVALID_HANDLE_VALUE) return 0;
  do {
    if (wcscmp(found.cFileName, L".") != 0 && wcscmp(found.cFileName, L"..") != 0) count++;
  } while (FindNextFileW(h, &found));
  FindClose(h);
  return count;
}

/* leaf MARKS NAME LOG SECONDS: a job that shows how many jobs run at once. It puts a marker
   named NAME in the folder MARKS, holds it SECONDS while counting the markers there, removes it
   and appends "NAME PEAK" to LOG: a peak never above N shows that no more than N such jobs
   ran at the same time, whoever started them. */
static int run_leaf(int argc, char **argv, struct io *io) {
  if (argc != 5) {
    complain(io, "leaf: usage: leaf MARKS NAME LOG SECONDS");
    return 2;
  }
  char marker[MAX_PATH];
  snprintf(marker, sizeof marker, "%s\\%s", argv[1], argv[2]);
  HANDLE h = open_file(marker, GENERIC_WRITE, CREATE_ALWAYS);
  if (h == INVALID_HANDLE_VALUE) {
    complain(io, "leaf: cannot create %s", marker);
    return 1;
  }
  CloseHandle(h);
  int peak = 0;
  for (DWORD start = GetTickCount(); GetTickCount() - start < (DWORD)(atof(argv[4]) * 1000); Sleep(10)) {
    int now = count_entries(argv[1]);
    if (now > peak) peak = now;
  }
  wchar_t *w = to_wide(marker);
  DeleteFileW(w);
  free(w);
  char line[256];
  snprintf(line, sizeof line, "%s %d\n", argv[2], peak);
  h = open_file(argv[3], FILE_APPEND_DATA, OPEN_ALWAYS);
  if (h == INVALID_HANDLE_VALUE) return 1;
  put(h, line, strlen(line));
  CloseHandle(h);
  return 0;
}

/* Whether a line holds the pattern: a fixed string, anchored to the line's start by a
   leading '^' (the only pattern syntax the tests' commands use). */
static int line_matches(const char *line, size_t len, const char *pattern) {
  if (*pattern == '^') return strlen(pattern + 1) <= len && memcmp(line, pattern + 1, strlen(pattern + 1)) == 0;
  size_t n = strlen(pattern);
  for (size_t i = 0; i + n <= len; i++)
    if (memcmp(line + i, pattern, n) == 0) return 1;
  return 0;
}

/* grep -q|-v PATTERN FILE...: with -q, 0 when some line of some file matches; with -v, the
   lines that do not match are printed, and 0 when there was one. */
static int run_grep(int argc, char **argv, struct io *io) {
  int quiet = argc >= 4 && strcmp(argv[1], "-q") == 0, invert = argc >= 4 && strcmp(argv[1], "-v") == 0;
  if (!quiet && !invert) {
    complain(io, "grep: usage: grep -q|-v PATTERN FILE...");
    return 2;
  }
  int selected = 0, status = 1;
  for (int i = 3; i < argc && !(quiet && selected); i++) {
    size_t len;
    char *data = read_file(argv[i], &len);
    if (!data) {
      complain(io, "grep: %s: No such file or directory", argv[i]);
      status = 2;
      continue;
    }
    for (size_t at = 0; at < len && !(quiet && selected);) {
      const char *newline = memchr(data + at, '\n', len - at);
      size_t end = newline ? (size_t)(newline - data) + 1 : len;
      int match = line_matches(data + at, end - at - (newline != NULL), argv[2]);
      if (match != invert) {
        selected = 1;
        if (invert) put(io->out, data + at, end - at);
      }
      at = end;
    }
    free(data);
  }
  return selected ? 0 : status;
}

/* printenv NAME: the variable's value, to see the environment Ninja gives a command. */
static int run_printenv(int argc, char **argv, struct io *io) {
  if (argc != 2) {
    complain(io, "printenv: usage: printenv NAME");
    return 2;
  }
  wchar_t *name = to_wide(argv[1]), value[32768];
  DWORD n = GetEnvironmentVariableW(name, value, sizeof value / sizeof value[0]);
  free(name);
  if (n == 0 || n >= sizeof value / sizeof value[0]) return 1;
  char *text = to_utf8(value);
  put(io->out, text, strlen(text));
  put(io->out, "\n", 1);
  free(text);
  return 0;
}

static int run_true(int argc, char **argv, struct io *io) {
  (void)argc, (void)argv, (void)io;
  return 0;
}

static int run_false(int argc, char **argv, struct io *io) {
  (void)argc, (void)argv, (void)io;
  return 1;
}

/* exit [CODE]: CODE may be any 32-bit value (0xC000013A is Ctrl-C's). */
static int run_exit(int argc, char **argv, struct io *io) {
  (void)io;
  exiting = 1;
  return argc > 1 ? (int)strtoul(argv[1], NULL, 0) : 0;
}

static int start_program(int argc, char **argv, struct io *io, int wait);

/* start COMMAND...: runs COMMAND (a builtin runs in a new wsh) without waiting for it,
   as a build tool that leaves a server behind: it inherits the output handles. */
static int run_start(int argc, char **argv, struct io *io) {
  if (argc < 2) {
    complain(io, "start: usage: start COMMAND...");
    return 2;
  }
  return start_program(argc - 1, argv + 1, io, 0);
}

struct applet {
  const char *name;
  int (*run)(int argc, char **argv, struct io *io);
};

/* tests/blackbox/wine.py installs a copy of wsh.exe under each of these names (":" only works
   inside a script: no file can have that name). */
static const struct applet APPLETS[] = {
    {"cat", run_cat},     {"cmp", run_cmp},     {"cp", run_cp},       {"echo", run_echo},
    {"exit", run_exit},   {"false", run_false}, {"grep", run_grep},   {"mkdir", run_mkdir},
    {"printenv", run_printenv}, {"printf", run_printf}, {"rm", run_rm}, {"sleep", run_sleep},
    {"start", run_start}, {"touch", run_touch}, {"true", run_true},
    {"waitfile", run_waitfile}, {"head", run_head}, {":", run_true},
    {"leaf", run_leaf},   {"mv", run_mv},
};

/* The program name without its folder and a ".exe" suffix. */
static const char *command_name(const char *word, char *out, size_t size) {
  const char *base = word;
  for (const char *p = word; *p; p++)
    if (*p == '/' || *p == '\\' || (*p == ':' && p == word + 1)) base = p + 1;  /* a drive's ':' */
  snprintf(out, size, "%s", base);
  size_t n = strlen(out);
  if (n > 4 && _stricmp(out + n - 4, ".exe") == 0) out[n - 4] = '\0';
  return out;
}

static const struct applet *find_applet(const char *word) {
  char name[64];
  command_name(word, name, sizeof name);
  for (size_t i = 0; i < sizeof APPLETS / sizeof APPLETS[0]; i++)
    if (strcmp(APPLETS[i].name, name) == 0) return &APPLETS[i];
  return NULL;
}

/* ---- starting programs ------------------------------------------------------- */

/* Appends one argument quoted so that CommandLineToArgvW gives it back unchanged. */
static void quote_argument(struct buf *b, const char *arg) {
  if (*arg && !strpbrk(arg, " \t\n\"';&|<>#")) {
    buf_adds(b, arg);
    return;
  }
  buf_addc(b, '"');
  for (const char *p = arg;; p++) {
    size_t slashes = 0;
    while (*p == '\\') slashes++, p++;
    if (!*p) {
      for (size_t i = 0; i < slashes * 2; i++) buf_addc(b, '\\');
      break;
    }
    size_t doubled = *p == '"' ? slashes * 2 + 1 : slashes;
    for (size_t i = 0; i < doubled; i++) buf_addc(b, '\\');
    buf_addc(b, *p);
  }
  buf_addc(b, '"');
}

static int start_program(int argc, char **argv, struct io *io, int wait) {
  struct buf line = {0};
  wchar_t *application = NULL;
  if (find_applet(argv[0])) {
    wchar_t self[MAX_PATH];
    GetModuleFileNameW(NULL, self, MAX_PATH);
    application = _wcsdup(self);
    buf_adds(&line, "wsh ");
  }
  for (int i = 0; i < argc; i++) {
    if (i > 0) buf_addc(&line, ' ');
    quote_argument(&line, argv[i]);
  }
  wchar_t *command = to_wide(line.data);
  free(line.data);
  STARTUPINFOW startup;
  ZeroMemory(&startup, sizeof startup);
  startup.cb = sizeof startup;
  startup.dwFlags = STARTF_USESTDHANDLES;
  startup.hStdInput = io->in;
  startup.hStdOutput = io->out;
  startup.hStdError = io->err;
  PROCESS_INFORMATION process;
  BOOL started = CreateProcessW(application, command, NULL, NULL, TRUE, 0, NULL, NULL, &startup, &process);
  DWORD error = GetLastError();
  free(command);
  free(application);
  if (!started) {
    int missing = error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND;
    complain(io, missing ? "wsh: %s: not found" : "wsh: %s: cannot run", argv[0]);
    return missing ? 127 : 126;
  }
  DWORD code = 0;
  if (wait) {
    WaitForSingleObject(process.hProcess, INFINITE);
    GetExitCodeProcess(process.hProcess, &code);
  }
  CloseHandle(process.hThread);
  CloseHandle(process.hProcess);
  return (int)code;
}

/* ---- the script ------------------------------------------------------------------ */

enum kind { T_WORD, T_SEPARATOR, T_AND, T_OR, T_REDIRECT, T_END, T_BAD };

struct token {
  enum kind kind;
  char *text;     /* T_WORD: the word; T_BAD: the message */
  int fd;         /* T_REDIRECT: 0, 1 or 2 */
  int append;     /* T_REDIRECT: >> */
  int duplicate;  /* T_REDIRECT: >&N gives N, else -1 (the target is the next word) */
};

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static int ends_word(char c) { return !c || is_blank(c) || strchr(";&|<>\n", c); }

/* A run of backslashes: before '"' 2n stand for n (and the quote counts), 2n+1 for n and a
   literal quote; elsewhere they are literal. */
static const char *read_backslashes(const char *p, struct buf *word, int *quote_counts) {
  size_t n = 0;
  while (p[n] == '\\') n++;
  *quote_counts = 0;
  if (p[n] != '"') {
    buf_add(word, p, n);
    return p + n;
  }
  for (size_t i = 0; i < n / 2; i++) buf_addc(word, '\\');
  if (n % 2) {
    buf_addc(word, '"');
    return p + n + 1;
  }
  *quote_counts = 1;
  return p + n;
}

static const char *read_word(const char *p, struct token *t) {
  struct buf word = {0};
  int in_quotes = 0;
  while (*p && (in_quotes || !ends_word(*p))) {
    int quote_counts = 1;
    if (*p == '\\') p = read_backslashes(p, &word, &quote_counts);
    if (!quote_counts) continue;
    if (*p == '"') {
      in_quotes = !in_quotes;
      p++;
    } else if (*p == '\'' && !in_quotes) {
      const char *close = strchr(p + 1, '\'');
      if (!close) break;
      buf_add(&word, p + 1, close - p - 1);
      p = close + 1;
    } else if (*p) {
      buf_addc(&word, *p++);
    }
  }
  if (in_quotes || *p == '\'') {
    t->kind = T_BAD;
    t->text = "unterminated quoted string";
    free(word.data);
    return p + strlen(p);
  }
  t->kind = T_WORD;
  t->text = buf_take(&word);
  return p;
}

static const char *read_redirect(const char *p, struct token *t) {
  t->kind = T_REDIRECT;
  t->fd = *p == '<' ? 0 : 1;
  if (*p >= '0' && *p <= '2') t->fd = *p++ - '0';
  t->append = p[0] == '>' && p[1] == '>';
  p += 1 + t->append;
  t->duplicate = -1;
  if (*p == '&' && p[1] >= '0' && p[1] <= '2') {
    t->duplicate = p[1] - '0';
    p += 2;
  }
  return p;
}

/* The next token from p; *p_out is where the one after it starts. */
static struct token next_token(const char *p, const char **p_out) {
  struct token t = {T_END, NULL, 0, 0, -1};
  while (is_blank(*p)) p++;
  if (*p == '#') {
    while (*p && *p != '\n') p++;
  }
  if (!*p) {
    *p_out = p;
    return t;
  }
  if (*p == ';' || *p == '\n') {
    t.kind = T_SEPARATOR;
    *p_out = p + 1;
  } else if ((p[0] == '&' && p[1] == '&') || (p[0] == '|' && p[1] == '|')) {
    t.kind = *p == '&' ? T_AND : T_OR;
    *p_out = p + 2;
  } else if (*p == '&' || *p == '|') {
    t.kind = T_BAD;
    t.text = *p == '&' ? "background commands are not supported" : "pipes are not supported";
    *p_out = p + 1;
  } else if (*p == '<' || *p == '>' || (*p >= '0' && *p <= '2' && (p[1] == '>' || p[1] == '<'))) {
    *p_out = read_redirect(p, &t);
  } else {
    *p_out = read_word(p, &t);
  }
  return t;
}

struct command {
  char **argv;
  int argc;
  struct io io;
  HANDLE opened[3];
};

static void close_command(struct command *c) {
  for (int i = 0; i < c->argc; i++) free(c->argv[i]);
  free(c->argv);
  for (int fd = 0; fd < 3; fd++)
    if (c->opened[fd]) CloseHandle(c->opened[fd]);
}

static HANDLE *io_slot(struct io *io, int fd) { return fd == 0 ? &io->in : fd == 1 ? &io->out : &io->err; }

/* Applies one redirection whose target is the word `target` (NULL for >&N). */
static int redirect(struct command *c, struct token *r, const char *target, struct io *shell) {
  HANDLE *slot = io_slot(&c->io, r->fd);
  if (r->duplicate >= 0) {
    *slot = *io_slot(&c->io, r->duplicate);
    return 1;
  }
  HANDLE h = r->fd == 0 ? open_file(target, GENERIC_READ, OPEN_EXISTING)
             : r->append ? open_file(target, FILE_APPEND_DATA, OPEN_ALWAYS)
                         : open_file(target, GENERIC_WRITE, CREATE_ALWAYS);
  if (h == INVALID_HANDLE_VALUE) {
    complain(shell, r->fd == 0 ? "wsh: cannot open %s: No such file" : "wsh: cannot create %s: Directory nonexistent",
             target);
    return 0;
  }
  if (c->opened[r->fd]) CloseHandle(c->opened[r->fd]);
  c->opened[r->fd] = *slot = h;
  return 1;
}

/* Reads one command (words and redirections) up to an operator, which it returns. A
   redirection's file is opened only when `run` is set. Returns T_BAD with a message on error. */
static struct token read_command(const char **p, struct command *c, struct io *shell, int run, int *failed) {
  for (;;) {
    struct token t = next_token(*p, p);
    if (t.kind == T_WORD) {
      c->argv = xrealloc(c->argv, (c->argc + 2) * sizeof(char *));
      c->argv[c->argc++] = t.text;
      c->argv[c->argc] = NULL;
      continue;
    }
    if (t.kind != T_REDIRECT) return t;
    struct token target = {T_WORD, NULL, 0, 0, -1};
    if (t.duplicate < 0) {
      target = next_token(*p, p);
      if (target.kind != T_WORD) {
        target.kind = T_BAD;
        target.text = "redirection without a file";
        return target;
      }
    }
    if (run && !*failed && !redirect(c, &t, target.text, shell)) *failed = 1;
    free(target.text);
  }
}

static int run_command(struct command *c) {
  if (c->argc == 0) return 0;
  const struct applet *applet = find_applet(c->argv[0]);
  if (applet) return applet->run(c->argc, c->argv, &c->io);
  return start_program(c->argc, c->argv, &c->io, 1);
}

/* Runs the script; a command after && runs when the last status is 0, after || when it is not. */
static int run_script(const char *script, struct io *shell) {
  int status = 0;
  enum kind before = T_SEPARATOR;
  const char *p = script;
  for (;;) {
    int run = before == T_SEPARATOR || (before == T_AND && status == 0) || (before == T_OR && status != 0);
    int failed = 0;
    struct command c = {NULL, 0, *shell, {NULL, NULL, NULL}};
    struct token end = read_command(&p, &c, shell, run, &failed);
    if (end.kind == T_BAD) {
      complain(shell, "wsh: syntax error: %s", end.text);
      close_command(&c);
      return 2;
    }
    if (run) status = failed ? 2 : run_command(&c);
    close_command(&c);
    if (exiting || end.kind == T_END) return status;
    before = end.kind;
  }
}

/* The command line after the program's own name when that name is "wsh", else all of it. */
static char *script_of(const char *line) {
  const char *p = line;
  while (is_blank(*p)) p++;
  struct token first = next_token(p, &p);
  char name[64];
  int drop = first.kind == T_WORD && strcmp(command_name(first.text, name, sizeof name), "wsh") == 0;
  if (first.kind == T_WORD) free(first.text);
  return _strdup(drop ? p : line);
}

int main(void) {
  struct io shell = {GetStdHandle(STD_INPUT_HANDLE), GetStdHandle(STD_OUTPUT_HANDLE),
                     GetStdHandle(STD_ERROR_HANDLE)};
  char *line = to_utf8(GetCommandLineW());
  char *script = script_of(line);
  int status = run_script(script, &shell);
  free(script);
  free(line);
  ExitProcess((UINT)status);
}

/* fakecl: a stand-in for cl.exe in ronin's Windows tests (deps = msvc, -t msvc).

   fakecl [/nologo] [/showIncludes] [/prefix:TEXT] [/IDIR]... /c SOURCE /FoOBJECT

   Like cl.exe it prints the source file's name first, then with /showIncludes a
   line "Note: including file: " (or /prefix:TEXT, as a localized cl prints)
   for every header it opens, indented one more space per level of nesting,
   with the header's absolute path spelled as the #include line wrote it (case
   included). `#include "x"` is looked up beside the including file, then in
   each /I folder; `#include <x>` only in the /I folders. A `#warning` line
   prints a warning in cl's form; a missing header or an `#error` line fails
   the compile with cl's message; otherwise OBJECT is
   written (the source's text followed by its headers', so it changes with
   them). Every #include is followed each time: there are no include guards.
   Paths are UTF-8 whatever the code page (the command line is read as UTF-16,
   files are opened through the wide API) and may be longer than MAX_PATH
   (the long ones are opened as absolute "\\?\" paths), as cl.exe takes them.

   Build: x86_64-w64-mingw32-gcc -O2 -Wall -Wextra -o fakecl.exe fakecl.c (wine.py does). */
#include <windows.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIRS 32
#define MAX_DEPTH 16
#define PATH_CHARS 4096 /* longer than MAX_PATH: long paths work */

struct options {
  const char *prefix;
  int show_includes;
  const char *dirs[MAX_DIRS];
  int dir_count;
  const char *source, *object;
};

struct output {
  char *data;
  size_t len, cap;
};

static void out_add(struct output *o, const char *s, size_t n) {
  if (o->len + n + 1 > o->cap) {
    o->cap = (o->len + n + 1) * 2;
    o->data = realloc(o->data, o->cap);
    if (!o->data) exit(125);
  }
  memcpy(o->data + o->len, s, n);
  o->len += n;
  o->data[o->len] = '\0';
}

static char *to_utf8(const wchar_t *w) {
  int n = WideCharToMultiByte(CP_UTF8, 0, w, -1, NULL, 0, NULL, NULL);
  char *s = malloc(n);
  if (!s) exit(125);
  WideCharToMultiByte(CP_UTF8, 0, w, -1, s, n, NULL, NULL);
  return s;
}

/* `path` (UTF-8) for the wide API: absolute with "\\?\" when long. The caller frees it. */
static wchar_t *wide_path(const char *path) {
  static wchar_t text[PATH_CHARS], full[PATH_CHARS];
  MultiByteToWideChar(CP_UTF8, 0, path, -1, text, PATH_CHARS);
  DWORD n = GetFullPathNameW(text, PATH_CHARS, full, NULL);
  int is_long = n >= MAX_PATH - 12 && n < PATH_CHARS && wcsncmp(full, L"\\\\", 2) != 0;
  wchar_t *w = malloc((PATH_CHARS + 4) * sizeof(wchar_t));
  if (!w) exit(125);
  swprintf(w, PATH_CHARS + 4, L"%ls%ls", is_long ? L"\\\\?\\" : L"", is_long ? full : text);
  return w;
}

static FILE *open_file(const char *path, const wchar_t *mode) {
  wchar_t *w = wide_path(path);
  FILE *f = _wfopen(w, mode);
  free(w);
  return f;
}

static char *read_file(const char *path) {
  FILE *f = open_file(path, L"rb");
  if (!f) return NULL;
  struct output text = {0};
  char chunk[65536];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) out_add(&text, chunk, got);
  fclose(f);
  out_add(&text, "", 0);
  return text.data;
}

static int exists(const char *path) {
  wchar_t *w = wide_path(path);
  DWORD attributes = GetFileAttributesW(w);
  free(w);
  return attributes != INVALID_FILE_ATTRIBUTES && !(attributes & FILE_ATTRIBUTE_DIRECTORY);
}

/* dir + '\' + name, or name alone when dir is empty. */
static void join(char *out, size_t size, const char *dir, const char *name) {
  if (*dir)
    snprintf(out, size, "%s\\%s", dir, name);
  else
    snprintf(out, size, "%s", name);
}

static void directory_of(const char *path, char *out, size_t size) {
  snprintf(out, size, "%s", path);
  char *cut = out;
  for (char *p = out; *p; p++)
    if (*p == '/' || *p == '\\') cut = p;
  *cut = '\0';
}

/* Where an #include finds its header, or 0. */
static int find_header(const struct options *opt, const char *includer, const char *name, int quoted,
                       char *found, size_t size) {
  if (quoted) {
    char dir[PATH_CHARS];
    directory_of(includer, dir, sizeof dir);
    join(found, size, dir, name);
    if (exists(found)) return 1;
  }
  for (int i = 0; i < opt->dir_count; i++) {
    join(found, size, opt->dirs[i], name);
    if (exists(found)) return 1;
  }
  return 0;
}

static int compile(const struct options *opt, const char *path, int depth, struct output *object);

/* One `#include` line: the header's name between "" or <>. Returns 0 on failure. */
static int include(const struct options *opt, const char *path, int line, const char *rest, int depth,
                   struct output *object) {
  while (*rest == ' ' || *rest == '\t') rest++;
  char close = *rest == '"' ? '"' : *rest == '<' ? '>' : 0;
  const char *end = close ? strchr(rest + 1, close) : NULL;
  if (!end) {
    printf("%s(%d): fatal error C1083: Cannot open include file: '': No such file or directory\n", path, line);
    return 0;
  }
  char name[PATH_CHARS], found[PATH_CHARS];
  snprintf(name, sizeof name, "%.*s", (int)(end - rest - 1), rest + 1);
  if (!find_header(opt, path, name, close == '"', found, sizeof found)) {
    printf("%s(%d): fatal error C1083: Cannot open include file: '%s': No such file or directory\n", path, line,
           name);
    return 0;
  }
  static wchar_t wide[PATH_CHARS], full[PATH_CHARS];
  MultiByteToWideChar(CP_UTF8, 0, found, -1, wide, PATH_CHARS);
  GetFullPathNameW(wide, PATH_CHARS, full, NULL);
  char *absolute = to_utf8(full);
  if (opt->show_includes) printf("%s %*s%s\n", opt->prefix, depth - 1, "", absolute);
  free(absolute);
  return compile(opt, found, depth + 1, object);
}

/* Reads `path`, following its #include lines; appends its text to the object. */
static int compile(const struct options *opt, const char *path, int depth, struct output *object) {
  char *text = read_file(path);
  if (!text || depth > MAX_DEPTH) {
    printf("%s: fatal error C1083: Cannot open source file: '%s'\n", path, path);
    free(text);
    return 0;
  }
  out_add(object, text, strlen(text));
  int ok = 1, line = 1;
  for (char *p = text; ok && *p; line++) {
    char *eol = strchr(p, '\n');
    if (eol) *eol = '\0';
    if (strncmp(p, "#include", 8) == 0) ok = include(opt, path, line, p + 8, depth, object);
    if (strncmp(p, "#warning", 8) == 0)
      printf("%s(%d): warning C4996: %s\n", path, line, p + 8 + strspn(p + 8, " "));
    if (strncmp(p, "#error", 6) == 0) {
      printf("%s(%d): fatal error C1189: #error: %s\n", path, line, p + 6 + strspn(p + 6, " "));
      ok = 0;
    }
    p = eol ? eol + 1 : p + strlen(p);
  }
  free(text);
  return ok;
}

static const char *base_name(const char *path) {
  const char *base = path;
  for (const char *p = path; *p; p++)
    if (*p == '/' || *p == '\\') base = p + 1;
  return base;
}

static int parse_options(int argc, char **argv, struct options *opt) {
  opt->prefix = "Note: including file:";
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "/nologo") == 0 || strcmp(a, "/c") == 0) continue;
    if (strcmp(a, "/showIncludes") == 0) {
      opt->show_includes = 1;
    } else if (strncmp(a, "/prefix:", 8) == 0) {
      opt->prefix = a + 8;
    } else if (strncmp(a, "/I", 2) == 0 && opt->dir_count < MAX_DIRS) {
      opt->dirs[opt->dir_count++] = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : "");
    } else if (strncmp(a, "/Fo", 3) == 0) {
      opt->object = a + 3;
    } else if (a[0] == '/' || a[0] == '-') {
      fprintf(stderr, "fakecl: unknown option '%s'\n", a);
      return 0;
    } else {
      opt->source = a;
    }
  }
  if (!opt->source || !opt->object) fprintf(stderr, "fakecl: usage: fakecl [/showIncludes] /c SOURCE /FoOBJECT\n");
  return opt->source && opt->object;
}

int main(void) {
  int argc;
  wchar_t **wide = CommandLineToArgvW(GetCommandLineW(), &argc);
  char **argv = malloc((argc + 1) * sizeof(char *));
  if (!wide || !argv) return 125;
  for (int i = 0; i < argc; i++) argv[i] = to_utf8(wide[i]);
  argv[argc] = NULL;
  struct options opt = {0};
  if (!parse_options(argc, argv, &opt)) return 2;
  printf("%s\n", base_name(opt.source));
  struct output object = {0};
  int ok = compile(&opt, opt.source, 1, &object);
  fflush(stdout);
  if (!ok) return 2;
  FILE *f = open_file(opt.object, L"wb");
  if (!f) {
    printf("fakecl: cannot write '%s'\n", opt.object);
    return 2;
  }
  fwrite(object.data, 1, object.len, f);
  fclose(f);
  return 0;
}

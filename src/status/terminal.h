// The terminal (or Windows console) ninja's stdout may be: whether status
// lines may be rewritten in place, its size, colours. POSIX in
// terminal_posix.cc (isatty, TIOCGWINSZ), Windows in terminal_win.cc (the
// console API, as ninja.exe uses it).
#ifndef RONIN_STATUS_TERMINAL_H_
#define RONIN_STATUS_TERMINAL_H_

#include <string>

namespace ronin {

// Whether stdout is a terminal at all (a pipe or a file is not).
bool StdoutIsTerminal();
// Whether status lines may overwrite each other there: a terminal, and
// TERM is not "dumb".
bool StdoutIsSmartTerminal();
// Makes the terminal interpret ANSI escape sequences (colours, erasing the
// rest of a line): a Windows console must be asked to (virtual-terminal
// processing). False if it refuses, which leaves WriteStatusInPlace as the
// way to rewrite a line.
bool EnableAnsiEscapes();

struct TerminalSize {
  int columns = 0;
  int rows = 0;
};
// stdout's terminal size; false if unknown (not a terminal). On Windows the
// columns are the console buffer's width, as ninja.exe elides to.
bool StdoutTerminalSize(TerminalSize* size);

// Writes `line` over the terminal's current line without escape sequences
// and without moving the cursor (a Windows console without virtual-terminal
// processing, as ninja.exe does it). False where there is no such way.
bool WriteStatusInPlace(const std::string& line);

// While one lives, stdout writes bytes as they are. Windows' stdout writes
// each "\n" as "\r\n" (ninja.exe's own lines end so); a command's output
// keeps its own line ends, so it is written through one of these, as
// ninja.exe does. Nothing to do on POSIX.
class StdoutBytesAsIs {
 public:
  StdoutBytesAsIs();
  ~StdoutBytesAsIs();
  StdoutBytesAsIs(const StdoutBytesAsIs&) = delete;
  StdoutBytesAsIs& operator=(const StdoutBytesAsIs&) = delete;
};

}  // namespace ronin

#endif  // RONIN_STATUS_TERMINAL_H_

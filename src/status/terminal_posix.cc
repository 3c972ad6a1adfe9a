// terminal.h on POSIX.
#include "status/terminal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

namespace ronin {

bool StdoutIsTerminal() { return isatty(STDOUT_FILENO); }

bool StdoutIsSmartTerminal() {
  const char* term = getenv("TERM");
  return isatty(STDOUT_FILENO) && term && strcmp(term, "dumb") != 0;
}

bool EnableAnsiEscapes() { return true; }

bool StdoutTerminalSize(TerminalSize* size) {
  winsize window;
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &window) != 0) return false;
  size->columns = window.ws_col;
  size->rows = window.ws_row;
  return true;
}

bool WriteStatusInPlace(const std::string&) { return false; }

StdoutBytesAsIs::StdoutBytesAsIs() = default;
StdoutBytesAsIs::~StdoutBytesAsIs() = default;

}  // namespace ronin

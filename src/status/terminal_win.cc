// terminal.h on Windows: a console is what GetConsoleScreenBufferInfo
// accepts (TERM=dumb still says no, as in ninja.exe); colours need
// virtual-terminal processing, and without it a status line is written
// into the console buffer in place.
#include "status/terminal.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "base/win32.h"

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x4
#endif

namespace ronin {

namespace {

HANDLE Console() { return GetStdHandle(STD_OUTPUT_HANDLE); }

}  // namespace

bool StdoutIsTerminal() {
  CONSOLE_SCREEN_BUFFER_INFO info;
  return GetConsoleScreenBufferInfo(Console(), &info);
}

bool StdoutIsSmartTerminal() {
  const char* term = getenv("TERM");
  if (term && strcmp(term, "dumb") == 0) return false;
  return StdoutIsTerminal();
}

bool EnableAnsiEscapes() {
  DWORD mode;
  if (!GetConsoleMode(Console(), &mode)) return true;  // as ninja.exe: nothing to refuse
  return SetConsoleMode(Console(), mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING);
}

bool StdoutTerminalSize(TerminalSize* size) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (!GetConsoleScreenBufferInfo(Console(), &info)) return false;
  size->columns = info.dwSize.X;
  size->rows = info.srWindow.Bottom - info.srWindow.Top + 1;
  return true;
}

bool WriteStatusInPlace(const std::string& line) {
  CONSOLE_SCREEN_BUFFER_INFO info;
  if (!GetConsoleScreenBufferInfo(Console(), &info)) return false;
  // One row of the buffer from the cursor on: the line, then blanks, in
  // the console's current colours; the cursor stays where it is.
  SHORT width = info.dwSize.X;
  std::vector<CHAR_INFO> cells(width > 0 ? width : 1);
  for (SHORT i = 0; i < width; ++i) {
    cells[i].Char.AsciiChar = static_cast<size_t>(i) < line.size() ? line[i] : ' ';
    cells[i].Attributes = info.wAttributes;
  }
  COORD size = {width, 1};
  COORD origin = {0, 0};
  SMALL_RECT target = {info.dwCursorPosition.X, info.dwCursorPosition.Y,
                       static_cast<SHORT>(info.dwCursorPosition.X + width - 1), info.dwCursorPosition.Y};
  WriteConsoleOutputA(Console(), cells.data(), size, origin, &target);
  return true;
}

StdoutBytesAsIs::StdoutBytesAsIs() {
  fflush(stdout);
  _setmode(_fileno(stdout), _O_BINARY);
}

StdoutBytesAsIs::~StdoutBytesAsIs() {
  fflush(stdout);
  _setmode(_fileno(stdout), _O_TEXT);
}

}  // namespace ronin

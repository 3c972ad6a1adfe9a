#include "status/line_printer.h"

#include <stdio.h>
#include <stdlib.h>

#include <vector>

#include "base/util.h"
#include "status/terminal.h"

namespace ronin {

std::string ElideMiddle(std::string_view text, size_t width) {
  // No more bytes than columns: no more visible characters either.
  if (text.size() <= width) return std::string(text);
  // Split into visible characters and zero-width escape sequences.
  std::vector<size_t> visible;  // byte offsets of visible characters
  visible.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    size_t escape = AnsiEscapeLength(text, i);
    if (escape) {
      i += escape;
      continue;
    }
    visible.push_back(i);
    ++i;
  }
  if (visible.size() <= width) return std::string(text);
  if (width < 3) return std::string(width, '.');

  // Keep the start and the (slightly longer) end around "...". Escapes in
  // the dropped middle are kept so colours stay balanced.
  size_t keep_prefix = (width - 3) / 2;
  size_t keep_suffix = width - 3 - keep_prefix;
  // The kept start ends right after its last visible character, so an
  // escape sequence that follows it lands after the dots.
  size_t prefix_end = keep_prefix ? visible[keep_prefix - 1] + 1 : 0;
  size_t suffix_begin = keep_suffix ? visible[visible.size() - keep_suffix] : text.size();
  std::string result(text.substr(0, prefix_end));
  result += "...";
  for (size_t i = prefix_end; i < suffix_begin;) {
    size_t escape = AnsiEscapeLength(text, i);
    if (escape) {
      result.append(text.substr(i, escape));
      i += escape;
    } else {
      ++i;
    }
  }
  result.append(text.substr(suffix_begin));
  return result;
}

LinePrinter::LinePrinter() {
  smart_terminal_ = StdoutIsSmartTerminal();
  // A Windows console shows colours once asked to; if it refuses, status
  // lines are written into it in place instead (WriteStatusInPlace).
  supports_color_ = smart_terminal_ && EnableAnsiEscapes();
  if (!supports_color_) {
    const char* force = getenv("CLICOLOR_FORCE");
    supports_color_ = force && std::string_view(force) != "0";
  }
}

void LinePrinter::Print(std::string text, LineType type) {
  if (console_locked_) {
    line_buffer_ = std::move(text);
    line_type_ = type;
    return;
  }
  if (smart_terminal_) printf("\r");  // over the previous status line
  if (smart_terminal_ && type == ELIDE) {
    TerminalSize size;
    if (StdoutTerminalSize(&size) && size.columns) text = ElideMiddle(text, size.columns);
    if (supports_color_ || !WriteStatusInPlace(text)) {
      printf("%s", text.c_str());
      printf("\x1B[K");  // clear to the end of the line
      fflush(stdout);
    }
    have_blank_line_ = false;
  } else {
    printf("%s\n", text.c_str());
    fflush(stdout);
  }
}

void LinePrinter::PrintOrBuffer(const char* data, size_t size) {
  if (console_locked_) {
    output_buffer_.append(data, size);
  } else {
    fwrite(data, 1, size, stdout);
  }
}

void LinePrinter::PrintOnNewLine(const std::string& text) {
  if (console_locked_ && !line_buffer_.empty()) {
    output_buffer_.append(line_buffer_);
    output_buffer_.append(1, '\n');
    line_buffer_.clear();
  }
  if (before_new_line_ && !console_locked_ && (!have_blank_line_ || !text.empty())) before_new_line_();
  if (!have_blank_line_) PrintOrBuffer("\n", 1);
  if (!text.empty()) PrintOrBuffer(text.data(), text.size());
  have_blank_line_ = text.empty() || text.back() == '\n';
}

void LinePrinter::SetConsoleLocked(bool locked) {
  if (locked == console_locked_) return;
  if (locked) PrintOnNewLine("");
  console_locked_ = locked;
  if (!locked) {
    PrintOnNewLine(output_buffer_);
    if (!line_buffer_.empty()) Print(line_buffer_, line_type_);
    output_buffer_.clear();
    line_buffer_.clear();
  }
}

}  // namespace ronin

// Prints status lines: on a smart terminal one line rewritten in place
// (elided to the terminal width), elsewhere one line per message. While a
// console-pool job owns the terminal, everything is buffered.
#ifndef RONIN_STATUS_LINE_PRINTER_H_
#define RONIN_STATUS_LINE_PRINTER_H_

#include <functional>
#include <string>
#include <string_view>

namespace ronin {

// Elides the middle of `text` with "..." so it is at most `width` visible
// columns; ANSI escape sequences take no columns and are kept.
std::string ElideMiddle(std::string_view text, size_t width);

class LinePrinter {
 public:
  LinePrinter();

  bool is_smart_terminal() const { return smart_terminal_; }
  void set_smart_terminal(bool smart) { smart_terminal_ = smart; }
  bool supports_color() const { return supports_color_; }

  enum LineType { FULL, ELIDE };
  // A status line: overwrites the previous one on a smart terminal.
  void Print(std::string text, LineType type);
  // Output that must start on a fresh line (command output, errors).
  void PrintOnNewLine(const std::string& text);
  // While locked (a console job runs), output is held back.
  void SetConsoleLocked(bool locked);
  // Runs before PrintOnNewLine writes to the terminal (a view drawn below
  // the status line erases itself there).
  void SetBeforeNewLine(std::function<void()> hook) { before_new_line_ = std::move(hook); }
  // Whether the last thing printed is a status line still on screen (on a
  // smart terminal, nothing printed after it).
  bool status_line_shown() const { return smart_terminal_ && !console_locked_ && !have_blank_line_; }

 private:
  void PrintOrBuffer(const char* data, size_t size);

  bool smart_terminal_;
  bool supports_color_;
  bool have_blank_line_ = true;
  bool console_locked_ = false;
  std::string line_buffer_;
  LineType line_type_ = FULL;
  std::string output_buffer_;
  std::function<void()> before_new_line_;
};

}  // namespace ronin

#endif  // RONIN_STATUS_LINE_PRINTER_H_

#include "status/status_format.h"

#include "graph/lexer.h"

namespace ronin {

bool PercentField(char letter, StatusField* field) {
  switch (letter) {
    case 's': *field = StatusField::kStarted; return true;
    case 't': *field = StatusField::kTotal; return true;
    case 'p': *field = StatusField::kProgress; return true;
    case 'r': *field = StatusField::kRunning; return true;
    case 'u': *field = StatusField::kRemaining; return true;
    case 'f': *field = StatusField::kFinished; return true;
    case 'o': *field = StatusField::kRate; return true;
    case 'c': *field = StatusField::kCurrentRate; return true;
    case 'e': *field = StatusField::kElapsedSeconds; return true;
    case 'E': *field = StatusField::kEtaSeconds; return true;
    case 'w': *field = StatusField::kElapsed; return true;
    case 'W': *field = StatusField::kEta; return true;
    case 'P': *field = StatusField::kPredictedProgress; return true;
    case 'C': *field = StatusField::kCacheHits; return true;
  }
  return false;
}

bool VariableField(std::string_view name, StatusField* field) {
  static const struct {
    const char* name;
    StatusField field;
  } kVariables[] = {
      {"started", StatusField::kStarted},
      {"total", StatusField::kTotal},
      {"progress", StatusField::kProgress},
      {"running", StatusField::kRunning},
      {"remaining", StatusField::kRemaining},
      {"finished", StatusField::kFinished},
      {"rate", StatusField::kRate},
      {"current_rate", StatusField::kCurrentRate},
      {"elapsed_seconds", StatusField::kElapsedSeconds},
      {"eta_seconds", StatusField::kEtaSeconds},
      {"elapsed", StatusField::kElapsed},
      {"eta", StatusField::kEta},
      {"predicted_progress", StatusField::kPredictedProgress},
      {"description", StatusField::kDescription},
  };
  for (const auto& variable : kVariables) {
    if (name == variable.name) {
      *field = variable.field;
      return true;
    }
  }
  return false;
}

bool StatusFormat::Parse(const std::string& format, std::string* err) {
  // Lexed as the value of a manifest variable, a line of its own.
  text_ = format + "\n";
  eval_.Clear();
  Lexer lexer("--status", text_);
  lexer.SetNewlineEscape(Lexer::NewlineEscape::kNeedsVersion);  // a 1.14 flag: 1.14's message
  std::string lex_err;
  if (!lexer.ReadVarValue(&eval_, &lex_err)) {
    *err = "invalid --status: " + lex_err;
    return false;
  }
  return true;
}

}  // namespace ronin

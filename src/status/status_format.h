// The status line's format: NINJA_STATUS's %-placeholders, or Ninja 1.14's
// `--status FMT` with $variables. Both name the same counters and times
// (StatusField); the printer (status.h) says what each one is worth.
#ifndef RONIN_STATUS_STATUS_FORMAT_H_
#define RONIN_STATUS_STATUS_FORMAT_H_

#include <string>
#include <string_view>

#include "graph/eval.h"

namespace ronin {

// What a placeholder or variable shows (NINJA_STATUS letter, --status name).
enum class StatusField {
  kStarted,            // %s $started
  kTotal,              // %t $total
  kProgress,           // %p $progress: finished edges, "%3i%%"
  kRunning,            // %r $running
  kRemaining,          // %u $remaining: not yet started
  kFinished,           // %f $finished
  kRate,               // %o $rate: finished per second overall
  kCurrentRate,        // %c $current_rate: over the last -j finishes
  kElapsedSeconds,     // %e $elapsed_seconds
  kEtaSeconds,         // %E $eta_seconds
  kElapsed,            // %w $elapsed: [h:]mm:ss
  kEta,                // %W $eta
  kPredictedProgress,  // %P $predicted_progress: by time
  kCacheHits,          // %C (ronin, with --cache): hits/lookups
  kDescription,        // $description (--status only)
};

// The field of NINJA_STATUS letter `letter`; false if it names none.
bool PercentField(char letter, StatusField* field);
// The field of --status variable `name`; false if it names none.
bool VariableField(std::string_view name, StatusField* field);

// A parsed --status format. Ninja reads it as a variable's value in a
// manifest (so `$$`, `$ `, `$:` and `${name}` work, and it ends at the first
// newline); a lexing error is reported as Ninja 1.14 does. An unknown
// variable is only found when a status line is first formatted, again as
// in Ninja.
class StatusFormat {
 public:
  StatusFormat() = default;
  StatusFormat(const StatusFormat&) = delete;  // eval_ points into text_
  StatusFormat& operator=(const StatusFormat&) = delete;
  // False with Ninja's message ("invalid --status: --status:1: ...") in *err.
  bool Parse(const std::string& format, std::string* err);
  const EvalString& eval() const { return eval_; }

 private:
  std::string text_;  // what eval_'s segments point into
  EvalString eval_;
};

}  // namespace ronin

#endif  // RONIN_STATUS_STATUS_FORMAT_H_

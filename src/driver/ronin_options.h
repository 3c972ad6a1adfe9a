// ronin's own options: long options that Ninja does not have. Each is
// accepted on the command line and through the RONIN_FLAGS environment
// variable (read first, so the command line wins), and listed in the
// "ronin options" block of `ninja -h`. Adding one is a row in the table in
// driver/ronin_options.cc and a field in RoninOptions (base/build_config.h); doc/manual.md documents each.
#ifndef RONIN_DRIVER_RONIN_OPTIONS_H_
#define RONIN_DRIVER_RONIN_OPTIONS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "base/build_config.h"

namespace ronin {


// One ronin option: its name (without "--"), the name of its value for -h
// (nullptr: no value; "a|b" in lowercase lists the values it takes, which the
// shell completions offer), whether the value may be left out, a line of help,
// and what it does to the configuration. `apply` gets nullptr for a
// missing optional value and says what is wrong in *err.
struct RoninOptionSpec {
  const char* name;
  const char* value_name;
  bool value_optional;
  const char* help;
  bool (*apply)(const char* value, BuildConfig* config, std::string* err);
};

// Every ronin option, in the order -h lists them.
const std::vector<RoninOptionSpec>& RoninOptionTable();

// The "ronin options" block printed at the end of `ninja -h`.
std::string RoninOptionsUsage();

// Parses a size with an optional K, M or G suffix (powers of 1024) into
// bytes. False for anything else ("lots", "", "-1", "5X", overflow).
bool ParseSize(const char* text, int64_t* bytes);

// Whether `word`, after an option whose value is optional (--cache), is
// that value rather than a target: an http:// URL, or a path that starts
// with '/', './' or '../'. (`--cache=VALUE` always works.)
bool IsSeparateOptionalValue(const char* word);

// Whether a command-line word that is no option getopt knows was meant as
// one of ronin's: "--NAME" or "--NAME=..." with NAME one of theirs or a
// near miss (within Ninja's spelling-suggestion distance).
bool MeantAsRoninOption(const char* word);

// Splits RONIN_FLAGS' value into words on white space.
std::vector<std::string> SplitFlagWords(const char* text);

}  // namespace ronin

#endif  // RONIN_DRIVER_RONIN_OPTIONS_H_

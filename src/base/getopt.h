// Command-line options, parsed as Ninja parses them on each platform. On
// POSIX that is the C library's getopt_long (getopt_posix.cc). ninja.exe
// carries a getopt of its own, whose rules getopt_win.cc follows, since its
// answers and messages are what ninja.exe users see:
// * "PROG: invalid option -- `-x'" and "PROG: argument required for option
//   `-j'" (returning ':'), "PROG: option `--ve' is ambiguous (could be
//   `--version' or `--verbose')";
// * a short option's argument may follow '=' ("-j=4"); a word starting with
//   "--" that names no long option is read as short options from its third
//   character ("--foo" is "-f oo");
// * non-options are moved after the options (unless the option string
//   starts with '+' or POSIXLY_CORRECT is set), but those before a word of
//   several short options ("x -nv") are stepped over, not kept;
// * a lone "-" is option 0, with no message.
// Both use the C library's optind, optarg, opterr and optopt; optind = 0
// starts a new scan.
#ifndef RONIN_BASE_GETOPT_H_
#define RONIN_BASE_GETOPT_H_

#include <getopt.h>

namespace ronin {

int GetoptLong(int argc, char** argv, const char* shortopts, const option* longopts);

}  // namespace ronin

#endif  // RONIN_BASE_GETOPT_H_

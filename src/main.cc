// The `ninja` command: flags, then the load / regenerate / build loop.
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "base/getopt.h"
#include "base/metrics.h"
#include "base/util.h"
#include "base/version.h"
#include "driver/ninja_main.h"
#include "driver/question.h"
#include "driver/watch_loop.h"
#include "events/event_stream.h"
#include "driver/ronin_options.h"
#include "exec/job_reaper.h"
#include "graph/manifest_parser.h"
#include "image/graph_loader.h"
#include "scan/prefetch.h"
#include "status/live_status.h"
#include "status/terminal.h"
#include "tools/tools.h"

namespace ronin {
namespace {

int GuessParallelism() {
  int processors = GetProcessorCount();
  if (processors <= 1) return 2;
  if (processors == 2) return 3;
  return processors + 2;
}

// The ronin block is shown when help was asked for; after a bad flag the
// text is exactly Ninja's.
void Usage(const BuildConfig& config, bool with_ronin_options) {
  fprintf(stderr,
          "usage: ninja [options] [targets...]\n"
          "\n"
          "if targets are unspecified, builds the 'default' target (see manual).\n"
          "\n"
          "options:\n"
          "  --version      print ninja version (\"%s\")\n"
          "  -v, --verbose  show all command lines while building\n"
          "  --quiet        don't show progress status, just command output\n"
          "\n"
          "  -C DIR   change to DIR before doing anything else\n"
          "  -f FILE  specify input build file [default=build.ninja]\n"
          "\n"
          "  -j N     run N jobs in parallel (0 means infinity) [default=%d on this system]\n"
          "  -k N     keep going until N jobs fail (0 means infinity) [default=1]\n"
          "  -l N     do not start new jobs if the load average is greater than N\n"
          "  -n       dry run (don't run commands but act like they succeeded)\n"
          "\n"
          "  -d MODE  enable debugging (use '-d list' to list modes)\n"
          "  -t TOOL  run a subtool (use '-t list' to list subtools)\n"
          "    terminates toplevel options; further flags are passed to the tool\n"
          "  -w FLAG  adjust warnings (use '-w list' to list warnings)\n"
          "%s",
          kNinjaVersion, config.parallelism,
          with_ronin_options ? RoninOptionsUsage().c_str() : "");
}

// Where a flag came from: RONIN_FLAGS takes options only (no targets, and
// none of -C, -f, -t, -h, --version or the -d and -w lists, which change
// what is built or end the run), and its errors say so.
enum class FlagSource { kCommandLine, kEnvironment };

// The "ninja: error: " message of a bad flag, naming RONIN_FLAGS when it
// came from there.
void FlagError(FlagSource source, const std::string& message) {
  if (source == FlagSource::kEnvironment) {
    Error("RONIN_FLAGS: %s", message.c_str());
  } else {
    Error("%s", message.c_str());
  }
}

// "unknown NOUN 'NAME'", with Ninja's suggestion when one is close.
std::string UnknownSetting(const char* noun, const std::string& name, const std::vector<std::string_view>& known) {
  std::string message = std::string("unknown ") + noun + " '" + name + "'";
  std::string_view suggestion = SpellcheckString(name, known);
  if (!suggestion.empty()) message += ", did you mean '" + std::string(suggestion) + "'?";
  return message;
}

// -d MODE. False to exit (list, or an unknown mode).
bool DebugEnable(const std::string& name, FlagSource source, BuildConfig* config) {
  if (name == "list") {
    printf(
        "debugging modes:\n"
        "  stats        print operation counts/timing info\n"
        "  explain      explain what caused a command to execute\n"
        "  keepdepfile  don't delete depfiles after they're read by ninja\n"
        "  keeprsp      don't delete @response files on success\n"
        "%s"
        "multiple modes can be enabled via -d FOO -d BAR\n",
        RealDiskInterface::HasStatCache() ? "  nostatcache  don't batch stat() calls per directory and cache them\n"
                                          : "");
    return false;
  }
  if (name == "stats") {
    if (!g_metrics) g_metrics = new Metrics;
    return true;
  }
  if (name == "explain") {
    config->explain = true;
    return true;
  }
  if (name == "keepdepfile") {
    config->keep_depfile = true;
    return true;
  }
  if (name == "keeprsp") {
    config->keep_rsp = true;
    return true;
  }
  if (name == "nostatcache") {  // Windows' cache; accepted everywhere
    config->stat_cache = false;
    return true;
  }
  FlagError(source, UnknownSetting("debug setting", name, {"stats", "explain", "keepdepfile", "keeprsp", "nostatcache"}));
  return false;
}

// -w FLAG. False to exit (list, or an unknown flag).
bool WarningEnable(const std::string& name, FlagSource source, Options* options) {
  if (name == "list") {
    printf("warning flags:\n  phonycycle={err,warn}  phony build statement references itself\n");
    return false;
  }
  if (name == "phonycycle=err") {
    options->phony_cycle_should_err = true;
    return true;
  }
  if (name == "phonycycle=warn") {
    options->phony_cycle_should_err = false;
    return true;
  }
  // Duplicate outputs are always errors now; the flags are accepted for old scripts.
  if (name == "dupbuild=err" || name == "dupbuild=warn") {
    Warning("deprecated warning 'dupbuild'");
    return true;
  }
  if (name == "depfilemulti=err" || name == "depfilemulti=warn") {
    Warning("deprecated warning 'depfilemulti'");
    return true;
  }
  FlagError(source,
            UnknownSetting("warning flag", name, {"dupbuild=err", "dupbuild=warn", "phonycycle=err", "phonycycle=warn"}));
  return false;
}

// Ninja's long options, then one per ronin option (driver/ronin_options.h), whose
// getopt value is kFirstRoninOption + its index in the table.
enum { kOptVersion = 1, kOptQuiet = 2, kFirstRoninOption = 1000 };
std::vector<option> LongOptions() {
  std::vector<option> options = {{"help", no_argument, nullptr, 'h'},
                                 {"version", no_argument, nullptr, kOptVersion},
                                 {"verbose", no_argument, nullptr, 'v'},
                                 {"quiet", no_argument, nullptr, kOptQuiet}};
  const std::vector<RoninOptionSpec>& table = RoninOptionTable();
  for (size_t i = 0; i < table.size(); ++i) {
    int has_arg = !table[i].value_name ? no_argument
                  : table[i].value_optional ? optional_argument
                                            : required_argument;
    options.push_back({table[i].name, has_arg, nullptr, kFirstRoninOption + static_cast<int>(i)});
  }
  options.push_back({nullptr, 0, nullptr, 0});
  return options;
}

// A bad flag: Ninja's own message on the command line; in RONIN_FLAGS a
// "ninja: error: RONIN_FLAGS: ..." naming the variable.
int BadFlag(FlagSource source, const std::string& message) {
  if (source == FlagSource::kEnvironment) {
    Error("RONIN_FLAGS: %s", message.c_str());
    return 1;
  }
  Fatal("%s", message.c_str());
}

int ApplyRoninOption(int index, FlagSource source, BuildConfig* config) {
  const RoninOptionSpec& spec = RoninOptionTable()[index];
  std::string err;
  if (spec.apply(optarg, config, &err)) return -1;
  std::string message = std::string("--") + spec.name;
  if (optarg) message += std::string("=") + optarg;
  FlagError(source, message + ": " + err);
  return 1;
}

// Flags that end the run or change what is built, which RONIN_FLAGS would
// impose on every build: -C, -f, -t, -h, --version, -d list and -w list.
bool AcceptedFromEnvironment(int opt) {
  if (opt > 0 && opt < 256 && strchr("fCth", opt)) return false;
  if (opt == kOptVersion) return false;
  return !((opt == 'd' || opt == 'w') && strcmp(optarg, "list") == 0);
}

std::string FlagName(int opt) {
  if (opt == kOptVersion) return "--version";
  std::string name = std::string("-") + static_cast<char>(opt);
  return opt == 'd' || opt == 'w' ? name + " " + optarg : name;
}

// One option. Returns an exit code, or -1 to go on.
int ApplyFlag(int opt, FlagSource source, Options* options, BuildConfig* config, bool* need_guess) {
  if (source == FlagSource::kEnvironment && !AcceptedFromEnvironment(opt))
    return BadFlag(source, FlagName(opt) + " is not accepted here");
  switch (opt) {
    case 'd':
      return DebugEnable(optarg, source, config) ? -1 : 1;
    case 'f':
      options->input_file = optarg;
      return -1;
    case 'j': {
      char* end;
      long value = strtol(optarg, &end, 10);
      if (*end != 0 || value < 0) return BadFlag(source, "invalid -j parameter");
      // -j0: as good as unlimited.
      config->parallelism = value > 0 ? static_cast<int>(std::min<long>(value, INT_MAX)) : INT_MAX;
      config->parallelism_from_cmdline = true;
      *need_guess = false;
      return -1;
    }
    case 'k': {
      char* end;
      long value = strtol(optarg, &end, 10);
      if (*end != 0) return BadFlag(source, "-k parameter not numeric; did you mean -k 0?");
      config->failures_allowed = value > 0 ? static_cast<int>(std::min<long>(value, INT_MAX)) : INT_MAX;
      return -1;
    }
    case 'l': {
      char* end;
      double value = strtod(optarg, &end);
      if (end == optarg) return BadFlag(source, "-l parameter not numeric: did you mean -l 0.0?");
      config->max_load_average = value;
      return -1;
    }
    case 'n':
      config->dry_run = true;
      return -1;
    case 't':
      options->tool = ChooseTool(optarg);
      return options->tool ? -1 : 0;
    case 'v':
      config->verbosity = BuildConfig::Verbosity::kVerbose;
      return -1;
    case kOptQuiet:
      config->verbosity = BuildConfig::Verbosity::kNoStatusUpdate;
      return -1;
    case 'w':
      return WarningEnable(optarg, source, options) ? -1 : 1;
    case 'C':
      options->working_dir = optarg;
      return -1;
    case kOptVersion:
      printf("%s\n", kNinjaVersion);
      return 0;
  }
  if (opt >= kFirstRoninOption) return ApplyRoninOption(opt - kFirstRoninOption, source, config);
  if (source == FlagSource::kEnvironment) return BadFlag(source, "unknown option");
  if (*need_guess) config->parallelism = GuessParallelism();
  Usage(*config, opt == 'h');
  return 1;
}

const char kShortOptions[] = "d:f:j:k:l:nt:vw:C:h";

// A ronin option whose value is optional (--cache) takes the next word as
// its value when it cannot be a target: `--cache /srv/cache` as
// `--progress live` does (ronin_options.h: IsSeparateOptionalValue).
void TakeSeparateOptionalValue(int opt, int argc, char** argv) {
  if (opt < kFirstRoninOption || optarg || optind >= argc) return;
  if (!RoninOptionTable()[opt - kFirstRoninOption].value_optional) return;
  if (IsSeparateOptionalValue(argv[optind])) optarg = argv[optind++];
}

// A bad command-line flag: getopt said what, Ninja's usage follows; a word
// that was meant as one of ronin's options (ronin_options.h) gets ronin's
// block too.
int CommandLineUsageError(const char* word, const BuildConfig& config) {
  Usage(config, word && MeantAsRoninOption(word));
  return 1;
}

// RONIN_FLAGS: the same options, read before the command line so that the
// command line wins. Returns an exit code, or -1 to go on.
int ReadEnvironmentFlags(Options* options, BuildConfig* config, bool* need_guess) {
  const char* text = getenv("RONIN_FLAGS");
  if (!text) return -1;
  std::vector<std::string> words = SplitFlagWords(text);
  if (words.empty()) return -1;
  std::vector<char*> args = {const_cast<char*>("ninja")};
  for (std::string& word : words) args.push_back(&word[0]);
  args.push_back(nullptr);
  int count = static_cast<int>(args.size()) - 1;
  std::vector<option> long_options = LongOptions();
  // "+": stop at the first word that is not an option instead of
  // permuting, so that a stray word is reported, not silently skipped.
  std::string short_options = std::string("+:") + kShortOptions;
  optind = 0;  // a full re-initialisation before each scan (base/getopt.h)
  opterr = 0;  // our own messages, naming RONIN_FLAGS
  int opt;
  while ((opt = GetoptLong(count, args.data(), short_options.c_str(), long_options.data())) !=
         -1) {
    if (opt == '?' || opt == ':') {
      const char* word = args[optind - 1];
      std::string what = opt == ':' ? "missing value for '" : "unknown option '";
      return BadFlag(FlagSource::kEnvironment, what + word + "'");
    }
    TakeSeparateOptionalValue(opt, count, args.data());
    int exit_code = ApplyFlag(opt, FlagSource::kEnvironment, options, config, need_guess);
    if (exit_code >= 0) return exit_code;
  }
  if (optind < count)
    return BadFlag(FlagSource::kEnvironment,
                   std::string("unexpected argument '") + args[optind] + "' (options only)");
  optind = 0;
  opterr = 1;
  return -1;
}

// Parses flags; returns an exit code, or -1 to go on.
int ReadFlags(int* argc, char*** argv, Options* options, BuildConfig* config) {
  bool need_guess = true;
  int exit_code = ReadEnvironmentFlags(options, config, &need_guess);
  if (exit_code >= 0) return exit_code;
  std::vector<option> long_options = LongOptions();
  int opt;
  while (!options->tool &&
         (opt = GetoptLong(*argc, *argv, kShortOptions, long_options.data())) != -1) {
    if (opt == '?') {
      if (need_guess) config->parallelism = GuessParallelism();
      // A long option: unknown (optopt 0) or a ronin option misused.
      bool long_option = optopt == 0 || optopt >= kFirstRoninOption;
      return CommandLineUsageError(long_option ? (*argv)[optind - 1] : nullptr, *config);
    }
    TakeSeparateOptionalValue(opt, *argc, *argv);
    exit_code = ApplyFlag(opt, FlagSource::kCommandLine, options, config, &need_guess);
    if (exit_code >= 0) return exit_code;
  }
  if (need_guess) config->parallelism = GuessParallelism();
  *argv += optind;
  *argc -= optind;
  return -1;
}

// Tools can print a line per node of a huge graph: into a pipe or a file that
// goes out in large blocks, not a write() per line as in Ninja (diagnostics
// flush stdout first, so the interleaving with stderr is unchanged). The
// browse server's messages must appear as they happen.
int RunTool(const Tool* tool, NinjaMain* ninja, const Options* options, int argc, char** argv) {
  if (!StdoutIsTerminal() && strcmp(tool->name, "browse") != 0) {
    fflush(stdout);
    setvbuf(stdout, nullptr, _IOFBF, 1 << 16);
  }
  return tool->run(ninja, options, argc, argv);
}

// Loads the manifest and builds (again, as long as it regenerates, or for
// each change under --watch); the exit status.
int LoadAndBuild(const char* ninja_command, const BuildConfig& config, Options* options, int argc, char** argv,
                 std::unique_ptr<Status> status, EventStream* events);

int RealMain(int argc, char** argv) {
  const char* ninja_command = argv[0];
  BuildConfig config;
  Options options;
  setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);

  int exit_code = ReadFlags(&argc, &argv, &options, &config);
  if (exit_code >= 0) return exit_code;
  // An error's exit status: --question keeps 1 for "work is due".
  const int kErrorExit = config.ronin.question ? kQuestionError : 1;
  if (config.ronin.question) {
    if (options.tool) {
      Error("--question builds nothing and runs no tool: not with -t %s", options.tool->name);
      return kErrorExit;
    }
    if (config.ronin.watch) {
      Error("--question builds nothing: not with --watch");
      return kErrorExit;
    }
    SetFatalExitStatus(kErrorExit);
    config.dry_run = true;  // nothing is written: no lock, no logs, no graph image
    config.verbosity = BuildConfig::Verbosity::kNoStatusUpdate;
  }

  // Opened before -C: PATH is where ninja was started from. A subtool
  // builds nothing and writes no stream (--events may come from RONIN_FLAGS).
  std::unique_ptr<EventStream> events;
  if (!config.ronin.events.empty() && !options.tool) {
    std::string err;
    events = EventStream::Open(config.ronin.events, &err);
    if (!events) {
      Error("--events: %s", err.c_str());
      return kErrorExit;
    }
  }

  std::unique_ptr<Status> status = NewStatus(config);
  if (options.working_dir) {
    // Emacs-style quotes so editors can follow the directory change; not
    // for tools, whose output is often piped into files.
    if (!options.tool && config.verbosity != BuildConfig::Verbosity::kNoStatusUpdate)
      Info("Entering directory `%s'", options.working_dir);
    if (chdir(options.working_dir) < 0) Fatal("chdir to '%s' - %s", options.working_dir, strerror(errno));
  }

  if (options.tool && options.tool->when == Tool::kRunAfterFlags) {
    NinjaMain ninja(ninja_command, config);
    return RunTool(options.tool, &ninja, &options, argc, argv);
  }

  if (events) events->StreamStarted(config);
  int result = LoadAndBuild(ninja_command, config, &options, argc, argv, std::move(status), events.get());
  if (events) events->StreamEnded(result);
  return result;
}

int LoadAndBuild(const char* ninja_command, const BuildConfig& config, Options* options_in, int argc, char** argv,
                 std::unique_ptr<Status> status, EventStream* events) {
  Options& options = *options_in;
  const int kErrorExit = config.ronin.question ? kQuestionError : 1;
  // A manifest that rebuilds itself is reloaded; bound the loop (--watch
  // starts counting again at each change).
  const int kCycleLimit = 100;
  bool read_image = GraphImageEnabled();
  bool watch = config.ronin.watch && !options.tool;
  std::vector<std::string> watch_changes;  // --watch: what made the run fresh, for --events
  bool watching = false;  // --watch has run a build: a manifest that breaks is waited on
  bool regenerated = false;  // the manifest now loaded was just rebuilt
  for (int cycle = 1; cycle <= kCycleLimit; ++cycle) {
    std::vector<std::string> manifest_files;  // for --watch
    // Destroyed after the prefetcher (declared before it): the image takes
    // the command hashes the prefetcher computed.
    std::unique_ptr<GraphImageWriter> image_writer;
    // Not freed when the run ends (tearing down a large graph is wasted
    // time); only a regeneration round destroys its state, which closes the
    // logs (and, as in Ninja, leaves a .ninja_deps behind).
    NinjaMain* ninja = new NinjaMain(ninja_command, config);
    ninja->events_ = events;
    ninja->watch_changes_.swap(watch_changes);
    // Building the default targets stats the whole graph anyway: do that
    // (and hash the commands) on the other cores while parsing and loading.
    std::unique_ptr<Prefetcher> prefetcher;
    if (!options.tool && argc == 0 && PrefetchEnabled()) prefetcher.reset(new Prefetcher(&ninja->state_, config.stat_cache));
    std::string err;
    {
      METRIC_RECORD(".ninja parse");
      GraphLoadOptions load_options;
      load_options.input_file = options.input_file;
      load_options.phony_cycle_is_error = options.phony_cycle_should_err;
      load_options.use_image = read_image;
      // Tools and dry runs leave no image behind (tools know no command hashes).
      load_options.write_image = GraphImageEnabled() && !options.tool && !config.dry_run;
      if (watch) load_options.manifest_files = &manifest_files;
      GraphLoad loaded = LoadGraph(&ninja->state_, &ninja->disk_, load_options, &image_writer, &err);
      if (loaded == GraphLoad::kImageDamaged) {
        // Never trusted: start over with a fresh state, parse (and replace it).
        prefetcher.reset();
        delete ninja;
        read_image = false;
        --cycle;
        continue;
      }
      if (loaded == GraphLoad::kError) {
        Error("%s", err.c_str());
        if (events) events->ErrorOutsideBuild(err);
        // (A manifest that never loaded, e.g. a wrong -f, is an error at once.)
        if (!watch || !watching) return kErrorExit;
        // --watch: a fresh run once the manifest is mended.
        manifest_files.push_back(options.input_file);
        WatchLoop::End end = WatchLoop::WaitForManifestChange(manifest_files);
        if (end != WatchLoop::End::kReload) return end == WatchLoop::End::kInterrupted ? kExitInterrupted : 1;
        prefetcher.reset();
        delete ninja;
        regenerated = false;
        cycle = 0;
        continue;
      }
    }

    if (options.tool && options.tool->when == Tool::kRunAfterLoad)
      return RunTool(options.tool, ninja, &options, argc, argv);
    if (prefetcher) prefetcher->ParsingDone();

    if (!ninja->EnsureBuildDirExists()) return kErrorExit;
    if (!ninja->OpenBuildLog() || !ninja->OpenDepsLog() || !ninja->OpenStateFile()) return kErrorExit;
    if (prefetcher) {
      prefetcher->Join();  // before anything looks at the disk state
      if (ninja->waited_for_lock_) ninja->state_.Reset();  // stats taken before the wait
    }
    // The scan is about to change the graph: the image has what it needs.
    if (image_writer) image_writer->FinishReading();

    if (options.tool && options.tool->when == Tool::kRunAfterLogs)
      return RunTool(options.tool, ninja, &options, argc, argv);

    if (config.ronin.question) return AnswerQuestion(ninja, options.input_file, argc, argv, status.get());

    if (ninja->RebuildManifest(options.input_file, regenerated, &err, status.get())) {
      regenerated = true;
      // A dry run would "regenerate" forever: stop after one round.
      if (config.dry_run) return 0;
      prefetcher.reset();  // it points into the state about to go
      image_writer.reset();
      delete ninja;
      continue;
    }
    if (!err.empty()) {
      Error("rebuilding '%s': %s", options.input_file, err.c_str());
      if (events) events->ErrorOutsideBuild(StringPrintf("rebuilding '%s': %s", options.input_file, err.c_str()));
      return kErrorExit;
    }

    if (watch) {
      watching = true;
      WatchLoop loop(ninja, options.input_file, std::move(manifest_files), argc, argv, &status);
      WatchLoop::End end = loop.Run();
      if (end != WatchLoop::End::kReload) return end == WatchLoop::End::kInterrupted ? kExitInterrupted : 1;
      // A fresh run, as after a regeneration; the change starts a new count.
      regenerated = loop.manifest_rebuilt();
      watch_changes.swap(ninja->watch_changes_);
      prefetcher.reset();
      image_writer.reset();
      delete ninja;
      cycle = 0;
      continue;
    }

    ExitStatus result = ninja->RunBuild(argc, argv, status.get());
    if (g_metrics) {
      g_metrics->Report();
      const State& state = ninja->state_;
      int entries = static_cast<int>(state.path_count());
      int buckets = static_cast<int>(state.path_buckets());
      printf("\npath->node hash load %.2f (%d entries / %d buckets)\n",
             buckets ? entries / static_cast<double>(buckets) : 0.0, entries, buckets);
    }
    return result;
  }
  Error("manifest '%s' still dirty after %d tries, perhaps system time is not set", options.input_file,
        kCycleLimit);
  return kErrorExit;
}

}  // namespace
}  // namespace ronin

int main(int argc, char** argv) {
  int reaper_exit = 0;
  if (ronin::JobReaper::RunIfAsked(argc, argv, &reaper_exit)) return reaper_exit;  // ninja.exe's reaper
  // One malloc arena for every thread: what the stat and hash workers free
  // (command texts of up to megabytes) is then reused by the main thread
  // instead of staying resident in arenas of their own (peak RSS of the
  // first run after a manifest change -1.2 MB). Workers allocate little
  // else, so they rarely wait for the arena's lock.
  ronin::UseOneMallocArena();
  int result = ronin::RealMain(argc, argv);
  fflush(stdout);
  ronin::JobReaper::LetGoOfLock();  // no job is left: the next ninja must not wait for it
  // Exit without running destructors of a possibly huge graph.
  _exit(result);
}

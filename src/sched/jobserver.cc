#include "sched/jobserver.h"

#include <ctype.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "status/status.h"

namespace ronin {

namespace {

// A word of MAKEFLAGS and where it starts (for copying a tail verbatim).
struct Word {
  std::string_view text;
  size_t offset;
};

// make separates MAKEFLAGS words with blanks; other white space (a newline
// in a variable's value) belongs to the word, as in Ninja.
std::vector<Word> SplitWords(std::string_view text) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.push_back({text.substr(start, i - start), start});
  }
  return words;
}

bool StartsWith(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

// One integer as scanf's %d reads it: leading white space, a sign, digits.
// Values beyond int are clamped (they can only name invalid descriptors).
bool ScanInt(std::string_view text, size_t* pos, int* value) {
  size_t i = *pos;
  while (i < text.size() && isspace(static_cast<unsigned char>(text[i]))) ++i;
  bool negative = false;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) negative = text[i++] == '-';
  size_t digits = i;
  long long magnitude = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    if (magnitude <= INT_MAX) magnitude = magnitude * 10 + (text[i] - '0');
  }
  if (i == digits) return false;
  if (magnitude > INT_MAX) magnitude = INT_MAX;
  *value = static_cast<int>(negative ? -magnitude : magnitude);
  *pos = i;
  return true;
}

// "R,W" as scanf("%d,%d") reads it: anything after W is ignored.
bool ParseDescriptorPair(std::string_view text, int* read_fd, int* write_fd) {
  size_t pos = 0;
  if (!ScanInt(text, &pos, read_fd)) return false;
  if (pos >= text.size() || text[pos] != ',') return false;
  ++pos;
  return ScanInt(text, &pos, write_fd);
}

bool IsDryRunFlagsWord(std::string_view word) {
  return word[0] != '-' && word.find('n') != std::string_view::npos;
}

bool IsQuiet(const BuildConfig& config) {
  return config.verbosity == BuildConfig::Verbosity::kQuiet ||
         config.verbosity == BuildConfig::Verbosity::kNoStatusUpdate;
}

}  // namespace

bool ParseMakeflags(std::string_view makeflags, JobserverConfig* config, std::string* err) {
  *config = JobserverConfig();
  std::vector<Word> words = SplitWords(makeflags);
  if (!words.empty() && IsDryRunFlagsWord(words[0].text)) return true;

  for (const Word& word : words) {
    std::string_view value;
    if (StartsWith(word.text, "--jobserver-fds=")) {
      // The pre-4.2 name of the pipe form.
      value = word.text.substr(strlen("--jobserver-fds="));
      JobserverConfig pipe;
      if (!ParseDescriptorPair(value, &pipe.read_fd, &pipe.write_fd)) {
        *err = "Invalid file descriptor pair [" + std::string(value) + "]";
        return false;
      }
      pipe.mode = JobserverConfig::Mode::kPipe;
      pipe.value = std::string(value);
      *config = pipe;
    } else if (StartsWith(word.text, "--jobserver-auth=")) {
      value = word.text.substr(strlen("--jobserver-auth="));
      JobserverConfig auth;
      auth.value = std::string(value);
      if (StartsWith(value, "fifo:")) {
        auth.mode = JobserverConfig::Mode::kFifo;
        auth.value = std::string(value.substr(strlen("fifo:")));
      } else if (ParseDescriptorPair(value, &auth.read_fd, &auth.write_fd)) {
        // make writes "-1,-1" when its children must not use the jobserver.
        bool usable = auth.read_fd >= 0 && auth.write_fd >= 0;
        auth.mode = usable ? JobserverConfig::Mode::kPipe : JobserverConfig::Mode::kNone;
      } else {
        auth.mode = JobserverConfig::Mode::kSemaphore;
      }
      *config = auth;
    }
  }
  return true;
}

std::string PoolMakeflags(std::string_view old, int jobs, const std::string& fifo_path, int read_fd,
                          int write_fd) {
  return PoolMakeflags(old, jobs, "--jobserver-auth=fifo:" + fifo_path + " --jobserver-aut=" +
                                      std::to_string(read_fd) + "," + std::to_string(write_fd));
}

std::string PoolMakeflags(std::string_view old, int jobs, const std::string& auth_words) {
  std::vector<Word> words = SplitWords(old);
  std::string result;
  size_t i = 0;
  // make's single-letter flags ("ks") must stay the first word.
  if (!words.empty() && words[0].text[0] != '-') result.append(words[i++].text).append(" ");
  result += "-j" + std::to_string(jobs) + " " + auth_words;
  for (; i < words.size(); ++i) {
    std::string_view word = words[i].text;
    if (word == "--") {
      // Variable definitions follow: keep them verbatim.
      result.append(" ").append(old.substr(words[i].offset));
      break;
    }
    // The previous jobserver and -j values are ours now.
    bool jobs_word = word == "-j" || word == "--jobs" || StartsWith(word, "--jobs=") ||
                     (StartsWith(word, "-j") && word.find_first_not_of("0123456789", 2) == std::string_view::npos);
    if (jobs_word || StartsWith(word, "--jobserver-")) continue;
    result.append(" ").append(word);
  }
  return result;
}

void Jobserver::Trim() {
  size_t needed = jobs_ + (reserved_ ? 1 : 0);
  // Real tokens go back first: the implicit slot is of no use to others.
  while (tokens_.size() + (implicit_slot_ ? 1 : 0) > needed) {
    if (!tokens_.empty())
      ReturnToken();
    else
      implicit_slot_ = false;
  }
}

bool Jobserver::ReserveSlot() {
  if (reserved_) return true;
  size_t held = tokens_.size() + (implicit_slot_ ? 1 : 0);
  if (held > jobs_) {
    reserved_ = true;
  } else if (!implicit_slot_) {
    implicit_slot_ = reserved_ = true;
  } else {
    reserved_ = ReadToken();
  }
  return reserved_;
}

void Jobserver::JobStarted() {
  // Started without a reservation (not expected): take a slot if one is
  // free; if not, the job runs unaccounted rather than not at all.
  ReserveSlot();
  reserved_ = false;
  ++jobs_;
}

void Jobserver::JobFinished() {
  if (jobs_ > 0) --jobs_;
  Trim();
}

void Jobserver::CancelReservation() {
  reserved_ = false;
  Trim();
}

void Jobserver::ReleaseAll() {
  jobs_ = 0;
  reserved_ = false;
  Trim();
}

std::unique_ptr<Jobserver> StartJobserverClient(const BuildConfig& config) {
  return StartJobserverClient(config, getenv("MAKEFLAGS"));
}

std::unique_ptr<Jobserver> StartJobserverClient(const BuildConfig& config, const char* makeflags) {
  // -j on the command line overrides the jobserver; -n runs nothing.
  if (config.parallelism_from_cmdline || config.dry_run || !makeflags) return nullptr;
  JobserverConfig parsed;
  std::string err;
  if (!ParseMakeflags(makeflags, &parsed, &err)) {
    Warning("Ignoring jobserver: %s [%s]", err.c_str(), makeflags);
    return nullptr;
  }
  if (parsed.mode == JobserverConfig::Mode::kNone) return nullptr;
  std::string reason;
  if (!Jobserver::CanOpen(parsed, &reason)) {
    Warning("Ignoring jobserver: %s [%s]", reason.c_str(), makeflags);
    return nullptr;
  }
  if (!IsQuiet(config)) Info("Jobserver mode detected: %s", makeflags);
  std::unique_ptr<Jobserver> client = Jobserver::Open(parsed, &err);
  if (!client) Error("Could not initialize jobserver: %s", err.c_str());
  return client;
}

std::unique_ptr<Jobserver> StartJobserverPool(const BuildConfig& config) {
  // -j 0 has no limit to share (make -j without a number has no jobserver either).
  if (!config.ronin.jobserver_pool || config.dry_run || config.parallelism == INT_MAX) return nullptr;
  std::string err;
  std::unique_ptr<Jobserver> pool = Jobserver::CreatePool(config.parallelism, &err);
  if (!pool) Warning("Could not create jobserver pool: %s; building with -j %d alone", err.c_str(), config.parallelism);
  return pool;
}

}  // namespace ronin

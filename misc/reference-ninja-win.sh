#!/bin/sh
# Prints the path of a real Windows ninja.exe 1.13.2 (the behaviour ronin's
# ninja.exe matches), for the Windows differential tests under wine. npm has
# only 1.12.1 for Windows, so it is built on first use from upstream's source
# with mingw-w64 by the workplace's shared script (shared/tools/windows/
# reference-ninja-win.sh, beside the repository: in CI the clone's sibling
# folder shared/, for a worktree under wt/ the one above). RONIN_SHARED_DIR
# names that folder elsewhere. The exe is cached in ~/.cache.
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
for shared in ${RONIN_SHARED_DIR:-} "$repo/../shared" "$repo/../../shared"; do
  script=$shared/tools/windows/reference-ninja-win.sh
  [ -f "$script" ] && exec sh "$script"
done
echo "reference-ninja-win: shared/tools/windows/reference-ninja-win.sh not found beside the repository" \
  "(set RONIN_SHARED_DIR)" >&2
exit 1

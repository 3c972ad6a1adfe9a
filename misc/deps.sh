# shellcheck shell=sh
# The packages of misc/packages.txt, for misc/test.sh and .ci/run, which
# source this from the top of the repository.
#   deps_missing                 prints the listed packages not installed
#   deps_install PKG...          installs them with apt-get (as root, or sudo)
#   deps_install_command PKG...  prints the command that installs them
#   deps_enable_sources          adds apt's deb-src entries (as root), for
#                                tests that fetch a real project's source

deps_list=misc/packages.txt

deps_missing() {
  sed 's/#.*//' "$deps_list" | tr -s '[:blank:]' '\n' | while read -r entry; do
    [ -n "$entry" ] || continue
    package=${entry%%:*}
    command=${entry#*:}
    dpkg -s "$package" >/dev/null 2>&1 && continue
    [ "$command" != "$entry" ] && command -v "$command" >/dev/null 2>&1 && continue
    echo "$package"
  done
}

deps_install_command() {
  sudo=
  [ "$(id -u)" = 0 ] || sudo="sudo "
  echo "${sudo}apt-get update &&" \
    "${sudo}env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $*"
}

deps_install() {
  sudo=
  [ "$(id -u)" = 0 ] || sudo=sudo
  echo "installing: $*"
  $sudo apt-get update -qq
  install="$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends"
  # One package that cannot be installed should not stop the others; what
  # is still missing is reported by the caller.
  $install "$@" >/dev/null || for package in "$@"; do
    $install "$package" >/dev/null || echo "warning: apt-get could not install $package" >&2
  done
}

# Debian 12 lists its archives in deb822 form (debian.sources); a copy with
# "Types: deb-src" lets `apt-get source` fetch packages' source
# (tests/blackbox/fmt_source.py). Nothing to do when deb-src entries exist.
deps_enable_sources() {
  sources_dir=/etc/apt/sources.list.d
  if grep -Eqs '^(deb-src|Types:.*deb-src)' /etc/apt/sources.list "$sources_dir"/*; then
    return 0
  fi
  if [ ! -f "$sources_dir/debian.sources" ] || [ "$(id -u)" != 0 ]; then
    echo "warning: apt has no deb-src entries; tests that fetch a project's source will be SKIPPED" >&2
    return 0
  fi
  echo "enabling deb-src: $sources_dir/debian-src.sources"
  sed 's/^Types:.*/Types: deb-src/' "$sources_dir/debian.sources" >"$sources_dir/debian-src.sources"
  apt-get update -qq
}

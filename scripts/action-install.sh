#!/usr/bin/env bash
# The install step of action.yml: puts `perfci` on the job's PATH and the
# installed CMake package on CMAKE_PREFIX_PATH (find_package(perfci) ->
# perfci::hook for the project's benchmarks).
#   PERFCI_INSTALL=source   build perfci alone (no engine, no tests) from the
#                           action's checkout, PERFCI_ACTION_PATH, and
#                           `cmake --install` it under $RUNNER_TEMP/perfci;
#   PERFCI_INSTALL=FILE.deb apt-get install that package.
# Root or sudo: the Debian packages come from apt.
set -euo pipefail
: "${PERFCI_ACTION_PATH:?the action's checkout}"
install=${PERFCI_INSTALL:-source}
temp=${RUNNER_TEMP:-/tmp}
as_root=()
if [[ $(id -u) -ne 0 ]]; then as_root=(sudo --preserve-env=DEBIAN_FRONTEND); fi
export DEBIAN_FRONTEND=noninteractive
to_env() {  # NAME=VALUE for the later steps (GITHUB_ENV), or this shell only
  if [[ -n ${GITHUB_ENV:-} ]]; then echo "$1" >>"$GITHUB_ENV"; fi
}
if [[ $install == source ]]; then
  "${as_root[@]}" bash "$PERFCI_ACTION_PATH/scripts/install-deps.sh" --tool
  build=$temp/perfci-build
  prefix=$temp/perfci
  cmake -S "$PERFCI_ACTION_PATH" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPERFCI_BUILD_TESTS=OFF -DPERFCI_BUILD_ENGINE=OFF
  cmake --build "$build" --target perfci perfci_hook
  cmake --install "$build" --prefix "$prefix"
  if [[ -n ${GITHUB_PATH:-} ]]; then echo "$prefix/bin" >>"$GITHUB_PATH"; fi
  to_env "CMAKE_PREFIX_PATH=$prefix${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}"
  "$prefix/bin/perfci" version
elif [[ $install == *.deb ]]; then
  if [[ ! -f $install ]]; then
    echo "::error title=perfci install::no such package file: $install" >&2
    exit 2
  fi
  deb=$(realpath "$install")
  "${as_root[@]}" apt-get update
  "${as_root[@]}" apt-get install -y "$deb"
  perfci version
else
  echo "::error title=perfci install::install must be 'source' or the path of a .deb, not '$install'" >&2
  exit 2
fi

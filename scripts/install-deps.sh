#!/usr/bin/env bash
# Installs the Debian 12 packages the tree needs. Idempotent; a no-op when
# everything is already there (so a developer's machine is not touched).
set -euo pipefail
# --tool: only what building and running perfci itself needs (the GitHub
# Action, scripts/action-install.sh): no engine, no second compiler, no
# test-only packages.
tool=(build-essential cmake ninja-build pkg-config git libbenchmark-dev libpfm4-dev
      nlohmann-json3-dev libsqlite3-dev libdw-dev libelf-dev libcapstone-dev libcli11-dev
      libfmt-dev valgrind)
if [[ ${1:-} == --tool ]]; then
  pkgs=("${tool[@]}")
else
  pkgs=("${tool[@]}" clang-14 libclang-rt-14-dev clang-format-14 libgtest-dev libgmock-dev sqlite3
        python3 libmd-dev chromium python3-jsonschema python3-yaml python3-numpy python3-scipy
        gcovr)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -ne 0 ]]; then
    echo "install-deps: missing packages: ${missing[*]} (run as root, or apt-get install them)" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update
  apt-get install -y --no-install-recommends "${missing[@]}"
fi

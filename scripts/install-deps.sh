#!/usr/bin/env bash
# Installs the Debian 12 packages the tree needs. Idempotent; a no-op when
# everything is already there (so a developer's machine is not touched).
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config git clang-14 libclang-rt-14-dev clang-format-14
      libbenchmark-dev libgtest-dev libgmock-dev libpfm4-dev nlohmann-json3-dev
      libsqlite3-dev sqlite3 libdw-dev libelf-dev libcapstone-dev libcli11-dev libfmt-dev
      valgrind python3 libmd-dev chromium python3-jsonschema python3-yaml python3-numpy
      python3-scipy gcovr)
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

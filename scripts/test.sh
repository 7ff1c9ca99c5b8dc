#!/usr/bin/env bash
# The test command of the README: the format check, then every suite, built
# twice —
#   0. every tracked C++ file matches .clang-format (scripts/check-format.sh);
#   1. g++ 12, ASan + UBSan (the debug preset), all tests;
#   2. clang++ 14, release with -g, all tests (the compilers must agree).
# -Werror is on in both.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/check-format.sh
jobs=$(nproc)

for preset in debug clang-release; do
  echo "== test.sh: preset $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  ctest --preset "$preset" -j "$jobs"
done

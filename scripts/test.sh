#!/usr/bin/env bash
# The test command of the README: the format check, then every suite, built
# twice —
#   0. every tracked C++ file matches .clang-format (scripts/check-format.sh);
#   1. g++ 12, ASan + UBSan with gcov (the coverage preset: the debug preset
#      plus --coverage), all tests, then the branch coverage floor
#      (scripts/coverage.sh --check, scripts/coverage-floor.json);
#   2. clang++ 14, release with -g, all tests (the compilers must agree).
# -Werror is on in both. The sanitizer pass is also the coverage pass so that
# CI builds the tree twice, not three times.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/check-format.sh
jobs=$(nproc)

for preset in coverage clang-release; do
  echo "== test.sh: preset $preset"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$jobs"
  if [[ $preset == coverage ]]; then
    # Counters of an earlier run in this folder would add to this one's.
    find build/coverage -name '*.gcda' -delete
  fi
  ctest --preset "$preset" -j "$jobs"
  if [[ $preset == coverage ]]; then
    echo "== test.sh: branch coverage floor"
    bash scripts/coverage.sh build/coverage --check
  fi
done

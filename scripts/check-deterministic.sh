#!/usr/bin/env bash
# The deterministic part of `perfci check`: the contracts and callgrind Ir of
# the suite's quick subset (perfci.json: suites[0].callgrind.filter) against
# the stored baseline. Needs no PMU and gives the same numbers on every run,
# so it can gate every commit: a broken inline contract or 0.2% more
# instructions fails it (exit 1) unless perfci.json accepts the change or the
# baseline is updated with a reason.
#
#   scripts/check-deterministic.sh [PRESET] [perfci check options...]
#
# PRESET (default: release) names the build folder, build/<PRESET>; .ci/run
# passes clang-release, the build scripts/test.sh has just made, so that
# nothing is compiled a third time. The baseline is the one of the profile of
# that build (baselines/<profile>/engine.json).
set -euo pipefail
cd "$(dirname "$0")/.."
preset=release
if [[ $# -gt 0 && $1 != -* ]]; then
  preset=$1
  shift
fi
jobs=$(nproc)
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" -j "$jobs" --target perfci engine_bench
# --preset: if this runner cannot use the stored baseline (another CPU as
# valgrind presents it), check rebuilds the baseline's commit with the same
# preset and gates Ir on that in-runner A/B (issue 13).
exec "build/$preset/perfci/cli/perfci" check --meter callgrind --no-build --preset "$preset" \
  --build-dir "build/$preset" "$@"

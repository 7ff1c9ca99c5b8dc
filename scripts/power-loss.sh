#!/usr/bin/env bash
# Long power-loss runs (issue 22): the power_loss_test driver over many seeds,
# each seed CUTS simulated power cuts (default 1000) across its workloads.
# A failure prints POWER_LOSS_SEED and POWER_LOSS_CASE; replay one with
#   POWER_LOSS_SEED=S POWER_LOSS_CASE=K build/release/tests/power_loss_test
#
# usage: scripts/power-loss.sh [first-seed] [seeds] [cuts-per-seed] [build-dir]
set -euo pipefail
first=${1:-1}
seeds=${2:-10}
cuts=${3:-1000}
build=${4:-build/release}
bin="$build/tests/power_loss_test"
[[ -x "$bin" ]] || { echo "no $bin: ninja -C $build -j1 power_loss_test" >&2; exit 2; }
failed=0
for ((s = first; s < first + seeds; ++s)); do
  if ! out=$(POWER_LOSS_SEED=$s POWER_LOSS_CUTS=$cuts "$bin" --gtest_filter='PowerLossTest.*' 2>&1); then
    failed=$((failed + 1))
    grep -E 'POWER_LOSS_CASE|power-loss:' <<<"$out" | head -25
  else
    grep 'power-loss:' <<<"$out"
  fi
done
echo "power-loss: $seeds seeds x $cuts cuts, $failed seeds failing"
[[ $failed -eq 0 ]]

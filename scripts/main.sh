#!/usr/bin/env bash
# The main job of the README. Until `perfci check` exists (see the issues), it
# builds the release preset and runs the benchmark suite once, writing the
# Google Benchmark JSON to reports/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
mkdir -p reports
if [[ -x build/release/engine/bench/engine_bench ]]; then
  build/release/engine/bench/engine_bench --benchmark_out=reports/latest-bench.json \
    --benchmark_out_format=json
else
  echo "main.sh: engine_bench is not built yet; ran the build only" >&2
fi

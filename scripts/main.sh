#!/usr/bin/env bash
# The main job of the README: build the release preset, then `perfci check`
# the engine against its stored baseline — the inline and layout contracts,
# callgrind Ir (gated on a matching toolchain), the oracle gap against SQLite
# (gated anywhere), wall time (shown as information) — and write
# reports/<commit>.json and reports/latest.{json,md,html}.
# The exit code is perfci check's: 0 pass, 1 a regression or a broken
# contract, 2 an error (no baseline for this machine's profile, a corrupt one,
# a failed benchmark), 3 not gated (nothing could be compared with the
# baseline on this machine, so nothing was proven). On a machine whose CPU,
# as valgrind presents it, differs from the baseline machine's, check builds
# the baseline's commit here and gates callgrind Ir on that A/B instead. Extra arguments go to perfci check (e.g. --meter callgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
cmake --preset release >/dev/null
cmake --build --preset release -j "$jobs" --target perfci
# perfci check builds perfci.json's targets (engine_bench) with the same preset itself.
exec build/release/perfci/cli/perfci check --jobs "$jobs" "$@"

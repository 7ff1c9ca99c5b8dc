#!/usr/bin/env bash
# Seed corpora for the engine's fuzz targets, from the sqllogictest scripts
# of ../shared/slt: every SQL record (the text between a "statement" or
# "query" line and the next blank or "----" line) becomes one seed file;
# every Nth record is kept so that the corpus stays small. The hand-written
# seeds of tests/fuzz_seeds/ (transactions, constraints, DDL, the tables the
# exec target sets up) are copied in as well.
#
#   scripts/fuzz-seeds.sh OUT_DIR [EVERY_NTH]     (default: every 8th)
#
# Then, for instance:
#   build/fuzz/engine/api/engine_sql_exec_fuzz OUT_DIR -max_total_time=600
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: scripts/fuzz-seeds.sh OUT_DIR [EVERY_NTH]}
every=${2:-8}
slt_dir=${PERFCI_SLT_DIR:-../shared/slt}
mkdir -p "$out"
for f in "$slt_dir"/*.test; do
  awk -v out="$out" -v every="$every" -v base="$(basename "$f" .test)" '
    function flush() {
      if (sql != "" && n % every == 0) {
        file = sprintf("%s/slt-%s-%05d.sql", out, base, n)
        printf "%s", sql > file
        close(file)
      }
      if (sql != "") n++
      sql = ""; in_sql = 0
    }
    /^(statement|query) / { flush(); in_sql = 1; next }
    /^----$/ || /^$/ { flush(); next }
    in_sql { sql = sql $0 "\n" }
    END { flush() }
  ' "$f"
done
cp tests/fuzz_seeds/*.sql "$out"/
echo "$(ls "$out" | wc -l) seeds in $out"

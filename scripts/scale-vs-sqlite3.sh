#!/usr/bin/env bash
# Issue 20's table, as a new user would measure it: the same SQL through
# engine-shell and sqlite3 on one 300,000-row file (default settings in both
# shells), the fastest of three interleaved runs a side, engine ÷ sqlite3
# per row; the two shells' outputs must be equal and sqlite3's
# integrity_check must pass on the file the engine leaves. Wall clock on a
# shared machine: read the ratios, and run it twice before believing one.
#
#   scripts/scale-vs-sqlite3.sh [BUILD_DIR]   (default build/clang-release)
#   ROWS=N to change the table's size.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/clang-release}
engine=$build/engine/shell/engine-shell
[[ -x $engine ]] || { echo "scale-vs-sqlite3: no $engine (build it first)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "scale-vs-sqlite3: sqlite3 is not installed" >&2; exit 2; }
rows=${ROWS:-300000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The table both shells read: an integer key, a random integer, a ~40-byte
# text and a real, made once by sqlite3 (the engine reads sqlite3's files).
sqlite3 "$work/base.db" <<SQL
CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL);
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $rows)
INSERT INTO t SELECT i, abs(random()) % $rows + 1,
  printf('row %d %s', i, substr(hex(randomblob(16)), 1, 8 + i % 24)), i * 0.5 FROM n;
SQL

repeat() {  # repeat N SQL: N copies of one statement, one per line
  local n=$1 sql=$2
  for ((k = 0; k < n; k++)); do printf '%s\n' "$sql"; done
}
selects() {  # N distinct one-row selects without a table
  awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++) printf "SELECT %d + 1;\n", i }'
}
inserts() {  # N distinct INSERT texts in one transaction
  awk -v n="$1" 'BEGIN { print "BEGIN;"; for (i = 0; i < n; i++)
    printf "INSERT INTO t(a, b, c) VALUES(%d, '\''text %d'\'', %d.25);\n", i, i, i; print "COMMIT;" }'
}

# Runs one shell over a fresh copy of the file (run.<shell>.db), SQL on
# stdin; prints seconds.
timed() {
  local shell=$1 input=$2 db="$work/run.$(basename "$1").db"
  cp "$work/base.db" "$db"
  local start end
  start=$(date +%s.%N)
  "$shell" "$db" <"$input" >"$work/out.$(basename "$shell")" 2>&1 ||
    { echo "scale-vs-sqlite3: $shell failed on $(basename "$input"):" >&2;
      head -5 "$work/out.$(basename "$shell")" >&2; exit 1; }
  end=$(date +%s.%N)
  echo "$end - $start" | bc -l
}

min() { if (($(echo "$1 < $2" | bc -l))); then echo "$1"; else echo "$2"; fi; }

case_() {  # case_ NAME: reads the case's SQL on stdin
  local name=$1
  cat >"$work/$name.sql"
  # Three interleaved runs a side, the fastest of each: the machine's noise
  # only ever adds time.
  local e=999999 s=999999
  for _ in 1 2 3; do
    e=$(min "$e" "$(timed "$engine" "$work/$name.sql")")
    s=$(min "$s" "$(timed sqlite3 "$work/$name.sql")")
  done
  if ! cmp -s "$work/out.engine-shell" "$work/out.sqlite3"; then
    echo "scale-vs-sqlite3: $name: the two shells printed different output" >&2
    diff "$work/out.engine-shell" "$work/out.sqlite3" | head -5 >&2
    exit 1
  fi
  # What the engine wrote, sqlite3 must accept.
  local ic
  ic=$(sqlite3 "$work/run.engine-shell.db" "PRAGMA integrity_check")
  [[ $ic == ok ]] || { echo "scale-vs-sqlite3: $name: integrity_check: $ic" >&2; exit 1; }
  printf '| %-44s | %8.3f | %8.3f | %6.2fx |\n' "$name" "$e" "$s" "$(echo "$e / $s" | bc -l)"
}

echo "rows: $rows, file: $(du -h "$work/base.db" | cut -f1)"
echo "| what | engine s | sqlite3 s | engine ÷ sqlite3 |"
echo "|---|---:|---:|---:|"
repeat 20 'SELECT count(*), sum(a), avg(c) FROM t;' | case_ "count_sum_avg_x20"
repeat 20 'SELECT max(length(b)) FROM t;' | case_ "max_length_x20"
repeat 20 'SELECT count(*) FROM t x JOIN t y ON y.id = x.a;' | case_ "pk_self_join_x20"
echo 'CREATE INDEX tbc ON t(b, c);' | case_ "create_index_b_c"
selects 200000 | case_ "select_no_table_x200000"
inserts 100000 | case_ "insert_texts_x100000"
repeat 20 'SELECT a % 100, count(*) FROM t GROUP BY a % 100;' | case_ "group_by_mod_x20"

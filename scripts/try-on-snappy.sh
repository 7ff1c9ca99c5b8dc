#!/usr/bin/env bash
# perfci on code nobody here wrote (issue 21, item 4): snappy 1.1.9, from
# Debian 12's source package, its snappy_benchmark a plain Google Benchmark
# binary (no perfci hook), built twice:
#   A  -O2 -g              (Debian's own flags, less hardening)
#   B  -O2 -g -fno-inline  (the known difference: what the compiler inlines)
# Then, with scripts/snappy/perfci.json (inline contracts on snappy's hot
# functions, found with `perfci contracts`' own output):
#   1. `perfci run --meter callgrind` twice on A: the Ir per iteration must
#      be identical (hook-free, deterministic);
#   2. `perfci contracts` on A (all hold) and on B (the -fno-inline ones
#      break);
#   3. `perfci ab --meter callgrind,profile` A against B: B flagged (exit 1),
#      the explanation naming the functions that appeared out of line.
#   scripts/try-on-snappy.sh [WORK_DIR] [PERFCI]
# Needs a Debian mirror for the source package (a scratch APT config: the
# machine's sources are not touched), dpkg-dev, cmake, g++, libbenchmark-dev.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-/tmp/perfci-snappy}
perfci=${2:-$here/../build/release/perfci/cli/perfci}
perfci=$(realpath "$perfci")
mkdir -p "$work"
cd "$work"
step() { echo; echo "== $*"; }

step "source: snappy from Debian 12 (apt-get source, Debian's patches applied)"
if [[ ! -d src ]]; then
  mkdir -p apt/lists/partial
  echo "deb-src http://deb.debian.org/debian bookworm main" >apt/sources.list
  apt_opts=(-o "Dir::Etc::SourceList=$work/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
            -o "Dir::State::Lists=$work/apt/lists")
  apt-get -q "${apt_opts[@]}" update >/dev/null
  apt-get -q "${apt_opts[@]}" source --download-only snappy=1.1.9-3 >/dev/null 2>&1
  dpkg-source -x snappy_1.1.9-3.dsc src >/dev/null
fi
echo "snappy $(sed -n 's/^project(Snappy VERSION \([0-9.]*\).*/\1/p' src/CMakeLists.txt) in $work/src"

# Debian's static-library patch makes two rules for libsnappy.a under Ninja:
# Unix Makefiles. Tests off (they need the vendored googletest).
for side in a b; do
  flags="-O2 -g"
  if [[ $side == b ]]; then flags="-O2 -g -fno-inline"; fi
  step "build $side: $flags"
  if [[ ! -x build-$side/snappy_benchmark ]]; then
    cmake -S src -B "build-$side" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_CXX_FLAGS_RELEASE="$flags" -DSNAPPY_BUILD_TESTS=OFF >"build-$side.log"
    cmake --build "build-$side" --target snappy_benchmark -j "$(nproc)" >>"build-$side.log"
  fi
  ls -la "build-$side/snappy_benchmark"
done

# snappy's benchmark reads testdata/ relative to $srcdir, else to its
# working directory. perfci hands a benchmark a fixed environment (PATH,
# HOME, LD_LIBRARY_PATH, LC_ALL=C: the same bytes on every run), so srcdir
# would not reach it: the benchmarks run from the source folder instead.
mkdir -p project
cp "$here/snappy/perfci.json" project/
proj=$work/project
a=$work/build-a/snappy_benchmark
b=$work/build-b/snappy_benchmark
cd src

step "1. hook-free callgrind on A, twice"
ir=()
for run in 1 2; do
  "$perfci" run --config "$proj/perfci.json" --binary "$a" --meter callgrind --no-history \
    --quiet --out "$proj/run$run.json"
  ir+=("$(python3 - "$proj/run$run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(" ".join("%s=%s" % (b["name"], b["callgrind"]["ir_per_iteration"])
               for b in r["benchmarks"] if b.get("callgrind")))
PY
)")
  echo "run $run: ${ir[-1]}"
done
[[ -n ${ir[0]} && ${ir[0]} == "${ir[1]}" ]] || { echo "try-on-snappy: FAIL: Ir differs between two runs" >&2; exit 1; }
echo "identical on both runs"

step "2. contracts on A, then on B"
"$perfci" contracts --config "$proj/perfci.json" "$a"
rc=0
"$perfci" contracts --config "$proj/perfci.json" "$b" || rc=$?
[[ $rc == 1 ]] || { echo "try-on-snappy: FAIL: contracts on B exited $rc, not 1" >&2; exit 1; }

step "3. perfci ab A B (callgrind + profile, hook-free)"
rc=0
"$perfci" ab --config "$proj/perfci.json" --a "$a" --b "$b" --meter callgrind,profile \
  --no-history --out "$proj/ab.json" --md "$proj/ab.md" --html "$proj/ab.html" || rc=$?
[[ $rc == 1 ]] || { echo "try-on-snappy: FAIL: perfci ab exited $rc, not 1 (B regressed)" >&2; exit 1; }
echo
echo "try-on-snappy: B flagged (exit 1); report $proj/ab.md"

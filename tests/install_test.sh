#!/usr/bin/env bash
# `cmake --install` of the build under test, used the way another project
# uses an installed perfci (issue 21, item 2):
#   1. the prefix holds bin/perfci, the hook, its header, the CMake package
#      and the pkg-config file, and nothing in it points back at the build;
#   2. tests/fixtures/external_project configures with find_package(perfci
#      CONFIG) from that prefix alone, links perfci::hook, and its benchmark
#      runs; a version the prefix does not have is refused;
#   3. the installed perfci measures that benchmark under callgrind through
#      the hook: the same Ir per iteration on two runs;
#   4. the installed perfci gates that project: `baseline update`, then
#      `check` passes, and fails (exit 1) once the baseline says the
#      benchmark used to cost 10% less;
#   5. a plain compiler command with `pkg-config --cflags --libs
#      perfci-hook` builds the same benchmark.
#   install_test.sh BUILD_DIR SOURCE_DIR CXX_COMPILER
set -euo pipefail
build=$1 src=$2 cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "install_test: FAIL: $*" >&2; exit 1; }

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log" || fail "cmake --install: $(cat "$work/install.log")"
for f in bin/perfci include/perfci/bench.h lib/libperfci_hook.a lib/cmake/perfci/perfciConfig.cmake \
         lib/cmake/perfci/perfciConfigVersion.cmake lib/cmake/perfci/perfciTargets.cmake \
         lib/pkgconfig/perfci-hook.pc lib/perfci/libperfci_alloc_counter.so \
         share/doc/perfci/README.md; do
  [[ -e $prefix/$f ]] || fail "the prefix lacks $f"
done
echo "install_test: the prefix has the command, the hook, its header, the CMake and pkg-config packages, the allocation counter"
if grep -rl -- "$(cd "$build" && pwd)" "$prefix/lib/cmake" "$prefix/lib/pkgconfig"; then
  fail "an installed package file names the build folder"
fi
# The engine is this tree's example, not the tool: none of it is installed.
if find "$prefix" -iname '*engine*' | grep -q .; then fail "engine files were installed"; fi

# A compiler without sanitizers: the external project is a user's, built
# plainly, whatever preset built perfci.
ext=$work/external
cmake -S "$src/tests/fixtures/external_project" -B "$ext" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" >"$work/ext.log" 2>&1 ||
  fail "the external project does not configure against the prefix: $(cat "$work/ext.log")"
grep -q "perfci 0.1.0 from $prefix/lib/cmake/perfci; command $prefix/bin/perfci" "$work/ext.log" ||
  fail "find_package(perfci) did not report the prefix's package: $(grep perfci "$work/ext.log")"
cmake --build "$ext" >"$work/build.log" 2>&1 || fail "the external project does not build: $(cat "$work/build.log")"
"$ext/external_bench" --benchmark_filter=BM_external_checksum --benchmark_min_time=0.01 >/dev/null ||
  fail "the external benchmark does not run"
echo "install_test: find_package(perfci CONFIG) from the prefix; perfci::hook linked; the benchmark runs"

# A version the prefix does not have is refused by the version file.
sed 's/find_package(perfci 0.1 CONFIG REQUIRED)/find_package(perfci 9.0 CONFIG REQUIRED)/' \
  "$src/tests/fixtures/external_project/CMakeLists.txt" >"$work/v9.txt"
mkdir -p "$work/v9" && cp "$work/v9.txt" "$work/v9/CMakeLists.txt" &&
  cp "$src/tests/fixtures/external_project/external_bench.cc" "$work/v9/"
if cmake -S "$work/v9" -B "$work/v9/build" -DCMAKE_CXX_COMPILER="$cxx" \
     -DCMAKE_PREFIX_PATH="$prefix" >"$work/v9.log" 2>&1; then
  fail "find_package(perfci 9.0) accepted the 0.1.0 package"
fi
grep -q "0.1.0" "$work/v9.log" || fail "the refusal of perfci 9.0 does not name the version found"
echo "install_test: find_package(perfci 9.0) is refused, naming 0.1.0"

# The installed command measures the external benchmark through the hook.
cd "$work"
ir=()
for run in 1 2; do
  "$prefix/bin/perfci" run --binary "$ext/external_bench" --meter callgrind --callgrind-iterations 3 \
    --no-history --quiet --out "$work/run$run.json" || fail "installed perfci run failed (run $run)"
  ir+=("$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
b = [b for b in r["benchmarks"] if b["name"] == "BM_external_checksum"]
c = b[0].get("callgrind") if b else None
if not c or not c.get("ir_per_iteration"):
    sys.exit("no callgrind count for BM_external_checksum in " + sys.argv[1])
if "bytes_per_iteration" not in c.get("allocations", {}):
    sys.exit("no bytes per iteration (the installed allocation counter): " + str(c.get("allocations")))
print(c["ir_per_iteration"])' "$work/run$run.json")") || fail "run $run has no callgrind count or bytes"
done
[[ ${ir[0]} == "${ir[1]}" ]] || fail "callgrind Ir per iteration differs between two runs: ${ir[0]} vs ${ir[1]}"
echo "install_test: the installed perfci counts ${ir[0]} Ir per iteration of BM_external_checksum, twice"

# The installed perfci gates the project (its own perfci.json, no git).
proj=$work/project
mkdir -p "$proj" && cp "$src/tests/fixtures/external_project/perfci.json" "$proj/"
cd "$proj"
"$prefix/bin/perfci" baseline update --build-dir "$ext" --no-build \
  --reason "install_test: the external project's first baseline" >"$work/bu.log" 2>&1 ||
  fail "installed perfci baseline update failed: $(cat "$work/bu.log")"
"$prefix/bin/perfci" check --build-dir "$ext" --no-build --no-history >"$work/check.log" 2>&1 ||
  fail "installed perfci check does not pass against its own fresh baseline: $(cat "$work/check.log")"
# Three: its callgrind Ir, its allocations and its bytes per iteration.
grep -q "perfci check: pass (exit 0, 3 gated metric(s))" "$work/check.log" ||
  fail "check passed without saying it gated three metrics: $(tail -3 "$work/check.log")"
baseline=$(find "$proj/baselines" -name external.json)
python3 - "$baseline" <<'PY'
import json, sys
p = sys.argv[1]
b = json.load(open(p))
def cheaper(o):
    # Every callgrind figure of the baseline 10% lower: the run now costs more.
    if isinstance(o, dict):
        for k, v in o.items():
            if k in ("ir_per_iteration", "total_ir") and isinstance(v, (int, float)):
                o[k] = type(v)(v * 0.9)
            else:
                cheaper(v)
    elif isinstance(o, list):
        for v in o:
            cheaper(v)
cheaper(b)
json.dump(b, open(p, "w"))
PY
rc=0
"$prefix/bin/perfci" check --build-dir "$ext" --no-build --no-history >"$work/check2.log" 2>&1 || rc=$?
[[ $rc == 1 ]] || fail "check against a baseline 10% cheaper exited $rc, not 1: $(tail -3 "$work/check2.log")"
grep -q "BM_external_checksum: callgrind ir regressed" "$work/check2.log" ||
  fail "the failing check does not name the benchmark: $(tail -3 "$work/check2.log")"
echo "install_test: the installed perfci gates the project: pass on its baseline, exit 1 on a 10% cheaper one"

# pkg-config users get the same hook.
flags=$(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs perfci-hook) ||
  fail "pkg-config does not know perfci-hook"
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++20 -O2 "$src/tests/fixtures/external_project/external_bench.cc" -o "$work/pc_bench" $flags ||
  fail "the benchmark does not build with pkg-config's flags: $flags"
"$work/pc_bench" --benchmark_filter=BM_external_checksum --benchmark_min_time=0.01 >/dev/null ||
  fail "the pkg-config build does not run"
echo "install_test: pkg-config --cflags --libs perfci-hook builds and links the same benchmark"
echo "install_test: pass"

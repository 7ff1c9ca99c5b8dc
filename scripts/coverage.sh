#!/usr/bin/env bash
# Line and branch coverage of the test suite (gcc --coverage, gcovr).
#
#   scripts/coverage.sh [BUILD_DIR] [--check]
#
# Without BUILD_DIR: configures and builds the coverage preset (build/coverage:
# the debug preset's ASan + UBSan build with --coverage), deletes the counters
# of any earlier run (stale .gcda files would add their counts to this one),
# runs every test, then reports. With BUILD_DIR: only reports on the counters
# that the tests already left there (scripts/test.sh runs the tests itself).
#
# Writes reports/coverage/:
#   index.html          gcovr --html-details: every source file, line by line,
#                       each branch taken or not
#   gcovr-summary.json  gcovr --json-summary: line and branch counts per file
#   summary.txt, summary.json
#                       line and branch % per directory (scripts/coverage_summary.py)
#
# --check: fails (exit 1) if the branch % of a directory named in
# scripts/coverage-floor.json is below its floor, and exits 2 if that file is
# missing or malformed. CI runs it (scripts/test.sh).
#
# What is counted: the sources under engine/ and perfci/. Not counted: tests
# (*_test.cc, *_test_util.h, tests/), test support (engine/testing/), the
# fixtures, and anything under build/ (generated files).
#
# Which branches: gcovr's --exclude-throw-branches and
# --exclude-unreachable-branches. g++ gives every call that may throw an
# extra arc to its landing pad; those are compiler-generated exception edges,
# not decisions in our code, and they would be most of the "uncovered"
# branches (almost no call in a test throws). Unreachable branches are the
# arcs gcc attributes to lines with no code of their own (a closing brace,
# the end of a scope's destructors). With both, a branch is an if/loop/
# switch/&&/||/?: outcome of the source, which is what a floor should hold.
set -euo pipefail
invoked_from=$PWD
cd "$(dirname "$0")/.."
root=$PWD

build_dir=""
check=0
for arg in "$@"; do
  case "$arg" in
    --check) check=1 ;;
    -h | --help)
      sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    -*)
      echo "coverage: unknown option $arg (usage: scripts/coverage.sh [BUILD_DIR] [--check])" >&2
      exit 2
      ;;
    *)
      if [[ -n "$build_dir" ]]; then
        echo "coverage: more than one build directory ($build_dir, $arg)" >&2
        exit 2
      fi
      build_dir=$arg
      ;;
  esac
done

need_gcovr() {
  if ! command -v gcovr >/dev/null; then
    echo "coverage: gcovr is not installed (apt-get install gcovr; scripts/install-deps.sh)" >&2
    exit 2
  fi
}

if [[ -z "$build_dir" ]]; then
  need_gcovr  # before a build of an hour, not after it
  build_dir=build/coverage
  jobs=$(nproc)
  cmake --preset coverage >/dev/null
  cmake --build --preset coverage -j "$jobs"
  find "$build_dir" -name '*.gcda' -delete
  ctest --preset coverage -j "$jobs"
fi

if [[ "$build_dir" != /* && ! -d "$build_dir" && -d "$invoked_from/$build_dir" ]]; then
  build_dir=$invoked_from/$build_dir  # relative to where it was run from
fi
if [[ ! -d "$build_dir" ]]; then
  echo "coverage: $build_dir is not a directory" >&2
  exit 2
fi
if ! grep -q '^PERFCI_COVERAGE:BOOL=ON' "$build_dir/CMakeCache.txt" 2>/dev/null; then
  echo "coverage: $build_dir is not a coverage build (configure it with cmake --preset coverage)" >&2
  exit 2
fi
if [[ -z "$(find "$build_dir" -name '*.gcda' -print -quit)" ]]; then
  echo "coverage: no .gcda counters under $build_dir: run the tests first" >&2
  exit 2
fi

need_gcovr
out=reports/coverage
rm -rf "$out"
mkdir -p "$out"
# gcov must be the one of the compiler that built the tree (gcc 12 on Debian 12).
cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build_dir/CMakeCache.txt")
gcov=gcov
if [[ "$cxx" =~ g\+\+-([0-9]+)$ ]] && command -v "gcov-${BASH_REMATCH[1]}" >/dev/null; then
  gcov=gcov-${BASH_REMATCH[1]}
fi

# Filters are regular expressions; relative ones are taken from the root.
gcovr --root "$root" --object-directory "$build_dir" --gcov-executable "$gcov" -j "$(nproc)" \
  --filter 'engine/' --filter 'perfci/' \
  --exclude '.*_test\.cc$' --exclude '.*_test_util\.h$' --exclude 'engine/testing/' \
  --exclude 'tests/' --exclude 'build/' \
  --exclude-throw-branches --exclude-unreachable-branches \
  --html-details "$out/index.html" --html-title "perfci coverage" \
  --json-summary "$out/gcovr-summary.json" \
  "$build_dir"

summary_args=("$out/gcovr-summary.json" --txt "$out/summary.txt" --json "$out/summary.json")
if ((check)); then
  summary_args+=(--check scripts/coverage-floor.json)
fi
status=0
python3 scripts/coverage_summary.py "${summary_args[@]}" || status=$?
echo "coverage: $out/index.html, $out/summary.txt"
exit "$status"

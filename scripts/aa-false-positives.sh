#!/usr/bin/env bash
# The A/A false-positive rate of `perfci aa` at its default statistics
# (issue 23): RUNS A/A suite runs of one benchmark binary, each with its own
# seed, and a count of the runs and of the benchmark x metric pairs that
# came out "regressed" or "improved" — every one of them a false positive,
# since both sides are the same binary.
#
#   scripts/aa-false-positives.sh PERFCI BINARY RUNS [--load] [perfci aa options...]
#
# --load keeps one compiler busy on this machine for the whole measurement
# (g++ -O2 on a perfci source, over and over), the loaded CI runner that the
# rate must hold on. Extra options go to every `perfci aa` (default:
# --meter wall --min-time 0.01, short trials, where noise is worst).
# Prints one line per run as it goes and the totals at the end; exits 0.
set -euo pipefail
if [[ $# -lt 3 ]]; then
  echo "usage: $0 PERFCI BINARY RUNS [--load] [perfci aa options...]" >&2
  exit 2
fi
perfci=$1 binary=$2 runs=$3
shift 3
load=0
if [[ ${1:-} == --load ]]; then
  load=1
  shift
fi
extra=("$@")
((${#extra[@]})) || extra=(--meter wall --min-time 0.01)
[[ -x $perfci ]] || { echo "$0: $perfci is not an executable" >&2; exit 2; }
[[ -x $binary ]] || { echo "$0: $binary is not an executable" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/perfci-aa-rate.XXXXXX")
load_pid=
cleanup() {
  [[ -n $load_pid ]] && kill -- "-$load_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
if ((load)); then
  src=$(cd "$(dirname "$0")/.." && pwd)
  set -m
  (while true; do g++ -std=c++20 -O2 -I"$src" -c "$src/perfci/stats/bootstrap.cc" -o "$work/load.o"; done) \
    >/dev/null 2>&1 &
  load_pid=$!
  set +m
fi

for ((i = 1; i <= runs; i++)); do
  rc=0
  "$perfci" aa "$binary" --seed "$i" "${extra[@]}" --out "$work/run-$i.json" --quiet || rc=$?
  if ((rc > 1)); then
    echo "run $i: perfci aa failed (exit $rc)" >&2
    exit 2
  fi
  echo "run $i/$runs: exit $rc, load $(cut -d' ' -f1 /proc/loadavg)"
done

python3 - "$work" "$runs" <<'EOF'
import glob, json, sys
work, runs = sys.argv[1], int(sys.argv[2])
per_metric, bad_runs, tests = {}, 0, 0
for path in sorted(glob.glob(work + "/run-*.json")):
    report = json.load(open(path))
    bad = False
    for b in report["benchmarks"]:
        for m in b["metrics"]:
            if m["policy"].get("deterministic"):
                continue
            key = b["name"] + " " + m["kind"] + "/" + m["metric"]
            tests += 1
            # The effective verdict: "outcome" where the report has one.
            v = m.get("outcome", m.get("verdict"))
            hit = v in ("regressed", "improved")
            per_metric.setdefault(key, [0, 0])
            per_metric[key][0] += hit
            per_metric[key][1] += 1
            bad |= hit
    bad_runs += bad
print(f"A/A false positives: {bad_runs} of {runs} suite runs ({100.0 * bad_runs / runs:.2f}%), "
      f"{sum(v[0] for v in per_metric.values())} of {tests} benchmark x metric verdicts")
for key, (hits, n) in sorted(per_metric.items()):
    print(f"  {key}: {hits} of {n} ({100.0 * hits / n:.2f}%)")
EOF

#!/usr/bin/env bash
# The regression gallery on the real engine (issue 18): the five patterns of
# tests/gallery applied to the engine (scripts/gallery/*.patch), each as a
# scratch commit in a scratch worktree, judged by `perfci compare` against
# HEAD with deterministic meters only; then HEAD against itself, which must
# pass. Each case must exit 1 and name its cause in the report; anything else
# fails the script. Reports go to OUT (default reports/gallery/): <case>.json,
# <case>.md and summary.md.
#
#   bash scripts/regression-gallery.sh [OUT] [--jobs N] [--case NAME]...
#
# --case runs only the named cases (and the control).
#
# It builds HEAD and five patched revisions (release preset, .perfci-cache/),
# so it takes several minutes per case on 2 cores: too long for CI, run by
# hand; the miniature cases run in ctest (perfci_gallery_test).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/reports/gallery
jobs=$(nproc)
only=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --jobs) jobs=$2; shift 2 ;;
    --case) only+=("$2"); shift 2 ;;
    -*) echo "regression-gallery: unknown flag $1" >&2; exit 2 ;;
    *) out=$1; shift ;;
  esac
done
mkdir -p "$out"
cd "$root"
perfci=$root/build/release/perfci/cli/perfci
if [[ ! -x $perfci ]]; then
  cmake --preset release >/dev/null
  cmake --build --preset release -j "$jobs" --target perfci
fi
scratch=$(mktemp -d /tmp/perfci-gallery.XXXXXX)
cleanup() {
  for wt in "$scratch"/*/; do
    [[ -d $wt ]] && git -C "$root" worktree remove --force "$wt" >/dev/null 2>&1 || true
  done
  rm -rf "$scratch"
}
trap cleanup EXIT

# case; benchmarks compared; extra perfci flags; what the report must say
cases=(
  "inline_decode;^engine/(point_lookup|range_scan)$;;varint decode inlined into the rowid seek' went from ok to broken"
  "sret_return;^engine/(read_full_scan|point_lookup)$;;engine::Value stays 16 bytes' went from ok to broken"
  "quadratic_drain;^engine/(range_scan_len|drain_rows)/[0-9]+$;;grows as n^"
  "dependent_load;^engine/(read_full_scan|range_scan)$;--cache-sim;engine::Pager::Get"
  "executor_rebuild;^engine/(point_lookup|update_by_pk)$;;callgrind allocations regressed"
)

summary=$out/summary.md
{
  echo "# The regression gallery on the engine"
  echo
  echo "\`perfci compare HEAD <HEAD + scripts/gallery/<case>.patch> --meter callgrind\` on $(git rev-parse --short HEAD); exit 1 expected."
  echo
  echo "| case | exit | verdict | cause named |"
  echo "|---|---:|---|---|"
} >"$summary"

failed=0
judge() {  # name rev filter flags expected_exit expected_text
  local name=$1 rev=$2 filter=$3 flags=$4 want_rc=$5 want=$6 rc=0
  # shellcheck disable=SC2086  # flags is one optional word
  "$perfci" compare HEAD "$rev" --meter callgrind $flags --filter "$filter" --pairs 1 \
    --no-history --quiet --jobs "$jobs" --out "$out/$name.json" --md "$out/$name.md" || rc=$?
  local verdict named=no
  verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["summary"]["verdict"])' \
    "$out/$name.json" 2>/dev/null || echo "no report")
  if [[ -z $want ]] || grep -qF -- "$want" "$out/$name.md"; then named=yes; fi
  echo "| $name | $rc | $verdict | $named${want:+ (\`$want\`)} |" >>"$summary"
  if [[ $rc -ne $want_rc || $named != yes ]]; then
    echo "regression-gallery: $name: exit $rc (expected $want_rc), cause named: $named" >&2
    failed=1
  else
    echo "regression-gallery: $name: exit $rc, $verdict, cause named" >&2
  fi
}

for entry in "${cases[@]}"; do
  IFS=';' read -r name filter flags want <<<"$entry"
  if [[ ${#only[@]} -gt 0 && ! " ${only[*]} " =~ " $name " ]]; then continue; fi
  [[ -f scripts/gallery/$name.patch ]] || { echo "regression-gallery: no $name.patch" >&2; exit 2; }
  wt=$scratch/$name
  git worktree add --quiet --detach "$wt" HEAD
  git -C "$wt" apply "$root/scripts/gallery/$name.patch"
  git -C "$wt" -c user.name=perfci-gallery -c user.email=gallery@localhost \
    commit --quiet --all --message "gallery: $name (scripts/gallery/$name.patch)"
  judge "$name" "$(git -C "$wt" rev-parse HEAD)" "$filter" "$flags" 1 "$want"
done
# The control: the unmodified tree is not flagged.
judge unmodified HEAD "^engine/(point_lookup|range_scan|read_full_scan|range_scan_len|drain_rows)" \
  "" 0 ""
cat "$summary"
exit "$failed"

#!/usr/bin/env bash
# The run step of action.yml: one perfci call built from the inputs (env
# PERFCI_*; never interpolated into this script), its Markdown report in the
# job summary, its result in the step's outputs, and the step's exit code:
# perfci's own (0 pass, 1 regressed, 2 error, 3 not gated) when
# PERFCI_FAIL=true, else 0 with a warning (information only).
set -euo pipefail
command=${PERFCI_COMMAND:-check}
config=${PERFCI_CONFIG:-perfci.json}
meter=${PERFCI_METER:-callgrind}
perfci=${PERFCI_EXECUTABLE:-perfci}
output() {  # name=value for the step's outputs
  if [[ -n ${GITHUB_OUTPUT:-} ]]; then echo "$1" >>"$GITHUB_OUTPUT"; fi
}
summary() {
  if [[ -n ${GITHUB_STEP_SUMMARY:-} ]]; then cat >>"$GITHUB_STEP_SUMMARY"; else cat >/dev/null; fi
}
# The pull request's fork point (not the base tip: commits that landed on
# the base later are not the pull request's). Needs the history
# (actions/checkout with fetch-depth: 0).
merge_base() {
  [[ -n ${PERFCI_BASE_REF:-} ]] || return 1
  git fetch --no-tags origin "+refs/heads/${PERFCI_BASE_REF}:refs/remotes/origin/${PERFCI_BASE_REF}" >&2 ||
    return 1
  git merge-base "origin/${PERFCI_BASE_REF}" HEAD
}

args=()
case $command in
  check)
    report=reports/latest
    args=(check --config "$config" --meter "$meter")
    if [[ -n ${PERFCI_BUILD_DIR:-} ]]; then args+=(--no-build --build-dir "$PERFCI_BUILD_DIR"); fi
    # Where this runner cannot use the stored baseline (another CPU), check
    # measures the merge base here instead.
    if base=$(merge_base); then args+=(--reference "$base"); fi
    ;;
  compare)
    report=reports/compare
    base=${PERFCI_BASE:-}
    if [[ -z $base ]] && ! base=$(merge_base); then
      echo "::error title=perfci compare::no revision to compare with: give the 'base' input, or run on a pull_request event (with fetch-depth: 0)"
      output "exit-code=2"
      output "verdict=error"
      exit 2
    fi
    args=(compare "$base" HEAD --config "$config" --meter "$meter" --out "$report.json" --md "$report.md"
          --html "$report.html")
    ;;
  *)
    echo "::error title=perfci::the command input must be check or compare, not '$command'"
    output "exit-code=2"
    output "verdict=error"
    exit 2
    ;;
esac
# One argument per line of the args input, exactly as written.
while IFS= read -r line; do
  if [[ -n $line ]]; then args+=("$line"); fi
done <<<"${PERFCI_ARGS:-}"

mkdir -p reports
echo "perfci ${args[*]}"
rc=0
"$perfci" "${args[@]}" || rc=$?
case $rc in
  0) verdict=pass ;;
  1) verdict=regressed ;;
  3) verdict=not-gated ;;
  *) verdict=error ;;
esac
output "exit-code=$rc"
output "verdict=$verdict"
if [[ -f $report.json ]]; then output "report=$PWD/$report.json"; fi
{
  echo "## perfci $command: $verdict (exit $rc)"
  echo
  if [[ -f $report.md ]]; then cat "$report.md"; else echo "perfci wrote no report ($report.md)."; fi
} | summary
# An error annotation where the step fails; a warning where it informs.
level=error
if [[ ${PERFCI_FAIL:-true} != true ]]; then level=warning; fi
case $rc in
  0) ;;
  3) echo "::$level title=perfci $command::not gated (exit 3): nothing could be compared on this runner. That is not a pass; see the job summary" ;;
  1) echo "::$level title=perfci $command::regressed (exit 1): a gated regression or a broken contract; see the job summary" ;;
  *) echo "::$level title=perfci $command::error (exit $rc): perfci could not give a verdict; see the log" ;;
esac
if [[ $level == error ]]; then exit "$rc"; fi
exit 0

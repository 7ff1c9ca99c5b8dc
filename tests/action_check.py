#!/usr/bin/env python3
"""The GitHub Action (action.yml, issue 21 item 3) parses, passes its inputs
only through env:, calls scripts that exist, and its run step does what its
comment says, measured by running scripts/action-run.sh with a stub in place
of perfci:

- check: --config/--meter from the inputs, --no-build --build-dir when a
  build folder is given, --reference MERGE_BASE on a pull request (the fork
  point, not the base tip), each line of `args` one argument, spaces kept;
- compare: MERGE_BASE HEAD (or the `base` input), the report files named;
  no base and no pull request: exit 2 with an error, perfci never called;
- perfci's exit 0/1/2/3 becomes the step's exit code with fail-on-regression
  true, 0 with it false; the outputs say exit-code, verdict and report; the
  job summary holds the Markdown report; an unknown command is an error.

usage: action_check.py ROOT
"""
import os
import pathlib
import stat
import subprocess
import sys
import tempfile

import yaml

from check_lib import check, finish, git

ROOT = pathlib.Path(sys.argv[1]).resolve()


def commit(repo, name, text):
    (repo / name).write_text(text)
    git(repo, "add", name)
    git(repo, "commit", "-q", "-m", name)
    return git(repo, "rev-parse", "HEAD")


print("action.yml")
action = yaml.safe_load((ROOT / "action.yml").read_text())
runs = action.get("runs", {})
check(runs.get("using") == "composite", "action.yml is a composite action", f"using: {runs.get('using')}")
steps = runs.get("steps") or []
for i, st in enumerate(steps):
    script = str(st.get("run", ""))
    if not script:
        continue
    check("${{" not in script, f"step {i} ({st.get('name')}): no ${{{{ }}}} inside its script",
          "inputs reach scripts through env: only")
    check(st.get("shell") == "bash", f"step {i}: shell bash", f"shell {st.get('shell')!r}")
    for word in script.split():
        if "scripts/" in word:
            rel = word.strip('"').split("scripts/", 1)[1]
            check((ROOT / "scripts" / rel).is_file(), f"step {i} calls scripts/{rel}, which exists")
used = {k for st in steps for v in (st.get("env") or {}).values() for k in action["inputs"]
        if f"inputs.{k}" in str(v)}
used |= {k for st in steps for v in (st.get("with") or {}).values() for k in action["inputs"]
         if f"inputs.{k}" in str(v)}
used |= {k for st in steps for k in action["inputs"] if f"inputs.{k}" in str(st.get("if", ""))}
used |= {k for st in steps for k in action["inputs"] if f"inputs.{k}" in str(st.get("working-directory", ""))}
used |= {k for st in steps for k in action["inputs"] if f"inputs.{k}" in str(st.get("name", ""))}
check(used == set(action["inputs"]), "every input is used by a step",
      f"unused: {sorted(set(action['inputs']) - used)}")
run_step = next((st for st in steps if st.get("id") == "run"), {})
for out, spec in (action.get("outputs") or {}).items():
    check(f"steps.run.outputs.{out}" in str(spec.get("value")), f"output {out} comes from the run step")

print("\nscripts/action-run.sh with a stub perfci")
top = pathlib.Path(tempfile.mkdtemp(prefix="perfci-action-"))
# An origin whose main moved on after the pull request's branch left it: the
# merge base is B, the base tip C.
origin, work = top / "origin.git", top / "work"
git(top, "init", "-q", "--bare", "-b", "main", str(origin))
git(top, "init", "-q", "-b", "main", str(work))
commit(work, "a", "a")
B = commit(work, "b", "b")
git(work, "checkout", "-q", "-b", "feature")
D = commit(work, "d", "d")
git(work, "checkout", "-q", "main")
C = commit(work, "c", "c")
git(work, "remote", "add", "origin", f"file://{origin}")
git(work, "push", "-q", "origin", "main", "feature")
git(work, "checkout", "-q", "--detach", D)

stub = top / "perfci-stub"
stub.write_text("""#!/usr/bin/env bash
printf '%s\\n' "$@" > "$STUB_ARGS"
mkdir -p reports
case "$1" in
  check) echo "## stub report rc=$STUB_RC" > reports/latest.md; echo '{}' > reports/latest.json ;;
  compare) echo "## stub compare rc=$STUB_RC" > reports/compare.md; echo '{}' > reports/compare.json ;;
esac
exit "$STUB_RC"
""")
stub.chmod(stub.stat().st_mode | stat.S_IEXEC)


def run(rc=0, base_ref="", **inputs):
    n = run.count = getattr(run, "count", 0) + 1
    files = {k: top / f"{k}{n}" for k in ("args", "out", "summary")}
    for f in files.values():
        f.write_text("")
    env = {"PATH": os.environ["PATH"], "HOME": str(top), "PERFCI_EXECUTABLE": str(stub),
           "STUB_RC": str(rc), "STUB_ARGS": str(files["args"]), "GITHUB_OUTPUT": str(files["out"]),
           "GITHUB_STEP_SUMMARY": str(files["summary"]), "PERFCI_BASE_REF": base_ref,
           "GIT_CONFIG_NOSYSTEM": "1"}
    env.update({f"PERFCI_{k.upper()}": v for k, v in inputs.items()})
    r = subprocess.run(["bash", str(ROOT / "scripts" / "action-run.sh")], cwd=work, env=env,
                       capture_output=True, text=True, timeout=120)
    out = dict(line.split("=", 1) for line in files["out"].read_text().splitlines() if "=" in line)
    return r, files["args"].read_text().splitlines(), out, files["summary"].read_text()


r, args, out, summary = run(COMMAND="check", CONFIG="perf/ci.json", METER="callgrind",
                            BUILD_DIR="build dir", ARGS="--filter=BM_a b\n\n--pairs\n3\n", FAIL="true")
check(r.returncode == 0, "check, perfci exit 0: the step passes", r.stderr)
check(args == ["check", "--config", "perf/ci.json", "--meter", "callgrind", "--no-build", "--build-dir",
               "build dir", "--filter=BM_a b", "--pairs", "3"],
      "check: config, meter, build folder and each args line as one argument", f"{args}")
check(out.get("exit-code") == "0" and out.get("verdict") == "pass"
      and out.get("report", "").endswith("reports/latest.json"), "outputs: exit-code 0, verdict pass, report",
      f"{out}")
check("## perfci check: pass (exit 0)" in summary and "stub report rc=0" in summary,
      "the job summary holds the verdict and the Markdown report", summary)

r, args, out, _ = run(COMMAND="check", FAIL="true", base_ref="main")
check("--reference" in args and args[args.index("--reference") + 1] == B,
      "check on a pull request: --reference is the merge base, not the base tip",
      f"{args} (merge base {B[:12]}, base tip {C[:12]})")

for rc, verdict in ((1, "regressed"), (2, "error"), (3, "not-gated")):
    r, _, out, _ = run(rc=rc, COMMAND="check", FAIL="true")
    check(r.returncode == rc and out.get("verdict") == verdict and f"::error title=perfci check::" in r.stdout,
          f"perfci exit {rc}: the step fails with {rc}, verdict {verdict}, an error annotation",
          f"step exit {r.returncode}, {out}, {r.stdout[-200:]}")
    r, _, out, _ = run(rc=rc, COMMAND="check", FAIL="false")
    check(r.returncode == 0 and out.get("exit-code") == str(rc) and "::warning title=perfci check::" in r.stdout,
          f"perfci exit {rc} with fail-on-regression false: the step passes, warns, says exit-code {rc}",
          f"step exit {r.returncode}, {out}")
r, _, _, _ = run(rc=3, COMMAND="check", FAIL="true")
check("not gated" in r.stdout, "exit 3 says 'not gated', not pass", r.stdout[-200:])

r, args, out, summary = run(COMMAND="compare", METER="wall", FAIL="false", base_ref="main")
check(args[:3] == ["compare", B, "HEAD"] and "--out" in args and "reports/compare.md" in args,
      "compare on a pull request: MERGE_BASE HEAD, the report files named", f"{args}")
check("stub compare rc=0" in summary, "compare's Markdown report is in the job summary", summary)
r, args, _, _ = run(COMMAND="compare", BASE="v1.2", FAIL="true")
check(args[:3] == ["compare", "v1.2", "HEAD"], "compare with the base input: that revision", f"{args}")
r, args, out, _ = run(COMMAND="compare", FAIL="true")
check(r.returncode == 2 and args == [] and out.get("verdict") == "error" and "::error" in r.stdout,
      "compare with no base and no pull request: exit 2, an error, perfci not called",
      f"exit {r.returncode}, args {args}")
r, args, _, _ = run(COMMAND="bench", FAIL="true")
check(r.returncode == 2 and args == [], "an unknown command: exit 2, perfci not called", f"exit {r.returncode}")

finish("action_check")

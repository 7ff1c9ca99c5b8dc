"""What the Python checkers under tests/ share (workflow_check.py,
action_check.py): one assertion that prints what it verified, the summary
that exits non-zero on any failure, and git in a scratch repository with a
fixed identity and no user or system configuration."""
import os
import subprocess
import sys

passed = 0
failed = []


def check(ok, what, why=""):
    """One assertion: prints what was verified, or records why it failed."""
    global passed
    if ok:
        passed += 1
        print(f"  ok    {what}")
    else:
        failed.append(f"{what}: {why}" if why else what)
        print(f"  FAIL  {what}{': ' + why if why else ''}")
    return ok


def finish(name):
    """Prints the failures and exits 1 if any, else says how many passed."""
    print()
    for f in failed:
        print(f"{name}: FAIL: {f}", file=sys.stderr)
    if failed:
        print(f"{name}: {len(failed)} of {passed + len(failed)} checks failed", file=sys.stderr)
        sys.exit(1)
    print(f"{name}: {passed} checks passed")


def git(cwd, *args):
    r = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=60,
                       env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "HOME": str(cwd),
                            "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                            "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"})
    if r.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {r.stderr.strip()}")
    return r.stdout.strip()

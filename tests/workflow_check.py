#!/usr/bin/env python3
"""The CI workflows parse as YAML, call only what exists in this tree, and keep
the properties issue 13 (item 5) asked of them.

1. References. For every `run:` step of .github/workflows/*.yml and for the
   scripts they and .ci/run call: each `scripts/X` or `.ci/X` named must be a
   file (or a folder: `scripts/gallery/$case.patch` names scripts/gallery) of the repository, and each `perfci SUBCOMMAND --option` must be a
   subcommand and an option that the built perfci accepts (its --help lists
   it). A workflow that calls a renamed script or a removed option fails here,
   not on GitHub.
2. Properties, read from the YAML:
   - every job has a positive timeout-minutes;
   - every workflow has a top-level concurrency group per workflow and ref
     that cancels superseded pull-request runs;
   - no `run:` script interpolates an untrusted `${{ github.event.* }}` (or
     github.head_ref) string: those go through `env:`;
   - a self-hosted job's `if:` is false for a fork's pull request (and for
     pull_request_target and other events), true for a push and for a pull
     request from this repository: the `if:` is evaluated, not pattern-matched.
3. Behaviour, by running the steps' own scripts with bash in scratch git
   repositories (GitHub's checkout modelled from the step's `with:`) and a
   stub in place of perfci:
   - the merge-base step of every job that compares or warns yields the fork
     point of the pull request, not the base tip, and the compare's first
     revision is that merge base;
   - the baselines/ warning step names each baselines/ file the pull request
     edits (one ::warning each, and the job summary), not the ones the base
     edited since, and says nothing when none is edited;
   - a gate step (perfci check/compare with any meter but wall alone, and
     perfci merge of a sharded check's parts) fails on perfci's exit 1, 2
     and 3, and on 3 says "not gated"; a wall-only step
     never fails and writes its report to the job summary.

usage: workflow_check.py ROOT PERFCI_BINARY
"""
import functools
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

import yaml

from check_lib import check, finish, git

ROOT = pathlib.Path(sys.argv[1])
PERFCI = sys.argv[2]
def section(title):
    print(f"\n{title}")


# ---------------------------------------------------------------- references

@functools.lru_cache(maxsize=None)
def perfci_help(words):
    r = subprocess.run([PERFCI, *words, "--help"], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


@functools.lru_cache(maxsize=None)
def subcommands(words):
    # The names CLI11's help lists under "Subcommands:".
    _, text = perfci_help(words)
    names, inside = set(), False
    for line in text.splitlines():
        if line.strip() == "Subcommands:":
            inside = True
        elif inside and line.startswith("  ") and line.split():
            names.add(line.split()[0])
        elif inside and line.strip():
            inside = False
    return frozenset(names)


HAVE_PERFCI = os.access(PERFCI, os.X_OK)


def perfci_calls(text):
    """(arguments text, words) of each `.../perfci/cli/perfci ...` call in a script."""
    # Backslash-newline continues a command: join before looking at options.
    text = text.replace("\\\n", " ")
    # One call per match: up to the end of the line or of the shell command.
    return [m.group(1) for m in re.finditer(r"perfci/cli/perfci\"?[ \t]+([^&|;\n]*)", text)]


def check_references(origin, text):
    problems, seen = [], []
    # A path may go deeper (scripts/snappy/perfci.json); a sentence's full
    # stop after it is not part of it.
    for path in re.findall(r"(?<![\w./-])((?:scripts|\.ci)/[\w./-]+)", text.replace("\\\n", " ")):
        path = path.rstrip("./")
        seen.append(path)
        if not (ROOT / path).exists():
            problems.append(f"{path} does not exist")
    for args in perfci_calls(text):
        if not HAVE_PERFCI:
            seen.append(f"perfci {args.split()[0] if args.split() else ''} (options not checked)")
            continue
        command = []
        for w in args.split():
            if w not in subcommands(tuple(command)):
                break
            command.append(w)
        if not command:
            problems.append(f"`perfci {args}` names no perfci subcommand")
            continue
        rc, help_text = perfci_help(tuple(command))
        if rc != 0:
            problems.append(f"perfci {' '.join(command)} --help exited with {rc}")
            continue
        options = re.findall(r"(?<![\w-])(--[a-z][\w-]*)", args)
        for option in options:
            # A whole option name: --meter must not pass because --meters exists.
            if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text):
                problems.append(f"perfci {' '.join(command)} has no option {option}")
        seen.append(f"perfci {' '.join(command + sorted(set(options)))}")
    if seen or problems:
        check(not problems, f"{origin}: calls exist ({', '.join(dict.fromkeys(seen))})",
              "; ".join(problems))


# --------------------------------------------------- GitHub expressions (mini)

TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d+)?)|'((?:[^']|'')*)'|(==|!=|<=|>=|&&|\|\||[!<>(),])"
                   r"|([A-Za-z_][\w-]*(?:\.[\w*-]+)*))")


class Expr:
    """A small evaluator of GitHub Actions expressions: literals, contexts
    (dotted), ! == != < > <= >= && || ( ), and the functions workflows use."""

    def __init__(self, text, ctx):
        text = text.strip()
        m = re.fullmatch(r"\$\{\{(.*)\}\}", text, re.S)
        if m:
            text = m.group(1)
        elif "${{" in text:
            raise ValueError(f"cannot evaluate a condition mixing text and ${{{{ }}}}: {text!r}")
        self.toks, pos = [], 0
        text = text.strip()
        while pos < len(text):
            m = TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise ValueError(f"cannot parse {text[pos:]!r}")
            pos = m.end()
            num, s, op, name = m.groups()
            if num is not None:
                self.toks.append(("lit", float(num)))
            elif s is not None:
                self.toks.append(("lit", s.replace("''", "'")))
            elif op is not None:
                self.toks.append(("op", op))
            elif name in ("true", "false"):
                self.toks.append(("lit", name == "true"))
            elif name == "null":
                self.toks.append(("lit", None))
            else:
                self.toks.append(("name", name))
            while pos < len(text) and text[pos].isspace():
                pos += 1
        self.i, self.ctx = 0, ctx

    def value(self):
        v = self.or_()
        if self.i != len(self.toks):
            raise ValueError(f"unexpected {self.toks[self.i][1]!r}")
        return v

    def peek(self, op):
        return self.i < len(self.toks) and self.toks[self.i] == ("op", op)

    def take(self, op):
        if not self.peek(op):
            raise ValueError(f"expected {op!r}")
        self.i += 1

    def or_(self):
        v = self.and_()
        while self.peek("||"):
            self.i += 1
            r = self.and_()
            v = v if truthy(v) else r
        return v

    def and_(self):
        v = self.cmp()
        while self.peek("&&"):
            self.i += 1
            r = self.cmp()
            v = r if truthy(v) else v
        return v

    def cmp(self):
        v = self.unary()
        for op in ("==", "!=", "<=", ">=", "<", ">"):
            if self.peek(op):
                self.i += 1
                r = self.unary()
                a, b = norm(v), norm(r)
                if op in ("==", "!="):
                    return (a == b) == (op == "==")
                return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[op]
        return v

    def unary(self):
        if self.peek("!"):
            self.i += 1
            return not truthy(self.unary())
        if self.peek("("):
            self.i += 1
            v = self.or_()
            self.take(")")
            return v
        kind, v = self.toks[self.i]
        self.i += 1
        if kind == "lit":
            return v
        if self.peek("("):
            self.i += 1
            args = []
            while not self.peek(")"):
                args.append(self.or_())
                if self.peek(","):
                    self.i += 1
            self.take(")")
            return call(v, args)
        node = self.ctx
        for part in v.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        return node


def truthy(v):
    return v not in (None, False, 0, 0.0, "")


def norm(v):
    # GitHub compares strings case-insensitively.
    return v.lower() if isinstance(v, str) else v


def call(name, args):
    name = name.lower()
    if name in ("always", "success"):
        return True
    if name in ("failure", "cancelled"):
        return False
    s = [norm(a) if isinstance(a, str) else a for a in args]
    if name == "contains":
        return s[1] in s[0] if isinstance(s[0], (str, list)) else False
    if name == "startswith":
        return isinstance(s[0], str) and s[0].startswith(s[1])
    if name == "endswith":
        return isinstance(s[0], str) and s[0].endswith(s[1])
    raise ValueError(f"unknown function {name}()")


def evaluate(text, ctx):
    if isinstance(text, bool):
        return text
    return Expr(str(text), ctx).value()


def substitute(value, ctx):
    """An env value with ${{ }} parts evaluated against ctx."""
    if not isinstance(value, str):
        return "" if value is None else str(value).lower() if isinstance(value, bool) else str(value)

    def one(m):
        v = evaluate("${{" + m.group(1) + "}}", ctx)
        return "" if v is None else str(v)
    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


REPO = "perfci/perfci"


def context(event, *, fork=False, runner_var="true", **github):
    head_repo = "someone/perfci" if fork else REPO
    ctx = {"github": {"event_name": event, "repository": REPO, "workflow": "perf",
                      "ref": "refs/pull/1/merge" if "pull_request" in event else "refs/heads/main",
                      "event": {}},
           "vars": {"PERFCI_PMU_RUNNER": runner_var} if runner_var is not None else {},
           "runner": {"os": "Linux"}, "steps": {}, "env": {}}
    if event != "push":
        ctx["github"]["event"]["pull_request"] = {
            "head": {"repo": {"full_name": head_repo, "fork": fork}, "ref": "feature",
                     "sha": github.get("head_sha", "0" * 40)},
            "base": {"repo": {"full_name": REPO}, "ref": "main", "sha": github.get("base_sha", "1" * 40)},
            "title": "$(touch /tmp/pwned)"}
        ctx["github"]["base_ref"] = "main"
        ctx["github"]["head_ref"] = "feature"
    ctx["github"]["sha"] = github.get("sha", "2" * 40)
    return ctx


# ----------------------------------------------------------- running steps

def shell_of(wf, job, step):
    shell = (step.get("shell") or (job.get("defaults") or {}).get("run", {}).get("shell")
             or (wf.get("defaults") or {}).get("run", {}).get("shell"))
    if shell is None:
        return ["bash", "-e", "{0}"]
    known = {"bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", "{0}"], "sh": ["sh", "-e", "{0}"]}
    if shell in known:
        return known[shell]
    if "{0}" in shell:
        return shlex.split(shell)
    raise ValueError(f"unknown shell {shell!r}")


STUB = r"""#!/usr/bin/env bash
# perfci stand-in: says how it was called, writes the reports, exits $STUB_RC.
echo "stub perfci $*"
prev=
for a in "$@"; do
  case "$prev" in --md) mkdir -p "$(dirname "$a")"; echo "STUB-MARKDOWN-REPORT" > "$a" ;; esac
  prev=$a
done
if [ "$1" = check ]; then mkdir -p reports; echo "STUB-MARKDOWN-REPORT" > reports/latest.md; fi
exit "${STUB_RC:-0}"
"""


def read_env_file(path):
    out, lines, i = {}, pathlib.Path(path).read_text().splitlines(), 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"([^=<]+)<<(.+)$", line)
        if m:
            name, delim, vals = m.group(1), m.group(2), []
            i += 1
            while i < len(lines) and lines[i] != delim:
                vals.append(lines[i])
                i += 1
            out[name] = "\n".join(vals)
        elif "=" in line:
            k, v = line.split("=", 1)
            out[k] = v
        i += 1
    return out


class StepRun:
    def __init__(self, rc, output, summary, env, outputs):
        self.rc, self.output, self.summary, self.env, self.outputs = rc, output, summary, env, outputs


def matrix_of(job):
    """The first combination of the job's strategy.matrix: what its steps see as matrix.*."""
    m = (job.get("strategy") or {}).get("matrix") or {}
    return {k: v[0] for k, v in m.items() if isinstance(v, list) and v}


def run_step(wf, job, step, cwd, ctx, carried=None, extra=None):
    """Runs one `run:` step as the runner would: its shell, the workflow's,
    job's and step's env (expressions evaluated against ctx), then what
    earlier steps wrote to $GITHUB_ENV (carried)."""
    cwd = pathlib.Path(cwd)
    ctx = {**ctx, "matrix": matrix_of(job)}
    scratch = pathlib.Path(tempfile.mkdtemp(prefix="wfstep-", dir=cwd.parent))
    files = {k: scratch / k.lower() for k in ("GITHUB_STEP_SUMMARY", "GITHUB_ENV", "GITHUB_OUTPUT")}
    for f in files.values():
        f.write_text("")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(scratch), "LANG": "C.UTF-8",
           "GIT_CONFIG_NOSYSTEM": "1", "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(cwd),
           "GITHUB_EVENT_NAME": ctx["github"]["event_name"], "RUNNER_OS": "Linux",
           **{k: str(v) for k, v in files.items()}}
    for scope in (wf, job, step):
        for k, v in (scope.get("env") or {}).items():
            env[k] = substitute(v, ctx)
    env.update(carried or {})
    env.update(extra or {})
    script = scratch / "step.sh"
    script.write_text(step["run"])
    argv = [str(script) if a == "{0}" else a for a in shell_of(wf, job, step)]
    r = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    return StepRun(r.returncode, r.stdout + r.stderr, files["GITHUB_STEP_SUMMARY"].read_text(),
                   read_env_file(files["GITHUB_ENV"]), read_env_file(files["GITHUB_OUTPUT"]))


def commit(repo, message, files):
    for name, text in files.items():
        p = pathlib.Path(repo) / name
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
        git(repo, "add", name)
    git(repo, "commit", "-q", "-m", message)
    return git(repo, "rev-parse", "HEAD")


class Scenario:
    """An origin where main went on after the pull request's branch left it:

        A - B - C            main (C edits baselines/p/other.json after the fork)
             \\
              D              feature: edits baselines/p/engine.json, adds baselines/q/engine.json
              E              plain: edits only README.md
        M = merge of D into C, as GitHub's refs/pull/1/merge
    """

    def __init__(self, top):
        self.top = pathlib.Path(top)
        self.origin = self.top / "origin.git"
        work = self.top / "work"
        git(self.top, "init", "-q", "--bare", "-b", "main", str(self.origin))
        git(self.top, "init", "-q", "-b", "main", str(work))
        self.A = commit(work, "A", {"README.md": "a\n", "baselines/p/engine.json": "{}\n",
                                    "baselines/p/other.json": "{}\n"})
        self.B = commit(work, "B", {"README.md": "b\n"})
        git(work, "checkout", "-q", "-b", "feature")
        self.D = commit(work, "D", {"baselines/p/engine.json": '{"x": 1}\n',
                                    "baselines/q/engine.json": "{}\n", "README.md": "d\n"})
        git(work, "checkout", "-q", "-b", "plain", self.B)
        self.E = commit(work, "E", {"README.md": "e\n"})
        git(work, "checkout", "-q", "main")
        self.C = commit(work, "C", {"baselines/p/other.json": '{"y": 2}\n'})
        git(work, "checkout", "-q", "--detach", self.C)
        git(work, "merge", "-q", "--no-ff", "--no-edit", self.D)
        self.M = git(work, "rev-parse", "HEAD")
        git(work, "push", "-q", str(self.origin), "main", "feature", "plain", f"{self.M}:refs/pull/1/merge")
        self.n = 0

    def checkout(self, wf, job, head):
        """A clone as actions/checkout@v4 leaves it for this job's `with:`."""
        co = next((s for s in job.get("steps", []) if str(s.get("uses", "")).startswith("actions/checkout")), None)
        if co is None:
            raise ValueError("the job has no actions/checkout step")
        w = co.get("with") or {}
        ref = str(w.get("ref", ""))
        if ref == "":
            want = "refs/pull/1/merge"  # GitHub's default for a pull request: the merge commit
        elif "head.sha" in ref or "head_ref" in ref or "head.ref" in ref:
            want = head
        else:
            raise ValueError(f"cannot model checkout ref {ref!r}")
        depth = int(w.get("fetch-depth", 1))
        self.n += 1
        clone = self.top / f"clone{self.n}"
        git(self.top, "init", "-q", str(clone))
        git(clone, "remote", "add", "origin", f"file://{self.origin}")
        deep = [] if depth == 0 else [f"--depth={depth}"]
        if depth == 0:
            git(clone, "fetch", "-q", "--no-tags", "origin", "+refs/heads/*:refs/remotes/origin/*")
        git(clone, "fetch", "-q", "--no-tags", *deep, "origin", want)
        git(clone, "checkout", "-q", "--detach", "FETCH_HEAD")
        return clone


# ------------------------------------------------------------------- checks

workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
docs = {}
section("Workflows parse")
check(bool(workflows), ".github/workflows holds workflows", "no workflow in .github/workflows")
for wf in workflows:
    try:
        doc = yaml.safe_load(wf.read_text())
    except yaml.YAMLError as e:
        check(False, f"{wf.name} parses as YAML", str(e))
        continue
    if not check(isinstance(doc, dict) and isinstance(doc.get("jobs"), dict) and doc["jobs"],
                 f"{wf.name} parses and has jobs", "no jobs"):
        continue
    # PyYAML reads the key `on` as the boolean True.
    check("on" in doc or True in doc, f"{wf.name} has `on:` triggers", "no `on:`")
    docs[wf.name] = doc


def all_steps():
    for wname, doc in docs.items():
        for jname, job in doc["jobs"].items():
            for i, step in enumerate(job.get("steps") or []):
                yield wname, doc, jname, job, i, step


def where(wname, jname, i, step):
    name = str(step.get("name") or "")
    name = name if len(name) <= 48 else name[:47] + "…"
    return f"{wname} jobs.{jname}.steps[{i}]" + (f" ({name})" if name else "")


def runs_on_push(job, step):
    """Whether the step would run on a push (False when its or its job's if: says no)."""
    push = context("push")
    return truthy(evaluate(job.get("if", True), push)) and truthy(evaluate(step.get("if", True), push))


section("References: scripts and perfci options that the workflows and scripts call")
check(HAVE_PERFCI, f"perfci binary {PERFCI} is there to ask for --help", "not found or not executable")
for wname, doc, jname, job, i, step in all_steps():
    if "run" in step:
        check_references(where(wname, jname, i, step), step["run"])
for script in [ROOT / ".ci" / "run", *sorted((ROOT / "scripts").glob("*.sh"))]:
    if script.is_file():
        check_references(str(script.relative_to(ROOT)), script.read_text())

section("Every job has a timeout")
for wname, doc in docs.items():
    for jname, job in doc["jobs"].items():
        t = job.get("timeout-minutes")
        check((isinstance(t, (int, float)) and not isinstance(t, bool) and t > 0)
              or (isinstance(t, str) and "${{" in t),
              f"{wname} jobs.{jname}: timeout-minutes {t}", "missing or not a positive number")

section("Superseded runs are cancelled (top-level concurrency)")
for wname, doc in docs.items():
    c = doc.get("concurrency")
    group = c.get("group", "") if isinstance(c, dict) else (c or "")
    check(isinstance(group, str) and "github.workflow" in group and "github.ref" in group,
          f"{wname}: concurrency group per workflow and ref ({group!r})",
          "no top-level concurrency group naming github.workflow and github.ref")
    cancel = c.get("cancel-in-progress", False) if isinstance(c, dict) else False
    try:
        pr_cancels = truthy(evaluate(cancel, context("pull_request")))
    except ValueError as e:
        pr_cancels = False
        cancel = f"{cancel} ({e})"
    check(pr_cancels, f"{wname}: cancel-in-progress for pull requests ({cancel!r})",
          "a newer push to a pull request does not cancel the superseded run")

section("No untrusted ${{ github.event.* }} inside a run: script")
UNTRUSTED = re.compile(r"\$\{\{[^}]*\b(github\s*\.\s*(?:event\b|head_ref\b)|github\s*\[)", re.S)
for wname, doc in docs.items():
    bad = [f"jobs.{jname}.steps[{i}]: {m.group(0)!r}"
           for w2, _, jname, job, i, step in all_steps() if w2 == wname and "run" in step
           for m in [UNTRUSTED.search(str(step["run"]))] if m]
    check(not bad, f"{wname}: run: scripts take github.event/head_ref strings only through env:",
          "; ".join(bad))

section("Self-hosted jobs never run a fork's pull request")
selfhosted = []
for wname, doc in docs.items():
    for jname, job in doc["jobs"].items():
        labels = job.get("runs-on")
        labels = [labels] if isinstance(labels, str) else list(labels or [])
        if any("self-hosted" in str(x) for x in labels):
            selfhosted.append((wname, jname, job))
check(any(j == "pmu" for _, j, _ in selfhosted), "the pmu job runs on a self-hosted runner",
      f"self-hosted jobs found: {[j for _, j, _ in selfhosted]}")
for wname, jname, job in selfhosted:
    cond = job.get("if")
    cases = [("a fork's pull request", context("pull_request", fork=True), False),
             ("pull_request_target from a fork", context("pull_request_target", fork=True), False),
             ("pull_request_review from a fork", context("pull_request_review", fork=True), False),
             ("issue_comment", context("issue_comment", fork=True), False),
             ("a push, PERFCI_PMU_RUNNER unset", context("push", runner_var=None), False),
             ("a push", context("push"), True),
             ("a pull request from this repository", context("pull_request"), True)]
    for label, ctx, want in cases:
        try:
            got = True if cond is None else truthy(evaluate(cond, ctx))
            why = f"`if: {cond}` is {got} there"
        except ValueError as e:
            got, why = None, f"cannot evaluate `if: {cond}`: {e}"
        check(got is want, f"{wname} jobs.{jname} (self-hosted) {'runs' if want else 'does not run'} for {label}", why)


def steps_of(job):
    return list(enumerate(job.get("steps") or []))


def merge_base_steps(job, before):
    return [(i, s) for i, s in steps_of(job) if i < before and "git merge-base" in str(s.get("run", ""))]


def first_revision(args):
    """REV_A of `compare REV_A REV_B --options...`, shell quotes removed."""
    try:
        words = shlex.split(args)
    except ValueError:
        words = args.split()
    flags = ("--quiet", "--no-contracts")  # the compare options that take no value
    revs, skip = [], False
    for w in words[1:]:
        if skip:
            skip = False
        elif w.startswith("--"):
            skip = "=" not in w and w not in flags
        else:
            revs.append(w)
    return revs[0] if revs else ""


section("Pull requests compare against the merge base, not the base tip")
compares = [(w, d, jn, j, i, s) for w, d, jn, j, i, s in all_steps()
            if any(a.split()[:1] == ["compare"] for a in perfci_calls(str(s.get("run", ""))))]
check(bool(compares), "a workflow step runs perfci compare", "none found")
with tempfile.TemporaryDirectory(prefix="workflow_check-") as tmp:
    try:
        sc = Scenario(tmp)
    except RuntimeError as e:
        sc = None
        check(False, "scratch git repositories for the merge-base and baselines/ checks", str(e))
    merge_base_jobs = {}
    for wname, doc, jname, job, i, step in compares:
        label = where(wname, jname, i, step)
        args = next(a for a in perfci_calls(step["run"]) if a.split()[:1] == ["compare"])
        rev = first_revision(args)
        check(re.fullmatch(r"\$\{?MERGE_BASE\}?", rev) is not None,
              f"{label}: compares from \"$MERGE_BASE\" (first revision {rev!r})",
              "the first revision is not the merge base")
        mb = merge_base_steps(job, i)
        if check(bool(mb), f"{label}: a step before it runs git merge-base", "no such step"):
            merge_base_jobs[(wname, jname)] = (doc, job, mb[-1])
    # The jobs that warn about baselines/ need the merge base as well.
    warn_steps = [(w, d, jn, j, i, s) for w, d, jn, j, i, s in all_steps()
                  if "git diff" in str(s.get("run", "")) and "baselines/" in str(s.get("run", ""))]
    for wname, doc, jname, job, i, step in warn_steps:
        mb = merge_base_steps(job, i)
        if check(bool(mb), f"{where(wname, jname, i, step)}: a step before it runs git merge-base", "no such step"):
            merge_base_jobs[(wname, jname)] = (doc, job, mb[-1])

    results = {}
    for (wname, jname), (doc, job, (i, step)) in sorted(merge_base_jobs.items()):
        if sc is None:
            break
        label = where(wname, jname, i, step)
        ctx = context("pull_request", head_sha=sc.D, base_sha=sc.C, sha=sc.M)
        try:
            clone = sc.checkout(doc, job, sc.D)
            runs = truthy(evaluate(step.get("if", True), ctx))
            r = run_step(doc, job, step, clone, ctx) if runs else None
        except (ValueError, RuntimeError) as e:
            check(False, f"{label}: runs in a modelled checkout", str(e))
            continue
        if r is None:
            check(False, f"{label}: runs for a pull request", f"`if: {step.get('if')}` is false")
            continue
        got = r.env.get("MERGE_BASE", "")
        name = {sc.B: "B (the fork point)", sc.C: "C (the base tip)", sc.M: "M (the merge commit)",
                sc.D: "D (the head)"}.get(got, repr(got))
        check(r.rc == 0 and got == sc.B,
              f"{label}: MERGE_BASE is the fork point in a modelled pull request (got {name})",
              f"exit {r.rc}, $GITHUB_ENV MERGE_BASE={got!r}; output: {r.output.strip()[-400:]}")
        if "id" in step:
            check(r.outputs.get("sha") == sc.B or sc.B in r.outputs.values(),
                  f"{label}: steps.{step['id']}.outputs carries the merge base", f"outputs {r.outputs}")
        try:
            check(not runs_on_push(job, step), f"{label}: skipped on a push (no base to compare with)",
                  f"`if: {step.get('if')}` is true for a push")
        except ValueError as e:
            check(False, f"{label}: `if:` can be evaluated", str(e))
        results[(wname, jname)] = (clone, got)

    section("A pull request that edits baselines/ is warned about")
    perf_warn = [x for x in warn_steps if x[0] == "perf.yml"]
    check(bool(perf_warn), "perf.yml has a step that diffs baselines/ against the merge base", "none found")
    for wname, doc, jname, job, i, step in warn_steps:
        label = where(wname, jname, i, step)
        text = step["run"]
        check("git diff --name-only" in text and "MERGE_BASE" in text,
              f"{label}: lists edited files with git diff --name-only from MERGE_BASE", "it does not")
        if sc is None or (wname, jname) not in results:
            continue
        clone, mbase = results[(wname, jname)]
        git(clone, "fetch", "-q", "origin", "plain")
        for head, want, what in ((sc.D, ["baselines/p/engine.json", "baselines/q/engine.json"], "edits two baselines"),
                                 (sc.E, [], "edits none")):
            ctx = context("pull_request", head_sha=head, base_sha=sc.C, sha=sc.M)
            try:
                if not truthy(evaluate(step.get("if", True), ctx)):
                    check(False, f"{label}: runs for a pull request", f"`if: {step.get('if')}` is false")
                    break
                r = run_step(doc, job, step, clone, ctx, carried={"MERGE_BASE": mbase})
            except ValueError as e:
                check(False, f"{label}: runs in a modelled checkout", str(e))
                break
            warned = sorted(set(re.findall(r"^::warning [^\n]*?file=([^,:\n]+)", r.output, re.M)))
            named = sorted(f for f in ["baselines/p/engine.json", "baselines/q/engine.json",
                                       "baselines/p/other.json"] if f in r.summary)
            check(r.rc == 0 and warned == want and named == want,
                  f"{label}: a pull request that {what}: ::warning for {want or 'nothing'}, "
                  f"the job summary names {want or 'nothing'}",
                  f"exit {r.rc}; ::warning file= for {warned}; summary names {named}; output: {r.output.strip()[-400:]}")
        try:
            check(not runs_on_push(job, step), f"{label}: skipped on a push",
                  f"`if: {step.get('if')}` is true for a push")
        except ValueError as e:
            check(False, f"{label}: `if:` can be evaluated", str(e))


def meters_of(args):
    m = re.search(r"--meter[ =]+\"?([\w,]+)", args)
    return set(m.group(1).split(",")) if m else set()


section("Gates fail on 1, 2 and 3 (not gated); wall time only informs")
verdicts = [(w, d, jn, j, i, s, a) for w, d, jn, j, i, s in all_steps()
            for a in perfci_calls(str(s.get("run", ""))) if a.split()[:1] in (["check"], ["compare"], ["merge"])]
check(any(a.startswith("check") and meters_of(a) != {"wall"} for *_, a in verdicts),
      "a workflow step gates with perfci check", "none found")
for wname, doc, jname, job, i, step, args in verdicts:
    label = where(wname, jname, i, step)
    informational = meters_of(args) == {"wall"}
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="workflow_check-step-") as tmp:
        ws = pathlib.Path(tmp) / "ws"
        stub = ws / "build" / "release" / "perfci" / "cli" / "perfci"
        stub.parent.mkdir(parents=True)
        stub.write_text(STUB)
        stub.chmod(0o755)
        ctx = context("pull_request")
        try:
            for rc in (0, 1, 2, 3):
                r = run_step(doc, job, step, ws, ctx, carried={"MERGE_BASE": "b" * 40},
                             extra={"STUB_RC": str(rc)})
                outcomes.append((rc, r))
        except ValueError as e:
            check(False, f"{label}: runs with a stub perfci", str(e))
            continue
    if informational:
        bad = [f"perfci exit {rc} -> step exit {r.rc}" for rc, r in outcomes if r.rc != 0]
        check(not bad, f"{label}: wall only, information: never fails the job (perfci exit 0-3 -> step exit 0)",
              "; ".join(bad))
        bad = [f"exit {rc}" for rc, r in outcomes if "STUB-MARKDOWN-REPORT" not in r.summary]
        check(not bad, f"{label}: writes its report to the job summary", "not for " + ", ".join(bad))
        r1 = dict(outcomes)[1]
        check(re.search(r"^::(warning|notice)", r1.output, re.M) is not None,
              f"{label}: a wall-time regression shows as an annotation", r1.output.strip()[-300:])
    else:
        res = dict(outcomes)
        check(res[0].rc == 0, f"{label}: a gate: perfci exit 0 passes", f"step exit {res[0].rc}")
        bad = [f"perfci exit {rc} -> step exit 0" for rc in (1, 2, 3) if res[rc].rc == 0]
        check(not bad, f"{label}: a gate: perfci exit 1, 2 and 3 fail the step", "; ".join(bad))
        out3 = res[3].output
        check(re.search(r"not gated", out3, re.I) is not None and re.search(r"^::error", out3, re.M) is not None,
              f"{label}: exit 3 says \"not gated\" in an ::error (it is not a pass)", out3.strip()[-300:])

section("The results database is kept between pushes to main (perfci history)")
cfg = json.loads((ROOT / "perfci.json").read_text())
db_path = str((cfg.get("history") or {}).get("database", ""))
check(db_path != "", f"perfci.json names a results database ({db_path!r})", "no history.database")
db_dir = db_path.split("/")[0] if db_path else ""
perf = docs.get("perf.yml", {})
check_job = (perf.get("jobs") or {}).get("check", {})
steps = steps_of(check_job)
gate = [i for i, st in steps if re.search(r"cli/perfci check\b", str(st.get("run", "")))]
restore = [(i, st) for i, st in steps if str(st.get("uses", "")).startswith("actions/cache/restore@")]
save = [(i, st) for i, st in steps if str(st.get("uses", "")).startswith("actions/cache/save@")]
check(len(restore) == 1 and gate and restore[0][0] < gate[0]
      and restore[0][1].get("with", {}).get("path") == db_dir,
      f"perf.yml jobs.check restores {db_dir}/ before perfci check",
      f"restore steps {[i for i, _ in restore]}, check step {gate}")
if restore:
    w = restore[0][1].get("with", {})
    check("github.run_id" in str(w.get("key", "")) and str(w.get("restore-keys", "")).strip() != ""
          and str(w.get("key", "")).startswith(str(w.get("restore-keys", "")).strip()),
          "perf.yml: the restore takes the newest saved database by prefix",
          f"key {w.get('key')!r}, restore-keys {w.get('restore-keys')!r}")
check(len(save) == 1 and save[0][1].get("with", {}).get("path") == db_dir
      and "github.run_id" in str(save[0][1].get("with", {}).get("key", "")),
      f"perf.yml jobs.check saves {db_dir}/ under a key of its own run (caches are immutable)",
      f"save steps {[st for _, st in save]}")
if save:
    cond = save[0][1].get("if", True)
    other = context("push")
    other["github"]["ref"] = "refs/heads/feature"
    cases = [("a push to main", context("push"), True), ("a pull request", context("pull_request"), False),
             ("a push to another branch", other, False)]
    for label, ctx, want in cases:
        try:
            got = truthy(evaluate(cond, ctx))
        except ValueError as e:
            got = None
        check(got is want, f"perf.yml: the database is {'saved' if want else 'not saved'} by {label}",
              f"`if: {cond}` is {got} there")
trend = [(i, st) for i, st in steps if "history show" in str(st.get("run", ""))]
check(any("--changed" in str(st["run"]) and "--markdown -" in str(st["run"])
          and "GITHUB_STEP_SUMMARY" in str(st["run"]) for _, st in trend)
      and all(gate and i > gate[0] for i, _ in trend) and (not save or all(i < save[0][0] for i, _ in trend)),
      "perf.yml: after the check, the step summary shows the changed benchmarks' trends",
      f"history show steps {[i for i, _ in trend]}")

finish("workflow_check")

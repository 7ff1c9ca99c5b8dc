#!/usr/bin/env python3
"""The CI workflows parse as YAML and call only what exists in this tree.

For every `run:` step of .github/workflows/*.yml and for the scripts they and
.ci/run call: each `scripts/X` or `.ci/X` named must be a file of the
repository, and each `perfci SUBCOMMAND --option` must be a subcommand and an
option that the built perfci accepts (its --help lists it). A workflow that
calls a renamed script or a removed option fails here, not on GitHub.

usage: workflow_check.py ROOT PERFCI_BINARY
"""
import pathlib
import re
import subprocess
import sys

import yaml

ROOT = pathlib.Path(sys.argv[1])
PERFCI = sys.argv[2]
errors = []


def perfci_help(words):
    r = subprocess.run([PERFCI, *words, "--help"], capture_output=True, text=True, timeout=60)
    return r.returncode, r.stdout + r.stderr


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
    return names


def check_text(origin, text):
    # Backslash-newline continues a command: join before looking at options.
    text = text.replace("\\\n", " ")
    for path in re.findall(r"(?<![\w./-])((?:scripts|\.ci)/[\w.-]+)", text):
        if not (ROOT / path).is_file():
            errors.append(f"{origin}: {path} does not exist")
    # One call per match: up to the end of the line or of the shell command.
    for m in re.finditer(r"perfci/cli/perfci\"?[ \t]+([^&|;\n]*)", text):
        words = m.group(1).split()
        command = []
        for w in words:
            if w not in subcommands(command):
                break
            command.append(w)
        if not command:
            errors.append(f"{origin}: `perfci {m.group(1)}` names no perfci subcommand")
            continue
        rc, help_text = perfci_help(command)
        if rc != 0:
            errors.append(f"{origin}: perfci {' '.join(command)} --help exited with {rc}")
            continue
        for option in re.findall(r"(?<![\w-])(--[a-z][\w-]*)", m.group(1)):
            # A whole option name: --meter must not pass because --meters exists.
            if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", help_text):
                errors.append(f"{origin}: perfci {' '.join(command)} has no option {option}")


workflows = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
if not workflows:
    errors.append("no workflow in .github/workflows")
for wf in workflows:
    try:
        doc = yaml.safe_load(wf.read_text())
    except yaml.YAMLError as e:
        errors.append(f"{wf}: not valid YAML: {e}")
        continue
    if not isinstance(doc, dict) or "jobs" not in doc:
        errors.append(f"{wf}: no jobs")
        continue
    # PyYAML reads the key `on` as the boolean True.
    if "on" not in doc and True not in doc:
        errors.append(f"{wf}: no `on:` triggers")
    for name, job in doc["jobs"].items():
        for i, step in enumerate(job.get("steps", [])):
            if "run" in step:
                check_text(f"{wf.name}: jobs.{name}.steps[{i}]", step["run"])

for script in [ROOT / ".ci" / "run", *sorted((ROOT / "scripts").glob("*.sh"))]:
    check_text(str(script.relative_to(ROOT)), script.read_text())

for e in errors:
    print(e, file=sys.stderr)
if errors:
    sys.exit(1)
print(f"{len(workflows)} workflows parse and call only existing scripts and perfci commands")

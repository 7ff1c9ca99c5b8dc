#!/usr/bin/env python3
"""Validates perfci's files against the JSON Schemas in reports/schema/.

The schemas (draft 2020-12) are the documentation of perfci's formats; this
script keeps them and the files perfci reads and writes from drifting apart.
Every schema in the folder of SCHEMA is loaded, so a relative "$ref" between
them ("results.schema.json" inside baseline.schema.json) resolves without a
network. Needs python3-jsonschema: Debian 12's 4.10 (RefResolver) or 4.18 and
later (the `referencing` registry), whichever this python3 has.

usage:
  schema_check.py valid SCHEMA PATH...    every PATH must match SCHEMA
  schema_check.py invalid SCHEMA [--expect MAP] PATH...
        every PATH must be rejected by SCHEMA; with MAP (a JSON object:
        path relative to MAP's folder -> JSON pointer), for the reason
        meant: an error at that pointer (every PATH must have an entry)
  schema_check.py schemas SCHEMA...       each SCHEMA is a valid draft 2020-12 schema
  schema_check.py embedded SCHEMA SOURCE...
        every C++ raw string literal R"(...)" in SOURCE that starts with
        {"schema": "perfci.config/1" is a complete perfci.json matching SCHEMA
  schema_check.py run SCHEMA PERFCI BENCH
        runs `PERFCI run` on the benchmark binary BENCH with every meter
        (wall and counters, profile on cpu-clock; callgrind and profile under
        callgrind when valgrind is installed), a benchmark that crashes on
        purpose included, and validates each results file it writes

A PATH that is a folder stands for every *.json below it (sorted); a folder
without one is an error, so that no check passes on nothing. Prints each file
with the schema it was checked against and the count; exits 1 naming the
first file that is not as expected and where in it the problem is.
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

try:
    import jsonschema
    import jsonschema.exceptions
except ImportError as e:  # pragma: no cover
    sys.exit(f"schema_check.py: needs python3-jsonschema: {e}")
try:  # jsonschema 4.18+: RefResolver is deprecated in favour of a registry
    import referencing
    import referencing.jsonschema
except ImportError:  # Debian 12's jsonschema 4.10
    referencing = None


def fail(message):
    print(f"schema_check.py: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def load_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: not readable JSON: {e}")


def validator(schema_path):
    """A validator for schema_path, with every sibling schema resolvable by
    its file name (relative $ref) and by its file:// URI."""
    schema_path = pathlib.Path(schema_path).resolve()
    siblings = {s: load_json(s) for s in sorted(schema_path.parent.glob("*.schema.json"))}
    schema = load_json(schema_path)
    jsonschema.Draft202012Validator.check_schema(schema)
    if referencing is None:
        store = {}
        for sibling, doc in siblings.items():
            store[sibling.name] = doc
            store[sibling.as_uri()] = doc
        resolver = jsonschema.RefResolver(schema_path.as_uri(), schema, store=store)
        return jsonschema.Draft202012Validator(schema, resolver=resolver)
    resources = []
    for sibling, doc in siblings.items():
        resource = referencing.jsonschema.DRAFT202012.create_resource(doc)
        resources += [(sibling.name, resource), (sibling.as_uri(), resource)]
    registry = referencing.Registry().with_resources(resources)
    return jsonschema.Draft202012Validator(schema, registry=registry)


def expand(paths):
    out = []
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            found = sorted(p.rglob("*.json"))
            if not found:
                fail(f"{p}: no *.json below it")
            out += found
        elif p.is_file():
            out.append(p)
        else:
            fail(f"{p}: no such file or folder")
    return out


def where(error):
    return "/" + "/".join(str(x) for x in error.absolute_path)


def first_error(v, instance):
    """The most relevant error (jsonschema's best_match), or None."""
    return jsonschema.exceptions.best_match(v.iter_errors(instance))


def error_pointers(errors):
    """Where every error and every error under an applicator (its context) is."""
    out = set()
    for e in errors:
        out.add(where(e))
        out |= error_pointers(e.context)
    return out


def short(message, limit=240):
    return message if len(message) <= limit else message[:limit] + " ..."


def check_valid(schema_path, paths):
    v = validator(schema_path)
    files = expand(paths)
    for f in files:
        e = first_error(v, load_json(f))
        if e is not None:
            fail(f"{f} does not match {schema_path}: at {where(e)}: {short(e.message)}")
        print(f"valid: {f} against {schema_path}")
    print(f"{len(files)} file(s) valid against {schema_path}")


def check_invalid(schema_path, paths):
    v = validator(schema_path)
    expect = None
    if paths and paths[0] == "--expect":
        if len(paths) < 3:
            fail("--expect needs a MAP and at least one PATH")
        expect_file = pathlib.Path(paths[1])
        expect = load_json(expect_file)
        paths = paths[2:]
    files = expand(paths)
    for f in files:
        instance = load_json(f)
        e = first_error(v, instance)
        if e is None:
            fail(f"{f} was accepted by {schema_path}, and it is meant to be rejected")
        if expect is not None:
            key = os.path.relpath(f.resolve(), expect_file.resolve().parent)
            if key not in expect:
                fail(f"{f}: no entry \"{key}\" in {expect_file} (where its error must be)")
            found = error_pointers(v.iter_errors(instance))
            if expect[key] not in found:
                fail(f"{f} was rejected by {schema_path}, but not at {expect[key]} as meant: "
                     f"errors at {sorted(found)}; first: {short(e.message)}")
        print(f"rejected as expected: {f} against {schema_path}: at {where(e)}: {short(e.message)}")
    print(f"{len(files)} broken file(s) rejected by {schema_path}")


def check_schemas(paths):
    for p in expand(paths):
        jsonschema.Draft202012Validator.check_schema(load_json(p))
        validator(p)  # and every $ref of it resolves among its siblings
        print(f"schema ok: {p}")


# A C++ raw string literal: R"( ... )" (no delimiter, as the tests write them).
RAW_STRING = re.compile(r'R"\((.*?)\)"', re.S)
CONFIG_START = re.compile(r'^\s*\{\s*"schema"\s*:\s*"perfci\.config/1"')


def check_embedded(schema_path, sources):
    v = validator(schema_path)
    count = 0
    for src in expand(sources):
        text = src.read_text(encoding="utf-8")
        for m in RAW_STRING.finditer(text):
            body = m.group(1)
            if not CONFIG_START.match(body):
                continue
            line = text.count("\n", 0, m.start()) + 1
            try:
                instance = json.loads(body)
            except ValueError as e:
                fail(f"{src}:{line}: a perfci.json literal that is not JSON: {e}")
            e = first_error(v, instance)
            if e is not None:
                fail(f"{src}:{line}: the perfci.json written there does not match {schema_path}: "
                     f"at {where(e)}: {short(e.message)}")
            print(f"valid: {src}:{line} (perfci.json literal) against {schema_path}")
            count += 1
    if count == 0:
        fail(f"no perfci.json literal in {' '.join(sources)}")
    print(f"{count} perfci.json literal(s) valid against {schema_path}")


def check_run(schema_path, perfci, bench):
    v = validator(schema_path)
    runs = [
        # wall and counters (hardware events are "unsupported" on machines
        # without a PMU: a status, never a value); BM_transactions sets a
        # divisor, BM_empty_plain has no hook, BM_crash_on_purpose fails.
        ("wall-counters", ["--meter", "wall,counters", "--events",
                           "task-clock,page-faults,instructions,cycles",
                           "--filter", "BM_sum|BM_transactions|BM_empty_plain|BM_crash_on_purpose",
                           "--min-time", "0.01"], {0, 2}),
    ]
    # The profile meter sampling cpu-clock (perf_event_open, a software event).
    runs.append(("profile-cpu-clock", ["--meter", "profile", "--filter", "BM_sum",
                                       "--min-time", "0.1"], {0, 2}))
    if shutil.which("valgrind"):
        runs.append(("callgrind-profile", ["--meter", "callgrind,profile", "--profile-source",
                                           "callgrind", "--filter", "BM_sum|BM_transactions",
                                           "--callgrind-iterations", "2"], {0}))
    else:
        print("valgrind is not installed: the callgrind and profile meters are not run")
    with tempfile.TemporaryDirectory(prefix="perfci-schema-") as tmp:
        for name, args, exits in runs:
            out = os.path.join(tmp, name + ".json")
            argv = [perfci, "run", "--binary", bench, "--out", out, "--quiet"] + args
            # Never the caller's folder: a perfci.json there would change the run.
            r = subprocess.run(argv, cwd=tmp, capture_output=True, text=True, timeout=600)
            if r.returncode not in exits or not os.path.exists(out):
                fail(f"{' '.join(argv)}: exit {r.returncode}, expected one of {sorted(exits)}:\n{r.stderr}")
            instance = load_json(out)
            e = first_error(v, instance)
            if e is not None:
                kept = os.path.join(tempfile.gettempdir(), f"schema_check-{name}.json")
                shutil.copyfile(out, kept)
                fail(f"perfci run ({name}) wrote a results file that does not match {schema_path} "
                     f"(kept as {kept}): at {where(e)}: {short(e.message)}")
            names = [b["name"] for b in instance["benchmarks"]]
            print(f"valid: perfci run {' '.join(args)} -> {len(names)} benchmarks against {schema_path}")
    print(f"{len(runs)} results file(s) written by perfci run valid against {schema_path}")


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    mode, rest = argv[1], argv[2:]
    if mode == "valid" and len(rest) >= 2:
        check_valid(rest[0], rest[1:])
    elif mode == "invalid" and len(rest) >= 2:
        check_invalid(rest[0], rest[1:])
    elif mode == "schemas" and rest:
        check_schemas(rest)
    elif mode == "embedded" and len(rest) >= 2:
        check_embedded(rest[0], rest[1:])
    elif mode == "run" and len(rest) == 3:
        check_run(*rest)
    else:
        fail("bad arguments\n" + __doc__)


if __name__ == "__main__":
    main(sys.argv)

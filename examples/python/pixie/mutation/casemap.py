#!/usr/bin/env python3
"""Which vectors reach which line of pixie's shared modules: the case map that lets a shared
mutant be judged by the cases that run its line instead of by all 19,000 (issue 25).

    python3 casemap.py build --conformance BIN --vectors DIR --out MAP.json
    python3 casemap.py select --map MAP.json --pristine DIR --mutated DIR
    python3 casemap.py judge --map MAP.json --pristine DIR --mutated DIR --conformance BIN --vectors DIR

`judge` is what adequacy.py's shared target runs for each mutant when it has a map: the cases
`select` names (`conformance run --run-file`, fail-fast), and the `conformance selftest` checks
that ran a changed line (`--check`); exit 1 when either fails.

Why it is sound: a mutant changes one line, and a case whose answer can differ is a case that
runs that line. Three kinds of line are not tied to one case and select every case:
- a line run at import (module level: constants, `def` lines, default values, class bodies);
- a line run by the runner loop between cases (reading a line, parsing the request, sending the
  answer): the map records these under the context `loop`;
- a line that is not a statement of its own (a continuation line) is looked up through the
  statement it continues.
It relies on pixie keeping nothing from one case to the next (no cache, no module of its own
imported lazily), which holds today. A line that no case and no selftest runs selects nothing: such a mutant survives without a run,
as it would after running every case. The selftest checks that ran the line are run too (the
runner loop's protocol checks, which no vector makes); a line of `runner.py` or `jsontext.py`
that neither ran gets all of selftest.

`build` runs every stdin/stdout vector once against pixie under coverage.py, with the case id as
the dynamic context (switched when `Testee.answer` starts and back to `loop` when it returns),
then each `conformance selftest` check on its own under the check's id as context. It takes a few minutes; a map belongs
to the vectors and the package it was built from (`build` records their digests, and `select`
refuses a map whose package digest is not the pristine copy's).
"""
import argparse
import difflib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
EXAMPLES = os.path.dirname(PACKAGE)
SHARED = ["cbor.py", "cbor_message.py", "jsontext.py", "opinput.py", "http_body.py", "errors.py", "primitives.py",
          "runner.py"]
EVERY = {"", "loop"}  # contexts whose lines select every case


def vectors_digest(vectors):
    """SHA-256 of the vectors' MANIFEST.json, which names every file's digest."""
    with open(os.path.join(vectors, "MANIFEST.json"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def package_digest(directory):
    """SHA-256 over the shared modules' bytes, in SHARED's order: what a map was built from."""
    h = hashlib.sha256()
    for m in SHARED:
        with open(os.path.join(directory, m), "rb") as f:
            h.update(m.encode() + b"\0" + f.read() + b"\0")
    return h.hexdigest()


def testee(data_file, context):
    """Runs pixie as the testee under coverage; `context` is `cases` (one context per case id)
    or a fixed name (selftest)."""
    import coverage
    import signal
    cov = coverage.Coverage(data_file=data_file, data_suffix=True, include=[os.path.join(PACKAGE, m) for m in SHARED])
    cov.start()

    def stopped(signum, frame):
        # A testee that selftest stops still leaves what it ran in the map.
        cov.stop()
        cov.save()
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, stopped)
    sys.path.insert(0, EXAMPLES)
    from pixie import FORMATS
    from pixie.runner import Testee

    class Mapped(Testee):
        def answer(self, msg):
            cov.switch_context(msg.get("id") if isinstance(msg.get("id"), str) else "loop")
            try:
                return Testee.answer(self, msg)
            finally:
                cov.switch_context("loop")

    def save_first(send):
        """selftest ends a testee with SIGKILL as soon as the answer it waits for arrives (or
        its silence is long enough), so in selftest what ran is saved before each answer is
        written, and before a line that gets no answer is left."""
        def saved(msg):
            cov.save()
            send(msg)
        return saved

    class Saved(Testee):
        def line(self, raw, too_long):
            try:
                return Testee.line(self, raw, too_long)
            finally:
                cov.save()

    if context != "cases":
        import pixie.runner
        pixie.runner.send = save_first(pixie.runner.send)
        pixie.runner.note = save_first(pixie.runner.note)
        cov.switch_context(context)
        code = Saved(FORMATS).main()
    else:
        cov.switch_context("loop")
        code = Mapped(FORMATS).main()
    cov.stop()
    cov.save()
    return code


def build(args):
    scratch = tempfile.mkdtemp(prefix="pixie-casemap-")
    try:
        _build(args, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _build(args, scratch):
    import coverage
    me = os.path.abspath(__file__)
    cases_db, selftest_db = os.path.join(scratch, "cases.cov"), os.path.join(scratch, "selftest.cov")
    run = [args.conformance, "run", "--vectors", args.vectors, "--no-diagnose", "--", args.python, me, "testee", cases_db, "cases"]
    if subprocess.run(run, stdout=subprocess.DEVNULL).returncode != 0:
        raise SystemExit("casemap.py: pixie does not pass every vector under coverage; fix that first")
    # Each check on its own, its id the context (selftest/hello runs with every check). Under
    # coverage a 16 MiB line takes pixie longer than selftest's 10 s to parse.
    listing = subprocess.run([args.conformance, "selftest", "--list"], capture_output=True, text=True, check=True).stdout
    for check in [line.split()[0] for line in listing.splitlines() if line.startswith("selftest/")]:
        st = [args.conformance, "selftest", "--vectors", args.vectors, "--timeout-multiplier", "10", "--check", check, "--",
              args.python, me, "testee", selftest_db, check]
        if subprocess.run(st, stdout=subprocess.DEVNULL).returncode != 0:
            raise SystemExit("casemap.py: pixie does not pass %s under coverage; fix that first" % check)
    # Every testee process wrote its own file (data_suffix): combine them all.
    combined_file = os.path.join(scratch, "all.cov")
    cov = coverage.Coverage(data_file=combined_file)
    parts = [os.path.join(scratch, n) for n in sorted(os.listdir(scratch)) if n.startswith(("cases.cov.", "selftest.cov."))]
    cov.combine(parts, keep=True)
    cov.save()
    combined = cov.get_data()
    ids, index, lines = [], {}, {}
    for m in SHARED:
        path = os.path.join(PACKAGE, m)
        statements = sorted(cov.analysis2(path)[1])
        by_line = combined.contexts_by_lineno(path)
        entry = {}
        for line, contexts in by_line.items():
            contexts = set(contexts)
            checks = sorted(c for c in contexts if c.startswith("selftest/"))
            bits, every = 0, bool(contexts & EVERY)
            for c in sorted(contexts - EVERY - set(checks)):
                if c not in index:
                    index[c] = len(ids)
                    ids.append(c)
                bits |= 1 << index[c]
            entry[str(line)] = {"every": every, "checks": checks, "cases": "%x" % bits}
        lines[m] = {"statements": statements, "run": entry}
    with open(args.out, "w") as f:
        json.dump({"package": package_digest(PACKAGE), "vectors": vectors_digest(args.vectors), "cases": ids, "modules": lines}, f)
    print("casemap.py: %d cases, %s" % (len(ids), ", ".join("%s %d lines" % (m, len(lines[m]["run"])) for m in SHARED)))


def changed_lines(pristine, mutated):
    """{module: [line numbers of the pristine text that the mutant changed]}."""
    out = {}
    for m in SHARED:
        with open(os.path.join(pristine, m), encoding="utf-8") as f:
            a = f.read().splitlines()
        with open(os.path.join(mutated, m), encoding="utf-8") as f:
            b = f.read().splitlines()
        if a == b:
            continue
        rows = set()
        for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
            if tag in ("replace", "delete"):
                rows.update(range(i1 + 1, i2 + 1))
            elif tag == "insert":
                rows.update({max(1, i1), i1 + 1})
        out[m] = sorted(rows)
    return out


def selection(cmap, pristine, mutated):
    """(every, checks, ids): whether every case and all of selftest must run; else the selftest
    checks (["*"] for all of them) and the ids of the cases that run a changed line. An unchanged
    package selects every case (the judge's check of the unmutated package must run them all)."""
    if cmap["package"] != package_digest(pristine):
        raise SystemExit("casemap.py: the map was built from other shared modules than %s; build it again" % pristine)
    changed = changed_lines(pristine, mutated)
    if not changed:
        return True, ["*"], []
    bits, checks, unmapped = 0, set(), False
    for m, rows in changed.items():
        statements, run = cmap["modules"][m]["statements"], cmap["modules"][m]["run"]
        for row in rows:
            at = row
            if row not in statements:
                # A continuation line: the statement it belongs to starts at the nearest
                # statement line above it.
                above = [s for s in statements if s <= row]
                at = above[-1] if above else row
            hit = run.get(str(at))
            if hit is None:
                unmapped = unmapped or m in ("runner.py", "jsontext.py")
                continue
            if hit["every"]:
                return True, ["*"], []
            checks.update(hit["checks"])
            bits |= int(hit["cases"], 16)
    # runner.py and jsontext.py are the runner protocol's: a line of theirs that no case and no
    # check ran gets all of selftest (should a check's testee have been killed before its
    # coverage was saved).
    ids = [cid for k, cid in enumerate(cmap["cases"]) if bits >> k & 1]
    return False, ["*"] if unmapped else sorted(checks), ids


def load(path, vectors=None):
    with open(path, encoding="utf-8") as f:
        cmap = json.load(f)
    if vectors is not None and cmap["vectors"] != vectors_digest(vectors):
        raise SystemExit("casemap.py: the map was built from other vectors than %s; build it again" % vectors)
    return cmap


def select(args):
    """Prints `every`; or the selftest checks (`selftest/*` for all) and the selected case ids,
    one per line; or nothing (no case and no check runs the changed lines)."""
    every, checks, ids = selection(load(args.map), args.pristine, args.mutated)
    if every:
        print("every")
        return 0
    for c in checks:
        print("selftest/*" if c == "*" else c)
    for cid in ids:
        print(cid)
    return 0


def judge(args):
    """Exit 1 when the selected cases or selftest fail the mutated package in args.home."""
    every, checks, ids = selection(load(args.map, args.vectors), args.pristine, args.mutated)
    testee = [args.python, "./pixie_testee.py"]
    quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if every or ids:
        run = [args.conformance, "run", "--vectors", args.vectors, "--fail-fast", "--no-diagnose"]
        with tempfile.NamedTemporaryFile("w", suffix=".ids", delete=False) as f:
            f.write("".join(cid + "\n" for cid in ids))
        try:
            if subprocess.run(run + ([] if every else ["--run-file", f.name]) + ["--"] + testee, **quiet).returncode != 0:
                return 1
        finally:
            os.unlink(f.name)
    if every or checks:
        only = [] if every or "*" in checks else [a for c in checks for a in ("--check", c)]
        # Waits ×3, as adequacy.py's SELFTEST: a loaded machine must not kill a mutant.
        st = [args.conformance, "selftest", "--vectors", args.vectors, "--timeout-multiplier", "3"] + only
        if subprocess.run(st + ["--"] + testee, **quiet).returncode != 0:
            return 1
    return 0


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "testee":
        return testee(sys.argv[2], sys.argv[3])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("--conformance", required=True)
    b.add_argument("--vectors", required=True)
    b.add_argument("--python", default=sys.executable)
    b.add_argument("--out", required=True)
    for name in ("select", "judge"):
        s = sub.add_parser(name)
        s.add_argument("--map", required=True)
        s.add_argument("--pristine", required=True, help="the shared modules as the map was built from them")
        s.add_argument("--mutated", required=True, help="the shared modules as the mutant left them")
        if name == "judge":
            s.add_argument("--conformance", required=True)
            s.add_argument("--vectors", required=True)
            s.add_argument("--python", default=sys.executable)
    args = ap.parse_args()
    return {"build": build, "select": select, "judge": judge}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())

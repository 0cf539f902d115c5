#!/usr/bin/env python3
"""Mutation adequacy of the vectors, measured with a stock engine (cosmic-ray) on the pixie
package (issue 25): cosmic-ray, not we, decides which bugs to try; a mutant is killed when the
vectors of the module's format fail it.

    pip install -r examples/python/pixie/mutation/requirements.txt     # cosmic-ray, pinned
    scripts/mutation-adequacy.sh [--format F]... [--sample N] [--seed S] [--workers N]

Each target is a module (or a group of shared modules) and the command that judges it:

- a format's module: `conformance run --format F --fail-fast` over the stdin/stdout testee, with
  the formats whose modules import it (USERS: state_digest.py is judged by reconcile, settle and
  sync_offer too);
- `services.py` (the two HTTP services): `conformance http` for pairing, then for revocation;
- the shared modules (CBOR, strict JSON, the op-input layer, errors, crypto glue, the runner
  loop): every stdin/stdout format, fail-fast, then `conformance selftest` (the runner loop's
  protocol checks, which no vector makes), then, for the modules the HTTP services import
  (HTTP_USERS: strict JSON and the request-body helpers), `conformance http` for both services.

Mutants run on cosmic-ray's own HTTP distributor: `--workers N` starts N local `cosmic-ray
http-worker` processes, each in its own copy of the package (a worker mutates the files it is
given in place, so two workers never share a copy); `--worker-url URL` (repeatable) uses workers
started elsewhere instead, each prepared by `mutation/worker.py` on its machine. The same
command therefore runs on one machine or many.

Prints per target: mutants, killed, survived, timed out, equivalent, incompetent, and the
kill ratio over non-equivalent mutants; then each survivor with file:line, the operator and
the mutated text. `equivalent.tsv` lists mutants reasoned equivalent (module, the function
around the line, operator, the source line's text, which of that operator's mutants on that
line, reason): keyed by the line's text, not its number, so an edit elsewhere in the module does not move an entry onto another
mutant. One that gets killed is flagged, and so is one that names no mutant of today's module
(stale: its line was changed or removed, so its reason must be looked at again). Exit 1 when a target has a survivor or a
flagged equivalent, 0 otherwise; `--min-killed PCT` exits 1 only below that kill ratio (or on a
flagged equivalent); `--report-only` always 0. Timed-out mutants count as killed (a hang fails
the runner's case timeout).

After a run, the survivors are what new cases are written for. `--keep DIR` keeps each target's
cosmic-ray database as DIR/<target>.sqlite; `--recheck DIR/<target>.sqlite` then applies each
survivor's diff (as the database holds it) to a fresh copy of the package and judges it against
today's vectors, without a new campaign: it says which survivors the new cases kill
(`--workers` judges run side by side). `--resume DIR/<target>.sqlite` goes on with a campaign
that was stopped (its database kept with `--keep`): only the mutants without a result run.
"""
import argparse
import concurrent.futures
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
EXAMPLES = os.path.dirname(PACKAGE)
WORKTREE = os.path.dirname(os.path.dirname(EXAMPLES))

STDIN_FORMATS = ["state_digest", "reconcile", "sync_offer", "signin", "device_list", "account_state", "settle",
                 "envelope", "pairing", "revocation"]
SHARED = ["cbor.py", "cbor_message.py", "jsontext.py", "opinput.py", "http_body.py", "errors.py", "primitives.py", "runner.py"]
# A format module that other format modules import is judged by their vectors too: a mutant of
# state_digest.py's key lengths is reconcile's to find, not state_digest's (judged alone, it
# would look equivalent).
USERS = {"state_digest": ["reconcile", "settle", "sync_offer"], "signin": ["envelope"], "sync_offer": ["envelope"],
         "pairing": ["revocation"]}
# The shared modules services.py imports: a mutant the stdin/stdout judge lets through is judged
# by both services' scenarios too (a line only the services run is theirs to find).
HTTP_USERS = {"jsontext.py", "http_body.py"}
# target -> (modules, judge kind)
TARGETS = {f: (["%s.py" % f], "run:" + ",".join([f] + USERS.get(f, []))) for f in STDIN_FORMATS}
TARGETS["services"] = (["services.py"], "http")
TARGETS["shared"] = (SHARED, "run:all")
# One shared module at a time (`shared-jsontext`, …): the same judge, a campaign small enough
# to finish between other work; `shared` is all of them at once.
TARGETS.update({"shared-" + m[:-3]: ([m], "run:all") for m in SHARED})
# With no --format, every module once: `shared` holds the shared-<module> targets' mutants.
DEFAULT_TARGETS = [t for t in TARGETS if not t.startswith("shared-")]

RUN = "{conformance} run --vectors {vectors} {formats} --fail-fast --no-diagnose -- {python} ./pixie_testee.py"
# runner.py's protocol code (bad lines, limits, EOF, shutdown) is what selftest checks; a
# shared-module mutant that every vector still passes is judged by it too.
# Its waits ×3: under a loaded machine selftest's 2 s exit deadline killed mutants that a quiet
# machine lets survive (three runner.py mutants of a recheck, 2026-12-07).
SELFTEST = "{conformance} selftest --vectors {vectors} --timeout-multiplier 3 -- {python} ./pixie_testee.py"
HTTP = "{conformance} http --vectors {vectors} --format {fmt} --fail-fast -- {python} ./pixie/serve_http.py {service}"
CONFIG = """[cosmic-ray]
module-path = [{modules}]
timeout = {timeout}
excluded-modules = []
test-command = "sh ./judge-{target}.sh"

[cosmic-ray.distributor]
name = "http"

[cosmic-ray.distributor.http]
worker-urls = [{urls}]
"""


SELECTING = ("{python} ./casemap.py judge --map {map} --pristine ./pristine --mutated ./pixie --conformance {conformance} "
             "--vectors {vectors} --python {python}")


def judge_script(target, conformance, vectors, python, case_map=None):
    """The shell script that judges one mutant of `target`, run in a worker's copy. With a case
    map, a shared mutant is judged by the cases that run its lines (mutation/casemap.py)."""
    kind = TARGETS[target][1]
    http = [HTTP.format(conformance=conformance, vectors=vectors, fmt="pairing", python=python, service="pairing"),
            HTTP.format(conformance=conformance, vectors=vectors, fmt="revocation", python=python, service="identity")]
    if target.startswith("shared") and case_map:
        lines = [SELECTING.format(python=python, map=case_map, conformance=conformance, vectors=vectors)]
    elif kind == "http":
        lines = http
    else:
        fmt = kind.split(":", 1)[1]
        formats = "" if fmt == "all" else " ".join("--format " + f for f in fmt.split(","))
        lines = [RUN.format(conformance=conformance, vectors=vectors, formats=formats, python=python)]
        if fmt == "all":
            lines.append(SELFTEST.format(conformance=conformance, vectors=vectors, python=python))
    if target.startswith("shared") and HTTP_USERS & set(TARGETS[target][0]):
        lines += http
    return "#!/bin/sh\nset -e\n" + "\n".join(l + " >/dev/null 2>&1" for l in lines) + "\n"


def prepare_copy(directory, conformance, vectors, python, case_map=None):
    """A worker's own copy of the package and the judge of every target, in `directory`; with
    a case map, also the shared modules as they were (`pristine/`, what a mutant is diffed
    against) and casemap.py."""
    os.makedirs(directory, exist_ok=True)
    shutil.copytree(PACKAGE, os.path.join(directory, "pixie"), ignore=shutil.ignore_patterns("__pycache__", "mutation"),
                    dirs_exist_ok=True)
    shutil.copy(os.path.join(EXAMPLES, "pixie_testee.py"), directory)
    if case_map:
        os.makedirs(os.path.join(directory, "pristine"), exist_ok=True)
        for m in SHARED:
            shutil.copy(os.path.join(PACKAGE, m), os.path.join(directory, "pristine", m))
        shutil.copy(os.path.join(HERE, "casemap.py"), directory)
    for t in TARGETS:
        path = os.path.join(directory, "judge-%s.sh" % t)
        with open(path, "w") as f:
            f.write(judge_script(t, conformance, vectors, python, case_map))
        os.chmod(path, 0o755)


def ensure_case_map(path, conformance, vectors, python):
    """--case-map: builds the map at `path` unless one is there for today's shared modules and
    vectors (about two minutes: every vector once under coverage.py, then selftest)."""
    sys.path.insert(0, HERE)
    import casemap
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            cmap = json.load(f)
        if cmap.get("package") == casemap.package_digest(PACKAGE) and cmap.get("vectors") == casemap.vectors_digest(vectors):
            return
        print("case map %s is of other modules or vectors: building it again" % path)
    subprocess.run([python, os.path.join(HERE, "casemap.py"), "build", "--conformance", conformance, "--vectors", vectors,
                    "--python", python, "--out", path], check=True)


def tool(name):
    """A cosmic-ray executable, from $COSMIC_RAY_BIN or PATH."""
    return os.path.join(os.environ["COSMIC_RAY_BIN"], name) if os.environ.get("COSMIC_RAY_BIN") else name


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_worker(directory, port):
    """`cosmic-ray http-worker` serving from `directory`; returns once it accepts connections."""
    p = subprocess.Popen([tool("cosmic-ray"), "http-worker", "--port", str(port)], cwd=directory,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return p
        except OSError:
            if p.poll() is not None:
                raise SystemExit("adequacy.py: cosmic-ray http-worker exited at once (is cosmic-ray installed?)")
            time.sleep(0.2)
    p.kill()
    raise SystemExit("adequacy.py: cosmic-ray http-worker on port %d did not start" % port)


def load_equivalents():
    """(module, function, operator, line text, n) -> reason, from equivalent.tsv."""
    out = {}
    for line in open(os.path.join(HERE, "equivalent.tsv"), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            module, function, operator, text, nth, reason = line.rstrip("\n").split("\t", 5)
            out[(module, function, operator, text, int(nth))] = reason
    return out


def enclosing(lines, row):
    """The name of the def (or class) around line `row`, or <module>: two equal lines in two
    functions are two places, often with two different reasons."""
    return _enclosing(lines, row)[0]


def _enclosing(lines, row):
    indent = len(lines[row - 1]) - len(lines[row - 1].lstrip())
    for at in range(row - 1, 0, -1):
        line = lines[at - 1]
        text = line.lstrip()
        m = re.match(r"(?:def|class)\s+(\w+)", text)
        if m and len(line) - len(text) < indent:
            return m.group(1), at
    return "<module>", 0


def line_key(lines, row):
    """(function, text): the line's stripped text, with ` (#k)` appended for the k-th of equal
    lines in one function (k from 2), so that the three `continue` of one loop are three places."""
    function, start = _enclosing(lines, row)
    text = lines[row - 1].strip()
    k = sum(1 for line in lines[start:row - 1] if line.strip() == text)
    return function, text if k == 0 else "%s (#%d)" % (text, k + 1)


def mutant_keys(db, home):
    """job_id -> (module, function, operator, line text, n) for every mutant cosmic-ray found
    (read before any sampling, so that n, the place of a mutant among its operator's on its
    line, is the same in a sample and in a full run)."""
    con = sqlite3.connect(db)
    specs = con.execute("select job_id, module_path, operator_name, start_pos_row, occurrence from mutation_specs").fetchall()
    con.close()
    sources, by_line = {}, {}
    for job, module_path, op, row, occ in specs:
        by_line.setdefault((module_path, op, row), []).append((occ, job))
    keys = {}
    for (module_path, op, row), found in by_line.items():
        if module_path not in sources:
            with open(os.path.join(home, module_path), encoding="utf-8") as f:
                sources[module_path] = f.read().splitlines()
        lines = sources[module_path]
        function, text = line_key(lines, row)
        for n, (_, job) in enumerate(sorted(found)):
            keys[job] = (os.path.basename(module_path), function, op, text, n)
    return keys


def sample(db, n, seed, keys):
    """Keeps a seeded sample of n work items: the same seed keeps the same mutants. The draw is
    over the mutants' keys, sorted, not over cosmic-ray's job ids: those are fresh UUIDs at every
    init, so a draw over them picks other mutants on every run."""
    con = sqlite3.connect(db)
    jobs = sorted((r[0] for r in con.execute("select job_id from work_items")), key=lambda j: (keys[j], j))
    if n >= len(jobs):
        con.close()
        return
    keep = set(random.Random(seed).sample(jobs, n))
    drop = [(j,) for j in jobs if j not in keep]
    con.executemany("delete from mutation_specs where job_id = ?", drop)
    con.executemany("delete from work_items where job_id = ?", drop)
    con.commit()
    con.close()


def mutated_text(diff):
    """The added line of a unified diff (what the mutant wrote), for the survivor list."""
    for line in (diff or "").splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    return ""


def run_target(target, args, home, urls, equivalents):
    modules = ", ".join('"pixie/%s"' % m for m in TARGETS[target][0])
    config, db = os.path.join(home, target + ".toml"), os.path.join(home, target + ".sqlite")
    with open(config, "w") as f:
        f.write(CONFIG.format(modules=modules, timeout=args.timeout, target=target, urls=", ".join("'%s'" % u for u in urls)))
    # The unmutated package must pass its judge, or every mutant would "die".
    if subprocess.run(["sh", "./judge-%s.sh" % target], cwd=home).returncode != 0:
        raise SystemExit("adequacy.py: the unmutated package fails the judge of %s; fix that first" % target)
    if args.resume:
        # A kept campaign goes on where it stopped: cosmic-ray's exec runs only the work items
        # that have no result yet. Its mutants are those of the module as it was at init.
        shutil.copy(args.resume, db)
    else:
        subprocess.run([tool("cosmic-ray"), "init", config, db], cwd=home, check=True, stdout=subprocess.DEVNULL)
    keys = mutant_keys(db, home)
    modules = {m for m in TARGETS[target][0]}
    found = set(keys.values())
    stale = sorted(k for k in equivalents if k[0] in modules and k not in found)
    if args.sample:
        sample(db, args.sample, args.seed, keys)
    start = time.time()
    try:
        subprocess.run([tool("cosmic-ray"), "exec", config, db], cwd=home, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    finally:
        # Kept even when the run is stopped (Ctrl-C, or SIGTERM, which main turns into the
        # same): the results so far are in the database, and --resume goes on from them.
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            shutil.copy(db, os.path.join(args.keep, target + ".sqlite"))
    seconds = time.time() - start
    con = sqlite3.connect(db)
    rows = con.execute("""select s.job_id, s.start_pos_row, r.worker_outcome, r.test_outcome, r.diff
                          from mutation_specs s join work_results r on s.job_id = r.job_id""").fetchall()
    con.close()
    counts = dict(mutants=len(rows), killed=0, survived=0, timeout=0, equivalent=0, incompetent=0)
    survivors, flagged = [], []
    for job, row, worker, outcome, diff in rows:
        key = keys[job]
        # The database holds the enums' names (SQLAlchemy's Enum column): TIMEOUT, KILLED.
        worker, outcome = (worker or "").upper(), (outcome or "").upper()
        if worker == "TIMEOUT":
            counts["timeout"] += 1
        elif outcome == "KILLED":
            counts["killed"] += 1
            if key in equivalents:
                flagged.append((key[0], row, key[2], key[4], "killed"))
        elif outcome == "SURVIVED":
            if key in equivalents:
                counts["equivalent"] += 1
            else:
                counts["survived"] += 1
                survivors.append((key[0], row, key[2], key[4], mutated_text(diff)))
        else:
            counts["incompetent"] += 1
    flagged += [(k[0], 0, k[2], k[4], "stale: no line `%s` in %s with that mutant today" % (k[3], k[1])) for k in stale]
    return counts, sorted(survivors), flagged, seconds


def apply_diff(directory, diff):
    """Applies a mutant's unified diff (as cosmic-ray stores it) to the package copy in
    `directory`; False when its lines are not there. Not `patch`: cosmic-ray's hunk for a
    module's last line carries a context line past the end of the file, which patch refuses."""
    path, hunks = None, []
    for line in diff.splitlines():
        if line.startswith("+++ "):
            path = line[4:].split("/", 1)[1]
        elif line.startswith("@@"):
            hunks.append([int(re.match(r"@@ -(\d+)", line).group(1)), [], []])
        elif hunks and line[:1] in (" ", "-", "+", ""):
            tag, text = (line[:1] or " "), line[1:]
            if tag != "+":
                hunks[-1][1].append(text)
            if tag != "-":
                hunks[-1][2].append(text)
    if path is None or not hunks:
        return False
    target = os.path.join(directory, path)
    with open(target, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for start, old, new in reversed(hunks):
        at = start - 1
        # Context past the last line (cosmic-ray's extra empty line) is not in the file.
        while old and new and old[-1] == new[-1] == "" and at + len(old) > len(lines):
            old, new = old[:-1], new[:-1]
        if lines[at:at + len(old)] != old:
            return False
        lines[at:at + len(old)] = new
    with open(target, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return True


def target_of(db):
    """The target a kept database belongs to: --keep names it <target>.sqlite, and a target may
    itself hold a dash (shared-cbor)."""
    target = os.path.splitext(os.path.basename(db))[0]
    if target not in TARGETS:
        raise SystemExit("adequacy.py: %s is not named after a target (%s)" % (db, ", ".join(sorted(TARGETS))))
    return target


def recheck(args, equivalents):
    """--recheck: after new cases were added for a run's survivors, shows which of them the
    vectors now kill without running the whole campaign again. Each survivor's diff (as the
    database holds it) is applied with `patch` to a fresh copy of the package and judged by the
    target's own script. Exit 1 if any still survives."""
    still = 0
    for db in args.recheck:
        target = target_of(db)
        scratch = tempfile.mkdtemp(prefix="pixie-recheck-")
        try:
            home = os.path.join(scratch, "home")
            prepare_copy(home, args.conformance, args.vectors, args.python, args.case_map)
            keys = mutant_keys(db, home)
            con = sqlite3.connect(db)
            rows = con.execute("""select s.job_id, s.start_pos_row, r.test_outcome, r.diff, r.worker_outcome
                                  from mutation_specs s join work_results r on s.job_id = r.job_id""").fetchall()
            con.close()
            if args.recheck_all:
                # Every judged mutant, killed ones too, with the outcome the database holds.
                survivors = [(keys[j], row, diff, (outcome or "").upper() == "KILLED") for j, row, outcome, diff, worker in rows
                             if (outcome or "").upper() in ("SURVIVED", "KILLED") and (worker or "").upper() != "TIMEOUT"]
            else:
                # The survivors still to explain, or (--recheck-equivalents) the ones explained:
                # when the judge grows, a reasoned equivalent must survive the new judge too.
                survivors = [(keys[j], row, diff, False) for j, row, outcome, diff, worker in rows
                             if (outcome or "").upper() == "SURVIVED" and (worker or "").upper() != "TIMEOUT"
                             and (keys[j] in equivalents) == bool(args.recheck_equivalents)]
            ordered = sorted(survivors, key=lambda s: (s[0][0], s[1], s[0][2], s[0][4]))

            def judge(k):
                """Survivor k in its own fresh copy (so --workers judges run side by side)."""
                key, row, diff, _ = ordered[k]
                copy = os.path.join(scratch, "copy-%d" % k)
                prepare_copy(copy, args.conformance, args.vectors, args.python, args.case_map)
                try:
                    if not apply_diff(copy, diff):
                        return None
                    return subprocess.run(["sh", "./judge-%s.sh" % target], cwd=copy).returncode != 0
                finally:
                    shutil.rmtree(copy, ignore_errors=True)

            killed = differ = 0
            with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.workers)) as pool:
                for (key, row, diff, was), dead in zip(ordered, pool.map(judge, range(len(ordered)))):
                    if dead is None:
                        raise SystemExit("adequacy.py: the diff of %s:%d %s does not apply to today's package" % (key[0], row, key[2]))
                    killed += dead
                    if args.recheck_all:
                        differ += dead != was
                        if dead != was:
                            print("  DIFFERS %s:%d %s (#%d on its line): %s then, %s now: %s" % (
                                key[0], row, key[2], key[4], "killed" if was else "survived", "killed" if dead else "survives",
                                mutated_text(diff)))
                    else:
                        print("  %s %s:%d %s (#%d on its line): %s" % ("killed  " if dead else "SURVIVES", key[0], row, key[2], key[4],
                                                                      mutated_text(diff)))
                    sys.stdout.flush()
            if args.recheck_all:
                print("%s: %d judged mutants judged again, %d decided as the database says, %d differently"
                      % (target, len(survivors), len(survivors) - differ, differ))
                still += differ
                continue
            if args.recheck_equivalents:
                # A listed equivalent the judge now kills is not one: its reason must go.
                still += killed
                print("%s: %d survivor(s) listed equivalent, %d now killed (not equivalent), %d still survive"
                      % (target, len(survivors), killed, len(survivors) - killed))
                continue
            still += len(survivors) - killed
            print("%s: %d survivor(s) not listed equivalent, %d now killed, %d still survive" % (target, len(survivors), killed, len(survivors) - killed))
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return 1 if still and not args.report_only else 0


def stop(signum, frame):
    """SIGTERM stops a campaign as Ctrl-C does: the workers end, the scratch copies go, and
    --keep still keeps the database."""
    raise KeyboardInterrupt


def main():
    signal.signal(signal.SIGTERM, stop)
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--format", action="append", dest="targets", choices=sorted(TARGETS),
                    help="a target (a format, services or shared); repeatable; default: every target")
    ap.add_argument("--sample", type=int, default=0, help="a seeded sample of N mutants per target (0: all)")
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--workers", type=int, default=2, help="local cosmic-ray http-workers (each in its own copy)")
    ap.add_argument("--worker-url", action="append", default=[], help="a worker started elsewhere (mutation/worker.py)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per mutant before it counts as timed out")
    ap.add_argument("--python", default=sys.executable, help="the interpreter that runs the testee and the services")
    ap.add_argument("--conformance", default=os.environ.get("CONFORMANCE", os.path.join(WORKTREE, ".build/debug/conformance")))
    ap.add_argument("--vectors", default=os.path.join(WORKTREE, "vectors"))
    ap.add_argument("--report-only", action="store_true", help="exit 0 whatever survives")
    ap.add_argument("--keep", metavar="DIR", help="copy each target's cosmic-ray database to DIR/<target>.sqlite (for --recheck)")
    ap.add_argument("--resume", metavar="DB",
                    help="go on with a kept, stopped campaign (DIR/<target>.sqlite of --keep) instead of a new one: only "
                         "its mutants without a result run; one --format; the module must be as it was at that init")
    ap.add_argument("--recheck", metavar="DB", action="append", default=[],
                    help="judge again, against today's vectors, each survivor of a kept database (DIR/<target>.sqlite) "
                         "that equivalent.tsv does not list: its diff applied to a fresh copy; no cosmic-ray run")
    ap.add_argument("--case-map", metavar="FILE",
                    help="judge each shared mutant by the cases that run its lines (mutation/casemap.py), with the map "
                         "in FILE, built there first if missing or made from other modules or vectors")
    ap.add_argument("--recheck-equivalents", action="store_true",
                    help="with --recheck: judge again the survivors listed equivalent (after the judge grew); exit 1 if one is killed")
    ap.add_argument("--recheck-all", action="store_true",
                    help="with --recheck: judge every mutant the database decided, killed ones too, and list those decided "
                         "otherwise today (with unchanged vectors, a check that a --case-map judge decides as the full one did)")
    ap.add_argument("--min-killed", type=float, default=None,
                    help="exit 1 only when the kill ratio over all targets is below PCT (CI's sample: survivors are listed, the floor gates)")
    args = ap.parse_args()
    args.conformance = os.path.abspath(args.conformance)
    args.vectors = os.path.abspath(args.vectors)
    if args.case_map:
        args.case_map = os.path.abspath(args.case_map)
        ensure_case_map(args.case_map, args.conformance, args.vectors, args.python)
    equivalents = load_equivalents()
    if args.resume:
        args.resume = os.path.abspath(args.resume)
        target = target_of(args.resume)
        if args.targets != [target] or args.sample:
            raise SystemExit("adequacy.py: --resume %s needs --format %s alone and no --sample" % (args.resume, target))
    if args.recheck:
        return recheck(args, equivalents)
    scratch = tempfile.mkdtemp(prefix="pixie-mutation-")
    workers = []
    try:
        home = os.path.join(scratch, "home")
        prepare_copy(home, args.conformance, args.vectors, args.python, args.case_map)
        urls = list(args.worker_url)
        if not urls:
            for k in range(max(1, args.workers)):
                d = os.path.join(scratch, "worker-%d" % k)
                prepare_copy(d, args.conformance, args.vectors, args.python, args.case_map)
                port = free_port()
                workers.append(start_worker(d, port))
                urls.append("http://127.0.0.1:%d" % port)
        print("cosmic-ray on %d worker(s)%s; seed %d" % (len(urls), ", sample %d per target" % args.sample if args.sample else "", args.seed))
        print("%-14s %7s %7s %8s %7s %10s %11s %8s %8s" % ("target", "mutants", "killed", "survived", "timeout", "equivalent",
                                                          "incompetent", "killed%", "seconds"))
        failed = any_flagged = False
        total = dict(mutants=0, killed=0, survived=0, timeout=0, equivalent=0, incompetent=0)
        for t in args.targets or DEFAULT_TARGETS:
            counts, survivors, flagged, seconds = run_target(t, args, home, urls, equivalents)
            for k in total:
                total[k] += counts[k]
            judged = counts["killed"] + counts["survived"] + counts["timeout"]
            ratio = 100.0 * (counts["killed"] + counts["timeout"]) / judged if judged else 100.0
            print("%-14s %7d %7d %8d %7d %10d %11d %7.1f%% %8.0f" % (t, counts["mutants"], counts["killed"], counts["survived"],
                                                                   counts["timeout"], counts["equivalent"], counts["incompetent"], ratio, seconds))
            for module, row, op, nth, text in survivors:
                print("  survived %s:%d %s (#%d on its line): %s" % (module, row, op, nth, text))
            for module, row, op, nth, why in flagged:
                where = "%s:%d" % (module, row) if row else module
                print("  LISTED EQUIVALENT, %s: %s %s (#%d on its line)" % (why, where, op, nth))
            sys.stdout.flush()
            failed = failed or bool(survivors or flagged)
            any_flagged = any_flagged or bool(flagged)
        judged = total["killed"] + total["survived"] + total["timeout"]
        overall = 100.0 * (total["killed"] + total["timeout"]) / judged if judged else 100.0
        if args.min_killed is not None:
            failed = overall < args.min_killed or any_flagged
            print("floor: %.1f%% killed, %s %.1f%%" % (overall, "below" if overall < args.min_killed else "at or above", args.min_killed))
        print("all: %d mutants, %d killed, %d survived, %d timed out, %d equivalent, %d incompetent (%.1f%% of non-equivalent killed)"
              % (total["mutants"], total["killed"], total["survived"], total["timeout"], total["equivalent"], total["incompetent"],
                 100.0 * (total["killed"] + total["timeout"]) / judged if judged else 100.0))
    finally:
        for p in workers:
            p.terminate()
            p.wait()
        shutil.rmtree(scratch, ignore_errors=True)
    return 0 if args.report_only or not failed else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("adequacy.py: stopped (a database kept with --keep holds the results so far: --resume it)", file=sys.stderr)
        sys.exit(130)

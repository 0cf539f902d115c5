#!/usr/bin/env python3
"""Mutation adequacy of the vectors, measured with a stock engine (cosmic-ray) on the pixie
package: each mutant of a format's module is judged by `conformance run --format F` (a mutant
is killed when some case of F fails). A prototype of issue 25's scripts/mutation-adequacy.sh.

    pip install cosmic-ray==8.7.0        # the engine (not a dependency of the package)
    python3 examples/python/pixie/mutation/adequacy.py --format settle [--sample N] [--seed S]
    # cosmic-ray in a venv of its own:  COSMIC_RAY_BIN=/path/venv/bin python3 …/adequacy.py …

It copies the package to a scratch directory (mutants never touch the worktree), writes one
cosmic-ray config per module, keeps a seeded sample of the mutants when asked, runs them, and
prints per format: mutants, killed, survived, timed out, equivalent; then every survivor with
file:line and operator. `equivalent.tsv` lists mutants reasoned equivalent (module, operator,
line, occurrence, reason); one that gets killed is flagged.
"""
import argparse
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
WORKTREE = os.path.dirname(os.path.dirname(os.path.dirname(PACKAGE)))
FORMAT_MODULES = {"state_digest": "state_digest.py", "reconcile": "reconcile.py", "settle": "settle.py",
                  "sync_offer": "sync_offer.py", "signin": "signin.py", "account_state": "account_state.py",
                  "device_list": "device_list.py", "envelope": "envelope.py", "pairing": "pairing.py",
                  "revocation": "revocation.py"}
JUDGE = """#!/bin/sh
exec {conformance} run --vectors {vectors} --format {fmt} --fail-fast --no-diagnose -- {python} {testee} >/dev/null 2>&1
"""
CONFIG = """[cosmic-ray]
module-path = "{module}"
timeout = {timeout}
excluded-modules = []
test-command = "{judge}"

[cosmic-ray.distributor]
name = "local"
"""


def cosmic(tool, *args, cwd):
    """A cosmic-ray command, from $COSMIC_RAY_BIN or PATH."""
    exe = os.path.join(os.environ.get("COSMIC_RAY_BIN", ""), tool) if os.environ.get("COSMIC_RAY_BIN") else tool
    return subprocess.run([exe, *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def load_equivalents():
    path = os.path.join(HERE, "equivalent.tsv")
    out = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            if line.strip() and not line.startswith("#"):
                module, operator, row, occurrence, reason = line.rstrip("\n").split("\t", 4)
                out[(module, operator, int(row), int(occurrence))] = reason
    return out


def sample(db, n, seed):
    con = sqlite3.connect(db)
    jobs = sorted(r[0] for r in con.execute("select job_id from work_items"))
    keep = set(random.Random(seed).sample(jobs, min(n, len(jobs))))
    drop = [(j,) for j in jobs if j not in keep]
    con.executemany("delete from mutation_specs where job_id = ?", drop)
    con.executemany("delete from work_items where job_id = ?", drop)
    con.commit()
    con.close()


def run_format(fmt, args, scratch, equivalents):
    module = "pixie/" + FORMAT_MODULES[fmt]
    judge = os.path.join(scratch, "judge-%s.sh" % fmt)
    with open(judge, "w") as f:
        f.write(JUDGE.format(conformance=args.conformance, vectors=os.path.join(WORKTREE, "vectors"), fmt=fmt,
                             python=args.python, testee=os.path.join(scratch, "pixie_testee.py")))
    os.chmod(judge, 0o755)
    config, db = os.path.join(scratch, fmt + ".toml"), os.path.join(scratch, fmt + ".sqlite")
    with open(config, "w") as f:
        f.write(CONFIG.format(module=module, timeout=args.timeout, judge=judge))
    if subprocess.run([judge]).returncode != 0:  # the unmutated package must pass, or every mutant "dies"
        raise SystemExit("adequacy.py: the unmutated package fails %s; fix that first" % fmt)
    cosmic("cosmic-ray", "init", config, db, cwd=scratch)
    if args.sample:
        sample(db, args.sample, args.seed)
    cosmic("cosmic-ray", "exec", config, db, cwd=scratch)
    con = sqlite3.connect(db)
    rows = con.execute("""select s.module_path, s.operator_name, s.start_pos_row, s.occurrence, r.worker_outcome,
                                 r.test_outcome from mutation_specs s join work_results r on s.job_id = r.job_id""").fetchall()
    counts = {"mutants": len(rows), "killed": 0, "survived": 0, "timeout": 0, "equivalent": 0, "incompetent": 0}
    survivors, flagged = [], []
    for module_path, op, row, occ, worker, outcome in rows:
        key = (os.path.basename(module_path), op, row, occ)
        if worker == "TIMEOUT":
            counts["timeout"] += 1
        elif outcome == "KILLED":
            counts["killed"] += 1
            if key in equivalents:
                flagged.append(key)
        elif outcome == "SURVIVED":
            if key in equivalents:
                counts["equivalent"] += 1
            else:
                counts["survived"] += 1
                survivors.append(key)
        else:
            counts["incompetent"] += 1
    return counts, sorted(survivors, key=lambda k: (k[2], k[1])), flagged


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--format", action="append", choices=sorted(FORMAT_MODULES))
    ap.add_argument("--sample", type=int, default=0, help="a seeded sample of N mutants per format")
    ap.add_argument("--seed", type=int, default=25)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--python", default=sys.executable, help="the interpreter that runs the testee")
    ap.add_argument("--conformance", default=os.environ.get("CONFORMANCE", os.path.join(WORKTREE, ".build/debug/conformance")))
    args = ap.parse_args()
    equivalents = load_equivalents()
    scratch = tempfile.mkdtemp(prefix="pixie-mutation-")
    shutil.copytree(PACKAGE, os.path.join(scratch, "pixie"), ignore=shutil.ignore_patterns("__pycache__", "mutation"))
    shutil.copy(os.path.join(os.path.dirname(PACKAGE), "pixie_testee.py"), scratch)
    failed = False
    print("format           mutants  killed  survived  timeout  equivalent  incompetent")
    for fmt in args.format or sorted(FORMAT_MODULES):
        counts, survivors, flagged = run_format(fmt, args, scratch, equivalents)
        print("%-16s %7d %7d %9d %8d %11d %12d" % (fmt, counts["mutants"], counts["killed"], counts["survived"],
                                                   counts["timeout"], counts["equivalent"], counts["incompetent"]))
        for module, op, row, occ in survivors:
            print("  survived %s:%d %s (occurrence %d)" % (module, row, op, occ))
        for module, op, row, occ in flagged:
            print("  KILLED BUT LISTED EQUIVALENT %s:%d %s (occurrence %d)" % (module, row, op, occ))
        failed = failed or bool(survivors or flagged)
    shutil.rmtree(scratch)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

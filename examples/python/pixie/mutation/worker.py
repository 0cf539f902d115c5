#!/usr/bin/env python3
"""One cosmic-ray HTTP worker for a mutation campaign spread over several machines (issue 25).

On each worker machine (a checkout of this repository with a built `conformance` and the
requirements of pixie and of mutation/ installed):

    python3 examples/python/pixie/mutation/worker.py --port 9876 --conformance .build/release/conformance

It copies the package into a directory of its own (cosmic-ray mutates the files it is sent in
place, so a worker never serves from the checkout), writes the judge of every target there with
this machine's paths, and runs `cosmic-ray http-worker` in it until stopped. The coordinator
then runs, on its own machine:

    scripts/mutation-adequacy.sh --worker-url http://host-a:9876 --worker-url http://host-b:9876

The coordinator holds the database and sends each worker one mutant at a time (cosmic-ray's own
`http` distributor); the judges' test command is relative (`sh ./judge-<target>.sh`), so it means
each worker's own copy. Keep every machine on the same commit: the vectors and the package a
worker judges are its own checkout's. With `--case-map` on the coordinator, give each worker
`--case-map` too (its own path; the map is built there when missing).
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adequacy  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--directory", help="where the copy goes (default: a new temporary directory)")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--conformance", default=os.environ.get("CONFORMANCE", os.path.join(adequacy.WORKTREE, ".build/debug/conformance")))
    ap.add_argument("--vectors", default=os.path.join(adequacy.WORKTREE, "vectors"))
    ap.add_argument("--case-map", metavar="FILE", help="as the coordinator's --case-map (built here if missing or stale)")
    args = ap.parse_args()
    if args.case_map:
        args.case_map = os.path.abspath(args.case_map)
        adequacy.ensure_case_map(args.case_map, os.path.abspath(args.conformance), os.path.abspath(args.vectors), args.python)
    directory = args.directory or tempfile.mkdtemp(prefix="pixie-mutation-worker-")
    adequacy.prepare_copy(directory, os.path.abspath(args.conformance), os.path.abspath(args.vectors), args.python, args.case_map)
    print("cosmic-ray http-worker on port %d, serving from %s" % (args.port, directory), flush=True)
    return subprocess.call([adequacy.tool("cosmic-ray"), "http-worker", "--port", str(args.port)], cwd=directory)


if __name__ == "__main__":
    sys.exit(main())

#!/bin/sh
# Mutation adequacy of the vectors with a stock engine (issue 25): cosmic-ray mutates the Python
# implementation (examples/python/pixie) and each mutant is judged by the vectors of its format.
#
#   scripts/mutation-adequacy.sh [--format F]... [--sample N] [--seed S] [--workers N]
#                                [--worker-url URL]... [--conformance BIN] [--report-only]
#
# Needs: pip install -r examples/python/requirements.txt -r examples/python/pixie/mutation/requirements.txt
# and a built conformance (CONFORMANCE=path, or --conformance; default .build/debug/conformance).
# The full run is every target with no --sample; see examples/python/pixie/README.md for its
# figures and time, and mutation/worker.py for spreading one campaign over several machines.
set -e
here="$(cd "$(dirname "$0")/.." && pwd)"
exec python3 "$here/examples/python/pixie/mutation/adequacy.py" "$@"

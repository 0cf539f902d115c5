#!/usr/bin/env bash
# ThreadSanitizer over the suite's concurrent parts (issue 27): the HTTP server and client
# (one thread per connection, the fd-reuse race once seen as a flaky test), the runner's parallel
# jobs and the fuzzer's, which share process spawning, pipes and locks.
#
#   scripts/tsan-check.sh [--seconds N]     (default 30 per fuzz run)
#
# One TSan build (.build-tsan, debug, tests included), then: the HTTP tests under TSan;
# `run --jobs 4` against `serve`; `fuzz --jobs 4` against `serve`; `fuzz --http --jobs 2`
# against `serve-http pairing`. Every process, the testees included, is the TSan build and
# writes any report to .tsan/report.<pid>; the check fails if one exists (or a step fails).
# Case deadlines are 6x: TSan slows a debug build many times over, this step checks races and
# not speed, and a hang still ends in a timeout (CI once lost a run to one 10 s deadline).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=30
[ "${1:-}" = "--seconds" ] && seconds=$2

start=$SECONDS
swift build --sanitize=thread --build-path .build-tsan --build-tests 2>&1 | grep -E "error|Build complete" | tail -2
echo "   TSan build: $((SECONDS - start)) s"
bin=$(pwd)/.build-tsan/debug/conformance
rm -rf .tsan && mkdir -p .tsan
# log_path: each process (runner, testees, services) writes its own report file; a race
# halts nothing, so every step runs to its end and every report is kept.
export TSAN_OPTIONS="log_path=$(pwd)/.tsan/report second_deadlock_stack=1 history_size=4"
export SWIFT_BACKTRACE=enable=no

# A failed step prints its failure blocks (FAIL, NOT RUN, … up to the per-op table) and its
# last lines, so a CI log names the case rather than only the totals.
show_failures() {
  awk '/^format\/op /{exit} {print}' "$1" | grep -v '^PASS' | head -40
  tail -3 "$1"
}

status=0
t=$SECONDS
swift test --sanitize=thread --build-path .build-tsan --skip-build --filter 'HTTP' 2>&1 | grep -E "^(✔|✘) (Suite|Test run)|error:" | tail -4 || status=1
echo "   HTTP tests under TSan: $((SECONDS - t)) s"
t=$SECONDS
"$bin" run --jobs 4 --timeout-multiplier 6 --format state_digest --format reconcile --format settle --format device_list --format pairing \
  -- "$bin" serve > .tsan/run.txt 2>&1 || { status=1; show_failures .tsan/run.txt; }
echo "   run --jobs 4 vs serve: $(grep -E '^[0-9]+ passed|passed' .tsan/run.txt | tail -1) ($((SECONDS - t)) s)"
t=$SECONDS
"$bin" fuzz --jobs 4 --timeout-multiplier 6 --seconds "$seconds" --seed 27 --format state_digest --format sync_offer --format settle --format account_state \
  --out .tsan/fuzz -- "$bin" serve > .tsan/fuzz.txt 2>&1 || { status=1; show_failures .tsan/fuzz.txt; }
echo "   fuzz --jobs 4 vs serve: $(tail -1 .tsan/fuzz.txt) ($((SECONDS - t)) s)"
t=$SECONDS
"$bin" fuzz --http --format pairing --jobs 2 --timeout-multiplier 6 --seconds "$seconds" --seed 27 --out .tsan/fuzz-http \
  -- "$bin" serve-http pairing > .tsan/fuzz-http.txt 2>&1 || { status=1; show_failures .tsan/fuzz-http.txt; }
echo "   fuzz --http --jobs 2 vs serve-http pairing: $(tail -1 .tsan/fuzz-http.txt) ($((SECONDS - t)) s)"

reports=$(find .tsan -name "report.*" | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "ThreadSanitizer: $reports report file(s) in .tsan/:"
  grep -h -A12 "WARNING: ThreadSanitizer" .tsan/report.* | head -60
  status=1
else
  echo "ThreadSanitizer: no report"
fi
exit $status

#!/usr/bin/env bash
# Builds the libFuzzer targets of Fuzz/ (one sanitized build for all of them) and runs each for a
# bounded time on its seed corpus (conformance fuzz-corpus: every input of every case of its ops)
# and dictionary. Fails on any finding, trap, leak or sanitizer report (issue 27).
#
#   scripts/fuzz-targets.sh [TARGET...] [--seconds N] [--jobs J] [--release] [--runs N] [--build-only]
#
#   TARGET        names as in `conformance fuzz-corpus --list` (default: all)
#   --seconds N   per target (default 20); --runs N stops after N executions instead
#   --jobs J      targets run J at a time (default 2)
#   --release     -c release -O build (the long runs); default is the debug build, quicker to compile
#   --build-only  build, write the corpora, run nothing
#
# Work lands in .fuzz/: corpus/<target>/ (seeds plus what the engine adds), artifacts/<target>/
# (crash-*, leak-*, timeout-* inputs), logs/<target>.log. Reproduce a finding with
#   Fuzz/.build/<config>/fuzz_<target> .fuzz/artifacts/<target>/crash-…
# or, without the sanitized build, `conformance fuzz-corpus --replay <target> FILE`.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

seconds=20 jobs=2 config=debug build_only=0 runs=""
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --runs) runs=$2; shift ;;
    --release) config=release ;;
    --build-only) build_only=1 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1") ;;
  esac
  shift
done

conformance=${CONFORMANCE:-$root/.build/debug/conformance}
[ -x "$conformance" ] || { swift build --product conformance >/dev/null; conformance=$root/.build/debug/conformance; }
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <("$conformance" fuzz-corpus --list | cut -f1)
fi
for t in "${targets[@]}"; do
  [ -d "Fuzz/Sources/fuzz_$t" ] || { echo "no target folder Fuzz/Sources/fuzz_$t for $t" >&2; exit 2; }
done

echo "== building ${#targets[@]} fuzz target(s), $config, -sanitize=fuzzer,address"
start=$SECONDS
(cd Fuzz && swift build -c "$config" -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library 2>&1 \
   | grep -v "Cannot export local symbol" | grep -E "error|warning: unre|Compiling|Build" | tail -3)
echo "   built in $((SECONDS - start)) s"

work=$root/.fuzz
mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts" "$work/logs"
args=()
for t in "${targets[@]}"; do args+=(--target "$t"); done
"$conformance" fuzz-corpus --out "$work/seeds" "${args[@]}" >/dev/null
[ "$build_only" = 1 ] && exit 0

run_one() {
  local t=$1 bin=$root/Fuzz/.build/$config/fuzz_$1
  mkdir -p "$work/corpus/$t" "$work/artifacts/$t"
  local limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  # SWIFT_BACKTRACE off: the Swift runtime's crash backtracer otherwise holds a crashing target
  # for minutes before libFuzzer can write the input and exit.
  if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$root/Fuzz/lsan.supp "$bin" "${limit[@]}" \
       -timeout=30 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
       -dict="$work/seeds/$t.dict" -artifact_prefix="$work/artifacts/$t/" \
       "$work/corpus/$t" "$work/seeds/$t" >"$work/logs/$t.log" 2>&1; then
    echo "ok   $t: $(summary "$t")"
  else
    echo "FAIL $t (exit $?): $(summary "$t"); log .fuzz/logs/$t.log, inputs .fuzz/artifacts/$t/"
    grep -m3 -E "FINDING|ERROR: |Fatal error|SUMMARY" "$work/logs/$t.log" | sed 's/^/       /' | cut -c1-400
    return 1
  fi
}
summary() {
  local log=$work/logs/$1.log
  local execs rate cov ft
  execs=$(grep -oE "stat::number_of_executed_units:[[:space:]]*[0-9]+" "$log" | grep -oE "[0-9]+$" || true)
  rate=$(grep -oE "stat::average_exec_per_sec:[[:space:]]*[0-9]+" "$log" | grep -oE "[0-9]+$" || true)
  cov=$(grep -oE "cov: [0-9]+ ft: [0-9]+" "$log" | tail -1 || true)
  echo "${execs:-?} execs, ${rate:-?}/s, ${cov:-cov ?}"
}
export -f run_one summary
export root work config seconds runs

budget="$seconds s"; [ -n "$runs" ] && budget="$runs runs"
echo "== running ${#targets[@]} target(s), $budget each, $jobs at a time"
status=0
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}' || status=1
[ $status = 0 ] && echo "fuzz targets: no finding" || echo "fuzz targets: FINDINGS (above)"
exit $status

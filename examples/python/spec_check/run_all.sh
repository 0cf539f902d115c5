#!/bin/sh
# spec_check (see README.md): reproduce every sync_offer / signin / device_list vector that needs no
# AES-GCM and no signature, and show each modelled alternative reading is ruled out by some vector.
# The four scripts are independent: they run two at a time (CI has two cores), each into its own
# log, printed in this order; the exit status is 1 if any of them failed.
cd "$(dirname "$0")"
logs=$(mktemp -d)
run() { python3 "$1.py" >"$logs/$1.log" 2>&1; echo $? >"$logs/$1.rc"; }
run alternatives &
alt=$!
run sync_offer; run signin; run device_list
wait $alt
status=0
for s in sync_offer signin device_list alternatives; do
  case $s in alternatives) echo "== alternative readings" ;; *) echo "== $s" ;; esac
  cat "$logs/$s.log"
  [ "$(cat "$logs/$s.rc")" = 0 ] || { echo "spec_check: $s.py failed (exit $(cat "$logs/$s.rc"))"; status=1; }
done
rm -rf "$logs"
exit $status

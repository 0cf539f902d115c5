#!/bin/bash -eu
# Builds every fuzz target of Fuzz/ into $OUT as OSS-Fuzz and ClusterFuzzLite expect: one
# binary per target (fuzz_<surface>), its seed corpus zipped beside it
# (fuzz_<surface>_seed_corpus.zip, every input of every case of its ops, from the committed
# vectors) and its dictionary (fuzz_<surface>.dict), plus an .options file.
#
# In the builder image, `precompile_swift` sets SWIFTFLAGS (sanitizer, coverage, static stdlib).
# Outside it (a local check of this layout) the same build runs with ASan and libFuzzer:
#   OUT=/tmp/cflite-out SRC=$PWD/.. bash .clusterfuzzlite/build.sh
# then run one target as the service would: /tmp/cflite-out/fuzz_cbor -runs=100000
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
: "${OUT:?set OUT to the output directory}"
mkdir -p "$OUT"

if command -v precompile_swift >/dev/null 2>&1; then
  . precompile_swift
else
  SWIFTFLAGS="-Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library"
fi
config=${FUZZ_CONFIG:-release}

# The corpora come from the unsanitized CLI (reads the vectors; no fuzzing flags).
swift build --product conformance
conformance=$root/.build/debug/conformance

(cd Fuzz && swift build -c "$config" $SWIFTFLAGS)

seeds=$(mktemp -d)
"$conformance" fuzz-corpus --out "$seeds" >/dev/null
for t in $("$conformance" fuzz-corpus --list | cut -f1); do
  cp "Fuzz/.build/$config/fuzz_$t" "$OUT/"
  (cd "$seeds/$t" && zip -q -r "$OUT/fuzz_${t}_seed_corpus.zip" .)
  cp "$seeds/$t.dict" "$OUT/fuzz_$t.dict"
  printf '[libfuzzer]\ndict = fuzz_%s.dict\nmax_len = 65536\n' "$t" > "$OUT/fuzz_$t.options"
done
cp Fuzz/lsan.supp "$OUT/lsan.supp"
rm -rf "$seeds"
echo "built $(ls "$OUT"/fuzz_*_seed_corpus.zip | wc -l) target(s) into $OUT"

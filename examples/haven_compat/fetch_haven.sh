#!/bin/sh
# Copies the two pieces of Haven this harness runs, unmodified but for two `use` lines, from a
# checkout of the public blaineam/Haven repository (git directory or work tree):
#   core/haven-p2p/src/selfsync.rs           -> src/haven/selfsync.rs
#   converge_epoch_key (core/haven-ffi/src/lib.rs) -> src/haven/converge.rs
# Usage: sh fetch_haven.sh /path/to/Haven [commit]
set -eu
repo=$1
rev=${2:-HEAD}
out=$(dirname "$0")/src/haven
mkdir -p "$out"
show() { git --git-dir="$repo" show "$rev:$1" 2>/dev/null || git -C "$repo" show "$rev:$1"; }
# OsRng is replaced by a queue the harness fills (salt, then nonce), so a seal is reproducible.
show core/haven-p2p/src/selfsync.rs \
  | sed -e 's/^use rand::rngs::OsRng;/use super::shim::OsRng;/' \
        -e 's/^use crate::crypto;/use super::shim as crypto;/' \
        -e 's/^use crate::{CoreError, Result};/use super::shim::{CoreError, Result};/' \
  > "$out/selfsync.rs"
printf '\n#[path = "../harness.rs"]\npub mod harness;\n' >> "$out/selfsync.rs"
show core/haven-ffi/src/lib.rs \
  | awk '/^const ALT_KEYS_PER_SLOT/{p=1} p{print} p&&/^}/{exit}' > "$out/converge.rs"
{ git --git-dir="$repo" rev-parse "$rev" 2>/dev/null || git -C "$repo" rev-parse "$rev"; } > "$out/COMMIT"
echo "copied into $out"

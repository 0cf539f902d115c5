//! Replays vectors/account_state.json through Haven's own `selfsync.rs` (and its
//! `converge_epoch_key`) and reports, per case, whether Haven's answer is the vector's.
//! Usage: cargo run -- ../../vectors/account_state.json
mod shim;
#[path = "haven/selfsync.rs"]
#[allow(dead_code)]
mod selfsync;

fn main() {
    let path = std::env::args().nth(1).unwrap_or_else(|| "../../vectors/account_state.json".into());
    std::process::exit(selfsync::harness::run(&path));
}

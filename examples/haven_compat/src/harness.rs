//! A child module of Haven's `selfsync` (so it reaches the private `Reg`, `selfsync_subkey` and
//! the state's fields): builds Haven values from each case's input, runs Haven's function, and
//! renders the answer in the vector's JSON shape.
use super::*;
use serde_json::{json, Value};

// Haven's `converge_epoch_key` and `ALT_KEYS_PER_SLOT`, copied verbatim by fetch_haven.sh.
include!("haven/converge.rs");

enum Outcome {
    Output(Value),
    Rejected(String),
    /// The case tests this suite's reading of op inputs (§2.2), which Haven has no counterpart of.
    InputLayer,
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(v: &Value) -> Vec<u8> {
    let s = v.as_str().expect("hex string");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

fn arr32(v: &Value) -> [u8; 32] {
    unhex(v).try_into().expect("32 bytes")
}

fn uint(v: &Value) -> u64 {
    match v {
        Value::Number(n) => n.as_u64().expect("u64"),
        Value::String(s) => s.parse().expect("decimal"),
        _ => panic!("not an integer: {v}"),
    }
}

/// §2: integers up to 2^53 as numbers, beyond as decimal strings.
fn int_json(v: u64) -> Value {
    if v <= 1 << 53 { json!(v) } else { json!(v.to_string()) }
}

fn state_from(v: &Value) -> AccountState {
    let mut s = AccountState::default();
    for r in v["records"].as_array().unwrap() {
        let stamp = Stamp { ts: uint(&r["ts"]), device: arr32(&r["device"]) };
        let val = if r["value"].is_null() { None } else { Some(unhex(&r["value"])) };
        s.records.insert(r["key"].as_str().unwrap().to_string(), Reg { stamp, val });
    }
    for c in v["cursors"].as_array().unwrap() {
        s.cursors.insert(c["name"].as_str().unwrap().to_string(), uint(&c["ts"]));
    }
    s
}

fn state_json(s: &AccountState) -> Value {
    let records: Vec<Value> = s
        .records
        .iter()
        .map(|(k, r)| {
            json!({"key": k, "ts": int_json(r.stamp.ts), "device": hex(&r.stamp.device),
                   "value": r.val.as_ref().map(|v| Value::String(hex(v))).unwrap_or(Value::Null)})
        })
        .collect();
    let cursors: Vec<Value> = s.cursors.iter().map(|(n, t)| json!({"name": n, "ts": int_json(*t)})).collect();
    json!({"records": records, "cursors": cursors})
}

fn applied(a: bool, s: &AccountState) -> Outcome {
    Outcome::Output(json!({"applied": a, "state": state_json(s)}))
}

fn run_case(op: &str, i: &Value) -> Outcome {
    match op {
        "derive_key" => {
            // identity.rs `Identity::self_sync_key`, the same three lines.
            let hk = Hkdf::<Sha256>::new(Some(b"haven-selfsync-v1"), &unhex(&i["seed"]));
            let mut out = [0u8; 32];
            hk.expand(b"state-key", &mut out).unwrap();
            Outcome::Output(json!({"self_sync_key": hex(&out)}))
        }
        "subkey" => Outcome::Output(json!({"subkey": hex(&selfsync_subkey(&arr32(&i["key"]), &unhex(&i["salt"])))})),
        "encode" => Outcome::Output(json!({"plaintext": hex(&state_from(&i["state"]).to_bytes())})),
        "decode" => match AccountState::from_bytes(&unhex(&i["plaintext"])) {
            Ok(s) => Outcome::Output(json!({"state": state_json(&s)})),
            Err(e) => Outcome::Rejected(e.to_string()),
        },
        "set" => {
            let mut s = state_from(&i["state"]);
            let a = s.set(i["key"].as_str().unwrap(), unhex(&i["value"]), Stamp::new(uint(&i["ts"]), arr32(&i["device"])));
            applied(a, &s)
        }
        "remove" => {
            let mut s = state_from(&i["state"]);
            let a = s.remove(i["key"].as_str().unwrap(), Stamp::new(uint(&i["ts"]), arr32(&i["device"])));
            applied(a, &s)
        }
        "bump_cursor" => {
            let mut s = state_from(&i["state"]);
            let a = s.bump_cursor(i["name"].as_str().unwrap(), uint(&i["ts"]));
            applied(a, &s)
        }
        "merge" => {
            let mut s = state_from(&i["local"]);
            s.merge(&state_from(&i["remote"]));
            Outcome::Output(json!({"state": state_json(&s)}))
        }
        "seal" => {
            let s = state_from(&i["state"]);
            super::super::shim::push_random(&unhex(&i["salt"]));
            super::super::shim::push_random(&unhex(&i["nonce"]));
            let key = arr32(&i["key"]);
            let blob = if i["epoch"].is_null() { s.seal(&key) } else { s.seal_epoch(&key, uint(&i["epoch"])) };
            assert_eq!(super::super::shim::queued(), 0, "seal drew exactly salt and nonce");
            Outcome::Output(json!({"blob": hex(&blob)}))
        }
        "peek_epoch" => Outcome::Output(json!({"epoch": AccountState::peek_epoch(&unhex(&i["blob"])).map(int_json).unwrap_or(Value::Null)})),
        "open" => {
            let seed = if i["seed_key"].is_null() { None } else { Some(arr32(&i["seed_key"])) };
            let accepted: BTreeMap<u64, [u8; 32]> =
                i["accepted"].as_array().unwrap().iter().map(|a| (uint(&a["epoch"]), arr32(&a["key"]))).collect();
            match AccountState::open_any(&unhex(&i["blob"]), seed.as_ref(), &accepted) {
                // Haven returns the state only; `version` and `epoch` of the vector are not compared.
                Ok(s) => Outcome::Output(json!({"state": state_json(&s)})),
                Err(e) => Outcome::Rejected(e.to_string()),
            }
        }
        "slot_keys" => {
            // Haven's clients pass `hex::encode(node_id)`: lowercase.
            let (a, d) = (i["account_id"].as_str().unwrap().to_lowercase(), i["device_id"].as_str().unwrap().to_lowercase());
            Outcome::Output(json!({"slot": slot_key(&a, &d), "prefix": slot_prefix(&a),
                                   "grant_slot": grant_slot_key(&a, &d), "grant_prefix": grant_slot_prefix(&a)}))
        }
        "receive_own_commit" => receive_own_commit(i),
        _ => panic!("unknown op {op}"),
    }
}

/// The own-device branch of haven-ffi's `receive_key_commit` followed by `prune_epoch_keys`, with
/// `converge_epoch_key` itself verbatim: maps keyed by epoch, the circle-secret and `my_epoch`
/// rules as written there, KEEP_EPOCHS = 4, alternates retained only with their slot.
fn receive_own_commit(i: &Value) -> Outcome {
    use std::collections::HashMap;
    let mut my_epoch_keys: HashMap<u64, [u8; 32]> = HashMap::new();
    let mut my_epoch_keys_alt: HashMap<u64, Vec<[u8; 32]>> = HashMap::new();
    for k in i["keys"].as_array().unwrap() {
        let e = uint(&k["epoch"]);
        my_epoch_keys.insert(e, arr32(&k["primary"]));
        my_epoch_keys_alt.insert(e, k["alts"].as_array().unwrap().iter().map(arr32).collect());
    }
    let mut my_circle_secret = arr32(&i["circle_secret"]);
    let mut my_epoch = uint(&i["my_epoch"]);
    let c = &i["commit"];
    let (epoch, epoch_key, circle_secret) = (uint(&c["epoch"]), arr32(&c["epoch_key"]), arr32(&c["circle_secret"]));

    let mut primary = my_epoch_keys.get(&epoch).copied();
    let alts = my_epoch_keys_alt.entry(epoch).or_default();
    let is_new = converge_epoch_key(&mut primary, alts, epoch_key);
    if let Some(k) = primary {
        my_epoch_keys.insert(epoch, k);
    }
    if circle_secret != [0u8; 32] && (my_circle_secret == [0u8; 32] || circle_secret > my_circle_secret) {
        my_circle_secret = circle_secret;
    }
    if epoch > my_epoch {
        my_epoch = epoch;
    }
    const KEEP_EPOCHS: usize = 4;
    if my_epoch_keys.len() > KEEP_EPOCHS {
        let mut epochs: Vec<u64> = my_epoch_keys.keys().copied().collect();
        epochs.sort_unstable();
        for e in &epochs[..epochs.len() - KEEP_EPOCHS] {
            my_epoch_keys.remove(e);
        }
    }
    my_epoch_keys_alt.retain(|e, _| my_epoch_keys.contains_key(e));
    let mut epochs: Vec<u64> = my_epoch_keys.keys().copied().collect();
    epochs.sort_unstable();
    let keys: Vec<Value> = epochs
        .iter()
        .map(|e| {
            let alts: Vec<Value> = my_epoch_keys_alt.get(e).map(|a| a.iter().map(|k| json!(hex(k))).collect()).unwrap_or_default();
            json!({"epoch": int_json(*e), "primary": hex(&my_epoch_keys[e]), "alts": alts})
        })
        .collect();
    Outcome::Output(json!({"new": is_new, "keys": keys, "circle_secret": hex(&my_circle_secret), "my_epoch": int_json(my_epoch)}))
}

/// The vector's expected output, narrowed to what Haven's API returns for the op.
fn comparable(op: &str, expected: &Value) -> Value {
    match op {
        "open" => json!({"state": expected["state"].clone()}),
        _ => expected.clone(),
    }
}

pub fn run(path: &str) -> i32 {
    let text = std::fs::read_to_string(path).expect("read the vector file");
    let file: Value = serde_json::from_str(&text).expect("JSON");
    let known_path = concat!(env!("CARGO_MANIFEST_DIR"), "/known_differences.tsv");
    let known: std::collections::BTreeMap<String, String> = std::fs::read_to_string(known_path)
        .expect("known_differences.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let (id, why) = l.split_once('\t').expect("id<TAB>difference");
            (id.to_string(), why.to_string())
        })
        .collect();
    let (mut agree, mut documented, mut unexpected, mut input_layer) = (0, 0, 0, 0);
    let mut by_class: std::collections::BTreeMap<String, usize> = Default::default();
    let mut seen_known = std::collections::BTreeSet::new();
    for c in file["cases"].as_array().unwrap() {
        let (id, op) = (c["id"].as_str().unwrap(), c["op"].as_str().unwrap());
        let exp = &c["expected"];
        let input_error = exp["error"].as_str().map_or(false, |e| e.starts_with("input_") || e == "duplicate_key");
        let outcome = if input_error { Outcome::InputLayer } else { run_case(op, &c["input"]) };
        let verdict = match (&outcome, exp.get("output"), exp.get("error")) {
            (Outcome::InputLayer, _, _) => None,
            (Outcome::Output(got), Some(want), _) => Some(if *got == comparable(op, want) { Ok(()) } else { Err(format!("Haven answers {got}")) }),
            (Outcome::Rejected(_), None, Some(_)) => Some(Ok(())),
            (Outcome::Rejected(e), Some(_), _) => Some(Err(format!("Haven rejects: {e}"))),
            (Outcome::Output(got), None, Some(code)) => Some(Err(format!("vector expects {code}, Haven accepts: {got}"))),
            _ => Some(Err("unexpected expectation".into())),
        };
        match verdict {
            None => input_layer += 1,
            Some(Ok(())) => {
                agree += 1;
                if known.contains_key(id) {
                    println!("NOW AGREES (remove from known_differences.tsv) {id}");
                    unexpected += 1;
                }
            }
            Some(Err(why)) => match known.get(id) {
                Some(class) => {
                    documented += 1;
                    seen_known.insert(id.to_string());
                    *by_class.entry(class.clone()).or_default() += 1;
                }
                None => {
                    unexpected += 1;
                    println!("DIFFER {id}: {why}");
                }
            },
        }
    }
    for id in known.keys().filter(|k| !seen_known.contains(*k)) {
        if !file["cases"].as_array().unwrap().iter().any(|c| c["id"] == **id) {
            println!("MISSING known difference {id} (no such case)");
            unexpected += 1;
        }
    }
    let classes: Vec<String> = by_class.iter().map(|(k, v)| format!("{k} {v}")).collect();
    println!(
        "{agree} agree with Haven, {documented} differ as documented ({}), {unexpected} unexpected, {input_layer} input-layer cases not applicable; {} cases",
        classes.join(", "),
        agree + documented + unexpected + input_layer
    );
    if unexpected == 0 { 0 } else { 1 }
}

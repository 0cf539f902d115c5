"""Snapshot sync (SPEC §7): SyncRequest / SyncOffer / SyncAck, the snapshot, the blob seal, the
receiver procedure, import, re-sends and wake classes."""
import hashlib

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from . import cbor
from .errors import Rejected
from .jsontext import is_text
from .opinput import (I64, U64, array, hexbytes, integer, json_int, member, obj, text, utf8_key)
from .state_digest import (NAMESPACES, SCHEMAS, ABSENT_IS_EMPTY, read_row, read_value, row_json)

MAX_BLOB_BYTES = 268435456  # §7.5 syncMaxBlobBytes
TAG_LENGTH = 16
SNAPSHOT_VERSION = 1
RESEND_INTERVAL_MS = 5000   # §7.8
SENDS = 7

# --- §7.2 the three payloads --------------------------------------------------------------------

# Members in table order: (name, kind, size); kind is "tstr", "bstr", "uint" or "bool".
PAYLOADS = {
    "sync_request": [("request_id", "bstr", 16), ("reply_pubkey", "bstr", 1216), ("timestamp_ms", "uint", None)],
    "sync_offer": [("blob_id", "bstr", 32), ("key", "bstr", 32), ("nonce", "bstr", 12), ("sha256", "bstr", 32),
                   ("size_bytes", "uint", None)],
    "sync_ack": [("request_id", "bstr", 16), ("ok", "bool", None)],
}


def is_uint(v):
    """§7.1: a uint is major type 0 only (no bool, no bignum, no float)."""
    return type(v) is int and 0 <= v <= U64[1]


def cbor_kind_ok(v, kind):
    if kind == "tstr":
        return isinstance(v, str)
    if kind == "bstr":
        return isinstance(v, bytes)
    if kind == "uint":
        return is_uint(v)
    if kind == "bool":
        return isinstance(v, bool)
    raise AssertionError(kind)


def decode_map(b, code_prefix="sync"):
    """R7.2-2, R7.2-3 (and §7.4 steps 1–2): one §1 item, a map with text keys only."""
    item = cbor.decode(b)
    if not isinstance(item, dict) or not all(isinstance(k, str) for k in item):
        raise Rejected(code_prefix + "_bad_type", "not a map with text keys")
    return item


def decode_payload(tag, b):
    """§7.2 receiver rules 1–5 in their order (R7.2-7, R7.2-8)."""
    m = decode_map(b)
    if "type" not in m:  # R7.2-4
        raise Rejected("sync_missing_field", "no type")
    if not isinstance(m["type"], str):
        raise Rejected("sync_bad_type", "type is not text")
    if m["type"] != tag:
        raise Rejected("sync_wrong_payload_type", "type %r is not %s" % (m["type"], tag))
    names = {"type"} | {n for n, _, _ in PAYLOADS[tag]}
    for name in m:  # R7.2-5
        if name not in names:
            raise Rejected("sync_unknown_field", "%s has no member %s" % (tag, name))
    out = {}
    for name, kind, size in PAYLOADS[tag]:  # R7.2-6, table order
        if name not in m:
            raise Rejected("sync_missing_field", "%s needs %s" % (tag, name))
        v = m[name]
        if not cbor_kind_ok(v, kind):
            raise Rejected("sync_bad_type", "%s.%s has the wrong CBOR type" % (tag, name))
        if size is not None and len(v) != size:
            raise Rejected("sync_bad_length", "%s.%s: %d bytes, not %d" % (tag, name, len(v), size))
        out[name] = v
    return out


def encode_payload(tag, fields):
    """R7.2-1: exactly the members, in the §1 encoding."""
    m = {"type": tag}
    m.update(fields)
    return cbor.encode(m)


def read_payload_input(tag, inp):
    """§7.9 REQUEST / OFFER / ACK: members in table order, §2.2."""
    out = {}
    for name, kind, size in PAYLOADS[tag]:
        v = member(inp, name)
        if kind == "bstr":
            out[name] = hexbytes(v, name, size)
        elif kind == "uint":
            out[name] = integer(v, name, U64)
        elif kind == "bool":
            if not isinstance(v, bool):
                raise Rejected("input_bad_type", "%s: expected true or false" % name)
            out[name] = v
    return out


def payload_json(tag, fields):
    """R7.9-12: members in table order; bytes as lowercase hex."""
    out = {}
    for name, kind, _ in PAYLOADS[tag]:
        v = fields[name]
        out[name] = v.hex() if kind == "bstr" else json_int(v) if kind == "uint" else v
    return out


# --- §7.4 the snapshot --------------------------------------------------------------------------

SNAPSHOT_FIELDS = {"contacts": [("pubkey", ("bytes", None)), ("accountSigningPubkey", ("bytes", None)),
                                ("channelKey", ("bytes", 32))]}  # §7.4, R7.4-3


def fields_of(ns):
    """Every §4.4 field of the namespace and then its snapshot fields: (name, kind, required)."""
    out = [(n, k, not opt and k not in ABSENT_IS_EMPTY) for n, k, opt, _ in SCHEMAS[ns][1]]
    return out + [(n, k, False) for n, k in SNAPSHOT_FIELDS.get(ns, [])]


def row_key(ns, row):
    k = row[SCHEMAS[ns][0]]
    return k.encode("utf-8") if isinstance(k, str) else k


def reaction_order(r):
    return (r[0], utf8_key(r[1]))


# --- the snapshot as JSON (§7.9 SNAPSHOT) -------------------------------------------------------

def read_snapshot_row(v, ns, path):
    """R7.9-8: the §4 row once its snapshot fields are taken out; then those, in §7.4 order."""
    obj(v, path)
    extra = SNAPSHOT_FIELDS.get(ns, [])
    plain = {k: x for k, x in v.items() if k not in {n for n, _ in extra}}
    row = read_row(plain, ns, path)
    for name, kind in extra:
        if name in v:
            row[name] = read_value(v[name], kind, "%s.%s" % (path, name))
    return row


def read_snapshot(v, path="snapshot"):
    """R7.9-7 … R7.9-10: names first, then namespaces in §4.1 order; then provider_keys; then
    repeated keys (SPEC leaves this last step's place open; the reference takes it here)."""
    obj(v, path)
    nss = obj(member(v, "namespaces", path), path + ".namespaces")
    for name in nss:
        if name not in SCHEMAS:
            raise Rejected("unknown_namespace", "no namespace %s" % name)
    namespaces = {}
    for ns in NAMESPACES:
        if ns not in nss:
            continue
        p = "%s.namespaces.%s" % (path, ns)
        rows = [read_snapshot_row(r, ns, "%s[%d]" % (p, i)) for i, r in enumerate(array(nss[ns], p))]
        if rows:
            namespaces[ns] = rows
    provider_keys = {}
    if "provider_keys" in v:
        pk = v["provider_keys"]
        if not isinstance(pk, dict) or not all(is_text(x) for x in pk.values()):
            raise Rejected("input_bad_type", "provider_keys: an object of strings")
        provider_keys = dict(pk)
    for ns, rows in namespaces.items():  # R7.9-10, once the whole SNAPSHOT is read (as the reference)
        keys = [row_key(ns, r) for r in rows]
        if len(set(keys)) != len(keys):
            raise Rejected("duplicate_key", "two %s rows share a key" % ns)
        namespaces[ns] = sorted(rows, key=lambda r: row_key(ns, r))
    return {"namespaces": namespaces, "provider_keys": provider_keys}


def snapshot_row_json(ns, row):
    """R7.9-11: §4.4 fields in table order (text sets sorted), then snapshot fields."""
    out = row_json(ns, row)
    for name, kind, _, _ in SCHEMAS[ns][1]:
        if name in out and kind == "text_set":
            out[name] = sorted(set(row[name]), key=utf8_key)
        elif name in out and kind == "reaction_set":
            out[name] = [{"reactor": r.hex(), "emoji": e} for r, e in sorted(set(row[name]), key=reaction_order)]
    for name, _ in SNAPSHOT_FIELDS.get(ns, []):
        if name in row:
            out[name] = row[name].hex()
    return out


def snapshot_json(snap):
    out = {"namespaces": {ns: [snapshot_row_json(ns, r) for r in sorted(snap["namespaces"][ns],
                                                                      key=lambda r: row_key(ns, r))]
                          for ns in NAMESPACES if snap["namespaces"].get(ns)}}
    if snap["provider_keys"]:
        out["provider_keys"] = {k: snap["provider_keys"][k] for k in sorted(snap["provider_keys"], key=utf8_key)}
    return out


# --- the snapshot as CBOR (R7.4-5 encode, R7.4-6 … R7.4-19 decode) ------------------------------

def cbor_value(kind, v):
    """R7.4-4: a field value as CBOR."""
    if kind == "text_set":
        return sorted(set(v), key=utf8_key)
    if kind == "reaction_set":
        return [{"reactor": r, "emoji": e} for r, e in sorted(set(v), key=reaction_order)]
    return v


def encode_snapshot(snap):
    """R7.4-5: one store, one encoding."""
    namespaces = {}
    for ns in NAMESPACES:
        rows = snap["namespaces"].get(ns)
        if not rows:
            continue
        kinds = {n: k for n, k, _ in fields_of(ns)}
        namespaces[ns] = [{n: cbor_value(kinds[n], x) for n, x in r.items()}
                          for r in sorted(rows, key=lambda r: row_key(ns, r))]
    m = {"version": SNAPSHOT_VERSION, "namespaces": namespaces}
    if snap["provider_keys"]:
        m["provider_keys"] = dict(snap["provider_keys"])
    return cbor.encode(m)


def bad(code, why):
    raise Rejected(code, why)


def decode_strict_set(v, path, element):
    """R7.4-12, R7.4-19: an array read element by element, each strictly above the one before."""
    if not isinstance(v, list):
        bad("sync_bad_type", "%s: expected an array" % path)
    out, previous = [], None
    for i, x in enumerate(v):
        item, order = element(x, "%s[%d]" % (path, i))
        if previous is not None and not order > previous:
            bad("sync_bad_value", "%s[%d]: not above the element before it" % (path, i))
        previous = order
        out.append(item)
    return out


def decode_text_element(x, path):
    if not isinstance(x, str):
        bad("sync_bad_type", "%s: expected a text string" % path)
    return x, utf8_key(x)


def decode_reaction_element(x, path):
    """A reaction map: exactly reactor (32-byte bstr) and emoji (tstr)."""
    if not isinstance(x, dict) or not all(isinstance(k, str) for k in x):
        bad("sync_bad_type", "%s: a reaction is a map with text keys" % path)
    for k in x:
        if k not in ("reactor", "emoji"):
            bad("sync_unknown_field", "%s: a reaction has no member %s" % (path, k))
    if "reactor" not in x:
        bad("sync_missing_field", "%s: no reactor" % path)
    if not isinstance(x["reactor"], bytes):
        bad("sync_bad_type", "%s.reactor: expected a byte string" % path)
    if len(x["reactor"]) != 32:
        bad("sync_bad_length", "%s.reactor: expected 32 bytes" % path)
    if "emoji" not in x:
        bad("sync_missing_field", "%s: no emoji" % path)
    if not isinstance(x["emoji"], str):
        bad("sync_bad_type", "%s.emoji: expected a text string" % path)
    r = (x["reactor"], x["emoji"])
    return r, reaction_order(r)


def decode_field(v, kind, path):
    """R7.4-12: one row member by its field's type."""
    if isinstance(kind, tuple):
        if not isinstance(v, bytes):
            bad("sync_bad_type", "%s: expected a byte string" % path)
        if kind[1] is not None and len(v) != kind[1]:
            bad("sync_bad_length", "%s: %d bytes, not %d" % (path, len(v), kind[1]))
        return v
    if kind == "normalized_hash":
        if not isinstance(v, bytes):
            bad("sync_bad_type", "%s: expected a byte string" % path)
        if len(v) not in (0, 32):
            bad("sync_bad_length", "%s: 0 or 32 bytes" % path)
        return v
    if kind in ("text", "note_body"):
        if not isinstance(v, str):
            bad("sync_bad_type", "%s: expected a text string" % path)
        return v
    if kind in ("uint", "int", "date"):
        if type(v) is not int:
            bad("sync_bad_type", "%s: expected an integer" % path)
        lo, hi = U64 if kind == "uint" else I64
        if kind == "uint" and v < 0:
            bad("sync_bad_type", "%s: a uint is major type 0" % path)
        if not lo <= v <= hi:
            bad("sync_bad_value", "%s: %d is outside the type's range" % (path, v))
        return v
    if kind == "bool":
        if not isinstance(v, bool):
            bad("sync_bad_type", "%s: expected true or false" % path)
        return v
    if kind == "text_set":
        return decode_strict_set(v, path, decode_text_element)
    if kind == "reaction_set":
        return decode_strict_set(v, path, decode_reaction_element)
    if kind == "version_vector":
        if not isinstance(v, dict):
            bad("sync_bad_type", "%s: expected a map" % path)
        out = {}
        for k, n in v.items():
            if not isinstance(k, str):
                bad("sync_bad_type", "%s: a key that is not text" % path)
            if not is_uint(n):
                bad("sync_bad_type", "%s.%s: expected a uint" % (path, k))
            out[k] = n
        return out
    raise AssertionError(kind)


def decode_row(v, ns, path):
    """R7.4-12, R7.4-17, R7.4-18: members in encoding order, then required fields."""
    if not isinstance(v, dict):
        bad("sync_bad_type", "%s: a row is a map" % path)
    kinds = {n: (k, req) for n, k, req in fields_of(ns)}
    row = {}
    for name, x in v.items():
        if not isinstance(name, str):
            bad("sync_bad_type", "%s: a key that is not text" % path)
        if name not in kinds:
            bad("sync_unknown_field", "%s rows have no field %s" % (ns, name))
        row[name] = decode_field(x, kinds[name][0], "%s.%s" % (path, name))
    for name, (_, required) in kinds.items():
        if required and name not in row:
            bad("sync_missing_field", "%s rows need %s" % (ns, name))
    return row


def decode_namespace(name, rows, path):
    """R7.4-11, R7.4-13, R7.4-16: one namespace completely, rows strictly in key order."""
    if not isinstance(name, str):
        bad("sync_bad_type", "a namespace name that is not text")
    if name not in SCHEMAS:
        bad("unknown_namespace", "no namespace %s" % name)
    if not isinstance(rows, list):
        bad("sync_bad_type", "%s: expected an array of rows" % name)
    if not rows:
        bad("sync_bad_value", "%s: an empty row list" % name)
    out, previous = [], None
    for i, r in enumerate(rows):
        row = decode_row(r, name, "%s.%s[%d]" % (path, name, i))
        key = row_key(name, row)
        if previous is not None:
            if key == previous:
                bad("duplicate_key", "%s: two rows share a key" % name)
            if key < previous:
                bad("sync_bad_value", "%s: rows out of key order" % name)
        previous = key
        out.append(row)
    return out


def decode_snapshot(b):
    """§7.4 decoding steps 1–9 (R7.4-6 … R7.4-15)."""
    m = decode_map(b)
    for name in m:  # step 3
        if name not in ("version", "namespaces", "provider_keys"):
            bad("sync_unknown_field", "a snapshot has no member %s" % name)
    if "version" not in m:  # step 4
        bad("sync_missing_field", "no version")
    if not is_uint(m["version"]):
        bad("sync_bad_type", "version is not a uint")
    if m["version"] != SNAPSHOT_VERSION:
        bad("sync_unsupported_version", "snapshot version %d" % m["version"])
    if "namespaces" not in m:  # step 5
        bad("sync_missing_field", "no namespaces")
    if not isinstance(m["namespaces"], dict):
        bad("sync_bad_type", "namespaces is not a map")
    namespaces = {}
    for name, rows in m["namespaces"].items():
        namespaces[name] = decode_namespace(name, rows, "namespaces")
    provider_keys = {}
    if "provider_keys" in m:  # step 9
        pk = m["provider_keys"]
        if not isinstance(pk, dict):
            bad("sync_bad_type", "provider_keys is not a map")
        if not pk:
            bad("sync_bad_value", "provider_keys is empty")
        for k, x in pk.items():
            if not isinstance(k, str) or not isinstance(x, str):
                bad("sync_bad_type", "provider_keys holds a non-text key or value")
        provider_keys = dict(pk)
    return {"namespaces": namespaces, "provider_keys": provider_keys}


# --- §7.3 the gate, §7.5 the blob, §7.6 the receiver --------------------------------------------

def is_same_account(own, sender):
    """R7.3-1."""
    return own is not None and len(own) == 32 and len(sender) == 32 and own == sender


def seal_blob(key, nonce, plaintext):
    """R7.5-1: AES-256-GCM, empty AAD, ciphertext || 16-byte tag."""
    return AESGCM(key).encrypt(nonce, plaintext, b"")


def offer_for(blob_id, key, nonce, blob):
    """R7.5-2."""
    return {"blob_id": blob_id, "key": key, "nonce": nonce, "sha256": hashlib.sha256(blob).digest(),
            "size_bytes": len(blob)}


def receive(offer_bytes, request_id, blob, own, sender, cap):
    """§7.6 steps 1–9 in table order; returns (result, reason, snapshot)."""
    if not is_same_account(own, sender):  # step 1
        return "dropped", "sync_not_same_account", None
    offer = decode_payload("sync_offer", offer_bytes)  # step 2: rejects with the decoder's code
    if offer["size_bytes"] > cap:  # step 3
        return "refused", "sync_blob_over_cap", None
    if len(blob) > cap:  # step 4
        return "refused", "sync_blob_over_cap", None
    if len(blob) != offer["size_bytes"]:  # step 5
        return "refused", "sync_size_mismatch", None
    if len(blob) < TAG_LENGTH:  # step 6
        return "refused", "sync_blob_too_short", None
    if hashlib.sha256(blob).digest() != offer["sha256"]:  # step 7, before any decryption
        return "refused", "sync_hash_mismatch", None
    try:  # step 8
        plaintext = AESGCM(offer["key"]).decrypt(offer["nonce"], blob, b"")
    except InvalidTag:
        return "refused", "sync_auth_failed", None
    try:  # step 9
        snapshot = decode_snapshot(plaintext)
    except Rejected:
        return "refused", "sync_payload_invalid", None
    return "accepted", None, snapshot


# --- §7.7 import --------------------------------------------------------------------------------

KEPT_EXCLUDED = {("settings", "versionVector"), ("settings", "tombstoned"), ("notebook", "bodyOffloaded"),
                 ("notebook", "offloadHolderPubkey"), ("notebook", "contentHash")}


def stripped(ns, row):
    """R7.7-3: per-device (excluded) fields left out, except the five kept ones."""
    excluded = {n for n, _, _, committed in SCHEMAS[ns][1] if not committed}
    return {n: x for n, x in row.items() if n not in excluded or (ns, n) in KEPT_EXCLUDED}


def import_snapshot(store, snap):
    """R7.7-1 … R7.7-4: insert-if-absent by sort key; calendar memory never; returns the count."""
    inserted = 0
    for ns in NAMESPACES:
        held = store["namespaces"].setdefault(ns, [])
        keys = {row_key(ns, r) for r in held}
        for row in snap["namespaces"].get(ns, []):
            if ns == "memory" and row.get("source") == "calendar":  # R7.7-2
                continue
            if row_key(ns, row) in keys:
                continue
            held.append(stripped(ns, row))
            keys.add(row_key(ns, row))
            inserted += 1
    for k, x in snap["provider_keys"].items():  # R7.7-4
        store["provider_keys"].setdefault(k, x)
    return inserted


# --- §7.8 re-sends and wake classes -------------------------------------------------------------

def due(t):
    """R7.8-2: every send k with 5000·k ≤ t."""
    return [k for k in range(SENDS) if RESEND_INTERVAL_MS * k <= t]


def wake_class(payload_type):
    """R7.8-5: sync_request alone is of class sync, compared byte for byte."""
    return "sync" if payload_type == "sync_request" else "silent"


# --- §7.9 ops -----------------------------------------------------------------------------------

def cbor_input(inp):
    return hexbytes(member(inp, "cbor"), "cbor")


def optional_hash(inp, name):
    """R7.9-4, R7.9-5: an optional account hash of any length; null is input_bad_type."""
    return hexbytes(inp[name], name) if name in inp else None


def op_receive(inp):
    """R7.9-6: every member read before step 1."""
    offer = hexbytes(member(inp, "offer"), "offer")
    request_id = hexbytes(member(inp, "request_id"), "request_id", 16)
    blob = hexbytes(member(inp, "blob"), "blob")
    own = optional_hash(inp, "own_user_id_hash")
    sender = hexbytes(member(inp, "sender_user_id_hash"), "sender_user_id_hash")
    cap = integer(inp["max_blob_bytes"], "max_blob_bytes", U64) if "max_blob_bytes" in inp else MAX_BLOB_BYTES
    result, reason, snapshot = receive(offer, request_id, blob, own, sender, cap)
    ack = None
    if result != "dropped":  # R7.6-10
        ack = encode_payload("sync_ack", {"request_id": request_id, "ok": result == "accepted"}).hex()
    return {"result": result, "reason": reason, "ack": ack,
            "snapshot": snapshot_json(snapshot) if snapshot is not None else None}


def op_handle_request(inp):
    """R7.3-2, R7.3-3: the gate before the payload is parsed."""
    request = hexbytes(member(inp, "request"), "request")
    own = optional_hash(inp, "own_user_id_hash")
    sender = hexbytes(member(inp, "sender_user_id_hash"), "sender_user_id_hash")
    if not is_same_account(own, sender):
        return {"result": "dropped", "reason": "sync_not_same_account", "request": None}
    fields = decode_payload("sync_request", request)
    return {"result": "accepted", "reason": None, "request": payload_json("sync_request", fields)}


def op_seal(inp):
    snap = read_snapshot(member(inp, "snapshot"))
    key = hexbytes(member(inp, "key"), "key", 32)
    nonce = hexbytes(member(inp, "nonce"), "nonce", 12)
    blob_id = hexbytes(member(inp, "blob_id"), "blob_id", 32)
    plaintext = encode_snapshot(snap)
    blob = seal_blob(key, nonce, plaintext)
    offer = offer_for(blob_id, key, nonce, blob)
    return {"plaintext": plaintext.hex(), "blob": blob.hex(), "offer": payload_json("sync_offer", offer),
            "offer_cbor": encode_payload("sync_offer", offer).hex()}


def op_import(inp):
    """R7.9-14: snapshots in order, each into the store the previous one left."""
    store = read_snapshot(member(inp, "store"), "store")
    snaps = [read_snapshot(s, "snapshots[%d]" % i) for i, s in enumerate(array(member(inp, "snapshots"), "snapshots"))]
    inserted = [import_snapshot(store, s) for s in snaps]
    return {"store": snapshot_json(store), "inserted": inserted}


def op_schedule(inp):
    """R7.8-2 … R7.8-4, R7.9-15."""
    t = integer(member(inp, "elapsed_ms"), "elapsed_ms", I64)
    if t < 0:
        raise Rejected("input_bad_value", "elapsed_ms below 0")
    sends = due(t)
    return {"sends": [{"index": k, "at_ms": RESEND_INTERVAL_MS * k, "wake": wake_class("sync_request")} for k in sends],
            "next_at_ms": RESEND_INTERVAL_MS * len(sends) if len(sends) < SENDS else None,
            "exhausted": t >= RESEND_INTERVAL_MS * SENDS}


def op_wake_class(inp):
    return {"wake": wake_class(text(member(inp, "payload_type"), "payload_type"))}


def op_relay_wake(inp):
    """R7.8-6, R7.9-17: a sync frame pushes only when none was pushed since the last reconnect."""
    pushed, pushes = False, []
    for i, e in enumerate(array(member(inp, "events"), "events")):
        if not is_text(e):
            raise Rejected("input_bad_type", "events[%d]: expected a string" % i)
        if e not in ("sync", "silent", "reconnect"):
            raise Rejected("input_bad_value", "events[%d]: %r is no event" % (i, e))
        if e == "sync" and not pushed:
            pushes.append(i)
            pushed = True
        elif e == "reconnect":
            pushed = False
    return {"pushes": pushes}


def _encoder(tag):
    return lambda inp: {"cbor": encode_payload(tag, read_payload_input(tag, inp)).hex()}


def _decoder(tag):
    return lambda inp: payload_json(tag, decode_payload(tag, cbor_input(inp)))


OPS = {"encode_request": _encoder("sync_request"), "encode_offer": _encoder("sync_offer"),
       "encode_ack": _encoder("sync_ack"), "decode_request": _decoder("sync_request"),
       "decode_offer": _decoder("sync_offer"), "decode_ack": _decoder("sync_ack"),
       "encode_snapshot": lambda inp: {"cbor": encode_snapshot(read_snapshot(inp, "input")).hex()},
       "decode_snapshot": lambda inp: snapshot_json(decode_snapshot(cbor_input(inp))),
       "seal": op_seal, "receive": op_receive, "handle_request": op_handle_request, "import": op_import,
       "schedule": op_schedule, "wake_class": op_wake_class, "relay_wake": op_relay_wake}

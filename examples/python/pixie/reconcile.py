"""Reconcile (SPEC §5): frames, bucketize (§5.2), the §5.3 decoder, respond (§5.4) and the
state_digest advertisement (§5.7).

A frame is held as a dict of Python values (bytes for byte strings, parsed rows for rows).
`frame_tree` gives the canonical tree of §5.3 (member order, sorted data keys), bytes still
bytes; the JSON writer hexes them, the CBOR writer keeps them as byte strings.
"""
from . import cbor, jsontext
from .errors import Rejected
from .jsontext import is_text
from .opinput import HEX_LOWER, U64, as_integer, boolean, hexbytes, json_int, member, text, utf8_key
from .state_digest import (SCHEMAS, decode_digest, divergent_namespaces, empty_root, fold,
                           key_bytes, key_length, leaf_of, namespace, read_rows, read_value, sorted_distinct,
                           is_dropped, explicit_leaves, generated_leaves)

MAX_BUCKETS = 256                                        # §5.3 frame_too_many_buckets
KINDS = ("reconcile_req", "reconcile_resp", "state_digest")
MAX_DEPTH = 32                                           # §5.3 step 1


class FrameError(Rejected):
    """A frame the §5.3 decoder refuses (the frame_* codes of §3)."""


# --- the canonical frame (§5.3 member order) ----------------------------------------------------

def sorted_object(o):
    """§5.3: an object whose keys are data has its keys in UTF-8 byte order."""
    return {k: o[k] for k in sorted(o, key=utf8_key)}


def vectors_tree(vectors):
    return {k: sorted_object(vv) for k, vv in sorted_object(vectors).items()}


def row_tree(ns, row):
    """ROW (§5.3): the row as §4 vector input, members in schema order, present fields only."""
    out = {}
    for name, kind, _, _ in SCHEMAS[ns][1]:
        if name in row:
            out[name] = [{"reactor": r, "emoji": e} for r, e in row[name]] if kind == "reaction_set" else row[name]
    return out


def bucket_tree(b):
    out = {"lo": b["lo"]}
    if b["hi"] is not None:
        out["hi"] = b["hi"]  # §5.3: no hi on the last bucket
    out["root"] = b["root"]
    out["count"] = b["count"]
    return out


def frame_tree(f):
    """The canonical frame of §5.3 / §5.7."""
    if f["kind"] == "state_digest":
        return {"kind": "state_digest", "digest": f["digest"]}
    ns = f["namespace"]
    out = {"kind": f["kind"], "namespace": ns}
    if f["kind"] == "reconcile_req":
        if ns != "settings":
            out["buckets"] = [bucket_tree(b) for b in f["buckets"]]
    elif ns == "settings":
        out["entries"] = sorted_object(f["entries"])
        out["vectors"] = vectors_tree(f["vectors"])
        out["tombstones"] = sorted(f["tombstones"], key=utf8_key)
    else:
        out["rows"] = [row_tree(ns, r) for r in sorted(f["rows"], key=lambda r: key_bytes(ns, r))]
        out["vectors"] = vectors_tree(f["vectors"])
        out["tombstones"] = sorted(f["tombstones"])
    return out


def hexify(v, big_as_text):
    """The JSON form of a tree: bytes as lowercase hex; with big_as_text, integers beyond 2^53
    as decimal strings (§2)."""
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, dict):
        return {k: hexify(x, big_as_text) for k, x in v.items()}
    if isinstance(v, list):
        return [hexify(x, big_as_text) for x in v]
    if big_as_text and isinstance(v, int) and not isinstance(v, bool):
        return json_int(v)
    return v


def frame_output(f):
    """FRAME as an op output (§5.6)."""
    return hexify(frame_tree(f), True)


def frame_json_text(f):
    """§5.3 wire form: compact JSON, canonical member order, R2-1 escaping."""
    return jsontext.dumps(hexify(frame_tree(f), False))


# --- §5.3 decoding, steps in SPEC's order -------------------------------------------------------

def frame_member(o, name, path):
    if name not in o:
        raise FrameError("frame_missing_field", "missing %s" % path)
    return o[name]


def frame_hex(v, path):
    """§5.3: hex in a frame is lowercase only; anything else is frame_bad_type."""
    if not is_text(v) or not HEX_LOWER.fullmatch(v):
        raise FrameError("frame_bad_type", "%s: expected lowercase hex" % path)
    return bytes.fromhex(v)


def frame_key(v, ns, path):
    """A tombstone or vectors key of a non-settings namespace: its key length (§5.3)."""
    b = frame_hex(v, path)
    if len(b) != key_length(ns):
        raise FrameError("frame_bad_key_length", "%s: %d bytes, not %d" % (path, len(b), key_length(ns)))
    return b


def frame_string(o, name, path):
    v = frame_member(o, name, path)
    if not is_text(v):
        raise FrameError("frame_bad_type", "%s: expected a string" % path)
    return v


def decode_bucket(v, i):
    """§5.3 step 5, one bucket: lo, hi, root, count, in that order."""
    p = "buckets[%d]" % i
    if not isinstance(v, dict):
        raise FrameError("frame_bad_type", "%s: a bucket is an object" % p)
    lo = frame_hex(frame_member(v, "lo", p + ".lo"), p + ".lo")
    hi = frame_hex(v["hi"], p + ".hi") if "hi" in v else None
    root = frame_hex(frame_member(v, "root", p + ".root"), p + ".root")
    if len(root) != 32:
        raise FrameError("frame_bad_root_length", "%s.root: 32 bytes, got %d" % (p, len(root)))
    count = as_integer(frame_member(v, "count", p + ".count"))
    if count is not None and count < 0:
        raise FrameError("frame_negative_count", "%s.count: %d is below zero" % (p, count))
    if count is None or count > U64[1]:
        raise FrameError("frame_bad_type", "%s.count: expected an integer 0 … 2^64-1" % p)
    return {"lo": lo, "hi": hi, "root": root, "count": count}


def check_tiling(buckets):
    """§5.3 step 5: half-open ranges (§5.1) covering every key exactly once."""
    def fail(why):
        raise FrameError("frame_not_tiling", why)
    if not buckets:
        fail("a request needs at least one bucket")
    if buckets[0]["lo"] != b"":
        fail("the first lo must be empty")
    for i, b in enumerate(buckets):
        last = i == len(buckets) - 1
        if last and b["hi"] is not None:
            fail("the last bucket must have no hi")
        if not last:
            if b["hi"] is None:
                fail("bucket %d must have a hi" % i)
            if b["hi"] != buckets[i + 1]["lo"]:
                fail("bucket %d's hi is not the next lo" % i)
        if b["hi"] is not None and not b["lo"] < b["hi"]:
            fail("bucket %d is empty: lo >= hi" % i)


def decode_buckets(o):
    """§5.3 step 5: an array, at most 256, each bucket, then the tiling."""
    buckets = frame_member(o, "buckets", "buckets")
    if not isinstance(buckets, list):
        raise FrameError("frame_bad_type", "buckets: expected an array")
    if len(buckets) > MAX_BUCKETS:
        raise FrameError("frame_too_many_buckets", "%d buckets, at most 256" % len(buckets))
    parsed = [decode_bucket(b, i) for i, b in enumerate(buckets)]
    check_tiling(parsed)
    return parsed


def by_key_bytes(o):
    """§5.3 step 7: data-keyed objects are checked in their keys' UTF-8 byte order."""
    return [(k, o[k]) for k in sorted(o, key=utf8_key)]


def decode_vectors(o, ns):
    """§5.3 step 6: optional; an object of objects of unsigned counters."""
    if "vectors" not in o:
        return {}
    v = o["vectors"]
    if not isinstance(v, dict):
        raise FrameError("frame_bad_type", "vectors: expected an object")
    out = {}
    for k, vv in by_key_bytes(v):
        if ns != "settings":
            frame_key(k, ns, "vectors." + k)
        if not isinstance(vv, dict):
            raise FrameError("frame_bad_type", "vectors.%s: expected an object" % k)
        counters = {}
        for d, n in by_key_bytes(vv):
            m = as_integer(n)
            if m is None or not 0 <= m <= U64[1]:
                raise FrameError("frame_bad_type", "vectors.%s.%s: expected an integer 0 … 2^64-1" % (k, d))
            counters[d] = m
        out[k] = counters
    return out


def decode_tombstones(o, ns):
    """§5.3 step 6: optional; strings (settings) or keys (others)."""
    if "tombstones" not in o:
        return []
    v = o["tombstones"]
    if not isinstance(v, list):
        raise FrameError("frame_bad_type", "tombstones: expected an array")
    if ns == "settings":
        for t in v:
            if not is_text(t):
                raise FrameError("frame_bad_type", "tombstones: expected an array of strings")
        return list(v)
    return [frame_key(t, ns, "tombstones[%d]" % i) for i, t in enumerate(v)]


def check_repeats(f, ns):
    """§5.3 step 6: a key shipped twice, or both live and deleted, is duplicate_key."""
    if ns == "settings":
        dead = f["tombstones"]
        if len(set(dead)) != len(dead) or set(dead) & set(f["entries"]):
            raise Rejected("duplicate_key", "a settings key repeated")
        return
    live = [key_bytes(ns, r) for r in f["rows"]]
    dead = f["tombstones"]
    if len(set(live)) != len(live) or len(set(dead)) != len(dead) or set(live) & set(dead):
        raise Rejected("duplicate_key", "a key repeated in a response")


def decode_response(o, ns):
    """§5.3 step 6: vectors, then entries or rows, then tombstones, then repeated keys."""
    f = {"vectors": decode_vectors(o, ns)}
    if ns == "settings":
        entries = frame_member(o, "entries", "entries")
        if not isinstance(entries, dict):
            raise FrameError("frame_bad_type", "entries: expected an object of strings")
        for k, s in by_key_bytes(entries):
            if not is_text(s):
                raise FrameError("frame_bad_type", "entries.%s: expected a string" % k)
        f["entries"] = dict(entries)
    else:
        rows = frame_member(o, "rows", "rows")
        if not isinstance(rows, list):
            raise FrameError("frame_bad_type", "rows: expected an array")
        f["rows"] = read_rows(rows, ns, "rows", lower_only=True)  # §4 codes, lowercase hex only
    f["tombstones"] = decode_tombstones(o, ns)
    check_repeats(f, ns)
    return f


def decode_frame_value(o):
    """§5.3 steps 2–7 and §5.7 on a parsed value; unknown members are ignored."""
    if not isinstance(o, dict):
        raise FrameError("frame_bad_type", "a frame is a JSON object")
    kind = frame_string(o, "kind", "kind")
    if kind not in KINDS:
        raise FrameError("frame_unknown_kind", "kind %s is not a frame this suite pins" % kind)
    if kind == "state_digest":
        digest = frame_hex(frame_member(o, "digest", "digest"), "digest")
        decode_digest(digest)
        return {"kind": kind, "digest": digest}
    ns = frame_string(o, "namespace", "namespace")
    if ns not in SCHEMAS:
        raise Rejected("unknown_namespace", "no namespace %s" % ns)
    f = {"kind": kind, "namespace": ns}
    if kind == "reconcile_req":
        if ns != "settings":  # a settings request needs nothing more
            f["buckets"] = decode_buckets(o)
    else:
        f.update(decode_response(o, ns))
    return f


def decode_frame_text(s):
    """§5.3 step 1: one strict JSON text (no duplicate names, no lone surrogates, no NaN,
    nesting at most 32); anything else is frame_invalid_json."""
    try:
        v = jsontext.parse(s, max_depth=MAX_DEPTH)
    except jsontext.JSONError as e:
        raise FrameError("frame_invalid_json", "not strict JSON: %s" % e)
    if jsontext.has_duplicate(v):
        raise FrameError("frame_invalid_json", "a member name appears twice")
    return decode_frame_value(v)


# --- §5.2 bucketize (requester) -----------------------------------------------------------------

def bucketize(ns, keyed):
    """§5.2: the request frame for sorted, distinct (key, leaf) pairs: runs of ⌈n/256⌉."""
    if ns == "settings":
        return {"kind": "reconcile_req", "namespace": ns}
    n = len(keyed)
    if n == 0:
        return {"kind": "reconcile_req", "namespace": ns,
                "buckets": [{"lo": b"", "hi": None, "root": empty_root(ns), "count": 0}]}
    g = 1 if n <= MAX_BUCKETS else -(-n // MAX_BUCKETS)
    runs = [keyed[j:j + g] for j in range(0, n, g)]
    buckets = []
    for j, run in enumerate(runs):
        buckets.append({"lo": b"" if j == 0 else run[0][0],
                        "hi": runs[j + 1][0][0] if j + 1 < len(runs) else None,
                        "root": fold([leaf for _, leaf in run]), "count": len(run)})
    return {"kind": "reconcile_req", "namespace": ns, "buckets": buckets}


# --- §5.4 respond (responder) -------------------------------------------------------------------

def replica_keys(v, ns, path):
    """replica.tombstones (§5.4): §2.2 hex keys of the namespace's key length."""
    if not isinstance(v, list):
        raise Rejected("input_bad_type", "%s: expected an array" % path)
    return [hexbytes(t, "%s[%d]" % (path, i), key_length(ns)) for i, t in enumerate(v)]


def replica_vectors(v, ns):
    """replica.vectors (§5.4): {KEYHEX: {DEVICE: N}}."""
    if not isinstance(v, dict):
        raise Rejected("input_bad_type", "replica.vectors: expected an object")
    out = []
    for k, vv in by_key_bytes(v):
        key = hexbytes(k, "replica.vectors." + k, key_length(ns))
        out.append((key, read_value(vv, "version_vector", "replica.vectors." + k)))
    return out


def in_range(key, b):
    """§5.1: half-open [lo, hi); no hi is unbounded."""
    return b["lo"] <= key and (b["hi"] is None or key < b["hi"])


def mismatched(ns, bucket, keyed):
    """§5.4: the responder's own leaves in the bucket's range, folded and counted."""
    leaves = [leaf for key, leaf in keyed if in_range(key, bucket)]
    root = fold(leaves) if leaves else empty_root(ns)
    return root != bucket["root"] or len(leaves) != bucket["count"]


def respond_settings(rows):
    """§5.4 settings: the whole dictionary, every key's vector, the tombstoned keys."""
    entries, dead, vv, seen = {}, [], {}, set()
    for row in rows:
        k = row["key"]
        if k in seen:
            raise Rejected("duplicate_key", "settings key %s appears twice" % k)
        seen.add(k)
        if is_dropped("settings", row):
            dead.append(k)
        else:
            entries[k] = row["value"]
        if "versionVector" in row:
            vv[k] = row["versionVector"]
    if not entries and not dead:
        return None
    return {"kind": "reconcile_resp", "namespace": "settings", "entries": entries, "vectors": vv, "tombstones": dead}


def respond_rows(ns, buckets, rows, tombstones, vectors):
    """§5.4: repeated keys, then leaves; every live row and tombstone in a mismatched bucket,
    with the version vectors of exactly those keys."""
    live = [key_bytes(ns, r) for r in rows]
    if len(set(live)) != len(live):
        raise Rejected("duplicate_key", "a row key appears twice")
    for i, t in enumerate(tombstones):
        if t in live or t in tombstones[:i]:
            raise Rejected("duplicate_key", "key %s repeated" % t.hex())
    vkeys = [k for k, _ in vectors]
    if len(set(vkeys)) != len(vkeys):
        raise Rejected("duplicate_key", "two vectors keys name the same bytes")
    keyed = [(key_bytes(ns, r), leaf_of(ns, r)[1]) for r in rows if not is_dropped(ns, r)]
    bad = [b for b in buckets if mismatched(ns, b, keyed)]

    def shipped(key):
        return any(in_range(key, b) for b in bad)
    out_rows = [r for r in rows if not is_dropped(ns, r) and shipped(key_bytes(ns, r))]
    out_dead = [t for t in tombstones if shipped(t)]
    if not out_rows and not out_dead:
        return None
    keys = {key_bytes(ns, r) for r in out_rows} | set(out_dead)
    return {"kind": "reconcile_resp", "namespace": ns, "rows": out_rows,
            "vectors": {k.hex(): v for k, v in vectors if k in keys}, "tombstones": out_dead}


# --- §5.6 / §5.7 ops ----------------------------------------------------------------------------

def leaf_list(inp):
    if "generate" in inp:
        return generated_leaves(inp["generate"])
    return explicit_leaves(member(inp, "leaves"))


def op_bucketize(inp):
    ns = namespace(member(inp, "namespace"))
    return {"request": frame_output(bucketize(ns, sorted_distinct(leaf_list(inp), ns)))}


def op_respond(inp):
    request = decode_frame_value(member(inp, "request"))  # the whole frame first, then its kind
    if request["kind"] != "reconcile_req":
        raise Rejected("input_bad_value", "respond answers a reconcile_req")
    ns = request["namespace"]
    replica = member(inp, "replica")
    rows = read_rows(member(replica, "rows", "replica"), ns, "replica.rows")
    if ns == "settings":  # tombstones and vectors are not read for settings
        response = respond_settings(rows)
    else:
        tombstones = replica_keys(replica["tombstones"], ns, "replica.tombstones") if "tombstones" in replica else []
        vectors = replica_vectors(replica["vectors"], ns) if "vectors" in replica else []
        response = respond_rows(ns, request["buckets"], rows, tombstones, vectors)
    return {"response": frame_output(response) if response is not None else None}


def op_encode_frame(inp):
    f = decode_frame_value(member(inp, "frame"))  # §5.6: decoded first, so a tolerated frame is completed
    return {"json": frame_json_text(f), "cbor": cbor.encode(frame_tree(f)).hex()}


def op_decode_frame(inp):
    return {"frame": frame_output(decode_frame_text(text(member(inp, "json"), "json")))}


def op_receive_digest(inp):
    """§5.7: pull every divergent namespace; on matching roots, return the digest exactly once
    if this device was reconciling with the sibling, else stay silent."""
    local_bytes = hexbytes(member(inp, "local"), "local")
    local = decode_digest(local_bytes)
    frame = decode_frame_value(member(inp, "frame"))
    if frame["kind"] != "state_digest":
        raise Rejected("input_bad_value", "receive_digest takes a state_digest frame")
    reconciling = boolean(member(inp, "reconciling"), "reconciling")
    pull = divergent_namespaces(local, decode_digest(frame["digest"]))
    if pull:
        return {"pull": pull, "reply": None, "reconciling": True}
    reply = frame_output({"kind": "state_digest", "digest": local_bytes}) if reconciling else None
    return {"pull": [], "reply": reply, "reconciling": False}


OPS = {"bucketize": op_bucketize, "respond": op_respond, "encode_frame": op_encode_frame,
       "decode_frame": op_decode_frame, "receive_digest": op_receive_digest}

#!/usr/bin/env python3
"""A second-language testee for the Pixie conformance runner (SPEC.md §6), Python 3 standard
library only. It implements every state_digest op (SPEC.md §4) from the spec and the vector file
alone, with its own deterministic CBOR writer, and speaks the runner protocol on stdin/stdout:

    swift run conformance run -- python3 examples/python/testee.py
"""
import hashlib
import json
import re
import sys


class Rejected(Exception):
    """An input the spec says to reject, with a code from the error vocabulary (SPEC.md §3)."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


# ---------------------------------------------------------------------------------------------
# JSON input: keep member order and duplicates (a row naming a field twice is rejected), and
# keep non-integer number literals apart (1.0 is not an integer).

class Obj(dict):
    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = pairs


class Fraction(str):
    """A JSON number with a fraction or exponent: never accepted where an integer is required."""


def parse_json(line):
    return json.loads(line, object_pairs_hook=Obj, parse_float=Fraction)


INT_TEXT = re.compile(r"^[+-]?[0-9]+$")


def integer(v, lo, hi):
    """An integer in [lo, hi], given as a JSON integer or a decimal string (integers beyond
    2^53 travel as strings); None otherwise."""
    if isinstance(v, bool) or isinstance(v, Fraction):
        return None
    if isinstance(v, int):
        n = v
    elif isinstance(v, str) and INT_TEXT.match(v):
        n = int(v)
    else:
        return None
    return n if lo <= n <= hi else None


U64 = (0, 2**64 - 1)
I64 = (-(2**63), 2**63 - 1)


def member(obj, name, path=""):
    if not isinstance(obj, dict):
        raise Rejected("input_bad_type", "expected an object at %s" % (path or "input"))
    if name not in obj:
        raise Rejected("input_missing_field", "missing %s" % (path + "." + name if path else name))
    return obj[name]


def hexbytes(v, path):
    if not isinstance(v, str) or isinstance(v, Fraction):
        raise Rejected("input_bad_type", "%s: expected lowercase hex" % path)
    try:
        if len(v) % 2:
            raise ValueError
        return bytes.fromhex(v) if re.fullmatch(r"[0-9a-fA-F]*", v) else bytes.fromhex("x")
    except ValueError:
        raise Rejected("input_bad_value", "%s: not valid hex" % path)


def text(v, path):
    if not isinstance(v, str) or isinstance(v, Fraction):
        raise Rejected("input_bad_type", "%s: expected a string" % path)
    return v


def digest32(v, path):
    b = hexbytes(v, path)
    if len(b) != 32:
        raise Rejected("input_bad_length", "%s: expected 32 bytes, got %d" % (path, len(b)))
    return b


# ---------------------------------------------------------------------------------------------
# Deterministic CBOR (RFC 8949 §4.2.1): shortest heads, definite lengths, map keys sorted by
# their encoded bytes.

def head(major, n):
    if n < 24:
        return bytes([major << 5 | n])
    for ai, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size):
            return bytes([major << 5 | ai]) + n.to_bytes(size, "big")
    raise ValueError("integer too large for CBOR")


def cbor(v):
    if v is True:
        return b"\xf5"
    if v is False:
        return b"\xf4"
    if isinstance(v, int):
        return head(0, v) if v >= 0 else head(1, -1 - v)
    if isinstance(v, (bytes, bytearray)):
        return head(2, len(v)) + bytes(v)
    if isinstance(v, str):
        b = v.encode("utf-8")
        return head(3, len(b)) + b
    if isinstance(v, list):
        return head(4, len(v)) + b"".join(cbor(x) for x in v)
    if isinstance(v, dict):
        items = sorted((cbor(k), cbor(x)) for k, x in v.items())
        return head(5, len(items)) + b"".join(k + x for k, x in items)
    raise TypeError(type(v))


def sha256(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


# ---------------------------------------------------------------------------------------------
# StateDigest v6 (SPEC.md §4): schemas, leaves, roots, the 417-byte digest.

NAMESPACES = ["settings", "messages", "memory", "notebook", "saga", "contacts", "plans", "peerDevices",
              "fileIndex", "ktIdentityLedger", "blocks", "posts", "agentConversations"]

ID16, H32 = ("bytes", 16), ("bytes", 32)


def c(name, kind, optional=False):
    return (name, kind, optional, True)


def x(name, kind, optional=True):
    return (name, kind, optional, False)


LOCAL_ROW_ID = x("localRowID", "int")

# namespace → (key field, fields in order: (name, kind, optional, committed))
SCHEMAS = {
    "settings": ("key", [c("key", "text"), c("value", "text"), x("versionVector", "version_vector"), x("tombstoned", "bool")]),
    "messages": ("messageID", [c("messageID", ID16), c("conversationID", ID16), c("peerUserIDHash", "normalized_hash"),
                               c("isOutgoing", "bool"), c("senderName", "text", True), c("body", "text"),
                               c("mediaJSON", "text", True), c("replyToID", ID16, True), c("sentAt", "date"),
                               c("editedAt", "date", True), x("observedAt", "date"), x("peerPubkey", ("bytes", None)),
                               LOCAL_ROW_ID, x("outboxState", "text")]),
    "memory": ("eventID", [c("eventID", ID16), c("kind", "text"), c("summary", "text"), c("occurredAt", "date"),
                           c("source", "text"), LOCAL_ROW_ID]),
    "notebook": ("noteID", [c("noteID", ID16), c("title", "text"), c("tags", "text_set"), c("body", "note_body"),
                            c("createdAt", "date"), c("updatedAt", "date"), x("bodyOffloaded", "bool"),
                            x("offloadHolderPubkey", ("bytes", None)), x("contentHash", H32), LOCAL_ROW_ID]),
    "saga": ("sagaID", [c("sagaID", ID16), c("title", "text"), c("chapter", "uint"), c("status", "text"),
                        c("summary", "text", True), c("updatedAt", "date"), LOCAL_ROW_ID]),
    "contacts": ("userIDHash", [c("userIDHash", H32), c("displayName", "text"), c("handle", "text", True),
                                c("verified", "bool"), c("blocked", "bool"), c("addedAt", "date"),
                                x("systemContactIdentifier", "text"), x("mlsCursor", "uint"), LOCAL_ROW_ID]),
    "plans": ("planID", [c("planID", ID16), c("title", "text"), c("stepsJSON", "text"), c("status", "text"),
                         c("priority", "int"), c("dueAt", "date", True), c("updatedAt", "date"), LOCAL_ROW_ID]),
    "peerDevices": ("deviceID", [c("deviceID", H32), c("name", "text"), c("family", "text"), c("addedAt", "date"),
                                 c("revoked", "bool"), x("lastSeenAt", "date"), x("mlsEpochCursor", "uint")]),
    "fileIndex": ("fileID", [c("fileID", ID16), c("path", "text"), c("sha256", H32), c("sizeBytes", "uint"),
                             c("modifiedAt", "date"), x("localCachePath", "text"), LOCAL_ROW_ID]),
    "ktIdentityLedger": ("entryHash", [c("entryHash", H32), c("userIDHash", H32), c("epoch", "uint"),
                                       c("publicKeyHash", H32), c("loggedAt", "date"), x("verifiedAt", "date")]),
    "blocks": ("blockedUserIDHash", [c("blockedUserIDHash", H32), c("reason", "text", True), c("blockedAt", "date"),
                                     LOCAL_ROW_ID]),
    "posts": ("postID", [c("postID", ID16), c("authorUserIDHash", H32), c("body", "text"), c("tags", "text_set"),
                         c("visibility", "text"), c("publishedAt", "date"), c("editedAt", "date", True),
                         x("observedAt", "date"), LOCAL_ROW_ID]),
    "agentConversations": ("conversationID", [c("conversationID", ID16), c("title", "text"), c("model", "text"),
                                              c("turnCount", "uint"), c("archived", "bool"), c("updatedAt", "date"),
                                              x("draftText", "text"), LOCAL_ROW_ID]),
}


def namespace(v, path="namespace"):
    s = text(v, path)
    if s not in SCHEMAS:
        raise Rejected("unknown_namespace", "no namespace %s" % s)
    return s


def parse_value(v, kind, path):
    if isinstance(kind, tuple):
        b = hexbytes(v, path)
        if kind[1] is not None and len(b) != kind[1]:
            raise Rejected("input_bad_length", "%s: expected %d bytes, got %d" % (path, kind[1], len(b)))
        return b
    if kind == "normalized_hash":
        b = hexbytes(v, path)
        if len(b) not in (0, 32):
            raise Rejected("input_bad_length", "%s: a user-id hash is 32 bytes or empty" % path)
        return b
    if kind in ("text", "note_body"):
        return text(v, path)
    if kind in ("uint", "int", "date"):
        n = integer(v, *(U64 if kind == "uint" else I64))
        if n is None:
            raise Rejected("input_bad_type", "%s: expected an integer (%s)" % (path, kind))
        return n
    if kind == "bool":
        if not isinstance(v, bool):
            raise Rejected("input_bad_type", "%s: expected true or false" % path)
        return v
    if kind == "text_set":
        if not isinstance(v, list):
            raise Rejected("input_bad_type", "%s: expected an array of strings" % path)
        return [text(s, "%s[%d]" % (path, i)) for i, s in enumerate(v)]
    if kind == "version_vector":
        if not isinstance(v, dict):
            raise Rejected("input_bad_type", "%s: expected an object of counters" % path)
        out = {}
        for k, n in v.pairs:
            m = integer(n, *U64)
            if m is None:
                raise Rejected("input_bad_type", "%s.%s: expected an unsigned counter" % (path, k))
            out[k] = m
        return out
    raise AssertionError(kind)


def parse_row(v, ns, path="row"):
    """A row as {field: value} with only the fields given."""
    if not isinstance(v, dict):
        raise Rejected("input_bad_type", "%s: a row must be an object" % path)
    fields = {f[0]: f for f in SCHEMAS[ns][1]}
    row = {}
    for name, value in v.pairs:
        if name not in fields:
            raise Rejected("input_unknown_field", "%s rows have no field %s" % (ns, name))
        if name in row:
            raise Rejected("input_bad_value", "field %s given twice" % name)
        row[name] = parse_value(value, fields[name][1], "%s.%s" % (path, name))
    for name, kind, optional, _ in SCHEMAS[ns][1]:
        if name not in row and not optional and kind != "normalized_hash":
            raise Rejected("input_missing_field", "%s rows need %s" % (ns, name))
    return row


def is_dropped(ns, row):
    if ns == "memory":
        return row.get("source") == "calendar"
    if ns == "settings":
        return row.get("tombstoned") is True
    return False


def note_body_digest(body):
    return sha256(b"pixie.notebook.body\x00", body.encode("utf-8"))


def note_contribution(row):
    """Content, never residency: an offloaded body contributes its stamped contentHash."""
    if row.get("bodyOffloaded") is True:
        h = row.get("contentHash")
        if h is None or len(h) != 32:
            raise Rejected("notebook_offloaded_without_hash", "an offloaded note must carry its 32-byte contentHash")
        return h
    return note_body_digest(row.get("body", ""))


def committed_value(kind, value, row):
    if kind == "date":
        return value // 1000  # whole seconds, rounded toward negative infinity
    if kind == "text_set":
        return sorted(set(value), key=lambda s: s.encode("utf-8"))
    if kind == "note_body":
        return note_contribution(row)
    return value


def preimage(ns, row):
    items = []
    for name, kind, optional, committed in SCHEMAS[ns][1]:
        if not committed:
            continue
        if optional:
            if name not in row:
                items.append(0)
                continue
            items.append(1)
        if name in row:
            items.append(committed_value(kind, row[name], row))
        elif kind == "normalized_hash":
            items.append(b"")
        else:
            raise Rejected("input_missing_field", "%s rows need %s" % (ns, name))
    return cbor(items)


def leaf_of(ns, row):
    pre = preimage(ns, row)
    return pre, sha256(("pixie.state.%s" % ns).encode(), b"\x00", pre)


def key_bytes(ns, row):
    k = row.get(SCHEMAS[ns][0])
    return k.encode("utf-8") if isinstance(k, str) else (k or b"")


def empty_root(ns):
    return sha256(b"pixie.state.empty\x00", ns.encode())


def fold(leaves):
    """Pairwise, level by level; an odd last node is promoted unchanged."""
    level = list(leaves)
    while len(level) > 1:
        nxt = [sha256(b"pixie.state.node\x00", level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def merkle_root(ns, keyed):
    keyed = sorted(keyed, key=lambda kl: kl[0])
    for a, b in zip(keyed, keyed[1:]):
        if a[0] == b[0]:
            raise Rejected("duplicate_key", "key %s appears twice in %s" % (a[0].hex(), ns))
    return fold([leaf for _, leaf in keyed]) if keyed else empty_root(ns)


def settings_root(rows):
    live, seen = {}, set()
    for row in rows:
        k = row["key"]
        if k in seen:
            raise Rejected("duplicate_key", "settings key %s appears twice" % k)
        seen.add(k)
        if not is_dropped("settings", row):
            live[k] = row["value"]
    return sha256(b"pixie.state.settings\x00", cbor(live)), len(live)


def ns_root(ns, rows):
    if ns == "settings":
        return settings_root(rows)
    keyed = [(key_bytes(ns, r), leaf_of(ns, r)[1]) for r in rows if not is_dropped(ns, r)]
    return merkle_root(ns, keyed), len(keyed)


def parse_rows(v, ns, path):
    if not isinstance(v, list):
        raise Rejected("input_bad_type", "%s: expected an array of rows" % path)
    return [parse_row(r, ns, "%s[%d]" % (path, i)) for i, r in enumerate(v)]


def encode_digest(roots):
    return bytes([6]) + b"".join(roots)


def decode_digest(b):
    if len(b) != 417:
        raise Rejected("digest_wrong_length", "a StateDigest is 417 bytes, got %d" % len(b))
    if b[0] != 6:
        raise Rejected("digest_unsupported_version", "version %d is not 6" % b[0])
    return [b[1 + 32 * i:33 + 32 * i] for i in range(13)]


def roots_json(roots):
    return {ns: r.hex() for ns, r in zip(NAMESPACES, roots)}


def json_int(n):
    return n if -(2**53) <= n <= 2**53 else str(n)


def row_json(ns, row):
    out = {}
    for name, kind, _, _ in SCHEMAS[ns][1]:
        if name not in row:
            continue
        v = row[name]
        if isinstance(v, (bytes, bytearray)):
            v = v.hex()
        elif isinstance(v, bool) or isinstance(v, str) or isinstance(v, list):
            pass
        elif isinstance(v, int):
            v = json_int(v)
        elif isinstance(v, dict):
            v = {k: json_int(n) for k, n in sorted(v.items())}
        out[name] = v
    return out


# ---------------------------------------------------------------------------------------------
# The ops (SPEC.md §4.9).

def op_leaf(inp):
    ns = namespace(member(inp, "namespace"))
    if ns == "settings":
        raise Rejected("input_bad_value", "settings has no per-row leaves; use op root")
    row = parse_row(member(inp, "row"), ns)
    if is_dropped(ns, row):
        return {"dropped": True}
    pre, leaf = leaf_of(ns, row)
    return {"preimage": pre.hex(), "leaf": leaf.hex()}


def op_root(inp):
    ns = namespace(member(inp, "namespace"))
    root, count = ns_root(ns, parse_rows(member(inp, "rows"), ns, "rows"))
    return {"root": root.hex(), "count": count}


def op_fold(inp):
    ns = namespace(member(inp, "namespace"))
    if "generate" in inp:
        gen = inp["generate"]
        rule = text(member(gen, "rule", "generate"), "generate.rule")
        if rule != "index":
            raise Rejected("input_bad_value", "unknown generator rule %s" % rule)
        n = integer(member(gen, "count", "generate"), *I64)
        if n is None or not 0 <= n <= 1 << 20:
            raise Rejected("input_bad_value", "count must be 0...1048576")
        keyed = []
        for i in range(n):
            key = i.to_bytes(4, "big")
            keyed.append((key, sha256(b"pixie.vectors.leaf\x00", key)))
    else:
        items = member(inp, "leaves")
        if not isinstance(items, list):
            raise Rejected("input_bad_type", "expected an array of {key, leaf}")
        keyed = []
        for i, item in enumerate(items):
            p = "leaves[%d]" % i
            key = hexbytes(member(item, "key", p), p + ".key")
            keyed.append((key, digest32(member(item, "leaf", p), p + ".leaf")))
    return {"root": merkle_root(ns, keyed).hex(), "count": len(keyed)}


def op_digest(inp):
    nss = member(inp, "namespaces")
    if not isinstance(nss, dict):
        raise Rejected("input_bad_type", "expected an object of namespaces")
    store = {}
    for name, rows in nss.pairs:
        if name not in SCHEMAS:
            raise Rejected("unknown_namespace", "no namespace %s" % name)
        store[name] = parse_rows(rows, name, "namespaces." + name)
    roots = [ns_root(ns, store.get(ns, []))[0] for ns in NAMESPACES]
    return {"encoded": encode_digest(roots).hex(), "roots": roots_json(roots)}


def op_digest_encode(inp):
    roots = member(inp, "roots")
    if not isinstance(roots, dict):
        raise Rejected("input_bad_type", "expected an object of roots")
    return {"encoded": encode_digest([digest32(member(roots, ns, "roots"), "roots." + ns) for ns in NAMESPACES]).hex()}


def op_digest_decode(inp):
    roots = decode_digest(hexbytes(member(inp, "encoded"), "encoded"))
    return {"version": 6, "roots": roots_json(roots)}


def op_divergence(inp):
    a = decode_digest(hexbytes(member(inp, "a"), "a"))
    b = decode_digest(hexbytes(member(inp, "b"), "b"))
    return {"namespaces": [ns for ns, x, y in zip(NAMESPACES, a, b) if x != y]}


def op_mark_offloaded(inp):
    row = parse_row(member(inp, "row"), "notebook")
    content_hash = hexbytes(member(inp, "contentHash"), "contentHash")
    holder = hexbytes(inp["holder"], "holder") if "holder" in inp else None
    before = leaf_of("notebook", row)[1]
    if row.get("bodyOffloaded") is True:
        raise Rejected("input_bad_value", "the note is already offloaded")
    if len(content_hash) != 32:
        raise Rejected("input_bad_length", "contentHash must be 32 bytes, got %d" % len(content_hash))
    if "body" not in row or note_body_digest(row["body"]) != content_hash:
        raise Rejected("notebook_offload_hash_mismatch", "contentHash does not equal noteBodyDigest(body)")
    after = dict(row)
    after["contentHash"] = content_hash
    after["bodyOffloaded"] = True
    after.pop("offloadHolderPubkey", None)
    if holder is not None:
        after["offloadHolderPubkey"] = holder
    after["body"] = ""
    return {"row": row_json("notebook", after), "leaf_before": before.hex(), "leaf_after": leaf_of("notebook", after)[1].hex()}


OPS = {"state_digest": {"leaf": op_leaf, "root": op_root, "fold": op_fold, "digest": op_digest,
                        "digest_encode": op_digest_encode, "digest_decode": op_digest_decode,
                        "divergence": op_divergence, "mark_offloaded": op_mark_offloaded}}


# ---------------------------------------------------------------------------------------------
# The runner protocol (SPEC.md §6): JSON lines; one result per case; flush after every line.

def send(msg):
    sys.stdout.write(json.dumps(msg, separators=(",", ":"), ensure_ascii=False) + "\n")
    sys.stdout.flush()


def answer(msg):
    cid = msg.get("id")
    ops = OPS.get(msg.get("format"))
    if ops is None:
        return {"type": "result", "id": cid, "status": "unsupported", "message": "no format %s" % msg.get("format")}
    fn = ops.get(msg.get("op"))
    if fn is None:
        return {"type": "result", "id": cid, "status": "rejected", "error": "unknown_op", "message": "no op %s" % msg.get("op")}
    try:
        return {"type": "result", "id": cid, "status": "ok", "output": fn(msg.get("input"))}
    except Rejected as e:
        return {"type": "result", "id": cid, "status": "rejected", "error": e.code, "message": str(e)}
    except Exception as e:  # a bug here is an internal error, not an answer
        return {"type": "result", "id": cid, "status": "error", "message": "%s: %s" % (type(e).__name__, e)}


def main():
    for line in sys.stdin:
        try:
            msg = parse_json(line)
        except ValueError as e:
            print("testee.py: ignoring a line that is not JSON: %s" % e, file=sys.stderr)
            continue
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "hello":
            send({"type": "hello", "protocol_version": 1, "name": "pixie-python-example", "version": "0.1.0",
                  "language": "python", "capabilities": {f: list(ops) for f, ops in OPS.items()}})
        elif kind == "case":
            send(answer(msg))
        elif kind == "shutdown":
            break
        else:
            print("testee.py: ignoring a message of type %r" % kind, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

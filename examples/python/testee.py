#!/usr/bin/env python3
"""A second-language testee for the Pixie conformance runner (SPEC.md §6), Python 3 standard
library only. It implements every state_digest op (SPEC.md §4) and every reconcile op (SPEC.md §5)
from the spec alone, with its own deterministic CBOR writer and its own JSON text writer for
frames (Python's json.dumps escapes \\b and \\f, which §2 forbids), and speaks the runner protocol
on stdin/stdout:

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
# JSON input: keep member order and duplicates (a frame naming a member twice is rejected), and
# keep non-integer number literals apart (1.0 is not an integer, §2.2).

class Obj(dict):
    def __init__(self, pairs):
        super().__init__(pairs)
        self.pairs = pairs


class Fraction(str):
    """A JSON number with a fraction or exponent: never accepted where an integer is required."""


def parse_json(line):
    return json.loads(line, object_pairs_hook=Obj, parse_float=Fraction)


CANONICAL_INT = re.compile(r"0|-?[1-9][0-9]*")


def is_str(v):
    return isinstance(v, str) and not isinstance(v, Fraction)


def integer(v, lo, hi):
    """§2.2: an integer JSON number (no fraction, no exponent) or a canonical decimal string, in
    [lo, hi]; None otherwise."""
    if isinstance(v, bool) or isinstance(v, Fraction):
        return None
    if isinstance(v, int):
        n = v
    elif isinstance(v, str) and CANONICAL_INT.fullmatch(v):
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


HEX_ANY = re.compile(r"(?:[0-9a-fA-F]{2})*")
HEX_LOWER = re.compile(r"(?:[0-9a-f]{2})*")


def hexbytes(v, path, lower_only=False):
    """§2.2 hex: not a string input_bad_type; odd length or a non-hex character input_bad_value.
    Inside a frame (lower_only), an uppercase digit counts as non-hex (§5.3 step 6)."""
    if not is_str(v):
        raise Rejected("input_bad_type", "%s: expected hex" % path)
    if not (HEX_LOWER if lower_only else HEX_ANY).fullmatch(v):
        raise Rejected("input_bad_value", "%s: not valid hex" % path)
    return bytes.fromhex(v)


def sized(b, n, path):
    if len(b) != n:
        raise Rejected("input_bad_length", "%s: expected %d bytes, got %d" % (path, n, len(b)))
    return b


def text(v, path):
    if not is_str(v):
        raise Rejected("input_bad_type", "%s: expected a string" % path)
    return v


def boolean(v, path):
    if not isinstance(v, bool):
        raise Rejected("input_bad_type", "%s: expected true or false" % path)
    return v


def digest32(v, path):
    return sized(hexbytes(v, path), 32, path)


def utf8_key(s):
    """Text sorts by its UTF-8 bytes (§2.2 rule 5). Python orders str by code point, which is the
    same order; UTF-16 would not be."""
    return s.encode("utf-8")


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
    if isinstance(v, (list, tuple)):
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
ABSENT_IS_EMPTY = ("normalized_hash", "reaction_set")  # §4.3: the third presence kind


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
                               c("mediaJSON", "text", True), c("reactions", "reaction_set"), c("replyToID", ID16, True),
                               c("sentAt", "date"), c("editedAt", "date", True), x("observedAt", "date"),
                               x("peerPubkey", ("bytes", None)), LOCAL_ROW_ID, x("outboxState", "text")]),
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


def key_length(ns):
    """§4.4: every non-settings key is a fixed-size byte string (16 or 32 bytes)."""
    kind = dict((f[0], f[1]) for f in SCHEMAS[ns][1])[SCHEMAS[ns][0]]
    return kind[1] if isinstance(kind, tuple) else None


def namespace(v, path="namespace"):
    s = text(v, path)
    if s not in SCHEMAS:
        raise Rejected("unknown_namespace", "no namespace %s" % s)
    return s


def parse_reaction(v, path, lower_only):
    """§4.2: a reaction object; unknown members first, then reactor, then emoji."""
    if not isinstance(v, dict):
        raise Rejected("input_bad_type", "%s: a reaction is an object" % path)
    for name in v:
        if name not in ("reactor", "emoji"):
            raise Rejected("input_unknown_field", "%s: a reaction has no member %s" % (path, name))
    reactor = sized(hexbytes(member(v, "reactor", path), path + ".reactor", lower_only), 32, path + ".reactor")
    return reactor, text(member(v, "emoji", path), path + ".emoji")


def parse_value(v, kind, path, lower_only=False):
    if isinstance(kind, tuple):
        b = hexbytes(v, path, lower_only)
        return sized(b, kind[1], path) if kind[1] is not None else b
    if kind == "normalized_hash":
        b = hexbytes(v, path, lower_only)
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
        return boolean(v, path)
    if kind == "text_set":
        if not isinstance(v, list):
            raise Rejected("input_bad_type", "%s: expected an array of strings" % path)
        return [text(s, "%s[%d]" % (path, i)) for i, s in enumerate(v)]
    if kind == "reaction_set":
        if not isinstance(v, list):
            raise Rejected("input_bad_type", "%s: expected an array of reactions" % path)
        return [parse_reaction(r, "%s[%d]" % (path, i), lower_only) for i, r in enumerate(v)]
    if kind == "version_vector":
        if not isinstance(v, dict):
            raise Rejected("input_bad_type", "%s: expected an object of counters" % path)
        out = {}
        for k in sorted(v, key=utf8_key):
            m = integer(v[k], *U64)
            if m is None:
                raise Rejected("input_bad_type", "%s.%s: expected an unsigned counter" % (path, k))
            out[k] = m
        return out
    raise AssertionError(kind)


def parse_row(v, ns, path="row", lower_only=False):
    """§4.3: not an object; then any unknown member (before any value is read); then the schema's
    fields in table order, each completely. Member order never matters."""
    if not isinstance(v, dict):
        raise Rejected("input_bad_type", "%s: a row must be an object" % path)
    fields = SCHEMAS[ns][1]
    names = {f[0] for f in fields}
    for name in v:
        if name not in names:
            raise Rejected("input_unknown_field", "%s rows have no field %s" % (ns, name))
    row = {}
    for name, kind, optional, _ in fields:
        if name not in v:
            if not optional and kind not in ABSENT_IS_EMPTY:
                raise Rejected("input_missing_field", "%s rows need %s" % (ns, name))
            continue
        row[name] = parse_value(v[name], kind, "%s.%s" % (path, name), lower_only)
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
        if h is None:
            raise Rejected("notebook_offloaded_without_hash", "an offloaded note must carry its contentHash")
        return h
    return note_body_digest(row.get("body", ""))


def committed_value(kind, value, row):
    if kind == "date":
        return value // 1000  # whole seconds, rounded toward negative infinity, in integers
    if kind == "text_set":
        return sorted(set(value), key=utf8_key)
    if kind == "reaction_set":
        return [[r, e] for r, e in sorted(set(value), key=lambda re_: (re_[0], utf8_key(re_[1])))]
    if kind == "note_body":
        return note_contribution(row)
    return value


EMPTY = {"normalized_hash": b"", "reaction_set": []}


def preimage(ns, row):
    items = []
    for name, kind, optional, committed in SCHEMAS[ns][1]:
        if not committed:
            continue
        if kind in ABSENT_IS_EMPTY:
            items.append(committed_value(kind, row[name], row) if name in row else EMPTY[kind])
            continue
        if optional:
            if name not in row:
                items.append(0)
                continue
            items.append(1)
        items.append(committed_value(kind, row[name], row))
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
        if k in seen:  # Python str equality is by code point: NFC and NFD are two keys
            raise Rejected("duplicate_key", "settings key %s appears twice" % k)
        seen.add(k)
        if not is_dropped("settings", row):
            live[k] = row["value"]
    return sha256(b"pixie.state.settings\x00", cbor(live)), len(live)


def ns_root(ns, rows):
    """§4.7: rows already read; then repeated keys (dropped rows included); then leaves."""
    if ns == "settings":
        return settings_root(rows)
    keys = [key_bytes(ns, r) for r in rows]
    if len(set(keys)) != len(keys):
        raise Rejected("duplicate_key", "a key appears twice in %s" % ns)
    keyed = [(key_bytes(ns, r), leaf_of(ns, r)[1]) for r in rows if not is_dropped(ns, r)]
    return merkle_root(ns, keyed), len(keyed)


def parse_rows(v, ns, path, lower_only=False):
    if not isinstance(v, list):
        raise Rejected("input_bad_type", "%s: expected an array of rows" % path)
    return [parse_row(r, ns, "%s[%d]" % (path, i), lower_only) for i, r in enumerate(v)]


def encode_digest(roots):
    return bytes([6]) + b"".join(roots)


def decode_digest(b):
    """§4.8: the version byte first (version skew whatever the length), then the length."""
    if len(b) == 0:
        raise Rejected("digest_wrong_length", "no version byte")
    if b[0] != 6:
        raise Rejected("digest_unsupported_version", "version %d is not 6" % b[0])
    if len(b) != 417:
        raise Rejected("digest_wrong_length", "a StateDigest is 417 bytes, got %d" % len(b))
    return [b[1 + 32 * i:33 + 32 * i] for i in range(13)]


def roots_json(roots):
    return {ns: r.hex() for ns, r in zip(NAMESPACES, roots)}


def json_int(n):
    return n if -(2**53) <= n <= 2**53 else str(n)


def row_json(ns, row):
    """A row as vector data (§4.9): present fields in schema order, values as held."""
    out = {}
    for name, kind, _, _ in SCHEMAS[ns][1]:
        if name not in row:
            continue
        v = row[name]
        if kind == "reaction_set":
            v = [{"reactor": r.hex(), "emoji": e} for r, e in v]
        elif isinstance(v, (bytes, bytearray)):
            v = v.hex()
        elif isinstance(v, bool) or isinstance(v, str) or isinstance(v, list):
            pass
        elif isinstance(v, int):
            v = json_int(v)
        elif isinstance(v, dict):
            v = {k: json_int(n) for k, n in sorted(v.items(), key=lambda kv: utf8_key(kv[0]))}
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


def generated_leaves(gen):
    """Generator rule `index` (§4.9): rule first, then count (an unsigned integer, at most 2^16)."""
    rule = text(member(gen, "rule", "generate"), "generate.rule")
    if rule != "index":
        raise Rejected("input_bad_value", "unknown generator rule %s" % rule)
    n = integer(member(gen, "count", "generate"), *U64)
    if n is None:
        raise Rejected("input_bad_type", "count must be an unsigned integer")
    if n > 1 << 16:
        raise Rejected("input_bad_value", "count must be at most 65536")
    keys = [i.to_bytes(4, "big") for i in range(n)]
    return [(key, sha256(b"pixie.vectors.leaf\x00", key)) for key in keys]


def explicit_leaves(items):
    """[{key: hex, leaf: hex(32)}…] as (key, leaf) pairs, in the order given."""
    if not isinstance(items, list):
        raise Rejected("input_bad_type", "expected an array of {key, leaf}")
    keyed = []
    for i, item in enumerate(items):
        p = "leaves[%d]" % i
        key = hexbytes(member(item, "key", p), p + ".key")
        keyed.append((key, digest32(member(item, "leaf", p), p + ".leaf")))
    return keyed


def leaf_list(inp):
    """`generate` if present (then `leaves` is never read), else `leaves`."""
    if "generate" in inp:
        return generated_leaves(inp["generate"])
    return explicit_leaves(member(inp, "leaves"))


def op_fold(inp):
    ns = namespace(member(inp, "namespace"))
    if ns == "settings":
        raise Rejected("input_bad_value", "settings has no leaves to fold")
    keyed = leaf_list(inp)
    return {"root": merkle_root(ns, keyed).hex(), "count": len(keyed)}


def namespace_members(obj, path):
    """§4.9: every member name checked first, then the values in §4.1 order."""
    if not isinstance(obj, dict):
        raise Rejected("input_bad_type", "%s: expected an object" % path)
    for name in obj:
        if name not in SCHEMAS:
            raise Rejected("unknown_namespace", "no namespace %s" % name)
    return [(ns, obj[ns]) for ns in NAMESPACES if ns in obj]


def op_digest(inp):
    roots = {}
    for ns, rows in namespace_members(member(inp, "namespaces"), "namespaces"):
        roots[ns] = ns_root(ns, parse_rows(rows, ns, "namespaces." + ns))[0]
    all_roots = [roots[ns] if ns in roots else ns_root(ns, [])[0] for ns in NAMESPACES]
    return {"encoded": encode_digest(all_roots).hex(), "roots": roots_json(all_roots)}


def op_digest_encode(inp):
    roots = member(inp, "roots")
    namespace_members(roots, "roots")
    return {"encoded": encode_digest([digest32(member(roots, ns, "roots"), "roots." + ns) for ns in NAMESPACES]).hex()}


def op_digest_decode(inp):
    roots = decode_digest(hexbytes(member(inp, "encoded"), "encoded"))
    return {"version": 6, "roots": roots_json(roots)}


def op_divergence(inp):
    a = decode_digest(hexbytes(member(inp, "a"), "a"))
    b = decode_digest(hexbytes(member(inp, "b"), "b"))
    return {"namespaces": [ns for ns, x, y in zip(NAMESPACES, a, b) if x != y]}


def op_mark_offloaded(inp):
    """§4.6: read row, contentHash, holder; then already offloaded, then length, then mismatch."""
    row = parse_row(member(inp, "row"), "notebook")
    content_hash = hexbytes(member(inp, "contentHash"), "contentHash")
    holder = hexbytes(inp["holder"], "holder") if "holder" in inp else None
    if row.get("bodyOffloaded") is True:
        raise Rejected("input_bad_value", "the note is already offloaded")
    if len(content_hash) != 32:
        raise Rejected("input_bad_length", "contentHash must be 32 bytes, got %d" % len(content_hash))
    if note_body_digest(row["body"]) != content_hash:
        raise Rejected("notebook_offload_hash_mismatch", "contentHash does not equal noteBodyDigest(body)")
    after = dict(row)
    after["contentHash"] = content_hash
    after["bodyOffloaded"] = True
    after.pop("offloadHolderPubkey", None)
    if holder is not None:
        after["offloadHolderPubkey"] = holder
    after["body"] = ""
    before = leaf_of("notebook", row)[1]
    return {"row": row_json("notebook", after), "leaf_before": before.hex(), "leaf_after": leaf_of("notebook", after)[1].hex()}


# ---------------------------------------------------------------------------------------------
# Reconcile (SPEC.md §5): the frame model, its JSON and CBOR writers, the §5.3 decoder, the
# requester's bucketize (§5.2), the responder's respond (§5.4) and the state_digest frame (§5.7).
#
# A frame is held as a dict of Python values: bytes for byte strings, ints for counts, parsed
# rows (as parse_row returns them) for rows. frame_tree() turns it into the canonical tree of
# §5.3 (member order, sorted data keys) with bytes still bytes; the JSON writer turns bytes into
# lowercase hex, the CBOR writer (§1) keeps them as byte strings.

MAX_BUCKETS = 256
KINDS = ("reconcile_req", "reconcile_resp", "state_digest")
MAX_DEPTH = 32


class FrameError(Rejected):
    """A frame the §5.3 decoder rejects (codes frame_* of §3)."""


def sorted_object(obj):
    """An object whose keys are data: keys sorted by their UTF-8 bytes (§5.3)."""
    return {k: obj[k] for k in sorted(obj, key=utf8_key)}


def vectors_tree(vectors):
    return {k: sorted_object(vv) for k, vv in sorted_object(vectors).items()}


def row_tree(ns, row):
    """ROW (§5.3): the row as in §4 vector input, members in schema order, only present fields."""
    out = {}
    for name, kind, _, _ in SCHEMAS[ns][1]:
        if name in row:
            out[name] = [{"reactor": r, "emoji": e} for r, e in row[name]] if kind == "reaction_set" else row[name]
    return out


def bucket_tree(b):
    out = {"lo": b["lo"]}
    if b["hi"] is not None:
        out["hi"] = b["hi"]  # §5.3: "hi" omitted on the last bucket
    out["root"] = b["root"]
    out["count"] = b["count"]
    return out


def frame_tree(f):
    """The canonical frame of §5.3 / §5.7, members in exactly its order."""
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
    as decimal strings (the vector-file rule of §2)."""
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
    """FRAME as an op output (§5.6): the canonical frame object."""
    return hexify(frame_tree(f), True)


SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def json_string(s):
    """§2: only " \\ \\n \\r \\t and \\u00xx (lowercase) for the other controls below U+0020;
    everything else, / DEL U+2028 and non-ASCII included, as itself."""
    out = ['"']
    for ch in s:
        if ch in SHORT_ESCAPES:
            out.append(SHORT_ESCAPES[ch])
        elif ord(ch) < 0x20:
            out.append("\\u%04x" % ord(ch))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def json_text(v):
    """Compact JSON text (§5.3): members in the order held, integers as JSON numbers."""
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json_string(v)
    if isinstance(v, list):
        return "[" + ",".join(json_text(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ",".join(json_string(k) + ":" + json_text(x) for k, x in v.items()) + "}"
    raise TypeError(type(v))


def frame_json_text(f):
    """The wire form (§5.3): compact JSON, canonical member order, UTF-8."""
    return json_text(hexify(frame_tree(f), False))


# --- §5.3 decoding, checks in the order the spec lists them ---------------------------------

def frame_member(obj, name, path):
    if name not in obj:
        raise FrameError("frame_missing_field", "missing %s" % path)
    return obj[name]


def frame_hex(v, path):
    if not is_str(v) or not HEX_LOWER.fullmatch(v):
        raise FrameError("frame_bad_type", "%s: expected lowercase hex" % path)
    return bytes.fromhex(v)


def frame_key(v, ns, path):
    """A tombstone or vectors key of a non-settings namespace: lowercase hex of the key length."""
    b = frame_hex(v, path)
    if len(b) != key_length(ns):
        raise FrameError("frame_bad_key_length", "%s: %d bytes, not %d" % (path, len(b), key_length(ns)))
    return b


def frame_string(obj, name, path):
    v = frame_member(obj, name, path)
    if not is_str(v):
        raise FrameError("frame_bad_type", "%s: expected a string" % path)
    return v


def frame_integer(v):
    """§5.3 step 4: an integer in the §2.2 spelling (a JSON integer or a canonical decimal string);
    None when it is not one."""
    if isinstance(v, bool) or isinstance(v, Fraction):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and CANONICAL_INT.fullmatch(v):
        return int(v)
    return None


def decode_bucket(v, i):
    """§5.3 step 5, one bucket: lo, hi, root, count, each checked in that order."""
    p = "buckets[%d]" % i
    if not isinstance(v, dict):
        raise FrameError("frame_bad_type", "%s: a bucket is an object" % p)
    lo = frame_hex(frame_member(v, "lo", p + ".lo"), p + ".lo")
    hi = frame_hex(v["hi"], p + ".hi") if "hi" in v else None
    root = frame_hex(frame_member(v, "root", p + ".root"), p + ".root")
    if len(root) != 32:
        raise FrameError("frame_bad_root_length", "%s.root: 32 bytes, got %d" % (p, len(root)))
    count = frame_integer(frame_member(v, "count", p + ".count"))
    if count is not None and count < 0:
        raise FrameError("frame_negative_count", "%s.count: %d is below zero" % (p, count))
    if count is None or count >= 2**64:
        raise FrameError("frame_bad_type", "%s.count: expected an integer 0 … 2^64-1" % p)
    return {"lo": lo, "hi": hi, "root": root, "count": count}


def check_tiling(buckets):
    """§5.3 step 5 tiling (half-open ranges of §5.1 that cover every key exactly once)."""
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


def decode_buckets(obj):
    """§5.3 step 5 for a non-settings request."""
    buckets = frame_member(obj, "buckets", "buckets")
    if not isinstance(buckets, list):
        raise FrameError("frame_bad_type", "buckets: expected an array")
    if len(buckets) > MAX_BUCKETS:
        raise FrameError("frame_too_many_buckets", "%d buckets, at most 256" % len(buckets))
    parsed = [decode_bucket(b, i) for i, b in enumerate(buckets)]
    check_tiling(parsed)
    return parsed


def by_key_bytes(obj):
    """§5.3 step 7: data-keyed objects are checked in the order of their keys' UTF-8 bytes."""
    return [(k, obj[k]) for k in sorted(obj, key=utf8_key)]


def decode_vectors(obj, ns):
    """§5.3 step 6: optional; an object of objects of counters; non-settings keys are lowercase
    hex of the namespace's key length."""
    if "vectors" not in obj:
        return {}
    v = obj["vectors"]
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
            m = frame_integer(n)
            if m is None or not 0 <= m < 2**64:
                raise FrameError("frame_bad_type", "vectors.%s.%s: expected an integer 0 … 2^64-1" % (k, d))
            counters[d] = m
        out[k] = counters
    return out


def decode_tombstones(obj, ns):
    """§5.3 step 6: optional; an array of strings (settings) or of keys (others)."""
    if "tombstones" not in obj:
        return []
    v = obj["tombstones"]
    if not isinstance(v, list):
        raise FrameError("frame_bad_type", "tombstones: expected an array")
    if ns == "settings":
        for t in v:
            if not is_str(t):
                raise FrameError("frame_bad_type", "tombstones: expected an array of strings")
        return list(v)
    return [frame_key(t, ns, "tombstones[%d]" % i) for i, t in enumerate(v)]


def check_repeats(f, ns):
    """§5.3 step 6: a key shipped twice, or both live and deleted, is duplicate_key."""
    if ns == "settings":
        if len(set(f["tombstones"])) != len(f["tombstones"]) or set(f["tombstones"]) & set(f["entries"]):
            raise Rejected("duplicate_key", "a settings key repeated")
        return
    live = [key_bytes(ns, r) for r in f["rows"]]
    dead = f["tombstones"]
    if len(set(live)) != len(live) or len(set(dead)) != len(dead) or set(live) & set(dead):
        raise Rejected("duplicate_key", "a key repeated in a response")


def decode_response(obj, ns):
    """§5.3 step 6: vectors, then entries or rows, then tombstones, then repeated keys."""
    f = {"vectors": decode_vectors(obj, ns)}
    if ns == "settings":
        entries = frame_member(obj, "entries", "entries")
        if not isinstance(entries, dict):
            raise FrameError("frame_bad_type", "entries: expected an object of strings")
        for k, s in by_key_bytes(entries):
            if not is_str(s):
                raise FrameError("frame_bad_type", "entries.%s: expected a string" % k)
        f["entries"] = dict(entries)
    else:
        rows = frame_member(obj, "rows", "rows")
        if not isinstance(rows, list):
            raise FrameError("frame_bad_type", "rows: expected an array")
        f["rows"] = parse_rows(rows, ns, "rows", lower_only=True)  # §4 codes, lowercase hex only
    f["tombstones"] = decode_tombstones(obj, ns)
    check_repeats(f, ns)
    return f


def decode_frame_value(obj):
    """A frame from a parsed JSON value (§5.3 steps 1–7, §5.7; unknown members ignored)."""
    if not isinstance(obj, dict):
        raise FrameError("frame_bad_type", "a frame is a JSON object")
    kind = frame_string(obj, "kind", "kind")
    if kind not in KINDS:
        raise FrameError("frame_unknown_kind", "kind %s is not a frame this suite pins" % kind)
    if kind == "state_digest":
        digest = frame_hex(frame_member(obj, "digest", "digest"), "digest")
        decode_digest(digest)
        return {"kind": kind, "digest": digest}
    ns = frame_string(obj, "namespace", "namespace")
    if ns not in SCHEMAS:
        raise Rejected("unknown_namespace", "no namespace %s" % ns)
    f = {"kind": kind, "namespace": ns}
    if kind == "reconcile_req":
        if ns != "settings":  # a settings request needs nothing more; buckets are ignored
            f["buckets"] = decode_buckets(obj)
    else:
        f.update(decode_response(obj, ns))
    return f


class StrictJSONError(ValueError):
    pass


def strict_pairs(pairs):
    names = [k for k, _ in pairs]
    if len(set(names)) != len(names):
        raise StrictJSONError("a member name appears twice")
    return Obj(pairs)


def check_strict(v, depth):
    """§5.3 step 1 beyond what json.loads checks: depth at most 32, no lone surrogates."""
    if isinstance(v, str):
        if any(0xD800 <= ord(ch) <= 0xDFFF for ch in v):
            raise StrictJSONError("a lone surrogate escape")
        return
    if isinstance(v, (dict, list)):
        if depth > MAX_DEPTH:
            raise StrictJSONError("nested deeper than 32")
        items = list(v.items()) if isinstance(v, dict) else [(None, x) for x in v]
        for k, x in items:
            if k is not None:
                check_strict(k, depth)
            check_strict(x, depth + 1)


def decode_frame_text(s):
    """§5.3 step 1: one strict JSON text; anything else is frame_invalid_json."""
    def no_constants(name):
        raise StrictJSONError("%s is not JSON" % name)
    try:
        v = json.loads(s, object_pairs_hook=strict_pairs, parse_float=Fraction, parse_constant=no_constants)
        check_strict(v, 1)
    except (ValueError, RecursionError) as e:
        raise FrameError("frame_invalid_json", "not JSON: %s" % e)
    return decode_frame_value(v)


# --- §5.2 bucketize (requester) --------------------------------------------------------------

def sorted_distinct(keyed, ns):
    """(key, leaf) pairs sorted by key bytes; two equal keys are duplicate_key."""
    keyed = sorted(keyed, key=lambda kl: kl[0])
    for a, b in zip(keyed, keyed[1:]):
        if a[0] == b[0]:
            raise Rejected("duplicate_key", "key %s appears twice in %s" % (a[0].hex(), ns))
    return keyed


def bucketize(ns, keyed):
    """The request frame for sorted, distinct (key, leaf) pairs (§5.2)."""
    if ns == "settings":
        return {"kind": "reconcile_req", "namespace": ns}
    n = len(keyed)
    if n == 0:
        buckets = [{"lo": b"", "hi": None, "root": empty_root(ns), "count": 0}]
    else:
        g = 1 if n <= 256 else -(-n // 256)  # ⌈n / 256⌉
        runs = [keyed[j:j + g] for j in range(0, n, g)]
        buckets = []
        for j, run in enumerate(runs):
            buckets.append({"lo": b"" if j == 0 else run[0][0],
                            "hi": runs[j + 1][0][0] if j + 1 < len(runs) else None,
                            "root": fold([leaf for _, leaf in run]),
                            "count": len(run)})
    return {"kind": "reconcile_req", "namespace": ns, "buckets": buckets}


# --- §5.4 respond (responder) ----------------------------------------------------------------

def replica_keys(v, ns, path):
    """replica.tombstones (§5.4): an array of §2.2 hex keys of the namespace's key length."""
    if not isinstance(v, list):
        raise Rejected("input_bad_type", "%s: expected an array" % path)
    return [sized(hexbytes(t, "%s[%d]" % (path, i)), key_length(ns), "%s[%d]" % (path, i)) for i, t in enumerate(v)]


def replica_vectors(v, ns):
    """replica.vectors (§5.4): {KEYHEX: {DEVICE: N}}, keys §2.2 hex of the key length."""
    if not isinstance(v, dict):
        raise Rejected("input_bad_type", "replica.vectors: expected an object")
    out = []
    for k, vv in by_key_bytes(v):
        key = sized(hexbytes(k, "replica.vectors." + k), key_length(ns), "replica.vectors." + k)
        out.append((key, parse_value(vv, "version_vector", "replica.vectors." + k)))
    return out


def in_range(key, b):
    """§5.1: half-open [lo, hi); an absent hi is unbounded."""
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
    """§5.4 for a non-settings namespace: repeated keys, then leaves; ship every live row and
    tombstone in a mismatched bucket, with the version vectors of exactly those keys."""
    live = [key_bytes(ns, r) for r in rows]
    if len(set(live)) != len(live):
        raise Rejected("duplicate_key", "a row key appears twice")
    for i, t in enumerate(tombstones):
        if t in live or t in tombstones[:i]:
            raise Rejected("duplicate_key", "key %s repeated" % t.hex())
    vkeys = [k for k, _ in vectors]
    if len(set(vkeys)) != len(vkeys):
        raise Rejected("duplicate_key", "two vectors keys name the same bytes")
    keyed = [(key_bytes(ns, r), leaf_of(ns, r)[1]) for r in rows if not is_dropped(ns, r)]  # §4.5 rows have no leaf
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


# --- The reconcile ops (SPEC.md §5.6, §5.7) --------------------------------------------------

def op_bucketize(inp):
    ns = namespace(member(inp, "namespace"))
    return {"request": frame_output(bucketize(ns, sorted_distinct(leaf_list(inp), ns)))}


def op_respond(inp):
    request = decode_frame_value(member(inp, "request"))  # the whole frame first, then its kind
    if request["kind"] != "reconcile_req":
        raise Rejected("input_bad_value", "respond answers a reconcile_req")
    ns = request["namespace"]
    replica = member(inp, "replica")
    rows = parse_rows(member(replica, "rows", "replica"), ns, "replica.rows")
    if ns == "settings":  # tombstones and vectors are not read for settings
        response = respond_settings(rows)
    else:
        tombstones = replica_keys(replica["tombstones"], ns, "replica.tombstones") if "tombstones" in replica else []
        vectors = replica_vectors(replica["vectors"], ns) if "vectors" in replica else []
        response = respond_rows(ns, request["buckets"], rows, tombstones, vectors)
    return {"response": frame_output(response) if response is not None else None}


def op_encode_frame(inp):
    f = decode_frame_value(member(inp, "frame"))  # §5.6: decoded first, so a tolerated frame is completed
    return {"json": frame_json_text(f), "cbor": cbor(frame_tree(f)).hex()}


def op_decode_frame(inp):
    return {"frame": frame_output(decode_frame_text(text(member(inp, "json"), "json")))}


def op_receive_digest(inp):
    """§5.7: pull every divergent namespace; on matching roots, return the digest exactly once
    if this device was reconciling with the sibling, otherwise stay silent."""
    local_bytes = hexbytes(member(inp, "local"), "local")
    local = decode_digest(local_bytes)
    frame = decode_frame_value(member(inp, "frame"))
    if frame["kind"] != "state_digest":
        raise Rejected("input_bad_value", "receive_digest takes a state_digest frame")
    reconciling = boolean(member(inp, "reconciling"), "reconciling")
    peer = decode_digest(frame["digest"])
    pull = [ns for ns, a, b in zip(NAMESPACES, local, peer) if a != b]
    if pull:
        return {"pull": pull, "reply": None, "reconciling": True}
    reply = frame_output({"kind": "state_digest", "digest": local_bytes}) if reconciling else None
    return {"pull": [], "reply": reply, "reconciling": False}


OPS = {"state_digest": {"leaf": op_leaf, "root": op_root, "fold": op_fold, "digest": op_digest,
                        "digest_encode": op_digest_encode, "digest_decode": op_digest_decode,
                        "divergence": op_divergence, "mark_offloaded": op_mark_offloaded},
       "reconcile": {"bucketize": op_bucketize, "respond": op_respond, "encode_frame": op_encode_frame,
                     "decode_frame": op_decode_frame, "receive_digest": op_receive_digest}}


# ---------------------------------------------------------------------------------------------
# The runner protocol (SPEC.md §6): JSON lines; nothing on stdout before the runner's hello; one
# result per case, flushed; every line taken through the steps of §6.3 in order.

PROTOCOL_VERSIONS = (1,)
MAX_LINE = 16 * 1024 * 1024  # §6.1: bytes per line, the \n not counted
KEPT_PREFIX = 4096           # bytes of an over-long line kept to read its id
SURROGATE = re.compile("[\ud800-\udfff]")  # only an unpaired \u escape can leave one in a str


def send(msg):
    sys.stdout.write(json.dumps(msg, separators=(",", ":"), ensure_ascii=False) + "\n")
    sys.stdout.flush()


def note(text):
    print("testee.py: %s" % text, file=sys.stderr, flush=True)


def read_line(stream):
    """The next line as (bytes, too_long), or None at EOF. A line over MAX_LINE is read on to its
    newline without being kept: only its first KEPT_PREFIX bytes come back."""
    line = stream.readline(MAX_LINE + 1)
    if not line:
        return None
    if line.endswith(b"\n"):
        line = line[:-1]
    elif len(line) > MAX_LINE:
        prefix = line[:KEPT_PREFIX]
        while True:
            rest = stream.readline(1 << 20)
            if not rest or rest.endswith(b"\n"):
                return prefix, True
    if line.endswith(b"\r"):
        line = line[:-1]
    return line, False


def salvage_id(b):
    """The top-level "id" string of a JSON object line that does not decode as a whole (§6.3):
    the members are scanned without decoding their values; None when it cannot be read."""
    n = len(b)

    def space(i):
        while i < n and b[i] in b" \t\r\n":
            i += 1
        return i

    def string_end(i):
        i += 1
        while i < n:
            if b[i] == 0x5C:
                i += 2
            elif b[i] == 0x22:
                return i + 1
            else:
                i += 1
        return None

    def decode(token):
        try:
            v = json.loads(token.decode("utf-8"))
        except ValueError:
            return None
        return v if isinstance(v, str) and not SURROGATE.search(v) else None

    i = space(0)
    if i >= n or b[i] != 0x7B:
        return None
    i += 1
    while True:
        i = space(i)
        if i >= n or b[i] != 0x22:
            return None
        e = string_end(i)
        if e is None:
            return None
        name, i = decode(b[i:e]), space(e)
        if i >= n or b[i] != 0x3A:
            return None
        i = space(i + 1)
        if name == "id":
            e = string_end(i) if i < n and b[i] == 0x22 else None
            return None if e is None else decode(b[i:e])
        depth = 0
        while True:  # skip one value of any depth
            if i >= n:
                return None
            c = b[i]
            if c == 0x22:
                e = string_end(i)
                if e is None:
                    return None
                i = e
                if depth == 0:
                    break
                continue
            if c in (0x7B, 0x5B):
                depth += 1
            elif c in (0x7D, 0x5D):
                if depth == 0:
                    break
                depth -= 1
                if depth == 0:
                    i += 1
                    break
            elif c == 0x2C and depth == 0:
                break
            i += 1
        i = space(i)
        if i < n and b[i] == 0x2C:
            i += 1
            continue
        return None


def has_surrogate(v):
    stack = [v]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            if SURROGATE.search(x):
                return True
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


def decode_line(b):
    """The message of a line, or raises ValueError saying why it cannot be decoded (§6.3 step 2):
    not UTF-8, not JSON, an unpaired surrogate escape, or nesting past what json can take (its
    recursion limit stops far below the 10,000 levels SPEC allows)."""
    def no_constant(name):
        raise ValueError("%s is not JSON" % name)
    try:
        msg = json.loads(b.decode("utf-8"), object_pairs_hook=Obj, parse_float=Fraction, parse_constant=no_constant)
    except UnicodeDecodeError:
        raise ValueError("not valid UTF-8")
    except RecursionError:
        raise ValueError("nested too deeply")
    if has_surrogate(msg):
        raise ValueError("a string holds an unpaired surrogate escape")
    return msg


def rejected(cid, code, message):
    return {"type": "result", "id": cid, "status": "rejected", "error": code, "message": message}


def answer(msg):
    cid = msg.get("id")
    ops = OPS.get(msg.get("format")) if isinstance(msg.get("format"), str) else None
    if ops is None:
        return rejected(cid, "unknown_format", "no format %r" % (msg.get("format"),))
    fn = ops.get(msg.get("op")) if isinstance(msg.get("op"), str) else None
    if fn is None:
        return rejected(cid, "unknown_op", "no op %r in %s" % (msg.get("op"), msg.get("format")))
    try:
        return {"type": "result", "id": cid, "status": "ok", "output": fn(msg.get("input"))}
    except Rejected as e:
        return rejected(cid, e.code, str(e))
    except Exception as e:  # a bug here is an internal error, not an answer
        return {"type": "result", "id": cid, "status": "error", "message": "%s: %s" % (type(e).__name__, e)}


def handshake(line):
    """The answer to the first line (§6.2), or None after saying on stderr why there is none."""
    if line is None or line[1]:
        note("the first line is missing or longer than 16 MiB; expected the runner's hello")
        return None
    try:
        msg = decode_line(line[0])
    except ValueError as e:
        note("the first line is not JSON (%s); expected the runner's hello" % e)
        return None
    if not isinstance(msg, dict) or msg.get("type") != "hello":
        note("the first line is not the runner's hello")
        return None
    offered = msg.get("protocol_versions")
    if not isinstance(offered, list) or not offered or not all(type(v) is int for v in offered):
        note("the runner's hello has no protocol_versions array of integers")
        return None
    common = [v for v in offered if v in PROTOCOL_VERSIONS]
    if not common:
        note("the runner offers protocol version(s) %s; this testee speaks %s"
             % (", ".join(map(str, offered)), ", ".join(map(str, PROTOCOL_VERSIONS))))
        return None
    return {"type": "hello", "protocol_version": max(common), "name": "pixie-python-example", "version": "0.1.0",
            "language": "python", "capabilities": {f: list(ops) for f, ops in OPS.items()}}


def main():
    stdin = sys.stdin.buffer
    hello = handshake(read_line(stdin))
    if hello is None:
        return 1
    send(hello)
    while True:
        line = read_line(stdin)
        if line is None:
            return 0
        raw, too_long = line
        if too_long:
            cid = salvage_id(raw)
            if cid is None:
                note("a line longer than 16 MiB with no readable id: no answer")
            else:
                send(rejected(cid, "input_bad_length", "line longer than %d bytes (SPEC.md §6.1)" % MAX_LINE))
            continue
        try:
            msg = decode_line(raw)
        except ValueError as e:
            cid = salvage_id(raw)
            if cid is None:
                note("a line that cannot be decoded (%s) with no readable id: no answer" % e)
            else:
                send(rejected(cid, "input_bad_value", "the line cannot be decoded: %s" % e))
            continue
        kind = msg.get("type") if isinstance(msg, dict) else None
        if kind == "shutdown":
            return 0
        if kind != "case":
            note("ignoring a message of type %r" % (kind,))
        elif not isinstance(msg.get("id"), str):
            note("ignoring a case without a string id")
        else:
            send(answer(msg))


if __name__ == "__main__":
    sys.exit(main())

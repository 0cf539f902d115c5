"""StateDigest v6 (SPEC §4): schemas, leaves, the Merkle fold, roots and the 417-byte digest."""
import hashlib

from . import cbor
from .errors import Rejected
from .opinput import (I64, U64, array, boolean, hexbytes, integer, json_int, member, obj, text,
                      utf8_key)

# §4.1: the thirteen namespaces, in digest order.
NAMESPACES = ["settings", "messages", "memory", "notebook", "saga", "contacts", "plans", "peerDevices",
              "fileIndex", "ktIdentityLedger", "blocks", "posts", "agentConversations"]
VERSION = 6
DIGEST_LENGTH = 1 + 32 * len(NAMESPACES)  # 417

ID16, H32 = ("bytes", 16), ("bytes", 32)
ABSENT_IS_EMPTY = ("normalized_hash", "reaction_set")  # §4.3: absent commits the empty value


def sha256(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p)
    return h.digest()


def _c(name, kind, optional=False):
    """A committed field (§4.4 tables)."""
    return (name, kind, optional, True)


def _x(name, kind, optional=True):
    """A field that is read but never committed (§4.4 tables: excluded)."""
    return (name, kind, optional, False)


_LOCAL_ROW_ID = _x("localRowID", "int")

# §4.4: namespace → (sort key, fields in table order: (name, kind, optional, committed))
SCHEMAS = {
    "settings": ("key", [_c("key", "text"), _c("value", "text"), _x("versionVector", "version_vector"),
                         _x("tombstoned", "bool")]),
    "messages": ("messageID", [_c("messageID", ID16), _c("conversationID", ID16),
                               _c("peerUserIDHash", "normalized_hash"), _c("isOutgoing", "bool"),
                               _c("senderName", "text", True), _c("body", "text"), _c("mediaJSON", "text", True),
                               _c("reactions", "reaction_set"), _c("replyToID", ID16, True), _c("sentAt", "date"),
                               _c("editedAt", "date", True), _x("observedAt", "date"),
                               _x("peerPubkey", ("bytes", None)), _LOCAL_ROW_ID, _x("outboxState", "text")]),
    "memory": ("eventID", [_c("eventID", ID16), _c("kind", "text"), _c("summary", "text"), _c("occurredAt", "date"),
                           _c("source", "text"), _LOCAL_ROW_ID]),
    "notebook": ("noteID", [_c("noteID", ID16), _c("title", "text"), _c("tags", "text_set"), _c("body", "note_body"),
                            _c("createdAt", "date"), _c("updatedAt", "date"), _x("bodyOffloaded", "bool"),
                            _x("offloadHolderPubkey", ("bytes", None)), _x("contentHash", H32), _LOCAL_ROW_ID]),
    "saga": ("sagaID", [_c("sagaID", ID16), _c("title", "text"), _c("chapter", "uint"), _c("status", "text"),
                        _c("summary", "text", True), _c("updatedAt", "date"), _LOCAL_ROW_ID]),
    "contacts": ("userIDHash", [_c("userIDHash", H32), _c("displayName", "text"), _c("handle", "text", True),
                                _c("verified", "bool"), _c("blocked", "bool"), _c("addedAt", "date"),
                                _x("systemContactIdentifier", "text"), _x("mlsCursor", "uint"), _LOCAL_ROW_ID]),
    "plans": ("planID", [_c("planID", ID16), _c("title", "text"), _c("stepsJSON", "text"), _c("status", "text"),
                         _c("priority", "int"), _c("dueAt", "date", True), _c("updatedAt", "date"), _LOCAL_ROW_ID]),
    "peerDevices": ("deviceID", [_c("deviceID", H32), _c("name", "text"), _c("family", "text"),
                                 _c("addedAt", "date"), _c("revoked", "bool"), _x("lastSeenAt", "date"),
                                 _x("mlsEpochCursor", "uint")]),
    "fileIndex": ("fileID", [_c("fileID", ID16), _c("path", "text"), _c("sha256", H32), _c("sizeBytes", "uint"),
                             _c("modifiedAt", "date"), _x("localCachePath", "text"), _LOCAL_ROW_ID]),
    "ktIdentityLedger": ("entryHash", [_c("entryHash", H32), _c("userIDHash", H32), _c("epoch", "uint"),
                                       _c("publicKeyHash", H32), _c("loggedAt", "date"), _x("verifiedAt", "date")]),
    "blocks": ("blockedUserIDHash", [_c("blockedUserIDHash", H32), _c("reason", "text", True),
                                     _c("blockedAt", "date"), _LOCAL_ROW_ID]),
    "posts": ("postID", [_c("postID", ID16), _c("authorUserIDHash", H32), _c("body", "text"), _c("tags", "text_set"),
                         _c("visibility", "text"), _c("publishedAt", "date"), _c("editedAt", "date", True),
                         _x("observedAt", "date"), _LOCAL_ROW_ID]),
    "agentConversations": ("conversationID", [_c("conversationID", ID16), _c("title", "text"), _c("model", "text"),
                                              _c("turnCount", "uint"), _c("archived", "bool"),
                                              _c("updatedAt", "date"), _x("draftText", "text"), _LOCAL_ROW_ID]),
}


def key_length(ns):
    """§4.4: the byte length of a non-settings namespace's sort key (16 or 32)."""
    key_name, fields = SCHEMAS[ns]
    return dict((f[0], f[1]) for f in fields)[key_name][1]


def namespace(v, path="namespace"):
    """§4.1: a namespace name; any other string is unknown_namespace."""
    s = text(v, path)
    if s not in SCHEMAS:
        raise Rejected("unknown_namespace", "no namespace %s" % s)
    return s


# --- §4.2 field types and §4.3 reading a row ----------------------------------------------------

def read_reaction(v, path, lower_only):
    """§4.2 reaction: unknown members first, then reactor (32 bytes), then emoji."""
    obj(v, path)
    for name in v:
        if name not in ("reactor", "emoji"):
            raise Rejected("input_unknown_field", "%s: a reaction has no member %s" % (path, name))
    reactor = hexbytes(member(v, "reactor", path), path + ".reactor", 32, lower_only)
    return reactor, text(member(v, "emoji", path), path + ".emoji")


def read_version_vector(v, path):
    """§4.2 version vector: an object of unsigned counters, read in key byte order."""
    obj(v, path)
    return {k: integer(v[k], "%s.%s" % (path, k), U64) for k in sorted(v, key=utf8_key)}


def read_value(v, kind, path, lower_only=False):
    """One field value by its §4.2 type."""
    if isinstance(kind, tuple):
        return hexbytes(v, path, kind[1], lower_only)
    if kind == "normalized_hash":
        b = hexbytes(v, path, None, lower_only)
        if len(b) not in (0, 32):
            raise Rejected("input_bad_length", "%s: a user-id hash is 32 bytes or empty" % path)
        return b
    if kind in ("text", "note_body"):
        return text(v, path)
    if kind in ("uint", "int", "date"):
        return integer(v, path, U64 if kind == "uint" else I64)
    if kind == "bool":
        return boolean(v, path)
    if kind == "text_set":
        return [text(s, "%s[%d]" % (path, i)) for i, s in enumerate(array(v, path))]
    if kind == "reaction_set":
        return [read_reaction(r, "%s[%d]" % (path, i), lower_only) for i, r in enumerate(array(v, path))]
    if kind == "version_vector":
        return read_version_vector(v, path)
    raise AssertionError(kind)


def read_row(v, ns, path="row", lower_only=False):
    """§4.3: an object; any unknown member (input_unknown_field) before any value is read; then
    the schema's fields in table order, each completely."""
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
        row[name] = read_value(v[name], kind, "%s.%s" % (path, name), lower_only)
    return row


def read_rows(v, ns, path, lower_only=False):
    return [read_row(r, ns, "%s[%d]" % (path, i), lower_only) for i, r in enumerate(array(v, path))]


def is_dropped(ns, row):
    """§4.5: calendar-sourced memory rows and tombstoned settings are not hashed."""
    if ns == "memory":
        return row.get("source") == "calendar"
    if ns == "settings":
        return row.get("tombstoned") is True
    return False


# --- §4.6 notebook body -------------------------------------------------------------------------

def note_body_digest(body):
    """§4.6 noteBodyDigest."""
    return sha256(b"pixie.notebook.body\x00", body.encode("utf-8"))


def note_contribution(row):
    """§4.6: content, never residency: an offloaded body contributes its stamped contentHash."""
    if row.get("bodyOffloaded") is True:
        h = row.get("contentHash")
        if h is None:
            raise Rejected("notebook_offloaded_without_hash", "an offloaded note must carry its contentHash")
        return h
    return note_body_digest(row.get("body", ""))


# --- §4.3 preimage and leaf ---------------------------------------------------------------------

def committed_value(kind, value, row):
    if kind == "date":
        return value // 1000  # §4.2: ⌊ms / 1000⌋ seconds
    if kind == "text_set":
        return sorted(set(value), key=utf8_key)
    if kind == "reaction_set":
        return [[r, e] for r, e in sorted(set(value), key=lambda re_: (re_[0], utf8_key(re_[1])))]
    if kind == "note_body":
        return note_contribution(row)
    return value


EMPTY = {"normalized_hash": b"", "reaction_set": []}


def preimage(ns, row):
    """§4.3: the CBOR array of committed fields; an optional one as 0, or 1 then the value."""
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
    return cbor.encode(items)


def leaf_of(ns, row):
    """§4.3: (preimage, SHA-256("pixie.state." ns 0x00 preimage))."""
    pre = preimage(ns, row)
    return pre, sha256(("pixie.state.%s" % ns).encode(), b"\x00", pre)


def key_bytes(ns, row):
    k = row.get(SCHEMAS[ns][0])
    return k.encode("utf-8") if isinstance(k, str) else (k or b"")


# --- §4.7 fold and roots ------------------------------------------------------------------------

def empty_root(ns):
    return sha256(b"pixie.state.empty\x00", ns.encode())


def fold(leaves):
    """§4.7: pairwise, level by level; an odd last node is promoted unchanged."""
    level = list(leaves)
    while len(level) > 1:
        nxt = [sha256(b"pixie.state.node\x00", level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def sorted_distinct(keyed, ns):
    """(key, leaf) pairs in key byte order; two equal keys are duplicate_key."""
    keyed = sorted(keyed, key=lambda kl: kl[0])
    for a, b in zip(keyed, keyed[1:]):
        if a[0] == b[0]:
            raise Rejected("duplicate_key", "key %s appears twice in %s" % (a[0].hex(), ns))
    return keyed


def merkle_root(ns, keyed):
    keyed = sorted_distinct(keyed, ns)
    return fold([leaf for _, leaf in keyed]) if keyed else empty_root(ns)


def settings_root(rows):
    """§4.7 settings: SHA-256 over the CBOR map of live key → value."""
    live, seen = {}, set()
    for row in rows:
        k = row["key"]
        if k in seen:
            raise Rejected("duplicate_key", "settings key %s appears twice" % k)
        seen.add(k)
        if not is_dropped("settings", row):
            live[k] = row["value"]
    return sha256(b"pixie.state.settings\x00", cbor.encode(live)), len(live)


def ns_root(ns, rows):
    """§4.7: repeated keys (dropped rows included) first, then the leaves of hashed rows."""
    if ns == "settings":
        return settings_root(rows)
    keys = [key_bytes(ns, r) for r in rows]
    if len(set(keys)) != len(keys):
        raise Rejected("duplicate_key", "a key appears twice in %s" % ns)
    keyed = [(key_bytes(ns, r), leaf_of(ns, r)[1]) for r in rows if not is_dropped(ns, r)]
    return merkle_root(ns, keyed), len(keyed)


# --- §4.8 the digest ----------------------------------------------------------------------------

def encode_digest(roots):
    return bytes([VERSION]) + b"".join(roots)


def decode_digest(b):
    """§4.8: the version byte first (whatever the length), then the length."""
    if len(b) == 0:
        raise Rejected("digest_wrong_length", "no version byte")
    if b[0] != VERSION:
        raise Rejected("digest_unsupported_version", "version %d is not 6" % b[0])
    if len(b) != DIGEST_LENGTH:
        raise Rejected("digest_wrong_length", "a StateDigest is 417 bytes, got %d" % len(b))
    return [b[1 + 32 * i:33 + 32 * i] for i in range(len(NAMESPACES))]


def divergent_namespaces(a, b):
    """§4.8 divergentNamespaces: names whose roots differ, in digest order."""
    return [ns for ns, x, y in zip(NAMESPACES, a, b) if x != y]


def roots_json(roots):
    return {ns: r.hex() for ns, r in zip(NAMESPACES, roots)}


def row_json(ns, row):
    """A row as vector data (§4.9): present fields in schema order."""
    out = {}
    for name, kind, _, _ in SCHEMAS[ns][1]:
        if name not in row:
            continue
        v = row[name]
        if kind == "reaction_set":
            v = [{"reactor": r.hex(), "emoji": e} for r, e in v]
        elif isinstance(v, (bytes, bytearray)):
            v = v.hex()
        elif isinstance(v, bool) or isinstance(v, (str, list)):
            pass
        elif isinstance(v, int):
            v = json_int(v)
        elif isinstance(v, dict):
            v = {k: json_int(n) for k, n in sorted(v.items(), key=lambda kv: utf8_key(kv[0]))}
        out[name] = v
    return out


# --- §4.9 ops -----------------------------------------------------------------------------------

def op_leaf(inp):
    ns = namespace(member(inp, "namespace"))
    if ns == "settings":
        raise Rejected("input_bad_value", "settings has no per-row leaves; use op root")
    row = read_row(member(inp, "row"), ns)
    if is_dropped(ns, row):
        return {"dropped": True}
    pre, leaf = leaf_of(ns, row)
    return {"preimage": pre.hex(), "leaf": leaf.hex()}


def op_root(inp):
    ns = namespace(member(inp, "namespace"))
    root, count = ns_root(ns, read_rows(member(inp, "rows"), ns, "rows"))
    return {"root": root.hex(), "count": count}


def generated_leaves(gen):
    """§4.9 generator rule `index`: rule first, then count (unsigned, at most 2^16)."""
    rule = text(member(gen, "rule", "generate"), "generate.rule")
    if rule != "index":
        raise Rejected("input_bad_value", "unknown generator rule %s" % rule)
    n = integer(member(gen, "count", "generate"), "generate.count", U64)
    if n > 1 << 16:
        raise Rejected("input_bad_value", "count must be at most 65536")
    keys = [i.to_bytes(4, "big") for i in range(n)]
    return [(key, sha256(b"pixie.vectors.leaf\x00", key)) for key in keys]


def explicit_leaves(items):
    """§4.9 leaves: [{key, leaf (32 bytes)}…] in the order given."""
    keyed = []
    for i, item in enumerate(array(items, "leaves")):
        p = "leaves[%d]" % i
        key = hexbytes(member(item, "key", p), p + ".key")
        keyed.append((key, hexbytes(member(item, "leaf", p), p + ".leaf", 32)))
    return keyed


def leaf_list(inp):
    """`generate` when present (then `leaves` is never read), else `leaves`."""
    if "generate" in inp:
        return generated_leaves(inp["generate"])
    return explicit_leaves(member(inp, "leaves"))


def op_fold(inp):
    ns = namespace(member(inp, "namespace"))
    if ns == "settings":
        raise Rejected("input_bad_value", "settings has no leaves to fold")
    keyed = leaf_list(inp)
    return {"root": merkle_root(ns, keyed).hex(), "count": len(keyed)}


def namespace_members(o, path):
    """§4.9: every member name checked first, then the values in §4.1 order."""
    obj(o, path)
    for name in o:
        if name not in SCHEMAS:
            raise Rejected("unknown_namespace", "no namespace %s" % name)
    return [(ns, o[ns]) for ns in NAMESPACES if ns in o]


def op_digest(inp):
    roots = {}
    for ns, rows in namespace_members(member(inp, "namespaces"), "namespaces"):
        roots[ns] = ns_root(ns, read_rows(rows, ns, "namespaces." + ns))[0]
    all_roots = [roots[ns] if ns in roots else ns_root(ns, [])[0] for ns in NAMESPACES]
    return {"encoded": encode_digest(all_roots).hex(), "roots": roots_json(all_roots)}


def op_digest_encode(inp):
    roots = member(inp, "roots")
    namespace_members(roots, "roots")
    return {"encoded": encode_digest([hexbytes(member(roots, ns, "roots"), "roots." + ns, 32)
                                      for ns in NAMESPACES]).hex()}


def op_digest_decode(inp):
    roots = decode_digest(hexbytes(member(inp, "encoded"), "encoded"))
    return {"version": VERSION, "roots": roots_json(roots)}


def op_divergence(inp):
    a = decode_digest(hexbytes(member(inp, "a"), "a"))
    b = decode_digest(hexbytes(member(inp, "b"), "b"))
    return {"namespaces": divergent_namespaces(a, b)}


def op_mark_offloaded(inp):
    """§4.6: read row, contentHash, holder; then already offloaded, then length, then mismatch."""
    row = read_row(member(inp, "row"), "notebook")
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
    return {"row": row_json("notebook", after), "leaf_before": leaf_of("notebook", row)[1].hex(),
            "leaf_after": leaf_of("notebook", after)[1].hex()}


OPS = {"leaf": op_leaf, "root": op_root, "fold": op_fold, "digest": op_digest, "digest_encode": op_digest_encode,
       "digest_decode": op_digest_decode, "divergence": op_divergence, "mark_offloaded": op_mark_offloaded}

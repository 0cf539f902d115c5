"""Decoding a CBOR message by a member table (the shared shape of SPEC §7.2, §8.2, §14).

A table lists members in the order a decoder checks them; each member has a kind:
`("bstr", n or None)`, `("uint",)`, `("text", lo, hi)` (UTF-8 byte bounds) or
`("map", table)` for a nested untagged message. Codes are the format's own: `prefix + "_bad_type"`,
`_missing_field`, `_bad_length`, `_unknown_field`, `_wrong_payload_type`.
"""
from . import cbor
from .errors import Rejected


def check_map(item, prefix, what):
    """§8.2 step 2: a map with text keys only."""
    if not isinstance(item, dict):
        raise Rejected(prefix + "_bad_type", "%s is not a map" % what)
    for k in item:
        if not isinstance(k, str):
            raise Rejected(prefix + "_bad_type", "%s has a key that is not text" % what)
    return item


def check_tag(m, tag, prefix):
    """§8.2 step 3: type present, text, equal byte for byte."""
    if "type" not in m:
        raise Rejected(prefix + "_missing_field", "no type")
    if not isinstance(m["type"], str):
        raise Rejected(prefix + "_bad_type", "type is not text")
    if m["type"] != tag:
        raise Rejected(prefix + "_wrong_payload_type", "type %r is not %s" % (m["type"], tag))


def check_names(m, table, tag, prefix, what):
    """§8.2 step 4: no member outside the table (plus type when tagged), in wire order."""
    names = {name for name, _ in table}
    if tag is not None:
        names.add("type")
    for k in m:
        if k not in names:
            raise Rejected(prefix + "_unknown_field", "%s has no member %s" % (what, k))


def check_member(v, kind, prefix, path):
    """§8.2 step 5 for one present member: its CBOR type, then its length."""
    t = kind[0]
    if t == "bstr":
        if not isinstance(v, bytes):
            raise Rejected(prefix + "_bad_type", "%s is not a byte string" % path)
        if kind[1] is not None and len(v) != kind[1]:
            raise Rejected(prefix + "_bad_length", "%s: %d bytes, not %d" % (path, len(v), kind[1]))
        return v
    if t == "uint":
        if type(v) is not int or v < 0:
            raise Rejected(prefix + "_bad_type", "%s is not an unsigned integer" % path)
        return v
    if t == "text":
        if not isinstance(v, str):
            raise Rejected(prefix + "_bad_type", "%s is not a text string" % path)
        n = len(v.encode("utf-8"))
        if not kind[1] <= n <= kind[2]:
            raise Rejected(prefix + "_bad_length", "%s: %d UTF-8 bytes, not %d … %d" % (path, n, kind[1], kind[2]))
        return v
    if t == "map":
        return check_fields(v, kind[1], None, prefix, path)
    raise AssertionError(kind)


def check_fields(m, table, tag, prefix, what, members=None):
    """§8.2 steps 2–5 on a decoded item; `members` limits step 5 to some names."""
    check_map(m, prefix, what)
    if tag is not None:
        check_tag(m, tag, prefix)
    check_names(m, table, tag, prefix, what)
    out = {}
    for name, kind in table:
        if members is not None and name not in members:
            continue
        if name not in m:
            raise Rejected(prefix + "_missing_field", "%s needs %s" % (what, name))
        out[name] = check_member(m[name], kind, prefix, "%s.%s" % (what, name))
    return out


def decode_message(b, table, tag, prefix, what):
    """§8.2 steps 1–5: one §1 item, then the table."""
    return check_fields(cbor.decode(b), table, tag, prefix, what)


def encode_message(fields, tag=None):
    """The §1 encoding of exactly these members (plus type when tagged)."""
    m = dict(fields)
    if tag is not None:
        m["type"] = tag
    return cbor.encode(m)

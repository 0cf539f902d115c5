"""Deterministic CBOR (SPEC §1): the writer (R1-1 … R1-3) and the strict reader (R1-6 … R1-20).

The writer takes the Python values pixie's answers hold: int (64 bits), bytes, str, bool, None,
list/tuple and dict (keys sorted by their encodings, R1-3). The reader returns the same kinds,
plus `Tag`, `Bignum`, `Simple` and floats, and raises `Rejected` with a `cbor_*` code at the
first problem in byte order (R1-17).
"""
import math
import struct

from .errors import Rejected

MAX_DEPTH = 32  # R1-15


# What the reader returns for the items no format takes (R1-16: valid CBOR, the wrong type). Every
# format refuses them by their type, so they carry their contents and nothing else: no equality,
# no hashing of their own (two map keys are told apart by their bytes, R1-11), no writer.

class Tag:
    """A tagged item (R1-16: any tag but 2 and 3 is returned unchecked)."""

    def __init__(self, number, value):
        self.number, self.value = number, value


class Bignum:
    """A tag 2 or 3 bignum (R1-5): an integer outside 64 bits, kept apart from major types 0/1
    so a format can tell "not a uint" from "a uint out of range" (§7.1)."""

    def __init__(self, value):
        self.value = value


class Simple:
    """A simple value other than false, true, null (R1-16): 0–19, 23 (undefined), 32–255."""

    def __init__(self, value):
        self.value = value


# --- writer -------------------------------------------------------------------------------------

def head(major, n):
    """R1-1: the shortest head for argument n."""
    if n < 24:
        return bytes([major << 5 | n])
    for ai, size in ((24, 1), (25, 2), (26, 4), (27, 8)):
        if n < 1 << (8 * size):
            return bytes([major << 5 | ai]) + n.to_bytes(size, "big")
    raise ValueError("argument beyond 64 bits")


def encode(v):
    """One item in the deterministic encoding (R1-1 … R1-3). Integers beyond 64 bits, which no
    op writes, are refused by `head` rather than written as bignums."""
    if v is True:
        return b"\xf5"
    if v is False:
        return b"\xf4"
    if v is None:
        return b"\xf6"
    if isinstance(v, int):
        return head(0, v) if v >= 0 else head(1, -1 - v)
    if isinstance(v, (bytes, bytearray)):
        return head(2, len(v)) + bytes(v)
    if isinstance(v, str):
        b = v.encode("utf-8")
        return head(3, len(b)) + b
    if isinstance(v, (list, tuple)):
        return head(4, len(v)) + b"".join(encode(x) for x in v)
    if isinstance(v, dict):
        items = sorted((encode(k), encode(x)) for k, x in v.items())
        return head(5, len(items)) + b"".join(k + x for k, x in items)
    raise TypeError("cannot encode %s" % type(v).__name__)


# --- reader -------------------------------------------------------------------------------------

class _Reader:
    def __init__(self, b):
        self.b = bytes(b)
        self.i = 0

    def fail(self, code, reason, at=None):
        raise Rejected(code, "%s at byte %d" % (reason, self.i if at is None else at))

    def left(self):
        return len(self.b) - self.i

    def take(self, n, start):
        if self.left() < n:
            self.fail("cbor_truncated", "the input ends inside an item", start)
        out = self.b[self.i:self.i + n]
        self.i += n
        return out

    def head(self):
        """The initial byte and its argument; R1-1 shortest form (R1-7), R1-8, R1-9."""
        start = self.i
        ib = self.take(1, start)[0]
        major, ai = ib >> 5, ib & 31
        if ai < 24:
            return major, ai, ai, start
        if ai <= 27:
            size = 1 << (ai - 24)
            n = int.from_bytes(self.take(size, start), "big")
            if major != 7 and n < (24 if size == 1 else 1 << (8 * size // 2)):
                self.fail("cbor_non_canonical", "an argument with a shorter form", start)
            return major, ai, n, start
        if ai == 31 and major in (2, 3, 4, 5):
            self.fail("cbor_indefinite_length", "an indefinite length", start)
        self.fail("cbor_reserved_additional_info", "reserved additional information %d" % ai, start)

    def item(self, depth):
        if depth > MAX_DEPTH:  # R1-19: before the item's first byte
            self.fail("cbor_depth_exceeded", "an item at depth %d" % depth)
        major, ai, n, start = self.head()
        if major == 0:
            return n
        if major == 1:
            return -1 - n
        if major in (2, 3):
            if n > self.left():  # R1-18: at the head
                self.fail("cbor_truncated", "a string longer than the bytes left", start)
            raw = self.take(n, start)
            if major == 2:
                return raw
            try:
                return raw.decode("utf-8")
            except UnicodeDecodeError:
                self.fail("cbor_invalid_utf8", "a text string that is not UTF-8", start)
        if major == 4:
            if n > self.left():
                self.fail("cbor_truncated", "more items than bytes left", start)
            return [self.item(depth + 1) for _ in range(n)]
        if major == 5:
            if n > self.left() // 2:
                self.fail("cbor_truncated", "more entries than bytes left", start)
            return self.map_entries(n, depth)
        if major == 6:
            return self.tag(n, depth, start)
        return self.simple(ai, n, start)

    def map_entries(self, n, depth):
        """R1-20: each key compared with the one before it as soon as it is read."""
        out = {}
        previous = None
        for _ in range(n):
            kstart = self.i
            k = self.item(depth + 1)
            kbytes = self.b[kstart:self.i]
            if previous is not None:
                if kbytes == previous:
                    self.fail("cbor_duplicate_map_key", "a key equal to the one before it", kstart)
                if kbytes < previous:
                    self.fail("cbor_unsorted_map_keys", "a key below the one before it", kstart)
            previous = kbytes
            out[_hashable(k)] = self.item(depth + 1)
        return out

    def tag(self, number, depth, start):
        value = self.item(depth + 1)
        if number in (2, 3):  # R1-5, R1-7
            if not isinstance(value, bytes) or len(value) <= 8 or value[0] == 0:
                self.fail("cbor_non_canonical", "a bignum that is not canonical", start)
            m = int.from_bytes(value, "big")
            return Bignum(m if number == 2 else -1 - m)
        return Tag(number, value)

    def simple(self, ai, n, start):
        if ai < 24:
            return {20: False, 21: True, 22: None}.get(ai, Simple(ai))
        if ai == 24:
            if n < 32:
                self.fail("cbor_invalid_simple", "a simple value below 32 in two bytes", start)
            return Simple(n)
        raw = self.b[start + 1:self.i]
        if ai == 25:
            f = struct.unpack(">e", raw)[0]
            if math.isnan(f):
                if raw != b"\x7e\x00":
                    self.fail("cbor_non_canonical", "a NaN other than f97e00", start)
            return f
        f = struct.unpack(">f" if ai == 26 else ">d", raw)[0]
        if math.isnan(f):
            self.fail("cbor_non_canonical", "a NaN other than f97e00", start)
        if _fits(f, ">e") or (ai == 27 and _fits(f, ">f")):
            self.fail("cbor_non_canonical", "a float a shorter precision holds", start)
        return f


def _fits(f, fmt):
    try:
        return struct.unpack(fmt, struct.pack(fmt, f))[0] == f
    except (OverflowError, struct.error):
        return False


def _hashable(k):
    """A dict key for a decoded map key: lists and maps as tuples, and booleans and floats kept
    apart from the integers Python would merge them with (True == 1, 1.0 == 1)."""
    if isinstance(k, (bool, float)):
        return ("other", type(k).__name__, k)
    if isinstance(k, list):
        return tuple(_hashable(x) for x in k)
    if isinstance(k, dict):
        return ("map",) + tuple((_hashable(a), _hashable(b)) for a, b in k.items())
    return k


def decode(b):
    """One item, then nothing (R1-14); the first problem in byte order decides (R1-17)."""
    r = _Reader(b)
    v = r.item(1)
    if r.left():
        r.fail("cbor_trailing_bytes", "bytes after the item")
    return v

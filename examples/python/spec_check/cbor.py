"""Strict CBOR profile of SPEC §1 (reader + deterministic writer), stdlib only."""
import struct


class CborError(Exception):
    def __init__(self, code, offset=None):
        super().__init__(code)
        self.code = code
        self.offset = offset


class Tag:
    def __init__(self, tag, value):
        self.tag, self.value = tag, value


class Simple:
    def __init__(self, v):
        self.v = v


class CMap:
    """A decoded map: list of (key, value) pairs in wire order."""
    def __init__(self, pairs):
        self.pairs = pairs

    def keys(self):
        return [k for k, _ in self.pairs]


class Float(float):
    pass


MAX_DEPTH = 32

# How §1 reads, as switches alternatives.py can flip to model other readings of it.
DEPTH_BEFORE_BYTE = True      # every item's depth, checked before its first byte (else containers only)
COUNTS_AT_HEAD = True         # array and map counts checked against the bytes left at the head
REPEATS_AGAINST_ALL = False   # compare a key with every earlier key first (else with its predecessor only)


def decode(data):
    r = _Reader(bytes(data))
    v = r.item(1)
    if r.pos != len(r.d):
        raise CborError('cbor_trailing_bytes', r.pos)
    return v


class _Reader:
    def __init__(self, d):
        self.d, self.pos = d, 0

    def need(self, n):
        if self.pos + n > len(self.d):
            raise CborError('cbor_truncated', self.pos)

    def byte(self):
        self.need(1)
        b = self.d[self.pos]
        self.pos += 1
        return b

    def arg(self, ai, start):
        if ai < 24:
            return ai
        n = {24: 1, 25: 2, 26: 4, 27: 8}[ai]
        self.need(n)
        v = int.from_bytes(self.d[self.pos:self.pos + n], 'big')
        self.pos += n
        lim = {1: 24, 2: 256, 4: 65536, 8: 1 << 32}[n]
        if v < lim:
            raise CborError('cbor_non_canonical', start)
        return v

    def item(self, depth):
        start = self.pos
        # §1: every item has a depth (top level 1); 33 or more is rejected before its first byte.
        if DEPTH_BEFORE_BYTE and depth > MAX_DEPTH:
            raise CborError('cbor_depth_exceeded', start)
        ib = self.byte()
        mt, ai = ib >> 5, ib & 31
        if not DEPTH_BEFORE_BYTE and depth > MAX_DEPTH and mt in (4, 5, 6):
            raise CborError('cbor_depth_exceeded', start)
        if ai in (28, 29, 30):
            raise CborError('cbor_reserved_additional_info', start)
        if ai == 31:
            if mt in (2, 3, 4, 5):
                raise CborError('cbor_indefinite_length', start)
            raise CborError('cbor_reserved_additional_info', start)
        if mt == 7:
            if ai < 24:
                if ai == 20: return False
                if ai == 21: return True
                if ai == 22: return None
                return Simple(ai)
            if ai == 24:
                self.need(1)
                v = self.d[self.pos]; self.pos += 1
                if v < 32:
                    raise CborError('cbor_invalid_simple', start)
                return Simple(v)
            n = {25: 2, 26: 4, 27: 8}[ai]
            self.need(n)
            raw = self.d[self.pos:self.pos + n]; self.pos += n
            f = {2: '>e', 4: '>f', 8: '>d'}[n]
            v = struct.unpack(f, raw)[0]
            if v != v:
                if raw != b'\x7e\x00':
                    raise CborError('cbor_non_canonical', start)
            else:
                for m, ff in ((2, '>e'), (4, '>f')):
                    if m >= n: break
                    try:
                        if struct.unpack(ff, struct.pack(ff, v))[0] == v:
                            raise CborError('cbor_non_canonical', start)
                    except (OverflowError, struct.error):
                        pass
            return Float(v)
        v = self.arg(ai, start)
        if mt == 0:
            return v
        if mt == 1:
            return -1 - v
        if mt in (2, 3):
            if v > len(self.d) - self.pos:
                raise CborError('cbor_truncated', self.pos)
            raw = self.d[self.pos:self.pos + v]; self.pos += v
            if mt == 2:
                return raw
            try:
                return raw.decode('utf-8')
            except UnicodeDecodeError:
                raise CborError('cbor_invalid_utf8', start)
        # §1: a count that cannot fit the bytes left is cbor_truncated at the head, before any item.
        if mt == 4:
            if COUNTS_AT_HEAD and v > len(self.d) - self.pos:
                raise CborError('cbor_truncated', start)
            return [self.item(depth + 1) for _ in range(v)]
        if mt == 5:
            if COUNTS_AT_HEAD and v > (len(self.d) - self.pos) // 2:
                raise CborError('cbor_truncated', start)
            pairs, prev, seen = [], None, set()
            for _ in range(v):
                ks = self.pos
                k = self.item(depth + 1)
                kb = self.d[ks:self.pos]
                if REPEATS_AGAINST_ALL and kb in seen:
                    raise CborError('cbor_duplicate_map_key', ks)
                seen.add(kb)
                if prev is not None:
                    if kb == prev:
                        raise CborError('cbor_duplicate_map_key', ks)
                    if kb < prev:
                        raise CborError('cbor_unsorted_map_keys', ks)
                prev = kb
                pairs.append((k, self.item(depth + 1)))
            return CMap(pairs)
        # tag
        val = self.item(depth + 1)
        if v in (2, 3):
            if not isinstance(val, bytes) or (val[:1] == b'\x00') or len(val) <= 8:
                raise CborError('cbor_non_canonical', start)
        return Tag(v, val)


def _head(mt, v):
    if v < 24: return bytes([mt << 5 | v])
    if v < 256: return bytes([mt << 5 | 24, v])
    if v < 65536: return bytes([mt << 5 | 25]) + v.to_bytes(2, 'big')
    if v < 1 << 32: return bytes([mt << 5 | 26]) + v.to_bytes(4, 'big')
    return bytes([mt << 5 | 27]) + v.to_bytes(8, 'big')


def encode(x):
    if x is True: return b'\xf5'
    if x is False: return b'\xf4'
    if x is None: return b'\xf6'
    if isinstance(x, int):
        return _head(0, x) if x >= 0 else _head(1, -1 - x)
    if isinstance(x, (bytes, bytearray)):
        return _head(2, len(x)) + bytes(x)
    if isinstance(x, str):
        b = x.encode('utf-8'); return _head(3, len(b)) + b
    if isinstance(x, (list, tuple)):
        return _head(4, len(x)) + b''.join(encode(i) for i in x)
    if isinstance(x, dict):
        items = sorted((encode(k), encode(v)) for k, v in x.items())
        return _head(5, len(items)) + b''.join(k + v for k, v in items)
    raise TypeError(type(x))


def ctype(v):
    """CBOR kind of a decoded value."""
    if isinstance(v, bool): return 'bool'
    if isinstance(v, Float): return 'float'
    if isinstance(v, int): return 'uint' if v >= 0 else 'nint'
    if isinstance(v, bytes): return 'bstr'
    if isinstance(v, str): return 'tstr'
    if isinstance(v, list): return 'array'
    if isinstance(v, CMap): return 'map'
    if isinstance(v, Tag): return 'tag'
    return 'simple'

"""AccountState (SPEC §11): Haven's self-sync CRDT, its plaintext, sealed v0 / v1 (HSS1) blobs,
slot keys and own-device epoch-key convergence. Raw little-endian layouts, not CBOR."""
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .errors import Rejected
from .opinput import U64, array, hexbytes, integer, json_int, member, obj, text, utf8_key

MAGIC = b"HSS1"
V0_FIXED = 16 + 12 + 16        # salt, nonce, tag: 44
V1_FIXED = 4 + 8 + V0_FIXED    # 56
KEPT_EPOCHS = 4                # §11.7 prune_epoch_keys
MAX_ALTERNATES = 4
ZERO32 = bytes(32)


def hkdf(salt, ikm, info):
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(ikm)


def self_sync_key(seed):
    """R11.1-1."""
    return hkdf(b"haven-selfsync-v1", seed, b"state-key")


def subkey(key, salt):
    """R11.1-2."""
    return hkdf(salt, key, b"haven-selfsync-msg-v1")


# --- §11.2 the plaintext ------------------------------------------------------------------------
# A state is {"records": {key: (ts, device, value or None)}, "cursors": {name: ts}}.

def lp(b):
    return len(b).to_bytes(4, "little") + b


def encode_state(st):
    """R11.2-2, R11.2-3: records then cursors, each in UTF-8 byte order."""
    out = [len(st["records"]).to_bytes(4, "little")]
    for k in sorted(st["records"], key=utf8_key):
        ts, device, value = st["records"][k]
        out.append(lp(k.encode("utf-8")) + ts.to_bytes(8, "little") + device)
        out.append(b"\x00" if value is None else b"\x01" + lp(value))
    out.append(len(st["cursors"]).to_bytes(4, "little"))
    for n in sorted(st["cursors"], key=utf8_key):
        out.append(lp(n.encode("utf-8")) + st["cursors"][n].to_bytes(8, "little"))
    return b"".join(out)


class _Reader:
    def __init__(self, b):
        self.b, self.i = b, 0

    def take(self, n):
        """R11.2-6: a field past the end is truncated (never allocated from a count)."""
        if len(self.b) - self.i < n:
            raise Rejected("account_state_truncated", "a field runs past the end at byte %d" % self.i)
        out = self.b[self.i:self.i + n]
        self.i += n
        return out

    def u32(self):
        return int.from_bytes(self.take(4), "little")

    def u64(self):
        return int.from_bytes(self.take(8), "little")

    def text(self, previous):
        """R11.2-8 then R11.2-9, as soon as the bytes are read."""
        raw = self.take(self.u32())
        try:
            s = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise Rejected("account_state_bad_utf8", "a key that is not UTF-8")
        if previous is not None:
            if raw == previous:
                raise Rejected("account_state_duplicate_key", "a key equal to the previous one")
            if raw < previous:
                raise Rejected("account_state_unsorted_keys", "a key below the previous one")
        return s, raw


def decode_state(b):
    """§11.2 decoding, in byte order (R11.2-5 … R11.2-11)."""
    r = _Reader(b)
    records, previous = {}, None
    for _ in range(r.u32()):
        key, previous = r.text(previous)
        ts = r.u64()
        device = r.take(32)
        presence = r.take(1)[0]
        if presence not in (0, 1):
            raise Rejected("account_state_bad_presence", "presence byte %d" % presence)
        records[key] = (ts, device, r.take(r.u32()) if presence == 1 else None)
    cursors, previous = {}, None
    for _ in range(r.u32()):
        name, previous = r.text(previous)
        ts = r.u64()
        if ts == 0:
            raise Rejected("account_state_zero_cursor", "cursor %s at 0" % name)
        cursors[name] = ts
    if r.i != len(b):
        raise Rejected("account_state_trailing_bytes", "%d bytes after the last cursor" % (len(b) - r.i))
    return {"records": records, "cursors": cursors}


# --- §11.3 local writes, §11.4 merge ------------------------------------------------------------

def after(s, t):
    """R11.3-1: s after t by ts, then device bytes."""
    return (s[0], s[1]) > (t[0], t[1])


def write(st, key, register):
    """R11.3-2, R11.3-3: applies only when nothing is held or the stamp is after."""
    held = st["records"].get(key)
    if held is not None and not after(register, held):
        return False
    st["records"][key] = register
    return True


def bump_cursor(st, name, ts):
    """R11.3-4."""
    if ts <= st["cursors"].get(name, 0):
        return False
    st["cursors"][name] = ts
    return True


def content_order(register):
    """R11.4-2: any value above a tombstone; values by their bytes."""
    value = register[2]
    return (0, b"") if value is None else (1, value)


def merge(local, remote):
    """R11.4-1 … R11.4-3: per key the maximum register, per cursor the maximum."""
    out = {"records": dict(local["records"]), "cursors": dict(local["cursors"])}
    for k, reg in remote["records"].items():
        held = out["records"].get(k)
        if held is None or after(reg, held) or (reg[:2] == held[:2] and content_order(reg) > content_order(held)):
            out["records"][k] = reg
    for n, ts in remote["cursors"].items():
        if ts > out["cursors"].get(n, 0):
            out["cursors"][n] = ts
    return out


# --- §11.5 sealed blobs -------------------------------------------------------------------------

def seal(st, key, salt, nonce, epoch):
    """R11.5-1 (epoch None) and R11.5-2."""
    body = salt + nonce + AESGCM(subkey(key, salt)).encrypt(nonce, encode_state(st), b"")
    return body if epoch is None else MAGIC + epoch.to_bytes(8, "little") + body


def peek_epoch(blob):
    """R11.5-3."""
    if len(blob) >= 28 and blob[:4] == MAGIC:
        return int.from_bytes(blob[4:12], "little")
    return None


def open_v0_layout(body, key):
    """The AEAD over salt || nonce || ct || tag; None when the tag does not verify."""
    if len(body) < V0_FIXED:
        return None
    try:
        return AESGCM(subkey(key, body[:16])).decrypt(body[16:28], body[28:], b"")
    except InvalidTag:
        return None


def open_blob(blob, seed_key, accepted):
    """R11.5-4 … R11.5-10: (version, epoch, state)."""
    epoch = peek_epoch(blob)
    if epoch is not None:  # step 1: a v1 candidate
        if epoch not in accepted:
            failure = Rejected("account_state_stale_epoch", "epoch %d is not accepted" % epoch)
        elif len(blob) < V1_FIXED:
            failure = Rejected("account_state_blob_truncated", "a v1 blob under 56 bytes")
        else:
            plaintext = open_v0_layout(blob[12:], accepted[epoch])
            if plaintext is not None:
                return 1, epoch, decode_state(plaintext)  # R11.5-7: final
            failure = Rejected("account_state_auth_failed", "the v1 tag does not verify")
        if seed_key is not None:  # R11.5-9: the whole blob as v0
            plaintext = open_v0_layout(blob, seed_key)
            if plaintext is not None:
                return 0, None, decode_state(plaintext)
        raise failure
    if seed_key is None:  # step 2 (R11.5-8)
        raise Rejected("account_state_v0_retired", "a v0 blob and no seed key")
    if len(blob) < V0_FIXED:
        raise Rejected("account_state_blob_truncated", "a v0 blob under 44 bytes")
    plaintext = open_v0_layout(blob, seed_key)
    if plaintext is None:
        raise Rejected("account_state_auth_failed", "the v0 tag does not verify")
    return 0, None, decode_state(plaintext)


# --- §11.6 slot keys ----------------------------------------------------------------------------

def slot_keys(account_id, device_id):
    """R11.6-1, R11.6-2: lowercase hex, account first."""
    a, d = account_id.hex(), device_id.hex()
    return {"slot": "self/%s/state/%s" % (a, d), "prefix": "self/%s/state/" % a,
            "grant_slot": "self/%s/keygrant/%s" % (a, d), "grant_prefix": "self/%s/keygrant/" % a}


# --- §11.7 epoch-key convergence ----------------------------------------------------------------

def receive_own_commit(keys, secret, my_epoch, commit):
    """R11.7-1 … R11.7-6. keys: {epoch: [primary, alts]}; returns (new, keys, secret, my_epoch)."""
    epoch, key = commit["epoch"], commit["epoch_key"]
    slot = keys.get(epoch)
    if slot is None:  # step 2
        keys[epoch] = [key, []]
        learned = True
    elif slot[0] == key:
        learned = False
    else:
        primary, loser = max(slot[0], key), min(slot[0], key)
        changed = primary != slot[0]
        added = loser not in slot[1]
        if added:
            if len(slot[1]) >= MAX_ALTERNATES:
                slot[1].pop(0)
            slot[1].append(loser)
        slot[0] = primary
        learned = changed or added
    c = commit["circle_secret"]  # step 3
    if c != ZERO32 and (secret == ZERO32 or secret < c):
        secret = c
    my_epoch = max(my_epoch, epoch)  # step 4
    for e in sorted(keys)[:-KEPT_EPOCHS]:  # step 5
        del keys[e]
    return learned and epoch in keys, keys, secret, my_epoch


# --- §11.8 ops ----------------------------------------------------------------------------------

def read_state(v, path="state"):
    """R11.8-1: records then cursors; each element completely, then compared with the earlier."""
    obj(v, path)
    records = {}
    for i, r in enumerate(array(member(v, "records", path), path + ".records")):
        p = "%s.records[%d]" % (path, i)
        obj(r, p)
        key = text(member(r, "key", p), p + ".key")
        ts = integer(member(r, "ts", p), p + ".ts", U64)
        device = hexbytes(member(r, "device", p), p + ".device", 32)
        value = member(r, "value", p)
        value = None if value is None else hexbytes(value, p + ".value")
        if key in records:
            raise Rejected("duplicate_key", "record key %r twice" % key)
        records[key] = (ts, device, value)
    cursors = {}
    for i, c in enumerate(array(member(v, "cursors", path), path + ".cursors")):
        p = "%s.cursors[%d]" % (path, i)
        obj(c, p)
        name = text(member(c, "name", p), p + ".name")
        ts = integer(member(c, "ts", p), p + ".ts", U64)
        if ts == 0:
            raise Rejected("input_bad_value", "%s: a cursor at 0" % p)
        if name in cursors:
            raise Rejected("duplicate_key", "cursor name %r twice" % name)
        cursors[name] = ts
    return {"records": records, "cursors": cursors}


def state_json(st):
    return {"records": [{"key": k, "ts": json_int(st["records"][k][0]), "device": st["records"][k][1].hex(),
                         "value": None if st["records"][k][2] is None else st["records"][k][2].hex()}
                        for k in sorted(st["records"], key=utf8_key)],
            "cursors": [{"name": n, "ts": json_int(st["cursors"][n])} for n in sorted(st["cursors"], key=utf8_key)]}


def h(inp, name, size=None):
    return hexbytes(member(inp, name), name, size)


def u64(inp, name):
    return integer(member(inp, name), name, U64)


def epoch_or_null(inp, name):
    v = member(inp, name)
    return None if v is None else integer(v, name, U64)


def op_set(inp):
    st = read_state(member(inp, "state"))
    key = text(member(inp, "key"), "key")
    value = h(inp, "value")
    register = (u64(inp, "ts"), h(inp, "device", 32), value)
    return {"applied": write(st, key, register), "state": state_json(st)}


def op_remove(inp):
    st = read_state(member(inp, "state"))
    key = text(member(inp, "key"), "key")
    register = (u64(inp, "ts"), h(inp, "device", 32), None)
    return {"applied": write(st, key, register), "state": state_json(st)}


def op_bump_cursor(inp):
    st = read_state(member(inp, "state"))
    name = text(member(inp, "name"), "name")
    return {"applied": bump_cursor(st, name, u64(inp, "ts")), "state": state_json(st)}


def op_seal(inp):
    st = read_state(member(inp, "state"))
    key, salt, nonce = h(inp, "key", 32), h(inp, "salt", 16), h(inp, "nonce", 12)
    return {"blob": seal(st, key, salt, nonce, epoch_or_null(inp, "epoch")).hex()}


def op_open(inp):
    blob = h(inp, "blob")
    sk = member(inp, "seed_key")
    seed_key = None if sk is None else hexbytes(sk, "seed_key", 32)
    accepted = {}
    for i, a in enumerate(array(member(inp, "accepted"), "accepted")):
        p = "accepted[%d]" % i
        obj(a, p)
        e = integer(member(a, "epoch", p), p + ".epoch", U64)
        k = hexbytes(member(a, "key", p), p + ".key", 32)
        if e in accepted:  # R11.8-2
            raise Rejected("duplicate_key", "epoch %d twice in accepted" % e)
        accepted[e] = k
    version, epoch, st = open_blob(blob, seed_key, accepted)
    return {"version": version, "epoch": None if epoch is None else json_int(epoch), "state": state_json(st)}


def op_receive_own_commit(inp):
    keys = {}
    for i, s in enumerate(array(member(inp, "keys"), "keys")):
        p = "keys[%d]" % i
        obj(s, p)
        e = integer(member(s, "epoch", p), p + ".epoch", U64)
        primary = hexbytes(member(s, "primary", p), p + ".primary", 32)
        alts = [hexbytes(x, "%s.alts[%d]" % (p, j), 32) for j, x in enumerate(array(member(s, "alts", p), p + ".alts"))]
        if e in keys:  # R11.8-2
            raise Rejected("duplicate_key", "epoch %d twice in keys" % e)
        keys[e] = [primary, alts]
    secret = h(inp, "circle_secret", 32)
    my_epoch = u64(inp, "my_epoch")
    c = obj(member(inp, "commit"), "commit")
    commit = {"epoch": integer(member(c, "epoch", "commit"), "commit.epoch", U64),
              "epoch_key": hexbytes(member(c, "epoch_key", "commit"), "commit.epoch_key", 32),
              "circle_secret": hexbytes(member(c, "circle_secret", "commit"), "commit.circle_secret", 32)}
    new, keys, secret, my_epoch = receive_own_commit(keys, secret, my_epoch, commit)
    return {"new": new, "keys": [{"epoch": json_int(e), "primary": keys[e][0].hex(), "alts": [a.hex() for a in keys[e][1]]}
                                 for e in sorted(keys)],
            "circle_secret": secret.hex(), "my_epoch": json_int(my_epoch)}


OPS = {"derive_key": lambda inp: {"self_sync_key": self_sync_key(h(inp, "seed", 32)).hex()},
       "subkey": lambda inp: {"subkey": subkey(h(inp, "key", 32), h(inp, "salt", 16)).hex()},
       "encode": lambda inp: {"plaintext": encode_state(read_state(member(inp, "state"))).hex()},
       "decode": lambda inp: {"state": state_json(decode_state(h(inp, "plaintext")))},
       "set": op_set, "remove": op_remove, "bump_cursor": op_bump_cursor,
       "merge": lambda inp: {"state": state_json(merge(read_state(member(inp, "local"), "local"),
                                                       read_state(member(inp, "remote"), "remote")))},
       "seal": op_seal, "peek_epoch": lambda inp: {"epoch": (lambda e: None if e is None else json_int(e))(
           peek_epoch(h(inp, "blob")))},
       "open": op_open, "slot_keys": lambda inp: slot_keys(h(inp, "account_id", 32), h(inp, "device_id", 32)),
       "receive_own_commit": op_receive_own_commit}


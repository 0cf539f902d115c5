"""DeviceCredential, the signed DeviceList (Haven) and Pixie's device advertisement (SPEC §10).
Raw little-endian layouts (R10-1), hybrid signatures verified in Haven's order (R10.1-6)."""
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import primitives
from .errors import Rejected
from .opinput import U64, array, boolean, hexbytes, integer, json_int, member, obj, text

IDENTITY_SALT = b"haven-identity-v1"
CRED_DOMAIN = b"haven-device-cred-v1"
LIST_DOMAIN = b"haven-device-list-v1"
RETIRED_DOMAIN = b"haven-device-list-acct-leaf-retired-v1"
RETIRED_SUFFIX = b"HVNLEAF1"
BUNDLE_LENGTH = 3200
HEX_DIGITS = set("0123456789abcdef")


# --- §10.1 identities, bundles, signatures ------------------------------------------------------

def sub(seed, info, length):
    """R10.1-1: HKDF-SHA256 under the identity salt."""
    return HKDF(algorithm=hashes.SHA256(), length=length, salt=IDENTITY_SALT, info=info).derive(seed)


def derive_identity(seed):
    """R10.1-1, R10.1-2: node id, both signing seeds and the 3,200-byte public bundle, whose X25519
    and ML-KEM-768 keys are real (the ML-KEM seed under this suite's own label, §10.1 Choice)."""
    ed_seed = sub(seed, b"ed25519", 32)
    pq_seed = sub(seed, b"ml-dsa-65", 32)
    node_id = primitives.ed25519_public_key(ed_seed)
    x25519_public = primitives.x25519_public_key(sub(seed, b"x25519", 32))
    mlkem_ek = primitives.mlkem768_public_key(sub(seed, b"pixie-vectors-ml-kem-768-seed", 64))
    bundle = node_id + x25519_public + mlkem_ek + primitives.mldsa65_public_key(pq_seed)
    return {"node_id": node_id, "ed25519_seed": ed_seed, "mldsa_seed": pq_seed, "bundle": bundle}


def sign(seed, message):
    """R10.1-5: the account's hybrid signature."""
    ident = derive_identity(seed)
    return primitives.hybrid_sign(ident["ed25519_seed"], ident["mldsa_seed"], message)


def reencode_mlkem(b):
    """R10.1-7: bytes 64-1247 re-encoded, each t̂ coefficient mod q, ρ kept; never refused."""
    return b[:64] + primitives.mlkem768_reencode(b[64:1248]) + b[1248:]


def parse_bundle(b):
    """R10.1-3, R10.1-7: 3,200 bytes whose first 32 decode as an Ed25519 point (§9.1); the parsed
    bundle is the one with its ML-KEM key re-encoded."""
    if len(b) != BUNDLE_LENGTH or not primitives.ed25519_is_point(b[:32]):
        raise Rejected("device_list_bad_bundle", "not a 3,200-byte bundle with an Ed25519 point")
    return reencode_mlkem(b)


def verify_signature(pinned, signature, message):
    """R10.1-6: Haven's HavenId::verify, stopping at the first failing half, Ed25519 first."""
    if len(signature) <= primitives.ED25519_SIGNATURE:
        raise Rejected("device_list_sig_wrong_length", "a signature of %d bytes" % len(signature))
    if not primitives.ed25519_verify(pinned[:32], signature[:64], message):
        raise Rejected("device_list_sig_ed25519_invalid", "the Ed25519 half fails")
    if len(signature) - 64 != primitives.MLDSA65_SIGNATURE:
        raise Rejected("device_list_sig_wrong_length", "an ML-DSA-65 half of %d bytes" % (len(signature) - 64))
    if not primitives.mldsa65_verify(pinned[1248:], signature[64:], message):
        raise Rejected("device_list_sig_mldsa_invalid", "the ML-DSA-65 half fails")


class _Reader:
    def __init__(self, b):
        self.b, self.i = b, 0

    def left(self):
        return len(self.b) - self.i

    def take(self, n):
        if self.left() < n:
            raise Rejected("device_list_truncated", "the input ends inside a field at byte %d" % self.i)
        out = self.b[self.i:self.i + n]
        self.i += n
        return out

    def u32(self):
        return int.from_bytes(self.take(4), "little")

    def u64(self):
        return int.from_bytes(self.take(8), "little")


# --- §10.2 DeviceCredential ---------------------------------------------------------------------

def credential_signing_bytes(account_id, created_at, name, bundle):
    """R10.2-1."""
    n = name.encode("utf-8")
    return CRED_DOMAIN + account_id + created_at.to_bytes(8, "little") + len(n).to_bytes(4, "little") + n + bundle


def credential_wire(account_id, created_at, name, bundle, signature):
    """R10.2-2."""
    n = name.encode("utf-8")
    return (account_id + created_at.to_bytes(8, "little") + len(n).to_bytes(4, "little") + n
            + len(bundle).to_bytes(4, "little") + bundle + signature)


def decode_credential(b):
    """R10.2-5 … R10.2-10, in byte order."""
    r = _Reader(b)
    account_id = r.take(32)
    created_at = r.u64()
    name_len = r.u32()
    if name_len > r.left():  # R10.2-7: before allocating
        raise Rejected("device_list_truncated", "name_len %d past the end" % name_len)
    try:
        name = r.take(name_len).decode("utf-8")
    except UnicodeDecodeError:
        raise Rejected("device_list_bad_name", "the name is not UTF-8")
    bundle_len = r.u32()
    if bundle_len > r.left():
        raise Rejected("device_list_truncated", "bundle_len %d past the end" % bundle_len)
    bundle = parse_bundle(r.take(bundle_len))
    signature = r.take(r.left())
    if not signature:
        raise Rejected("device_list_missing_signature", "nothing follows the bundle")
    return {"account_id": account_id, "created_at": created_at, "name": name, "device_bundle": bundle,
            "signature": signature}


def verify_credential(wire, pinned):
    """R10.2-11 … R10.2-13: the pinned bundle, then the wire, then the account, then the signature."""
    parse_bundle(pinned)
    cred = decode_credential(wire)
    if cred["account_id"] != pinned[:32]:
        raise Rejected("device_list_account_mismatch", "the credential names another account")
    verify_signature(pinned, cred["signature"], credential_signing_bytes(
        cred["account_id"], cred["created_at"], cred["name"], cred["device_bundle"]))
    return cred


# --- §10.3 DeviceList ---------------------------------------------------------------------------
# A list is {"account_id", "version", "updated_at", "devices", "revoked", "retired"}.

def list_signing_bytes(lst):
    """R10.3-1, R10.3-2: u64 counts; the retired domain only when retired."""
    out = [LIST_DOMAIN, lst["account_id"], lst["version"].to_bytes(8, "little"), lst["updated_at"].to_bytes(8, "little"),
           len(lst["devices"]).to_bytes(8, "little")] + lst["devices"] + [len(lst["revoked"]).to_bytes(8, "little")] \
        + lst["revoked"]
    if lst["retired"]:
        out.append(RETIRED_DOMAIN)
    return b"".join(out)


def list_wire(lst, signature):
    """R10.3-3: u32 counts; the HVNLEAF1 suffix only when retired."""
    out = [lst["account_id"], lst["version"].to_bytes(8, "little"), lst["updated_at"].to_bytes(8, "little"),
           len(lst["devices"]).to_bytes(4, "little")] + lst["devices"] + [len(lst["revoked"]).to_bytes(4, "little")] \
        + lst["revoked"] + [signature]
    if lst["retired"]:
        out.append(RETIRED_SUFFIX)
    return b"".join(out)


def decode_list(b):
    """R10.3-4 … R10.3-10: the suffix off the tail first, then the body in byte order."""
    retired = len(b) >= 8 and b[-8:] == RETIRED_SUFFIX
    r = _Reader(b[:-8] if retired else b)
    account_id = r.take(32)
    version = r.u64()
    updated_at = r.u64()
    ids = []
    for _ in range(2):
        n = r.u32()
        if n > r.left() // 32:  # R10.3-7: bounded before anything is allocated
            raise Rejected("device_list_truncated", "a count of %d past the end" % n)
        ids.append([r.take(32) for _ in range(n)])
    signature = r.take(r.left())
    if not signature:
        raise Rejected("device_list_missing_signature", "nothing follows the revoked ids")
    return {"account_id": account_id, "version": version, "updated_at": updated_at, "devices": ids[0],
            "revoked": ids[1], "retired": retired}, signature


def verify_list(wire, pinned):
    """R10.3-12 … R10.3-14."""
    parse_bundle(pinned)
    lst, signature = decode_list(wire)
    if lst["account_id"] != pinned[:32]:
        raise Rejected("device_list_account_mismatch", "the list names another account")
    verify_signature(pinned, signature, list_signing_bytes(lst))
    return lst


def is_authorized(lst, device_id):
    """R10.3-15."""
    return (device_id in lst["devices"] and device_id not in lst["revoked"]
            and not (lst["retired"] and device_id == lst["account_id"]))


def authorized_set(lst):
    """R10.3-16: deduplicated, ascending."""
    return sorted({d for d in lst["devices"] if is_authorized(lst, d)})


def adopt_if_newer(local, other):
    """R10.3-17."""
    if other["account_id"] == local["account_id"] and other["version"] > local["version"]:
        return True, other
    return False, local


# --- §10.4 account-side changes -----------------------------------------------------------------

def check_signer(seed, account_id):
    """R10.4-2: the seed must derive the list's account id."""
    ident = derive_identity(seed)
    if ident["node_id"] != account_id:
        raise Rejected("device_list_signer_mismatch", "the seed does not derive the list's account id")


def next_version(v):
    """R10.4-12."""
    if v + 1 > U64[1]:
        raise Rejected("device_list_version_exhausted", "a change would need version 2^64")
    return v + 1


def merge(local, remote, updated_at):
    """R10.4-3 … R10.4-9: the new list, or None for no change."""
    if remote["account_id"] != local["account_id"]:
        return None
    newer, older = (remote, local) if remote["version"] > local["version"] else (local, remote)
    revoked = []
    for r in local["revoked"] + remote["revoked"]:
        if r in revoked:
            continue
        reauthorized = (newer["version"] > older["version"] and r in older["revoked"]
                        and r not in newer["revoked"] and r in newer["devices"])
        if not reauthorized:
            revoked.append(r)
    devices = []
    for d in local["devices"] + remote["devices"]:
        if d not in devices and d not in revoked:
            devices.append(d)
    devices, revoked = sorted(devices), sorted(revoked)
    retired = local["retired"] or remote["retired"]
    if devices == sorted(local["devices"]) and revoked == sorted(local["revoked"]) and retired == local["retired"]:
        return None
    return {"account_id": local["account_id"], "version": next_version(max(local["version"], remote["version"])),
            "updated_at": updated_at, "devices": devices, "revoked": revoked, "retired": retired}


def with_self_added(lst, device_id, updated_at):
    """R10.4-10."""
    if device_id in lst["devices"] and device_id not in lst["revoked"]:
        return None
    devices = lst["devices"] + ([] if device_id in lst["devices"] else [device_id])
    return dict(lst, version=next_version(lst["version"]), updated_at=updated_at, devices=devices,
                revoked=[r for r in lst["revoked"] if r != device_id])


def with_account_leaf_retired(lst, updated_at):
    """R10.4-11."""
    if lst["retired"]:
        return None
    return dict(lst, version=next_version(lst["version"]), updated_at=updated_at, retired=True)


# --- §10.5 the contact side (Pixie) -------------------------------------------------------------

def advertise_csv(self_device, siblings):
    """R10.5-1, R10.5-2: lowercase hex, ascending, one comma between."""
    return ",".join(d.hex() for d in sorted(set(siblings) | {self_device}))


def decode_advertisement(csv):
    """R10.5-4 … R10.5-7."""
    if csv == "":
        raise Rejected("device_list_empty_advertisement", "the empty advertisement")
    out = set()
    for i, entry in enumerate(csv.split(",")):
        if len(entry) != 64 or not set(entry) <= HEX_DIGITS:
            raise Rejected("device_list_bad_advertisement", "entry %d is not 64 lowercase hex digits" % i)
        out.add(bytes.fromhex(entry))
    return sorted(out)


def contact_apply(primary, known, advertised):
    """R10.5-8 … R10.5-12; `known` is a list of (device, revoked)."""
    records = {}
    for device, revoked in known:
        if device in records:
            raise Rejected("duplicate_key", "two records for %s" % device.hex())
        records[device] = revoked
    if not advertised:
        raise Rejected("device_list_empty_advertisement", "no advertised device")
    adv = set(advertised)
    for d in adv:
        records[d] = False
    for d in list(records):
        if d not in adv and d != primary:
            records[d] = True
    return sorted(records.items())


def fanout_filter(fanout, chain):
    """R10.5-13, R10.5-14."""
    recipients = set(fanout)
    if chain is not None:
        recipients &= set(authorized_set(chain))
    return sorted(recipients)


# --- §10.6 ops ----------------------------------------------------------------------------------

def h(inp, name, size=None, path=None):
    return hexbytes(member(inp, name, path or ""), (path + "." if path else "") + name, size)


def u64(inp, name, path=None):
    return integer(member(inp, name, path or ""), (path + "." if path else "") + name, U64)


def ids(inp, name, path=None):
    p = (path + "." if path else "") + name
    return [hexbytes(x, "%s[%d]" % (p, i), 32) for i, x in enumerate(array(member(inp, name, path or ""), p))]


def read_list(v, path):
    """R10.6-1: a LIST's members in order."""
    obj(v, path)
    return {"account_id": h(v, "account_id", 32, path), "version": u64(v, "version", path),
            "updated_at": u64(v, "updated_at", path), "devices": ids(v, "devices", path),
            "revoked": ids(v, "revoked", path),
            "retired": boolean(member(v, "account_leaf_retired", path), path + ".account_leaf_retired")}


def list_json(lst):
    return {"account_id": lst["account_id"].hex(), "version": json_int(lst["version"]),
            "updated_at": json_int(lst["updated_at"]), "devices": [d.hex() for d in lst["devices"]],
            "revoked": [d.hex() for d in lst["revoked"]], "account_leaf_retired": lst["retired"]}


def change_json(seed, lst):
    """`as merge`: {changed: false} or the new list, its signature and wire."""
    if lst is None:
        return {"changed": False}
    signature = sign(seed, list_signing_bytes(lst))
    return {"changed": True, "list": list_json(lst), "signature": signature.hex(),
            "wire": list_wire(lst, signature).hex()}


def op_derive_identity(inp):
    ident = derive_identity(h(inp, "seed", 32))
    return {k: ident[k].hex() for k in ("node_id", "ed25519_seed", "mldsa_seed", "bundle")}


def op_credential_issue(inp):
    seed = h(inp, "account_seed", 32)
    bundle = h(inp, "device_bundle")
    name = text(member(inp, "name"), "name")
    created_at = u64(inp, "created_at")
    bundle = parse_bundle(bundle)  # R10.2-3: sign and write the re-encoded bundle
    account_id = derive_identity(seed)["node_id"]
    signing_bytes = credential_signing_bytes(account_id, created_at, name, bundle)
    signature = sign(seed, signing_bytes)
    return {"signing_bytes": signing_bytes.hex(), "signature": signature.hex(),
            "wire": credential_wire(account_id, created_at, name, bundle, signature).hex()}


def op_credential_decode(inp):
    c = decode_credential(h(inp, "wire"))
    return {"account_id": c["account_id"].hex(), "created_at": json_int(c["created_at"]), "name": c["name"],
            "device_bundle": c["device_bundle"].hex(), "device_id": c["device_bundle"][:32].hex(),
            "signature": c["signature"].hex()}


def op_credential_verify(inp):
    """R10.6-2: both members as hex, then the pinned bundle, then the wire."""
    wire, pinned = h(inp, "wire"), h(inp, "pinned")
    return {"verified": True, "device_id": verify_credential(wire, pinned)["device_bundle"][:32].hex()}


def op_list_sign(inp):
    seed = h(inp, "account_seed", 32)
    lst = {"version": u64(inp, "version"), "updated_at": u64(inp, "updated_at"), "devices": ids(inp, "devices"),
           "revoked": ids(inp, "revoked"),
           "retired": boolean(member(inp, "account_leaf_retired"), "account_leaf_retired")}
    lst["account_id"] = derive_identity(seed)["node_id"]
    signing_bytes = list_signing_bytes(lst)
    signature = sign(seed, signing_bytes)
    return {"signing_bytes": signing_bytes.hex(), "signature": signature.hex(), "wire": list_wire(lst, signature).hex()}


def op_list_decode(inp):
    lst, signature = decode_list(h(inp, "wire"))
    out = list_json(lst)
    out["signature"] = signature.hex()
    return out


def op_list_verify(inp):
    wire, pinned = h(inp, "wire"), h(inp, "pinned")
    lst = verify_list(wire, pinned)
    return {"verified": True, "version": json_int(lst["version"]), "account_leaf_retired": lst["retired"],
            "authorized": [d.hex() for d in authorized_set(lst)]}


def op_is_authorized(inp):
    lst = read_list(member(inp, "list"), "list")
    return {"authorized": is_authorized(lst, h(inp, "device_id", 32))}


def op_adopt_if_newer(inp):
    local = read_list(member(inp, "local"), "local")
    other = read_list(member(inp, "other"), "other")
    adopted, lst = adopt_if_newer(local, other)
    return {"adopted": adopted, "list": list_json(lst)}


def op_merge(inp):
    seed = h(inp, "account_seed", 32)
    local = read_list(member(inp, "local"), "local")
    remote = read_list(member(inp, "remote"), "remote")
    updated_at = u64(inp, "updated_at")
    check_signer(seed, local["account_id"])
    return change_json(seed, merge(local, remote, updated_at))


def op_with_self_added(inp):
    seed = h(inp, "account_seed", 32)
    lst = read_list(member(inp, "list"), "list")
    device_id = h(inp, "device_id", 32)
    updated_at = u64(inp, "updated_at")
    check_signer(seed, lst["account_id"])
    return change_json(seed, with_self_added(lst, device_id, updated_at))


def op_with_account_leaf_retired(inp):
    seed = h(inp, "account_seed", 32)
    lst = read_list(member(inp, "list"), "list")
    updated_at = u64(inp, "updated_at")
    check_signer(seed, lst["account_id"])
    return change_json(seed, with_account_leaf_retired(lst, updated_at))


def op_advertise(inp):
    self_device = h(inp, "self_device", 32)
    siblings = ids(inp, "siblings")
    cached = member(inp, "cached")
    if cached is not None:
        cached = text(cached, "cached")
    csv = advertise_csv(self_device, siblings)
    return {"csv": csv, "push": cached is None or cached.encode("utf-8") != csv.encode("utf-8")}


def op_advertisement_decode(inp):
    return {"advertised": [d.hex() for d in decode_advertisement(text(member(inp, "csv"), "csv"))]}


def op_contact_apply(inp):
    primary = h(inp, "primary", 32)
    known = []
    for i, k in enumerate(array(member(inp, "known"), "known")):
        p = "known[%d]" % i
        obj(k, p)
        known.append((h(k, "device", 32, p), boolean(member(k, "revoked", p), p + ".revoked")))
    advertised = ids(inp, "advertised")
    records = contact_apply(primary, known, advertised)
    return {"known": [{"device": d.hex(), "revoked": r} for d, r in records],
            "fanout": [d.hex() for d, r in records if not r]}


def op_fanout_filter(inp):
    fanout = ids(inp, "fanout")
    c = member(inp, "chain")
    chain = None if c is None else read_list(c, "chain")
    return {"recipients": [d.hex() for d in fanout_filter(fanout, chain)]}


OPS = {"derive_identity": op_derive_identity, "credential_issue": op_credential_issue,
       "credential_decode": op_credential_decode, "credential_verify": op_credential_verify,
       "list_sign": op_list_sign, "list_decode": op_list_decode, "list_verify": op_list_verify,
       "is_authorized": op_is_authorized, "adopt_if_newer": op_adopt_if_newer, "merge": op_merge,
       "with_self_added": op_with_self_added, "with_account_leaf_retired": op_with_account_leaf_retired,
       "advertise": op_advertise, "advertisement_decode": op_advertisement_decode,
       "contact_apply": op_contact_apply, "fanout_filter": op_fanout_filter}

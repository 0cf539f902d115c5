"""The envelope layer (SPEC §14): the HPKE seal with X-Wing, the DiscoveryBox, sealed sign-in,
the sibling channel key, SenderCert, the sealed-sender envelope and the sealed §7 handlers."""
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import constant_time, hashes, hmac
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF, HKDFExpand

from . import cbor, primitives, signin, sync_offer
from .cbor_message import check_fields, check_member, decode_message, encode_message
from .errors import Rejected
from .opinput import U64, array, hexbytes, integer, json_int, member, obj, text

SUITE_ID = b"HPKE" + bytes.fromhex("647a") + bytes.fromhex("0001") + bytes.fromhex("0002")
ENC_FIELD = bytes.fromhex("0460")  # u16be(1120)
TAG = 16
BOX_KIND, ENVELOPE_KIND = 0x01, 0x02
BOX_INFO = b"pixie-discovery-box-v1\x00"
SEALED_SENDER_INFO = b"pixie-sealed-sender-v1"
CHANNEL_INFO = b"pixie-sibling-channel-key-v1"
MAC_DOMAIN = b"pixie-inner-mac-v1\x00"
CERT_DOMAIN = b"pixie-sender-cert-v1\x00"
DIRECTIONS = ("request", "reply")
WAKE_BYTES = {"silent": 0x00, "sync": 0x01}
P = "envelope"

SENDER_CERT = [("user_id_hash", ("bstr", 32)), ("device_id", ("bstr", 32)), ("expires_at_s", ("uint",)),
               ("sig", ("bstr", primitives.HYBRID_SIGNATURE))]
INNER = [("payload_type", ("text", 1, 64)), ("payload", ("bstr", None)), ("sender_cert", ("bstr", None)),
         ("mac", ("bstr", 32))]


# --- §14.2 the seal -----------------------------------------------------------------------------

def labeled_extract(salt, label, ikm):
    h = hmac.HMAC(salt or bytes(32), hashes.SHA256())
    h.update(b"HPKE-v1" + SUITE_ID + label + ikm)
    return h.finalize()


def labeled_expand(prk, label, info, length):
    return HKDFExpand(hashes.SHA256(), length, length.to_bytes(2, "big") + b"HPKE-v1" + SUITE_ID + label + info
                      ).derive(prk)


def key_schedule(shared_secret, info):
    """R14.2-1: RFC 9180 base mode, single shot: (key, base nonce)."""
    context = b"\x00" + labeled_extract(b"", b"psk_id_hash", b"") + labeled_extract(b"", b"info_hash", info)
    secret = labeled_extract(shared_secret, b"secret", b"")
    return labeled_expand(secret, b"key", context, 32), labeled_expand(secret, b"base_nonce", context, 12)


def seal(pk, eseed, info, aad, plaintext):
    """R14.2-1, R14.2-4: the recipient key's modulus check, then SealBase."""
    if not primitives.mlkem768_modulus_ok(pk[:primitives.MLKEM768_EK]):
        raise Rejected("envelope_bad_recipient_key", "the ML-KEM part fails the FIPS 203 modulus check")
    shared_secret, enc = primitives.xwing_encapsulate_derand(pk, eseed)
    key, nonce = key_schedule(shared_secret, info)
    return {"kem_ciphertext": enc, "shared_secret": shared_secret, "key": key, "nonce": nonce,
            "sealed": AESGCM(key).encrypt(nonce, plaintext, aad)}


def open_sealed(seed, enc, info, aad, sealed):
    """R14.2-2, R14.2-3: decapsulation always yields a key; a bad tag releases nothing."""
    key, nonce = key_schedule(primitives.xwing_decapsulate(seed, enc), info)
    try:
        return AESGCM(key).decrypt(nonce, sealed, aad)
    except InvalidTag:
        raise Rejected("envelope_open_failed", "the AES-256-GCM tag does not verify")


# --- §14.3 DiscoveryBox -------------------------------------------------------------------------

def box_info(direction):
    return BOX_INFO + direction.encode("ascii")


def box_seal(pk, direction, plaintext, eseed):
    """R14.3-1, R14.3-2."""
    header = bytes([BOX_KIND]) + ENC_FIELD
    s = seal(pk, eseed, box_info(direction), header, plaintext)
    s["box"] = header + s["kem_ciphertext"] + s["sealed"]
    return s


def box_open(seed, direction, box):
    """R14.3-3 … R14.3-5, in byte order."""
    if len(box) < 1:
        raise Rejected("envelope_truncated", "no byte at all")
    if box[0] != BOX_KIND:
        raise Rejected("envelope_wrong_kind", "kind %02x is not a box" % box[0])
    if len(box) < 3:
        raise Rejected("envelope_truncated", "no length field")
    if box[1:3] != ENC_FIELD:
        raise Rejected("envelope_kem_ciphertext_length", "enc length field %s" % box[1:3].hex())
    if len(box) < 3 + primitives.XWING_CT + TAG:
        raise Rejected("envelope_truncated", "shorter than 1,139 bytes")
    return open_sealed(seed, box[3:3 + primitives.XWING_CT], box_info(direction), box[:3], box[3 + primitives.XWING_CT:])


# --- §14.5 channel keys -------------------------------------------------------------------------

def sibling_channel_key(account_seed):
    """R14.5-1."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=CHANNEL_INFO).derive(account_seed)


def resolve(other, own, account_seed, contacts):
    """R14.5-2 … R14.5-4: (channel, key), fail-closed."""
    if sync_offer.is_same_account(own, other):
        if account_seed is None:
            raise Rejected("envelope_no_channel_key", "a sibling, and no account seed is held")
        return "sibling", sibling_channel_key(account_seed)
    if other in contacts:
        return "contact", contacts[other]
    raise Rejected("envelope_unknown_account", "neither this account nor a contact")


# --- §14.6 SenderCert ---------------------------------------------------------------------------

def cert_signed_message(c):
    """R14.6-2."""
    return CERT_DOMAIN + cbor.encode({k: c[k] for k in ("user_id_hash", "device_id", "expires_at_s")})


def decode_sender_cert(b):
    """R14.6-4."""
    return decode_message(b, SENDER_CERT, None, P, "sender_cert")


def verify_sender_cert(b, credential_key, now):
    """R14.6-5 … R14.6-7."""
    try:
        c = decode_sender_cert(b)
    except Rejected as e:
        raise Rejected("envelope_sender_cert_malformed", "the SenderCert does not decode: %s" % e.code)
    ed_ok, pq_ok = primitives.hybrid_verify(credential_key, c["sig"], cert_signed_message(c))
    if not ed_ok and not pq_ok:
        raise Rejected("envelope_sender_cert_both_invalid", "both halves fail")
    if not ed_ok:
        raise Rejected("envelope_sender_cert_ed25519_invalid", "the Ed25519 half fails")
    if not pq_ok:
        raise Rejected("envelope_sender_cert_mldsa_invalid", "the ML-DSA-65 half fails")
    if not now < c["expires_at_s"]:
        raise Rejected("envelope_sender_cert_expired", "expired at %d" % c["expires_at_s"])
    return c


# --- §14.7 the sealed-sender envelope -----------------------------------------------------------

def mac_input(payload_type, payload, sender_cert):
    """R14.7-2."""
    return MAC_DOMAIN + cbor.encode({"payload_type": payload_type, "payload": payload, "sender_cert": sender_cert})


def hmac_sha256(key, data):
    h = hmac.HMAC(key, hashes.SHA256())
    h.update(data)
    return h.finalize()


def envelope_seal(pk, recipient_hash, payload_type, payload, sender_cert, own, account_seed, contacts, eseed):
    """R14.7-3: resolve, payload_type, wake, MAC, then the seal."""
    channel, key = resolve(recipient_hash, own, account_seed, contacts)
    n = len(payload_type.encode("utf-8"))
    if not 1 <= n <= 64:
        raise Rejected("envelope_bad_length", "payload_type of %d UTF-8 bytes" % n)
    wake = sync_offer.wake_class(payload_type)
    mac = hmac_sha256(key, mac_input(payload_type, payload, sender_cert))
    inner = cbor.encode({"payload_type": payload_type, "payload": payload, "sender_cert": sender_cert, "mac": mac})
    header = bytes([ENVELOPE_KIND, WAKE_BYTES[wake]]) + ENC_FIELD
    s = seal(pk, eseed, SEALED_SENDER_INFO, header, inner)
    s.update({"wake": wake, "channel": channel, "channel_key": key, "mac": mac, "inner": inner,
              "envelope": header + s["kem_ciphertext"] + s["sealed"]})
    return s


def decode_inner(b):
    """R14.7-6: §1; a map; names; members 1–3; then the MAC with its own missing code."""
    m = cbor.decode(b)
    fields = check_fields(m, INNER, None, P, "inner", members={"payload_type", "payload", "sender_cert"})
    if "mac" not in m:
        raise Rejected("envelope_mac_missing", "the inner plaintext carries no mac")
    fields["mac"] = check_member(m["mac"], ("bstr", 32), P, "inner.mac")
    return fields


def envelope_open(rx):
    """R14.7-4 … R14.7-8 in order; rx holds the RECEIVE members."""
    e = rx["envelope"]
    if len(e) < 1:
        raise Rejected("envelope_truncated", "no byte at all")
    if e[0] != ENVELOPE_KIND:
        raise Rejected("envelope_wrong_kind", "kind %02x is not an envelope" % e[0])
    if len(e) < 2:
        raise Rejected("envelope_truncated", "no wake byte")
    if e[1] not in WAKE_BYTES.values():
        raise Rejected("envelope_bad_wake_class", "wake byte %02x" % e[1])
    if len(e) < 4:
        raise Rejected("envelope_truncated", "no length field")
    if e[2:4] != ENC_FIELD:
        raise Rejected("envelope_kem_ciphertext_length", "enc length field %s" % e[2:4].hex())
    if len(e) < 4 + primitives.XWING_CT + TAG:
        raise Rejected("envelope_truncated", "shorter than 1,140 bytes")
    inner = decode_inner(open_sealed(rx["recipient_seed"], e[4:4 + primitives.XWING_CT], SEALED_SENDER_INFO,
                                     e[:4], e[4 + primitives.XWING_CT:]))
    cert = verify_sender_cert(inner["sender_cert"], rx["credential_key"], rx["now_s"])
    channel, key = resolve(cert["user_id_hash"], rx["own"], rx["account_seed"], rx["contacts"])
    expected = hmac_sha256(key, mac_input(inner["payload_type"], inner["payload"], inner["sender_cert"]))
    if not constant_time.bytes_eq(expected, inner["mac"]):
        raise Rejected("envelope_mac_invalid", "the MAC does not verify")
    wake = sync_offer.wake_class(inner["payload_type"])
    if e[1] != WAKE_BYTES[wake]:
        raise Rejected("envelope_wrong_wake_class", "the wake byte is not the class of %r" % inner["payload_type"])
    return {"cert": cert, "channel": channel, "payload_type": inner["payload_type"], "payload": inner["payload"],
            "wake": wake}


def sender_json(c):
    return {"user_id_hash": c["user_id_hash"].hex(), "device_id": c["device_id"].hex(),
            "expires_at_s": json_int(c["expires_at_s"])}


# --- §14.10 ops ---------------------------------------------------------------------------------

def h(inp, name, size=None, path=""):
    return hexbytes(member(inp, name, path), (path + "." if path else "") + name, size)


def h_or_null(inp, name, size=None):
    v = member(inp, name)
    return None if v is None else hexbytes(v, name, size)


def direction(inp):
    d = text(member(inp, "direction"), "direction")
    if d not in DIRECTIONS:
        raise Rejected("input_bad_value", "direction %r" % d)
    return d


def read_contacts(inp):
    """R14.10-2: contacts? of {user_id_hash, channel_key}; a hash twice is duplicate_key."""
    out = {}
    if "contacts" not in inp:
        return out
    for i, c in enumerate(array(inp["contacts"], "contacts")):
        p = "contacts[%d]" % i
        obj(c, p)
        uid, key = h(c, "user_id_hash", 32, p), h(c, "channel_key", 32, p)
        if uid in out:
            raise Rejected("duplicate_key", "contact %s twice" % uid.hex())
        out[uid] = key
    return out


def read_receive(inp):
    """RECEIVE, in table order."""
    return {"envelope": h(inp, "envelope"), "recipient_seed": h(inp, "recipient_seed", 32),
            "credential_key": h(inp, "credential_key", 1984),
            "now_s": integer(member(inp, "now_s"), "now_s", U64), "own": h_or_null(inp, "own_user_id_hash"),
            "account_seed": h_or_null(inp, "account_seed", 32), "contacts": read_contacts(inp)}


def seal_json(s, with_box=True):
    out = {k: s[k].hex() for k in ("kem_ciphertext", "shared_secret", "key", "nonce")}
    if with_box:
        out["box"] = s["box"].hex()
    return out


def op_box_seal(inp):
    pk, d = h(inp, "recipient_pubkey", primitives.XWING_PUBLIC), direction(inp)
    plaintext, eseed = h(inp, "plaintext"), h(inp, "eseed", 64)
    return seal_json(box_seal(pk, d, plaintext, eseed))


def op_box_open(inp):
    seed, d, box = h(inp, "recipient_seed", 32), direction(inp), h(inp, "box")
    return {"plaintext": box_open(seed, d, box).hex()}


def read_request(v):
    obj(v, "request")
    return {"device_model": text(member(v, "device_model", "request"), "request.device_model"),
            "reply_subject": h(v, "reply_subject", None, "request"), "xwing_pubkey": h(v, "xwing_pubkey", None, "request"),
            "timestamp_s": integer(member(v, "timestamp_s", "request"), "request.timestamp_s", U64),
            "cert": h(v, "cert", None, "request")}


def op_signin_request_seal(inp):
    """R14.4-1, R14.10-3: §8's rules after every member is read, then the seal."""
    pk = h(inp, "discovery_pubkey", primitives.XWING_PUBLIC)
    request = read_request(member(inp, "request"))
    eseed = h(inp, "eseed", 64)
    encoded = signin.checked_encoding(request, signin.REQUEST, "signin_request", "signin_request")
    return {"encoded": encoded.hex(), "box": box_seal(pk, "request", encoded, eseed)["box"].hex()}


def op_signin_request_open(inp):
    """R14.4-2: the box opens, then the ladder decides."""
    box, seed = h(inp, "box"), h(inp, "discovery_seed", 32)
    pinned = signin.key_or_null(inp, "pinned_key")
    own = signin.bytes_or_null(inp, "own_cert")
    now = integer(member(inp, "now_s"), "now_s", U64)
    request_bytes = box_open(seed, "request", box)
    return signin.op_ladder({"request": request_bytes.hex(), "pinned_key": None if pinned is None else pinned.hex(),
                             "own_cert": None if own is None else own.hex(), "now_s": now})


def op_signin_ack_seal(inp):
    pk = h(inp, "requester_pubkey", primitives.XWING_PUBLIC)
    family = text(member(inp, "device_family"), "device_family")
    eseed = h(inp, "eseed", 64)
    encoded = signin.checked_encoding({"device_family": family}, signin.ACK, "signin_ack", "signin_ack")
    return {"encoded": encoded.hex(), "box": box_seal(pk, "reply", encoded, eseed)["box"].hex()}


def op_signin_approval_seal(inp):
    pk = h(inp, "requester_pubkey", primitives.XWING_PUBLIC)
    g = member(inp, "grant")
    grant = None if g is None else signin.read_grant(g)
    seed = signin.bytes_or_null(inp, "account_seed")
    kt = signin.bytes_or_null(inp, "kt_handle")
    eseed = h(inp, "eseed", 64)
    given = [x is not None for x in (grant, seed, kt)]
    if any(given) and not all(given):
        raise Rejected("signin_approval_partial", "an approval carries all three or none")
    fields = {} if grant is None else {"grant": grant, "account_seed": seed, "kt_handle": kt}
    encoded = encode_message(fields, "signin_approval")
    signin.decode_approval(encoded)
    return {"encoded": encoded.hex(), "box": box_seal(pk, "reply", encoded, eseed)["box"].hex()}


def op_signin_reply_open(inp):
    """R14.4-4, R14.4-5: an ack when the plaintext is a map typed signin_ack, else an approval."""
    box, seed = h(inp, "box"), h(inp, "requester_seed", 32)
    now = integer(member(inp, "now_s"), "now_s", U64)
    plaintext = box_open(seed, "reply", box)
    try:
        item = cbor.decode(plaintext)
    except Rejected:
        item = None
    if isinstance(item, dict) and item.get("type") == "signin_ack":
        ack = decode_message(plaintext, signin.ACK, "signin_ack", signin.P, "signin_ack")
        return {"type": "signin_ack", "device_family": ack["device_family"]}
    approval = signin.decode_approval(plaintext)
    ok, reason = signin.admits(approval, now)
    if not ok:
        return {"type": "signin_approval", "admits": False, "reason": reason, "account_seed": None,
                "kt_handle": None, "channel_key": None}
    return {"type": "signin_approval", "admits": True, "reason": None, "account_seed": approval["account_seed"].hex(),
            "kt_handle": approval["kt_handle"].hex(),
            "channel_key": sibling_channel_key(approval["account_seed"]).hex()}


def op_sender_cert_issue(inp):
    signer = obj(member(inp, "signer"), "signer")
    ed_seed = h(signer, "ed25519_seed", 32, "signer")
    pq_seed = h(signer, "mldsa_seed", 32, "signer")
    c = {"user_id_hash": h(inp, "user_id_hash", 32), "device_id": h(inp, "device_id", 32),
         "expires_at_s": integer(member(inp, "expires_at_s"), "expires_at_s", U64)}
    message = cert_signed_message(c)
    c["sig"] = primitives.hybrid_sign(ed_seed, pq_seed, message)
    public = primitives.ed25519_public_key(ed_seed) + primitives.mldsa65_public_key(pq_seed)
    return {"public_key": public.hex(), "signed_message": message.hex(), "cert": cbor.encode(c).hex()}


def op_sender_cert_decode(inp):
    c = decode_sender_cert(h(inp, "cert"))
    out = sender_json(c)
    out["sig"] = c["sig"].hex()
    return out


def op_sender_cert_verify(inp):
    cert, key = h(inp, "cert"), h(inp, "credential_key", 1984)
    now = integer(member(inp, "now_s"), "now_s", U64)
    return sender_json(verify_sender_cert(cert, key, now))


def op_envelope_seal(inp):
    pk = h(inp, "recipient_pubkey", primitives.XWING_PUBLIC)
    recipient = h(inp, "recipient_user_id_hash")
    payload_type = text(member(inp, "payload_type"), "payload_type")
    payload, cert = h(inp, "payload"), h(inp, "sender_cert")
    own, seed = h_or_null(inp, "own_user_id_hash"), h_or_null(inp, "account_seed", 32)
    contacts = read_contacts(inp)
    eseed = h(inp, "eseed", 64)
    s = envelope_seal(pk, recipient, payload_type, payload, cert, own, seed, contacts, eseed)
    out = {"wake": s["wake"], "channel": s["channel"]}
    out.update({k: s[k].hex() for k in ("channel_key", "mac", "inner", "kem_ciphertext", "shared_secret", "key",
                                         "nonce", "envelope")})
    return out


def op_envelope_open(inp):
    o = envelope_open(read_receive(inp))
    return {"sender": sender_json(o["cert"]), "channel": o["channel"], "payload_type": o["payload_type"],
            "payload": o["payload"].hex(), "wake": o["wake"]}


def handled(rx, payload_type):
    """R14.9-1: open, then the payload type this handler takes."""
    o = envelope_open(rx)
    if o["payload_type"] != payload_type:
        raise Rejected("envelope_unexpected_payload_type", "a %r envelope" % o["payload_type"])
    return o


def op_sync_request_receive(inp):
    """R14.9-2."""
    rx = read_receive(inp)
    o = handled(rx, "sync_request")
    out = {"sender": sender_json(o["cert"])}
    if not sync_offer.is_same_account(rx["own"], o["cert"]["user_id_hash"]):
        out.update({"result": "dropped", "reason": "sync_not_same_account", "request": None})
        return out
    fields = sync_offer.decode_payload("sync_request", o["payload"])
    out.update({"result": "accepted", "reason": None, "request": sync_offer.payload_json("sync_request", fields)})
    return out


def op_sync_offer_receive(inp):
    """R14.9-3."""
    rx = read_receive(inp)
    request_id = h(inp, "request_id", 16)
    blob = h(inp, "blob")
    cap = integer(inp["max_blob_bytes"], "max_blob_bytes", U64) if "max_blob_bytes" in inp else sync_offer.MAX_BLOB_BYTES
    o = handled(rx, "sync_offer")
    result, reason, snapshot = sync_offer.receive(o["payload"], request_id, blob, rx["own"], o["cert"]["user_id_hash"], cap)
    ack = None
    if result != "dropped":
        ack = sync_offer.encode_payload("sync_ack", {"request_id": request_id, "ok": result == "accepted"}).hex()
    return {"sender": sender_json(o["cert"]), "result": result, "reason": reason, "ack": ack,
            "snapshot": None if snapshot is None else sync_offer.snapshot_json(snapshot)}


def op_sync_ack_receive(inp):
    """R14.9-4: decoded, informational, no gate."""
    o = handled(read_receive(inp), "sync_ack")
    return {"sender": sender_json(o["cert"]),
            "ack": sync_offer.payload_json("sync_ack", sync_offer.decode_payload("sync_ack", o["payload"]))}


OPS = {"channel_key": lambda inp: {"channel_key": sibling_channel_key(h(inp, "account_seed", 32)).hex()},
       "box_seal": op_box_seal, "box_open": op_box_open, "signin_request_seal": op_signin_request_seal,
       "signin_request_open": op_signin_request_open, "signin_ack_seal": op_signin_ack_seal,
       "signin_approval_seal": op_signin_approval_seal, "signin_reply_open": op_signin_reply_open,
       "sender_cert_issue": op_sender_cert_issue, "sender_cert_decode": op_sender_cert_decode,
       "sender_cert_verify": op_sender_cert_verify, "envelope_seal": op_envelope_seal,
       "envelope_open": op_envelope_open, "sync_request_receive": op_sync_request_receive,
       "sync_offer_receive": op_sync_offer_receive, "sync_ack_receive": op_sync_ack_receive}

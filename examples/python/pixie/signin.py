"""Sign-in (SPEC §8): PhoneOwnershipCert, the discovery lookup, signin_request, the guard
ladder, signin_ack, signin_approval and its grant."""
import hashlib
import re

from . import cbor, primitives
from .cbor_message import check_fields, check_map, check_names, check_tag, decode_message, encode_message
from .errors import Rejected
from .opinput import U64, hexbytes, integer, json_int, member, obj, text

P = "signin"
CERT_DOMAIN = b"pixie-phone-ownership-cert-v1\x00"   # R8.1-6
PHONE_ID_DOMAIN = b"pixie-phone-id-v1\x00"           # R8.1-1
E164 = re.compile(r"\+[1-9][0-9]{0,14}")              # R8.1-2 (ASCII digits only)
PINNED_KEY_LENGTH = 32 + 1952                          # R8.1-3
WINDOW_S = 120                                         # R8.6-7

# Member tables in check order (§8.1, §8.3, §8.4, §8.7, §8.8).
CERT = [("phone_id", ("bstr", 32)), ("issued_at_s", ("uint",)), ("expires_at_s", ("uint",)),
        ("sig", ("bstr", primitives.HYBRID_SIGNATURE))]
LOOKUP = [("discovery_inbox", ("bstr", 32)), ("discovery_xwing_pubkey", ("bstr", 1216))]
REQUEST = [("device_model", ("text", 1, 64)), ("reply_subject", ("bstr", 32)), ("xwing_pubkey", ("bstr", 1216)),
           ("timestamp_s", ("uint",)), ("cert", ("bstr", None))]
ACK = [("device_family", ("text", 1, 32))]
GRANT = [("token", ("bstr", 32)), ("expires_at_s", ("uint",))]
APPROVAL = [("grant", ("map", GRANT)), ("account_seed", ("bstr", 32)), ("kt_handle", ("bstr", 32))]


# --- §8.1 the certificate -----------------------------------------------------------------------

def phone_id(e164):
    """R8.1-1, R8.1-2."""
    if not E164.fullmatch(e164):
        raise Rejected("input_bad_value", "%r is not an E.164 number" % e164)
    return hashlib.sha256(PHONE_ID_DOMAIN + e164.encode("ascii")).digest()


def signed_message(cert):
    """R8.1-6: the domain, a zero byte, the CBOR of the three other members."""
    return CERT_DOMAIN + cbor.encode({k: cert[k] for k in ("phone_id", "issued_at_s", "expires_at_s")})


def decode_cert(b):
    """§8.1 under §8.2 (untagged)."""
    return decode_message(b, CERT, None, P, "cert")


def verify_cert(cert_bytes, pinned_key, now):
    """§8.5 steps 1–4 in order (R8.5-5)."""
    if pinned_key is None:  # step 1, before any byte of the certificate is read
        raise Rejected("signin_no_pinned_key", "no phone-verify key is pinned")
    try:  # step 2
        cert = decode_cert(cert_bytes)
    except Rejected as e:
        raise Rejected("signin_cert_malformed", "the certificate does not decode: %s" % e.code)
    ed_ok, pq_ok = primitives.hybrid_verify(pinned_key, cert["sig"], signed_message(cert))  # step 3, both
    if not ed_ok and not pq_ok:
        raise Rejected("signin_cert_both_invalid", "both halves fail")
    if not ed_ok:
        raise Rejected("signin_cert_ed25519_invalid", "the Ed25519 half fails")
    if not pq_ok:
        raise Rejected("signin_cert_mldsa_invalid", "the ML-DSA-65 half fails")
    if not now < cert["expires_at_s"]:  # step 4, exclusive
        raise Rejected("signin_cert_expired", "expired at %d" % cert["expires_at_s"])
    return cert


# --- §8.6 the ladder ----------------------------------------------------------------------------

def ladder(request_bytes, pinned_key, own_cert_bytes, now):
    """R8.6-1: rungs 1–5 in order; ("accept", request, cert) or ("drop", rung, reason)."""
    try:  # rung 1
        request = decode_message(request_bytes, REQUEST, "signin_request", P, "signin_request")
    except Rejected as e:
        return "drop", 1, e.code
    try:  # rung 2
        cert = verify_cert(request["cert"], pinned_key, now)
    except Rejected as e:
        return "drop", 2, e.code
    if own_cert_bytes is None:  # rung 3: presence, then decoding only (R8.6-8)
        return "drop", 3, "signin_no_own_cert"
    try:
        own = decode_cert(own_cert_bytes)
    except Rejected:
        return "drop", 3, "signin_own_cert_malformed"
    if cert["phone_id"] != own["phone_id"]:  # rung 4
        return "drop", 4, "signin_phone_id_mismatch"
    ts = request["timestamp_s"]  # rung 5: compared before subtracting (R8.6-7)
    if now > ts and now - ts > WINDOW_S:
        return "drop", 5, "signin_timestamp_too_old"
    if ts > now and ts - now > WINDOW_S:
        return "drop", 5, "signin_timestamp_too_new"
    return "accept", request, cert


# --- §8.8 the approval --------------------------------------------------------------------------

def decode_approval(b):
    """§8.2 steps 1–4, then the all-or-none count (R8.8-2), then members 1–3 (R8.8-5)."""
    m = check_map(cbor.decode(b), P, "signin_approval")
    check_tag(m, "signin_approval", P)
    check_names(m, APPROVAL, "signin_approval", P, "signin_approval")
    present = [name for name, _ in APPROVAL if name in m]  # present whatever the value (R8.8-3)
    if len(present) not in (0, len(APPROVAL)):
        raise Rejected("signin_approval_partial", "an approval with %s only" % ", ".join(present))
    if not present:
        return None
    return check_fields(m, APPROVAL, "signin_approval", P, "signin_approval")


def admits(approval, now):
    """R8.8-7, R8.8-8: (admits, reason)."""
    if approval is None:
        return False, "signin_approval_rejected"
    if now >= approval["grant"]["expires_at_s"]:
        return False, "signin_grant_expired"
    return True, None


# --- §8.9 ops -----------------------------------------------------------------------------------

def time_s(inp, name):
    return integer(member(inp, name), name, U64)


def hex_member(inp, name, size=None):
    return hexbytes(member(inp, name), name, size)


def key_or_null(inp, name):
    """`pinned_key or null`: present; null is none; else 1,984 bytes (R8.9-8)."""
    v = member(inp, name)
    return None if v is None else hexbytes(v, name, PINNED_KEY_LENGTH)


def bytes_or_null(inp, name):
    v = member(inp, name)
    return None if v is None else hexbytes(v, name)


def checked_encoding(fields, table, tag, what):
    """R8.9-2: an encoder refuses what the decoder would, with the decoder's code."""
    encoded = encode_message(fields, tag)
    decode_message(encoded, table, tag, P, what)
    return encoded


def cert_json(cert, with_sig=True):
    out = {"phone_id": cert["phone_id"].hex(), "issued_at_s": json_int(cert["issued_at_s"]),
           "expires_at_s": json_int(cert["expires_at_s"])}
    if with_sig:
        out["sig"] = cert["sig"].hex()
    return out


def op_phone_id(inp):
    return {"phone_id": phone_id(text(member(inp, "e164"), "e164")).hex()}


def op_cert_issue(inp):
    """R8.9-7: seeds of 32 bytes; every input read before the message rules (R8.9-3)."""
    signer = obj(member(inp, "signer"), "signer")
    ed_seed = hexbytes(member(signer, "ed25519_seed", "signer"), "signer.ed25519_seed", 32)
    pq_seed = hexbytes(member(signer, "mldsa_seed", "signer"), "signer.mldsa_seed", 32)
    cert = {"phone_id": hex_member(inp, "phone_id"), "issued_at_s": time_s(inp, "issued_at_s"),
            "expires_at_s": time_s(inp, "expires_at_s")}
    placeholder = dict(cert, sig=bytes(primitives.HYBRID_SIGNATURE))
    checked_encoding(placeholder, CERT, None, "cert")
    message = signed_message(cert)
    cert["sig"] = primitives.hybrid_sign(ed_seed, pq_seed, message)
    public = primitives.ed25519_public_key(ed_seed) + primitives.mldsa65_public_key(pq_seed)
    return {"public_key": public.hex(), "signed_message": message.hex(), "cert": encode_message(cert).hex()}


def op_cert_encode(inp):
    cert = {"phone_id": hex_member(inp, "phone_id"), "issued_at_s": time_s(inp, "issued_at_s"),
            "expires_at_s": time_s(inp, "expires_at_s"), "sig": hex_member(inp, "sig")}
    encoded = checked_encoding(cert, CERT, None, "cert")
    return {"signed_message": signed_message(cert).hex(), "cert": encoded.hex()}


def op_cert_decode(inp):
    return cert_json(decode_cert(hex_member(inp, "cert")))


def op_cert_verify(inp):
    cert_bytes = hex_member(inp, "cert")
    pinned = key_or_null(inp, "pinned_key")
    now = time_s(inp, "now_s")
    return cert_json(verify_cert(cert_bytes, pinned, now), with_sig=False)


def op_lookup_encode(inp):
    fields = {"discovery_inbox": hex_member(inp, "discovery_inbox"),
              "discovery_xwing_pubkey": hex_member(inp, "discovery_xwing_pubkey")}
    return {"encoded": checked_encoding(fields, LOOKUP, None, "lookup").hex()}


def op_lookup_decode(inp):
    m = decode_message(hex_member(inp, "encoded"), LOOKUP, None, P, "lookup")
    return {k: m[k].hex() for k, _ in LOOKUP}


def request_json(r):
    return {"device_model": r["device_model"], "reply_subject": r["reply_subject"].hex(),
            "xwing_pubkey": r["xwing_pubkey"].hex(), "timestamp_s": json_int(r["timestamp_s"]),
            "cert": r["cert"].hex()}


def op_request_encode(inp):
    fields = {"device_model": text(member(inp, "device_model"), "device_model"),
              "reply_subject": hex_member(inp, "reply_subject"), "xwing_pubkey": hex_member(inp, "xwing_pubkey"),
              "timestamp_s": time_s(inp, "timestamp_s"), "cert": hex_member(inp, "cert")}
    return {"encoded": checked_encoding(fields, REQUEST, "signin_request", "signin_request").hex()}


def op_request_decode(inp):
    return request_json(decode_message(hex_member(inp, "encoded"), REQUEST, "signin_request", P, "signin_request"))


def op_ladder(inp):
    """R8.9-5: members read as input only; decoding is the rungs'."""
    request = hex_member(inp, "request")
    pinned = key_or_null(inp, "pinned_key")
    own = bytes_or_null(inp, "own_cert")
    now = time_s(inp, "now_s")
    verdict = ladder(request, pinned, own, now)
    if verdict[0] == "drop":
        return {"verdict": "drop", "rung": verdict[1], "reason": verdict[2]}
    _, req, cert = verdict
    return {"verdict": "accept", "phone_id": cert["phone_id"].hex(), "device_model": req["device_model"],
            "reply_subject": req["reply_subject"].hex()}


def op_ack_encode(inp):
    fields = {"device_family": text(member(inp, "device_family"), "device_family")}
    return {"encoded": checked_encoding(fields, ACK, "signin_ack", "signin_ack").hex()}


def op_ack_decode(inp):
    return {"device_family": decode_message(hex_member(inp, "encoded"), ACK, "signin_ack", P,
                                            "signin_ack")["device_family"]}


def read_grant(v):
    obj(v, "grant")
    return {"token": hexbytes(member(v, "token", "grant"), "grant.token"),
            "expires_at_s": integer(member(v, "expires_at_s", "grant"), "grant.expires_at_s", U64)}


def op_approval_encode(inp):
    """R8.9-9: one or two of three null is signin_approval_partial."""
    g = member(inp, "grant")
    grant = None if g is None else read_grant(g)
    seed = bytes_or_null(inp, "account_seed")
    kt = bytes_or_null(inp, "kt_handle")
    given = [x is not None for x in (grant, seed, kt)]
    if any(given) and not all(given):
        raise Rejected("signin_approval_partial", "an approval carries all three or none")
    fields = {} if grant is None else {"grant": grant, "account_seed": seed, "kt_handle": kt}
    encoded = encode_message(fields, "signin_approval")
    decode_approval(encoded)
    return {"encoded": encoded.hex()}


def approval_json(a):
    if a is None:
        return {"grant": None, "account_seed": None, "kt_handle": None}
    return {"grant": {"token": a["grant"]["token"].hex(), "expires_at_s": json_int(a["grant"]["expires_at_s"])},
            "account_seed": a["account_seed"].hex(), "kt_handle": a["kt_handle"].hex()}


def op_approval_decode(inp):
    return approval_json(decode_approval(hex_member(inp, "encoded")))


def op_approval_admits(inp):
    """R8.9-4: the approval is decoded before now_s is read."""
    approval = decode_approval(hex_member(inp, "approval"))
    ok, reason = admits(approval, time_s(inp, "now_s"))
    return {"admits": True} if ok else {"admits": False, "reason": reason}


OPS = {"phone_id": op_phone_id, "cert_issue": op_cert_issue, "cert_encode": op_cert_encode,
       "cert_decode": op_cert_decode, "cert_verify": op_cert_verify, "lookup_encode": op_lookup_encode,
       "lookup_decode": op_lookup_decode, "request_encode": op_request_encode, "request_decode": op_request_decode,
       "ladder": op_ladder, "ack_encode": op_ack_encode, "ack_decode": op_ack_decode,
       "approval_encode": op_approval_encode, "approval_decode": op_approval_decode,
       "approval_admits": op_approval_admits}

"""Cryptographic primitives (SPEC §9), from stock libraries.

* pyca `cryptography`: Ed25519 (RFC 8032; its OpenSSL verifier applies exactly the §9.1 rule),
  ML-DSA-65 verification (FIPS 204 Algorithm 3, every check of §9.2), ML-DSA-65 key generation
  from the seed ξ, X25519, ML-KEM-768 key generation and decapsulation, AES-256-GCM, HKDF, HMAC.
* `dilithium-py`: deterministic ML-DSA-65 signing (FIPS 204 Algorithm 2 with rnd = 0^32), which
  pyca does not offer (its `sign` is hedged, so its bytes differ on every call).
* `kyber-py`: ML-KEM-768 encapsulation with a given m (FIPS 203 Algorithm 17), which pyca does
  not offer (its `encapsulate` draws m itself).
"""
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric import ed25519, mldsa
from dilithium_py.ml_dsa import ML_DSA_65

ED25519_PUBLIC = 32
ED25519_SIGNATURE = 64
MLDSA65_PUBLIC = 1952
MLDSA65_SIGNATURE = 3309
HYBRID_SIGNATURE = ED25519_SIGNATURE + MLDSA65_SIGNATURE  # §9.3: 3,373


# --- Ed25519 (§9.1) -----------------------------------------------------------------------------

def ed25519_public_key(seed):
    """RFC 8032 §5.1.5: the public key of a 32-byte seed."""
    return ed25519.Ed25519PrivateKey.from_private_bytes(seed).public_key().public_bytes_raw()


def ed25519_sign(seed, message):
    """RFC 8032 §5.1.6 (deterministic)."""
    return ed25519.Ed25519PrivateKey.from_private_bytes(seed).sign(message)


def ed25519_verify(public, signature, message):
    """§9.1 (R9.1-1 … R9.1-6): OpenSSL's verifier is the rule (S < L exactly, keys read without
    the canonicity checks, R compared as bytes, no small-order test). Bytes that are not a point
    verify nothing."""
    try:  # a key of another length is a ValueError, a signature of another length invalid
        ed25519.Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


def ed25519_is_point(public):
    """R9.1-3: whether 32 bytes decode to a curve point (y taken mod p, x = 0 with the sign
    bit read as x = 0): some x satisfies -x² + y² = 1 + d·x²·y². The caller passes 32 bytes."""
    p = 2**255 - 19
    d = (-121665 * pow(121666, p - 2, p)) % p
    y = (int.from_bytes(public, "little") & ((1 << 255) - 1)) % p
    u, v = (y * y - 1) % p, (d * y * y + 1) % p
    x2 = u * pow(v, p - 2, p) % p
    return x2 == 0 or pow(x2, (p - 1) // 2, p) == 1


# --- ML-DSA-65 (§9.2) ---------------------------------------------------------------------------

def mldsa65_keygen(seed):
    """FIPS 204 Algorithm 1/6 from ξ: (public key 1,952 bytes, secret key)."""
    return ML_DSA_65.key_derive(seed)


def mldsa65_public_key(seed):
    return mldsa.MLDSA65PrivateKey.from_seed_bytes(seed).public_key().public_bytes_raw()


def mldsa65_sign_deterministic(seed, message):
    """R9.2-5: deterministic (rnd = 0^32), pure M' with the empty context."""
    _, sk = mldsa65_keygen(seed)
    return ML_DSA_65.sign(sk, message, ctx=b"", deterministic=True)


def mldsa65_verify(public, signature, message):
    """FIPS 204 Algorithm 3, empty context (R9.2-1 … R9.2-4)."""
    try:  # a key of another length is a ValueError, a signature of another length invalid
        mldsa.MLDSA65PublicKey.from_public_bytes(public).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


# --- the hybrid signature (§9.3) ----------------------------------------------------------------

def hybrid_sign(ed25519_seed, mldsa_seed, message):
    """§9.3: Ed25519 || ML-DSA-65 deterministic, both over the same message."""
    return ed25519_sign(ed25519_seed, message) + mldsa65_sign_deterministic(mldsa_seed, message)


def hybrid_verify(public, signature, message):
    """R9.3-2: both halves, always both: (ed25519 ok, ml-dsa ok). `public` is the 32 + 1,952
    byte pair; the caller has checked the signature length (R9.3-1)."""
    ed_ok = ed25519_verify(public[:ED25519_PUBLIC], signature[:ED25519_SIGNATURE], message)
    pq_ok = mldsa65_verify(public[ED25519_PUBLIC:], signature[ED25519_SIGNATURE:], message)
    return ed_ok, pq_ok


# --- X25519 (RFC 7748 §5) -----------------------------------------------------------------------

def x25519_public_key(scalar):
    from cryptography.hazmat.primitives.asymmetric import x25519
    return x25519.X25519PrivateKey.from_private_bytes(scalar).public_key().public_bytes_raw()


def x25519(scalar, u):
    """X25519(k, u), all-zero outputs included (no RFC 7748 §6.1 check, R14.2-3)."""
    from cryptography.hazmat.primitives.asymmetric import x25519 as x
    try:
        return x.X25519PrivateKey.from_private_bytes(scalar).exchange(x.X25519PublicKey.from_public_bytes(u))
    except ValueError:
        # OpenSSL refuses exactly when the result is all zero (RFC 7748 §6.1's check, which
        # X-Wing's combiner does not make): the result is then known without computing it.
        return bytes(32)


# --- ML-KEM-768 (FIPS 203) and X-Wing (draft-connolly-cfrg-xwing-kem-10) -------------------------

MLKEM768_EK = 1184
MLKEM768_CT = 1088
XWING_PUBLIC = MLKEM768_EK + 32   # 1,216
XWING_CT = MLKEM768_CT + 32       # 1,120
XWING_LABEL = bytes.fromhex("5c2e2f2f5e5c")


def mlkem768_modulus_ok(ek):
    """FIPS 203 §7.2 modulus check: every 12-bit coefficient of the first 1,152 bytes below q."""
    for i in range(0, 1152, 3):
        b0, b1, b2 = ek[i], ek[i + 1], ek[i + 2]
        if (b0 | (b1 & 0x0F) << 8) >= 3329 or (b1 >> 4 | b2 << 4) >= 3329:
            return False
    return True


def mlkem768_public_key(d_z):
    """FIPS 203 Algorithm 16 from the 64-byte seed d || z (§7.1's seed format): ek, 1,184 bytes."""
    from cryptography.hazmat.primitives.asymmetric import mlkem
    return mlkem.MLKEM768PrivateKey.from_seed_bytes(d_z).public_key().public_bytes_raw()


def mlkem768_reencode(ek):
    """ByteEncode12(ByteDecode12(t̂)) ‖ ρ (FIPS 203 Algorithms 5, 6): every 12-bit coefficient of the
    first 1,152 bytes taken mod q, ρ kept. Never refuses."""
    out = bytearray(ek)
    for i in range(0, 1152, 3):
        b0, b1, b2 = ek[i], ek[i + 1], ek[i + 2]
        c0, c1 = (b0 | (b1 & 0x0F) << 8) % 3329, (b1 >> 4 | b2 << 4) % 3329
        out[i], out[i + 1], out[i + 2] = c0 & 0xFF, c0 >> 8 | (c1 & 0x0F) << 4, c1 >> 4
    return bytes(out)


def mlkem768_encaps(ek, m):
    """FIPS 203 Algorithm 17 with the given m: (shared key, ciphertext). kyber-py, since pyca
    draws m itself."""
    from kyber_py.ml_kem import ML_KEM_768
    return ML_KEM_768._encaps_internal(ek, m)


def mlkem768_decaps(d_z, ct):
    """FIPS 203 Algorithm 18 with implicit rejection (pyca / OpenSSL), key from d || z."""
    from cryptography.hazmat.primitives.asymmetric import mlkem
    return mlkem.MLKEM768PrivateKey.from_seed_bytes(d_z).decapsulate(ct)


def _xwing_expand(seed):
    import hashlib
    expanded = hashlib.shake_256(seed).digest(96)
    return expanded[:64], expanded[64:]


def xwing_combiner(ss_m, ss_x, ct_x, pk_x):
    import hashlib
    return hashlib.sha3_256(ss_m + ss_x + ct_x + pk_x + XWING_LABEL).digest()


def xwing_encapsulate_derand(pk, eseed):
    """EncapsulateDerand(pk, eseed): (shared secret, enc of 1,120 bytes)."""
    pk_m, pk_x = pk[:MLKEM768_EK], pk[MLKEM768_EK:]
    ek_x = eseed[32:64]
    ct_x = x25519_public_key(ek_x)
    ss_x = x25519(ek_x, pk_x)
    ss_m, ct_m = mlkem768_encaps(pk_m, eseed[:32])
    return xwing_combiner(ss_m, ss_x, ct_x, pk_x), ct_m + ct_x


def xwing_decapsulate(seed, enc):
    """Decapsulate(sk, enc): always a key (implicit rejection, no §6.1 check)."""
    d_z, sk_x = _xwing_expand(seed)
    ct_m, ct_x = enc[:MLKEM768_CT], enc[MLKEM768_CT:]
    ss_m = mlkem768_decaps(d_z, ct_m)
    ss_x = x25519(sk_x, ct_x)
    pk_x = x25519_public_key(sk_x)
    return xwing_combiner(ss_m, ss_x, ct_x, pk_x)

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
    if len(public) != ED25519_PUBLIC or len(signature) != ED25519_SIGNATURE:
        return False
    try:
        ed25519.Ed25519PublicKey.from_public_bytes(public).verify(signature, message)
        return True
    except (InvalidSignature, ValueError):
        return False


def ed25519_is_point(public):
    """R9.1-3: whether 32 bytes decode to a curve point (y taken mod p, x = 0 with the sign
    bit read as x = 0): some x satisfies -x² + y² = 1 + d·x²·y²."""
    if len(public) != ED25519_PUBLIC:
        return False
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
    if len(public) != MLDSA65_PUBLIC or len(signature) != MLDSA65_SIGNATURE:
        return False
    try:
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

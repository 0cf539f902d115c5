"""A line-by-line Python transcription of Haven's multi-device code (public repository
blaineam/Haven, commit 45e2adf): `core/haven-p2p/src/device.rs` (DeviceCredential, DeviceList,
Reader), `core/haven-p2p/src/identity.rs` (HavenId::from_bytes, HavenId::verify,
Identity::from_seed) and `core/haven-ffi/src/multidevice.rs` (verify_device_credential,
verify_device_list). Errors are raised as `HavenError(message)` with Haven's own message strings,
in the order Haven's code meets them; nothing here knows this suite's error codes (check.py maps
them, as SPEC.md §10.8 says a Haven testee must).

Library behaviour Haven inherits is modelled where it decides a verdict:
* ed25519-dalek 2 / curve25519-dalek 4: `VerifyingKey::from_bytes` decompresses without
  requiring a canonical y (y >= p is reduced) and accepts "x = 0 with the sign bit"; `verify`
  rejects S >= L, computes R' = [S]B - [k]A with k = SHA-512(R || A-as-given || M) and compares
  R'.compress() with R's bytes (no cofactor).
* ml-dsa 0.1: `EncodedSignature::try_from` wants exactly 3,309 bytes; `Signature::decode` fails on a
  malformed hint; `verify` is FIPS 204 (mldsa65.py).
* ml-kem 0.2.3: `EncapsulationKey::from_bytes` never fails; its `byte_decode` (ByteDecode12, FIPS 203
  Algorithm 6) takes every 12-bit coefficient of t-hat mod q, and `as_bytes` writes t-hat back with
  ByteEncode12 and rho unchanged. So `HavenId::to_bytes` of a parsed bundle is the bundle with each
  coefficient reduced: what Haven signs, sends and returns (issue 26: the transcription before it
  kept the bundle's bytes as given and so could not see that).
* x25519-dalek 2: `PublicKey::from([u8; 32])` keeps any 32 bytes and `as_bytes` returns them;
  `PublicKey::from(&StaticSecret)` is RFC 7748 X25519(clamp(k), 9).
* Rust's `Vec::with_capacity(n)` for the id lists: a reservation the allocator refuses aborts the
  process. Modelled as `HavenAbort` above ALLOCATOR_LIMIT bytes.
* `version + 1` on u64: wraps in a release build (Haven's workspace sets no overflow-checks).
"""
import hashlib, hmac
import mldsa65

ALLOCATOR_LIMIT = 16 << 30   # a device's memory: a 16 GiB reservation or more is refused


class HavenError(Exception):
    """CoreError / HavenError: the message is what a Haven-based testee sees."""


class HavenAbort(Exception):
    """The process aborts (allocation failure): no error value is returned at all."""


# ---------------- curve25519-dalek / ed25519-dalek ----------------
P = 2 ** 255 - 19
D_ = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
L_ORDER = 2 ** 252 + 27742317777372353535851937790883648493


def _add(p, q):
    (x1, y1), (x2, y2) = p, q
    t = D_ * x1 * x2 * y1 * y2 % P
    return ((x1 * y2 + x2 * y1) * pow(1 + t, P - 2, P) % P, (y1 * y2 + x1 * x2) * pow(1 - t, P - 2, P) % P)


def _mul(k, pt):
    r = (0, 1)
    while k:
        if k & 1: r = _add(r, pt)
        pt = _add(pt, pt); k >>= 1
    return r


def _compress(pt):
    x, y = pt
    return (y | ((x & 1) << 255)).to_bytes(32, 'little')


def dalek_decompress(b):
    """CompressedEdwardsY::decompress: FieldElement::from_bytes ignores bit 255 and does not
    reduce (arithmetic is mod p, so y >= p acts as y - p); sqrt_ratio_i; conditional negate."""
    y = (int.from_bytes(b, 'little') & ((1 << 255) - 1)) % P
    u, v = (y * y - 1) % P, (D_ * y * y + 1) % P
    x = (u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P)) % P
    if (v * x * x - u) % P != 0:
        x = x * SQRT_M1 % P
        if (v * x * x - u) % P != 0:
            return None
    if x & 1: x = P - x                      # sqrt_ratio_i returns the non-negative (even) root
    if b[31] >> 7: x = (P - x) % P           # conditional_negate: x = 0 stays 0 ("-0" accepted)
    return (x, y)


_BY = 4 * pow(5, P - 2, P) % P
BASE = dalek_decompress(_BY.to_bytes(32, 'little'))


def ed25519_public(seed):
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], 'little'); a &= (1 << 254) - 8; a |= 1 << 254
    return _compress(_mul(a, BASE))


def dalek_verify(a_bytes, a_point, msg, sig):
    s = int.from_bytes(sig[32:], 'little')
    if s >= L_ORDER: return False                      # check_scalar: Scalar::from_canonical_bytes
    k = int.from_bytes(hashlib.sha512(sig[:32] + a_bytes + msg).digest(), 'little') % L_ORDER
    minus_a = ((P - a_point[0]) % P, a_point[1])
    return _compress(_add(_mul(k, minus_a), _mul(s, BASE))) == sig[:32]


# ---------------- x25519-dalek ----------------
def x25519_base(k):
    """RFC 7748 §5: X25519(k, 9), k clamped (decodeScalar25519), the Montgomery ladder."""
    n = int.from_bytes(k, 'little'); n &= ~7; n &= (1 << 255) - 1; n |= 1 << 254
    x1, x2, z2, x3, z3, swap = 9, 1, 0, 9, 1, 0
    for t in range(254, -1, -1):
        bit = (n >> t) & 1
        swap ^= bit
        if swap: x2, x3, z2, z3 = x3, x2, z3, z2
        swap = bit
        a, b = (x2 + z2) % P, (x2 - z2) % P
        aa, bb = a * a % P, b * b % P
        e = (aa - bb) % P
        c, d = (x3 + z3) % P, (x3 - z3) % P
        da, cb = d * a % P, c * b % P
        x3, z3 = (da + cb) ** 2 % P, x1 * (da - cb) ** 2 % P
        x2, z2 = aa * bb % P, e * (aa + 121665 * e) % P
    if swap: x2, z2 = x3, z3
    return (x2 * pow(z2, P - 2, P) % P).to_bytes(32, 'little')


# ---------------- ml-kem 0.2.3 ----------------
MLKEM_Q = 3329


def mlkem_byte_decode12(b):
    """`byte_decode::<U12>`: two coefficients per three bytes, little-endian, each `%= Q`."""
    out = []
    for i in range(0, len(b), 3):
        x = int.from_bytes(b[i:i + 3], 'little')
        out += [(x & 0xfff) % MLKEM_Q, (x >> 12) % MLKEM_Q]
    return out


def mlkem_byte_encode12(coeffs):
    return b''.join((coeffs[i] | coeffs[i + 1] << 12).to_bytes(3, 'little') for i in range(0, len(coeffs), 2))


class EncapKey:
    """`EncapsulationKey<MlKem768Params>`: t-hat as decoded coefficients, and rho."""
    def __init__(self, t_hat, rho):
        self.t_hat, self.rho = t_hat, rho

    @staticmethod
    def from_bytes(b):                     # EncryptionKey::from_bytes: split_ek, decode_u12
        return EncapKey(mlkem_byte_decode12(b[:1152]), bytes(b[1152:]))

    def as_bytes(self):                    # EncryptionKey::as_bytes: encode_u12(t_hat) || rho
        return mlkem_byte_encode12(self.t_hat) + self.rho


# ---------------- identity.rs ----------------
ED_VK_LEN, X_LEN, MLKEM_EK_LEN, ED_SIG_LEN = 32, 32, 1184, 64
PREFIX_LEN = ED_VK_LEN + X_LEN + MLKEM_EK_LEN


class HavenId:
    def __init__(self, signing_bytes, signing_point, mldsa_pk, kem_x=b'', kem_pq=None):
        self.signing_bytes, self.signing_point, self.mldsa_pk = signing_bytes, signing_point, mldsa_pk
        self.kem_x, self.kem_pq = kem_x, kem_pq

    def node_id_bytes(self):
        return self.signing_bytes              # VerifyingKey::to_bytes: the compressed bytes as given

    def to_bytes(self):
        """ed25519(32) || x25519(32) || ml-kem-ek(1184) || ml-dsa-vk: the ML-KEM key re-encoded."""
        return self.signing_bytes + self.kem_x + self.kem_pq.as_bytes() + self.mldsa_pk

    @staticmethod
    def from_bytes(b):
        if len(b) <= PREFIX_LEN:
            raise HavenError('identity bundle too short')
        pt = dalek_decompress(b[:ED_VK_LEN])
        if pt is None:
            raise HavenError('bad ed25519 key')
        kem_x = bytes(b[ED_VK_LEN:ED_VK_LEN + X_LEN])          # XPublicKey::from: any 32 bytes
        # Encoded::<EncapKey>::try_from: the slice is exactly 1,184 bytes; from_bytes never fails
        kem_pq = EncapKey.from_bytes(b[ED_VK_LEN + X_LEN:PREFIX_LEN])
        if len(b[PREFIX_LEN:]) != mldsa65.PK_BYTES:
            raise HavenError('bad ml-dsa key length')
        return HavenId(bytes(b[:ED_VK_LEN]), pt, bytes(b[PREFIX_LEN:]), kem_x, kem_pq)

    def verify(self, msg, sig):
        if len(sig) <= ED_SIG_LEN:
            raise HavenError('hybrid signature too short')
        ed_part, dsa_part = sig[:ED_SIG_LEN], sig[ED_SIG_LEN:]
        if not dalek_verify(self.signing_bytes, self.signing_point, msg, ed_part):
            raise HavenError('ed25519 verification failed')
        if len(dsa_part) != mldsa65.SIG_BYTES:
            raise HavenError('bad ml-dsa signature length')
        if mldsa65.decode_signature(dsa_part) is None:
            raise HavenError('malformed ml-dsa signature')
        if not mldsa65.verify(self.mldsa_pk, msg, dsa_part):
            raise HavenError('ml-dsa verification failed')


def hkdf(seed, info, n):
    prk = hmac.new(b'haven-identity-v1', seed, hashlib.sha256).digest()
    out, t, i = b'', b'', 1
    while len(out) < n:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest(); out += t; i += 1
    return out[:n]


def identity_from_seed(master):
    """Identity::from_seed: the signing halves and the X25519 public key. The ML-KEM key is not
    derived: Haven draws it from ChaCha20Rng(sub("ml-kem-768")), which this transcription does not
    model (and the suite's own ML-KEM derivation differs, SPEC.md §10.8 item 6)."""
    ed_seed = hkdf(master, b'ed25519', 32)
    dsa_seed = hkdf(master, b'ml-dsa-65', 32)
    return {'node_id': ed25519_public(ed_seed), 'ed25519_seed': ed_seed, 'mldsa_seed': dsa_seed,
            'mldsa_pk': mldsa65.keygen(dsa_seed), 'x25519_pk': x25519_base(hkdf(master, b'x25519', 32))}


# ---------------- device.rs ----------------
CRED_DOMAIN = b'haven-device-cred-v1'
LIST_DOMAIN = b'haven-device-list-v1'
LEAF_RETIRE_DOMAIN = b'haven-device-list-acct-leaf-retired-v1'
LEAF_RETIRE_WIRE_SUFFIX = b'HVNLEAF1'
u32 = lambda v: v.to_bytes(4, 'little')
u64 = lambda v: v.to_bytes(8, 'little')


class Reader:
    def __init__(self, b): self.b, self.i = b, 0

    def take(self, n):
        if self.i + n > len(self.b):
            raise HavenError('device wire: unexpected end of input')
        s = self.b[self.i:self.i + n]; self.i += n; return s

    def array32(self): return bytes(self.take(32))
    def u32(self): return int.from_bytes(self.take(4), 'little')
    def u64(self): return int.from_bytes(self.take(8), 'little')
    def bytes_lp(self): return self.take(self.u32())

    def str_lp(self):
        b = self.bytes_lp()
        try:
            return bytes(b).decode('utf-8')       # String::from_utf8: strict RFC 3629
        except UnicodeDecodeError:
            raise HavenError('device wire: invalid utf-8 name')

    def rest(self): return self.b[self.i:]


class DeviceCredential:
    def __init__(self, account_id, device, device_name, created_at, sig):
        self.account_id, self.device, self.device_name, self.created_at, self.sig = account_id, device, device_name, created_at, sig

    @staticmethod
    def signing_bytes(account_id, device, name, created_at):
        nb = name.encode('utf-8')
        return CRED_DOMAIN + account_id + u64(created_at) + u32(len(nb)) + nb + device.to_bytes()

    def verify(self, account_pub):
        if account_pub.node_id_bytes() != self.account_id:
            raise HavenError('device credential: account id mismatch')
        account_pub.verify(self.signing_bytes(self.account_id, self.device, self.device_name, self.created_at), self.sig)

    def device_id(self): return self.device.node_id_bytes()

    def to_bytes(self):
        nb = self.device_name.encode('utf-8'); dev = self.device.to_bytes()
        return self.account_id + u64(self.created_at) + u32(len(nb)) + nb + u32(len(dev)) + dev + self.sig

    @staticmethod
    def from_bytes(b):
        r = Reader(b)
        account_id = r.array32()
        created_at = r.u64()
        name = r.str_lp()
        dev = r.bytes_lp()
        device = HavenId.from_bytes(dev)
        sig = bytes(r.rest())
        if not sig:
            raise HavenError('device credential: missing signature')
        return DeviceCredential(account_id, device, name, created_at, sig)


class DeviceList:
    def __init__(self, account_id, version, updated_at, devices, revoked, account_leaf_retired, sig=b''):
        self.account_id, self.version, self.updated_at = account_id, version, updated_at
        self.devices, self.revoked, self.account_leaf_retired, self.sig = list(devices), list(revoked), account_leaf_retired, sig

    @staticmethod
    def signing_bytes(account_id, version, updated_at, devices, revoked, retired):
        v = LIST_DOMAIN + account_id + u64(version) + u64(updated_at) + u64(len(devices)) + b''.join(devices)
        v += u64(len(revoked)) + b''.join(revoked)
        return v + (LEAF_RETIRE_DOMAIN if retired else b'')

    def verify(self, account_pub):
        if account_pub.node_id_bytes() != self.account_id:
            raise HavenError('device list: account id mismatch')
        account_pub.verify(self.signing_bytes(self.account_id, self.version, self.updated_at, self.devices,
                                              self.revoked, self.account_leaf_retired), self.sig)

    def is_authorized(self, device_id):
        if self.account_leaf_retired and device_id == self.account_id:
            return False
        return device_id not in self.revoked and device_id in self.devices

    def adopt_if_newer(self, other):
        if other.account_id == self.account_id and other.version > self.version:
            self.__dict__.update(other.clone().__dict__)
            return True
        return False

    def clone(self):
        return DeviceList(self.account_id, self.version, self.updated_at, self.devices, self.revoked, self.account_leaf_retired, self.sig)

    def merge(self, other, account, updated_at):
        """Returns the unsigned result (the caller signs with `account`, as signed_inner does:
        the account id is the signer's) or None."""
        if other.account_id != self.account_id:
            return None
        newer, older = (other, self) if other.version > self.version else (self, other)
        revoked = []
        for r in self.revoked + other.revoked:
            if r in revoked: continue
            reauthorized = (newer.version > older.version and r in older.revoked
                            and r not in newer.revoked and r in newer.devices)
            if not reauthorized: revoked.append(r)
        devices = []
        for d in self.devices + other.devices:
            if d not in revoked and d not in devices: devices.append(d)
        devices.sort(); revoked.sort()
        retired = self.account_leaf_retired or other.account_leaf_retired
        if devices == sorted(self.devices) and revoked == sorted(self.revoked) and retired == self.account_leaf_retired:
            return None
        version = (max(self.version, other.version) + 1) % (1 << 64)      # u64 `+ 1`, release build
        return DeviceList(account, version, updated_at, devices, revoked, retired)

    def with_self_added(self, device_id, account, updated_at):
        if device_id in self.devices and device_id not in self.revoked:
            return None
        devices = list(self.devices)
        if device_id not in devices: devices.append(device_id)
        revoked = [r for r in self.revoked if r != device_id]
        return DeviceList(account, (self.version + 1) % (1 << 64), updated_at, devices, revoked, self.account_leaf_retired)

    def with_account_leaf_retired(self, account, updated_at):
        if self.account_leaf_retired:
            return None
        return DeviceList(account, (self.version + 1) % (1 << 64), updated_at, list(self.devices), list(self.revoked), True)

    def to_bytes(self):
        v = self.account_id + u64(self.version) + u64(self.updated_at) + u32(len(self.devices)) + b''.join(self.devices)
        v += u32(len(self.revoked)) + b''.join(self.revoked) + self.sig
        return v + (LEAF_RETIRE_WIRE_SUFFIX if self.account_leaf_retired else b'')

    @staticmethod
    def from_bytes(b):
        if len(b) >= 8 and b[-8:] == LEAF_RETIRE_WIRE_SUFFIX:
            body, retired = b[:-8], True
        else:
            body, retired = b, False
        r = Reader(body)
        account_id = r.array32()
        version = r.u64()
        updated_at = r.u64()
        lists = []
        for _ in range(2):
            n = r.u32()
            if 32 * n >= ALLOCATOR_LIMIT:                 # Vec::with_capacity(n) before any id is read
                raise HavenAbort('memory allocation of %d bytes failed' % (32 * n))
            lists.append([r.array32() for _ in range(n)])
        sig = bytes(r.rest())
        if not sig:
            raise HavenError('device list: missing signature')
        return DeviceList(account_id, version, updated_at, lists[0], lists[1], retired, sig)


# ---------------- haven-ffi/src/multidevice.rs ----------------
def ffi_bundle(b):
    try:
        return HavenId.from_bytes(b)
    except HavenError as e:
        raise HavenError('bad public bundle: %s' % e)


def verify_device_credential(account_bundle, credential):
    acct = ffi_bundle(account_bundle)
    try:
        cred = DeviceCredential.from_bytes(credential)
    except HavenError as e:
        raise HavenError('bad credential: %s' % e)
    try:
        cred.verify(acct)
    except HavenError as e:
        raise HavenError('credential rejected: %s' % e)
    return cred.device_id()


def verify_device_list(account_bundle, lst):
    acct = ffi_bundle(account_bundle)
    try:
        dl = DeviceList.from_bytes(lst)
    except HavenError as e:
        raise HavenError('bad device list: %s' % e)
    try:
        dl.verify(acct)
    except HavenError as e:
        raise HavenError('device list rejected: %s' % e)
    return dl

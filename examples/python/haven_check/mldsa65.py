"""ML-DSA-65 (FIPS 204) key generation from a seed and verification, standard library only.

Used by haven.py in place of the RustCrypto `ml-dsa` crate Haven links (`DsaSigningKey::from_seed`,
`EncodedSignature::try_from`, `Signature::decode`, `VerifyingKey::verify`), so the verdicts of the
Haven transcription are computed, not read from the vectors. Written from FIPS 204 (Algorithms 6,
7/8, 13, 14, 29-33, 35-37, 41-42); the signature's empty context is the "pure" M' = 0 || 0 || M.
"""
import hashlib

Q, N, K, L = 8380417, 256, 6, 5
ETA, TAU, BETA, GAMMA1, GAMMA2, OMEGA, LAMBDA, D = 4, 49, 196, 1 << 19, (8380417 - 1) // 32, 55, 192, 13
PK_BYTES, SIG_BYTES = 1952, 3309


def _bitrev8(i):
    return int('{:08b}'.format(i)[::-1], 2)


ZETAS = [pow(1753, _bitrev8(i), Q) for i in range(256)]


def ntt(w):
    w = list(w); m = 0; ln = 128
    while ln >= 1:
        for start in range(0, 256, 2 * ln):
            m += 1; z = ZETAS[m]
            for j in range(start, start + ln):
                t = z * w[j + ln] % Q
                w[j + ln] = (w[j] - t) % Q
                w[j] = (w[j] + t) % Q
        ln //= 2
    return w


def intt(w):
    w = list(w); m = 256; ln = 1
    while ln < 256:
        for start in range(0, 256, 2 * ln):
            m -= 1; z = Q - ZETAS[m]
            for j in range(start, start + ln):
                t = w[j]
                w[j] = (t + w[j + ln]) % Q
                w[j + ln] = z * (t - w[j + ln]) % Q
        ln *= 2
    return [x * 8347681 % Q for x in w]


def _shake(bits, data, n):
    return (hashlib.shake_128 if bits == 128 else hashlib.shake_256)(data).digest(n)


def rej_ntt_poly(seed):
    out, n = [], 840
    while True:
        buf = _shake(128, seed, n); out = []; i = 0
        while len(out) < 256 and i + 3 <= len(buf):
            v = buf[i] | buf[i + 1] << 8 | (buf[i + 2] & 0x7f) << 16; i += 3
            if v < Q: out.append(v)
        if len(out) == 256: return out
        n *= 2


def rej_bounded_poly(seed):
    n = 512
    while True:
        buf = _shake(256, seed, n); out = []
        for byte in buf:
            for b in (byte & 15, byte >> 4):
                if b < 9 and len(out) < 256: out.append((4 - b) % Q)
            if len(out) == 256: return out
        n *= 2


_A_CACHE = {}


def expand_a(rho):
    if rho not in _A_CACHE:
        _A_CACHE[rho] = [[rej_ntt_poly(rho + bytes([s, r])) for s in range(L)] for r in range(K)]
    return _A_CACHE[rho]


def sample_in_ball(ct):
    buf = _shake(256, ct, 8 + 1024)
    signs = int.from_bytes(buf[:8], 'little'); pos = 8
    c = [0] * 256
    for i in range(256 - TAU, 256):
        while True:
            j = buf[pos]; pos += 1
            if j <= i: break
        c[i] = c[j]
        c[j] = (Q - 1) if (signs >> (i + TAU - 256)) & 1 else 1
    return c


def _unpack(data, bits):
    v = int.from_bytes(data, 'little'); mask = (1 << bits) - 1
    return [(v >> (bits * i)) & mask for i in range(256)]


def _pack(coeffs, bits):
    v = 0
    for i, c in enumerate(coeffs): v |= c << (bits * i)
    return v.to_bytes(bits * 32, 'little')


def keygen(xi):
    """ML-DSA.KeyGen_internal(xi) (Algorithm 6): the 1,952-byte public key."""
    h = _shake(256, xi + bytes([K, L]), 128)
    rho, rhop = h[:32], h[32:96]
    A = expand_a(rho)
    s1 = [rej_bounded_poly(rhop + r.to_bytes(2, 'little')) for r in range(L)]
    s2 = [rej_bounded_poly(rhop + (r + L).to_bytes(2, 'little')) for r in range(K)]
    s1h = [ntt(p) for p in s1]
    pk = rho
    for r in range(K):
        acc = [0] * 256
        for s in range(L):
            acc = [(x + a * b) % Q for x, a, b in zip(acc, A[r][s], s1h[s])]
        t = [(x + y) % Q for x, y in zip(intt(acc), s2[r])]
        t1 = []
        for x in t:
            r0 = x % (1 << D)
            if r0 > 1 << (D - 1): r0 -= 1 << D
            t1.append((x - r0) >> D)
        pk += _pack(t1, 10)
    return pk


def _use_hint(h, r):
    rp = r % Q
    r0 = rp % (2 * GAMMA2)
    if r0 > GAMMA2: r0 -= 2 * GAMMA2
    if rp - r0 == Q - 1: r1, r0 = 0, r0 - 1
    else: r1 = (rp - r0) // (2 * GAMMA2)
    if h and r0 > 0: return (r1 + 1) % 16
    if h and r0 <= 0: return (r1 - 1) % 16
    return r1


def decode_signature(sig):
    """sigDecode (Algorithm 27): (c~, z, h), or None for a malformed hint (Algorithm 21)."""
    ct = sig[:LAMBDA // 4]; pos = LAMBDA // 4
    z = []
    for _ in range(L):
        z.append([GAMMA1 - v for v in _unpack(sig[pos:pos + 640], 20)]); pos += 640
    y = sig[pos:pos + OMEGA + K]
    h = [[0] * 256 for _ in range(K)]; index = 0
    for i in range(K):
        if y[OMEGA + i] < index or y[OMEGA + i] > OMEGA: return None
        first = index
        while index < y[OMEGA + i]:
            if index > first and y[index - 1] >= y[index]: return None
            h[i][y[index]] = 1; index += 1
    if any(y[i] for i in range(index, OMEGA)): return None
    return ct, z, h


def verify(pk, msg, sig, ctx=b''):
    """ML-DSA.Verify (Algorithm 3 with Algorithm 8): True or False."""
    if len(pk) != PK_BYTES or len(sig) != SIG_BYTES or len(ctx) > 255: return False
    dec = decode_signature(sig)
    if dec is None: return False
    ct, z, h = dec
    if any(abs(c) >= GAMMA1 - BETA for p in z for c in p): return False
    rho = pk[:32]
    t1 = [_unpack(pk[32 + 320 * i:32 + 320 * (i + 1)], 10) for i in range(K)]
    tr = _shake(256, pk, 64)
    mu = _shake(256, tr + bytes([0, len(ctx)]) + ctx + msg, 64)
    A = expand_a(rho)
    c = ntt(sample_in_ball(ct))
    zh = [ntt([x % Q for x in p]) for p in z]
    w1 = b''
    for r in range(K):
        acc = [0] * 256
        for s in range(L):
            acc = [(x + a * b) % Q for x, a, b in zip(acc, A[r][s], zh[s])]
        t1h = ntt([(x << D) % Q for x in t1[r]])
        acc = [(x - ci * ti) % Q for x, ci, ti in zip(acc, c, t1h)]
        w = intt(acc)
        w1 += _pack([_use_hint(hh, x) for hh, x in zip(h[r], w)], 4)
    return _shake(256, mu + w1, LAMBDA // 4) == ct

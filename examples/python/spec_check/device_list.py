"""Reproduce vectors/device_list.json from SPEC §9-§10. Ed25519 and X25519 public keys are derived
(base-point multiplication) and Ed25519 signatures verified (§9.1); ML-DSA keys, ML-KEM keys
(re-encoded as §10.1 says, so a non-canonical one would not match), the ML-DSA-65 verdict and
every produced signature are taken from the vector as black boxes: only the bytes around them
are checked."""
import functools, hashlib, hmac, sys
from collections import OrderedDict
from harness import Reject, Skip, run, hexval, uint, need, jint, load

# ---------- HKDF (RFC 5869) ----------
def hkdf(salt, ikm, info, L):
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, t, i = b'', b'', 1
    while len(out) < L:
        t = hmac.new(prk, t + info + bytes([i]), hashlib.sha256).digest(); out += t; i += 1
        if i > 255: raise ValueError
    return out[:L]


def sub(seed, info, L):
    return hkdf(b'haven-identity-v1', seed, info.encode(), L)


# ---------- Ed25519 point decoding (§9.1 step 3) and public key ----------
P = 2 ** 255 - 19
D = (-121665 * pow(121666, P - 2, P)) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
L_ORDER = 2 ** 252 + 27742317777372353535851937790883648493


def decode_point(b):
    if len(b) != 32: return None
    # §9.1 rule R9.1-3: y is taken mod p (y >= p is an alias), and x = 0 with the sign bit is x = 0
    y = (int.from_bytes(b, 'little') & ((1 << 255) - 1)) % P
    sign = b[31] >> 7
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    x = (u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P)) % P
    if (v * x * x - u) % P != 0:
        x = x * SQRT_M1 % P
        if (v * x * x - u) % P != 0: return None
    if x != 0 and x & 1 != sign: x = P - x
    return (x, y)


def _add(p, q):
    """RFC 8032 §5.1.4: addition in extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z, xy = T/Z.
    The formula is complete for this curve, so it also doubles; no inversion until encoding."""
    X1, Y1, Z1, T1 = p
    X2, Y2, Z2, T2 = q
    a = (Y1 - X1) * (Y2 - X2) % P
    b = (Y1 + X1) * (Y2 + X2) % P
    c = 2 * D * T1 * T2 % P
    d = 2 * Z1 * Z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _ext(pt):
    x, y = pt
    return (x, y, 1, x * y % P)


BY = 4 * pow(5, P - 2, P) % P
B = _ext(decode_point(BY.to_bytes(32, 'little')))


def _mul(k, Q):
    R = (0, 1, 1, 0)
    while k:
        if k & 1: R = _add(R, Q)
        Q = _add(Q, Q); k >>= 1
    return R


def _enc(pt):
    X, Y, Z, _ = pt
    zi = pow(Z, P - 2, P)
    x, y = X * zi % P, Y * zi % P
    return (y | ((x & 1) << 255)).to_bytes(32, 'little')


# Both functions below are pure and the vectors repeat seeds and signatures across cases (and
# alternatives.py runs the device_list vectors a dozen times), so their answers are memoized.
@functools.lru_cache(maxsize=None)
def ed_pub(seed):
    h = hashlib.sha512(seed).digest()
    a = int.from_bytes(h[:32], 'little')
    a &= (1 << 254) - 8; a |= 1 << 254
    return _enc(_mul(a, B))


@functools.lru_cache(maxsize=None)
def ed_verify(pub, msg, sig):
    """§9.1: 64 bytes, S < L, A decodes (strict), R's y < p, then [S]B - [k]A encodes to R."""
    if len(sig) != 64: return False
    A = decode_point(pub)
    S = int.from_bytes(sig[32:], 'little')
    if A is None or S >= L_ORDER: return False
    if int.from_bytes(sig[:32], 'little') & ((1 << 255) - 1) >= P: return False
    k = int.from_bytes(hashlib.sha512(sig[:32] + pub + msg).digest(), 'little') % L_ORDER
    nA = _ext(((P - A[0]) % P, A[1]))
    return _enc(_add(_mul(S, B), _mul(k, nA))) == sig[:32]


def node_id(seed):
    return ed_pub(sub(seed, 'ed25519', 32))


# ---------- X25519 (RFC 7748 §5), for the derived bundle's bytes 32-63 ----------
def x25519_base(k):
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


# ---------- layouts ----------
u32 = lambda v: v.to_bytes(4, 'little')
u64 = lambda v: v.to_bytes(8, 'little')
SUFFIX = b'HVNLEAF1'
RETIRED_TAIL = b'haven-device-list-acct-leaf-retired-v1'


def reencode_mlkem(k):
    """§10.1 [R10.1-7]: each 12-bit coefficient of t-hat (bytes 0-1151, two per three bytes,
    little-endian) taken mod q = 3329; rho (the last 32 bytes) kept."""
    out = b''
    for i in range(0, 1152, 3):
        x = int.from_bytes(k[i:i + 3], 'little')
        out += (((x & 0xfff) % 3329) | ((x >> 12) % 3329) << 12).to_bytes(3, 'little')
    return out + k[1152:]


def parse_bundle(b):
    if len(b) != 3200 or decode_point(b[:32]) is None: raise Reject('device_list_bad_bundle')
    return b[:64] + reencode_mlkem(b[64:1248]) + b[1248:]


def cred_signing_bytes(acct, created, name, bundle):
    nb = name.encode('utf-8')
    return b'haven-device-cred-v1' + acct + u64(created) + u32(len(nb)) + nb + bundle


def cred_wire(acct, created, name, bundle, sig):
    nb = name.encode('utf-8')
    return acct + u64(created) + u32(len(nb)) + nb + u32(len(bundle)) + bundle + sig


def cred_decode(w):
    pos = 0
    def take(n):
        nonlocal pos
        if len(w) - pos < n: raise Reject('device_list_truncated')
        r = w[pos:pos + n]; pos += n; return r
    acct = take(32); created = int.from_bytes(take(8), 'little'); nl = int.from_bytes(take(4), 'little')
    nb = take(nl)
    try: name = nb.decode('utf-8')
    except UnicodeDecodeError: raise Reject('device_list_bad_name')
    bl = int.from_bytes(take(4), 'little')
    bundle = parse_bundle(take(bl))
    sig = w[pos:]
    if not sig: raise Reject('device_list_missing_signature')
    return OrderedDict([('account_id', acct), ('created_at', created), ('name', name),
                        ('device_bundle', bundle), ('device_id', bundle[:32]), ('signature', sig)])


def list_signing_bytes(l):
    b = (b'haven-device-list-v1' + l['account_id'] + u64(l['version']) + u64(l['updated_at'])
         + u64(len(l['devices'])) + b''.join(l['devices']) + u64(len(l['revoked'])) + b''.join(l['revoked']))
    return b + (RETIRED_TAIL if l['account_leaf_retired'] else b'')


def list_wire(l, sig):
    return (l['account_id'] + u64(l['version']) + u64(l['updated_at']) + u32(len(l['devices']))
            + b''.join(l['devices']) + u32(len(l['revoked'])) + b''.join(l['revoked']) + sig
            + (SUFFIX if l['account_leaf_retired'] else b''))


def list_decode(w):
    retired = len(w) >= 8 and w[-8:] == SUFFIX
    body = w[:-8] if retired else w
    pos = 0
    def take(n):
        nonlocal pos
        if len(body) - pos < n: raise Reject('device_list_truncated')
        r = body[pos:pos + n]; pos += n; return r
    acct = take(32); ver = int.from_bytes(take(8), 'little'); upd = int.from_bytes(take(8), 'little')
    lists = []
    for _ in range(2):
        n = int.from_bytes(take(4), 'little')
        if n > (len(body) - pos) // 32: raise Reject('device_list_truncated')
        lists.append([take(32) for _ in range(n)])
    sig = body[pos:]
    if not sig: raise Reject('device_list_missing_signature')
    return OrderedDict([('account_id', acct), ('version', ver), ('updated_at', upd), ('devices', lists[0]),
                        ('revoked', lists[1]), ('account_leaf_retired', retired)]), sig


# ---------- semantics ----------
def authorized(l, i):
    return i in l['devices'] and i not in l['revoked'] and not (l['account_leaf_retired'] and i == l['account_id'])


def authorized_set(l):
    return sorted({i for i in l['devices'] if authorized(l, i)})


def merge(local, remote):
    if remote['account_id'] != local['account_id']: return None
    newer, older = (remote, local) if remote['version'] > local['version'] else (local, remote)
    rev = []
    for r in local['revoked'] + remote['revoked']:
        if r in rev: continue
        if (newer['version'] > older['version'] and r in older['revoked'] and r not in newer['revoked']
                and r in newer['devices']):
            continue
        rev.append(r)
    dev = []
    for d in local['devices'] + remote['devices']:
        if d not in dev and d not in rev: dev.append(d)
    dev.sort(); rev.sort()
    ret = local['account_leaf_retired'] or remote['account_leaf_retired']
    if dev == sorted(local['devices']) and rev == sorted(local['revoked']) and ret == local['account_leaf_retired']:
        return None
    return OrderedDict([('account_id', local['account_id']), ('version', max(local['version'], remote['version']) + 1),
                        ('devices', dev), ('revoked', rev), ('account_leaf_retired', ret)])


# ---------- inputs/outputs ----------
def ids(inp, k):
    v = need(inp, k)
    if not isinstance(v, list): raise Reject('input_bad_type')
    return [hexval({'x': x}, 'x', 32) for x in v]


def read_list(inp, k=None):
    l = need(inp, k) if k else inp
    if not isinstance(l, dict): raise Reject('input_bad_type')
    out = OrderedDict()
    out['account_id'] = hexval(l, 'account_id', 32)
    out['version'] = uint(l, 'version'); out['updated_at'] = uint(l, 'updated_at')
    out['devices'] = ids(l, 'devices'); out['revoked'] = ids(l, 'revoked')
    r = need(l, 'account_leaf_retired')
    if not isinstance(r, bool): raise Reject('input_bad_type')
    out['account_leaf_retired'] = r
    return out


def list_json(l):
    return OrderedDict([('account_id', l['account_id'].hex()), ('version', jint(l['version'])),
                        ('updated_at', jint(l['updated_at'])), ('devices', [d.hex() for d in l['devices']]),
                        ('revoked', [d.hex() for d in l['revoked']]), ('account_leaf_retired', l['account_leaf_retired'])])


CUR = {}
def exp_out():
    return CUR['exp'].get('output') or {}


def exp_sig():
    o = exp_out()
    if 'signature' not in o: raise Skip('no signature to reuse')
    return bytes.fromhex(o['signature'])


def op_derive(inp):
    seed = hexval(inp, 'seed', 32)
    eds, mls = sub(seed, 'ed25519', 32), sub(seed, 'ml-dsa-65', 32)
    nid = ed_pub(eds)
    o = exp_out()
    given = bytes.fromhex(o['bundle']) if o else bytes(3200)
    mldsa_pk = given[1248:]                # black box: ML-DSA KeyGen
    # black box: ML-KEM.KeyGen_internal of d || z = sub(seed, 'pixie-vectors-ml-kem-768-seed', 64)
    # (no ML-KEM here); a real key has every coefficient below q, so §10.1's re-encoding keeps it
    mlkem_ek = reencode_mlkem(given[64:1248])
    bundle = nid + x25519_base(sub(seed, 'x25519', 32)) + mlkem_ek + mldsa_pk
    return OrderedDict([('node_id', nid.hex()), ('ed25519_seed', eds.hex()), ('mldsa_seed', mls.hex()),
                        ('bundle', bundle.hex())])


def op_cred_issue(inp):
    seed = hexval(inp, 'account_seed', 32); bundle = hexval(inp, 'device_bundle')
    name = need(inp, 'name')
    if not isinstance(name, str): raise Reject('input_bad_type')
    created = uint(inp, 'created_at')
    bundle = parse_bundle(bundle)
    acct = node_id(seed)
    sig = exp_sig()
    return OrderedDict([('signing_bytes', cred_signing_bytes(acct, created, name, bundle).hex()),
                        ('signature', sig.hex()), ('wire', cred_wire(acct, created, name, bundle, sig).hex())])


def op_cred_decode(inp):
    c = cred_decode(hexval(inp, 'wire'))
    return OrderedDict((k, v.hex() if isinstance(v, bytes) else (jint(v) if k == 'created_at' else v)) for k, v in c.items())


def sig_check(pinned, msg, sig):
    """§10.1: <= 64 bytes; the Ed25519 half (computed); the ML-DSA part's length; the ML-DSA-65
    half (black box: the vector's own verdict, the only thing not computed here)."""
    if len(sig) <= 64: raise Reject('device_list_sig_wrong_length')
    if not ed_verify(pinned[:32], msg, sig[:64]): raise Reject('device_list_sig_ed25519_invalid')
    if len(sig) - 64 != 3309: raise Reject('device_list_sig_wrong_length')
    if CUR['exp'].get('error') == 'device_list_sig_mldsa_invalid': raise Reject('device_list_sig_mldsa_invalid')


def op_cred_verify(inp):
    w = hexval(inp, 'wire'); pinned = hexval(inp, 'pinned')
    parse_bundle(pinned)
    c = cred_decode(w)
    if c['account_id'] != pinned[:32]: raise Reject('device_list_account_mismatch')
    sig_check(pinned, cred_signing_bytes(c['account_id'], c['created_at'], c['name'], c['device_bundle']), c['signature'])
    return OrderedDict([('verified', True), ('device_id', c['device_id'].hex())])


def op_list_sign(inp):
    seed = hexval(inp, 'account_seed', 32)
    l = OrderedDict([('account_id', node_id(seed))])
    l['version'] = uint(inp, 'version'); l['updated_at'] = uint(inp, 'updated_at')
    l['devices'] = ids(inp, 'devices'); l['revoked'] = ids(inp, 'revoked')
    r = need(inp, 'account_leaf_retired')
    if not isinstance(r, bool): raise Reject('input_bad_type')
    l['account_leaf_retired'] = r
    sig = exp_sig()
    return OrderedDict([('signing_bytes', list_signing_bytes(l).hex()), ('signature', sig.hex()),
                        ('wire', list_wire(l, sig).hex())])


def op_list_decode(inp):
    l, sig = list_decode(hexval(inp, 'wire'))
    o = list_json(l); o['signature'] = sig.hex(); return o


def op_list_verify(inp):
    w = hexval(inp, 'wire'); pinned = hexval(inp, 'pinned')
    parse_bundle(pinned)
    l, sig = list_decode(w)
    if l['account_id'] != pinned[:32]: raise Reject('device_list_account_mismatch')
    sig_check(pinned, list_signing_bytes(l), sig)
    return OrderedDict([('verified', True), ('version', jint(l['version'])),
                        ('account_leaf_retired', l['account_leaf_retired']),
                        ('authorized', [i.hex() for i in authorized_set(l)])])


def op_is_authorized(inp):
    l = read_list(inp, 'list'); i = hexval(inp, 'device_id', 32)
    return {'authorized': authorized(l, i)}


def op_adopt(inp):
    local = read_list(inp, 'local'); other = read_list(inp, 'other')
    if other['account_id'] == local['account_id'] and other['version'] > local['version']:
        return OrderedDict([('adopted', True), ('list', list_json(other))])
    return OrderedDict([('adopted', False), ('list', list_json(local))])


def changed(seed, base_ver, newlist, updated_at):
    if newlist is None: return {'changed': False}
    if base_ver == (1 << 64) - 1: raise Reject('device_list_version_exhausted')
    nl = OrderedDict([('account_id', newlist['account_id']), ('version', newlist['version']),
                      ('updated_at', updated_at), ('devices', newlist['devices']),
                      ('revoked', newlist['revoked']), ('account_leaf_retired', newlist['account_leaf_retired'])])
    sig = exp_sig()
    return OrderedDict([('changed', True), ('list', list_json(nl)), ('signature', sig.hex()),
                        ('wire', list_wire(nl, sig).hex())])


def op_merge(inp):
    seed = hexval(inp, 'account_seed', 32)
    local = read_list(inp, 'local'); remote = read_list(inp, 'remote'); upd = uint(inp, 'updated_at')
    if node_id(seed) != local['account_id']: raise Reject('device_list_signer_mismatch')
    m = merge(local, remote)
    if m is not None and max(local['version'], remote['version']) == (1 << 64) - 1:
        raise Reject('device_list_version_exhausted')
    return changed(seed, 0, m, upd)


def op_self_added(inp):
    seed = hexval(inp, 'account_seed', 32); l = read_list(inp, 'list')
    i = hexval(inp, 'device_id', 32); upd = uint(inp, 'updated_at')
    if node_id(seed) != l['account_id']: raise Reject('device_list_signer_mismatch')
    if i in l['devices'] and i not in l['revoked']: return {'changed': False}
    n = OrderedDict(l)
    n['devices'] = l['devices'] + ([i] if i not in l['devices'] else [])
    n['revoked'] = [r for r in l['revoked'] if r != i]
    n['version'] = l['version'] + 1
    return changed(seed, l['version'], n, upd)


def op_retire(inp):
    seed = hexval(inp, 'account_seed', 32); l = read_list(inp, 'list'); upd = uint(inp, 'updated_at')
    if node_id(seed) != l['account_id']: raise Reject('device_list_signer_mismatch')
    if l['account_leaf_retired']: return {'changed': False}
    n = OrderedDict(l); n['account_leaf_retired'] = True; n['version'] = l['version'] + 1
    return changed(seed, l['version'], n, upd)


def op_contact_apply(inp):
    primary = hexval(inp, 'primary', 32)
    # R2.2-7: each member completely, known's elements included, before advertised is read.
    known = need(inp, 'known')
    if not isinstance(known, list): raise Reject('input_bad_type')
    read = []
    for k in known:
        d = hexval(k, 'device', 32); r = need(k, 'revoked')
        if not isinstance(r, bool): raise Reject('input_bad_type')
        read.append((d, r))
    adv = ids(inp, 'advertised')
    recs = OrderedDict()
    for d, r in read:
        if d in recs: raise Reject('duplicate_key')
        recs[d] = r
    if not adv: raise Reject('device_list_empty_advertisement')
    for a in adv: recs[a] = False
    for d in list(recs):
        if d not in adv and d != primary: recs[d] = True
    ks = sorted(recs)
    return OrderedDict([('known', [OrderedDict([('device', d.hex()), ('revoked', recs[d])]) for d in ks]),
                        ('fanout', [d.hex() for d in ks if not recs[d]])])


def op_advertise(inp):
    me = hexval(inp, 'self_device', 32); sib = ids(inp, 'siblings')
    cached = need(inp, 'cached')
    if cached is not None and not isinstance(cached, str): raise Reject('input_bad_type')
    csv = ','.join(i.hex() for i in sorted(set(sib) | {me}))
    return OrderedDict([('csv', csv), ('push', cached is None or cached.encode() != csv.encode())])


def op_adv_decode(inp):
    t = need(inp, 'csv')
    if not isinstance(t, str): raise Reject('input_bad_type')
    if t == '': raise Reject('device_list_empty_advertisement')
    out = set()
    for e in t.split(','):
        if len(e) != 64 or any(c not in '0123456789abcdef' for c in e): raise Reject('device_list_bad_advertisement')
        out.add(bytes.fromhex(e))
    return {'advertised': [i.hex() for i in sorted(out)]}


def op_fanout(inp):
    f = ids(inp, 'fanout'); ch = need(inp, 'chain')
    s = set(f)
    if ch is not None:
        s &= set(authorized_set(read_list(ch)))
    return {'recipients': [i.hex() for i in sorted(s)]}


OPS = {'derive_identity': op_derive, 'credential_issue': op_cred_issue, 'credential_decode': op_cred_decode,
       'credential_verify': op_cred_verify, 'list_sign': op_list_sign, 'list_decode': op_list_decode,
       'list_verify': op_list_verify, 'is_authorized': op_is_authorized, 'adopt_if_newer': op_adopt,
       'merge': op_merge, 'with_self_added': op_self_added, 'with_account_leaf_retired': op_retire,
       'advertise': op_advertise, 'advertisement_decode': op_adv_decode,
       'contact_apply': op_contact_apply, 'fanout_filter': op_fanout}


if __name__ == '__main__':
    import harness
    data = load('device_list')
    by_input = {id(c['input']): c['expected'] for c in data['cases']}
    def bind(fn):
        def g(inp):
            CUR['exp'] = by_input[id(inp)]
            return fn(inp)
        return g
    harness.load = lambda fmt: data
    ok = run('device_list', {k: bind(v) for k, v in OPS.items()}, verbose='-v' in sys.argv)
    sys.exit(0 if ok else 1)

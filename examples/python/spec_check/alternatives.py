"""Which plausible alternative readings of SPEC do the vectors rule out?  Each experiment
patches one rule in the reproduction scripts and lists the cases that then fail (a reading
no case pins shows 0 failures: the text must decide it).  Every reading below is one SPEC.md
rules out in words; the script exits 1 if any of them makes no case fail, i.e. if a check order
SPEC states is not pinned by a golden vector."""
import io, contextlib, sys
import harness, cbor
import signin, device_list, sync_offer


def quiet_run(fmt, ops, bind_expected=None):
    data = harness.load(fmt) if not hasattr(quiet_run, fmt) else getattr(quiet_run, fmt)
    setattr(quiet_run, fmt, data)
    by_input = {id(c['input']): c['expected'] for c in data['cases']}
    def bind(fn):
        def g(inp):
            exp = by_input[id(inp)]
            signin_cur['exp'] = exp; device_list.CUR['exp'] = exp
            return fn(inp)
        return g
    buf = io.StringIO()
    orig = harness.load
    harness.load = lambda f: data
    try:
        with contextlib.redirect_stdout(buf):
            harness.run(fmt, {k: bind(v) for k, v in ops.items()})
    finally:
        harness.load = orig
    return [l.split()[1] for l in buf.getvalue().splitlines() if l.startswith('FAIL')]


signin_cur = {}


def signin_ops():
    w = lambda fn: (lambda inp: fn(inp, signin_cur['exp']))
    S = signin
    return {'approval_decode': S.op_approval_decode, 'approval_admits': S.op_approval_admits,
            'approval_encode': S.op_approval_encode, 'cert_verify': w(S.op_cert_verify),
            'ladder': w(S.op_ladder), 'request_encode': S.simple_encode(S.REQUEST, 'signin_request'),
            'cert_encode': S.op_cert_encode}


def experiment(name, fmt, ops, patch, unpatch):
    patch()
    try:
        fails = quiet_run(fmt, ops)
    finally:
        unpatch()
    print(f'{name}: {len(fails)} case(s) fail' + ''.join('\n    ' + f for f in fails))
    if not fails:
        UNPINNED.append(name)


UNPINNED = []


# A. approval: a member whose value is CBOR null counts as absent
orig_check = signin.check_members
def null_absent(m, table, tag=None, partial=False):
    if partial and isinstance(m, cbor.CMap):
        m = cbor.CMap([(k, v) for k, v in m.pairs if not (k in ('grant', 'account_seed', 'kt_handle') and v is None)])
    return orig_check(m, table, tag, partial)
def pA(): signin.check_members = null_absent
def uA(): signin.check_members = orig_check
experiment('A  approval: null member = absent', 'signin', signin_ops(), pA, uA)

# B. approval: the grant's inner members checked after account_seed and kt_handle
def inner_last(m, table, tag=None, partial=False):
    if table is signin.APPROVAL:
        t2 = [('grant', 'map', None)] + table[1:]
        out = orig_check(m, t2, tag, partial)
        if out['grant'] is not None:
            out['grant'] = orig_check(out['grant'], signin.GRANT)
        return out
    return orig_check(m, table, tag, partial)
orig_ctype = cbor.ctype
def pB(): signin.check_members = inner_last
experiment('B  approval: grant inner checked last', 'signin', signin_ops(), pB, uA)

# C. approval: partial count before §8.2 step 4 (unknown members)
def partial_first(m, table, tag=None, partial=False):
    if partial and isinstance(m, cbor.CMap) and all(isinstance(k, str) for k in m.keys()):
        d = dict(m.pairs)
        if d.get('type') == tag:
            c = sum(1 for n, _, _ in table if n in d)
            if c in (1, 2): raise harness.Reject('signin_approval_partial')
    return orig_check(m, table, tag, partial)
def pC(): signin.check_members = partial_first
experiment('C  approval: partial before unknown-member check', 'signin', signin_ops(), pC, uA)

# D. device_list verify: the wire decoded before the pinned bundle is parsed (this suite's order
#    before it followed Haven's FFI, which parses the account bundle first)
DL = device_list
orig_cv, orig_lv = DL.op_cred_verify, DL.op_list_verify
def cv_D(inp):
    DL.cred_decode(harness.hexval(inp, 'wire')); return orig_cv(inp)
def lv_D(inp):
    DL.list_decode(harness.hexval(inp, 'wire')); return orig_lv(inp)
experiment('D  device_list verify: wire decoded before pinned parsed', 'device_list',
           dict(DL.OPS, credential_verify=cv_D, list_verify=lv_D), lambda: None, lambda: None)

# D2. device_list verify: pinned parsed as soon as it is read, before the wire's hex is read
def cv_D2(inp):
    DL.parse_bundle(harness.hexval(inp, 'pinned')); return orig_cv(inp)
def lv_D2(inp):
    DL.parse_bundle(harness.hexval(inp, 'pinned')); return orig_lv(inp)
experiment('D2 device_list verify: pinned parsed before the wire is read', 'device_list',
           dict(DL.OPS, credential_verify=cv_D2, list_verify=lv_D2), lambda: None, lambda: None)

# G. device_list signatures: the total length judged before the Ed25519 half
orig_sig = DL.sig_check
def sig_G(pinned, msg, sig):
    if len(sig) != 3373: raise harness.Reject('device_list_sig_wrong_length')
    return orig_sig(pinned, msg, sig)
experiment('G  device_list signature: length before the Ed25519 half', 'device_list', DL.OPS,
           lambda: setattr(DL, 'sig_check', sig_G), lambda: setattr(DL, 'sig_check', orig_sig))

# G2. device_list signatures: a both-halves verifier (length first; a changed message fails both
#     halves, reported as both_invalid)
def sig_G2(pinned, msg, sig):
    if len(sig) != 3373: raise harness.Reject('device_list_sig_wrong_length')
    if not DL.ed_verify(pinned[:32], msg, sig[:64]): raise harness.Reject('device_list_sig_both_invalid')
    return orig_sig(pinned, msg, sig)
experiment('G2 device_list signature: both halves reported', 'device_list', DL.OPS,
           lambda: setattr(DL, 'sig_check', sig_G2), lambda: setattr(DL, 'sig_check', orig_sig))

# P. advertisement_decode: a text with no id in it ("," ) read as the empty set
orig_adv = DL.op_adv_decode
def adv_N(inp):
    t = inp.get('csv')
    if isinstance(t, str) and t.strip(',') == '': raise harness.Reject('device_list_empty_advertisement')
    return orig_adv(inp)
experiment('P  advertisement: only commas read as the empty set', 'device_list', dict(DL.OPS, advertisement_decode=adv_N),
           lambda: None, lambda: None)

# Q1. §10.1: a bundle's ML-KEM part kept as given (opaque bytes), as this suite read it before
#     issue 26; Q2. refused when a coefficient is >= q (FIPS 203's modulus check at parse time)
orig_reencode, orig_parse = DL.reencode_mlkem, DL.parse_bundle
def parse_Q2(b):
    out = orig_parse(b)
    if out != b: raise harness.Reject('device_list_bad_bundle')
    return out
experiment('Q1 bundle: ML-KEM key kept as given', 'device_list', DL.OPS,
           lambda: setattr(DL, 'reencode_mlkem', lambda k: k), lambda: setattr(DL, 'reencode_mlkem', orig_reencode))
experiment('Q2 bundle: non-canonical ML-KEM key refused', 'device_list', DL.OPS,
           lambda: setattr(DL, 'parse_bundle', parse_Q2), lambda: setattr(DL, 'parse_bundle', orig_parse))

# E. version exhaustion checked before the no-change decision
orig_self, orig_ret = DL.op_self_added, DL.op_retire
def self_added_E(inp):
    l = DL.read_list(inp, 'list')
    if l['version'] == (1 << 64) - 1: raise harness.Reject('device_list_version_exhausted')
    return orig_self(inp)
def retire_E(inp):
    l = DL.read_list(inp, 'list')
    if l['version'] == (1 << 64) - 1: raise harness.Reject('device_list_version_exhausted')
    return orig_ret(inp)
experiment('E  exhaustion before no-change', 'device_list',
           dict(DL.OPS, with_self_added=self_added_E, with_account_leaf_retired=retire_E), lambda: None, lambda: None)

# F. exhaustion checked before the signer check
def self_added_F(inp):
    l = DL.read_list(inp, 'list')
    if l['version'] == (1 << 64) - 1 and DL.node_id(harness.hexval(inp, 'account_seed', 32)) != l['account_id']:
        raise harness.Reject('device_list_version_exhausted')
    return orig_self(inp)
def retire_F(inp):
    l = DL.read_list(inp, 'list')
    if l['version'] == (1 << 64) - 1 and not l['account_leaf_retired'] and DL.node_id(harness.hexval(inp, 'account_seed', 32)) != l['account_id']:
        raise harness.Reject('device_list_version_exhausted')
    return orig_ret(inp)
experiment('F  exhaustion before signer', 'device_list', dict(DL.OPS, with_self_added=self_added_F, with_account_leaf_retired=retire_F),
           lambda: None, lambda: None)

# H. contact_apply: empty advertisement checked before duplicate known records
def ca_H(inp):
    if inp.get('advertised') == []: raise harness.Reject('device_list_empty_advertisement')
    return DL.op_contact_apply(inp)
experiment('H  contact_apply: empty before duplicate', 'device_list', dict(DL.OPS, contact_apply=ca_H), lambda: None, lambda: None)

# I. merge: other-account lists checked before the signer
def merge_I(inp):
    l = DL.read_list(inp, 'local'); r = DL.read_list(inp, 'remote')
    if l['account_id'] != r['account_id']: return {'changed': False}
    return DL.op_merge(inp)
experiment('I  merge: account compare before signer', 'device_list', dict(DL.OPS, merge=merge_I), lambda: None, lambda: None)

# J. signin encoders: each member's message rules applied as soon as it is read (not after all inputs)
from collections import OrderedDict
orig_read_input = signin.read_input
def read_input_J(inp, table, nullable=False):
    out = OrderedDict()
    for row in table:
        v = orig_read_input(inp, [row], nullable)
        signin.rules(v, [row])
        out.update(v)
    return out
def pJ(): signin.read_input = read_input_J
def uJ(): signin.read_input = orig_read_input
experiment('J  signin encoders: message rules per member as read', 'signin', signin_ops(), pJ, uJ)

# K. approval_admits: now_s read before the approval is decoded
def admits_K(inp):
    harness.uint(inp, 'now_s')
    return signin.op_approval_admits(inp)
experiment('K  approval_admits: now_s before decoding', 'signin', dict(signin_ops(), approval_admits=admits_K), lambda: None, lambda: None)

# L1 / L2. snapshot text set: every element's type checked before the order, or the order first
SO = sync_offer
orig_tse = SO.text_set_elements
def tse_L1(fv):
    if any(cbor.ctype(e) != 'tstr' for e in fv): raise harness.Reject('sync_bad_type')
    orig_tse(fv)
def tse_L2(fv):
    bs = [e.encode() for e in fv if cbor.ctype(e) == 'tstr']
    if any(a >= b for a, b in zip(bs, bs[1:])): raise harness.Reject('sync_bad_value')
    orig_tse(fv)
def uL(): SO.text_set_elements = orig_tse
experiment('L1 text set: all types before order', 'sync_offer', SO.OPS, lambda: setattr(SO, 'text_set_elements', tse_L1), uL)
experiment('L2 text set: order before types', 'sync_offer', SO.OPS, lambda: setattr(SO, 'text_set_elements', tse_L2), uL)

# M1 / M2. receive / handle_request: the gate runs as soon as its two hashes are read
def gate_first(fn, dropped):
    def g(inp):
        own = harness.hexval(inp, 'own_user_id_hash', optional=True)
        if not SO.same_account(own, harness.hexval(inp, 'sender_user_id_hash')): return dropped
        return fn(inp)
    return g
drop_r = OrderedDict([('result', 'dropped'), ('reason', 'sync_not_same_account'), ('ack', None), ('snapshot', None)])
drop_h = OrderedDict([('result', 'dropped'), ('reason', 'sync_not_same_account'), ('request', None)])
experiment('M1 receive: gate before the other inputs', 'sync_offer', dict(SO.OPS, receive=gate_first(SO.op_receive, drop_r)), lambda: None, lambda: None)
experiment('M2 handle_request: gate before the other inputs', 'sync_offer', dict(SO.OPS, handle_request=gate_first(SO.op_handle_request, drop_h)), lambda: None, lambda: None)

# N1-N3. §1 read another way: a repeat against every earlier key, counts read lazily, depth on containers only
def flag(name, value):
    old = getattr(cbor, name)
    return (lambda: setattr(cbor, name, value)), (lambda: setattr(cbor, name, old))
experiment('N1 CBOR: repeat checked against all earlier keys', 'sync_offer', SO.OPS, *flag('REPEATS_AGAINST_ALL', True))
experiment('N2 CBOR: counts not checked at the head', 'sync_offer', SO.OPS, *flag('COUNTS_AT_HEAD', False))
experiment('N3 CBOR: depth of containers only, after the byte', 'sync_offer', SO.OPS, *flag('DEPTH_BEFORE_BYTE', False))

# N4. §7.2 step 5 in encoding order instead of table order
orig_mo = SO.member_order
def mo_encoding(tag, v):
    order = [k for k in v.keys() if k != 'type']
    t = SO.TABLES[tag]
    return [f for k in order for f in t if f[0] == k] + [f for f in t if f[0] not in order]
experiment('N4 payload members in encoding order', 'sync_offer', SO.OPS, lambda: setattr(SO, 'member_order', mo_encoding), lambda: setattr(SO, 'member_order', orig_mo))

# N5. §7.4 (Part C.2): every namespace's key and value before any row
orig_rn = SO.read_namespaces
def rn_keys_first(nss):
    for ns, rows in nss.pairs: SO.namespace_entry(ns, rows)
    return SO.OrderedDict((ns, SO.namespace_rows(ns, rows)) for ns, rows in nss.pairs)
experiment('N5 snapshot: namespace keys before rows', 'sync_offer', SO.OPS, lambda: setattr(SO, 'read_namespaces', rn_keys_first), lambda: setattr(SO, 'read_namespaces', orig_rn))

# N6. §7.4: row members in §4.4 order (then leftovers), N12: a missing field before the members
orig_dr = SO.decode_row
def dr_schema(ns, row):
    if not isinstance(row, cbor.CMap): raise harness.Reject('sync_bad_type')
    d = dict(row.pairs)
    names = [f[0] for f in SO.fields(ns)]
    ordered = cbor.CMap([(n, d[n]) for n in names if n in d] + [(k, v) for k, v in row.pairs if k not in names])
    return orig_dr(ns, ordered)
def dr_missing_first(ns, row):
    if isinstance(row, cbor.CMap):
        have = set(row.keys())
        for name, typ, opt, _ in SO.SCHEMAS[ns][1]:
            if not SO.optional(opt) and typ != 'normalized_hash' and name not in have: raise harness.Reject('sync_missing_field')
    return orig_dr(ns, row)
experiment('N6 snapshot row: members in schema order', 'sync_offer', SO.OPS, lambda: setattr(SO, 'decode_row', dr_schema), lambda: setattr(SO, 'decode_row', orig_dr))
experiment('N12 snapshot row: missing field before the members', 'sync_offer', SO.OPS, lambda: setattr(SO, 'decode_row', dr_missing_first), lambda: setattr(SO, 'decode_row', orig_dr))

# N7. §7.9: SNAPSHOT input namespaces in JSON member order, each name checked as met
orig_sfj = SO.snapshot_from_json
def sfj_json_order(snap):
    if isinstance(snap, dict) and isinstance(snap.get('namespaces'), dict):
        for ns, rows in snap['namespaces'].items():
            if ns not in SO.SCHEMAS: raise harness.Reject('unknown_namespace')
            if isinstance(rows, list):
                for r in rows: SO.row_from_json(ns, r)
    return orig_sfj(snap)
experiment('N7 SNAPSHOT input in JSON member order', 'sync_offer', SO.OPS, lambda: setattr(SO, 'snapshot_from_json', sfj_json_order), lambda: setattr(SO, 'snapshot_from_json', orig_sfj))

# N8-N10. §7.6: neighbouring steps swapped
orig_rs = SO.receive_steps
def rs_swap(first):
    def g(o, blob, cap):
        r = first(o, blob, cap)
        return r if r else orig_rs(o, blob, cap)
    return g
import hashlib
alts = {
    'N8 receive: size comparison before the cap': lambda o, b, c: 'sync_size_mismatch' if len(b) != o['size_bytes'] else None,
    'N9 receive: tag length before the size comparison': lambda o, b, c: 'sync_blob_too_short' if len(b) < 16 else None,
    'N10 receive: hash before the tag-length check': lambda o, b, c: ('sync_hash_mismatch' if hashlib.sha256(b).digest() != o['sha256'] else None) if len(b) == o['size_bytes'] and len(b) <= c and o['size_bytes'] <= c else None,
}
for name, first in alts.items():
    experiment(name, 'sync_offer', SO.OPS, lambda f=first: setattr(SO, 'receive_steps', rs_swap(f)), lambda: setattr(SO, 'receive_steps', orig_rs))

# N11. §7.4: provider_keys read before namespaces
orig_dsb = SO.decode_snapshot_bytes
def dsb_keys_first(b):
    v = cbor.decode(b)
    if isinstance(v, cbor.CMap) and all(isinstance(k, str) for k in v.keys()):
        d = dict(v.pairs)
        pk = d.get('provider_keys', 0)
        if 'provider_keys' in d and set(v.keys()) <= {'version', 'namespaces', 'provider_keys'}:
            if not isinstance(pk, cbor.CMap): raise harness.Reject('sync_bad_type')
            if not pk.pairs: raise harness.Reject('sync_bad_value')
    return orig_dsb(b)
experiment('N11 snapshot: provider_keys before namespaces', 'sync_offer', SO.OPS, lambda: setattr(SO, 'decode_snapshot_bytes', dsb_keys_first), lambda: setattr(SO, 'decode_snapshot_bytes', orig_dsb))

if UNPINNED:
    print('NOT PINNED by any vector: ' + '; '.join(UNPINNED))
    sys.exit(1)
print('every alternative reading is killed by at least one vector')

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

# D. device_list verify: the pinned bundle parsed before the wire is decoded
DL = device_list
orig_cd, orig_ld = DL.cred_decode, DL.list_decode
def pD():
    def cv(inp):
        DL.parse_bundle(harness.hexval(inp, 'pinned')); return orig_cv(inp)
    def lv(inp):
        DL.parse_bundle(harness.hexval(inp, 'pinned')); return orig_lv(inp)
    DL.OPS2 = dict(DL.OPS, credential_verify=cv, list_verify=lv)
orig_cv, orig_lv = DL.op_cred_verify, DL.op_list_verify
pD()
experiment('D  device_list verify: pinned parsed before wire', 'device_list', DL.OPS2, lambda: None, lambda: None)

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

if UNPINNED:
    print('NOT PINNED by any vector: ' + '; '.join(UNPINNED))
    sys.exit(1)
print('every alternative reading is killed by at least one vector')

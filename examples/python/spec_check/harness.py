"""Tiny vector runner: each op function takes the case input and returns an output
object or raises Reject(code). Skip(reason) marks a case this review cannot check."""
import collections, json, os, re, sys

def _repo_root():
    """The repository root: the nearest directory above this file holding SPEC.md and vectors/
    (examples/python/spec_check/ -> the root, three levels up)."""
    d = os.path.dirname(os.path.abspath(__file__))
    while True:
        if os.path.isfile(os.path.join(d, 'SPEC.md')) and os.path.isdir(os.path.join(d, 'vectors')):
            return d
        up = os.path.dirname(d)
        if up == d:
            sys.exit('spec_check: no SPEC.md and vectors/ above ' + os.path.dirname(os.path.abspath(__file__)))
        d = up


ROOT = _repo_root()


class Reject(Exception):
    def __init__(self, code):
        super().__init__(code); self.code = code


class Skip(Exception):
    pass


def load(fmt):
    with open(os.path.join(ROOT, 'vectors', fmt + '.json'), encoding='utf-8') as f:
        return json.load(f, object_pairs_hook=collections.OrderedDict)


def spec_text():
    with open(os.path.join(ROOT, 'SPEC.md'), encoding='utf-8') as f:
        return f.read()


def same(a, b):
    """JSON equality that also checks object member order."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a.keys()) == list(b.keys()) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if type(a) is bool or type(b) is bool:
        return a is b
    return a == b


def run(fmt, ops, verbose=False):
    data = load(fmt)
    stats = collections.defaultdict(lambda: collections.Counter())
    fails = []
    for case in data['cases']:
        op, exp = case['op'], case['expected']
        fn = ops.get(op)
        if fn is None:
            stats[op]['skip'] += 1
            continue
        try:
            got = {'output': fn(case['input'])}
        except Reject as e:
            got = {'error': e.code}
        except Skip as e:
            stats[op]['skip'] += 1
            if verbose: print('SKIP', case['id'], e)
            continue
        if same(got, exp):
            stats[op]['pass'] += 1
        else:
            stats[op]['FAIL'] += 1
            fails.append((case['id'], got, exp))
    for op in sorted(stats):
        c = stats[op]
        print(f"  {op:28s} pass {c['pass']:3d}  fail {c['FAIL']:3d}  skip {c['skip']:3d}")
    tot = collections.Counter()
    for c in stats.values(): tot.update(c)
    print(f"  {'TOTAL':28s} pass {tot['pass']:3d}  fail {tot['FAIL']:3d}  skip {tot['skip']:3d}")
    for cid, got, exp in fails:
        g = json.dumps(got)[:400]; e = json.dumps(exp)[:400]
        print('FAIL', cid, '\n   got', g, '\n   exp', e)
    return not fails


# ---- input helpers (SPEC §2, §7.9, §8.9, §10.6) ----
def need(inp, k):
    if k not in inp:
        raise Reject('input_missing_field')
    return inp[k]


HEX = re.compile(r'(?:[0-9a-fA-F]{2})*')
DECIMAL = re.compile(r'0|-?[1-9][0-9]*')


def hexval(inp, k, n=None, optional=False, nullable=False):
    """§2.2 rule 4: hex digit pairs in either case and nothing else (bytes.fromhex would also
    skip spaces, which §2.2 does not allow)."""
    if k not in inp:
        if optional: return None
        raise Reject('input_missing_field')
    v = inp[k]
    if v is None and nullable:
        return None
    if not isinstance(v, str):
        raise Reject('input_bad_type')
    if not HEX.fullmatch(v):
        raise Reject('input_bad_value')
    b = bytes.fromhex(v)
    if n is not None and len(b) != n:
        raise Reject('input_bad_length')
    return b


def integer(v, lo, hi):
    """§2.2 rule 3: a JSON integer (json.load gives floats for 1.0 and 1e0) or a canonical decimal
    string; anything else, or a value outside [lo, hi], is input_bad_type."""
    if isinstance(v, bool): raise Reject('input_bad_type')
    if isinstance(v, str):
        if not DECIMAL.fullmatch(v): raise Reject('input_bad_type')
        v = int(v)
    if not isinstance(v, int) or not lo <= v <= hi:
        raise Reject('input_bad_type')
    return v


def uint(inp, k, bits=64, optional=False, nullable=False):
    if k not in inp:
        if optional: return None
        raise Reject('input_missing_field')
    v = inp[k]
    if v is None and nullable: return None
    return integer(v, 0, (1 << bits) - 1)


def int64(inp, k):
    return integer(need(inp, k), -(1 << 63), (1 << 63) - 1)


def jint(v):
    """JSON rendering of an integer (§2): number up to 2^53, decimal string beyond."""
    return v if abs(v) <= 1 << 53 else str(v)

"""Reproduce vectors/sync_offer.json from SPEC §1, §2.2, §3, §4.4, §7 (no AES-GCM)."""
import hashlib, re, sys
from collections import OrderedDict
import cbor
from cbor import CborError, CMap, ctype
from harness import Reject, Skip, run, hexval, uint, int64, integer, need, jint, spec_text

# --- §4.1 / §4.4 schemas, §7.4 snapshot fields, §7.7 kept fields: parsed from SPEC.md itself ---
NAMESPACES = ['settings', 'messages', 'memory', 'notebook', 'saga', 'contacts', 'plans',
              'peerDevices', 'fileIndex', 'ktIdentityLedger', 'blocks', 'posts', 'agentConversations']
TXT = spec_text()


def table_rows(text):
    """The body rows of the first markdown table in `text`, as lists of cells."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith('|'))
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith('|')), len(lines))
    return [[c.strip() for c in l.strip().strip('|').split('|')] for l in lines[start + 2:end]]


def parse_schemas():
    sec = TXT[TXT.index('### 4.4 Schemas'):TXT.index('### 4.5 ')]
    out = {}
    for m in re.finditer(r'#### (\w+) \(sort key: `(\w+)`\)\n\n(.*?)(?=\n\n)', sec, re.S):
        ns, key, table = m.group(1), m.group(2), m.group(3)
        # name, type, optional, excluded?
        out[ns] = (key, [(c[1], c[2], c[3], c[4].startswith('excluded')) for c in table_rows(table)])
    return out


SCHEMAS = parse_schemas()
assert list(SCHEMAS) == NAMESPACES
sec74 = TXT[TXT.index('### 7.4 The snapshot payload'):TXT.index('### 7.5 ')]
SNAP_FIELDS = {}          # ns -> [(name, type, optional)], §7.4 table order
for c in table_rows(sec74[sec74.index('Snapshot fields'):]):
    SNAP_FIELDS.setdefault(c[0], []).append((c[1], c[2], c[3]))
sec77 = TXT[TXT.index('### 7.7 Import'):TXT.index('### 7.8 ')]
KEPT = {(c[0], c[1]) for c in table_rows(sec77[sec77.index('| namespace | kept excluded field'):])}
assert len(KEPT) == 5, KEPT


def optional(opt):
    return opt != 'no'


def fields(ns):
    """§4.4 fields (committed and excluded) then the snapshot fields: (name, type, optional)."""
    return [(n, t, o) for n, t, o, _ in SCHEMAS[ns][1]] + SNAP_FIELDS.get(ns, [])


# --- vector input (§7.9): a row is a §4 row once its snapshot fields are taken out ---
def json_value(typ, v):
    m = re.fullmatch(r'bytes\[(\d+)\]', typ)
    if m or typ in ('bytes', 'normalized_hash'):
        b = hexval({'v': v}, 'v')
        if m and len(b) != int(m.group(1)): raise Reject('input_bad_length')
        if typ == 'normalized_hash' and len(b) not in (0, 32): raise Reject('input_bad_length')
        return b
    if typ in ('text', 'note_body'):
        if not isinstance(v, str): raise Reject('input_bad_type')
        return v
    if typ == 'uint': return integer(v, 0, (1 << 64) - 1)
    if typ in ('int', 'date'): return integer(v, -(1 << 63), (1 << 63) - 1)
    if typ == 'bool':
        if not isinstance(v, bool): raise Reject('input_bad_type')
        return v
    if typ == 'text_set':
        if not isinstance(v, list) or not all(isinstance(s, str) for s in v): raise Reject('input_bad_type')
        return sorted(set(v), key=lambda s: s.encode())
    if typ == 'reaction_set':
        # §4.2: reaction objects read like rows: names first, then reactor, then emoji.
        if not isinstance(v, list): raise Reject('input_bad_type')
        out = []
        for r in v:
            if not isinstance(r, dict): raise Reject('input_bad_type')
            if any(k not in ('reactor', 'emoji') for k in r): raise Reject('input_unknown_field')
            reactor = hexval(r, 'reactor', 32)
            emoji = need(r, 'emoji')
            if not isinstance(emoji, str): raise Reject('input_bad_type')
            out.append((reactor, emoji))
        return sorted(set(out), key=lambda p: (p[0], p[1].encode()))
    if typ == 'version_vector':
        if not isinstance(v, dict): raise Reject('input_bad_type')
        return OrderedDict((k, integer(c, 0, (1 << 64) - 1)) for k, c in v.items())
    raise AssertionError(typ)


def row_from_json(ns, row):
    if not isinstance(row, dict): raise Reject('input_bad_type')
    snap_names = {f[0] for f in SNAP_FIELDS.get(ns, [])}
    rest = OrderedDict((k, v) for k, v in row.items() if k not in snap_names)
    # §4.3: unknown fields are rejected; then the schema's fields, required ones present.
    names = {f[0] for f in SCHEMAS[ns][1]}
    for k in rest:
        if k not in names: raise Reject('input_unknown_field')
    out = OrderedDict()
    for name, typ, opt, _ in SCHEMAS[ns][1]:
        if name not in rest:
            if not optional(opt): raise Reject('input_missing_field')
            continue
        out[name] = json_value(typ, rest[name])
    for name, typ, opt in SNAP_FIELDS.get(ns, []):
        if name in row: out[name] = json_value(typ, row[name])
    return out


def row_to_json(ns, row):
    out = OrderedDict()
    for name, typ, opt in fields(ns):
        if name not in row: continue
        v = row[name]
        if isinstance(v, bytes): out[name] = v.hex()
        elif isinstance(v, int) and not isinstance(v, bool): out[name] = jint(v)
        elif typ == 'version_vector': out[name] = OrderedDict((k, jint(c)) for k, c in v.items())
        elif typ == 'reaction_set': out[name] = [OrderedDict([('reactor', a.hex()), ('emoji', e)]) for a, e in v]
        else: out[name] = v
    return out


def sort_key(ns, row):
    k = row[SCHEMAS[ns][0]]
    return k.encode() if isinstance(k, str) else k


def snapshot_from_json(snap):
    """§7.9: names first, then namespaces in §4.1 order, rows element by element; provider_keys."""
    if not isinstance(snap, dict): raise Reject('input_bad_type')
    nss = need(snap, 'namespaces')
    if not isinstance(nss, dict): raise Reject('input_bad_type')
    for ns in nss:
        if ns not in SCHEMAS: raise Reject('unknown_namespace')
    out = OrderedDict()
    for ns in NAMESPACES:
        if ns not in nss: continue
        rows = nss[ns]
        if not isinstance(rows, list): raise Reject('input_bad_type')
        rr = [row_from_json(ns, r) for r in rows]
        rr.sort(key=lambda r: sort_key(ns, r))
        for a, b in zip(rr, rr[1:]):
            if sort_key(ns, a) == sort_key(ns, b): raise Reject('duplicate_key')
        if rr: out[ns] = rr
    keys = OrderedDict()
    if 'provider_keys' in snap:
        pk = snap['provider_keys']
        if not isinstance(pk, dict): raise Reject('input_bad_type')
        for name, key in pk.items():
            if not isinstance(key, str): raise Reject('input_bad_type')
            keys[name] = key
    return {'ns': out, 'keys': keys}


def snapshot_to_json(snap):
    out = OrderedDict([('namespaces', OrderedDict(
        (ns, [row_to_json(ns, r) for r in snap['ns'][ns]]) for ns in NAMESPACES if snap['ns'].get(ns)))])
    if snap['keys']:
        out['provider_keys'] = OrderedDict(sorted(snap['keys'].items(), key=lambda kv: kv[0].encode()))
    return out


def encode_snapshot_value(snap):
    def wire(r):
        return {k: ([{'reactor': a, 'emoji': e} for a, e in v] if isinstance(v, list) and v and isinstance(v[0], tuple) else v)
                for k, v in r.items()}
    top = {'version': 1, 'namespaces': {ns: [wire(r) for r in rows] for ns, rows in snap['ns'].items() if rows}}
    if snap['keys']: top['provider_keys'] = dict(snap['keys'])
    return cbor.encode(top)


# --- §7.4 snapshot decoding ---
I64 = (-(1 << 63), (1 << 63) - 1)


def text_set_elements(fv):
    """§7.4: a text set is read element by element; the first problem wins."""
    prev = None
    for e in fv:
        if ctype(e) != 'tstr': raise Reject('sync_bad_type')
        if prev is not None and not e.encode() > prev: raise Reject('sync_bad_value')
        prev = e.encode()


def check_member(typ, fv):
    t = ctype(fv)
    m = re.fullmatch(r'bytes\[(\d+)\]', typ)
    if m or typ in ('bytes', 'normalized_hash'):
        if t != 'bstr': raise Reject('sync_bad_type')
        if m and len(fv) != int(m.group(1)): raise Reject('sync_bad_length')
        if typ == 'normalized_hash' and len(fv) not in (0, 32): raise Reject('sync_bad_length')
    elif typ in ('text', 'note_body'):
        if t != 'tstr': raise Reject('sync_bad_type')
    elif typ == 'uint':
        if t != 'uint': raise Reject('sync_bad_type')
    elif typ in ('int', 'date'):
        if t not in ('uint', 'nint'): raise Reject('sync_bad_type')
        if not I64[0] <= fv <= I64[1]: raise Reject('sync_bad_value')
    elif typ == 'bool':
        if t != 'bool': raise Reject('sync_bad_type')
    elif typ == 'text_set':
        if t != 'array': raise Reject('sync_bad_type')
        text_set_elements(fv)
        return list(fv)
    elif typ == 'reaction_set':
        # §7.4: maps of exactly reactor (bstr 32) and emoji (tstr), strictly increasing, element by element.
        if t != 'array': raise Reject('sync_bad_type')
        out, prev = [], None
        for e in fv:
            if not isinstance(e, CMap): raise Reject('sync_bad_type')
            d = {}
            for k, x in e.pairs:
                if ctype(k) != 'tstr': raise Reject('sync_bad_type')
                if k not in ('reactor', 'emoji'): raise Reject('sync_unknown_field')
                if k == 'reactor':
                    if ctype(x) != 'bstr': raise Reject('sync_bad_type')
                    if len(x) != 32: raise Reject('sync_bad_length')
                elif ctype(x) != 'tstr': raise Reject('sync_bad_type')
                d[k] = x
            if len(d) != 2: raise Reject('sync_missing_field')
            key = (d['reactor'], d['emoji'].encode())
            if prev is not None and not key > prev: raise Reject('sync_bad_value')
            prev = key
            out.append((d['reactor'], d['emoji']))
        return out
    elif typ == 'version_vector':
        if t != 'map' or any(ctype(a) != 'tstr' or ctype(c) != 'uint' for a, c in fv.pairs):
            raise Reject('sync_bad_type')
        return OrderedDict(fv.pairs)
    return fv


def decode_row(ns, row):
    """§7.4 step 7: members in encoding order, then required fields."""
    if not isinstance(row, CMap): raise Reject('sync_bad_type')
    ftab = {f[0]: f for f in fields(ns)}
    r = OrderedDict()
    for fk, fv in row.pairs:
        if not isinstance(fk, str): raise Reject('sync_bad_type')
        if fk not in ftab: raise Reject('sync_unknown_field')
        r[fk] = check_member(ftab[fk][1], fv)
    for name, typ, opt, _ in SCHEMAS[ns][1]:
        if not optional(opt) and typ != 'normalized_hash' and name not in r: raise Reject('sync_missing_field')
    return r


def namespace_entry(ns, rows):
    """§7.4 step 6: key, known name, array, non-empty."""
    if not isinstance(ns, str): raise Reject('sync_bad_type')
    if ns not in SCHEMAS: raise Reject('unknown_namespace')
    if not isinstance(rows, list): raise Reject('sync_bad_type')
    if not rows: raise Reject('sync_bad_value')


def namespace_rows(ns, rows):
    """§7.4 steps 7-8 for one namespace."""
    prev, res = None, []
    for row in rows:
        r = decode_row(ns, row)
        k = sort_key(ns, r)
        if prev is not None:
            if k == prev: raise Reject('duplicate_key')
            if k < prev: raise Reject('sync_bad_value')
        prev = k
        res.append(r)
    return res


def read_namespaces(nss):
    """§7.4: one namespace completely (key, value, rows) before the next entry."""
    out = OrderedDict()
    for ns, rows in nss.pairs:
        namespace_entry(ns, rows)
        out[ns] = namespace_rows(ns, rows)
    return out


def decode_snapshot_bytes(b):
    v = cbor.decode(b)
    if not isinstance(v, CMap) or any(not isinstance(k, str) for k in v.keys()):
        raise Reject('sync_bad_type')
    for k in v.keys():
        if k not in ('version', 'namespaces', 'provider_keys'): raise Reject('sync_unknown_field')
    d = dict(v.pairs)
    if 'version' not in d: raise Reject('sync_missing_field')
    if ctype(d['version']) != 'uint': raise Reject('sync_bad_type')
    if d['version'] != 1: raise Reject('sync_unsupported_version')
    if 'namespaces' not in d: raise Reject('sync_missing_field')
    if not isinstance(d['namespaces'], CMap): raise Reject('sync_bad_type')
    out = read_namespaces(d['namespaces'])
    keys = OrderedDict()
    if 'provider_keys' in d:
        pk = d['provider_keys']
        if not isinstance(pk, CMap): raise Reject('sync_bad_type')
        if not pk.pairs: raise Reject('sync_bad_value')
        for name, key in pk.pairs:
            if ctype(name) != 'tstr' or ctype(key) != 'tstr': raise Reject('sync_bad_type')
            keys[name] = key
    return {'ns': out, 'keys': keys}


# --- §7.2 payloads ---
TABLES = {
    'sync_request': [('request_id', 'bstr', 16), ('reply_pubkey', 'bstr', 1216), ('timestamp_ms', 'uint', None)],
    'sync_offer': [('blob_id', 'bstr', 32), ('key', 'bstr', 32), ('nonce', 'bstr', 12),
                   ('sha256', 'bstr', 32), ('size_bytes', 'uint', None)],
    'sync_ack': [('request_id', 'bstr', 16), ('ok', 'bool', None)],
}


def member_order(tag, v):
    """§7.2 step 5: the order of the table (not the encoding order)."""
    return TABLES[tag]


def decode_payload(tag, b):
    try:
        v = cbor.decode(b)
    except CborError as e:
        raise Reject(e.code)
    if not isinstance(v, CMap) or any(not isinstance(k, str) for k in v.keys()):
        raise Reject('sync_bad_type')
    d = dict(v.pairs)
    if 'type' not in d: raise Reject('sync_missing_field')
    if not isinstance(d['type'], str): raise Reject('sync_bad_type')
    if d['type'] != tag: raise Reject('sync_wrong_payload_type')
    names = {'type'} | {m for m, _, _ in TABLES[tag]}
    for k in v.keys():
        if k not in names: raise Reject('sync_unknown_field')
    for m, t, n in member_order(tag, v):
        if m not in d: raise Reject('sync_missing_field')
        if ctype(d[m]) != t: raise Reject('sync_bad_type')
        if n is not None and len(d[m]) != n: raise Reject('sync_bad_length')
    return OrderedDict((m, d[m]) for m, _, _ in TABLES[tag])


def payload_to_json(p):
    return OrderedDict((k, v.hex() if isinstance(v, bytes) else (jint(v) if type(v) is int else v))
                       for k, v in p.items())


def read_payload_input(tag, inp):
    out = OrderedDict()
    for m, t, n in TABLES[tag]:
        if t == 'bstr': out[m] = hexval(inp, m, n)
        elif t == 'uint': out[m] = uint(inp, m)
        else:
            v = need(inp, m)
            if not isinstance(v, bool): raise Reject('input_bad_type')
            out[m] = v
    return out


def encode_payload(tag, p):
    return cbor.encode(dict(p, type=tag))


def op_encode(tag):
    return lambda inp: {'cbor': encode_payload(tag, read_payload_input(tag, inp)).hex()}


def op_decode(tag):
    return lambda inp: payload_to_json(decode_payload(tag, hexval(inp, 'cbor')))


def op_encode_snapshot(inp):
    return {'cbor': encode_snapshot_value(snapshot_from_json(inp)).hex()}


def op_decode_snapshot(inp):
    try:
        return snapshot_to_json(decode_snapshot_bytes(hexval(inp, 'cbor')))
    except CborError as e:
        raise Reject(e.code)


def same_account(own, sender):
    return own is not None and len(own) == 32 and len(sender) == 32 and own == sender


CAP = 268435456


def receive_steps(o, blob, cap):
    """§7.6 steps 3-7 in table order; the reason, or None when all pass."""
    if o['size_bytes'] > cap: return 'sync_blob_over_cap'
    if len(blob) > cap: return 'sync_blob_over_cap'
    if len(blob) != o['size_bytes']: return 'sync_size_mismatch'
    if len(blob) < 16: return 'sync_blob_too_short'
    if hashlib.sha256(blob).digest() != o['sha256']: return 'sync_hash_mismatch'
    return None


def op_receive(inp):
    offer = hexval(inp, 'offer'); rid = hexval(inp, 'request_id', 16); blob = hexval(inp, 'blob')
    own = hexval(inp, 'own_user_id_hash', optional=True)
    sender = hexval(inp, 'sender_user_id_hash')
    cap = uint(inp, 'max_blob_bytes', optional=True)
    if cap is None: cap = CAP
    ack = lambda ok: encode_payload('sync_ack', {'request_id': rid, 'ok': ok}).hex()
    if not same_account(own, sender):
        return OrderedDict([('result', 'dropped'), ('reason', 'sync_not_same_account'), ('ack', None), ('snapshot', None)])
    o = decode_payload('sync_offer', offer)
    reason = receive_steps(o, blob, cap)
    if reason:
        return OrderedDict([('result', 'refused'), ('reason', reason), ('ack', ack(False)), ('snapshot', None)])
    # steps 8/9: AES-GCM open is a black box
    raise Skip('reached AEAD open (steps 1-7 passed)')


def op_handle_request(inp):
    req = hexval(inp, 'request')
    own = hexval(inp, 'own_user_id_hash', optional=True)
    sender = hexval(inp, 'sender_user_id_hash')
    if not same_account(own, sender):
        return OrderedDict([('result', 'dropped'), ('reason', 'sync_not_same_account'), ('request', None)])
    return OrderedDict([('result', 'accepted'), ('reason', None),
                        ('request', payload_to_json(decode_payload('sync_request', req)))])


def stripped(ns, r):
    """§7.7: an inserted row loses every §4.4-excluded field except the five kept ones."""
    excluded = {n for n, _, _, x in SCHEMAS[ns][1] if x}
    return OrderedDict((k, v) for k, v in r.items() if k not in excluded or (ns, k) in KEPT)


def op_import(inp):
    store = snapshot_from_json(need(inp, 'store'))
    snaps = need(inp, 'snapshots')
    if not isinstance(snaps, list): raise Reject('input_bad_type')
    inserted = []
    for s in snaps:
        s = snapshot_from_json(s)
        n = 0
        for ns, rows in s['ns'].items():
            have = {sort_key(ns, r) for r in store['ns'].get(ns, [])}
            for r in rows:
                if ns == 'memory' and r.get('source') == 'calendar': continue
                k = sort_key(ns, r)
                if k in have: continue
                store['ns'].setdefault(ns, []).append(stripped(ns, r)); have.add(k); n += 1
            if ns in store['ns']: store['ns'][ns].sort(key=lambda r: sort_key(ns, r))
        for name, key in s['keys'].items():
            store['keys'].setdefault(name, key)
        inserted.append(n)
    return OrderedDict([('store', snapshot_to_json(store)), ('inserted', inserted)])


def wake_class(payload_type):
    """§7.8: sync_request, compared byte for byte, is the one payload type of class sync."""
    return 'sync' if payload_type == 'sync_request' else 'silent'


def op_schedule(inp):
    t = int64(inp, 'elapsed_ms')
    if t < 0: raise Reject('input_bad_value')
    sends = [OrderedDict([('index', k), ('at_ms', 5000 * k), ('wake', wake_class('sync_request'))])
             for k in range(7) if 5000 * k <= t]
    return OrderedDict([('sends', sends), ('next_at_ms', 5000 * len(sends) if len(sends) < 7 else None),
                        ('exhausted', t >= 35000)])


def op_wake_class(inp):
    t = need(inp, 'payload_type')
    if not isinstance(t, str): raise Reject('input_bad_type')
    return {'wake': wake_class(t)}


def relay_pushes(events):
    """§7.8: a sync frame pushes only when no push went out since the last reconnect."""
    woken, out = False, []
    for i, e in enumerate(events):
        if e == 'sync':
            if not woken: out.append(i)
            woken = True
        elif e == 'reconnect':
            woken = False
    return out


def op_relay_wake(inp):
    events = need(inp, 'events')
    if not isinstance(events, list): raise Reject('input_bad_type')
    for e in events:
        if not isinstance(e, str): raise Reject('input_bad_type')
        if e not in ('sync', 'silent', 'reconnect'): raise Reject('input_bad_value')
    return {'pushes': relay_pushes(events)}


def op_seal(inp):
    snapshot_from_json(need(inp, 'snapshot'))
    hexval(inp, 'key', 32); hexval(inp, 'nonce', 12); hexval(inp, 'blob_id', 32)
    raise Skip('seal needs AES-GCM (plaintext checked separately)')


OPS = {
    'encode_request': op_encode('sync_request'), 'encode_offer': op_encode('sync_offer'),
    'encode_ack': op_encode('sync_ack'),
    'decode_request': op_decode('sync_request'), 'decode_offer': op_decode('sync_offer'),
    'decode_ack': op_decode('sync_ack'),
    'encode_snapshot': op_encode_snapshot, 'decode_snapshot': op_decode_snapshot,
    'receive': op_receive, 'handle_request': op_handle_request, 'import': op_import,
    'schedule': op_schedule, 'seal': op_seal, 'wake_class': op_wake_class, 'relay_wake': op_relay_wake,
}


def extra_checks():
    """Pieces of seal/receive outputs that need no AES: plaintext, offer, sha256, sizes."""
    from harness import load
    ok = bad = 0
    for c in load('sync_offer')['cases']:
        if c['op'] == 'seal' and 'output' in c['expected']:
            o = c['expected']['output']; inp = c['input']
            pt = encode_snapshot_value(snapshot_from_json(inp['snapshot'])).hex()
            blob = bytes.fromhex(o['blob'])
            offer = OrderedDict([('blob_id', inp['blob_id'].lower()), ('key', inp['key'].lower()), ('nonce', inp['nonce'].lower()),
                                 ('sha256', hashlib.sha256(blob).hexdigest()), ('size_bytes', len(blob))])
            oc = encode_payload('sync_offer', read_payload_input('sync_offer', offer)).hex()
            checks = [pt == o['plaintext'], len(blob) == len(pt) // 2 + 16, dict(offer) == dict(o['offer']),
                      list(o['offer']) == list(offer), oc == o['offer_cbor']]
            if all(checks): ok += 1
            else: bad += 1; print('FAIL seal parts', c['id'], checks)
        if c['op'] == 'receive' and 'output' in c['expected'] and c['expected']['output']['result'] == 'accepted':
            snap = c['expected']['output']['snapshot']
            # the accepted snapshot must re-encode to a plaintext of len(blob) - 16
            pt = encode_snapshot_value(snapshot_from_json(snap))
            if len(pt) == len(bytes.fromhex(c['input']['blob'])) - 16: ok += 1
            else: bad += 1; print('FAIL receive-accepted plaintext length', c['id'])
    print(f'  seal/receive non-AES parts: pass {ok} fail {bad}')
    return bad == 0


if __name__ == '__main__':
    r1 = run('sync_offer', OPS, verbose='-v' in sys.argv)
    r2 = extra_checks()
    sys.exit(0 if r1 and r2 else 1)

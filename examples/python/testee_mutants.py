#!/usr/bin/env python3
"""Mutation testing of the second-language example, testee.py.

Each entry puts one realistic bug into the op logic of examples/python/testee.py (a stock-library
default, a check in another order, an off-by-one), and `conformance run`, driving the mutated file
through the vectors of the format the bug lives in, must fail it. A survivor is a bug a team
writing from SPEC.md could ship while the suite says green: add the vector that catches it.

The edits are all in the op functions, never in the protocol loop, so rewriting the loop does not
break them; each is one changed line of a snippet that occurs exactly once in testee.py.

    python3 examples/python/testee_mutants.py --conformance BIN [--only NAME]... [--check-table]

`.ci/run` runs every entry against the release build; `swift test` checks the table and runs a
sample (PythonTesteeMutationTests). Each run stops at its first failing case (--fail-fast), so a
killed mutant costs about a second. The last line is `N passed, N failed` (a mutant passes this
check when it is killed).
"""
import argparse
import os
import subprocess
import sys
import tempfile
from collections import namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TESTEE = os.path.join(HERE, "testee.py")
# Everything after this line of testee.py is the runner protocol loop, which no mutant may touch.
PROTOCOL_LOOP = "# The runner protocol (SPEC.md §6)"

Mutant = namedtuple("Mutant", "name format old new")

MUTANTS = [
    # JSON text writing (§2 R2-1, §5.3 R5.3-1): what stock writers do by default.
    Mutant('json-escapes-b-f', 'reconcile',
           r'''SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}''',
           r'''SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}'''),
    Mutant('json-escapes-solidus', 'reconcile',
           r'''SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}''',
           r'''SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "/": "\\/"}'''),
    Mutant('json-uppercase-unicode-escapes', 'reconcile',
           r'out.append("\\u%04x" % ord(ch))',
           r'out.append("\\u%04X" % ord(ch))'),
    Mutant('json-dumps-defaults', 'reconcile',
           r'return json_text(hexify(frame_tree(f), False))',
           r'return json.dumps(hexify(frame_tree(f), False), separators=(",", ":"))'),
    Mutant('json-dumps-sort-keys', 'reconcile',
           r'return json_text(hexify(frame_tree(f), False))',
           r'return json.dumps(hexify(frame_tree(f), False), separators=(",", ":"), ensure_ascii=False, sort_keys=True)'),
    Mutant('counters-through-double', 'reconcile',
           r'    if isinstance(v, int):' "\n"
           r'        return str(v)',
           r'    if isinstance(v, int):' "\n"
           r'        return str(int(float(v)))'),
    # Unicode (§2.2 rule 5).
    Mutant('text-set-utf16-order', 'state_digest',
           r'return sorted(set(value), key=utf8_key)',
           r'return sorted(set(value), key=lambda s: s.encode("utf-16-be"))'),
    Mutant('text-nfc-normalised', 'state_digest',
           r'    if kind in ("text", "note_body"):' "\n"
           r'        return text(v, path)',
           r'    if kind in ("text", "note_body"):' "\n"
           r'        return __import__("unicodedata").normalize("NFC", text(v, path))'),
    Mutant('reactions-emoji-utf16-order', 'state_digest',
           r'utf8_key(re_[1])',
           r're_[1].encode("utf-16-be")'),
    Mutant('data-keys-utf16-order', 'reconcile',
           r'return {k: obj[k] for k in sorted(obj, key=utf8_key)}',
           r'return {k: obj[k] for k in sorted(obj, key=lambda s: s.encode("utf-16-be"))}'),
    # Integers, booleans, hex and null (§2.2 rules 1, 3, 4, 6).
    Mutant('integers-lenient-strings', 'state_digest',
           r'CANONICAL_INT = re.compile(r"0|-?[1-9][0-9]*")',
           r'CANONICAL_INT = re.compile(r"[+-]?[0-9]+")'),
    Mutant('integers-accept-booleans', 'state_digest',
           r'[lo, hi]; None otherwise."""' "\n"
           r'    if isinstance(v, bool) or isinstance(v, Fraction):',
           r'[lo, hi]; None otherwise."""' "\n"
           r'    if isinstance(v, Fraction):'),
    Mutant('frame-count-accepts-booleans', 'reconcile',
           r'None when it is not one."""' "\n"
           r'    if isinstance(v, bool) or isinstance(v, Fraction):',
           r'None when it is not one."""' "\n"
           r'    if isinstance(v, Fraction):'),
    Mutant('frame-integers-from-floats', 'reconcile',
           r'object_pairs_hook=strict_pairs, parse_float=Fraction,',
           r'object_pairs_hook=strict_pairs, parse_float=lambda s: int(float(s)) if float(s).is_integer() else Fraction(s),'),
    Mutant('frame-hex-any-case', 'reconcile',
           r'HEX_LOWER = re.compile(r"(?:[0-9a-f]{2})*")',
           r'HEX_LOWER = re.compile(r"(?:[0-9a-fA-F]{2})*")'),
    Mutant('input-hex-like-bytes-fromhex', 'state_digest',
           r'if not (HEX_LOWER if lower_only else HEX_ANY).fullmatch(v):',
           r'if not (HEX_LOWER if lower_only else re.compile(r"[0-9a-fA-F ]*")).fullmatch(v):'),
    Mutant('null-read-as-absent', 'state_digest',
           r'    for name, kind, optional, _ in fields:' "\n"
           r'        if name not in v:',
           r'    for name, kind, optional, _ in fields:' "\n"
           r'        if v.get(name) is None:'),
    Mutant('frame-hi-null-as-absent', 'reconcile',
           r'if "hi" in v else None',
           r'if v.get("hi") is not None else None'),
    Mutant('excluded-int-fields-unread', 'state_digest',
           r'        row[name] = parse_value(v[name], kind, "%s.%s" % (path, name), lower_only)',
           r'        row[name] = v[name] if kind == "int" else parse_value(v[name], kind, "%s.%s" % (path, name), lower_only)'),
    # Check orders (§4.3, §4.6, §4.8, §4.9, §5.3, §5.4).
    Mutant('row-fields-in-member-order', 'state_digest',
           r'    for name, kind, optional, _ in fields:' "\n"
           r'        if name not in v:',
           r'    for name, kind, optional, _ in sorted(fields, key=lambda f: list(v).index(f[0]) if f[0] in v else len(v)):' "\n"
           r'        if name not in v:'),
    Mutant('length-before-version', 'state_digest',
           r'if b[0] != 6:',
           r'if len(b) == 417 and b[0] != 6:'),
    Mutant('digest-namespaces-in-member-order', 'state_digest',
           r'return [(ns, obj[ns]) for ns in NAMESPACES if ns in obj]',
           r'return [(ns, obj[ns]) for ns in obj]'),
    Mutant('divergence-b-first', 'state_digest',
           r'a = decode_digest(hexbytes(member(inp, "a"), "a"))',
           r'a = (decode_digest(hexbytes(member(inp, "b"), "b")), decode_digest(hexbytes(member(inp, "a"), "a")))[1]'),
    Mutant('offload-length-before-state', 'state_digest',
           r'    if row.get("bodyOffloaded") is True:' "\n"
           r'        raise Rejected("input_bad_value", "the note is already offloaded")',
           r'    if row.get("bodyOffloaded") is True and len(content_hash) == 32:' "\n"
           r'        raise Rejected("input_bad_value", "the note is already offloaded")'),
    Mutant('data-keys-checked-in-text-order', 'reconcile',
           r'return [(k, obj[k]) for k in sorted(obj, key=utf8_key)]',
           r'return list(obj.items())'),
    Mutant('respond-kind-before-decode', 'reconcile',
           r'request = decode_frame_value(member(inp, "request"))  #',
           r'request = decode_frame_value(member(inp, "request")) if member(inp, "request").get("kind") == "reconcile_req" else {"kind": None}  #'),
    # Strict frame JSON (§5.3 step 1).
    Mutant('duplicate-members-last-wins', 'reconcile',
           r'object_pairs_hook=strict_pairs,',
           r'object_pairs_hook=Obj,'),
    Mutant('only-high-surrogates-checked', 'reconcile',
           r'0xD800 <= ord(ch) <= 0xDFFF',
           r'0xD800 <= ord(ch) <= 0xDBFF'),
    Mutant('nan-infinity-accepted', 'reconcile',
           r', parse_constant=no_constants)',
           r')'),
    Mutant('no-depth-limit', 'reconcile',
           r'if depth > MAX_DEPTH:',
           r'if depth > 1000:'),
    # Leaves and residency (§4.2–§4.6).
    Mutant('dates-through-float', 'state_digest',
           r'return value // 1000  #',
           r'return int(value / 1000 // 1)  #'),
    Mutant('dates-truncated', 'state_digest',
           r'return value // 1000  #',
           r'return int(value / 1000)  #'),
    Mutant('reactions-not-hashed', 'state_digest',
           r'c("reactions", "reaction_set")',
           r'x("reactions", "reaction_set")'),
    Mutant('calendar-case-insensitive', 'state_digest',
           r'return row.get("source") == "calendar"',
           r'return str(row.get("source")).lower() == "calendar"'),
    Mutant('offload-keeps-stale-holder', 'state_digest',
           r'after.pop("offloadHolderPubkey", None)',
           r'after.get("offloadHolderPubkey", None)'),
    # Frames, buckets and responses (§5.2–§5.7).
    Mutant('tombstones-of-matching-buckets-shipped', 'reconcile',
           r'out_dead = [t for t in tombstones if shipped(t)]',
           r'out_dead = list(tombstones) if bad else []'),
    Mutant('count-not-compared', 'reconcile',
           r'return root != bucket["root"] or len(leaves) != bucket["count"]',
           r'return root != bucket["root"]'),
    Mutant('closed-upper-bound', 'reconcile',
           r'key < b["hi"]',
           r'key <= b["hi"]'),
    Mutant('fine-threshold-257', 'reconcile',
           r'g = 1 if n <= 256 else',
           r'g = 1 if n <= 257 else'),
    Mutant('group-size-floor', 'reconcile',
           r'-(-n // 256)  #',
           r'max(1, n // 256)  #'),
    Mutant('empty-namespace-sends-no-bucket', 'reconcile',
           r'buckets = [{"lo": b"", "hi": None, "root": empty_root(ns), "count": 0}]',
           r'buckets = []'),
    Mutant('tombstone-length-not-per-namespace', 'reconcile',
           r'if len(b) != key_length(ns):',
           r'if len(b) not in (16, 32):'),
    Mutant('only-row-versus-tombstone-repeats', 'reconcile',
           r'if len(set(live)) != len(live) or len(set(dead)) != len(dead) or set(live) & set(dead):',
           r'if set(live) & set(dead):'),
    Mutant('decode-keeps-row-order', 'reconcile',
           r'out["rows"] = [row_tree(ns, r) for r in sorted(f["rows"], key=lambda r: key_bytes(ns, r))]',
           r'out["rows"] = [row_tree(ns, r) for r in f["rows"]]'),
    Mutant('digest-reply-every-time', 'reconcile',
           r'if reconciling else None',
           r'if True else None'),
    Mutant('digest-reply-never', 'reconcile',
           r'if reconciling else None',
           r'if False else None'),
]


def table_problems(source):
    """What is wrong with the table against `source` (testee.py's text): an empty list when every
    edit applies exactly once, changes exactly one line, and stays out of the protocol loop."""
    problems = []
    if len(MUTANTS) < 30:
        problems.append("the table has %d mutants, fewer than 30" % len(MUTANTS))
    names = [m.name for m in MUTANTS]
    if len(set(names)) != len(names):
        problems.append("mutant names repeat")
    loop = source.find(PROTOCOL_LOOP)
    if loop < 0:
        problems.append("testee.py has no %r line" % PROTOCOL_LOOP)
    for m in MUTANTS:
        if m.format not in ("state_digest", "reconcile"):
            problems.append("%s: testee.py implements state_digest and reconcile, not %s" % (m.name, m.format))
        if source.count(m.old) != 1:
            problems.append("%s: the snippet occurs %d times in testee.py, not once" % (m.name, source.count(m.old)))
            continue
        before, after = m.old.split("\n"), m.new.split("\n")
        if len(before) != len(after) or sum(a != b for a, b in zip(before, after)) != 1:
            problems.append("%s is not a one-line edit" % m.name)
        if loop >= 0 and source.index(m.old) > loop:
            problems.append("%s edits the protocol loop" % m.name)
    return problems


def run_mutant(m, source, conformance, vectors):
    """Runs `conformance run --format F --fail-fast` against testee.py with `m` applied. Returns
    (killed, the first failing case id or why the run did not judge)."""
    with tempfile.TemporaryDirectory(prefix="python-mutant-") as d:
        path = os.path.join(d, "testee.py")
        with open(path, "w", encoding="utf-8") as f:
            f.write(source.replace(m.old, m.new))
        cmd = [conformance, "run", "--vectors", vectors, "--format", m.format, "--fail-fast", "--no-diagnose",
               "--timeout-multiplier", "3", "--", sys.executable, path]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    killer = next((line.split()[1] for line in r.stdout.splitlines() if line.startswith("FAIL ")), None)
    # Exit 1 with a FAIL line is a kill; exit 0 is a survivor; anything else (2, 3: usage, the
    # testee could not start) judged nothing and counts as a survivor, with the reason shown.
    if r.returncode == 1 and killer:
        return True, killer
    if r.returncode == 0:
        return False, "every %s case passed" % m.format
    return False, "exit %d: %s" % (r.returncode, (r.stderr or r.stdout).strip().splitlines()[-1:] or "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--conformance", help="the conformance executable (default: .build/release/conformance)")
    ap.add_argument("--vectors", default=os.path.join(ROOT, "vectors"))
    ap.add_argument("--only", action="append", default=[], help="run only this mutant (repeatable)")
    ap.add_argument("--check-table", action="store_true", help="check the table against testee.py and run nothing")
    a = ap.parse_args()
    with open(TESTEE, encoding="utf-8") as f:
        source = f.read()
    problems = table_problems(source)
    for p in problems:
        print("TABLE " + p)
    if problems:
        return 1
    if a.check_table:
        print("table: %d mutants, every edit applies exactly once" % len(MUTANTS))
        return 0
    unknown = [n for n in a.only if n not in {m.name for m in MUTANTS}]
    if unknown:
        print("no such mutant: " + ", ".join(unknown), file=sys.stderr)
        return 2
    conformance = a.conformance or os.path.join(ROOT, ".build", "release", "conformance")
    chosen = [m for m in MUTANTS if not a.only or m.name in a.only]
    killed = 0
    for m in chosen:
        ok, why = run_mutant(m, source, conformance, a.vectors)
        killed += ok
        print(("killed   %s (%s) by %s" if ok else "SURVIVED %s (%s): %s") % (m.name, m.format, why), flush=True)
    print("%d passed, %d failed" % (killed, len(chosen) - killed))
    return 0 if killed == len(chosen) else 1


if __name__ == "__main__":
    sys.exit(main())

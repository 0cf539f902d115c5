import Conformance
import Foundation
import Testing
import Vectors

/// Mutation testing of the second-language example (issue 12, item 5): each entry puts one
/// realistic bug into the op logic of `examples/python/testee.py` — a stock-library default, a
/// check in another order, an off-by-one — and the runner, driving the mutated file through the
/// vectors of the format the bug lives in, must fail it. A survivor is a bug a team writing from
/// SPEC.md could ship while the suite says green: add the vector that catches it.
///
/// Why a Swift Testing suite and not a CI script: it runs under `swift test` with everything else,
/// drives the testee through the same `Runner` library `conformance run` uses (no second harness),
/// and needs no extra CI step. Each run stops at the first failing case (`failFast`) and only
/// loads its own format's cases, so a killed mutant costs about a second of CPU; the entries run
/// one at a time (`.serialized`) so that 46 Python processes never compete with the other suites'
/// testees for a small CI machine's cores (a debug `serve` needs ~7 s of its 10 s deadline for
/// `reconcile/bucketize/index/n65536` on a loaded machine). The edits are all
/// in the op functions, never in the protocol loop, so rewriting the loop does not break them.
@Suite struct PythonTesteeMutationTests {
    struct PyMutant: Sendable, CustomTestStringConvertible {
        var name: String
        var format: String
        /// The text to replace; it must occur exactly once in testee.py.
        var old: String
        var new: String
        var testDescription: String { name }
    }

    static let n = "\n"

    static let mutants: [PyMutant] = [
        // JSON text writing (§2 R2-1, §5.3 R5.3-1): what stock writers do by default.
        PyMutant(name: "json-escapes-b-f", format: "reconcile",
                 old: #"SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}"#,
                 new: #"SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f"}"#),
        PyMutant(name: "json-escapes-solidus", format: "reconcile",
                 old: #"SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}"#,
                 new: #"SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "/": "\\/"}"#),
        PyMutant(name: "json-uppercase-unicode-escapes", format: "reconcile",
                 old: #"out.append("\\u%04x" % ord(ch))"#, new: #"out.append("\\u%04X" % ord(ch))"#),
        PyMutant(name: "json-dumps-defaults", format: "reconcile",
                 old: #"return json_text(hexify(frame_tree(f), False))"#,
                 new: #"return json.dumps(hexify(frame_tree(f), False), separators=(",", ":"))"#),
        PyMutant(name: "json-dumps-sort-keys", format: "reconcile",
                 old: #"return json_text(hexify(frame_tree(f), False))"#,
                 new: #"return json.dumps(hexify(frame_tree(f), False), separators=(",", ":"), ensure_ascii=False, sort_keys=True)"#),
        PyMutant(name: "counters-through-double", format: "reconcile",
                 old: #"    if isinstance(v, int):"# + n + #"        return str(v)"#,
                 new: #"    if isinstance(v, int):"# + n + #"        return str(int(float(v)))"#),
        // Unicode (§2.2 rule 5).
        PyMutant(name: "text-set-utf16-order", format: "state_digest",
                 old: #"return sorted(set(value), key=utf8_key)"#, new: #"return sorted(set(value), key=lambda s: s.encode("utf-16-be"))"#),
        PyMutant(name: "text-nfc-normalised", format: "state_digest",
                 old: #"    if kind in ("text", "note_body"):"# + n + #"        return text(v, path)"#,
                 new: #"    if kind in ("text", "note_body"):"# + n + #"        return __import__("unicodedata").normalize("NFC", text(v, path))"#),
        PyMutant(name: "reactions-emoji-utf16-order", format: "state_digest",
                 old: #"utf8_key(re_[1])"#, new: #"re_[1].encode("utf-16-be")"#),
        PyMutant(name: "data-keys-utf16-order", format: "reconcile",
                 old: #"return {k: obj[k] for k in sorted(obj, key=utf8_key)}"#, new: #"return {k: obj[k] for k in sorted(obj, key=lambda s: s.encode("utf-16-be"))}"#),
        // Integers, booleans, hex and null (§2.2 rules 1, 3, 4, 6).
        PyMutant(name: "integers-lenient-strings", format: "state_digest",
                 old: #"CANONICAL_INT = re.compile(r"0|-?[1-9][0-9]*")"#, new: #"CANONICAL_INT = re.compile(r"[+-]?[0-9]+")"#),
        PyMutant(name: "integers-accept-booleans", format: "state_digest",
                 old: "[lo, hi]; None otherwise.\"\"\"" + n + #"    if isinstance(v, bool) or isinstance(v, Fraction):"#,
                 new: "[lo, hi]; None otherwise.\"\"\"" + n + #"    if isinstance(v, Fraction):"#),
        PyMutant(name: "frame-count-accepts-booleans", format: "reconcile",
                 old: "None when it is not one.\"\"\"" + n + #"    if isinstance(v, bool) or isinstance(v, Fraction):"#,
                 new: "None when it is not one.\"\"\"" + n + #"    if isinstance(v, Fraction):"#),
        PyMutant(name: "frame-integers-from-floats", format: "reconcile",
                 old: #"object_pairs_hook=strict_pairs, parse_float=Fraction,"#,
                 new: #"object_pairs_hook=strict_pairs, parse_float=lambda s: int(float(s)) if float(s).is_integer() else Fraction(s),"#),
        PyMutant(name: "frame-hex-any-case", format: "reconcile",
                 old: #"HEX_LOWER = re.compile(r"(?:[0-9a-f]{2})*")"#, new: #"HEX_LOWER = re.compile(r"(?:[0-9a-fA-F]{2})*")"#),
        PyMutant(name: "input-hex-like-bytes-fromhex", format: "state_digest",
                 old: #"if not (HEX_LOWER if lower_only else HEX_ANY).fullmatch(v):"#,
                 new: #"if not (HEX_LOWER if lower_only else re.compile(r"[0-9a-fA-F ]*")).fullmatch(v):"#),
        PyMutant(name: "null-read-as-absent", format: "state_digest",
                 old: #"    for name, kind, optional, _ in fields:"# + n + #"        if name not in v:"#,
                 new: #"    for name, kind, optional, _ in fields:"# + n + #"        if v.get(name) is None:"#),
        PyMutant(name: "frame-hi-null-as-absent", format: "reconcile",
                 old: #"if "hi" in v else None"#, new: #"if v.get("hi") is not None else None"#),
        PyMutant(name: "excluded-int-fields-unread", format: "state_digest",
                 old: #"        row[name] = parse_value(v[name], kind, "%s.%s" % (path, name), lower_only)"#,
                 new: #"        row[name] = v[name] if kind == "int" else parse_value(v[name], kind, "%s.%s" % (path, name), lower_only)"#),
        // Check orders (§4.3, §4.6, §4.8, §4.9, §5.3, §5.4).
        PyMutant(name: "row-fields-in-member-order", format: "state_digest",
                 old: #"    for name, kind, optional, _ in fields:"# + n + #"        if name not in v:"#,
                 new: #"    for name, kind, optional, _ in sorted(fields, key=lambda f: list(v).index(f[0]) if f[0] in v else len(v)):"# + n + #"        if name not in v:"#),
        PyMutant(name: "length-before-version", format: "state_digest",
                 old: #"if b[0] != 6:"#, new: #"if len(b) == 417 and b[0] != 6:"#),
        PyMutant(name: "digest-namespaces-in-member-order", format: "state_digest",
                 old: #"return [(ns, obj[ns]) for ns in NAMESPACES if ns in obj]"#, new: #"return [(ns, obj[ns]) for ns in obj]"#),
        PyMutant(name: "divergence-b-first", format: "state_digest",
                 old: #"a = decode_digest(hexbytes(member(inp, "a"), "a"))"#,
                 new: #"a = (decode_digest(hexbytes(member(inp, "b"), "b")), decode_digest(hexbytes(member(inp, "a"), "a")))[1]"#),
        PyMutant(name: "offload-length-before-state", format: "state_digest",
                 old: #"    if row.get("bodyOffloaded") is True:"# + n + #"        raise Rejected("input_bad_value", "the note is already offloaded")"#,
                 new: #"    if row.get("bodyOffloaded") is True and len(content_hash) == 32:"# + n + #"        raise Rejected("input_bad_value", "the note is already offloaded")"#),
        PyMutant(name: "data-keys-checked-in-text-order", format: "reconcile",
                 old: #"return [(k, obj[k]) for k in sorted(obj, key=utf8_key)]"#, new: #"return list(obj.items())"#),
        PyMutant(name: "respond-kind-before-decode", format: "reconcile",
                 old: #"request = decode_frame_value(member(inp, "request"))  #"#,
                 new: #"request = decode_frame_value(member(inp, "request")) if member(inp, "request").get("kind") == "reconcile_req" else {"kind": None}  #"#),
        // Strict frame JSON (§5.3 step 1).
        PyMutant(name: "duplicate-members-last-wins", format: "reconcile",
                 old: #"object_pairs_hook=strict_pairs,"#, new: #"object_pairs_hook=Obj,"#),
        PyMutant(name: "only-high-surrogates-checked", format: "reconcile",
                 old: #"0xD800 <= ord(ch) <= 0xDFFF"#, new: #"0xD800 <= ord(ch) <= 0xDBFF"#),
        PyMutant(name: "nan-infinity-accepted", format: "reconcile",
                 old: #", parse_constant=no_constants)"#, new: #")"#),
        PyMutant(name: "no-depth-limit", format: "reconcile",
                 old: #"if depth > MAX_DEPTH:"#, new: #"if depth > 1000:"#),
        // Leaves and residency (§4.2–§4.6).
        PyMutant(name: "dates-through-float", format: "state_digest",
                 old: #"return value // 1000  #"#, new: #"return int(value / 1000 // 1)  #"#),
        PyMutant(name: "dates-truncated", format: "state_digest",
                 old: #"return value // 1000  #"#, new: #"return int(value / 1000)  #"#),
        PyMutant(name: "reactions-not-hashed", format: "state_digest",
                 old: #"c("reactions", "reaction_set")"#, new: #"x("reactions", "reaction_set")"#),
        PyMutant(name: "calendar-case-insensitive", format: "state_digest",
                 old: #"return row.get("source") == "calendar""#, new: #"return str(row.get("source")).lower() == "calendar""#),
        PyMutant(name: "offload-keeps-stale-holder", format: "state_digest",
                 old: #"after.pop("offloadHolderPubkey", None)"#, new: #"after.get("offloadHolderPubkey", None)"#),
        // Frames, buckets and responses (§5.2–§5.7).
        PyMutant(name: "tombstones-of-matching-buckets-shipped", format: "reconcile",
                 old: #"out_dead = [t for t in tombstones if shipped(t)]"#, new: #"out_dead = list(tombstones) if bad else []"#),
        PyMutant(name: "count-not-compared", format: "reconcile",
                 old: #"return root != bucket["root"] or len(leaves) != bucket["count"]"#, new: #"return root != bucket["root"]"#),
        PyMutant(name: "closed-upper-bound", format: "reconcile",
                 old: #"key < b["hi"]"#, new: #"key <= b["hi"]"#),
        PyMutant(name: "fine-threshold-257", format: "reconcile",
                 old: #"g = 1 if n <= 256 else"#, new: #"g = 1 if n <= 257 else"#),
        PyMutant(name: "group-size-floor", format: "reconcile",
                 old: #"-(-n // 256)  #"#, new: #"max(1, n // 256)  #"#),
        PyMutant(name: "empty-namespace-sends-no-bucket", format: "reconcile",
                 old: #"buckets = [{"lo": b"", "hi": None, "root": empty_root(ns), "count": 0}]"#, new: #"buckets = []"#),
        PyMutant(name: "tombstone-length-not-per-namespace", format: "reconcile",
                 old: #"if len(b) != key_length(ns):"#, new: #"if len(b) not in (16, 32):"#),
        PyMutant(name: "only-row-versus-tombstone-repeats", format: "reconcile",
                 old: #"if len(set(live)) != len(live) or len(set(dead)) != len(dead) or set(live) & set(dead):"#, new: #"if set(live) & set(dead):"#),
        PyMutant(name: "decode-keeps-row-order", format: "reconcile",
                 old: #"out["rows"] = [row_tree(ns, r) for r in sorted(f["rows"], key=lambda r: key_bytes(ns, r))]"#,
                 new: #"out["rows"] = [row_tree(ns, r) for r in f["rows"]]"#),
        PyMutant(name: "digest-reply-every-time", format: "reconcile",
                 old: #"if reconciling else None"#, new: #"if True else None"#),
        PyMutant(name: "digest-reply-never", format: "reconcile",
                 old: #"if reconciling else None"#, new: #"if False else None"#),
    ]

    static let source: String = (try? String(contentsOfFile: Fixtures.pythonTestee, encoding: .utf8)) ?? ""

    static func occurrences(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func tableIsLargeAndEveryEditAppliesExactlyOnce() {
        #expect(!Self.source.isEmpty, "examples/python/testee.py not found")
        #expect(Self.mutants.count >= 30)
        #expect(Set(Self.mutants.map(\.name)).count == Self.mutants.count, "mutant names repeat")
        for m in Self.mutants {
            #expect(Self.occurrences(m.old, in: Self.source) == 1, "\(m.name): the snippet must occur exactly once in testee.py")
            #expect(m.old != m.new, "\(m.name) changes nothing")
            // One bug, one line: the edit changes exactly one line of the snippet.
            let before = m.old.split(separator: "\n", omittingEmptySubsequences: false)
            let after = m.new.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(before.count == after.count && zip(before, after).filter { $0 != $1 }.count == 1, "\(m.name) is not a one-line edit")
            // Never in the protocol loop, which another change may rewrite.
            if let r = Self.source.range(of: m.old), let loop = Self.source.range(of: "# The runner protocol (SPEC.md §6)") {
                #expect(r.lowerBound < loop.lowerBound, "\(m.name) edits the protocol loop")
            }
        }
    }

    @Test(.serialized, arguments: mutants)
    func runnerFailsTheMutatedTestee(_ m: PyMutant) throws {
        try #require(Self.occurrences(m.old, in: Self.source) == 1)
        let mutated = Self.source.replacingOccurrences(of: m.old, with: m.new)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("python-mutant-\(m.name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("testee.py").path
        try Data(mutated.utf8).write(to: URL(fileURLWithPath: path))

        let suite = try SuiteLoader.load(directory: Fixtures.vectors).filter { $0.format == m.format }
        #expect(suite.count > 200)
        var options = RunOptions(command: ["python3", path])
        options.failFast = true
        options.diagnose = false
        options.timeoutMultiplier = 3
        let r = try Runner.run(suite: suite, options: options)
        #expect(r.exitCode == 1 && r.counts.failed > 0, "\(m.name) survives every \(m.format) case: add a vector that catches it")
        let killer = r.records.first { $0.outcome.failure != nil }
        print("python mutant \(m.name): killed by \(killer?.id ?? "nothing")")
    }
}

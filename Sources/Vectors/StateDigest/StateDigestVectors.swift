import Primitives

/// The `state_digest` golden cases. Every property a case claims (a field commits, a field is
/// excluded, residency never moves a leaf) is asserted here while generating, so a case can never
/// ship claiming something the reference does not do. Each case names the SPEC rules it pins
/// (`rule:R4.x-n` flags) and, when its input breaks two rules to pin which error wins, carries
/// `two-faults`.
enum StateDigestVectors {
    struct GeneratorCheckFailed: Error, CustomStringConvertible {
        let description: String
    }

    struct Builder {
        var cases: [VectorCase] = []

        mutating func add(_ id: String, _ op: String, _ comment: String, rules: [String], flags: [String] = [], twoFaults: Bool = false,
                          input: CBOR, expected: VectorCase.Expected) {
            var f = flags
            if case .error = expected, !f.contains("negative") { f.insert("negative", at: 0) }
            if twoFaults { f.append("two-faults") }
            f += rules.map { "rule:\($0)" }
            cases.append(VectorCase(id: "state_digest/\(op)/\(id)", op: op, comment: comment, flags: f, input: input, expected: expected))
        }

        /// Adds a `leaf` case computed by the reference and returns the leaf (nil when dropped).
        @discardableResult
        mutating func leaf(_ id: String, _ comment: String, _ row: Row, rules: [String], flags: [String] = []) throws -> SHA256Digest? {
            let r = try StateDigestHandler.leafResult(row)
            add(id, "leaf", comment, rules: rules, flags: flags,
                input: .object([("namespace", .text(row.namespace.rawValue)), ("row", row.tree)]),
                expected: .output(StateDigestOutput.leaf(row: row, r)))
            return r?.leaf
        }

        /// A `leaf` case over a hand-built row tree (members in exactly the order given), answered by
        /// running the reference handler on it; `expect` is what the case claims and is checked.
        @discardableResult
        mutating func leafTree(_ id: String, _ comment: String, namespace: String, row: CBOR, rules: [String], flags: [String] = [],
                               twoFaults: Bool = false, expect: Expectation) throws -> CBOR? {
            let input = CBOR.object([("namespace", .text(namespace)), ("row", row)])
            return try run(id, "leaf", comment, input: input, rules: rules, flags: flags, twoFaults: twoFaults, expect: expect)
        }

        enum Expectation { case ok, error(ErrorCode), same(as: CBOR?) }

        /// Runs the reference on `input`, checks the answer against `expect`, and adds the case.
        @discardableResult
        mutating func run(_ id: String, _ op: String, _ comment: String, input: CBOR, rules: [String], flags: [String] = [],
                          twoFaults: Bool = false, expect: Expectation) throws -> CBOR? {
            let result = Result { () throws(WireError) -> CBOR in try StateDigestHandler().tree(op: op, input: input.json) }
            switch (expect, result) {
            case (.error(let code), .failure(let e)):
                try check(e.code == code, "\(id): expected \(code.rawValue), got \(e.code.rawValue) (\(e))")
                add(id, op, comment, rules: rules, flags: flags, twoFaults: twoFaults, input: input, expected: .error(code))
                return nil
            case (.ok, .success(let out)), (.same, .success(let out)):
                if case .same(let other) = expect { try check(other?.json == out.json, "\(id): expected the same output as its twin") }
                add(id, op, comment, rules: rules, flags: flags, twoFaults: twoFaults, input: input, expected: .output(out))
                return out
            case (_, .failure(let e)):
                throw GeneratorCheckFailed(description: "\(id): the reference rejected with \(e)")
            case (.error(let code), .success):
                throw GeneratorCheckFailed(description: "\(id): expected \(code.rawValue), the reference accepted")
            }
        }

        @discardableResult
        mutating func root(_ id: String, _ comment: String, _ ns: Namespace, _ rows: [Row], rules: [String], flags: [String] = []) throws -> SHA256Digest {
            let r = try StateRoots.root(ns, rows: rows)
            add(id, "root", comment, rules: rules, flags: flags,
                input: .object([("namespace", .text(ns.rawValue)), ("rows", .array(rows.map(\.tree)))]),
                expected: .output(StateDigestOutput.root(r.root, count: r.count)))
            return r.root
        }
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw GeneratorCheckFailed(description: "state_digest generator check failed: \(what)") }
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        try leafCases(&b)
        try leafEdgeCases(&b)
        try notebookCases(&b)
        try rootCases(&b)
        try foldCases(&b)
        try digestCases(&b)
        return VectorFile(format: "state_digest",
                          description: "StateDigest v6: leaf encodings, namespace roots, the 417-byte digest (SPEC.md §4)",
                          cases: b.cases + (try StateDigestFacets.cases()))
    }

    /// The §4.2 type rules a row of this schema exercises.
    static func typeRules(_ schema: LeafSchema) -> [String] {
        var out: Set<String> = []
        for f in schema.fields {
            switch f.kind {
            case .bytes(let n?): _ = n; out.insert("R4.2-1")
            case .bytes(nil): out.insert("R4.2-2")
            case .text: out.insert("R4.2-3")
            case .uint: out.insert("R4.2-4")
            case .int: out.insert("R4.2-5")
            case .bool: out.insert("R4.2-6")
            case .date: out.insert("R4.2-7")
            case .textSet: out.insert("R4.2-8")
            case .normalizedHash: out.insert("R4.2-9")
            case .reactionSet: out.insert("R4.2-10")
            case .noteBody: out.insert("R4.6-2")
            case .versionVector: out.insert("R4.2-11")
            }
        }
        if !schema.excluded.isEmpty { out.insert("R4.2-12") }
        return out.sorted()
    }

    // MARK: leaves

    static func leafCases(_ b: inout Builder) throws {
        for ns in Namespace.allCases where ns != .settings {
            let schema = LeafSchema.schema(for: ns)
            let base = SampleRows.full(ns)
            let baseLeaf = try b.leaf("\(ns.rawValue)/typical", "a typical \(ns.rawValue) row with every field present: catches any wrong field encoding, order or separator", base,
                                      rules: ["R4-2", "R4.1-2", "R4.3-1", "R4.3-3", "R4.4-1", "R4.4-2"] + typeRules(schema), flags: ["typical"])!

            var minimal = base
            for (i, f) in schema.fields.enumerated() where f.optional || f.kind.absentIsEmpty { minimal.values[i] = nil }
            let minimalLeaf = try b.leaf("\(ns.rawValue)/minimal", "only the required fields: every optional absent, written as presence marker 0", minimal,
                                         rules: ["R4.3-1", "R4.4-1"], flags: ["minimal"])
            if schema.committed.contains(where: \.optional) {
                try check(minimalLeaf != baseLeaf, "\(ns) minimal row should differ from typical")
            }

            // notebook.bodyOffloaded switches which value the body commits; the residency cases
            // below cover it with a consistent contentHash.
            for f in schema.fields where !(ns == .notebook && f.name == "bodyOffloaded") {
                var changed = base
                changed[f.name] = SampleRows.altered(base[f.name], kind: f.kind)
                if f.isCommitted {
                    let leaf = try b.leaf("\(ns.rawValue)/commits-\(f.name)", "changing committed field \(f.name) changes the leaf: catches a field left out of the leaf", changed,
                                          rules: ["R4.3-1", "R4.4-1"], flags: ["commits:\(f.name)"])
                    try check(leaf != baseLeaf && leaf != nil, "\(ns).\(f.name) must commit")
                } else {
                    let leaf = try b.leaf("\(ns.rawValue)/ignores-\(f.name)", "changing excluded field \(f.name) leaves the leaf bit-identical: catches an excluded field hashed", changed,
                                          rules: ["R4.3-2", "R4.4-1"], flags: ["excluded:\(f.name)"])
                    try check(leaf == baseLeaf, "\(ns).\(f.name) must be excluded")
                    var removed = base
                    removed[f.name] = nil
                    let leaf2 = try b.leaf("\(ns.rawValue)/ignores-absent-\(f.name)", "removing excluded field \(f.name) leaves the leaf bit-identical: catches a presence marker for an excluded field", removed,
                                           rules: ["R4.3-2"], flags: ["excluded:\(f.name)"])
                    try check(leaf2 == baseLeaf, "\(ns).\(f.name) absent must be excluded")
                }
                if f.isCommitted && f.optional {
                    var absent = base
                    absent[f.name] = nil
                    let la = try b.leaf("\(ns.rawValue)/absent-\(f.name)", "optional \(f.name) absent: presence marker 0", absent, rules: ["R4.3-1"], flags: ["presence:\(f.name)"])
                    if f.kind == .text {
                        var empty = base
                        empty[f.name] = .text("")
                        let le = try b.leaf("\(ns.rawValue)/empty-\(f.name)", "optional \(f.name) present but empty: presence marker 1 then an empty string, never equal to absent", empty,
                                            rules: ["R4.3-1"], flags: ["presence:\(f.name)"])
                        try check(la != le, "\(ns).\(f.name) absent and empty must differ")
                    }
                }
            }
        }

        // Dates: whole seconds, floor.
        let m = SampleRows.typical(.messages)
        guard case .date(let sent)? = m["sentAt"] else { return }
        let secondStart = sent - ((sent % 1000) + 1000) % 1000
        var a = m; a["sentAt"] = .date(secondStart)
        var c = m; c["sentAt"] = .date(secondStart + 999)
        var d = m; d["sentAt"] = .date(secondStart + 1000)
        let la = try b.leaf("messages/date-second-start", "sentAt exactly on a whole second", a, rules: ["R4.2-7"], flags: ["date"])
        let lc = try b.leaf("messages/date-subsecond-same", "sentAt 999 ms later, same second: leaf bit-identical (catches dates hashed in ms)", c, rules: ["R4.2-7", "R4-2"], flags: ["date"])
        let ld = try b.leaf("messages/date-next-second", "sentAt 1000 ms later: next second, leaf changes", d, rules: ["R4.2-7"], flags: ["date"])
        try check(la == lc && la != ld, "sub-second dates")
        for (name, ms, comment) in [("date-negative-1ms", Int64(-1), "-1 ms floors to -1 s: catches truncation toward zero"),
                                    ("date-negative-1000ms", -1000, "-1000 ms is exactly -1 s"),
                                    ("date-negative-1001ms", -1001, "-1001 ms floors to -2 s: catches truncation toward zero"),
                                    ("date-zero", 0, "the epoch itself"),
                                    ("date-999ms", 999, "999 ms floors to 0 s"),
                                    ("date-int64-max", Int64.max, "2^63-1 ms floors to 9223372036854775 s: catches a division through a double (…776)"),
                                    ("date-int64-min", Int64.min, "-2^63 ms floors to -9223372036854776 s: catches truncation and overflow at the bottom of the range")] {
            var r = m; r["sentAt"] = .date(ms)
            try b.leaf("messages/\(name)", comment, r, rules: ["R4.2-7", "R2.2-3"], flags: ["date"])
        }

        // peerUserIDHash: absent and empty collapse (the third presence kind).
        var absent = m; absent["peerUserIDHash"] = nil
        var empty = m; empty["peerUserIDHash"] = .bytes([])
        let l1 = try b.leaf("messages/peer-hash-absent", "peerUserIDHash absent: encoded as an empty byte string with no presence marker", absent, rules: ["R4.2-9", "R4.3-1"], flags: ["normalized"])
        let l2 = try b.leaf("messages/peer-hash-empty", "peerUserIDHash empty: same leaf as absent (catches a presence marker on a normalized field)", empty, rules: ["R4.2-9", "R4.3-1"], flags: ["normalized"])
        try check(l1 == l2, "peerUserIDHash normalisation")

        // textSet order and duplicates.
        let n = SampleRows.typical(.notebook)
        var shuffled = n; shuffled["tags"] = .textSet(["bread", "food", "Zest", "food"])
        let ln0 = try StateDigestHandler.leafResult(n)?.leaf
        let ln1 = try b.leaf("notebook/tags-order-and-duplicates", "tags in another order with a duplicate: same leaf (a set sorted by UTF-8 bytes)", shuffled, rules: ["R4.2-8", "R4-2"], flags: ["text_set"])
        try check(ln0 == ln1, "textSet normalisation")

        // memory: calendar events dropped.
        var cal = SampleRows.typical(.memory); cal["source"] = .text("calendar")
        try b.leaf("memory/calendar-dropped", "a calendar-derived memory event has no leaf at all", cal, rules: ["R4.5-1"], flags: ["dropped"])
        var calCap = SampleRows.typical(.memory); calCap["source"] = .text("Calendar")
        try check(try b.leaf("memory/calendar-capitalised-hashed", "source \"Calendar\" is not exactly \"calendar\": hashed (catches a case-insensitive drop rule)", calCap, rules: ["R4.5-1"], flags: ["dropped"]) != nil, "Calendar hashed")
        var calSpace = SampleRows.typical(.memory); calSpace["source"] = .text("calendar ")
        try check(try b.leaf("memory/calendar-trailing-space-hashed", "source \"calendar \" (trailing space) is hashed (catches a trimmed comparison)", calSpace, rules: ["R4.5-1"], flags: ["dropped"]) != nil, "calendar-space hashed")

        // Negative inputs (ids kept from the first release of these vectors).
        let mt = m.tree
        b.add("messages/missing-required-body", "leaf", "a required committed field is missing", rules: ["R4.3-4"], input: leafInput("messages", without(mt, "body")), expected: .error(.inputMissingField))
        b.add("messages/id-15-bytes", "leaf", "messageID must be 16 bytes", rules: ["R4.2-1"], input: leafInput("messages", with(mt, "messageID", .bytes([UInt8](repeating: 1, count: 15)))), expected: .error(.inputBadLength))
        b.add("messages/peer-hash-31-bytes", "leaf", "a user-id hash is 32 bytes or empty", rules: ["R4.2-9"], input: leafInput("messages", with(mt, "peerUserIDHash", .bytes([UInt8](repeating: 1, count: 31)))), expected: .error(.inputBadLength))
        b.add("messages/unknown-field", "leaf", "a field the schema does not define", rules: ["R4.3-4", "R4.4-1"], input: leafInput("messages", with(mt, "colour", .text("red"))), expected: .error(.unknownField))
        b.add("messages/date-as-text", "leaf", "dates are integer milliseconds, not ISO text", rules: ["R4.2-7", "R2.2-3"], input: leafInput("messages", with(mt, "sentAt", .text("2026-01-01"))), expected: .error(.inputBadType))
        b.add("messages/body-not-text", "leaf", "body must be a string", rules: ["R4.2-3"], input: leafInput("messages", with(mt, "body", .unsigned(5))), expected: .error(.inputBadType))
        b.add("unknown/namespace", "leaf", "a namespace that does not exist", rules: ["R4.1-3"], input: leafInput("calendar", mt), expected: .error(.unknownNamespace))
        b.add("settings/no-row-leaves", "leaf", "settings has no per-row leaves", rules: ["R4.9-2"], input: leafInput("settings", SampleRows.typical(.settings).tree), expected: .error(.inputBadValue))
        var off = n; off["bodyOffloaded"] = .bool(true); off["body"] = .text("")
        b.add("notebook/offloaded-without-hash", "leaf", "an offloaded note with no contentHash cannot commit its body", rules: ["R4.6-1"], input: leafInput("notebook", off.tree), expected: .error(.notebookOffloadedWithoutHash))
    }

    static func leafInput(_ ns: String, _ row: CBOR) -> CBOR { .object([("namespace", .text(ns)), ("row", row)]) }

    static func without(_ t: CBOR, _ key: String) -> CBOR {
        guard case .map(let e) = t else { return t }
        return .map(e.filter { $0.key != .text(key) })
    }

    static func with(_ t: CBOR, _ key: String, _ v: CBOR) -> CBOR {
        guard case .map(var e) = t else { return t }
        if let i = e.firstIndex(where: { $0.key == .text(key) }) { e[i].value = v } else { e.append(CBORMapEntry(key: .text(key), value: v)) }
        return .map(e)
    }

    /// The members of a row tree moved so that `first` come first, in that order.
    static func reordered(_ t: CBOR, first: [String]) -> CBOR {
        guard case .map(let e) = t else { return t }
        let head = first.compactMap { k in e.first { $0.key == .text(k) } }
        return .map(head + e.filter { entry in !first.contains { entry.key == .text($0) } })
    }

    // MARK: leaf edge classes (SPEC §2.2 reading, §4.2 types, §4.3 check order)

    static func leafEdgeCases(_ b: inout Builder) throws {
        let m = SampleRows.typical(.messages)
        let mt = m.tree
        let typical = try StateDigestHandler().tree(op: "leaf", input: leafInput("messages", mt).json)
        guard case .bytes(let id)? = m["messageID"] else { return }

        // Hex in op inputs: either case in, lowercase out; odd length and prefixes are not hex.
        let upper = Hex.encode(id).uppercased()
        var mixed = Array(Hex.encode(id)); for i in stride(from: 0, to: mixed.count, by: 3) { mixed[i] = Character(mixed[i].uppercased()) }
        try b.leafTree("messages/hex/id-uppercase", "messageID in uppercase hex: same leaf (catches op-input hex read lowercase-only)", namespace: "messages",
                       row: with(mt, "messageID", .text(upper)), rules: ["R2.2-4", "R4.2-1", "R2-2"], expect: .same(as: typical))
        try b.leafTree("messages/hex/id-mixed-case", "messageID in mixed-case hex: same leaf", namespace: "messages",
                       row: with(mt, "messageID", .text(String(mixed))), rules: ["R2.2-4"], expect: .same(as: typical))
        try b.leafTree("messages/hex/id-odd-length", "31 hex digits: not hex, input_bad_value (catches hex decoders that drop a nibble)", namespace: "messages",
                       row: with(mt, "messageID", .text(String(Hex.encode(id).dropLast()))), rules: ["R2.2-4"], expect: .error(.inputBadValue))
        try b.leafTree("messages/hex/id-0x-prefix", "a 0x prefix is not hex (catches int(x, 16)-style parsing)", namespace: "messages",
                       row: with(mt, "messageID", .text("0x" + Hex.encode(id).dropFirst(2))), rules: ["R2.2-4"], expect: .error(.inputBadValue))
        try b.leafTree("messages/hex/id-with-space", "hex with an inner space is not hex (catches bytes.fromhex, which skips spaces)", namespace: "messages",
                       row: with(mt, "messageID", .text(String(Hex.encode(id).prefix(16)) + " " + String(Hex.encode(id).dropFirst(16).dropLast(2)))), rules: ["R2.2-4"], expect: .error(.inputBadValue))
        try b.leafTree("messages/hex/id-number", "messageID as a JSON number: input_bad_type", namespace: "messages",
                       row: with(mt, "messageID", .unsigned(7)), rules: ["R2.2-4"], expect: .error(.inputBadType))

        // Members: null is never absence; extra input members are ignored (not inside a row).
        try b.leafTree("messages/null/optional-field-null", "senderName: null is input_bad_type, not absent (catches null read as a missing optional)", namespace: "messages",
                       row: with(mt, "senderName", .null), rules: ["R2.2-1", "R4.3-4"], expect: .error(.inputBadType))
        try b.leafTree("messages/null/excluded-field-null", "observedAt: null is input_bad_type even though it is never hashed", namespace: "messages",
                       row: with(mt, "observedAt", .null), rules: ["R2.2-1", "R4.2-12"], expect: .error(.inputBadType))
        try b.leafTree("messages/null/normalized-field-null", "peerUserIDHash: null is input_bad_type, not the absent-equals-empty value", namespace: "messages",
                       row: with(mt, "peerUserIDHash", .null), rules: ["R2.2-1", "R4.2-9"], expect: .error(.inputBadType))
        b.add("messages/null/row-null", "leaf", "row: null is input_bad_type", rules: ["R2.2-1", "R4.3-4"], input: .object([("namespace", .text("messages")), ("row", .null)]), expected: .error(.inputBadType))
        b.add("messages/null/namespace-null", "leaf", "namespace: null is input_bad_type", rules: ["R2.2-1"], input: .object([("namespace", .null), ("row", mt)]), expected: .error(.inputBadType))
        b.add("messages/members/row-missing", "leaf", "no row member: input_missing_field", rules: ["R2.2-1"], input: .object([("namespace", .text("messages"))]), expected: .error(.inputMissingField))
        b.add("messages/members/row-not-object", "leaf", "a row that is an array: input_bad_type", rules: ["R4.3-4"], input: leafInput("messages", .array([mt])), expected: .error(.inputBadType))
        try b.run("messages/members/extra-input-member-ignored", "leaf", "an unknown member beside namespace and row is ignored (catches strict op-input readers)",
                  input: .object([("namespace", .text("messages")), ("row", mt), ("note", .text("x"))]), rules: ["R2.2-2"], expect: .same(as: typical))
        try b.leafTree("messages/members/namespace-wrong-case", "namespace Messages is not messages (catches case-insensitive names)", namespace: "Messages", row: mt,
                       rules: ["R4.1-3"], expect: .error(.unknownNamespace))

        // Integers (§2.2): uint at its edges, and every spelling that is not an integer.
        var saga = SampleRows.typical(.saga)
        let sagaTree = saga.tree
        for (name, v, comment) in [("0", UInt64(0), "0"), ("1", 1, "1"), ("2p53-minus-1", (1 << 53) - 1, "2^53-1, the last integer every JSON reader holds exactly"),
                                   ("2p53", 1 << 53, "2^53 as a number"), ("2p53-plus-1", (1 << 53) + 1, "2^53+1, given as a decimal string: catches a reader that goes through a double"),
                                   ("2p63-minus-1", UInt64(Int64.max), "2^63-1"), ("2p63", UInt64(1) << 63, "2^63: catches a uint read as a signed 64-bit integer"),
                                   ("2p64-minus-1", UInt64.max, "2^64-1, the largest uint: encoded 1bffffffffffffffff")] {
            saga["chapter"] = .uint(v)
            try b.leaf("saga/int/chapter-\(name)", "uint chapter = \(comment)", saga, rules: ["R4.2-4", "R2.2-3"], flags: ["integer"])
        }
        for (name, v, comment) in [("2p64", CBOR.text("18446744073709551616"), "2^64 (one past the range): input_bad_type"),
                                   ("minus-1", .int(-1), "-1 in a uint: input_bad_type (catches signed reading)"),
                                   ("true", .bool(true), "true is not 1 (catches JavaScript-style coercion)"),
                                   ("float-1.0", .float(1.0), "1.0 is not an integer (catches readers that yield doubles)"),
                                   ("string-plus", .text("+5"), "\"+5\" is not a canonical decimal (catches Int64(String) / int(str))"),
                                   ("string-leading-zero", .text("007"), "\"007\" is not canonical"),
                                   ("string-space", .text(" 7"), "\" 7\" is not canonical (catches int(str), which strips spaces)"),
                                   ("string-empty", .text(""), "the empty string is not an integer"),
                                   ("string-exponent", .text("1e0"), "\"1e0\" is not an integer"),
                                   ("null", .null, "null is not an integer")] {
            try b.leafTree("saga/int/chapter-\(name)", "uint chapter = \(comment)", namespace: "saga", row: with(sagaTree, "chapter", v),
                           rules: ["R4.2-4", "R2.2-3"], flags: ["integer"], expect: .error(.inputBadType))
        }
        // The same integers as JSON number literals (tag 262 in the CBOR twin): read exactly, never
        // through a double; an exponent or a fraction is not an integer even when its value is.
        for (name, literal, v) in [("2p53-plus-1", "9007199254740993", UInt64((1 << 53) + 1)), ("2p64-minus-1", "18446744073709551615", UInt64.max), ("minus-zero", "-0", 0)] {
            saga["chapter"] = .uint(v)
            let same = try StateDigestHandler().tree(op: "leaf", input: leafInput("saga", saga.tree).json)
            try b.leafTree("saga/int/chapter-json-number-\(name)", "chapter as the JSON number \(literal): the same leaf as the uint \(v) (catches a JSON reader that yields doubles)",
                           namespace: "saga", row: with(sagaTree, "chapter", .jsonNumber(literal)), rules: ["R4.2-4", "R2.2-3"], flags: ["integer"], expect: .same(as: same))
        }
        for (name, literal) in [("exponent", "1e0"), ("exponent-upper", "1E0"), ("fraction-zero", "5.0"), ("2p64", "18446744073709551616"), ("minus-1", "-1")] {
            try b.leafTree("saga/int/chapter-json-number-\(name)", "chapter as the JSON number \(literal): input_bad_type (not an integer in range)",
                           namespace: "saga", row: with(sagaTree, "chapter", .jsonNumber(literal)), rules: ["R4.2-4", "R2.2-3"], flags: ["integer"], expect: .error(.inputBadType))
        }
        try b.leafTree("messages/int/date-json-number-exponent", "sentAt written 1.767225600123e12: input_bad_type (catches readers that accept any number with an integral value)",
                       namespace: "messages", row: with(mt, "sentAt", .jsonNumber("1.767225600123e12")), rules: ["R4.2-7", "R2.2-3"], expect: .error(.inputBadType))
        saga["chapter"] = .uint(5)
        let chapter5 = try StateDigestHandler().tree(op: "leaf", input: leafInput("saga", saga.tree).json)
        try b.leafTree("saga/int/chapter-small-decimal-string", "chapter \"5\" as a canonical decimal string: same leaf as the number 5 (catches strings rejected below 2^53)",
                       namespace: "saga", row: with(sagaTree, "chapter", .text("5")), rules: ["R2.2-3", "R4.2-4"], flags: ["integer"], expect: .same(as: chapter5))
        var plan = SampleRows.typical(.plans)
        for (name, v) in [("int64-min", Int64.min), ("int64-max", Int64.max), ("minus-1", -1)] {
            plan["priority"] = .int(v)
            try b.leaf("plans/int/priority-\(name)", "int priority = \(v): encoded as major type \(v < 0 ? 1 : 0)", plan, rules: ["R4.2-5", "R2.2-3"], flags: ["integer"])
        }
        for (name, v, comment) in [("2p63", CBOR.text("9223372036854775808"), "2^63 is outside int64: input_bad_type"),
                                   ("below-int64-min", .text("-9223372036854775809"), "-2^63-1 is outside int64: input_bad_type")] {
            try b.leafTree("plans/int/priority-\(name)", comment, namespace: "plans", row: with(SampleRows.typical(.plans).tree, "priority", v),
                           rules: ["R4.2-5", "R2.2-3"], flags: ["integer"], expect: .error(.inputBadType))
        }
        try b.leafTree("messages/int/date-2p63", "sentAt 2^63 ms is outside a date's range: input_bad_type", namespace: "messages",
                       row: with(mt, "sentAt", .text("9223372036854775808")), rules: ["R4.2-7", "R2.2-3"], expect: .error(.inputBadType))
        try b.leafTree("messages/int/date-float", "sentAt 1767225600123.0 is not an integer (catches JavaScript Date numbers)", namespace: "messages",
                       row: with(mt, "sentAt", .float(1_767_225_600_123.0)), rules: ["R4.2-7", "R2.2-3"], expect: .error(.inputBadType))
        guard case .date(let sentAt)? = m["sentAt"] else { return }
        try b.leafTree("messages/int/date-decimal-string", "sentAt as a canonical decimal string: same leaf as the number", namespace: "messages",
                       row: with(mt, "sentAt", .text(String(sentAt))), rules: ["R2.2-3", "R4.2-7"], expect: .same(as: typical))

        // Booleans are true and false only.
        for (name, v) in [("number-1", CBOR.unsigned(1)), ("number-0", .unsigned(0)), ("string-true", .text("true"))] {
            try b.leafTree("messages/bool/isOutgoing-\(name)", "isOutgoing given as \(name): input_bad_type (catches truthy readers)", namespace: "messages",
                           row: with(mt, "isOutgoing", v), rules: ["R2.2-6", "R4.2-6"], expect: .error(.inputBadType))
        }

        // Every field present is read by its type, excluded ones included.
        try b.leafTree("messages/excluded/localRowID-not-integer", "excluded localRowID \"x\": input_bad_type (catches excluded fields skipped unread)", namespace: "messages",
                       row: with(mt, "localRowID", .text("x")), rules: ["R4.2-12", "R4.2-5"], expect: .error(.inputBadType))
        try b.leafTree("messages/excluded/peerPubkey-odd-hex", "excluded peerPubkey with an odd number of hex digits: input_bad_value", namespace: "messages",
                       row: with(mt, "peerPubkey", .text("abc")), rules: ["R4.2-12", "R2.2-4"], expect: .error(.inputBadValue))
        var resident = SampleRows.typical(.notebook)
        resident["contentHash"] = .bytes([UInt8](repeating: 7, count: 31))
        try b.leafTree("notebook/excluded/contentHash-31-bytes-resident", "a resident note's excluded contentHash of 31 bytes: input_bad_length although it is ignored", namespace: "notebook",
                       row: resident.tree, rules: ["R4.2-12", "R4.2-1"], expect: .error(.inputBadLength))

        // Unicode: text is hashed exactly as given; sets are distinct and sorted by UTF-8 bytes.
        var nfc = m; nfc["body"] = .text("caf\u{E9}")
        var nfd = m; nfd["body"] = .text("cafe\u{301}")
        let lnfc = try b.leaf("messages/unicode/body-nfc", "body \"café\" with U+00E9 (NFC)", nfc, rules: ["R4.2-3", "R2.2-5"], flags: ["unicode"])
        let lnfd = try b.leaf("messages/unicode/body-nfd", "body \"café\" with e + U+0301 (NFD): another leaf (catches NFC normalisation before hashing)", nfd, rules: ["R4.2-3", "R2.2-5"], flags: ["unicode"])
        try check(lnfc != lnfd, "NFC and NFD bodies differ")
        var nonBMP = m; nonBMP["body"] = .text("\u{1F600}\u{0}\u{7F}\u{2028}")
        try b.leaf("messages/unicode/body-non-bmp-and-controls", "body with U+1F600, U+0000, DEL and U+2028: written as UTF-8 in the text string", nonBMP, rules: ["R4.2-3"], flags: ["unicode"])
        let note = SampleRows.typical(.notebook)
        var tagsNF = note; tagsNF["tags"] = .textSet(["caf\u{E9}", "cafe\u{301}", "caf\u{E9}"])
        try b.leaf("notebook/unicode/tags-nfc-and-nfd-distinct", "tags café (NFC), café (NFD), café (NFC): two elements, not one (catches a Swift Set<String> or NFC dedupe)", tagsNF,
                   rules: ["R4.2-8", "R2.2-5"], flags: ["unicode", "text_set"])
        var tags16 = note; tags16["tags"] = .textSet(["\u{1F600}", "\u{FF5E}", "z", "ab"])
        try b.leaf("notebook/unicode/tags-utf8-not-utf16", "tags U+1F600, U+FF5E, z, ab: UTF-8 order ab, z, U+FF5E, U+1F600 (catches UTF-16 order, which puts U+1F600 before U+FF5E, and length-first order)", tags16,
                   rules: ["R4.2-8", "R2.2-5"], flags: ["unicode", "text_set"])
        // R4.2-8's tie: equal bytes up to the shorter element, and the shorter one first.
        var tagsPrefix = note; tagsPrefix["tags"] = .textSet(["abc", "b", "ab", "a"])
        try b.leaf("notebook/tags/prefix-first", "tags abc, b, ab, a: written a, ab, abc, b (catches a comparator that puts a proper prefix after the longer string)", tagsPrefix,
                   rules: ["R4.2-8"], flags: ["text_set"])

        // Reactions: a set of (reactor, emoji), absent ≡ empty, sorted reactor then emoji UTF-8.
        let full = SampleRows.full(.messages)
        var noReactions = full; noReactions["reactions"] = nil
        var emptyReactions = full; emptyReactions["reactions"] = .reactions([])
        let lr0 = try b.leaf("messages/reactions/absent", "reactions absent: the empty array 80 with no presence marker", noReactions, rules: ["R4.2-10", "R4.3-1"], flags: ["reactions"])
        let lr1 = try b.leaf("messages/reactions/empty", "reactions []: same leaf as absent (catches a presence marker on reactions)", emptyReactions, rules: ["R4.2-10", "R4.3-1"], flags: ["reactions"])
        try check(lr0 == lr1, "reactions absent == empty")
        guard case .reactions(let rs)? = full["reactions"] else { return }
        var dup = full; dup["reactions"] = .reactions(rs.reversed() + [rs[0]])
        let lr2 = try b.leaf("messages/reactions/order-and-duplicates", "the same reactions reversed with one repeated: same leaf as typical (a set)", dup, rules: ["R4.2-10", "R4-2"], flags: ["reactions"])
        try check(lr2 == (try StateDigestHandler.leafResult(full))?.leaf, "reaction set normalisation")
        let r0 = SampleRows.reactor(0)
        var emojiOrder = full
        emojiOrder["reactions"] = .reactions([Reaction(reactor: r0, emoji: "\u{1F600}"), Reaction(reactor: r0, emoji: "\u{FF5E}"), Reaction(reactor: r0, emoji: "\u{2B50}")])
        try b.leaf("messages/reactions/emoji-utf8-order", "one reactor with U+1F600, U+FF5E, U+2B50: sorted by UTF-8 bytes (catches UTF-16 order)", emojiOrder, rules: ["R4.2-10", "R2.2-5"], flags: ["reactions", "unicode"])
        var emojiNF = full
        emojiNF["reactions"] = .reactions([Reaction(reactor: r0, emoji: "\u{E9}"), Reaction(reactor: r0, emoji: "e\u{301}")])
        try b.leaf("messages/reactions/emoji-nfc-nfd-distinct", "é (NFC) and é (NFD) from one reactor are two reactions", emojiNF, rules: ["R4.2-10", "R2.2-5"], flags: ["reactions", "unicode"])
        let fullTree = full.tree
        let reaction = CBOR.object([("reactor", .bytes(r0)), ("emoji", .text("\u{1F44D}"))])
        try b.leafTree("messages/reactions/reactor-uppercase-hex", "a reactor in uppercase hex: same leaf as lowercase", namespace: "messages",
                       row: with(mt, "reactions", .array([.object([("reactor", .text(Hex.encode(r0).uppercased())), ("emoji", .text("\u{1F44D}"))])])),
                       rules: ["R2.2-4", "R4.2-10"],
                       expect: .same(as: try StateDigestHandler().tree(op: "leaf", input: leafInput("messages", with(mt, "reactions", .array([reaction]))).json)))
        for (name, r, code, comment) in [
            ("not-array", CBOR.text("x"), ErrorCode.inputBadType, "reactions that are a string"),
            ("element-not-object", .array([.text("\u{1F44D}")]), .inputBadType, "a reaction that is a string"),
            ("extra-member", .array([with(reaction, "at", .unsigned(1))]), .unknownField, "a reaction with a member other than reactor and emoji"),
            ("missing-reactor", .array([without(reaction, "reactor")]), .inputMissingField, "a reaction without reactor"),
            ("missing-emoji", .array([without(reaction, "emoji")]), .inputMissingField, "a reaction without emoji"),
            ("reactor-31-bytes", .array([with(reaction, "reactor", .bytes([UInt8](repeating: 1, count: 31)))]), .inputBadLength, "a reactor of 31 bytes"),
            ("emoji-number", .array([with(reaction, "emoji", .unsigned(1))]), .inputBadType, "an emoji that is a number"),
            ("null", .null, .inputBadType, "reactions: null (null is not absence)"),
        ] {
            try b.leafTree("messages/reactions/\(name)", comment + ": \(code.rawValue)", namespace: "messages", row: with(fullTree, "reactions", r),
                           rules: ["R4.2-10", "R4.2-13"] + (name == "null" ? ["R2.2-1"] : []), flags: ["reactions"], expect: .error(code))
        }
        try b.leafTree("messages/reactions/order/extra-before-missing", "a reaction with an extra member and no reactor: the unknown member is reported first",
                       namespace: "messages", row: with(fullTree, "reactions", .array([with(without(reaction, "reactor"), "at", .unsigned(1))])),
                       rules: ["R4.2-13"], twoFaults: true, expect: .error(.unknownField))
        try b.leafTree("messages/reactions/order/reactor-before-emoji", "emoji listed first and a number, reactor 31 bytes: reactor is read first (input_bad_length)",
                       namespace: "messages", row: with(fullTree, "reactions", .array([.object([("emoji", .unsigned(1)), ("reactor", .bytes([UInt8](repeating: 1, count: 31)))])])),
                       rules: ["R4.2-13"], twoFaults: true, expect: .error(.inputBadLength))

        // Row check order (§4.3): unknown members first, then schema order, whatever the member order.
        try b.leafTree("messages/order/unknown-before-missing", "an unknown field and a missing body: input_unknown_field", namespace: "messages",
                       row: with(without(mt, "body"), "colour", .text("red")), rules: ["R4.3-4"], twoFaults: true, expect: .error(.unknownField))
        try b.leafTree("messages/order/unknown-listed-last", "a 15-byte messageID listed first, an unknown field listed last: input_unknown_field (catches checks in member order)",
                       namespace: "messages", row: with(with(mt, "messageID", .bytes([UInt8](repeating: 1, count: 15))), "colour", .text("red")),
                       rules: ["R4.3-4"], twoFaults: true, expect: .error(.unknownField))
        try b.leafTree("messages/order/schema-order-not-member-order", "sentAt \"x\" listed first, a 15-byte messageID listed later: messageID comes first in the schema (input_bad_length)",
                       namespace: "messages", row: reordered(with(with(mt, "sentAt", .text("x")), "messageID", .bytes([UInt8](repeating: 1, count: 15))), first: ["sentAt", "body", "messageID"]),
                       rules: ["R4.3-4"], twoFaults: true, expect: .error(.inputBadLength))
        try b.leafTree("messages/order/missing-before-later-bad-type", "conversationID missing and sentAt \"x\": the missing field comes first in the schema",
                       namespace: "messages", row: reordered(with(without(mt, "conversationID"), "sentAt", .text("x")), first: ["sentAt"]),
                       rules: ["R4.3-4"], twoFaults: true, expect: .error(.inputMissingField))
        try b.leafTree("messages/order/excluded-in-table-order", "excluded localRowID \"x\" listed first and body missing: body comes first in the table (input_missing_field)",
                       namespace: "messages", row: reordered(with(without(mt, "body"), "localRowID", .text("x")), first: ["localRowID"]),
                       rules: ["R4.3-4", "R4.2-12"], twoFaults: true, expect: .error(.inputMissingField))
        try b.leafTree("messages/order/type-before-length", "messageID given as a number: input_bad_type, not a length error",
                       namespace: "messages", row: with(mt, "messageID", .unsigned(1)), rules: ["R4.3-4", "R2.2-4"], expect: .error(.inputBadType))

        // leaf: the namespace is checked before the row.
        b.add("settings/order/settings-before-row", "leaf", "namespace settings with a row that is not an object: input_bad_value (the namespace is checked first)",
              rules: ["R4.9-2", "R2.2-7"], twoFaults: true, input: leafInput("settings", .text("x")), expected: .error(.inputBadValue))
        b.add("unknown/order/namespace-before-row", "leaf", "an unknown namespace with a row that is not an object: unknown_namespace",
              rules: ["R4.1-3", "R2.2-7"], twoFaults: true, input: leafInput("calendar", .text("x")), expected: .error(.unknownNamespace))
    }

    // MARK: notebook residency (seed 002 §7: the four properties)

    static func notebookCases(_ b: inout Builder) throws {
        let resident = SampleRows.typical(.notebook)
        guard case .text(let body)? = resident["body"] else { return }
        let hash = NotebookBody.digest(body).bytes
        let holderA = [UInt8](repeating: 0xa1, count: 32)
        let holderB = [UInt8](repeating: 0xb2, count: 32)
        let offA = try NotebookBody.markOffloaded(resident, contentHash: hash, holder: holderA)
        let offB = try NotebookBody.markOffloaded(resident, contentHash: hash, holder: holderB)

        let lr = try b.leaf("notebook/residency-resident", "resident body: commits noteBodyDigest(body)", resident, rules: ["R4.6-2"], flags: ["residency"])
        let la = try b.leaf("notebook/residency-offloaded-holder-a", "offloaded to holder A: commits contentHash, same leaf as resident", offA, rules: ["R4.6-1", "R4-2"], flags: ["residency"])
        let lb = try b.leaf("notebook/residency-offloaded-holder-b", "offloaded to holder B: two pointers naming different holders agree", offB, rules: ["R4.6-1", "R4.3-2"], flags: ["residency"])
        try check(lr == la && la == lb, "residency independence")

        var other = offA
        other["contentHash"] = .bytes(NotebookBody.digest(body + " (edited)").bytes)
        let lo = try b.leaf("notebook/residency-pointer-other-content", "a pointer to different content still diverges the leaf", other, rules: ["R4.6-1"], flags: ["residency"])
        try check(lo != lr, "pointer to other content")

        var unoff = offA
        unoff["body"] = .text(body); unoff["bodyOffloaded"] = .bool(false); unoff["offloadHolderPubkey"] = nil
        let lu = try b.leaf("notebook/residency-unoffloaded", "body fetched back (un-offload): leaf unchanged, the stale contentHash ignored", unoff, rules: ["R4.6-2"], flags: ["residency"])
        try check(lu == lr, "un-offload")

        // Property 1: an offloading device and a fully resident one compute the same root.
        let rows = (0..<4).map { SampleRows.typical(.notebook, index: $0) }
        var mixed = rows
        for i in [1, 3] {
            guard case .text(let bi)? = rows[i]["body"] else { continue }
            mixed[i] = try NotebookBody.markOffloaded(rows[i], contentHash: NotebookBody.digest(bi).bytes, holder: holderA)
        }
        // More than 256 rows: a repeat check comparing the two counts by identity (CPython caches
        // ints up to 256, the JVM boxes -128…127 once) refuses them (a cosmic-ray survivor of pixie).
        let manyBlocks = (0..<300).map { SampleRows.typical(.blocks, index: $0) }
        try b.root("blocks/300-rows", "300 blocks rows, every key distinct: the root of 300 leaves (catches counts compared by identity)", .blocks, manyBlocks,
                   rules: ["R4.7-3", "R4.7-4"], flags: [InputBeforeRulesCases.notABase])
        let r1 = try b.root("notebook/residency-all-resident", "four resident notes", .notebook, rows, rules: ["R4.7-3", "R4.6-2"], flags: ["residency"])
        let r2 = try b.root("notebook/residency-half-offloaded", "the same four notes, two offloaded: same root", .notebook, mixed, rules: ["R4.7-3", "R4.6-1"], flags: ["residency"])
        try check(r1 == r2, "root residency independence")

        // Property 2: the offload transition itself.
        let before = try StateDigestHandler.leafResult(resident)!.leaf
        let after = try StateDigestHandler.leafResult(offA)!.leaf
        try check(before == after, "markOffloaded transition")
        func offload(_ id: String, _ comment: String, _ input: CBOR, rules: [String], flags: [String] = ["residency"], twoFaults: Bool = false, _ expect: Builder.Expectation) throws {
            try b.run(id, "mark_offloaded", comment, input: input, rules: rules, flags: flags, twoFaults: twoFaults, expect: expect)
        }
        b.add("notebook/offload-transition", "mark_offloaded", "markOffloaded stamps the hash, clears the body, keeps updatedAt: leaf before == leaf after",
              rules: ["R4.6-4", "R4.6-5"], flags: ["residency"],
              input: .object([("row", resident.tree), ("contentHash", .bytes(hash)), ("holder", .bytes(holderA))]),
              expected: .output(StateDigestOutput.offloaded(row: offA, before: before, after: after)))
        var wrong = hash; wrong[0] ^= 0x80
        b.add("notebook/offload-hash-mismatch", "mark_offloaded", "markOffloaded refuses a contentHash that is not noteBodyDigest(body)", rules: ["R4.6-3"],
              flags: ["negative", "residency"],
              input: .object([("row", resident.tree), ("contentHash", .bytes(wrong))]),
              expected: .error(.notebookOffloadHashMismatch))
        b.add("notebook/offload-hash-short", "mark_offloaded", "contentHash of 31 bytes (also not the digest): the length is checked before the mismatch",
              rules: ["R4.6-3"], flags: ["negative"], twoFaults: true,
              input: .object([("row", resident.tree), ("contentHash", .bytes(Array(hash.prefix(31))))]),
              expected: .error(.inputBadLength))
        // A mismatch in both directions: offload-hash-mismatch's flipped top bit raises the hash
        // above the digest; all zeros is below it (a comparison written `<` for `!=` refuses
        // only one of the two; a cosmic-ray survivor of pixie, issue 25).
        b.add("notebook/offload-hash-below-digest", "mark_offloaded", "a contentHash of 32 zero bytes, below noteBodyDigest(body): notebook_offload_hash_mismatch",
              rules: ["R4.6-3"], flags: ["negative", InputBeforeRulesCases.notABase],
              input: .object([("row", resident.tree), ("contentHash", .bytes([UInt8](repeating: 0, count: 32)))]),
              expected: .error(.notebookOffloadHashMismatch))
        // One byte over as well as one under: a length test written `<` for `!=` lets 33 bytes
        // through to the mismatch (a cosmic-ray survivor of pixie, issue 25).
        b.add("notebook/offload-hash-long", "mark_offloaded", "contentHash of 33 bytes (the digest and one more byte): input_bad_length, before the mismatch",
              rules: ["R4.6-3"], flags: ["negative", InputBeforeRulesCases.notABase],
              input: .object([("row", resident.tree), ("contentHash", .bytes(hash + [0x00]))]),
              expected: .error(.inputBadLength))
        b.add("notebook/offload-already-offloaded", "mark_offloaded", "an already offloaded note cannot be offloaded again", rules: ["R4.6-3"],
              flags: ["negative"],
              input: .object([("row", offA.tree), ("contentHash", .bytes(hash))]),
              expected: .error(.inputBadValue))
        try offload("notebook/offload-order/offloaded-and-short-hash", "an offloaded row and a 31-byte contentHash: the row's state is checked before the length (input_bad_value)",
                    .object([("row", offA.tree), ("contentHash", .bytes(Array(hash.prefix(31))))]), rules: ["R4.6-3"], twoFaults: true, .error(.inputBadValue))
        var offNoHash = offA; offNoHash["contentHash"] = nil
        try offload("notebook/offload-order/offloaded-without-hash", "an offloaded row without contentHash: input_bad_value (already offloaded), not notebook_offloaded_without_hash from computing its leaf first",
                    .object([("row", offNoHash.tree), ("contentHash", .bytes(hash))]), rules: ["R4.6-3"], twoFaults: true, .error(.inputBadValue))
        var stale = resident; stale["offloadHolderPubkey"] = .bytes(holderB)
        try offload("notebook/offload-stale-holder-removed", "a resident row still naming a stale holder, offloaded with no holder: the output has no offloadHolderPubkey (catches a stale holder kept)",
                                   .object([("row", stale.tree), ("contentHash", .bytes(hash))]), rules: ["R4.6-4"], .ok)
        try offload("notebook/offload-empty-holder", "holder \"\" (0 bytes): present and empty in the output row",
                    .object([("row", resident.tree), ("contentHash", .bytes(hash)), ("holder", .bytes([]))]), rules: ["R4.6-3", "R4.6-4"], .ok)
        try offload("notebook/offload-holder-null", "holder: null is input_bad_type (optional, not nullable)",
                    .object([("row", resident.tree), ("contentHash", .bytes(hash)), ("holder", .null)]), rules: ["R2.2-1", "R4.6-3"], .error(.inputBadType))
        try offload("notebook/offload-hash-odd-hex", "contentHash with 63 hex digits: input_bad_value while reading, before any state check",
                    .object([("row", resident.tree), ("contentHash", .text(String(Hex.encode(hash).dropLast())))]), rules: ["R4.6-3", "R2.2-4"], .error(.inputBadValue))
        try offload("notebook/offload-hash-uppercase", "contentHash in uppercase hex: accepted, stamped in lowercase",
                    .object([("row", resident.tree), ("contentHash", .text(Hex.encode(hash).uppercased())), ("holder", .bytes(holderA))]), rules: ["R2.2-4", "R2-2", "R4.6-4"], .ok)
        var big = resident; big["localRowID"] = .int(9_007_199_254_740_993)
        try offload("notebook/offload-big-local-row-id", "localRowID 2^53+1 travels unchanged: written as the decimal string \"9007199254740993\" in the output row (catches a double)",
                    .object([("row", big.tree), ("contentHash", .bytes(hash))]), rules: ["R4.6-4", "R4.9-1"], .ok)
        var offBadHash = offA; offBadHash["contentHash"] = .bytes([UInt8](repeating: 3, count: 31))
        b.add("notebook/offloaded-contentHash-31-bytes", "leaf", "an offloaded note whose contentHash is 31 bytes: input_bad_length while reading the row, not notebook_offloaded_without_hash",
              rules: ["R4.6-1", "R4.2-12"], input: leafInput("notebook", offBadHash.tree), expected: .error(.inputBadLength))
        // The separator of noteBodyDigest, shown on its own.
        var emptyNote = resident; emptyNote["body"] = .text("")
        try b.leaf("notebook/body-empty", "an empty resident body commits noteBodyDigest(\"\")", emptyNote, rules: ["R4.6-2"], flags: ["residency"])
    }

    // MARK: roots

    static func rootCases(_ b: inout Builder) throws {
        for ns in Namespace.allCases {
            try b.root("\(ns.rawValue)/empty", "no rows: the empty root of \(ns.rawValue)" + (ns == .settings ? " (the hash of the empty map a0)" : ""), ns, [],
                       rules: ns == .settings ? ["R4.7-6", "R4.7-7"] : ["R4.7-2", "R4.7-3", "R4.7-7"], flags: ["empty"])
        }
        for ns in Namespace.allCases {
            let rows = (0..<3).map { SampleRows.typical(ns, index: $0) }
            try b.root("\(ns.rawValue)/three-rows", "three typical rows, given in generation order", ns, rows,
                       rules: ns == .settings ? ["R4.7-6", "R4.7-7"] : ["R4.7-1", "R4.7-3", "R4.7-7", "R4.4-2"])
        }
        // Unsorted input: the root does not depend on row order.
        let rows = (0..<5).map { SampleRows.typical(.messages, index: $0) }
        let r1 = try b.root("messages/five-rows", "five message rows: an odd node promoted at two levels", .messages, rows, rules: ["R4.7-1", "R4.7-3"])
        let r2 = try b.root("messages/five-rows-reversed", "the same rows reversed: same root (sorted by messageID bytes)", .messages, rows.reversed(), rules: ["R4.7-3", "R4.4-2"])
        try check(r1 == r2, "root independent of input order")
        // Memory: a calendar row changes nothing.
        var mem = (0..<3).map { SampleRows.typical(.memory, index: $0) }
        let m1 = try b.root("memory/three-manual", "three manual events", .memory, mem, rules: ["R4.7-3"])
        var cal = SampleRows.typical(.memory, index: 9); cal["source"] = .text("calendar")
        mem.insert(cal, at: 1)
        let m2 = try b.root("memory/with-calendar-event", "plus a calendar event: dropped, same root and count", .memory, mem, rules: ["R4.5-1", "R4.7-7"], flags: ["dropped"])
        try check(m1 == m2, "calendar dropped from root")
        // Settings.
        let s = (0..<3).map { SampleRows.typical(.settings, index: $0) }
        let s1 = try b.root("settings/three-keys", "three live keys: hash of the CBOR map", .settings, s, rules: ["R4.7-6"])
        var sv = s; sv[1]["versionVector"] = .versionVector(["device-z": 99])
        let s2 = try b.root("settings/version-vector-ignored", "another version vector on one key: same root", .settings, sv, rules: ["R4.7-6", "R4.2-11"], flags: ["excluded:versionVector"])
        try check(s1 == s2, "settings version vectors excluded")
        var st = s; st.append(Row(.settings, ["key": .text("ui.deleted"), "value": .text("x"), "tombstoned": .bool(true)]))
        let s3 = try b.root("settings/tombstoned-key-left-out", "a tombstoned key is not in the dictionary: same root, same count", .settings, st, rules: ["R4.5-2", "R4.7-7"], flags: ["tombstone"])
        try check(s1 == s3, "settings tombstone excluded")
        var sc = s; sc[0]["value"] = .text("light")
        let s4 = try b.root("settings/value-changed", "one value changed: root changes", .settings, sc, rules: ["R4.7-6"])
        try check(s1 != s4, "settings value commits")
        let unordered = [("zoom", "1.5"), ("a", "x"), ("ui.theme.0", "dark"), ("bb", "y")].map { Row(.settings, ["key": .text($0.0), "value": .text($0.1)]) }
        try b.root("settings/keys-out-of-order", "keys given out of order and of different lengths: the map is sorted by encoded key (shorter first: a, bb, zoom, ui.theme.0)", .settings, unordered, rules: ["R4.7-6"])
        let nf = [Row(.settings, ["key": .text("caf\u{E9}"), "value": .text("nfc")]), Row(.settings, ["key": .text("cafe\u{301}"), "value": .text("nfd")])]
        let rnf = try b.root("settings/keys-nfc-nfd-distinct", "keys café (NFC) and café (NFD) are two keys, count 2 (catches duplicate_key from Swift == or NFC)", .settings, nf,
                             rules: ["R4.7-6", "R2.2-5"], flags: ["unicode"])
        _ = rnf
        let u16 = [Row(.settings, ["key": .text("\u{1F600}"), "value": .text("emoji")]), Row(.settings, ["key": .text("\u{FF5E}a"), "value": .text("fullwidth")])]
        try b.root("settings/keys-utf8-not-utf16", "keys U+1F600 and U+FF5E+a (both 4 UTF-8 bytes): map order by bytes puts U+FF5E first (catches UTF-16 order)", .settings, u16,
                   rules: ["R4.7-6", "R2.2-5"], flags: ["unicode"])
        let sd = s + [Row(.settings, ["key": .text("ui.theme.0"), "value": .text("light")])]
        b.add("settings/duplicate-key", "root", "a key given twice is rejected", rules: ["R4.7-6"],
              input: .object([("namespace", .text("settings")), ("rows", .array(sd.map(\.tree)))]), expected: .error(.duplicateKey))
        let sdt = s + [Row(.settings, ["key": .text("ui.theme.0"), "value": .text("x"), "tombstoned": .bool(true)])]
        b.add("settings/duplicate-key-tombstoned", "root", "a live key given again as tombstoned is still a repeated key", rules: ["R4.7-6"],
              input: .object([("namespace", .text("settings")), ("rows", .array(sdt.map(\.tree)))]), expected: .error(.duplicateKey))
        var calTwin = SampleRows.typical(.memory, index: 1); calTwin["source"] = .text("calendar")
        let memDup = [SampleRows.typical(.memory, index: 1), calTwin]
        b.add("memory/duplicate-key-with-dropped-row", "root", "a calendar row sharing a manual row's eventID is still a repeated key", rules: ["R4.7-4"],
              input: .object([("namespace", .text("memory")), ("rows", .array(memDup.map(\.tree)))]), expected: .error(.duplicateKey))
        let md = rows + [rows[2]]
        b.add("messages/duplicate-key", "root", "two rows with one messageID are rejected", rules: ["R4.7-4"],
              input: .object([("namespace", .text("messages")), ("rows", .array(md.map(\.tree)))]), expected: .error(.duplicateKey))

        // Order: every row read, then repeated keys, then leaves.
        var noteOff = SampleRows.typical(.notebook, index: 2); noteOff["bodyOffloaded"] = .bool(true)
        let notes = [SampleRows.typical(.notebook, index: 0), noteOff, SampleRows.typical(.notebook, index: 0)]
        b.add("notebook/order/duplicate-before-leaf-error", "root", "an offloaded row without contentHash and a repeated noteID: duplicate_key (keys are checked before leaves)",
              rules: ["R4.7-5", "R4.7-4", "R4.6-1"], twoFaults: true,
              input: .object([("namespace", .text("notebook")), ("rows", .array(notes.map(\.tree)))]), expected: .error(.duplicateKey))
        // The accepted neighbour of the case above, each fault taken out: the two-fault audit puts
        // one fault back at a time against it and sees each refused alone, with different codes.
        try b.root("notebook/order/neighbour-three-rows", "three notebook rows, none offloaded, no key twice: the accepted neighbour of order/duplicate-before-leaf-error",
                   .notebook, [SampleRows.typical(.notebook, index: 0), SampleRows.typical(.notebook, index: 2), SampleRows.typical(.notebook, index: 1)], rules: ["R4.7-5"],
                   flags: ["neighbour-of:state_digest/root/notebook/order/duplicate-before-leaf-error"])
        let readFirst: [CBOR] = [rows[0].tree, rows[0].tree, without(rows[1].tree, "body")]
        b.add("messages/order/rows-read-before-duplicates", "root", "a repeated key in rows 0 and 1 and a missing body in row 2: input_missing_field (every row is read first)",
              rules: ["R4.7-5", "R4.3-4"], twoFaults: true,
              input: .object([("namespace", .text("messages")), ("rows", .array(readFirst))]), expected: .error(.inputMissingField))
        var rows0Twin = rows[0]; rows0Twin["messageID"] = rows[3]["messageID"]
        try b.root("messages/order/neighbour-three-rows", "three message rows, each whole, no key twice (row 1 is row 0 with another messageID): the accepted neighbour of order/rows-read-before-duplicates",
                   .messages, [rows[0], rows0Twin, rows[1]], rules: ["R4.7-5"], flags: ["neighbour-of:state_digest/root/messages/order/rows-read-before-duplicates"])
        b.add("messages/rows-not-array", "root", "rows given as an object: input_bad_type", rules: ["R4.7-5"],
              input: .object([("namespace", .text("messages")), ("rows", .object([]))]), expected: .error(.inputBadType))
    }

    // MARK: fold

    static func leavesTree(_ leaves: [(key: [UInt8], leaf: SHA256Digest)]) -> CBOR {
        .array(leaves.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes))]) })
    }

    static func foldCases(_ b: inout Builder) throws {
        // The fold itself, over explicit and generated leaf lists.
        for n in [0, 1, 2, 3, 4, 5, 7, 8, 9] {
            let leaves = LeafList.indexRule(count: n)
            let root = try MerkleTree.root(namespace: .messages, keyedLeaves: leaves)
            if n == 1 { try check(root == leaves[0].leaf, "one-leaf root is the leaf") }
            b.add("index/n\(n)", "fold", "\(n) leaves listed explicitly" + (n == 1 ? ": the root is the leaf itself" : n == 0 ? ": the empty root" : ": odd nodes promoted, never paired with themselves"),
                  rules: ["R4.7-1", "R4.7-3", "R4.7-7", "R4.9-3"] + (n == 0 ? ["R4.7-2"] : []), flags: ["fold"],
                  input: .object([("namespace", .text("messages")), ("leaves", leavesTree(leaves))]),
                  expected: .output(StateDigestOutput.root(root, count: n)))
        }
        for n in [255, 256, 257, 1000] {
            let leaves = LeafList.indexRule(count: n)
            let root = try MerkleTree.root(namespace: .messages, keyedLeaves: leaves)
            b.add("generated/n\(n)", "fold", "\(n) leaves by generator rule index", rules: ["R4.9-4", "R4.7-3"], flags: ["fold", "generated"],
                  input: .object([("namespace", .text("messages")), ("generate", .object([("rule", .text("index")), ("count", .unsigned(UInt64(n)))]))]),
                  expected: .output(StateDigestOutput.root(root, count: n)))
        }
        var unsorted = LeafList.indexRule(count: 6)
        unsorted.swapAt(0, 5); unsorted.swapAt(1, 3)
        let ur = try MerkleTree.root(namespace: .messages, keyedLeaves: unsorted)
        try check(ur == (try MerkleTree.root(namespace: .messages, keyedLeaves: LeafList.indexRule(count: 6))), "fold sorts")
        b.add("index/unsorted-n6", "fold", "six leaves given out of key order: sorted before folding", rules: ["R4.7-3", "R4.4-2"], flags: ["fold"],
              input: .object([("namespace", .text("messages")), ("leaves", leavesTree(unsorted))]),
              expected: .output(StateDigestOutput.root(ur, count: 6)))
        let prefix: [(key: [UInt8], leaf: SHA256Digest)] = [([0x01, 0x00], SHA256.hash([1])), ([0x01], SHA256.hash([2])), ([0x00, 0xff, 0xff], SHA256.hash([3]))]
        let pr = try MerkleTree.root(namespace: .messages, keyedLeaves: prefix)
        b.add("index/prefix-keys", "fold", "keys of different lengths: a key sorts before its extensions (0x01 < 0x0100)", rules: ["R4.4-2", "R4.7-3"], flags: ["fold"],
              input: .object([("namespace", .text("messages")), ("leaves", leavesTree(prefix))]),
              expected: .output(StateDigestOutput.root(pr, count: 3)))
        let dup = LeafList.indexRule(count: 2).map { (key: [UInt8](repeating: 7, count: 4), leaf: $0.leaf) }
        b.add("index/duplicate-key", "fold", "two leaves with one key are rejected", rules: ["R4.9-3", "R4.7-4"], flags: ["fold", "negative"],
              input: .object([("namespace", .text("messages")), ("leaves", leavesTree(dup))]),
              expected: .error(.duplicateKey))
        b.add("index/leaf-31-bytes", "fold", "a leaf that is not 32 bytes is rejected", rules: ["R4.9-3"], flags: ["fold", "negative"],
              input: .object([("namespace", .text("messages")), ("leaves", .array([.object([("key", .bytes([1])), ("leaf", .bytes([UInt8](repeating: 0, count: 31)))])]))]),
              expected: .error(.inputBadLength))

        let two = LeafList.indexRule(count: 2)
        func fold(_ id: String, _ comment: String, _ input: CBOR, rules: [String], flags: [String] = [], twoFaults: Bool = false, _ expect: Builder.Expectation) throws {
            try b.run(id, "fold", comment, input: input, rules: rules, flags: ["fold"] + flags, twoFaults: twoFaults, expect: expect)
        }
        let gen = { (rule: CBOR, count: CBOR) -> CBOR in .object([("namespace", .text("messages")), ("generate", .object([("rule", rule), ("count", count)]))]) }
        try fold("generated/count-decimal-string", "count \"3\" as a canonical decimal string: the root of three generated leaves", gen(.text("index"), .text("3")), rules: ["R4.9-4", "R2.2-3"], .ok)
        // The limit itself and one above it (a cap written `>= limit` or `> limit / 2` passes a
        // count far above it and every small count: two cosmic-ray survivors of pixie, issue 25).
        try fold("generated/count-2p16", "count 2^16 is the generator's limit and is accepted: the root of 65,536 generated leaves",
                 gen(.text("index"), .unsigned(1 << 16)), rules: ["R4.9-4"], .ok)
        try fold("generated/count-2p16-plus-1", "count 2^16+1 is above the generator's limit: input_bad_value (rejected before generating)",
                 gen(.text("index"), .unsigned((1 << 16) + 1)), rules: ["R4.9-4"], .error(.inputBadValue))
        try fold("generated/count-2p20-plus-1", "count 2^20+1 is above the generator's limit: input_bad_value (rejected before generating)", gen(.text("index"), .unsigned((1 << 20) + 1)), rules: ["R4.9-4"], .error(.inputBadValue))
        try fold("generated/count-minus-1", "count -1 is not an unsigned integer: input_bad_type", gen(.text("index"), .int(-1)), rules: ["R4.9-4", "R2.2-3"], .error(.inputBadType))
        try fold("generated/count-float", "count 2.0 is not an integer: input_bad_type", gen(.text("index"), .float(2.0)), rules: ["R4.9-4", "R2.2-3"], .error(.inputBadType))
        try fold("generated/rule-unknown", "rule \"random\" is not a generator rule: input_bad_value", gen(.text("random"), .unsigned(2)), rules: ["R4.9-4"], .error(.inputBadValue))
        // A rule that sorts below "index" (a test written `>` for `!=` refuses only the rules above
        // it, as "random" is; a cosmic-ray survivor of pixie, issue 25).
        try fold("generated/rule-below-index", "rule \"hash\" sorts below \"index\" and is not a generator rule: input_bad_value", gen(.text("hash"), .unsigned(2)),
                 rules: ["R4.9-4"], flags: [InputBeforeRulesCases.notABase], .error(.inputBadValue))
        try fold("generated/order/rule-before-count", "rule \"random\" and count -1: the rule is read first (input_bad_value)", gen(.text("random"), .int(-1)), rules: ["R4.9-4"], twoFaults: true, .error(.inputBadValue))
        try fold("generated/leaves-not-read", "generate and a malformed leaves member: generate is used, leaves is never read",
                 .object([("namespace", .text("messages")), ("leaves", .text("not leaves")), ("generate", .object([("rule", .text("index")), ("count", .unsigned(2))]))]), rules: ["R4.9-3"], .ok)
        try fold("index/settings", "fold over namespace settings: input_bad_value (settings has no leaves)",
                 .object([("namespace", .text("settings")), ("leaves", leavesTree(two))]), rules: ["R4.9-3"], .error(.inputBadValue))
        try fold("index/order/settings-before-leaves", "namespace settings and a 31-byte leaf: the namespace is checked first (input_bad_value)",
                 .object([("namespace", .text("settings")), ("leaves", .array([.object([("key", .bytes([1])), ("leaf", .bytes([UInt8](repeating: 0, count: 31)))])]))]),
                 rules: ["R4.9-3"], twoFaults: true, .error(.inputBadValue))
        try fold("index/order/element-before-duplicate", "a repeated key in elements 0 and 1 and a 31-byte leaf in element 2: input_bad_length (elements are read before keys are compared)",
                 .object([("namespace", .text("messages")), ("leaves", .array(leavesTree(dup).arrayItems + [.object([("key", .bytes([9])), ("leaf", .bytes([UInt8](repeating: 0, count: 31)))])]))]),
                 rules: ["R4.9-3"], twoFaults: true, .error(.inputBadLength))
        try fold("index/order/neighbour-three-leaves", "keys 07070707, 08080808 and 09 with 32-byte leaves: the accepted neighbour of index/order/element-before-duplicate",
                 .object([("namespace", .text("messages")), ("leaves", .array([.object([("key", .bytes(dup[0].key)), ("leaf", .bytes(dup[0].leaf.bytes))]),
                                                                              .object([("key", .bytes([8, 8, 8, 8])), ("leaf", .bytes(dup[1].leaf.bytes))]),
                                                                              .object([("key", .bytes([9])), ("leaf", .bytes([UInt8](repeating: 0, count: 32)))])]))]),
                 rules: ["R4.9-3"], flags: ["neighbour-of:state_digest/fold/index/order/element-before-duplicate"], .ok)
        try fold("index/element-not-object", "a leaves element that is a string: input_bad_type",
                 .object([("namespace", .text("messages")), ("leaves", .array([.text("00")]))]), rules: ["R4.9-3"], .error(.inputBadType))
        try fold("index/element-extra-member-ignored", "a leaves element with an extra member: ignored",
                 .object([("namespace", .text("messages")), ("leaves", .array(two.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes)), ("note", .text("x"))]) }))]),
                 rules: ["R2.2-2", "R4.9-3"], .ok)
        try fold("index/element-missing-leaf", "a leaves element without leaf: input_missing_field",
                 .object([("namespace", .text("messages")), ("leaves", .array([.object([("key", .bytes([1]))])]))]), rules: ["R4.9-3", "R2.2-1"], .error(.inputMissingField))
        try fold("index/empty-key", "a leaf whose key is the empty byte string: allowed (keys are any length), sorts first",
                 .object([("namespace", .text("messages")), ("leaves", .array([.object([("key", .bytes([1])), ("leaf", .bytes(two[0].leaf.bytes))]), .object([("key", .bytes([])), ("leaf", .bytes(two[1].leaf.bytes))])]))]),
                 rules: ["R4.9-3", "R4.4-2"], .ok)
    }

    // MARK: digests

    static func storeTree(_ store: [Namespace: [Row]]) -> CBOR {
        .object([("namespaces", .object(Namespace.allCases.compactMap { ns in store[ns].map { (ns.rawValue, CBOR.array($0.map(\.tree))) } }))])
    }

    static func digestCases(_ b: inout Builder) throws {
        var store: [Namespace: [Row]] = [:]
        for ns in Namespace.allCases { store[ns] = (0..<2).map { SampleRows.typical(ns, index: $0) } }
        let full = try StateRoots.digest(store)
        b.add("store/two-rows-each", "digest", "two typical rows in every namespace: roots in §4.1 order after version byte 6", rules: ["R4.1-1", "R4.8-1", "R4.9-1"], input: storeTree(store), expected: .output(StateDigestOutput.digest(full)))
        let empty = try StateRoots.digest([:])
        b.add("store/empty", "digest", "an empty store: settings hashes the empty map, the rest are empty roots", rules: ["R4.8-1", "R4.7-2", "R4.9-5"], input: storeTree([:]), expected: .output(StateDigestOutput.digest(empty)))
        var changed = store
        changed[.contacts]![0]["displayName"] = .text("Grace H.")
        let changedDigest = try StateRoots.digest(changed)
        b.add("store/one-contact-renamed", "digest", "one contact renamed: only the contacts root moves", rules: ["R4.8-1"], input: storeTree(changed), expected: .output(StateDigestOutput.digest(changedDigest)))
        try check(full.divergentNamespaces(from: changedDigest) == [.contacts], "single divergence")

        func digest(_ id: String, _ comment: String, _ namespaces: [(String, CBOR)], rules: [String], twoFaults: Bool = false, _ expect: Builder.Expectation) throws {
            try b.run(id, "digest", comment, input: .object([("namespaces", .object(namespaces))]), rules: rules, twoFaults: twoFaults, expect: expect)
        }
        let storeOut = try StateDigestHandler().tree(op: "digest", input: storeTree(store).json)
        guard case .map(let storeEntries)? = storeTree(store)["namespaces"] else { return }
        let reversed: [(String, CBOR)] = storeEntries.reversed().map { e in guard case .text(let k) = e.key else { return ("", e.value) }; return (k, e.value) }
        try digest("store/members-reversed", "the same store with its namespaces listed in reverse: same digest (roots go in §4.1 order, not member order)",
                   reversed, rules: ["R4.9-5", "R4.1-1"], .same(as: storeOut))
        let badPosts = CBOR.array([without(SampleRows.typical(.posts).tree, "body")])
        let badMessages = CBOR.array([with(SampleRows.typical(.messages).tree, "sentAt", .text("x"))])
        try digest("store/order/spec-order-not-member-order", "posts (missing body) listed before messages (sentAt \"x\"): messages is read first in §4.1 order (input_bad_type; catches member order)",
                   [("posts", badPosts), ("messages", badMessages)], rules: ["R4.9-5"], twoFaults: true, .error(.inputBadType))
        try digest("store/order/unknown-name-before-rows", "a bad messages row listed before an unknown namespace zzz: unknown_namespace (names are checked before any row)",
                   [("messages", badMessages), ("zzz", .array([]))], rules: ["R4.9-5", "R4.1-3"], twoFaults: true, .error(.unknownNamespace))
        let dupNotes = CBOR.array([SampleRows.typical(.notebook).tree, SampleRows.typical(.notebook).tree])
        try digest("store/order/namespace-rooted-before-next", "notebook holds a repeated key and posts (later in §4.1 order) a missing body: duplicate_key (each namespace is read and rooted in turn)",
                   [("posts", badPosts), ("notebook", dupNotes)], rules: ["R4.9-5", "R4.7-5"], twoFaults: true, .error(.duplicateKey))
        try digest("store/namespace-not-array", "a namespace whose value is an object: input_bad_type", [("messages", .object([]))], rules: ["R4.9-5"], .error(.inputBadType))
        try digest("store/namespace-null", "a namespace whose value is null: input_bad_type (null is not absence)", [("messages", .null)], rules: ["R4.9-5", "R2.2-1"], .error(.inputBadType))
        try digest("store/unknown-namespace", "a namespace that does not exist: unknown_namespace", [("calendar", .array([]))], rules: ["R4.1-3", "R4.9-5"], .error(.unknownNamespace))
        b.add("store/namespaces-missing", "digest", "no namespaces member: input_missing_field", rules: ["R2.2-1"], input: .object([]), expected: .error(.inputMissingField))

        var rootsObj: [(String, CBOR)] = []
        for ns in Namespace.allCases { rootsObj.append((ns.rawValue, .bytes(full[ns].bytes))) }
        b.add("encode/full", "digest_encode", "13 roots in namespace order after the version byte 6: 417 bytes", rules: ["R4.8-1", "R4.1-1"],
              input: .object([("roots", .object(rootsObj))]), expected: .output(.object([("encoded", .bytes(full.encoded()))])))
        b.add("encode/missing-root", "digest_encode", "a namespace root is missing", rules: ["R4.9-5"],
              input: .object([("roots", .object(Array(rootsObj.dropLast())))]), expected: .error(.inputMissingField))
        var shortRoots = rootsObj; shortRoots[3].1 = .bytes([UInt8](repeating: 0, count: 31))
        b.add("encode/short-root", "digest_encode", "a root of 31 bytes", rules: ["R4.9-5"],
              input: .object([("roots", .object(shortRoots))]), expected: .error(.inputBadLength))
        func encode(_ id: String, _ comment: String, _ roots: [(String, CBOR)], rules: [String], twoFaults: Bool = false, _ expect: Builder.Expectation) throws {
            try b.run(id, "digest_encode", comment, input: .object([("roots", .object(roots))]), rules: rules, twoFaults: twoFaults, expect: expect)
        }
        let fullEncoded = try StateDigestHandler().tree(op: "digest_encode", input: CBOR.object([("roots", .object(rootsObj))]).json)
        try encode("encode/members-reversed", "the 13 roots listed in reverse: the same 417 bytes", rootsObj.reversed(), rules: ["R4.9-5", "R4.1-1"], .same(as: fullEncoded))
        try encode("encode/uppercase-hex", "roots in uppercase hex: accepted, encoded in lowercase", rootsObj.map { ($0.0, CBOR.text(Hex.encode(full[Namespace(rawValue: $0.0)!].bytes).uppercased())) },
                   rules: ["R2.2-4", "R2-2"], .same(as: fullEncoded))
        try encode("encode/unknown-namespace", "a 14th member named calendar: unknown_namespace (catches extra names ignored)", rootsObj + [("calendar", .bytes([UInt8](repeating: 0, count: 32)))],
                   rules: ["R4.9-5", "R4.1-3"], .error(.unknownNamespace))
        var lastMissing = Array(rootsObj.dropLast()); lastMissing[0].1 = .bytes([UInt8](repeating: 0, count: 31))
        try encode("encode/order/first-bad-before-last-missing", "roots listed in reverse, settings 31 bytes and agentConversations missing: settings is read first (input_bad_length)",
                   lastMissing.reversed(), rules: ["R4.9-5"], twoFaults: true, .error(.inputBadLength))
        try encode("encode/order/unknown-before-bad-root", "settings 31 bytes listed first, an unknown name listed last: unknown_namespace",
                   shortRoots.map { $0 } + [("Settings", .bytes([UInt8](repeating: 0, count: 32)))], rules: ["R4.9-5", "R4.1-3"], twoFaults: true, .error(.unknownNamespace))
        var nullRoots = rootsObj; nullRoots[1].1 = .null
        try encode("encode/root-null", "a root given as null: input_bad_type", nullRoots, rules: ["R4.9-5", "R2.2-1"], .error(.inputBadType))

        let enc = full.encoded()
        b.add("decode/full", "digest_decode", "decodes to version 6 and 13 roots", rules: ["R4.8-1", "R4.8-2", "R4.9-1"], input: .object([("encoded", .bytes(enc))]), expected: .output(StateDigestOutput.decoded(full)))
        b.add("decode/empty-store", "digest_decode", "the empty store's digest", rules: ["R4.8-1"], input: .object([("encoded", .bytes(empty.encoded()))]), expected: .output(StateDigestOutput.decoded(empty)))
        for (name, bytes, comment) in [("length-0", [UInt8](), "no bytes at all: no version byte to read"),
                                       ("length-1", [UInt8(6)], "only the version byte"),
                                       ("length-416", Array(enc.dropLast()), "one byte short"),
                                       ("length-418", enc + [0], "one byte extra: catches trailing bytes ignored"),
                                       ("length-385", Array(enc.prefix(385)), "version 6 with only 12 roots")] {
            b.add("decode/\(name)", "digest_decode", comment + ": wrong length", rules: ["R4.8-2"], input: .object([("encoded", .bytes(bytes))]), expected: .error(.digestWrongLength))
        }
        for v in [UInt8(5), 7, 0, 255] {
            var e = enc; e[0] = v
            b.add("decode/version-\(v)", "digest_decode", "version byte \(v): unsupported, no reconcile (a build with other field lists writes another byte)", rules: ["R4.8-2", "R4.8-3", "R4-1"], input: .object([("encoded", .bytes(e))]), expected: .error(.digestUnsupportedVersion))
        }
        var v5short = Array(enc.dropLast()); v5short[0] = 5
        b.add("decode/version-5-and-short", "digest_decode", "wrong version and wrong length: the version byte is read first (version skew, not a malformed digest)",
              rules: ["R4.8-2"], twoFaults: true, input: .object([("encoded", .bytes(v5short))]), expected: .error(.digestUnsupportedVersion))
        func decode(_ id: String, _ comment: String, _ encoded: CBOR, rules: [String], twoFaults: Bool = false, _ expect: Builder.Expectation) throws {
            try b.run(id, "digest_decode", comment, input: .object([("encoded", encoded)]), rules: rules, twoFaults: twoFaults, expect: expect)
        }
        var v7long = enc + [UInt8](repeating: 0, count: 32); v7long[0] = 7
        try decode("decode/version-7-fourteen-roots", "a version-7 digest with 14 roots (449 bytes): digest_unsupported_version (catches length checked first)", .bytes(v7long), rules: ["R4.8-2", "R4.8-3"], twoFaults: true, .error(.digestUnsupportedVersion))
        try decode("decode/version-7-one-byte", "the single byte 07: digest_unsupported_version", .bytes([7]), rules: ["R4.8-2"], twoFaults: true, .error(.digestUnsupportedVersion))
        let decodedFull = try StateDigestHandler().tree(op: "digest_decode", input: CBOR.object([("encoded", .bytes(enc))]).json)
        try decode("decode/uppercase-hex", "the digest in uppercase hex: accepted, roots output in lowercase", .text(Hex.encode(enc).uppercased()), rules: ["R2.2-4", "R2-2"], .same(as: decodedFull))
        try decode("decode/odd-hex", "833 hex digits: input_bad_value (before any digest check)", .text(String(Hex.encode(enc).dropLast())), rules: ["R2.2-4"], .error(.inputBadValue))

        func div(_ name: String, _ comment: String, _ a: [UInt8], _ c: [UInt8], _ expected: VectorCase.Expected, rules: [String], twoFaults: Bool = false) {
            b.add("pair/\(name)", "divergence", comment, rules: rules, twoFaults: twoFaults, input: .object([("a", .bytes(a)), ("b", .bytes(c))]), expected: expected)
        }
        div("identical", "equal digests: nothing to reconcile", enc, enc, .output(StateDigestOutput.divergence([])), rules: ["R4.8-4"])
        div("one-namespace", "only contacts differs", enc, changedDigest.encoded(), .output(StateDigestOutput.divergence([.contacts])), rules: ["R4.8-4"])
        var several = full.roots
        for ns in [Namespace.settings, .notebook, .agentConversations] { several[ns.rawValueIndex] = SHA256.hash(Array(ns.rawValue.utf8)) }
        let sev = StateDigest(roots: several)
        div("first-middle-last", "settings, notebook and agentConversations differ, reported in digest order", enc, sev.encoded(),
            .output(StateDigestOutput.divergence(full.divergentNamespaces(from: sev))), rules: ["R4.8-4", "R4.1-1"])
        try check(full.divergentNamespaces(from: sev) == [.settings, .notebook, .agentConversations], "divergence order")
        div("all", "every namespace differs", empty.encoded(), enc, .output(StateDigestOutput.divergence(empty.divergentNamespaces(from: full))), rules: ["R4.8-4"])
        var v7 = enc; v7[0] = 7
        div("version-skew", "the peer runs another wire version: rejected, never a repair", enc, v7, .error(.digestUnsupportedVersion), rules: ["R4.8-3", "R4.8-4"])
        div("peer-truncated", "the peer's digest is truncated", enc, Array(enc.prefix(200)), .error(.digestWrongLength), rules: ["R4.8-4", "R4.8-2"])
        div("order/a-short-b-skewed", "a is 416 bytes and b has version 7: a is decoded first (digest_wrong_length)", Array(enc.dropLast()), v7, .error(.digestWrongLength), rules: ["R4.8-4"], twoFaults: true)
        div("order/a-skewed-b-short", "a has version 7 and b is 416 bytes: digest_unsupported_version from a", v7, Array(enc.dropLast()), .error(.digestUnsupportedVersion), rules: ["R4.8-4"], twoFaults: true)
    }
}

extension CBOR {
    var arrayItems: [CBOR] { if case .array(let a) = self { return a } else { return [] } }
}

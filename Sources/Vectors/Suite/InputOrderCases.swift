/// R2.2-7's check order over an op's top-level members, two faults at once (SPEC.md §2.2, issue
/// 23): members are checked one after the other, each completely before the next. A reader that
/// looks up every member first and checks types after, or that reads them in another order (a
/// dictionary's, or the order its fields are declared in), answers these cases differently.
///
/// For every op, the members are taken in the order the reference reads them, from the smallest
/// case the reference answers with an output (the same recorder as the battery's facet table);
/// only required members take part (an absent optional member is no fault). For each pair of
/// neighbours (a, b), and for the first against the last:
///
/// * `<a>-absent-before-<b>-type`: a absent and b of the wrong JSON type: `input_missing_field`;
/// * `<a>-type-before-<b>-absent`: a of the wrong type and b absent: `input_bad_type`.
///
/// The second fails a reader that checks presence of every member before any type. Generation
/// checks each fault alone is rejected with its own code on its own member, and that the pair is
/// decided by the first member (`field` names it), so every case is shown to be decided by the
/// order it claims to test.
public enum InputOrderCases {
    /// The case-id group: no existing case uses it.
    public static let group = "input-order"

    /// One pair of neighbouring (or first and last) required members of an op.
    public struct Pair: Sendable, Hashable {
        public var op: String
        public var first: String
        public var second: String
        /// The two case names of the pair.
        public var names: [String] { ["\(first)-absent-before-\(second)-type", "\(first)-type-before-\(second)-absent"] }
        /// The `facet:` flag both cases carry.
        public var facet: String { "facet:input-order:\(op):\(first)-\(second)" }
    }

    /// The pairs of `file`'s ops, each with the base case its cases edit, in op order.
    public static func pairs(_ handler: any FormatHandler, cases: [VectorCase]) -> [(Pair, VectorCase)] {
        var bases: [String: (c: VectorCase, size: Int, notABase: Bool)] = [:]
        var ops: [String] = []
        let source = InputFacets.sourceCases(cases)
        for c in source.filter({ !$0.flags.contains(InputBeforeRulesCases.notABase) }) + source.filter({ $0.flags.contains(InputBeforeRulesCases.notABase) }) {
            guard case .output = c.expected, case .map = c.input else { continue }
            let size = CBORWriter.encode(c.input).count
            let notABase = c.flags.contains(InputBeforeRulesCases.notABase)
            if bases[c.op] == nil { ops.append(c.op) }
            // A case flagged `not-a-base` (SPEC §2.3) never takes an op's base from another, and
            // gives it up to any other.
            if let b = bases[c.op], notABase || (!b.notABase && b.size <= size) { continue }
            bases[c.op] = (c, size, notABase)
        }
        var out: [(Pair, VectorCase)] = []
        for op in ops {
            guard let base = bases[op]?.c else { continue }
            let members = readOrder(handler, base)
            guard members.count >= 2 else { continue }
            var pairs = zip(members, members.dropFirst()).map { Pair(op: op, first: $0.0, second: $0.1) }
            if members.count > 2 { pairs.append(Pair(op: op, first: members[0], second: members[members.count - 1])) }
            out += pairs.map { ($0, base) }
        }
        return out
    }

    /// The required top-level members of `base`'s input in the order the reference first reads
    /// anything at or under them.
    public static func readOrder(_ handler: any FormatHandler, _ base: VectorCase) -> [String] {
        guard case .map(let entries) = base.input else { return [] }
        let names = Set(entries.compactMap { if case .text(let k) = $0.key { k } else { nil } })
        let recorder = InputRecorder()
        let json = base.input.json
        _ = recorder.recording { () throws(WireError) in try handler.run(op: base.op, input: json) }
        var order: [String] = []
        for read in recorder.reads {
            guard let name = topLevel(read.path, names), !order.contains(name) else { continue }
            order.append(name)
        }
        let optional = recorder.optionalPaths
        return order.filter { !optional.contains($0) }
    }

    /// The top-level member a reader's path starts with (the longest name that matches, so a
    /// name holding `.` is one name).
    static func topLevel(_ path: String, _ names: Set<String>) -> String? {
        names.filter { path == $0 || path.hasPrefix($0 + ".") || path.hasPrefix($0 + "[") }.max { $0.count < $1.count }
    }

    /// The cases for `file` (appended after the battery's by `VectorSuite`).
    public static func derive(_ handler: any FormatHandler, from file: VectorFile) throws -> [VectorCase] {
        guard InputCases.formats.contains(handler.format) else { return [] }
        let existing = Set(file.cases.map(\.id))
        var out: [VectorCase] = []
        for (pair, base) in pairs(handler, cases: file.cases) {
            let a = pair.first, b = pair.second
            let wrongA = wrongType(base.input, a), wrongB = wrongType(base.input, b)
            // Each fault alone is rejected on its own member: the pair then tests the order only.
            try expect(handler, base, removing: a, replacing: nil, .inputMissingField, on: a, pair)
            try expect(handler, base, removing: b, replacing: nil, .inputMissingField, on: b, pair)
            try expect(handler, base, removing: nil, replacing: (a, wrongA), .inputBadType, on: a, pair)
            try expect(handler, base, removing: nil, replacing: (b, wrongB), .inputBadType, on: b, pair)
            let made: [(String, CBOR, ErrorCode, String)] = [
                (pair.names[0], try expect(handler, base, removing: a, replacing: (b, wrongB), .inputMissingField, on: a, pair),
                 .inputMissingField, "\(a) absent and \(b) of the wrong type: \(a) is checked first, input_missing_field"),
                (pair.names[1], try expect(handler, base, removing: b, replacing: (a, wrongA), .inputBadType, on: a, pair),
                 .inputBadType, "\(a) of the wrong type and \(b) absent: \(a) is checked completely before \(b) is looked up, input_bad_type"),
            ]
            for (name, input, code, comment) in made {
                let id = "\(handler.format)/\(pair.op)/\(group)/\(name)"
                guard !existing.contains(id), !out.contains(where: { $0.id == id }) else { continue }
                out.append(VectorCase(id: id, op: pair.op, comment: "from \(base.id): \(comment)",
                                      flags: ["input-class", "two-faults", "negative", "rule:R2.2-7", "rule:R2.2-1", pair.facet],
                                      input: input, expected: .error(code)))
            }
        }
        return out
    }

    /// A value of another JSON type than the member's: `true`, or the text `"true"` for a boolean.
    static func wrongType(_ input: CBOR, _ name: String) -> CBOR {
        if case .bool? = input[name] { return .text("true") }
        return .bool(true)
    }

    /// The edited input, after checking the reference rejects it with `code` on member `on`.
    @discardableResult
    static func expect(_ handler: any FormatHandler, _ base: VectorCase, removing: String?, replacing: (String, CBOR)?,
                       _ code: ErrorCode, on member: String, _ pair: Pair) throws -> CBOR {
        var input = base.input
        if let (name, v) = replacing { input = InputCases.edit(input, [.key(name)], v) }
        if let name = removing { input = InputCases.removing(input, [.key(name)]) }
        let got = InputCases.run(handler, base.op, input)
        let names: Set<String> = [pair.first, pair.second]
        guard case .failure(let e) = got, e.code == code, let field = e.field, topLevel(field, names) == member else {
            throw WireError(.inputBadValue, "input order: \(handler.format)/\(pair.op) from \(base.id), \(removing.map { "\($0) absent" } ?? "")"
                            + "\(replacing.map { " \($0.0) of the wrong type" } ?? ""): expected \(code.rawValue) on \(member), got \(InputCases.describe(got))"
                            + { if case .failure(let e) = got { " (field \(e.field ?? "none"))" } else { "" } }(), field: member)
        }
        return input
    }
}

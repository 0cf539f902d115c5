/// The battery's cases (SPEC.md §2.2): for every member of every op the facet table finds, its
/// base case with that member replaced by each spelling of `InputBattery`, answered by the
/// reference. Generation stops when the reference's answer is not the one §2.2 requires: that
/// is a reference bug (or the battery misreads SPEC), never a case to ship.
///
/// Ids are `<format>/<op>/input-battery/<member>-<spelling>` (the member with elements by index
/// and `.` between steps); flags name the §2.2 rule and `facet:input:<path>:<spelling>`.
public enum InputCases {
    /// The case-id group: no existing case uses it.
    public static let group = "input-battery"

    /// The formats the battery runs over, one line each; a format not listed gets no battery
    /// cases and the coverage gate reports every one of its members.
    public static let formats: Set<String> = [
        "state_digest",
        "reconcile",
        "sync_offer",
        "signin",
        "device_list",
        "account_state",
        "settle",
        "pairing",
        "revocation",
        "envelope",
    ]

    /// The battery's cases for `file` (appended after the file's own cases by `VectorSuite`).
    public static func derive(_ handler: any FormatHandler, from file: VectorFile) throws -> [VectorCase] {
        guard formats.contains(handler.format) else { return [] }
        let byID = Dictionary(file.cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let existing = Set(file.cases.map(\.id))
        var out: [VectorCase] = []
        var trims: [String: InputBaseTrim] = [:]
        for var facet in InputFacets.table(handler, cases: file.cases) {
            guard let base = byID[facet.baseCase], let original = value(at: facet.steps, in: base.input) else { continue }
            let idPath = InputFacets.concrete(facet.steps)
            var trim = trims[facet.op] ?? InputBaseTrim(handler, op: facet.op)
            let (baseInput, steps) = trim.trim(base, facet)
            trims[facet.op] = trim
            facet.steps = steps
            var trimmed = base
            trimmed.input = baseInput
            for s in InputBattery.spellings(kind: facet.kind, base: original, length: facet.length, nullable: facet.nullable) {
                let id = "\(handler.format)/\(facet.op)/\(group)/\(idPath)-\(s.name)"
                guard !existing.contains(id) else { continue }
                let input = edit(baseInput, steps, s.value)
                let expected = try answer(handler, facet, s, input: input, base: trimmed)
                out.append(VectorCase(
                    id: id, op: facet.op,
                    comment: "\(facet.path) (\(facet.kind.rawValue)\(facet.length.map { ", \($0) bytes" } ?? "")) from \(base.id)\(baseInput == base.input ? "" : " (trimmed)"): \(s.comment)",
                    flags: ["input-class", "rule:R\(s.rule)", "facet:input:\(facet.path):\(s.name)"] + (s.outcome.isError ? ["negative"] : []),
                    input: input, expected: expected))
            }
        }
        return out
    }

    /// The reference's answer, checked against the spelling's outcome.
    static func answer(_ handler: any FormatHandler, _ facet: InputFacet, _ s: InputBattery.Spelling, input: CBOR, base: VectorCase) throws -> VectorCase.Expected {
        let got = run(handler, facet.op, input)
        func fail(_ why: String) -> WireError {
            WireError(.inputBadValue, "input battery: \(facet.id) spelled \(s.name) (from \(base.id)): \(why)", field: facet.path)
        }
        switch s.outcome {
        case .error(let code):
            guard case .failure(let e) = got else { throw fail("expected \(code.rawValue), the reference accepted it") }
            guard e.code == code else { throw fail("expected \(code.rawValue), the reference answered \(e)") }
            return .error(code)
        case .sameAs(let other):
            let want = run(handler, facet.op, edit(base.input, facet.steps, other))
            guard describe(got) == describe(want) else {
                throw fail("expected the answer to \(other.json.compact) (\(describe(want))), got \(describe(got))")
            }
            return try expected(got)
        case .accepted:
            // A format may bound the value (a count, a clock); §2.2 only forbids reading it as the wrong type.
            if case .failure(let e) = got, e.code == .inputBadType, e.field == InputFacets.path(facet.steps) {
                throw fail("expected the value to be read, the reference rejected it: \(e)")
            }
            return try expected(got)
        }
    }

    static func run(_ handler: any FormatHandler, _ op: String, _ input: CBOR) -> Result<JSONValue, WireError> {
        let json = input.json
        return Result { () throws(WireError) -> JSONValue in try handler.run(op: op, input: json) }
    }

    static func describe(_ r: Result<JSONValue, WireError>) -> String {
        switch r {
        case .success(let v): return v.compact
        case .failure(let e): return "error \(e.code.rawValue)"
        }
    }

    static func expected(_ r: Result<JSONValue, WireError>) throws -> VectorCase.Expected {
        switch r {
        case .success(let v): return .output(CBOR(json: v))
        case .failure(let e): return .error(e.code)
        }
    }

    static func value(at steps: [InputStep], in t: CBOR) -> CBOR? {
        var node: CBOR? = t
        for s in steps {
            switch (s, node) {
            case (.key(let k), .map?): node = node?[k]
            case (.index(let i), .array(let items)?): node = i < items.count ? items[i] : nil
            default: return nil
            }
        }
        return node
    }

    /// The tree with the member or element at `steps` replaced.
    static func edit(_ t: CBOR, _ steps: [InputStep], _ v: CBOR) -> CBOR {
        guard let first = steps.first else { return v }
        let rest = Array(steps.dropFirst())
        switch (first, t) {
        case (.key(let key), .map(var entries)):
            if let j = entries.firstIndex(where: { $0.key == .text(key) }) { entries[j].value = edit(entries[j].value, rest, v) }
            return .map(entries)
        case (.index(let j), .array(var items)) where j < items.count:
            items[j] = edit(items[j], rest, v)
            return .array(items)
        default:
            return t
        }
    }
}

extension InputBattery.Outcome {
    var isError: Bool { if case .error = self { true } else { false } }
}

extension InputFacets {
    /// Steps as the readers write a path (`a.b[0].c`), to compare with a rejection's field.
    static func path(_ steps: [InputStep]) -> String {
        var s = ""
        for step in steps {
            switch step {
            case .key(let k): s += s.isEmpty ? k : ".\(k)"
            case .index(let i): s += "[\(i)]"
            }
        }
        return s
    }
}

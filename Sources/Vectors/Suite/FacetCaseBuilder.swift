/// Derives a format's cases from its facets (issue 23, item 2): for a limit, the value one step
/// below, at and one step above the bound; for a stated order, each adjacent pair of checks (and
/// first against last) failing at once.
///
/// The expected answer of every case is the reference's, but the builder does not take it on
/// trust: it throws when the reference disagrees with the facet (a value the facet puts inside
/// the limit refused, one beyond it accepted or refused with another code), so a facet and the
/// reference cannot drift apart silently. An order case is audited as it is made: each of its
/// two faults alone must give its own check's outcome, and the input without either must pass,
/// so a "second fault" that is not one cannot ship (issue 23, item 4).
struct FacetCaseBuilder {
    struct Disagreement: Error, CustomStringConvertible { var description: String }

    let format: String
    /// The reference, as a testee is driven: op and input tree in, output tree or typed error out.
    let reference: @Sendable (String, CBOR) -> Result<CBOR, WireError>
    var cases: [VectorCase] = []

    init(format: String, reference: @escaping @Sendable (String, CBOR) -> Result<CBOR, WireError>) {
        self.format = format
        self.reference = reference
    }

    private func fail(_ what: String) -> Disagreement {
        Disagreement(description: "\(format) facet generator: \(what)")
    }

    private static func rules(_ ids: [String]) -> [String] {
        var seen = Set<String>()
        return ids.filter { seen.insert($0).inserted }.map { "rule:\($0)" }
    }

    private static func describe(_ r: Result<CBOR, WireError>) -> String {
        switch r {
        case .success(let o): return "output \(String(o.json.compact.prefix(200)))"
        case .failure(let e): return "error \(e.code.rawValue)"
        }
    }

    /// The three cases of one limit. Inside a refusing limit the value passes the rule's check:
    /// the op succeeds, or fails with another code at a later check. `input(delta)` is the op input with the bounded value moved
    /// `delta` steps from the bound; `inside` tells from an output which side of the limit the
    /// answer is on (required for a `.behaviour` facet, optional for `.refuse`).
    /// `flags` are added to every case (`not-a-base` for a facet declared after the derived input
    /// cases of its op were committed, SPEC §2.3).
    mutating func limit(_ f: LimitFacet, op: String, slug: String, comment: String, rules extra: [String] = [],
                        edges: [LimitEdge] = LimitEdge.allCases, flags extraFlags: [String] = [],
                        input: (Int) throws -> CBOR, inside: ((CBOR) -> Bool)? = nil) throws {
        for edge in edges {
            let tree = try input(edge.delta)
            let answer = reference(op, tree)
            let wantInside = f.inside(edge)
            let id = "\(format)/\(op)/limit/\(slug)-\(edge.rawValue)"
            let side = wantInside ? "inside the limit" : "beyond the limit"
            let kind = f.side == .exact ? "exact" : f.inclusive ? "inclusive" : "exclusive"
            let text = "\(comment): \(edge.rawValue) the bound \(f.bound) (\(f.side.rawValue), \(kind)), \(side)"
            var flags = [f.flag(edge), "edge"] + extraFlags
            let expected: VectorCase.Expected
            switch (f.effect, answer) {
            case (.refuse(let code), .failure(let e)) where !wantInside:
                guard e.code == code else { throw fail("\(id): \(f.id) refuses with \(code.rawValue), the reference said \(e.code.rawValue)") }
                expected = .error(code)
                flags.insert("negative", at: 0)
            case (.refuse, .success(let out)) where wantInside:
                if let inside, !inside(out) { throw fail("\(id): accepted, but the output is not the inside answer") }
                expected = .output(out)
            case (.refuse(let code), .failure(let e)) where wantInside && e.code != code:
                // Inside this limit the rule's code is not reported; a later check may still
                // refuse (a box of exactly 1,139 bytes passes the length check, then its tag fails).
                expected = .error(e.code)
                flags.insert("negative", at: 0)
            case (.behaviour, .success(let out)):
                guard let inside else { throw fail("\(id): \(f.id) is a behaviour limit and needs an inside test") }
                guard inside(out) == wantInside else {
                    throw fail("\(id): the facet puts \(edge.rawValue) \(side), the reference's answer is on the other side")
                }
                expected = .output(out)
            default:
                throw fail("\(id): the facet puts \(edge.rawValue) \(side), the reference gave \(Self.describe(answer))")
            }
            cases.append(VectorCase(id: id, op: op, comment: text, flags: flags + Self.rules([f.rule] + extra),
                                    input: tree, expected: expected))
        }
    }

    /// One more case of a limit beyond the three edges, where a value means something of its own
    /// (zero, the type's maximum, a sum that wraps to exactly zero): `label` names it in the id
    /// and the flag (`facet:limit:R12.6-19/rows:wrap-to-zero`), `wantInside` is its side.
    mutating func limitExtra(_ f: LimitFacet, op: String, slug: String, label: String, comment: String, rules extra: [String] = [],
                             wantInside: Bool, input: CBOR, inside: ((CBOR) -> Bool)? = nil) throws {
        let answer = reference(op, input)
        let id = "\(format)/\(op)/limit/\(slug)-\(label)"
        var flags = ["facet:\(f.id):\(label)", "edge"]
        let expected: VectorCase.Expected
        switch (f.effect, answer) {
        case (.refuse(let code), .failure(let e)) where !wantInside && e.code == code:
            expected = .error(code)
            flags.insert("negative", at: 0)
        case (_, .success(let out)) where wantInside == (inside?(out) ?? true):
            if case .behaviour = f.effect, inside == nil { throw fail("\(id): a behaviour limit needs an inside test") }
            if !wantInside, case .refuse = f.effect { throw fail("\(id): beyond a refusing limit, the reference accepted") }
            expected = .output(out)
        default:
            throw fail("\(id): the facet puts \(label) \(wantInside ? "inside" : "beyond") the limit, the reference gave \(Self.describe(answer))")
        }
        cases.append(VectorCase(id: id, op: op, comment: comment, flags: flags + Self.rules([f.rule] + extra),
                                input: input, expected: expected))
    }

    /// The cases of one stated order. `base` passes every check; `faults[i]` breaks check `i`
    /// alone; `output[i]` recognises check `i`'s outcome when it is an output, not a code.
    /// Each pair's case carries both faults; its expected answer is the earlier check's.
    mutating func order(_ f: OrderFacet, op: String, slug: String, comment: String, rules extra: [String] = [],
                        base: CBOR, faults: [(CBOR) throws -> CBOR], output: [Int: (CBOR) -> Bool] = [:],
                        skip: Set<OrderPair> = []) throws {
        try order(f, op: op, slug: slug, comment: comment, rules: extra, base: base, faults: faults, input: { $0 }, output: output, skip: skip)
    }

    /// The same over a model of the input (`input` builds the op input from it), for faults that
    /// touch one field and so cannot be applied to the finished bytes one after the other (a key
    /// that is both not UTF-8 and below the previous one; a blob both cut short and resealed).
    mutating func order<Model>(_ f: OrderFacet, op: String, slug: String, comment: String, rules extra: [String] = [],
                               base model: Model, faults: [(Model) throws -> Model], input: (Model) throws -> CBOR,
                               output: [Int: (CBOR) -> Bool] = [:], skip: Set<OrderPair> = []) throws {
        let base = try input(model)
        guard faults.count == f.checks.count else {
            throw fail("\(f.id): \(faults.count) faults for \(f.checks.count) checks")
        }
        guard case .success = reference(op, base) else {
            throw fail("\(f.id): the base input of \(slug) does not pass: \(Self.describe(reference(op, base)))")
        }
        func isOutcome(_ r: Result<CBOR, WireError>, of i: Int) throws -> Bool {
            switch (f.checks[i].code, r) {
            case (let code?, .failure(let e)): return e.code == code
            case (nil, .success(let out)):
                guard let recognise = output[i] else { throw fail("\(f.id): check \(i + 1) is an output and needs a recogniser") }
                return recognise(out)
            default: return false
            }
        }
        // The audit: each fault alone is what its check reports.
        for i in f.checks.indices {
            let alone = reference(op, try input(try faults[i](model)))
            guard try isOutcome(alone, of: i) else {
                throw fail("\(f.id) \(slug): fault \(i + 1) (\(f.checks[i].name)) alone gives \(Self.describe(alone)), not \(f.checks[i].outcome)")
            }
        }
        for pair in f.pairs where !skip.contains(pair) {
            let a = f.checks[pair.first], b = f.checks[pair.second]
            let tree = try input(try faults[pair.second](try faults[pair.first](model)))
            let answer = reference(op, tree)
            let id = "\(format)/\(op)/order/\(slug)-\(a.name)-before-\(b.name)"
            guard try isOutcome(answer, of: pair.first) else {
                throw fail("\(id): both faults give \(Self.describe(answer)), the earlier check's outcome is \(a.outcome)")
            }
            var flags = [f.flag(pair), "two-faults"]
            let expected: VectorCase.Expected
            switch answer {
            case .success(let out): expected = .output(out)
            case .failure(let e): expected = .error(e.code); flags.insert("negative", at: 0)
            }
            let text = "\(comment): check \(pair.first + 1) (\(a.name)) and check \(pair.second + 1) (\(b.name)) of \(f.rule) both fail; the earlier is reported (\(a.outcome))"
            cases.append(VectorCase(id: id, op: op, comment: text, flags: flags + Self.rules([f.rule] + extra),
                                    input: tree, expected: expected))
        }
    }
}

/// The faults of one order case, by check name: the model an input is built from when every check
/// of an order has one fault that a flag can switch on (`order(_:op:slug:comment:input:)`).
struct FaultSet: Sendable {
    var on: Set<String> = []
    func has(_ check: String) -> Bool { on.contains(check) }
}

extension FacetCaseBuilder {
    /// An order's cases over a `FaultSet`: check `i`'s fault is its name switched on.
    mutating func order(_ f: OrderFacet, op: String, slug: String, comment: String, output: [Int: (CBOR) -> Bool] = [:],
                        input: @escaping (FaultSet) throws -> CBOR) throws {
        try order(f, op: op, slug: slug, comment: comment, base: FaultSet(),
                  faults: f.checks.map { c in { var m = $0; m.on.insert(c.name); return m } }, input: input, output: output)
    }
}

/// A format's reference answering with the output tree itself (before it is rendered as JSON), so
/// the facet builder compares trees, not text.
protocol TreeAnswering: FormatHandler {
    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR
}

extension FacetCaseBuilder {
    /// The builder of a format's facet cases, with its reference driven as a testee is.
    init(_ handler: some TreeAnswering) {
        self.init(format: handler.format) { op, tree in
            Result { () throws(WireError) -> CBOR in try handler.tree(op: op, input: tree.json) }
        }
    }
}

extension AccountStateHandler: TreeAnswering {}
extension DeviceListHandler: TreeAnswering {}
extension EnvelopeHandler: TreeAnswering {}
extension ReconcileHandler: TreeAnswering {}
extension SettleHandler: TreeAnswering {}
extension StateDigestHandler: TreeAnswering {}
extension SyncOfferHandler: TreeAnswering {}
extension SignInHandler: TreeAnswering {
    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR { try output(op: op, input: input) }
}

/// The stated orders "every input member is read, and its `input_*` code reported, before any rule
/// of the format runs" (issue 23), two faults at once: for every op in scope and every code its
/// committed cases reject with that is not an `input_*` code, the smallest such case with one
/// more fault, a member of the wrong JSON type. The answer must be `input_bad_type` on that
/// member. A reader that decodes a member as soon as it reads it (and so reports the rule's code)
/// fails, which is what these rules forbid.
///
/// The mistyped member is one the base case holds unchanged from a case the reference accepts,
/// so the rule's fault lies elsewhere; of those, the one read last, so the rule's fault is read
/// before it where the op allows. Generation checks the member mistyped alone is `input_bad_type`
/// on it and the pair is decided by it.
public enum InputBeforeRulesCases {
    public static let group = "input-before-rules"

    /// Where SPEC.md states the order: the format, the ops it covers (nil: every op), the rule.
    public struct Scope: Sendable {
        public var format: String
        public var ops: Set<String>?
        public var rule: String
    }

    public static let scopes: [Scope] = [
        Scope(format: "envelope", ops: nil, rule: "R14.10-1"),
        Scope(format: "sync_offer", ops: ["receive", "handle_request"], rule: "R7.9-6"),
        Scope(format: "signin", ops: ["cert_issue", "cert_encode", "lookup_encode", "request_encode", "ack_encode", "approval_encode"], rule: "R8.9-3"),
    ]

    /// One pair a scope requires a case for: an op in scope and a rule code its committed cases
    /// reject with. `base` is the smallest such case; `accepted` the op's accepted cases.
    public struct Target: Sendable {
        public var scope: Scope
        public var op: String
        public var code: ErrorCode
        var base: VectorCase
        var accepted: [VectorCase]

        /// The flag the pair's case carries: `facet:input-before-rules:<op>:<code>`.
        public var flag: String { "facet:\(group):\(op):\(code.rawValue)" }
        /// The key an exemption names: `<format>/<op>/input-before-rules:<code>`.
        public var key: String { "\(scope.format)/\(op)/\(group):\(code.rawValue)" }
    }

    /// Every pair the scopes of `format` require, in the order the committed cases first show
    /// them. The coverage gate counts these; `derive` builds a case for each it can. An op whose
    /// cases hold one member only (`sender_cert_decode`'s `cert`, `ack_encode`'s
    /// `device_family`) has no pair: its rule's fault and a mistype would be in the same member,
    /// and the battery's cases on that member already pin that its type is read first.
    public static func targets(format: String, cases: [VectorCase]) -> [Target] {
        let source = InputFacets.sourceCases(cases)
        var members: [String: Set<String>] = [:]
        for c in source {
            guard case .map(let entries) = c.input else { continue }
            for e in entries { if case .text(let name) = e.key { members[c.op, default: []].insert(name) } }
        }
        var out: [Target] = []
        for scope in scopes where scope.format == format {
            var accepted: [String: [VectorCase]] = [:]
            var smallest: [String: (c: VectorCase, size: Int)] = [:]
            var keys: [String] = []
            // A facet's order case is a base only where no other case is rejected with the code:
            // they are derived too, and a new facet must not move the base (and so the bytes) of
            // a committed case. A hand-written case flagged `not-a-base` likewise: a case added
            // after the derived cases of its code were committed (often a boundary, the smallest
            // input of its code) carries it, so that it does not move their base either.
            var derived = Set<String>()
            for c in source where (scope.ops?.contains(c.op) ?? true) {
                guard case .map = c.input, members[c.op, default: []].count > 1 else { continue }
                switch c.expected {
                case .output:
                    accepted[c.op, default: []].append(c)
                case .error(let code):
                    guard !code.rawValue.hasPrefix("input_"), code != .unknownOp else { continue }
                    let key = "\(c.op)\u{0}\(code.rawValue)"
                    let size = CBORWriter.encode(c.input).count
                    let isDerived = c.flags.contains(where: isFacetOrder) || c.flags.contains(notABase)
                    if smallest[key] == nil { keys.append(key) }
                    if let s = smallest[key] {
                        // Keep a hand-written base over a derived one, else the smaller.
                        if isDerived && !derived.contains(key) { continue }
                        if !(derived.contains(key) && !isDerived) && s.size <= size { continue }
                    }
                    smallest[key] = (c, size)
                    if isDerived { derived.insert(key) } else { derived.remove(key) }
                }
            }
            for key in keys {
                guard let base = smallest[key]?.c, case .error(let code) = base.expected else { continue }
                out.append(Target(scope: scope, op: base.op, code: code, base: base, accepted: accepted[base.op] ?? []))
            }
        }
        return out
    }

    static func isFacetOrder(_ flag: String) -> Bool { flag.hasPrefix("facet:order:") }

    /// The flag of a hand-written case that is never preferred as a base (see `targets`).
    public static let notABase = "not-a-base"

    public static func derive(_ handler: any FormatHandler, from file: VectorFile) throws -> [VectorCase] {
        let existing = Set(file.cases.map(\.id))
        var out: [VectorCase] = []
        for t in targets(format: handler.format, cases: file.cases) {
            let base = t.base, good = t.accepted
            // With no accepted case of the op, no member is known to be held unchanged: the
            // coverage gate reports the pair (or its exemption says why).
            guard !good.isEmpty else { continue }
            let order = InputOrderCases.readOrder(handler, base)
            // The last-read member whose value some accepted case of the op holds too.
            guard let member = order.reversed().first(where: { m in good.contains { $0.input[m] != nil && $0.input[m] == base.input[m] } }) else { continue }
            let wrong = InputOrderCases.wrongType(base.input, member)
            // The mistype alone, on an accepted case holding the same value: input_bad_type on it.
            if let ok = good.first(where: { $0.input[member] == base.input[member] }) {
                try check(handler, ok, member, wrong, t.scope)
            }
            let input = try check(handler, base, member, wrong, t.scope)
            let id = "\(handler.format)/\(base.op)/\(group)/\(member)-type-before-\(t.code.rawValue)"
            guard !existing.contains(id), !out.contains(where: { $0.id == id }) else { continue }
            out.append(VectorCase(
                id: id, op: base.op,
                comment: "\(base.id) (\(t.code.rawValue)) with \(member) of the wrong JSON type: every input member is read before any rule runs, input_bad_type",
                flags: ["input-class", "two-faults", "negative", "rule:\(t.scope.rule)", t.flag],
                input: input, expected: .error(.inputBadType)))
        }
        return out
    }

    @discardableResult
    static func check(_ handler: any FormatHandler, _ base: VectorCase, _ member: String, _ wrong: CBOR, _ scope: Scope) throws -> CBOR {
        let input = InputCases.edit(base.input, [.key(member)], wrong)
        let got = InputCases.run(handler, base.op, input)
        guard case .failure(let e) = got, e.code == .inputBadType, let field = e.field,
              InputOrderCases.topLevel(field, [member]) == member else {
            throw WireError(.inputBadValue, "input before rules (\(scope.rule)): \(base.id) with \(member) mistyped: expected input_bad_type on \(member), got \(InputCases.describe(got))"
                            + { if case .failure(let e) = got { " (field \(e.field ?? "none"))" } else { "" } }(), field: member)
        }
        return input
    }
}

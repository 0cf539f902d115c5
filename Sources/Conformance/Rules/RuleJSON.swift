import Vectors

/// `conformance rules --json`: every rule with the facets its format declares for it. The rule
/// members are fixed (id, section, line, text, order, facets); other parts of issue 23 add
/// members (an op's `inputs`) beside them, so a reader must ignore members it does not know.
public enum RuleJSON {
    public static func document(_ rules: [Rule], withdrawn: [WithdrawnRule], facets: [Facet] = FacetIndex.all + FacetIndex.tieBreaksOnly.flatMap(\.facets)) -> JSONValue {
        let byRule = Dictionary(grouping: facets, by: \.rule)
        return .object([
            ("rules", .array(rules.map { r in
                .object([
                    ("id", .string(r.id)),
                    ("section", .string(r.section)),
                    ("line", .number(String(r.line))),
                    ("text", .string(r.text)),
                    ("order", .bool(r.isOrder)),
                    ("facets", .array((byRule[r.id] ?? []).map(facet))),
                ])
            })),
            ("withdrawn", .array(withdrawn.map { .object([("id", .string($0.id)), ("reason", .string($0.reason))]) })),
        ])
    }

    public static func facet(_ f: Facet) -> JSONValue {
        switch f {
        case .limit(let l):
            let effect: (String, JSONValue)
            switch l.effect {
            case .refuse(let code): effect = ("refuses", .string(code.rawValue))
            case .behaviour(let what): effect = ("changes", .string(what))
            }
            return .object([
                ("kind", .string("limit")), ("id", .string(l.id)), ("format", .string(l.format)),
                ("quantity", .string(l.quantity)), ("bound", .string(l.bound)), ("side", .string(l.side.rawValue)),
                ("inclusive", .bool(l.inclusive)), effect,
                ("edges", .array(LimitEdge.allCases.map { e in
                    .object([("edge", .string(e.rawValue)), ("inside", .bool(l.inside(e))), ("flag", .string(l.flag(e)))])
                })),
            ])
        case .order(let o):
            return .object([
                ("kind", .string("order")), ("id", .string(o.id)), ("format", .string(o.format)),
                ("checks", .array(o.checks.map { .object([("name", .string($0.name)), ("outcome", .string($0.outcome))]) })),
                ("pairs", .array(o.pairs.map { .string(o.flag($0)) })),
            ])
        case .tieBreak(let t):
            return .object([
                ("kind", .string("tie-break")), ("id", .string(t.id)), ("format", .string(t.format)),
                ("tie", .string(t.tie)), ("decides", .string(t.decides)),
                ("other_readings", .array(t.others.map { .object([("mutant", .string($0.rawValue)), ("reading", .string($0.summary))]) })),
            ])
        }
    }
}

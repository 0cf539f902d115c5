import Vectors

/// The tie-break axis of `conformance coverage` (issue 23): every declared tie-break needs, for
/// each of its other readings, a case pinning the rule (flagged `rule:<id>`) that the reading's
/// mutant answers otherwise. A tie-break whose cases give one answer under both readings is a gap,
/// whatever the rule coverage says.
public struct TieBreakCoverage: Sendable {
    public struct Entry: Sendable {
        public var facet: TieBreakFacet
        public var mutant: Mutant
        /// The cases pinning the rule that the other reading fails.
        public var witnesses: [String]
    }

    public var entries: [Entry]
    public var problems: [String] { entries.filter(\.witnesses.isEmpty).map { "\($0.facet.id): no case pinning \($0.facet.rule) tells \"\($0.facet.decides)\" from \($0.mutant.rawValue) (\($0.mutant.summary))" } }
    public var isClean: Bool { problems.isEmpty }

    /// The formats whose tie-breaks are declared; the report names the others.
    public static var declaredFormats: [String] {
        (FacetIndex.formats + FacetIndex.tieBreaksOnly).filter { $0.facets.contains { if case .tieBreak = $0 { true } else { false } } }.map(\.format)
    }

    public init(files: [VectorFile], facets: [Facet] = FacetIndex.tieBreaks) {
        var entries: [Entry] = []
        for case .tieBreak(let t) in facets {
            let pinning = files.first { $0.format == t.format }?.cases.filter { $0.flags.contains("rule:\(t.rule)") } ?? []
            let handler = Reference.handler(for: t.format)
            for m in t.others {
                let killed = handler.map { h in Mutant.$active.withValue(m) { pinning.filter { !MutantMatrix.passes($0, handler: h) }.map(\.id) } } ?? []
                entries.append(Entry(facet: t, mutant: m, witnesses: killed))
            }
        }
        self.entries = entries
    }
}

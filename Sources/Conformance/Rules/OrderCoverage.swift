import Vectors

/// The order axis: every stated order needs, for each adjacent pair of its checks and for the
/// first against the last, a case holding both faults (flags `facet:order:<rule>:<i>-<j>` and
/// `two-faults`), or an entry in `coverage/orders-exempt.tsv`.
public enum OrderCoverage {
    public static func axis(facets: [Facet] = FacetIndex.all, cases: [SuiteCase], exemptions: FacetExemptions,
                            notYetFaceted: [String] = FacetIndex.notYetFaceted) -> FacetAxis {
        let required = facets.compactMap { f -> (format: String, facet: String, keys: [String])? in
            guard case .order(let o) = f else { return nil }
            return (o.format, o.id, o.pairs.map { "\(o.id):\($0.label)" })
        }
        return FacetAxis(name: "orders", prefix: "order", required: required, cases: cases, exemptions: exemptions,
                         notYetFaceted: notYetFaceted, qualifies: { $0.flags.contains("two-faults") })
    }
}

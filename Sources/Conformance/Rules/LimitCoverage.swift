import Vectors

/// The limit axis: every limit facet × {below, at, above} needs a case flagged
/// `facet:limit:<rule>[/<name>]:<edge>` or an entry in `coverage/limits-exempt.tsv`.
public enum LimitCoverage {
    public static func axis(facets: [Facet] = FacetIndex.all, cases: [SuiteCase], exemptions: FacetExemptions,
                            notYetFaceted: [String] = FacetIndex.notYetFaceted) -> FacetAxis {
        let required = facets.compactMap { f -> (format: String, facet: String, keys: [String])? in
            guard case .limit(let l) = f else { return nil }
            return (l.format, l.id, LimitEdge.allCases.map { "\(l.id):\($0.rawValue)" })
        }
        return FacetAxis(name: "limits", prefix: "limit", required: required, cases: cases, exemptions: exemptions,
                         notYetFaceted: notYetFaceted)
    }
}

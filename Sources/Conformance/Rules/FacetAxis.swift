import Vectors

/// One coverage axis derived from facets (issue 23, item 3): every entry it requires (a limit's
/// edge, an order's pair of checks), the cases that carry its flag, and what is wrong. Rules
/// coverage asks "is the rule pinned"; an axis asks "is every edge of it pinned".
public struct FacetAxis: Sendable {
    public struct Entry: Sendable {
        /// `limit:R12.5-2:at`, `order:R12.5-3:1-2`: the case flag without `facet:`.
        public var key: String
        public var format: String
        public var witnesses: [String]
        /// The exemption file's reason, when the entry is exempt.
        public var exemption: String?
        public var isMet: Bool { !witnesses.isEmpty || exemption != nil }
    }

    /// One line of the per-format summary.
    public struct FormatSummary: Sendable, Equatable {
        public var format: String
        public var facets: Int
        public var entries: Int
        public var covered: Int
        public var exempt: Int
        public var isComplete: Bool { covered + exempt == entries }
    }

    public var name: String
    public var entries: [Entry]
    public var problems: [String]
    /// Formats this axis does not measure yet: reported, never counted as met.
    public var notYetFaceted: [String]
    var facetCount: [String: Int]

    public var isClean: Bool { problems.isEmpty }

    public var summaries: [FormatSummary] {
        var order: [String] = []
        for e in entries where !order.contains(e.format) { order.append(e.format) }
        for f in facetCount.keys.sorted() where !order.contains(f) { order.append(f) }
        return order.map { f in
            let mine = entries.filter { $0.format == f }
            return FormatSummary(format: f, facets: facetCount[f] ?? 0, entries: mine.count,
                                 covered: mine.filter { !$0.witnesses.isEmpty }.count,
                                 exempt: mine.filter { $0.witnesses.isEmpty && $0.exemption != nil }.count)
        }
    }

    /// Builds an axis: `required` lists, per facet, the entry keys it needs; a case witnesses an
    /// entry when it carries `facet:<key>` (and, if `qualifies` says so, the rest of what the
    /// axis demands, such as `two-faults`).
    init(name: String, prefix: String, required: [(format: String, facet: String, keys: [String])], cases: [SuiteCase],
         exemptions: FacetExemptions, notYetFaceted: [String], qualifies: (SuiteCase) -> Bool = { _ in true }) {
        var byKey: [String: [String]] = [:]
        var problems = exemptions.problems
        let known = Set(required.flatMap(\.keys))
        let facets = Set(required.map(\.facet))
        for c in cases {
            for flag in c.flags where flag.hasPrefix("facet:\(prefix):") {
                let key = String(flag.dropFirst("facet:".count))
                guard let cut = key.lastIndex(of: ":") else { continue }
                let facet = String(key[..<cut])
                guard facets.contains(facet) else {
                    problems.append("\(c.id): names \(facet), which no format declares")
                    continue
                }
                guard known.contains(key) else { continue }  // an extra edge (zero, max): reported with the case, not required
                guard qualifies(c) else {
                    problems.append("\(c.id): carries \(flag) but not what the \(name) axis requires of it")
                    continue
                }
                byKey[key, default: []].append(c.id)
            }
        }
        var entries: [Entry] = []
        for r in required {
            for key in r.keys {
                let w = byKey[key] ?? []
                let reason = exemptions.reasons[key]
                if !w.isEmpty, reason != nil {
                    problems.append("\(key) is exempt but \(w[0]) covers it: drop the exemption")
                }
                entries.append(Entry(key: key, format: r.format, witnesses: w, exemption: w.isEmpty ? reason : nil))
            }
        }
        for key in exemptions.reasons.keys.sorted() where !known.contains(key) {
            problems.append("the \(name) exemption \(key) names no entry of a declared facet")
        }
        for e in entries where !e.isMet {
            problems.append("\(e.key) (\(e.format)) has no case and no exemption")
        }
        self.name = name
        self.entries = entries
        self.problems = problems
        self.notYetFaceted = notYetFaceted
        self.facetCount = Dictionary(required.map { ($0.format, 1) }, uniquingKeysWith: +)
    }
}

import Vectors

/// Which witnesses pin which rules, and every way the index and the vectors fail to meet
/// (SPEC §2.3): a rule pinned by nothing, an order rule with no two-fault case, a flag naming a
/// rule SPEC.md does not state. `conformance coverage` prints it and exits 1 unless it is clean.
public struct Coverage: Sendable {
    public struct Entry: Sendable {
        public var rule: Rule
        public var witnesses: [String]
        public var twoFaultWitnesses: [String]
        /// An order rule no input can break twice (`FacetIndex.singleFaultOrders`): its cases need
        /// not hold two faults.
        public var singleFault = false
        public var isPinned: Bool { !witnesses.isEmpty && (!rule.isOrder || singleFault || !twoFaultWitnesses.isEmpty) }
    }

    public var entries: [Entry]
    public var problems: [String]

    public var isClean: Bool { problems.isEmpty }
    public var unpinned: [Entry] { entries.filter { !$0.isPinned } }

    public init(index: RuleIndex, witnesses: [RuleWitness], singleFaultOrders: Set<String> = FacetIndex.singleFaultOrders) {
        var byRule: [String: [String]] = [:]
        var twoFaults: [String: [String]] = [:]
        var problems = index.problems
        let known = Set(index.rules.map(\.id))
        let withdrawn = Dictionary(index.withdrawn.map { ($0.id, $0.reason) }, uniquingKeysWith: { a, _ in a })
        for w in witnesses {
            for r in w.rules {
                if known.contains(r) {
                    byRule[r, default: []].append(w.id)
                    if w.twoFaults { twoFaults[r, default: []].append(w.id) }
                } else if let reason = withdrawn[r] {
                    problems.append("\(w.id): names withdrawn rule \(r) (\(reason))")
                } else {
                    problems.append("\(w.id): names rule \(r), which SPEC.md does not state")
                }
            }
        }
        entries = index.rules.map { Entry(rule: $0, witnesses: byRule[$0.id] ?? [], twoFaultWitnesses: twoFaults[$0.id] ?? [],
                                          singleFault: singleFaultOrders.contains($0.id)) }
        for e in entries where !e.isPinned {
            if e.witnesses.isEmpty {
                problems.append("\(e.rule.id) (§\(e.rule.section), SPEC.md:\(e.rule.line)) is pinned by no case")
            } else {
                problems.append("\(e.rule.id) (§\(e.rule.section), SPEC.md:\(e.rule.line)) states an order but no case flagged two-faults pins it")
            }
        }
        self.problems = problems
    }
}

import Conformance
import Foundation
import Vectors

/// The limit and order axes of `conformance coverage` (issue 23, item 3), printed after the rule
/// report: a line per format and axis, every gap, and the formats not faceted yet (said, not
/// counted as met).
enum FacetAxesReport {
    /// Prints the axes; returns false when either has a gap.
    static func run(cases: [SuiteCase], exemptions dir: URL, verbose: Bool) -> Bool {
        let limitsExempt: FacetExemptions, ordersExempt: FacetExemptions
        do {
            limitsExempt = try FacetExemptions.load(dir.appendingPathComponent("limits-exempt.tsv"))
            ordersExempt = try FacetExemptions.load(dir.appendingPathComponent("orders-exempt.tsv"))
        } catch {
            print("GAP cannot read the exemption files in \(dir.path): \(error.localizedDescription)")
            return false
        }
        let axes = [LimitCoverage.axis(cases: cases, exemptions: limitsExempt),
                    OrderCoverage.axis(cases: cases, exemptions: ordersExempt)]
        for axis in axes {
            for s in axis.summaries {
                let unit = axis.name == "limits" ? "edges" : "pairs"
                print("\(s.isComplete ? "met     " : "UNMET   ") \(axis.name) \(s.format): \(s.facets) facets, \(s.covered) of \(s.entries) \(unit) by a case, \(s.exempt) exempt")
            }
            if verbose {
                for e in axis.entries {
                    print("  \(e.key): \(e.witnesses.first ?? (e.exemption.map { "exempt: \($0)" } ?? "no case"))")
                }
            }
            for p in axis.problems { print("GAP \(axis.name): \(p)") }
        }
        for f in FacetIndex.formats where !f.measuredElsewhere.isEmpty {
            let rules = f.measuredElsewhere.sorted { $0.key < $1.key }.map { "\($0.key) (\($0.value.rawValue))" }
            print("inputs axis orders \(f.format): \(rules.joined(separator: ", ")): gated below under inputs")
        }
        for f in FacetIndex.formats where !f.unfacetedOrders.isEmpty {
            print("NOT MEASURED orders \(f.format): \(f.unfacetedOrders.count) order rule(s) with no facet (each with its reason in the format's facets): \(f.unfacetedOrders.keys.sorted().joined(separator: ", "))")
        }
        for f in FacetIndex.formats where !f.singleFaultOrders.isEmpty {
            print("single-fault orders \(f.format): \(f.singleFaultOrders.keys.sorted().joined(separator: ", ")) (no input breaks them twice; each with its reason in the format's facets)")
        }
        print("not yet faceted (limits and orders not measured): \(FacetIndex.notYetFaceted.isEmpty ? "none" : FacetIndex.notYetFaceted.joined(separator: ", "))")
        print("out of the facet axes (HTTP scenarios): \(FacetIndex.outOfScope.joined(separator: ", "))")
        return axes.allSatisfy(\.isClean)
    }
}

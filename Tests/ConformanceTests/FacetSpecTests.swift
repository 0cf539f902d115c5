import Foundation
import Testing
@testable import Conformance
@testable import Vectors

/// The facets (limits and check orders declared next to each format's generator) and SPEC.md
/// agree (issue 23, item 1): every facet names a rule SPEC.md states and quotes its bound from
/// the rule's own sentence, every `[R… order]` rule of a faceted section has an order facet, and
/// every rule of such a section that reads like a bound either declares one or says why not.
@Suite struct FacetSpecTests {
    static let index: RuleIndex = {
        (try? RuleIndex.load(specAt: Fixtures.packageRoot.appendingPathComponent("SPEC.md"))) ?? RuleIndex(rules: [], withdrawn: [], problems: ["unreadable"])
    }()

    static func inSection(_ r: Rule, _ s: String) -> Bool { r.section == s || r.section.hasPrefix(s + ".") }

    static let specLines: [String] = {
        let text = (try? String(contentsOf: Fixtures.packageRoot.appendingPathComponent("SPEC.md"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }()

    /// The rule's sentence and, for a rule that introduces a list (`in this order: [R… order]`
    /// then 1., 2., …), the lines after its tag up to the next tag.
    static func wording(_ r: Rule) -> String {
        let next = index.rules.map(\.line).filter { $0 > r.line }.min() ?? specLines.count + 1
        let after = specLines[min(r.line, specLines.count)..<min(next - 1, specLines.count)]
        return ([r.statement] + after).joined(separator: " ")
    }

    /// Words that state a bound in SPEC.md's prose.
    static let boundWords = ["more than", "at most", "at least", "fewer than", "less than", "earlier than", "later than",
                             "at or before", "at or after", "beyond", "window", "limit", "depth", "maximum",
                             "minimum", "up to", "exceed", "overflow", "2^", "longer than", "shorter than", "<", "≤", "≥"]

    /// A bound word, or a count of bytes (`32 bytes`, `1,139 bytes`; "compared as bytes" is none).
    static func readsLikeABound(_ text: String) -> Bool {
        let lower = text.lowercased()
        if boundWords.contains(where: { lower.contains($0) }) { return true }
        guard let countOfBytes = try? Regex("[0-9][0-9,]* bytes") else { return false }
        return lower.contains(countOfBytes)
    }

    @Test func theIndexAndTheFacetsAreNotEmpty() {
        #expect(Self.index.rules.count > 500)
        #expect(FacetIndex.all.count >= 20)
        #expect(FacetIndex.formats.map(\.format).contains("settle"))
    }

    /// Every facet, the HTTP formats' tie-breaks included.
    static var everyFacet: [Facet] { FacetIndex.all + FacetIndex.tieBreaksOnly.flatMap(\.facets) }

    @Test func facetIDsAreUnique() {
        let ids = Self.everyFacet.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test(arguments: everyFacet.map(\.id))
    func facetNamesARuleAndQuotesItsBound(_ id: String) throws {
        let facet = try #require(Self.everyFacet.first { $0.id == id })
        let rule = try #require(Self.index.rule(facet.rule), "\(id): SPEC.md states no \(facet.rule)")
        let format = try #require((FacetIndex.formats + FacetIndex.tieBreaksOnly).first { $0.format == facet.format })
        // A format's facets are rules of its own section, or of §2, whose conventions (the vector
        // files' JSON rendering, the op-input layer) hold in every format: a format declares such
        // a limit where its ops reach it (sync_offer's R2-3 on a plan's priority).
        #expect(Self.inSection(rule, format.section) || Self.inSection(rule, "2"), "\(id): \(rule.id) is in neither §\(format.section) nor §2")
        switch facet {
        case .limit(let l):
            let words = Self.wording(rule).replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
            #expect(words.contains(l.bound), "\(id): the bound \(l.bound) is not in \(rule.id)'s words: \(words)")
            #expect(l.side != .exact || l.inclusive, "\(id): an exact bound is inclusive")
        case .order(let o):
            #expect(rule.isOrder, "\(id): \(rule.id) is not tagged ` order`")
            #expect(o.checks.count >= 2)
        case .tieBreak(let t):
            let words = Self.wording(rule).replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
            #expect(words.contains(t.tie), "\(id): the tie \(t.tie) is not in \(rule.id)'s words: \(words)")
            #expect(!t.others.isEmpty && t.others.allSatisfy { $0.format == t.format }, "\(id): its other readings are no mutants of \(t.format)")
        }
    }

    @Test(arguments: FacetIndex.formats.map(\.format))
    func everyOrderRuleOfTheSectionHasAnOrderFacet(_ format: String) throws {
        let f = try #require(FacetIndex.formats.first { $0.format == format })
        let ordered = Set(f.facets.compactMap { if case .order(let o) = $0 { o.rule } else { nil } })
        let missing = Self.index.rules.filter { Self.inSection($0, f.section) && $0.isOrder && !ordered.contains($0.id) }.map(\.id)
        let unexplained = missing.filter { f.unfacetedOrders[$0] == nil && f.singleFaultOrders[$0] == nil && f.measuredElsewhere[$0] == nil }
        #expect(unexplained.isEmpty, "order rules of §\(f.section) with no order facet and no reason: \(unexplained)")
        for (id, by) in f.measuredElsewhere {
            #expect(Self.index.rule(id)?.isOrder == true, "\(id) is listed as measured elsewhere but is no order rule")
            #expect(!ordered.contains(id) && f.unfacetedOrders[id] == nil, "\(id) is listed twice")
            if by == .inputBeforeRules {
                #expect(InputBeforeRulesCases.scopes.contains { $0.format == format && $0.rule == id },
                        "\(id) is said to be measured by the input-before-rules cases, which have no scope for it")
            }
        }
        for id in f.unfacetedOrders.keys {
            #expect(Self.index.rule(id)?.isOrder == true, "\(id) is listed as an unfaceted order but is no order rule")
            #expect(!ordered.contains(id), "\(id) is listed as unfaceted but has an order facet")
        }
        for id in f.singleFaultOrders.keys {
            #expect(Self.index.rule(id)?.isOrder == true, "\(id) is listed as a single-fault order but is no order rule")
            #expect(!ordered.contains(id) && f.unfacetedOrders[id] == nil && f.measuredElsewhere[id] == nil, "\(id) is listed twice")
        }
    }

    /// A rule that reads like a bound declares a limit facet or is listed in `boundless` with its
    /// reason; a `boundless` entry that declares a facet after all, or names no such rule, is stale.
    @Test(arguments: FacetIndex.formats.map(\.format))
    func everyRuleThatReadsLikeABoundDeclaresOne(_ format: String) throws {
        let f = try #require(FacetIndex.formats.first { $0.format == format })
        let limited = Set(f.facets.compactMap { if case .limit(let l) = $0 { l.rule } else { nil } })
        let sounding = Self.index.rules.filter { r in
            Self.inSection(r, f.section) && !r.isOrder && Self.readsLikeABound(r.statement)
        }.map(\.id)
        let undeclared = sounding.filter { !limited.contains($0) && f.boundless[$0] == nil }
        #expect(undeclared.isEmpty, "rules of §\(f.section) that read like a bound and declare none: \(undeclared)")
        for (id, reason) in f.boundless {
            #expect(!limited.contains(id), "\(id) is listed as boundless but declares a limit")
            #expect(Self.index.rule(id) != nil, "\(id) is listed as boundless but SPEC.md states no such rule")
            #expect(!reason.isEmpty)
        }
    }

    @Test func limitSidesPutTheRightEdgesInside() {
        let max = LimitFacet(rule: "R1-1", format: "x", quantity: "q", bound: "8", side: .max, inclusive: true, effect: .behaviour("trips"))
        #expect(LimitEdge.allCases.map(max.inside) == [true, true, false])
        var open = max
        open.inclusive = false
        #expect(LimitEdge.allCases.map(open.inside) == [true, false, false])
        let min = LimitFacet(rule: "R1-1", format: "x", quantity: "q", bound: "now", side: .min, inclusive: true, effect: .refuse(.settleClockBackwards))
        #expect(LimitEdge.allCases.map(min.inside) == [false, true, true])
        let exact = LimitFacet(rule: "R1-1", format: "x", quantity: "q", bound: "32", side: .exact, inclusive: true, effect: .refuse(.inputBadLength))
        #expect(LimitEdge.allCases.map(exact.inside) == [false, true, false])
        let order = OrderFacet(rule: "R1-2", format: "x", checks: [.init("a", .inputBadType), .init("b", .inputBadValue), .init("c", .duplicateKey)])
        #expect(order.pairs.map(\.label) == ["1-2", "2-3", "1-3"])
        #expect(order.flag(order.pairs[0]) == "facet:order:R1-2:1-2")
    }

    /// The generator refuses a facet the reference contradicts: R12.5-2 says an event at `now`
    /// is accepted, so a facet claiming the bound is exclusive must stop generation.
    @Test func theBuilderRefusesAFacetTheReferenceContradicts() throws {
        var wrong = SettleFacets.clockBackwards
        wrong.inclusive = false
        var b = SettleFacets.builder()
        #expect(throws: FacetCaseBuilder.Disagreement.self) {
            try b.limit(wrong, op: "step", slug: "x", comment: "x") { d in
                SettleVectors.stepInput(SettleVectors.state(), SettleVectors.tick(d < 0 ? SettleVectors.T - 1 : SettleVectors.T + UInt64(d)))
            }
        }
        // An order whose second "fault" is not one fails the audit.
        var c = SettleFacets.builder()
        #expect(throws: FacetCaseBuilder.Disagreement.self) {
            try c.order(SettleFacets.eventOrder, op: "step", slug: "x", comment: "x",
                        base: SettleVectors.stepInput(SettleVectors.state(), SettleVectors.tick(SettleVectors.T)),
                        faults: [{ SettleVectors.edit($0, [.k("event"), .k("kind")], .text("x")) }, { $0 }, { $0 }])
        }
    }
}

/// The limit and order axes of `conformance coverage` (issue 23, item 3) fail when a case is
/// missing, and only an exemption with a reason stands in for one.
@Suite struct FacetCoverageTests {
    static let settle: [SuiteCase] = (try? Fixtures.suite(["settle"])) ?? []

    /// The committed exemptions of settle's facets (the file holds every format's).
    static func exemptions(_ name: String) throws -> FacetExemptions {
        var all = try FacetExemptions.load(Fixtures.packageRoot.appendingPathComponent("coverage/\(name)"))
        let ids = settleFacets.map(\.id)
        all.reasons = all.reasons.filter { key, _ in ids.contains { key.hasPrefix($0 + ":") } }
        return all
    }

    static var settleFacets: [Facet] { FacetIndex.formats.first { $0.format == "settle" }!.facets }

    @Test func theCommittedSettleCasesMeetBothAxes() throws {
        #expect(!Self.settle.isEmpty)
        let limits = LimitCoverage.axis(facets: Self.settleFacets, cases: Self.settle, exemptions: try Self.exemptions("limits-exempt.tsv"))
        let orders = OrderCoverage.axis(facets: Self.settleFacets, cases: Self.settle, exemptions: try Self.exemptions("orders-exempt.tsv"))
        #expect(limits.problems.isEmpty, "\(limits.problems)")
        #expect(orders.problems.isEmpty, "\(orders.problems)")
        #expect(limits.entries.count == 3 * Self.settleFacets.filter { if case .limit = $0 { true } else { false } }.count)
    }

    @Test func aMissingLimitCaseIsAGap() throws {
        let key = "limit:R12.5-2:at"
        let without = Self.settle.filter { !$0.flags.contains("facet:\(key)") }
        #expect(without.count < Self.settle.count)
        let axis = LimitCoverage.axis(facets: Self.settleFacets, cases: without, exemptions: try Self.exemptions("limits-exempt.tsv"))
        #expect(!axis.isClean)
        #expect(axis.problems.contains { $0.hasPrefix(key) })
        #expect(axis.summaries.first { $0.format == "settle" }?.isComplete == false)
    }

    @Test func anOrderCaseWithoutTwoFaultsDoesNotCount() throws {
        let key = "order:R12.5-3:1-3"
        let stripped = Self.settle.map { c -> SuiteCase in
            var c = c
            if c.flags.contains("facet:\(key)") { c.flags.removeAll { $0 == "two-faults" } }
            return c
        }
        let axis = OrderCoverage.axis(facets: Self.settleFacets, cases: stripped, exemptions: try Self.exemptions("orders-exempt.tsv"))
        #expect(axis.problems.contains { $0.contains(key) && $0.contains("has no case") })
        #expect(axis.problems.contains { $0.contains("not what the orders axis requires") })
    }

    @Test func exemptionsNeedAReasonAndAnEntry() {
        let parsed = FacetExemptions.parse("# comment\nlimit:R12.5-2:below\n\nlimit:R99-1:at\tno such facet\n", file: "t.tsv")
        #expect(parsed.problems == ["t.tsv:2: not `<key><TAB><reason>`"])
        let axis = LimitCoverage.axis(facets: Self.settleFacets, cases: Self.settle, exemptions: parsed)
        #expect(axis.problems.contains { $0.contains("limit:R99-1:at") && $0.contains("names no entry") })
        // An exemption for an edge a case covers is stale.
        let stale = FacetExemptions(reasons: ["limit:R12.5-2:at": "claimed unreachable"])
        let axis2 = LimitCoverage.axis(facets: Self.settleFacets, cases: Self.settle, exemptions: stale)
        #expect(axis2.problems.contains { $0.contains("is exempt but") })
    }
}

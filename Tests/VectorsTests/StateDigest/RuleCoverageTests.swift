import Testing
@testable import Vectors

/// SPEC.md §2.3 for the sections of the state_digest and reconcile formats (§4, §5): every rule
/// id there is unique, pinned by at least one case of those two vector files, and every `order`
/// rule by a case flagged `two-faults`; every case of those files names the rules it pins and
/// names only rules that exist. (`conformance coverage` checks the whole document; this keeps the
/// two formats honest on their own.)
struct RuleCoverageTests {
    struct Rules {
        var ids: [String] = []
        var order: Set<String> = []
    }

    static func rules() throws -> Rules {
        let spec = try Fixtures.repoFile("SPEC.md")
        let start = try #require(spec.range(of: "## 4. StateDigest v6"))
        let end = try #require(spec.range(of: "<!-- SECTION:runner"))
        var out = Rules()
        var rest = spec[start.lowerBound..<end.lowerBound]
        while let open = rest.range(of: "[R") {
            guard let close = rest[open.upperBound...].firstIndex(of: "]") else { break }
            let tag = rest[open.upperBound..<close]  // e.g. "4.3-4 order"
            let parts = tag.split(separator: " ")
            if let first = parts.first, first.first == "4" || first.first == "5" {
                out.ids.append("R" + first)
                if parts.count == 2, parts[1] == "order" { out.order.insert("R" + first) }
            }
            rest = rest[close...]
        }
        return out
    }

    static func cases() throws -> [(id: String, flags: [String])] {
        var out: [(String, [String])] = []
        for format in ["state_digest", "reconcile"] {
            let file = try JSONValue.parse(try Fixtures.repoFile("vectors/\(format).json"))
            for c in file["cases"]?.arrayValue ?? [] {
                out.append((c["id"]?.stringValue ?? "", c["flags"]?.arrayValue?.compactMap(\.stringValue) ?? []))
            }
        }
        return out
    }

    @Test func everyRuleIsPinnedAndEveryOrderRuleByTwoFaults() throws {
        let rules = try Self.rules()
        #expect(rules.ids.count > 60)
        #expect(Set(rules.ids).count == rules.ids.count, "a rule id appears twice in §4/§5")
        let cases = try Self.cases()
        #expect(cases.count > 500)
        var pinned: [String: Int] = [:], pinnedTwice: Set<String> = []
        for c in cases {
            let named = c.flags.filter { $0.hasPrefix("rule:") }.map { String($0.dropFirst(5)) }
            #expect(!named.isEmpty, "\(c.id) names no rule")
            for r in named {
                pinned[r, default: 0] += 1
                if c.flags.contains("two-faults") { pinnedTwice.insert(r) }
                if r.hasPrefix("R4") || r.hasPrefix("R5") { #expect(rules.ids.contains(r), "\(c.id) names \(r), which §4/§5 do not define") }
            }
        }
        for r in rules.ids { #expect(pinned[r] != nil, "\(r) is pinned by no case") }
        for r in rules.order { #expect(pinnedTwice.contains(r), "order rule \(r) has no two-faults case") }
    }
}

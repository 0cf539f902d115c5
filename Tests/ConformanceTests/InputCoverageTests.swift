import Foundation
import Testing
@testable import Conformance
@testable import Vectors

/// The input-members × battery axis (SPEC.md §2.2): the gate measures the committed cases, the
/// facet table agrees with SPEC.md's op tables, and the battery holds §2.2's answers.
@Suite struct InputCoverageTests {
    static func committed(_ format: String) throws -> VectorFile {
        try VectorFile.read(format: format, in: Fixtures.vectors)
    }

    @Test func gateIsCleanOnTheCommittedPairingFile() throws {
        let c = InputCoverage(files: [try Self.committed("pairing")], exempt: [:])
        #expect(c.problems == [])
        #expect(c.lines.first?.members == 3)
        #expect(c.lines.first?.required == 34)
    }

    @Test func gateFailsWhenABatteryCaseIsRemoved() throws {
        var file = try Self.committed("pairing")
        let victim = try #require(file.cases.first { $0.id.contains("/input-battery/") && $0.flags.contains("facet:input:holds_token:number-one") })
        file.cases.removeAll { $0.id == victim.id }
        let c = InputCoverage(files: [file], exempt: [:])
        #expect(c.problems == ["pairing/ensure_paired/holds_token:number-one (bool) has no battery case"])
        // An exemption with its reason closes the gap; an exemption that exempts nothing is a gap.
        #expect(InputCoverage(files: [file], exempt: ["pairing/ensure_paired/holds_token:number-one": "test"]).isClean)
        let stale = InputCoverage(files: [try Self.committed("pairing")], exempt: ["pairing/ensure_paired/holds_token:number-one": "test"])
        #expect(stale.problems == ["inputs-exempt.tsv: pairing/ensure_paired/holds_token:number-one exempts nothing (stale)"])
    }

    /// The members-before-rules pairs (R14.10-1, R7.9-6, R8.9-3) are gated too: the committed
    /// signin file holds one case per (op, rule code), and dropping one is a gap only its
    /// exemption closes.
    @Test func gateFailsWhenAnInputBeforeRulesCaseIsRemoved() throws {
        let full = try Self.committed("signin")
        let clean = InputCoverage(files: [full], exempt: [:])
        #expect(clean.problems == [])
        let line = try #require(clean.lines.first)
        #expect(line.beforeRules > 0 && line.beforeRulesCovered == line.beforeRules)
        var file = full
        let victim = try #require(file.cases.first { $0.id.contains("/input-before-rules/") })
        let flag = try #require(victim.flags.first { $0.hasPrefix("facet:input-before-rules:") })
        file.cases.removeAll { $0.id == victim.id }
        let parts = flag.split(separator: ":")  // facet, input-before-rules, op, code
        #expect(parts.count == 4 && parts[2] == Substring(victim.op))
        let key = "signin/\(victim.op)/input-before-rules:\(parts[3])"
        let c = InputCoverage(files: [file], exempt: [:])
        #expect(c.problems == ["\(key): no case with a member mistyped as well (R8.9-3)"])
        #expect(InputCoverage(files: [file], exempt: [key: "test"]).isClean)
    }

    @Test func exemptionFileNeedsAReason() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("inputs-exempt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent("x.tsv")
        try "# c\n\na/b/c:null\tbecause\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(try InputCoverage.exemptions(at: url) == ["a/b/c:null": "because"])
        try "a/b/c:null\n".write(to: url, atomically: true, encoding: .utf8)
        #expect(throws: WireError.self) { try InputCoverage.exemptions(at: url) }
        #expect(try InputCoverage.exemptions(at: Fixtures.packageRoot.appendingPathComponent("coverage").appendingPathComponent(InputCoverage.exemptionFile)) == [:])
    }

    /// Where the facet table and SPEC.md's op tables still differ, each with the reason it stays.
    static let knownDisagreements: [String: String] = [
        "reconcile/receive_digest/frame: in SPEC's table, read by no committed case":
            "a FRAME is wire data decoded by §5.3's frame rules (frame codes, lowercase hex), not §2.2 (R5.6-1, R2.2-2)",
        "reconcile/respond/request: in SPEC's table, read by no committed case": "as frame: a FRAME (R5.6-1)",
        "device_list/list_sign/devices[]: read by the reference, not in SPEC's table":
            "the table writes `devices` without a type; §10.3 defines it as a list of 32-byte ids",
        "device_list/list_sign/revoked[]: read by the reference, not in SPEC's table": "as devices[]",
        "settle/step/event.at: read by the reference, not in SPEC's table": "§12.3 lists an event's members in prose, not a table",
        "settle/step/event.kind: read by the reference, not in SPEC's table": "§12.3 prose",
        "settle/step/event.digest: read by the reference, not in SPEC's table": "§12.3 prose",
        "settle/step/event.from: read by the reference, not in SPEC's table": "§12.3 prose",
        "settle/step/event.namespace: read by the reference, not in SPEC's table": "§12.3 prose",
        "settle/step/event.applied: read by the reference, not in SPEC's table": "§12.3 prose",
        "settle/step/event.rows: read by the reference, not in SPEC's table": "§12.3 prose",
        "settle/step/event.tombstones: read by the reference, not in SPEC's table": "§12.3 prose",
        "envelope/envelope_open/contacts[].user_id_hash: read by the reference, not in SPEC's table":
            "the table writes `contacts?`; R14.10-2's prose gives the entries `{user_id_hash, channel_key}`",
        "envelope/envelope_open/contacts[].channel_key: read by the reference, not in SPEC's table": "as user_id_hash",
        "envelope/envelope_seal/contacts[].user_id_hash: read by the reference, not in SPEC's table": "as envelope_open",
        "envelope/envelope_seal/contacts[].channel_key: read by the reference, not in SPEC's table": "as envelope_open",
        "envelope/sync_offer_receive/contacts[].user_id_hash: read by the reference, not in SPEC's table": "as envelope_open (RECEIVE)",
        "envelope/sync_offer_receive/contacts[].channel_key: read by the reference, not in SPEC's table": "as envelope_open (RECEIVE)",
    ]

    @Test func facetsAgreeWithSpecOpTables() throws {
        let spec = SpecOpTables(spec: try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("SPEC.md"), encoding: .utf8))
        #expect(spec.ops["signin/cert_verify"]?.first { $0.path == "pinned_key" }?.nullable == true)
        #expect(spec.ops["account_state/open"]?.first { $0.path == "seed_key" }?.nullable == true)
        var found: [String] = []
        var members = 0
        for handler in Reference.handlers {
            let facets = InputFacets.table(handler, cases: try Self.committed(handler.format).cases)
            #expect(!facets.isEmpty, "\(handler.format): no member found")
            members += facets.count
            found += InputFacetAudit.disagreements(facets: facets, spec: spec)
        }
        #expect(members > 1000)
        #expect(Set(found) == Set(Self.knownDisagreements.keys))
    }

    /// R2.2-7: the reference reads every op's required members in its table's order (the order the
    /// input-order cases pin). It did not for signin/cert_verify (pinned_key before cert) until
    /// those cases, run against the Python implementation, showed it.
    @Test func referenceReadsMembersInTableOrder() throws {
        let spec = SpecOpTables(spec: try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("SPEC.md"), encoding: .utf8))
        var found: [String] = []
        for handler in Reference.handlers {
            found += InputFacetAudit.orderDisagreements(handler, cases: try Self.committed(handler.format).cases, spec: spec)
        }
        #expect(found == [])
    }

    @Test func batteryHoldsSection22Answers() {
        let ints = InputBattery.spellings(kind: .uint64, base: .unsigned(7), length: nil, nullable: false)
        func outcome(_ s: [InputBattery.Spelling], _ name: String) -> InputBattery.Outcome? { s.first { $0.name == name }?.outcome }
        #expect(outcome(ints, "string-plus") == .error(.inputBadType))
        #expect(ints.first { $0.name == "string-fullwidth" }?.value == .text("７"))
        #expect(ints.first { $0.name == "string-arabic-indic" }?.value == .text("٧"))
        #expect(outcome(ints, "number-minus-zero") == .sameAs(.unsigned(0)))
        #expect(outcome(ints, "above-max") == .error(.inputBadType))
        #expect(outcome(ints, "max") == .accepted)
        let hex = InputBattery.spellings(kind: .hex, base: .bytes([0xab, 0xcd]), length: 2, nullable: true)
        #expect(outcome(hex, "uppercase") == .sameAs(.text("abcd")))
        #expect(outcome(hex, "odd-length") == .error(.inputBadValue))
        #expect(outcome(hex, "number") == .error(.inputBadType))
        #expect(outcome(hex, "one-byte-long") == .error(.inputBadLength))
        #expect(outcome(hex, "null") == .accepted)
        #expect(InputBattery.names(kind: .bool, fixedLength: false, nullable: false) == ["number-zero", "number-one", "string-true", "null"])
    }
}

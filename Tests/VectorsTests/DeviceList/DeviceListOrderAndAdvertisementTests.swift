import Primitives
import Testing
@testable import Vectors

/// SPEC.md §10.1's signature order (Haven's `HavenId::verify`), §10.5's advertisement, and the
/// rule coverage of the device_list vectors (§2.3): every §10 rule pinned by a case, every order
/// rule by a two-faults case.
struct DeviceListOrderAndAdvertisementTests {
    static let account = try! HavenIdentity(seed: DeviceListVectors.seed(0xA))

    static func code(_ body: () throws(WireError) -> Void) -> ErrorCode? {
        do { try body(); return nil } catch { return error.code }
    }

    // MARK: signatures in Haven's order

    @Test func signatureChecksStopAtTheFirstFailingHalf() {
        let a = Self.account
        let msg = Array("haven order".utf8)
        let sig = a.sign(msg)
        func check(_ s: [UInt8], _ m: [UInt8] = msg) -> ErrorCode? { Self.code { () throws(WireError) in try a.bundle.verify(s, for: m, field: "signature") } }
        #expect(check(sig) == nil)
        // A changed message fails both halves: the Ed25519 half is reported alone.
        #expect(check(sig, msg + [0]) == .deviceListSigEd25519Invalid)
        // Both halves broken by hand: still the Ed25519 half.
        var both = sig; both[3] ^= 1; both[64 + 200] ^= 1
        #expect(check(both) == .deviceListSigEd25519Invalid)
        // Only the ML-DSA-65 half broken.
        var pq = sig; pq[64 + 200] ^= 1
        #expect(check(pq) == .deviceListSigMLDSAInvalid)
        // Lengths: ≤ 64 is wrong before anything; otherwise the Ed25519 half first.
        #expect(check(Array(sig.prefix(64))) == .deviceListSigWrongLength)
        #expect(check([]) == .deviceListSigWrongLength)
        #expect(check(Array(sig.prefix(65))) == .deviceListSigWrongLength)
        #expect(check(Array(sig.dropLast())) == .deviceListSigWrongLength)
        #expect(check(sig + [0]) == .deviceListSigWrongLength)
        var shortBad = Array(sig.dropLast()); shortBad[0] ^= 1
        #expect(check(shortBad) == .deviceListSigEd25519Invalid)
        #expect(check(Array(sig.dropLast()), msg + [1]) == .deviceListSigEd25519Invalid)
    }

    @Test func verifyParsesThePinnedBundleBeforeTheWire() throws {
        let input = CBOR.object([("wire", .bytes([1, 2, 3])), ("pinned", .bytes([UInt8](repeating: 0, count: 10)))]).json
        for op in ["credential_verify", "list_verify"] {
            #expect(Self.code { () throws(WireError) in _ = try DeviceListHandler().run(op: op, input: input) } == .deviceListBadBundle)
        }
    }

    // MARK: the advertisement

    @Test func advertisementRoundTripsAnySet() throws {
        var g = SeededGenerator(seed: 0xAD)
        let universe = (0..<9).map { DeviceListVectors.syntheticID(UInt8(200 + $0)) }
        for _ in 0..<200 {
            let me = universe[Int(g.next() % 9)]
            let siblings = universe.filter { _ in g.next() % 2 == 0 }.shuffled(using: &g) + universe.filter { _ in g.next() % 5 == 0 }
            let (csv, push) = DeviceAdvertisement.advertise(selfDevice: me, siblings: siblings, cached: nil)
            #expect(push)
            let expected = Array(Set(siblings + [me])).sorted()
            #expect(try DeviceAdvertisement.decode(csv) == expected)
            #expect(csv == expected.map(\.hex).joined(separator: ","))
            #expect(!csv.contains(" ") && !csv.hasSuffix(",") && csv == csv.lowercased())
            // The same set in another order is the same CSV: no push.
            let again = DeviceAdvertisement.advertise(selfDevice: me, siblings: siblings.reversed(), cached: csv)
            #expect(again.csv == csv && !again.push)
        }
    }

    @Test func advertisementEntriesAreStrict() {
        let id = DeviceListVectors.syntheticID(1).hex
        let bad = [id + ",", "," + id, id + ",," + id, " " + id, id + " ", id.uppercased(), String(id.dropLast()), id + "0", ",", id + "\n", id + ";" + id]
        for text in bad {
            #expect(Self.code { () throws(WireError) in _ = try DeviceAdvertisement.decode(text) } == .deviceListBadAdvertisement, "\(text.debugDescription)")
        }
        #expect(Self.code { () throws(WireError) in _ = try DeviceAdvertisement.decode("") } == .deviceListEmptyAdvertisement)
    }

    // MARK: rule coverage of the device_list vectors (SPEC.md §2.3)

    @Test func everySection10RuleIsPinnedAndEveryOrderRuleByTwoFaults() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        guard let start = spec.range(of: "<!-- SECTION:device_list"), let end = spec.range(of: "<!-- END:device_list -->") else {
            Issue.record("SPEC.md has no device_list section markers"); return
        }
        let section = spec[start.upperBound..<end.lowerBound]
        var rules: [String: Bool] = [:]  // id → is an order rule
        var rest = Substring(section)
        while let open = rest.range(of: "[R10") {
            guard let close = rest[open.lowerBound...].firstIndex(of: "]") else { break }
            let tag = rest[rest.index(open.lowerBound, offsetBy: 2)..<close]
            let parts = tag.split(separator: " ")
            rules[String(parts[0]), default: false] = rules[String(parts[0]), default: false] || parts.count > 1 && parts[1] == "order"
            rest = rest[close...]
        }
        #expect(rules.count >= 60)
        let file = try Committed.file("device_list")
        var pinned: [String: (any: Bool, twoFaults: Bool)] = [:]
        for c in file.cases {
            let ruleFlags = c.flags.filter { $0.hasPrefix("rule:R") }.map { String($0.dropFirst("rule:R".count)) }
            #expect(!ruleFlags.isEmpty, "\(c.id) pins no rule")
            for r in ruleFlags {
                let old = pinned[r] ?? (false, false)
                pinned[r] = (true, old.twoFaults || c.flags.contains("two-faults"))
            }
        }
        for (rule, isOrder) in rules.sorted(by: { $0.key < $1.key }) {
            #expect(pinned[rule]?.any == true, "R\(rule) is pinned by no device_list case")
            // An order no input breaks twice (R10.5-4) is pinned by single-fault cases (SPEC §2.3).
            if isOrder && !FacetIndex.singleFaultOrders.contains("R\(rule)") {
                #expect(pinned[rule]?.twoFaults == true, "order rule R\(rule) has no two-faults case")
            }
        }
    }
}

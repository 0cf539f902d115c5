import Primitives
import Testing
@testable import Vectors

/// device_list beyond the vectors: encoder round trips, decoders over every truncation and seeded
/// garbage, and the merge properties of SPEC.md §10.4 over seeded random lists. Merges are
/// unsigned here (`DeviceListMerge` is pure), so thousands run without an ML-DSA signature.
struct DeviceListTests {
    static let universe: [DeviceID] = (0..<7).map { DeviceListVectors.syntheticID(UInt8(100 + $0)) }
    static let account = universe[0]

    /// Content-only view of a list: what merge decides.
    struct Membership: Equatable, CustomStringConvertible {
        let devices: Set<DeviceID>, revoked: Set<DeviceID>, retired: Bool
        init(_ l: DeviceList) { devices = Set(l.devices); revoked = Set(l.revoked); retired = l.accountLeafRetired }
        var description: String { "devices \(devices.map(\.hex).sorted()) revoked \(revoked.map(\.hex).sorted()) retired \(retired)" }
    }

    static func randomList(_ g: inout SeededGenerator, version: UInt64? = nil) -> DeviceList {
        DeviceList(accountID: account, version: version ?? g.next() % 6, updatedAt: g.next() % 1000,
                   devices: universe.filter { _ in g.next() % 2 == 0 }.shuffled(using: &g),
                   revoked: universe.filter { _ in g.next() % 4 == 0 }.shuffled(using: &g),
                   accountLeafRetired: g.next() % 5 == 0, signature: [])
    }

    static func merged(_ a: DeviceList, _ b: DeviceList) throws -> DeviceList {
        try DeviceListMerge.merge(local: a, remote: b, updatedAt: 7) ?? a
    }

    // MARK: merge properties

    @Test func mergeMembershipIsCommutative() throws {
        let seed: UInt64 = 0xD1CE_C0AA
        print("mergeMembershipIsCommutative seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<3000 {
            let a = Self.randomList(&g), b = Self.randomList(&g)
            let ab = try Self.merged(a, b), ba = try Self.merged(b, a)
            #expect(Membership(ab) == Membership(ba), "trial \(trial)")
            // A changed result is always sorted, deduplicated and disjoint.
            for m in [ab, ba] where m != a && m != b {
                #expect(m.devices == Array(Set(m.devices)).sorted() && m.revoked == Array(Set(m.revoked)).sorted())
                #expect(Set(m.devices).isDisjoint(with: m.revoked))
                #expect(m.version == max(a.version, b.version) + 1)
            }
        }
    }

    @Test func mergeIsIdempotentAndAbsorbing() throws {
        let seed: UInt64 = 0xD1CE_1DE0
        print("mergeIsIdempotentAndAbsorbing seed \(seed)")
        var g = SeededGenerator(seed: seed)
        var changed = 0
        for trial in 0..<3000 {
            let a = Self.randomList(&g), b = Self.randomList(&g)
            let m = try Self.merged(a, b)
            if m != a { changed += 1 }
            // Merging the result again with either input, or with itself, changes nothing: no
            // re-sign storm once replicas converge.
            #expect(try DeviceListMerge.merge(local: m, remote: m, updatedAt: 9) == nil || m == a, "trial \(trial) self")
            #expect(try DeviceListMerge.merge(local: m, remote: a, updatedAt: 9) == nil || m == a, "trial \(trial) a")
            #expect(try DeviceListMerge.merge(local: m, remote: b, updatedAt: 9) == nil, "trial \(trial) b")
        }
        #expect(changed > 1000, "the random lists must exercise real merges, got \(changed)")
    }

    /// Any strictly older list, whatever it holds, never takes a device away from the newer one
    /// (the account leaf aside, which only a signed retirement removes) and never un-retires.
    @Test func olderListNeverRemovesADeviceOrUnretires() throws {
        let seed: UInt64 = 0xD1CE_01D0
        print("olderListNeverRemovesADeviceOrUnretires seed \(seed)")
        var g = SeededGenerator(seed: seed)
        var reauthorized = 0
        for trial in 0..<3000 {
            let newer = Self.randomList(&g, version: 3 + g.next() % 5)
            let older = Self.randomList(&g, version: g.next() % 3)
            let m = try Self.merged(newer, older)
            for d in Self.universe where d != Self.account && newer.isAuthorized(d) {
                #expect(m.isAuthorized(d), "trial \(trial): \(d.hex) lost")
                if older.revoked.contains(d) { reauthorized += 1 }
            }
            if newer.accountLeafRetired { #expect(m.accountLeafRetired, "trial \(trial): un-retired") }
            var local = newer
            #expect(!local.adoptIfNewer(older) && local == newer, "trial \(trial): adopted an older list")
        }
        #expect(reauthorized > 100, "the re-authorization rule must be exercised, got \(reauthorized)")
    }

    /// A replayed earlier state of the account's own history (self-adds, revocations, retirement,
    /// concurrent replicas merged back in) never removes an authorized device, account leaf included.
    @Test func replayedHistoryNeverRemovesOrUnretires() throws {
        let seed: UInt64 = 0xD1CE_4157
        print("replayedHistoryNeverRemovesOrUnretires seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<200 {
            var history = [DeviceList(accountID: Self.account, version: 1, updatedAt: 0, devices: [Self.account], revoked: [], accountLeafRetired: false)]
            for _ in 0..<12 {
                let cur = history.last!
                let id = Self.universe[Int(g.next() % UInt64(Self.universe.count))]
                var next: DeviceList?
                switch g.next() % 4 {
                case 0: next = try DeviceListMerge.withSelfAdded(cur, id: id, updatedAt: 1)
                case 1 where id != Self.account && !cur.revoked.contains(id):
                    next = DeviceList(accountID: cur.accountID, version: cur.version + 1, updatedAt: 1, devices: cur.devices,
                                      revoked: cur.revoked + [id], accountLeafRetired: cur.accountLeafRetired)
                case 2 where g.next() % 4 == 0: next = try DeviceListMerge.withAccountLeafRetired(cur, updatedAt: 1)
                default:
                    // A sibling replica forked from an earlier state registered itself; merge it back.
                    let fork = history[Int(g.next() % UInt64(history.count))]
                    if let sibling = try DeviceListMerge.withSelfAdded(fork, id: id, updatedAt: 1) {
                        next = try DeviceListMerge.merge(local: cur, remote: sibling, updatedAt: 1)
                    }
                }
                if let next { history.append(next) }
            }
            let latest = history.last!
            for old in history.dropLast() {
                let m = try Self.merged(latest, old)
                #expect(Set(m.authorized) == Set(latest.authorized), "trial \(trial): replay changed the authorized set")
                #expect(m.accountLeafRetired == latest.accountLeafRetired, "trial \(trial)")
            }
        }
    }

    /// The flip-flop the re-authorization rule fixes: with a grow-only revoked set (the old rule)
    /// a stale replica re-revokes a re-added device on every merge.
    @Test func reauthorizationStopsTheFlipFlop() throws {
        let d2 = Self.universe[2]
        let v5 = DeviceList(accountID: Self.account, version: 5, updatedAt: 0, devices: [Self.account, Self.universe[1]], revoked: [d2], accountLeafRetired: false)
        let v6 = try #require(try DeviceListMerge.withSelfAdded(v5, id: d2, updatedAt: 1))
        #expect(v6.isAuthorized(d2))
        let growOnlyRevoked = Set(v6.revoked).union(v5.revoked)
        #expect(growOnlyRevoked.contains(d2), "the old rule re-revokes d2")
        #expect(try DeviceListMerge.merge(local: v6, remote: v5, updatedAt: 2) == nil)
        let v7 = try #require(try DeviceListMerge.merge(local: v5, remote: v6, updatedAt: 2))
        #expect(v7.isAuthorized(d2) && v7.version == 7)
        #expect(try DeviceListMerge.merge(local: v7, remote: v5, updatedAt: 3) == nil)
        #expect(try DeviceListMerge.merge(local: v7, remote: v6, updatedAt: 3) == nil)
    }

    // MARK: contact side

    @Test func contactApplyRules() throws {
        let seed: UInt64 = 0xD1CE_C047
        print("contactApplyRules seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<1000 {
            let primary = Self.universe[Int(g.next() % 3)]
            let known = Self.universe.filter { _ in g.next() % 2 == 0 }.map { ContactDeviceSet.Record(device: $0, revoked: g.next() % 3 == 0) }
            var advertised = Self.universe.filter { _ in g.next() % 2 == 0 }
            if advertised.isEmpty { advertised = [Self.universe[6]] }
            var set = try ContactDeviceSet(primary: primary, records: known)
            try set.apply(advertised: advertised + advertised.prefix(1))
            let byID = Dictionary(uniqueKeysWithValues: set.records.map { ($0.device, $0.revoked) })
            #expect(set.records.map(\.device) == Set(known.map(\.device)).union(advertised).sorted(), "trial \(trial)")
            for d in advertised { #expect(byID[d] == false, "trial \(trial): advertised must be live") }
            for r in known where !advertised.contains(r.device) {
                #expect(byID[r.device] == (r.device == primary ? r.revoked : true), "trial \(trial)")
            }
            let chain: DeviceList? = g.next() % 3 == 0 ? nil : Self.randomList(&g)
            let out = ContactDeviceSet.chainAuthorizedFilter(set.fanout, chain: chain)
            #expect(Set(out).isSubset(of: set.fanout) && out == out.sorted())
            if let chain { #expect(out.allSatisfy(chain.isAuthorized) && out.count == Set(set.fanout).filter(chain.isAuthorized).count) }
            else { #expect(out == set.fanout) }
        }
    }

    // MARK: wire round trips and decoders that never trap

    static let fakeBundle: PublicBundle = {
        // A valid bundle without key generation: the Ed25519 part must be a point; the base point
        // encoding (y = 4/5) is one. The other parts are opaque here.
        var raw = [UInt8](repeating: 0x66, count: 32) + [UInt8](repeating: 0xab, count: 3168)
        raw[0] = 0x58
        return try! PublicBundle(raw)
    }()

    @Test func credentialRoundTrips() throws {
        let seed: UInt64 = 0xD1CE_0C4E
        print("credentialRoundTrips seed \(seed)")
        var g = SeededGenerator(seed: seed)
        let names = ["", "a", "Blaine's iPhone", "Zoe\u{301} \u{1F4F1}", String(repeating: "x", count: 300), "\u{0}nul"]
        for trial in 0..<200 {
            let c = DeviceCredential(accountID: DeviceID(unchecked: g.bytes(32)), createdAt: g.next(), name: names[trial % names.count],
                                     device: Self.fakeBundle, signature: g.bytes(1 + Int(g.next() % 4000)))
            let back = try DeviceCredential.decode(c.wire)
            #expect(back == c && back.wire == c.wire, "trial \(trial)")
            #expect(c.signingBytes.starts(with: DeviceCredential.domain + c.accountID.bytes))
        }
    }

    @Test func listRoundTrips() throws {
        let seed: UInt64 = 0xD1CE_715E
        print("listRoundTrips seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<300 {
            var l = Self.randomList(&g, version: g.next())
            l.updatedAt = g.next()
            l.signature = g.bytes(1 + Int(g.next() % 4000))
            if !l.accountLeafRetired && Array(l.signature.suffix(8)) == DeviceList.retiredWireSuffix { continue }
            let back = try DeviceList.decode(l.wire)
            #expect(back == l && back.wire == l.wire, "trial \(trial)")
            #expect(l.signingBytes.count == 20 + 32 + 24 + 8 + 32 * (l.devices.count + l.revoked.count) + (l.accountLeafRetired ? 38 : 0))
        }
    }

    static let decoderCodes: Set<ErrorCode> = [.deviceListTruncated, .deviceListMissingSignature, .deviceListBadName, .deviceListBadBundle]

    func sampleWires() -> (credential: [UInt8], list: [UInt8], retired: [UInt8]) {
        var g = SeededGenerator(seed: 0xD1CE_5A3E)
        let c = DeviceCredential(accountID: Self.account, createdAt: 5, name: "phone", device: Self.fakeBundle, signature: g.bytes(3373))
        var l = DeviceList(accountID: Self.account, version: 3, updatedAt: 4, devices: Array(Self.universe.prefix(4)), revoked: [Self.universe[5]],
                           accountLeafRetired: false, signature: g.bytes(3373))
        let plain = l.wire
        l.accountLeafRetired = true
        return (c.wire, plain, l.wire)
    }

    @Test func decodersNeverTrapOnTruncation() {
        let (c, l, r) = sampleWires()
        for n in 0..<c.count {
            do { _ = try DeviceCredential.decode(Array(c.prefix(n))); #expect(n > c.count - 3373, "prefix \(n) decoded") }
            catch { #expect(Self.decoderCodes.contains(error.code), "prefix \(n): \(error)") }
        }
        for w in [l, r] {
            for n in 0..<w.count {
                do { _ = try DeviceList.decode(Array(w.prefix(n))) }
                catch { #expect(Self.decoderCodes.contains(error.code), "prefix \(n): \(error)") }
            }
        }
        // Cut exactly after the bundle / the revoked ids: the signature is missing.
        #expect(throws: WireError(.deviceListMissingSignature, "")) { try DeviceCredential.decode(Array(c.prefix(c.count - 3373))) }
        #expect(throws: WireError(.deviceListMissingSignature, "")) { try DeviceList.decode(Array(l.prefix(l.count - 3373))) }
    }

    @Test func decodersNeverTrapOnGarbage() {
        let seed: UInt64 = 0xD1CE_6A2B
        print("decodersNeverTrapOnGarbage seed \(seed)")
        var g = SeededGenerator(seed: seed)
        let (c, l, _) = sampleWires()
        var rejected = 0
        for trial in 0..<4000 {
            var input: [UInt8]
            switch trial % 3 {
            case 0: input = g.bytes(Int(g.next() % 400))
            case 1:
                input = c
                for _ in 0..<(1 + g.next() % 4) { input[Int(g.next() % UInt64(input.count))] = UInt8(truncatingIfNeeded: g.next()) }
                // Hit the length fields often: name_len, bundle_len.
                if g.next() % 2 == 0 { input.replaceSubrange(40..<44, with: g.bytes(4)) }
            default:
                input = l
                for _ in 0..<(1 + g.next() % 4) { input[Int(g.next() % UInt64(input.count))] = UInt8(truncatingIfNeeded: g.next()) }
                if g.next() % 2 == 0 { input.replaceSubrange(48..<52, with: g.bytes(4)) }
            }
            // Two explicit blocks: an array of typed-throws closures crashes the 6.3.1 frontend.
            do { _ = try DeviceCredential.decode(input) } catch {
                rejected += 1
                #expect(Self.decoderCodes.contains(error.code), "trial \(trial): \(error)")
            }
            do { _ = try DeviceList.decode(input) } catch {
                rejected += 1
                #expect(Self.decoderCodes.contains(error.code), "trial \(trial): \(error)")
            }
        }
        #expect(rejected > 4000)
    }

    /// A huge count is refused by arithmetic, before any allocation: this would abort the process
    /// (a 128 GiB reservation) if the bound came after `reserveCapacity`.
    @Test func maximalCountsAreTruncatedNotAllocated() {
        let (c, l, _) = sampleWires()
        var huge = l
        huge.replaceSubrange(48..<52, with: [0xff, 0xff, 0xff, 0xff])
        #expect(throws: WireError(.deviceListTruncated, "")) { try DeviceList.decode(huge) }
        var hugeName = c
        hugeName.replaceSubrange(40..<44, with: [0xff, 0xff, 0xff, 0xff])
        #expect(throws: WireError(.deviceListTruncated, "")) { try DeviceCredential.decode(hugeName) }
    }

    // MARK: signatures and the HVNLEAF1 tail

    /// SPEC.md §10.3: an ML-DSA-65 signature ends in its hint encoding, whose last k = 6 bytes are
    /// cumulative counts ≤ ω = 55 (FIPS 204, Algorithm 21), so a well-formed hybrid signature can
    /// never end in HVNLEAF1 ("NLEAF1" = 4e 4c 45 41 46 31 > 0x37). Checked on every signature in
    /// the vectors, and a signature forced to end that way fails the ML-DSA half.
    @Test func validSignaturesNeverEndInTheRetiredSuffix() throws {
        let json = try JSONValue.parse(try Fixtures.repoFile("vectors/device_list.json"))
        var signatures: [[UInt8]] = []
        func walk(_ v: JSONValue) {
            switch v {
            case .object(let o):
                for (k, x) in o {
                    if k == "signature", let s = x.stringValue, s.count == 2 * HybridSignature.byteCount, let b = Hex.decode(s) { signatures.append(b) }
                    walk(x)
                }
            case .array(let a): a.forEach(walk)
            default: break
            }
        }
        walk(json)
        #expect(signatures.count >= 20)
        for s in signatures {
            let tail = Array(s.suffix(6))
            #expect(tail.allSatisfy { $0 <= 55 } && tail == tail.sorted())
            #expect(Array(s.suffix(8)) != DeviceList.retiredWireSuffix)
        }
        let account = try HavenIdentity(seed: DeviceListVectors.seed(0xA))
        let list = DeviceList(accountID: account.nodeID, version: 1, updatedAt: 2, devices: [account.nodeID], revoked: [], accountLeafRetired: false)
            .signed(by: account)
        try list.verify(pinned: account.bundle)
        var forced = list.signature
        forced.replaceSubrange(forced.count - 8..<forced.count, with: DeviceList.retiredWireSuffix)
        #expect(throws: HybridSignature.Failure.mldsaInvalid) { try account.bundle.verificationKey.verify(forced, for: list.signingBytes) }
    }

    @Test func bundleParsing() {
        #expect(throws: WireError(.deviceListBadBundle, "")) { try PublicBundle([UInt8](repeating: 0, count: 3201)) }
        // SPEC §9.1 rule R9.1-3: y = 2 is not on the curve; y = 2^255 − 1 ≥ p is an alias (of y = 18) and parses.
        var notPoint = Self.fakeBundle.bytes
        notPoint.replaceSubrange(0..<32, with: [2] + [UInt8](repeating: 0, count: 31))
        #expect(throws: WireError(.deviceListBadBundle, "")) { try PublicBundle(notPoint) }
        var alias = Self.fakeBundle.bytes
        for i in 0..<31 { alias[i] = 0xff }
        alias[31] = 0x7f
        #expect((try? PublicBundle(alias))?.nodeID.bytes == Array(alias.prefix(32)))
        #expect(Self.fakeBundle.nodeID.bytes == Array(Self.fakeBundle.bytes.prefix(32)))
    }
}

import Primitives
import Testing
@testable import Vectors

/// account_state beyond the vectors (SPEC.md §11): encoder and seal round trips, the merge
/// properties over thousands of seeded random states, and decoders and `open` over every
/// truncation, every single-bit flip and seeded garbage, where the only acceptable failure is a
/// typed `WireError`.
struct AccountStateTests {
    static let devices: [[UInt8]] = [0x01, 0x02, 0x80, 0xff].map { [UInt8](repeating: $0, count: 32) }
    /// Keys that stress the byte order and identity: NFC/NFD, a prefix pair, U+FF61 / U+1F600, the empty key.
    static let keys = ["profile", "circle", "circle:", "setting:caf\u{00E9}", "setting:cafe\u{0301}", "circle:\u{FF61}", "circle:\u{1F600}", ""]

    /// A random state built only through the ops (set, remove, bump_cursor), with small ts ranges
    /// so that equal stamps with different contents are common.
    static func randomState(_ g: inout SeededGenerator) -> AccountState {
        var s = AccountState()
        for _ in 0..<Int(g.next() % 10) {
            let key = StateKey(keys[Int(g.next() % UInt64(keys.count))])
            let stamp = Stamp(ts: g.next() % 4, device: devices[Int(g.next() % UInt64(devices.count))])
            if g.next() % 4 == 0 {
                s.remove(key, stamp: stamp)
            } else {
                s.set(key, g.bytes(Int(g.next() % 3)), stamp: stamp)
            }
        }
        for _ in 0..<Int(g.next() % 4) {
            s.bumpCursor(StateKey(keys[Int(g.next() % UInt64(keys.count))]), to: g.next() % 5)
        }
        return s
    }

    /// Two states that hold one key under the same stamp with different contents.
    static func hasContentTie(_ a: AccountState, _ b: AccountState) -> Bool {
        a.records.contains { r in b.register(r.key).map { $0.stamp == r.register.stamp && $0.value != r.register.value } ?? false }
    }

    // MARK: merge properties (§11.4, R11.4-4)

    @Test func mergeIsCommutativeAssociativeIdempotent() {
        let seed: UInt64 = 0xACC0_5EED_0001
        print("mergeIsCommutativeAssociativeIdempotent seed \(seed)")
        var g = SeededGenerator(seed: seed)
        var ties = 0
        for trial in 0..<4000 {
            let a = Self.randomState(&g), b = Self.randomState(&g), c = Self.randomState(&g)
            if Self.hasContentTie(a, b) { ties += 1 }
            #expect(a.merged(b) == b.merged(a), "trial \(trial): commutative")
            #expect(a.merged(b).merged(c) == a.merged(b.merged(c)), "trial \(trial): associative")
            #expect(a.merged(a) == a, "trial \(trial): idempotent")
            // Absorbing: the result already contains each input.
            let m = a.merged(b)
            #expect(m.merged(a) == m && m.merged(b) == m, "trial \(trial): absorbing")
            // Byte-level convergence: the two orders encode identically.
            #expect(a.merged(b).encoded == b.merged(a).encoded, "trial \(trial): encoding")
        }
        #expect(ties > 150, "the random states must exercise exact stamp ties, got \(ties)")
    }

    /// Haven's tie rule (keep local on an equal stamp) is order-dependent on exactly these inputs:
    /// the mutant fails commutativity where the reference holds it.
    @Test func havenTieRuleIsNotCommutative() {
        let seed: UInt64 = 0xACC0_5EED_0002
        print("havenTieRuleIsNotCommutative seed \(seed)")
        var g = SeededGenerator(seed: seed)
        var broken = 0
        for _ in 0..<2000 {
            let a = Self.randomState(&g), b = Self.randomState(&g)
            let differ = Mutant.$active.withValue(.accountMergeTieKeepsLocal) { a.merged(b) != b.merged(a) }
            if differ { broken += 1; #expect(Self.hasContentTie(a, b)) }
        }
        #expect(broken > 100, "got \(broken)")
    }

    /// A merged register never loses to either input's register under the merge order, and cursors
    /// never go down.
    @Test func mergeNeverGoesBack() {
        let seed: UInt64 = 0xACC0_5EED_0003
        print("mergeNeverGoesBack seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<3000 {
            let a = Self.randomState(&g), b = Self.randomState(&g)
            let m = a.merged(b)
            for side in [a, b] {
                for r in side.records {
                    let got = m.register(r.key)
                    #expect(got == r.register || (got.map { $0.beats(r.register) } ?? false), "trial \(trial) \(r.key)")
                }
                for c in side.cursors { #expect(m.cursor(c.name) >= c.ts, "trial \(trial) \(c.name)") }
            }
        }
    }

    // MARK: local writes (§11.3)

    @Test func setAppliesExactlyWhenTheStampIsAfter() {
        let seed: UInt64 = 0xACC0_5EED_0004
        print("setAppliesExactlyWhenTheStampIsAfter seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<3000 {
            var s = Self.randomState(&g)
            let key = StateKey(Self.keys[Int(g.next() % UInt64(Self.keys.count))])
            let stamp = Stamp(ts: g.next() % 4, device: Self.devices[Int(g.next() % 4)])
            let before = s.register(key)
            let value = g.bytes(2)
            let applied = s.set(key, value, stamp: stamp)
            #expect(applied == (before.map { stamp.isAfter($0.stamp) } ?? true), "trial \(trial)")
            #expect(s.register(key) == (applied ? Register(stamp: stamp, value: value) : before), "trial \(trial)")
        }
    }

    @Test func stampOrderIsTotal() {
        let stamps = (0..<3).flatMap { ts in Self.devices.map { Stamp(ts: UInt64(ts), device: $0) } }
        for s in stamps {
            #expect(!s.isAfter(s))
            for t in stamps where s != t { #expect(s.isAfter(t) != t.isAfter(s), "\(s) \(t)") }
        }
    }

    // MARK: round trips

    @Test func encodingRoundTrips() throws {
        let seed: UInt64 = 0xACC0_5EED_0005
        print("encodingRoundTrips seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<2000 {
            let s = Self.randomState(&g)
            let back = try AccountState.decode(s.encoded)
            #expect(back == s, "trial \(trial)")
            #expect(back.encoded == s.encoded, "trial \(trial)")
        }
        #expect(AccountState().encoded == [UInt8](repeating: 0, count: 8))
    }

    @Test func sealOpenRoundTrips() throws {
        let seed: UInt64 = 0xACC0_5EED_0006
        print("sealOpenRoundTrips seed \(seed)")
        var g = SeededGenerator(seed: seed)
        let seedKey = SelfSyncBlob.selfSyncKey(seed: g.bytes(32))
        for trial in 0..<200 {
            let s = Self.randomState(&g)
            let key = g.bytes(32), epoch = g.next()
            let v0 = try SelfSyncBlob.seal(s, key: seedKey, salt: g.bytes(16), nonce: g.bytes(12), epoch: nil)
            let v1 = try SelfSyncBlob.seal(s, key: key, salt: g.bytes(16), nonce: g.bytes(12), epoch: epoch)
            #expect(v0.count == 44 + s.encoded.count && v1.count == 56 + s.encoded.count)
            #expect(SelfSyncBlob.peekEpoch(v1) == epoch)
            let o0 = try SelfSyncBlob.open(v0, seedKey: seedKey, accepted: [(epoch, key)])
            let o1 = try SelfSyncBlob.open(v1, seedKey: seedKey, accepted: [(epoch, key)])
            #expect(o0 == .init(version: 0, epoch: nil, state: s), "trial \(trial)")
            #expect(o1 == .init(version: 1, epoch: epoch, state: s), "trial \(trial)")
        }
    }

    // MARK: decoders never trap (§11.2, §11.5)

    /// Every strict prefix of an encoding is truncated; every single-bit flip either decodes or
    /// fails with an account_state code.
    @Test func decoderOverTruncationsAndBitFlips() throws {
        let seed: UInt64 = 0xACC0_5EED_0007
        print("decoderOverTruncationsAndBitFlips seed \(seed)")
        var g = SeededGenerator(seed: seed)
        var decodedFlips = 0, failedFlips = 0
        for _ in 0..<40 {
            let plain = Self.randomState(&g).encoded
            for n in 0..<plain.count {
                #expect(throws: WireError(.accountStateTruncated, "")) { try AccountState.decode(Array(plain.prefix(n))) }
            }
            for i in 0..<plain.count {
                for bit in 0..<8 {
                    var b = plain
                    b[i] ^= 1 << bit
                    do {
                        let s = try AccountState.decode(b)
                        #expect(s.encoded == b, "a flip that decodes is itself canonical")
                        decodedFlips += 1
                    } catch {
                        #expect(error.code.rawValue.hasPrefix("account_state_"), "\(error)")
                        failedFlips += 1
                    }
                }
            }
        }
        #expect(decodedFlips > 0 && failedFlips > 0)
    }

    @Test func decoderOverGarbage() {
        let seed: UInt64 = 0xACC0_5EED_0008
        print("decoderOverGarbage seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for _ in 0..<20_000 {
            var b = g.bytes(Int(g.next() % 64))
            // Small counts and lengths now and then, so the reader gets past the first field.
            if b.count >= 8, g.next() % 2 == 0 { b[0] = UInt8(g.next() % 3); b[1] = 0; b[2] = 0; b[3] = 0; b[4] = UInt8(g.next() % 6); b[5] = 0; b[6] = 0; b[7] = 0 }
            do {
                let s = try AccountState.decode(b)
                #expect(s.encoded == b)
            } catch {
                #expect(error.code.rawValue.hasPrefix("account_state_"), "\(error)")
            }
        }
    }

    /// No truncation and no single-bit flip of a sealed blob opens; each fails with a typed code.
    @Test func openOverTruncationsAndBitFlips() throws {
        let seed: UInt64 = 0xACC0_5EED_0009
        print("openOverTruncationsAndBitFlips seed \(seed)")
        var g = SeededGenerator(seed: seed)
        let seedKey = g.bytes(32), key = g.bytes(32)
        let s = Self.randomState(&g)
        for epoch in [nil, 3] as [UInt64?] {
            let blob = try SelfSyncBlob.seal(s, key: epoch == nil ? seedKey : key, salt: g.bytes(16), nonce: g.bytes(12), epoch: epoch)
            let accepted: [(epoch: UInt64, key: [UInt8])] = [(3, key)]
            for n in 0..<blob.count {
                #expect(throws: WireError.self) { try SelfSyncBlob.open(Array(blob.prefix(n)), seedKey: seedKey, accepted: accepted) }
            }
            for i in 0..<blob.count {
                for bit in 0..<8 {
                    var b = blob
                    b[i] ^= 1 << bit
                    do {
                        _ = try SelfSyncBlob.open(b, seedKey: seedKey, accepted: accepted)
                        Issue.record("a flip of byte \(i) bit \(bit) opened (epoch \(String(describing: epoch)))")
                    } catch {
                        #expect([.accountStateAuthFailed, .accountStateStaleEpoch, .accountStateBlobTruncated].contains(error.code), "\(error)")
                    }
                }
            }
        }
    }

    // MARK: slot keys and epoch keys (§11.6, §11.7)

    @Test func slotKeysAreLowercaseAndNested() throws {
        var g = SeededGenerator(seed: 0xACC0_5EED_000A)
        print("slotKeysAreLowercaseAndNested seed 0xACC05EED000A")
        for _ in 0..<200 {
            let a = try #require(DeviceID(g.bytes(32))), d = try #require(DeviceID(g.bytes(32)))
            let k = SlotKeys(accountID: a, deviceID: d)
            #expect(k.slot == k.prefix + d.hex && k.grantSlot == k.grantPrefix + d.hex)
            #expect(k.prefix == "self/\(a.hex)/state/" && k.grantPrefix == "self/\(a.hex)/keygrant/")
            #expect(k.slot.utf8.allSatisfy { !(0x41...0x5a).contains($0) })
        }
    }

    /// Own-device convergence picks the same primary whatever order the commits arrive in, and
    /// never keeps more than 4 epochs or 4 alternates.
    @Test func epochKeyConvergenceIsOrderIndependent() throws {
        let seed: UInt64 = 0xACC0_5EED_000B
        print("epochKeyConvergenceIsOrderIndependent seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<500 {
            let commits = (0..<Int(1 + g.next() % 6)).map { _ in
                EpochKeyRing.Commit(epoch: g.next() % 6, epochKey: g.bytes(32), circleSecret: g.next() % 3 == 0 ? [UInt8](repeating: 0, count: 32) : g.bytes(32))
            }
            func apply(_ cs: [EpochKeyRing.Commit]) throws -> EpochKeyRing {
                var r = try EpochKeyRing(slots: [], circleSecret: [UInt8](repeating: 0, count: 32), myEpoch: 0)
                for c in cs { r.receiveOwnCommit(c) }
                return r
            }
            let forward = try apply(commits), backward = try apply(commits.reversed())
            // The kept epochs are the 4 highest ever seen; such an epoch was never pruned on the
            // way, so its primary is the largest key offered for it, in either order.
            let kept = Array(Set(commits.map(\.epoch)).sorted().suffix(4))
            #expect(forward.slots.map(\.epoch) == kept && backward.slots.map(\.epoch) == kept, "trial \(trial): epochs")
            for (f, b) in zip(forward.slots, backward.slots) {
                let largest = commits.filter { $0.epoch == f.epoch }.map(\.epochKey).max { $0.lexicographicallyPrecedes($1) }
                #expect(f.primary == largest && b.primary == largest, "trial \(trial): epoch \(f.epoch)")
                // Every other key offered is kept as an alternate while there are at most 4.
                let losers = Set(commits.filter { $0.epoch == f.epoch && $0.epochKey != largest }.map(\.epochKey))
                #expect(f.alts.count <= 4 && b.alts.count <= 4, "trial \(trial): at most 4 alternates")
                if losers.count <= 4 { #expect(Set(f.alts) == losers && Set(b.alts) == losers, "trial \(trial): alternates") }
            }
            #expect(forward.circleSecret == backward.circleSecret && forward.myEpoch == backward.myEpoch, "trial \(trial)")
            #expect(forward.myEpoch == commits.map(\.epoch).max())
        }
    }

    // MARK: the vectors

    @Test func vectorFileIsNotEmptyAndCoversEveryOp() throws {
        let vf = try Committed.file("account_state")
        #expect(vf.cases.count > 200)
        #expect(Set(vf.cases.map(\.op)) == Set(AccountStateHandler().ops))
        #expect(vf.cases.allSatisfy { c in c.flags.contains { $0.hasPrefix("rule:R") } }, "every case names the rules it pins")
    }
}

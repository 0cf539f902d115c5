import Testing
@testable import Vectors

/// Properties of the settle loop (SPEC.md §12) over seeded random episodes, beyond the golden
/// cases: the storm guard's bound, late ticks changing nothing, and state round trips.
@Suite struct SettleTests {
    static let ipad = SiblingID([UInt8](repeating: 0x1a, count: 32))
    static let mac = SiblingID([UInt8](repeating: 0x2b, count: 32))
    static let digests = (0..<4).map { SettleVectors.dg([.messages: UInt8($0)]) }

    /// A random episode of non-tick events, at increasing times, from two siblings.
    static func randomEvents(seed: UInt64, count: Int) -> [SettleEvent] {
        var g = SeededGenerator(seed: seed)
        var t: UInt64 = 1_000_000
        var out: [SettleEvent] = []
        for _ in 0..<count {
            t += g.next() % 700
            let sib = g.next() % 2 == 0 ? ipad : mac
            let d = digests[Int(g.next() % 4)]
            switch g.next() % 5 {
            case 0: out.append(SettleEvent(at: t, .localWrite(digest: d)))
            case 1, 2: out.append(SettleEvent(at: t, .digestReceived(from: sib, digest: d.encoded())))
            case 3: out.append(SettleEvent(at: t, .responseApplied(from: sib, namespace: .messages, applied: g.next() % 3, digest: d)))
            default: out.append(SettleEvent(at: t, .requestReceived(from: sib, namespace: .messages, rows: g.next() % 2, tombstones: 0)))
            }
        }
        return out
    }

    static func start() -> SettleState {
        SettleState(now: 0, digest: digests[0], overlay: true, siblings: [SiblingState(id: ipad), SiblingState(id: mac)])
    }

    /// Runs events, delivering a tick at every armed time that falls before the next event.
    static func runWithTimelyTicks(_ events: [SettleEvent]) throws -> [SettleAction] {
        var s = start()
        var pending: [UInt64] = []
        var all: [SettleAction] = []
        func absorb(_ a: [SettleAction]) {
            for x in a { if case .armTimer(_, let at) = x { pending.append(at) } }
            all += a
        }
        for e in events {
            pending.sort()
            while let first = pending.first, first <= e.at {
                pending.removeFirst()
                absorb(try SettleScheduler.step(&s, SettleEvent(at: first, .tick), rules: .reference))
                pending.sort()
            }
            absorb(try SettleScheduler.step(&s, e, rules: .reference))
        }
        return all
    }

    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
    func lateTicksChangeNothing(seed: UInt64) throws {
        let events = Self.randomEvents(seed: seed, count: 300)
        var late = Self.start()
        var lateActions: [SettleAction] = []
        for e in events { lateActions += try SettleScheduler.step(&late, e, rules: .reference) }
        let timely = try Self.runWithTimelyTicks(events)
        // The same actions in the same order, whether ticks came on time or never (SPEC §12.5 step 5).
        #expect(timely == lateActions, "seed \(seed)")
        #expect(!timely.isEmpty)
    }

    @Test(arguments: [UInt64(11), 12, 13, 14])
    func theGuardBoundsRoundsPerSibling(seed: UInt64) throws {
        // A storm-prone mix: mostly diverging digests arriving fast.
        var g = SeededGenerator(seed: seed)
        var s = Self.start()
        var t: UInt64 = 0
        var pulls: [(SiblingID, UInt64)] = []
        var trips = 0
        for _ in 0..<2000 {
            t += g.next() % 200
            let sib = g.next() % 2 == 0 ? Self.ipad : Self.mac
            let e = g.next() % 4 == 0 ? SettleEvent(at: t, .tick) : SettleEvent(at: t, .digestReceived(from: sib, digest: Self.digests[1 + Int(g.next() % 3)].encoded()))
            for a in try SettleScheduler.step(&s, e, rules: .reference) {
                if case .sendRequest(let to, _) = a { pulls.append((to, t)) }
                if case .backOff = a { trips += 1 }
            }
        }
        #expect(trips > 0, "seed \(seed): the mix should trip the guard")
        // Never more than eight rounds with one sibling inside any ten-second window.
        for sib in [Self.ipad, Self.mac] {
            let times = pulls.filter { $0.0 == sib }.map(\.1)
            for (i, t0) in times.enumerated() {
                let inside = times[i...].prefix { $0 - t0 < 10_000 }.count
                #expect(inside <= 8, "seed \(seed): \(inside) rounds within 10 s from \(t0)")
            }
        }
    }

    @Test func statesRoundTripThroughTheirJSON() throws {
        var s = Self.start()
        for e in Self.randomEvents(seed: 99, count: 200) {
            _ = try SettleScheduler.step(&s, e, rules: .reference)
            let json = CBOR.object([("s", SettleOutput.state(s))]).json
            let back = try SettleInput.state(json, "s", .reference)
            #expect(back == s)
        }
    }

    @Test func aFailedStepLeavesTheStateAlone() throws {
        var s = SettleState(now: UInt64.max - 100, digest: Self.digests[0], overlay: false, debounceAt: UInt64.max - 50,
                            siblings: [SiblingState(id: Self.ipad)])
        let before = s
        #expect(throws: WireError.self) { try SettleScheduler.step(&s, SettleEvent(at: UInt64.max - 10, .localWrite(digest: Self.digests[1])), rules: .reference) }
        #expect(s == before)
        #expect(throws: WireError.self) { try SettleScheduler.step(&s, SettleEvent(at: 5, .tick), rules: .reference) }
        #expect(s == before)
    }

    @Test func legacyRulesStallTheOneWayHolder() throws {
        // The holder of a one-way difference, after a no-op round: the reference re-advertises,
        // the legacy loop (gated on applied > 0, 3 s debounce) sends nothing at all.
        let d = Self.digests
        for (rules, expected) in [(SettleRules.reference, [SettleAction.emitDigest(to: [Self.ipad], reason: .applied)]), (SettleRules.legacy, [])] {
            var s = SettleState(now: 0, digest: d[2], overlay: false, siblings: [SiblingState(id: Self.ipad)])
            _ = try SettleScheduler.step(&s, SettleEvent(at: 0, .digestReceived(from: Self.ipad, digest: d[1].encoded())), rules: rules)
            let after = try SettleScheduler.step(&s, SettleEvent(at: 60, .responseApplied(from: Self.ipad, namespace: .messages, applied: 0, digest: d[2])), rules: rules)
            #expect(after == expected)
        }
    }
}

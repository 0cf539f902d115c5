import Primitives
import Vectors

/// `settle` (SPEC §12): episodes of the scheduler. A state with zero to three siblings (some
/// reconciling, backed off or with rounds in the storm window) and a run of events whose times
/// cluster around the constants that matter: bursts inside the 400 ms debounce, ticks a
/// millisecond either side of a deadline, rounds packed into the ten-second storm window, the
/// 30-second back-off, and clocks near 2^53, 2^63 and 2^64 − 1 where a double-based or signed
/// reader goes wrong. Digests come from a small pool so emits repeat (the skip rule) and
/// advertisements sometimes match; a received digest is sometimes not a digest at all.
///
/// `step`'s state is the state the reference reaches after a random prefix episode, so it is one
/// a real device can be in; `episode` starts from a drawn state.
struct SettleFuzzGenerator: FuzzGenerator {
    var format: String { "settle" }
    var ops: [String] { ["step", "episode"] }

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        let pool = Self.digestPool(&rng)
        let siblings = (0..<rng.int(0...3)).map { _ in SiblingID(rng.bytes(SiblingID.byteCount)) }
        let start = Self.startTime(&rng)
        var state = Self.state(start, pool, siblings, &rng)
        var events = Self.events(count: rng.int(1...24), after: state.now, pool, siblings, &rng)
        if op == "episode" {
            return CBOR.object([("state", SettleOutput.state(state)), ("events", .array(events.map(\.tree)))]).json
        }
        // step: run a prefix through the reference and step from where it ends.
        let last = events.removeLast()
        if !events.isEmpty {
            let prefix = CBOR.object([("state", SettleOutput.state(state)), ("events", .array(events.map(\.tree)))]).json
            if let out = FuzzReference.output(format, "episode", prefix), let reached = try? SettleCodec.readStepOutput(.object([("actions", .array([])), ("state", out["state"] ?? .null)])) {
                state = reached.state
            }
        }
        let event = last.at < state.now ? SettleEvent(at: state.now + UInt64(rng.below(500)), last.kind) : last
        return SettleCodec.stepInput(state, event)
    }

    // MARK: - Drawing

    static let edges: [UInt64] = [0, 1 << 53, (1 << 53) + 1, 1 << 63, UInt64.max - 40_000, UInt64.max - 400, UInt64.max - 1]

    static func startTime(_ rng: inout FuzzRNG) -> UInt64 {
        rng.percent(80) ? 1_767_225_600_000 + UInt64(rng.below(1_000_000)) : rng.pick(edges)
    }

    /// Four digests: the empty store and three that differ from it in one or two namespaces.
    static func digestPool(_ rng: inout FuzzRNG) -> [StateDigest] {
        (0..<4).map { k in
            let changed: Set<Int> = k == 0 ? [] : Set((0..<rng.int(1...2)).map { _ in rng.below(Namespace.allCases.count) })
            return StateDigest(roots: Namespace.allCases.enumerated().map { i, ns in
                changed.contains(i) ? SHA256.hash(rng.bytes(32)) : MerkleTree.emptyRoot(ns)
            })
        }
    }

    static func state(_ now: UInt64, _ pool: [StateDigest], _ ids: [SiblingID], _ rng: inout FuzzRNG) -> SettleState {
        let storm = rng.oneIn(5)
        let sibs = ids.map { id -> SiblingState in
            var rounds = rng.percent(70) ? [] : (0..<rng.int(1...9)).map { _ in now &- UInt64(rng.below(10_001)) }.filter { $0 <= now }.sorted()
            if storm && rng.bool() { rounds = stormRounds(now, &rng) }
            let until: UInt64? = rng.percent(80) ? nil : now.addingReportingOverflow(UInt64(rng.int(0...30_000))).partialValue
            return SiblingState(id: id, reconciling: rng.percent(30), backoffUntil: until, rounds: rounds)
        }
        let debounce: UInt64? = rng.percent(70) ? nil : now.addingReportingOverflow(UInt64(rng.int(0...400))).partialValue
        return SettleState(now: now, digest: rng.pick(pool), overlay: storm ? rng.percent(80) : rng.percent(40), debounceAt: debounce,
                           lastBroadcast: rng.percent(50) ? nil : rng.pick(pool), siblings: sibs)
    }

    /// Seven or eight rounds packed into the last few seconds, so the next divergent digest from
    /// the sibling trips (or just does not trip) the storm guard while the "Syncing…" overlay may be
    /// up. Targets guards that also dismiss the overlay or miscount the window (SPEC §12: the guard
    /// backs off and logs; the overlay stays until a digest matches).
    static func stormRounds(_ now: UInt64, _ rng: inout FuzzRNG) -> [UInt64] {
        (0..<rng.pick([7, 8, 8])).map { _ in now &- UInt64(rng.below(3_000)) }.filter { $0 <= now }.sorted()
    }

    static func events(count: Int, after start: UInt64, _ pool: [StateDigest], _ ids: [SiblingID], _ rng: inout FuzzRNG) -> [SettleEvent] {
        var t = start
        var out: [SettleEvent] = []
        for _ in 0..<count {
            // Gaps around the constants: inside a burst, at a deadline ±1, across the window.
            let gap: UInt64 = rng.pick([0, 1, UInt64(rng.below(50)), 399, 400, 401, UInt64(rng.below(1_200)), 9_999, 10_000, 10_001, 29_999, 30_000, 30_001])
            let (next, overflow) = t.addingReportingOverflow(gap)
            if !overflow { t = next }
            let from = ids.isEmpty || rng.oneIn(20) ? SiblingID(rng.bytes(SiblingID.byteCount)) : rng.pick(ids)
            let ns = rng.pick(Namespace.allCases)
            let kind: SettleEvent.Kind
            switch rng.below(10) {
            case 0, 1: kind = .localWrite(digest: rng.pick(pool))
            case 2: kind = .connected
            case 3, 4: kind = .digestReceived(from: from, digest: rng.oneIn(8) ? rng.bytes(rng.pick([0, 416, 418, 32])) : rng.pick(pool).encoded())
            case 5: kind = .requestReceived(from: from, namespace: ns, rows: rng.pick([0, 0, 1, UInt64(rng.below(5_000)), UInt64.max]),
                                            tombstones: rng.pick([0, 0, 1, UInt64.max]))
            case 6: kind = .responseApplied(from: from, namespace: ns, applied: rng.pick([0, 0, 1, UInt64(rng.below(100)), UInt64.max]), digest: rng.pick(pool))
            default: kind = .tick
            }
            out.append(SettleEvent(at: t, kind))
        }
        return out
    }
}

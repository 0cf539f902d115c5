/// The behaviour cases of `settle` (SPEC.md §12.6): each an episode from seed 002 §8–§9, with the
/// actions it must produce step by step.
extension SettleVectors {
    static let T = base

    // MARK: debounce (R12.6-1 … R12.6-6)

    static func debounceCases(_ b: inout Builder) throws {
        try b.episode("debounce/one-write-one-emit", "a write is advertised 400 ms later to every sibling (catches a 3 s debounce or an immediate emit)",
                      rules: ["12.6-1", "12.6-2", "12.6-5", "12.6-6", "12.1-1", "12.4-1"], state: state(digest: d0, [sib(ipad), sib(mac)]),
                      [write(T, d1), tick(T + 400)], expect: [[arm(T + 400)], [emit([ipad, mac], .debounce)]]) { _, s in
            s.lastBroadcast == d1 && s.debounceAt == nil && s.digest == d1
        }
        try b.episode("debounce/tick-one-ms-early", "a tick 1 ms before the deadline emits nothing; the one at 400 ms does",
                      rules: ["12.6-2", "12.5-5"], state: state(digest: d0), [write(T, d1), tick(T + 399), tick(T + 400)],
                      expect: [[arm(T + 400)], [], [emit([ipad], .debounce)]])
        try b.episode("debounce/late-tick", "a tick 1 ms after the deadline still emits (a late timer is not lost)",
                      rules: ["12.6-2", "12.5-5"], state: state(digest: d0), [write(T, d1), tick(T + 401)],
                      expect: [[arm(T + 400)], [emit([ipad], .debounce)]])
        // Forty notebook rows committed by an agent 10 ms apart: one advertisement (seed 002 §8).
        var burst: [SettleEvent] = []
        var expect: [[SettleAction]] = []
        for i in 0..<40 {
            burst.append(write(T + 10 * UInt64(i), dg([.notebook: UInt8(i + 1)])))
            expect.append([arm(T + 10 * UInt64(i) + 400)])
        }
        burst.append(tick(T + 400)); expect.append([])
        burst.append(tick(T + 790)); expect.append([emit([ipad, mac], .debounce)])
        try b.episode("debounce/burst-of-40-writes", "an agent committing forty notebook rows produces one advertisement, not forty (seed 002 §8)",
                      rules: ["12.6-2", "12.6-5"], flags: ["long"], state: state(digest: d0, [sib(ipad), sib(mac)]), burst, expect: expect) { steps, s in
            steps.joined().filter { $0.name == "emit_digest" }.count == 1 && s.lastBroadcast == dg([.notebook: 40])
        }
        try b.episode("debounce/writes-300-ms-apart", "each write moves the emit to 400 ms after it (catches a fixed window that fires 400 ms after the first write)",
                      rules: ["12.6-2"], state: state(digest: d0),
                      [write(T, d1), write(T + 300, d2), tick(T + 400), write(T + 600, d3), tick(T + 700), tick(T + 1000)],
                      expect: [[arm(T + 400)], [arm(T + 700)], [], [arm(T + 1000)], [], [emit([ipad], .debounce)]]) { _, s in s.lastBroadcast == d3 }
        try b.episode("debounce/due-deadline-fires-before-the-event", "a write arriving after an unticked deadline first emits the old digest, then re-arms",
                      rules: ["12.5-5", "12.5-7", "12.6-1"], state: state(digest: d0), [write(T, d1), write(T + 500, d2), tick(T + 900)],
                      expect: [[arm(T + 400)], [emit([ipad], .debounce), arm(T + 900)], [emit([ipad], .debounce)]]) { _, s in s.lastBroadcast == d2 }
        try b.episode("debounce/no-siblings", "a device with no sibling sends nothing and records no broadcast",
                      rules: ["12.6-3"], state: state(digest: d0, []), [write(T, d1), tick(T + 400)],
                      expect: [[arm(T + 400)], []]) { _, s in s.lastBroadcast == nil && s.debounceAt == nil }
        try b.episode("debounce/only-sibling-backed-off", "a debounced emit with every sibling backed off sends nothing",
                      rules: ["12.6-3", "12.6-17"], state: state(digest: d0, [sib(ipad, until: T + 20_000)]), [write(T, d1), tick(T + 400)],
                      expect: [[arm(T + 400)], []]) { _, s in s.lastBroadcast == nil }
        try b.episode("debounce/backed-off-sibling-left-out", "a backed-off sibling is left out, so the emit did not reach every sibling and the same digest is sent again later",
                      rules: ["12.6-6", "12.6-17", "12.6-18", "12.6-4"], state: state(digest: d0, [sib(ipad, until: T + 20_000), sib(mac)]),
                      [write(T, d2), tick(T + 400), tick(T + 20_000), write(T + 20_100, d2), tick(T + 20_500)],
                      expect: [[arm(T + 400)], [emit([mac], .debounce)], [emit([ipad], .backoffEnd)], [arm(T + 20_500)], [emit([ipad, mac], .debounce)]]) { _, s in
            s.lastBroadcast == d2
        }
        try b.episode("debounce/at-time-zero", "times start at 0: a write at 0 emits at 400",
                      rules: ["12.1-1", "12.6-2"], flags: ["edge"], state: state(now: 0, digest: d0), [write(0, d1), tick(400)],
                      expect: [[arm(400)], [emit([ipad], .debounce)]])
        try b.episode("debounce/deadline-due-in-the-input-state", "a debounce already due in the input state fires at the next event",
                      rules: ["12.2-6", "12.5-5"], state: state(digest: d1, debounceAt: T - 5), [tick(T)], expect: [[emit([ipad], .debounce)]])
    }

    // MARK: the identical-emit skip (R12.6-4, R12.6-6, R12.6-7, R12.6-8)

    static func skipCases(_ b: inout Builder) throws {
        try b.episode("skip/identical-digest-skipped", "a debounced emit equal to the last one that reached every sibling is skipped (seed 002 §8)",
                      rules: ["12.6-4", "12.6-6"], state: state(digest: d0, [sib(ipad), sib(mac)]),
                      [write(T, d1), tick(T + 400), write(T + 1000, d1), tick(T + 1400)],
                      expect: [[arm(T + 400)], [emit([ipad, mac], .debounce)], [arm(T + 1400)], []])
        try b.episode("skip/changed-back-is-sent", "a digest that returns to an older value differs from the last broadcast and is sent",
                      rules: ["12.6-4"], state: state(digest: d0, [sib(ipad), sib(mac)]),
                      [write(T, d1), tick(T + 400), write(T + 1000, d2), tick(T + 1400), write(T + 2000, d1), tick(T + 2400)],
                      expect: [[arm(T + 400)], [emit([ipad, mac], .debounce)], [arm(T + 1400)], [emit([ipad, mac], .debounce)],
                               [arm(T + 2400)], [emit([ipad, mac], .debounce)]])
        try b.episode("skip/last-broadcast-from-the-input", "the skip compares with the input state's last_broadcast",
                      rules: ["12.6-4"], state: state(digest: d1, last: d1), [write(T, d1), tick(T + 400)], expect: [[arm(T + 400)], []])
        try b.episode("skip/targeted-emit-never-skipped", "the re-advertisement after a no-op round goes out even when it equals the last broadcast",
                      rules: ["12.6-7", "12.6-20"], state: state(digest: d1, last: d1, [sib(ipad, reconciling: true, rounds: [T])]),
                      [applied(T + 60, ipad, 0, d1)], expect: [[emit([ipad], .applied)]])
        try b.episode("skip/targeted-emit-to-the-only-sibling-counts", "in a two-device account the targeted emit reached every sibling, so the next identical debounced emit is skipped",
                      rules: ["12.6-6", "12.6-4"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: [T])]),
                      [applied(T + 60, ipad, 0, d1), write(T + 100, d1), tick(T + 500)],
                      expect: [[emit([ipad], .applied)], [arm(T + 500)], []]) { _, s in s.lastBroadcast == d1 }
        try b.episode("skip/targeted-emit-among-three-does-not-count", "with two siblings a targeted emit reached only one, so the debounced emit still goes to both",
                      rules: ["12.6-6"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: [T]), sib(mac)]),
                      [applied(T + 60, ipad, 0, d1), write(T + 100, d1), tick(T + 500)],
                      expect: [[emit([ipad], .applied)], [arm(T + 500)], [emit([ipad, mac], .debounce)]])
        try b.episode("skip/connected-forgets-the-last-broadcast", "after reconnecting the same digest is advertised again: nobody heard it while offline",
                      rules: ["12.6-8"], state: state(digest: d1, last: d1), [connected(T), tick(T + 400)],
                      expect: [[arm(T + 400)], [emit([ipad], .debounce)]]) { _, s in s.lastBroadcast == d1 }
    }

    // MARK: after applying a response (R12.6-20, R12.6-21)

    static func applyCases(_ b: inout Builder) throws {
        try b.episode("apply/immediate-targeted-emit", "a response applied is re-advertised to that sibling at once, not after the debounce (seed 002 §8: 16,291 ms against 316 ms)",
                      rules: ["12.6-20", "12.6-21", "12.4-1"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: [T]), sib(mac)]),
                      [applied(T + 60, ipad, 3, d2), tick(T + 460)],
                      expect: [[emit([ipad], .applied), arm(T + 460)], [emit([ipad, mac], .debounce)]]) { _, s in s.digest == d2 }
        try b.episode("apply/no-op-round-re-advertises", "a round that applied nothing is still re-advertised, or the holder of a one-way difference no-op-pulls forever",
                      rules: ["12.6-20", "12.6-21"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: [T])]),
                      [applied(T + 60, ipad, 0, d1)], expect: [[emit([ipad], .applied)]]) { _, s in s.debounceAt == nil }
        try b.episode("apply/from-a-backed-off-sibling", "a late response from a backed-off sibling is applied but not re-advertised to it; the change still reaches the others",
                      rules: ["12.6-17", "12.6-20", "12.6-21"], state: state(digest: d1, [sib(ipad, until: T + 30_000), sib(mac)]),
                      [applied(T, ipad, 2, d2), tick(T + 400)], expect: [[arm(T + 400)], [emit([mac], .debounce)]])
        try b.episode("apply/no-op-from-a-backed-off-sibling", "a no-op response from a backed-off sibling does nothing",
                      rules: ["12.6-17", "12.6-20"], state: state(digest: d1, [sib(ipad, until: T + 30_000)]),
                      [applied(T, ipad, 0, d1)], expect: [[]])
        try b.episode("apply/applied-at-the-largest-count", "applied = 2^64 − 1 is a change like any other",
                      rules: ["12.6-21", "2.2-3"], flags: ["edge"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: [T])]),
                      [applied(T + 60, ipad, UInt64.max, d2)], expect: [[emit([ipad], .applied), arm(T + 460)]])
    }

    // MARK: matching digests (R12.6-12, R12.6-13)

    static func matchCases(_ b: inout Builder) throws {
        try b.episode("match/returned-exactly-once", "a device that was reconciling returns its now-matching digest once, and only once (seed 002 §8)",
                      rules: ["12.6-12"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: [T])]),
                      [got(T + 100, ipad, d1), got(T + 200, ipad, d1)], expect: [[emit([ipad], .matched)], []]) { _, s in !s.siblings[0].reconciling }
        try b.episode("match/not-reconciling-stays-silent", "a settled device does not answer a matching digest, so settled devices never ping-pong",
                      rules: ["12.6-12"], state: state(digest: d1, [sib(ipad)]),
                      [got(T, ipad, d1), got(T + 400, ipad, d1), got(T + 800, ipad, d1)], expect: [[], [], []])
        try b.episode("match/overlay-dismissed", "the first matching digest takes the Syncing overlay down",
                      rules: ["12.6-13"], state: state(digest: d1, overlay: true), [got(T, ipad, d1), got(T + 100, ipad, d1)],
                      expect: [[.dismissOverlay], []]) { _, s in !s.overlay }
        try b.episode("match/return-then-dismiss", "returning the digest comes before dismissing the overlay",
                      rules: ["12.6-12", "12.6-13", "12.4-1"], state: state(digest: d1, overlay: true, [sib(ipad, reconciling: true, rounds: [T])]),
                      [got(T + 100, ipad, d1)], expect: [[emit([ipad], .matched), .dismissOverlay]])
        try b.episode("match/one-sibling-of-two", "returning once is per sibling: the other sibling is not sent anything",
                      rules: ["12.6-12"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: [T]), sib(mac, reconciling: true, rounds: [T])]),
                      [got(T + 100, mac, d1), got(T + 150, ipad, d1)], expect: [[emit([mac], .matched)], [emit([ipad], .matched)]])
    }

    // MARK: pulls (R12.6-14, R12.6-15)

    static func pullCases(_ b: inout Builder) throws {
        try b.episode("pull/one-namespace", "a diverging digest starts a round: one request per divergent namespace, reconciling, the round recorded",
                      rules: ["12.6-14", "12.6-15"], state: state(digest: d1), [got(T + 10, ipad, d2)], expect: [[pull(ipad)]]) { _, s in
            s.siblings[0].reconciling && s.siblings[0].rounds == [T + 10]
        }
        let theirs = dg([.settings: 4, .messages: 1, .notebook: 5, .agentConversations: 1])
        try b.episode("pull/namespaces-in-digest-order", "requests go out in digest order (settings, notebook, agentConversations), not in any other",
                      rules: ["12.6-15"], state: state(digest: d1), [got(T, ipad, theirs)],
                      expect: [[pull(ipad, .settings), pull(ipad, .notebook), pull(ipad, .agentConversations)]])
        var all: [Namespace: UInt8] = [:]
        for ns in Namespace.allCases { all[ns] = 9 }
        try b.episode("pull/every-namespace", "all thirteen namespaces diverge: thirteen requests in digest order",
                      rules: ["12.6-15"], state: state(digest: d0), [got(T, ipad, dg(all))], expect: [Namespace.allCases.map { pull(ipad, $0) }])
        try b.episode("pull/each-diverging-digest-is-a-round", "two diverging digests are two rounds",
                      rules: ["12.6-14"], state: state(digest: d1), [got(T, ipad, d2), got(T + 100, ipad, d3)], expect: [[pull(ipad)], [pull(ipad)]]) { _, s in
            s.siblings[0].rounds == [T, T + 100]
        }
    }

    // MARK: the storm guard (R12.6-14, R12.6-16 … R12.6-18, R12.5-4)

    static func guardCases(_ b: inout Builder) throws {
        func rounds(_ n: Int, every ms: UInt64) -> [SettleEvent] { (0..<n).map { got(T + ms * UInt64($0), ipad, d2) } }
        try b.episode("guard/eight-rounds-no-trip", "eight rounds inside ten seconds are allowed: the guard trips at more than eight",
                      rules: ["12.6-14"], state: state(digest: d1), rounds(8, every: 1000), expect: Array(repeating: [pull(ipad)], count: 8)) { _, s in
            s.siblings[0].rounds.count == 8 && s.siblings[0].backoffUntil == nil
        }
        let trip: [SettleAction] = [.backOff(sibling: ipad, until: T + 39_999), .logDivergent(sibling: ipad, namespaces: [.messages]),
                                    armBackoff(ipad, T + 39_999)]
        try b.episode("guard/ninth-round-trips", "the ninth round 9,999 ms after the first backs the pair off for thirty seconds from it, logging the namespace, sending no request (seed 002 §9)",
                      rules: ["12.6-14", "12.6-16", "12.5-4"], state: state(digest: d1), rounds(8, every: 1000) + [got(T + 9_999, ipad, d2)],
                      expect: Array(repeating: [pull(ipad)], count: 8) + [trip]) { _, s in
            s.siblings[0].backoffUntil == T + 39_999 && s.siblings[0].rounds.isEmpty && !s.siblings[0].reconciling
        }
        try b.episode("guard/ninth-round-at-exactly-ten-seconds", "a round exactly ten seconds old has left the window: the ninth round at 10,000 ms is sent",
                      rules: ["12.5-4", "12.6-14"], flags: ["edge"], state: state(digest: d1), rounds(8, every: 1000) + [got(T + 10_000, ipad, d2)],
                      expect: Array(repeating: [pull(ipad)], count: 9)) { _, s in s.siblings[0].rounds.first == T + 1000 && s.siblings[0].rounds.count == 8 }
        try b.episode("guard/ninth-round-at-ten-seconds-plus-one", "one millisecond later the oldest round is out as well",
                      rules: ["12.5-4", "12.6-14"], flags: ["edge"], state: state(digest: d1), rounds(8, every: 1000) + [got(T + 10_001, ipad, d2)],
                      expect: Array(repeating: [pull(ipad)], count: 9))
        try b.episode("guard/rounds-pruned-at-every-event", "the state keeps only rounds inside the window ending at the event",
                      rules: ["12.5-4"], state: state(digest: d1, [sib(ipad, rounds: [T - 10_000, T - 9_999, T - 1])]), [tick(T)],
                      expect: [[]]) { _, s in s.siblings[0].rounds == [T - 9_999, T - 1] }
        var alternating: [SettleEvent] = []
        for i in 0..<10 { alternating.append(got(T + 500 * UInt64(i), i % 2 == 0 ? ipad : mac, d2)) }
        try b.episode("guard/rounds-counted-per-sibling", "five rounds with each of two siblings inside ten seconds trip nothing: the guard counts per sibling",
                      rules: ["12.6-14"], state: state(digest: d1, [sib(ipad), sib(mac)]), alternating,
                      expect: (0..<10).map { [pull($0 % 2 == 0 ? ipad : mac)] })
        try b.episode("guard/backoff-ends-at-thirty-seconds", "a backed-off sibling is ignored until exactly 30,000 ms after the trip, then re-advertised to and pulled from again",
                      rules: ["12.6-10", "12.6-18", "12.5-5"], state: state(digest: d1, [sib(ipad, until: T + 30_000)]),
                      [got(T + 29_999, ipad, d2), tick(T + 29_999), tick(T + 30_000), got(T + 30_000, ipad, d2)],
                      expect: [[], [], [emit([ipad], .backoffEnd)], [pull(ipad)]]) { _, s in
            s.siblings[0].backoffUntil == nil && s.siblings[0].rounds == [T + 30_000]
        }
        try b.episode("guard/debounce-and-backoff-end-in-one-millisecond", "at one time the debounce fires before the back-off ends, so the sibling gets one targeted emit, not two",
                      rules: ["12.5-5", "12.5-6", "12.6-18"], state: state(digest: d1, [sib(ipad, until: T + 1000), sib(mac)]),
                      [write(T + 600, d2), tick(T + 1000)], expect: [[arm(T + 1000)], [emit([mac], .debounce), emit([ipad], .backoffEnd)]])
        try b.episode("guard/late-tick-backoff-first", "one late tick: the back-off that ended first is handled first, so the later debounce reaches both",
                      rules: ["12.5-5", "12.5-6"], state: state(digest: d1, [sib(ipad, until: T + 1000), sib(mac)]),
                      [write(T + 700, d2), tick(T + 5000)], expect: [[arm(T + 1100)], [emit([ipad], .backoffEnd), emit([ipad, mac], .debounce)]]) { _, s in
            s.lastBroadcast == d2
        }
        try b.episode("guard/late-tick-debounce-first", "one late tick: the debounce that came due while the sibling was still backed off leaves it out",
                      rules: ["12.5-5", "12.5-6"], state: state(digest: d1, [sib(ipad, until: T + 1200), sib(mac)]),
                      [write(T + 700, d2), tick(T + 5000)], expect: [[arm(T + 1100)], [emit([mac], .debounce), emit([ipad], .backoffEnd)]]) { _, s in
            s.lastBroadcast == nil
        }
        try b.episode("guard/backed-off-digests-ignored", "while backed off, diverging and matching digests from that sibling are ignored (no round, no overlay change)",
                      rules: ["12.6-10", "12.6-17"], state: state(digest: d1, overlay: true, [sib(ipad, until: T + 30_000)]),
                      [got(T + 10, ipad, d2), got(T + 20, ipad, d1)], expect: [[], []]) { _, s in s.overlay && s.siblings[0].rounds.isEmpty }
        try b.episode("guard/backed-off-requests-answered", "a backed-off sibling's request is still answered",
                      rules: ["12.6-17", "12.6-19"], state: state(digest: d1, [sib(ipad, until: T + 30_000)]), [req(T, ipad, rows: 2)],
                      expect: [[answer(ipad)]])
        let many = dg([.messages: 2, .notebook: 1, .posts: 7])
        try b.episode("guard/log-lists-the-divergent-namespaces", "the guard logs every namespace the tripping digest diverges in, in digest order",
                      rules: ["12.6-16"], state: state(digest: d1, [sib(ipad, reconciling: true, rounds: (0..<8).map { T - 7000 + 1000 * UInt64($0) })]),
                      [got(T + 500, ipad, many)],
                      expect: [[.backOff(sibling: ipad, until: T + 30_500), .logDivergent(sibling: ipad, namespaces: [.messages, .notebook, .posts]),
                                armBackoff(ipad, T + 30_500)]])
        try b.episode("guard/undecodable-digest-is-no-round", "a dropped digest is not a round: eight rounds and a bad digest do not trip the guard",
                      rules: ["12.6-9", "12.6-14"], state: state(digest: d1, [sib(ipad, rounds: (0..<8).map { T - 7000 + 1000 * UInt64($0) })]),
                      [gotBytes(T + 500, ipad, [5] + Array(d2.encoded().dropFirst()))],
                      expect: [[.dropDigest(from: ipad, error: .digestUnsupportedVersion)]]) { _, s in s.siblings[0].rounds.count == 8 }
    }

    // MARK: answering requests (R12.6-19)

    static func respondCases(_ b: inout Builder) throws {
        try b.episode("respond/rows-to-give", "a request the responder has rows for is answered",
                      rules: ["12.6-19"], state: state(), [req(T, ipad, rows: 3)], expect: [[answer(ipad)]])
        try b.episode("respond/only-tombstones", "tombstones alone are something to give (catches a responder that counts rows only)",
                      rules: ["12.6-19"], state: state(), [req(T, ipad, rows: 0, tombs: 2)], expect: [[answer(ipad)]])
        try b.episode("respond/nothing-to-give-is-silent", "a responder with nothing to give sends no frame at all, not an empty one (seed 002 §9)",
                      rules: ["12.6-19"], state: state(), [req(T, ipad, rows: 0, tombs: 0)], expect: [[]])
        try b.episode("respond/counts-at-the-largest-value", "2^64 − 1 rows and 2^64 − 1 tombstones: answered (a sum of the two overflows)",
                      rules: ["12.6-19", "2.2-3"], flags: ["edge"], state: state(), [req(T, ipad, rows: UInt64.max, tombs: UInt64.max)], expect: [[answer(ipad)]])
        try b.episode("respond/settings", "the settings namespace is answered like any other",
                      rules: ["12.6-19"], state: state(), [req(T, ipad, .settings, rows: 1)], expect: [[answer(ipad, .settings)]])
    }

    // MARK: whole stories from seed 002 (several rules each)

    static func storyCases(_ b: inout Builder) throws {
        // The phone holds a reaction the iPad lacks; its own advertisement was lost. It is the one
        // that receives the iPad's digest (seed 002 §8).
        try b.episode("story/reaction-one-way-holder", "the holder of a one-way difference pulls, applies nothing, re-advertises anyway, answers the pull, and returns the matching digest once",
                      rules: ["12.6-15", "12.6-20", "12.6-19", "12.6-12"], state: state(digest: d2, last: d2),
                      [got(T, ipad, d1), applied(T + 60, ipad, 0, d2), req(T + 90, ipad, rows: 1), got(T + 150, ipad, d2), got(T + 210, ipad, d2),
                       got(T + 550, ipad, d2)],
                      expect: [[pull(ipad)], [emit([ipad], .applied)], [answer(ipad)], [emit([ipad], .matched)], [], []])
        // The same story from the iPad, which reconnects at launch with the overlay up.
        try b.episode("story/reaction-one-way-lacker", "the device lacking the reaction advertises on connect, answers, pulls after the holder's no-op re-advertisement, and converges",
                      rules: ["12.6-8", "12.6-19", "12.6-15", "12.6-20", "12.6-21", "12.6-12", "12.6-13", "12.6-4", "12.6-6"],
                      state: state(digest: d1, overlay: true, [sib(mac)]),
                      [connected(T), tick(T + 400), req(T + 430, mac, rows: 1), got(T + 520, mac, d2),
                       applied(T + 580, mac, 1, d2), got(T + 640, mac, d2), tick(T + 980)],
                      expect: [[arm(T + 400)], [emit([mac], .debounce)], [answer(mac)], [pull(mac)],
                               [emit([mac], .applied), arm(T + 980)], [emit([mac], .matched), .dismissOverlay], []]) { _, s in !s.overlay && s.lastBroadcast == d2 }
        // A field hashed but not mergeable: every round applies nothing and the roots never meet.
        var events: [SettleEvent] = []
        var expect: [[SettleAction]] = []
        for k in 0..<8 {
            let t = T + 150 * UInt64(k)
            events += [got(t, ipad, d2), applied(t + 60, ipad, 0, d1), req(t + 90, ipad, rows: 1)]
            expect += [[pull(ipad)], [emit([ipad], .applied)], [answer(ipad)]]
        }
        let tripAt = T + 1200
        events += [got(tripAt, ipad, d2), req(tripAt + 90, ipad, rows: 1), got(tripAt + 150, ipad, d2), tick(tripAt + 30_000), got(tripAt + 30_150, ipad, d2)]
        expect += [[.backOff(sibling: ipad, until: tripAt + 30_000), .logDivergent(sibling: ipad, namespaces: [.messages]), armBackoff(ipad, tripAt + 30_000)],
                   [answer(ipad)], [], [emit([ipad], .backoffEnd)], [pull(ipad)]]
        try b.episode("story/storm-field-hashed-not-mergeable", "eight relay-fast no-op rounds, the ninth backs off for 30 s and logs messages, the overlay stays up, then the pair resumes",
                      rules: ["12.6-14", "12.6-16", "12.6-17", "12.6-18", "12.6-20", "12.6-10"], flags: ["long"],
                      state: state(digest: d1, overlay: true), events, expect: expect) { _, s in s.overlay }
        // A device back from offline writes: its emit then was lost; it advertises on reconnect.
        try b.episode("story/reconnect-after-offline-writes", "writes while offline, reconnect, answer the sibling's pull, pull its union, re-advertise, return once, skip the now identical debounce",
                      rules: ["12.6-8", "12.6-19", "12.6-15", "12.6-20", "12.6-21", "12.6-12", "12.6-13", "12.6-4"],
                      state: state(now: T - 6000, digest: d0, overlay: true),
                      [write(T - 5000, d1), tick(T - 4600), connected(T), tick(T + 400), req(T + 430, ipad, rows: 2), got(T + 520, ipad, d3),
                       applied(T + 580, ipad, 1, d3), got(T + 640, ipad, d3), tick(T + 980)],
                      expect: [[arm(T - 4600)], [emit([ipad], .debounce)], [arm(T + 400)], [emit([ipad], .debounce)], [answer(ipad)], [pull(ipad)],
                               [emit([ipad], .applied), arm(T + 980)], [emit([ipad], .matched), .dismissOverlay], []])
        // Two minutes of a storm: the guard bounds it to nine rounds every ~31 s.
        var long: [SettleEvent] = []
        var t = T
        for _ in 0..<4 {
            for k in 0..<9 {
                long.append(got(t + 150 * UInt64(k), ipad, d2))
                if k < 8 { long.append(applied(t + 150 * UInt64(k) + 60, ipad, 0, d1)) }
            }
            t += 1200 + 30_000
            long.append(tick(t))
            t += 150
        }
        try b.episode("story/storm-for-two-minutes", "a storm left running: each cycle is eight rounds, a back-off of exactly 30 s, a resume; the overlay never comes down",
                      rules: ["12.6-16", "12.6-18"], flags: ["long"], state: state(digest: d1, overlay: true), long) { steps, s in
            let all = steps.joined()
            return all.filter { $0.name == "back_off" }.count == 4 && all.filter { $0.name == "log_divergent" }.count == 4
                && all.filter { $0.name == "send_request" }.count == 32 && s.overlay
        }
    }
}

import Testing
@testable import Vectors

/// `conformance simulate` (SPEC.md §12.8): determinism, and what each scenario must show.
@Suite struct SimulationTests {
    static func params(_ scenario: SimParameters.Scenario, rows: Int, _ edit: (inout SimParameters) -> Void = { _ in }) -> SimParameters {
        var p = SimParameters()
        p.scenario = scenario
        p.rows = rows
        edit(&p)
        return p
    }

    /// Determinism does not depend on the store's size: 1,000 rows (three runs of 10,000 took a
    /// minute of a debug build; the 10,000-row runs below check convergence).
    @Test func sameSeedSameNumbers() {
        let p = Self.params(.reconnect, rows: 1_000)
        let a = Simulation.run(p), b = Simulation.run(p)
        #expect(a.error == nil)
        #expect(a.text == b.text)
        #expect(a.tree == b.tree)
        var q = p
        q.seed = 2
        #expect(Simulation.run(q).text != a.text, "another seed must give other numbers")
    }

    @Test func reconnectAfterOfflineWritesConverges() {
        let r = Simulation.run(Self.params(.reconnect, rows: 10_000))
        #expect(r.error == nil)
        #expect(r.converged)
        // Debounce 400 ms, then a pull each way: well under two seconds at 30 ms latency.
        #expect((r.convergeMillis ?? .infinity) < 2000, "\(r.text)")
        #expect(r.rounds >= 2)
        #expect(r.rowsApplied > 0)
        #expect(r.storms.isEmpty)
        #expect(r.overlayUp.isEmpty)
        #expect(r.requests.frames >= 2 && r.responses.frames >= 2)
    }

    @Test func theOldLoopTakesSecondsPerRound() {
        let new = Simulation.run(Self.params(.reconnect, rows: 2000))
        let old = Simulation.run(Self.params(.reconnect, rows: 2000) { $0.rules = .legacy })
        #expect(new.converged && old.converged)
        // Two 3 s debounces at least (the reconnect's own emit, then the re-advertisement).
        #expect((old.convergeMillis ?? 0) > 6000, "\(old.text)")
        #expect((new.convergeMillis ?? .infinity) < 1500, "\(new.text)")
    }

    @Test func theReactionHolderReAdvertisesAfterANoOpRound() {
        let new = Simulation.run(Self.params(.reaction, rows: 10_000))
        #expect(new.converged, "\(new.text)")
        #expect((new.convergeMillis ?? .infinity) < 1500)
        #expect(new.rowsApplied == 1)
        // Gated on applied > 0, the holder never tells the lacker anything: no convergence at all.
        let old = Simulation.run(Self.params(.reaction, rows: 2000) { $0.rules = .legacy; $0.limitMillis = 30_000 })
        #expect(!old.converged, "\(old.text)")
        #expect(old.rounds == 1)
        // Unrelated writes let it limp along (seed 002 §8), in seconds rather than milliseconds.
        let limping = Simulation.run(Self.params(.reaction, rows: 2000) { $0.rules = .legacy; $0.limitMillis = 60_000; $0.backgroundEveryMillis = 5000 })
        #expect(limping.converged && (limping.convergeMillis ?? 0) > 5000, "\(limping.text)")
    }

    @Test func aFieldHashedButNotMergeableTripsTheGuard() {
        let r = Simulation.run(Self.params(.storm, rows: 10_000) { $0.limitMillis = 40_000 })
        #expect(r.error == nil)
        #expect(!r.converged)
        #expect(!r.storms.isEmpty, "\(r.text)")
        #expect(r.storms.allSatisfy { $0.namespaces == ["messages"] })
        // Eight rounds, then thirty seconds of quiet from the device that tripped.
        let first = r.storms[0]
        #expect(first.untilMillis - first.atMillis == 30_000)
        #expect(r.overlayUp == [1], "the overlay stays up on the device that launched into the storm")
        #expect(r.rowsApplied == 0)
        #expect(r.text.contains("STORM GUARD TRIPPED"))
    }

    @Test func oneDifferingRowShipsItsBucketBothWays() {
        let r = Simulation.run(Self.params(.oneRow, rows: 10_000))
        #expect(r.converged)
        #expect(r.requests.frames == 2)
        #expect(r.rowsApplied == 1)
        // 10,000 rows: buckets of ⌈10000/256⌉ = 40 leaves; each side ships the edited row's bucket.
        #expect((78...80).contains(r.rowsShipped), "\(r.text)")
        #expect(r.rowsIdentical + r.rowsStale + r.rowsApplied == r.rowsShipped)
        // One bucket per row: only the row itself crosses, both ways, for a bigger request.
        let fine = Simulation.run(Self.params(.oneRow, rows: 10_000) { $0.bucketRule = .buckets(10_000) })
        #expect(fine.converged && fine.rowsShipped == 2)
        #expect(fine.requests.bytes > 30 * r.requests.bytes)
        #expect(fine.responses.bytes * 20 < r.responses.bytes)
    }

    @Test func moreDevicesConverge() {
        let r = Simulation.run(Self.params(.reconnect, rows: 2000) { $0.devices = 4; $0.namespaces = 3; $0.writes = 8 })
        #expect(r.converged, "\(r.text)")
        #expect(r.storms.isEmpty)
    }

    /// The guard counts every pull (seed 002 §9 read literally): a sibling that writes about once
    /// a second makes each online sibling pull nine times in ten seconds, and they back off from it.
    @Test func aSiblingWritingEverySecondTripsTheGuard() {
        let r = Simulation.run(Self.params(.reconnect, rows: 2000) { $0.devices = 3; $0.writes = 20 })
        #expect(r.storms.contains { $0.atMillis < 0 && $0.sibling == 0 }, "\(r.text)")
        #expect(r.converged, "the back-off ends and the fleet still converges: \(r.text)")
    }

    /// Each applied response re-advertises at once (seed 002 §8), so a reconnect diverging in k
    /// namespaces makes k rounds a side; at nine the guard trips on a legitimate reconnect.
    @Test func roundsGrowWithDivergentNamespaces() {
        var rounds: [Int] = []
        for k in [1, 4, 8, 9] {
            let r = Simulation.run(Self.params(.reconnect, rows: 1000) { $0.namespaces = k; $0.writes = 40 })
            #expect(r.converged, "\(k): \(r.text)")
            rounds.append(r.rounds)
            #expect(r.storms.isEmpty == (k < 9), "\(k): \(r.text)")
            if k == 9 { #expect(r.storms.first?.namespaces.count == 9) }
        }
        #expect(Array(rounds.prefix(3)) == [2, 8, 16], "\(rounds)")
    }

    @Test func theSecondRoundNarrowsABigMismatchedBucket() {
        // 2,000 rows cut into ⌈2000/256⌉ = 8 leaves a bucket; with narrowing above 4 rows the
        // responder names the bucket instead of shipping it.
        var g = SeededGenerator(seed: 7)
        var p = SimParameters()
        p.rows = 2000
        var stores = SimScenarios.baseStores(p, &g)
        var a = stores[0]
        let request = a.request(.v6)
        var enc = LeafEncoder()
        var r = a.row(a.keys[100])!
        r.version += 1
        stores[0].put(a.keys[100], r, encoder: &enc)
        let full = stores[0].respond(to: request)
        let narrowed = stores[0].respond(to: request, narrowAbove: 4)
        #expect(full.rows.count == 8 && full.narrowed.isEmpty)
        #expect(narrowed.rows.isEmpty && narrowed.narrowed.count == 1)
        let second = BucketRule.narrow(.messages, a.keyedLeaves, range: request[narrowed.narrowed[0]])
        #expect(second.count == 8)
        let answer = stores[0].respond(to: second)
        #expect(answer.rows.map(\.key) == [a.keys[100]])
    }
}

import Primitives
import Testing
@testable import Vectors

/// bucketize and respond beyond the vectors: the tiling and size rules over many n, and the
/// seeded round-trip property of SPEC.md §5.5.
struct ReconcileTests {
    @Test func bucketsTileAndStayWithin256() throws {
        // The index rule's leaves are a prefix of each other: made once, sliced per count.
        let all = LeafList.indexRule(count: 100_000)
        for n in Array(0...600) + [1000, 4096, 65_535, 65_536, 65_537, 100_000] {
            let leaves = Array(all.prefix(n))
            let buckets = Bucketizer.bucketize(namespace: .messages, sortedLeaves: leaves)
            try ReconcileRequest.validateTiling(buckets)
            #expect(buckets.count <= 256)
            #expect(buckets.reduce(0) { $0 + $1.count } == n)
            let g = Bucketizer.groupSize(n)
            #expect(g == (n <= 256 ? 1 : (n + 255) / 256))
            if n > 0 { #expect(buckets.count == (n + g - 1) / g) }
            // Every key lands in exactly one bucket.
            for probe in stride(from: 0, to: n, by: max(1, n / 50)) {
                #expect(buckets.filter { $0.contains(leaves[probe].key) }.count == 1)
            }
        }
    }

    @Test func fineBucketRootIsTheLeaf() {
        let leaves = LeafList.indexRule(count: 9)
        let buckets = Bucketizer.bucketize(namespace: .memory, sortedLeaves: leaves)
        #expect(buckets.map(\.root) == leaves.map(\.leaf))
        #expect(buckets.map(\.count) == [UInt64](repeating: 1, count: 9))
        #expect(buckets.dropFirst().map(\.lo) == leaves.dropFirst().map(\.key))
    }

    /// Seeded random replica pairs drawn from one universe of rows (with deletions): after one
    /// request/response per divergent namespace in each direction, applied insert-if-absent,
    /// both roots are equal within two exchanges each way.
    @Test(arguments: [Namespace.messages, .blocks, .notebook, .settings, .memory])
    func roundTripConverges(_ ns: Namespace) throws {
        let seed: UInt64 = 0x5eed_0000 + UInt64(ns.rawValueIndex)
        print("roundTripConverges \(ns.rawValue) seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for trial in 0..<12 {
            let universeSize = [0, 1, 5, 40, 300, 700][trial % 6]
            let universe = (0..<universeSize).map { SampleRows.typical(ns, index: $0) }
            func pick() -> ReplicaNamespace {
                var r = ReplicaNamespace(namespace: ns)
                for row in universe where g.next() % 3 != 0 { r.rows.append(row) }
                return r
            }
            var a = pick(), b = pick()
            // Some rows deleted on one side (a tombstone on a key that side does not hold live).
            if ns != .settings {
                for row in universe where g.next() % 17 == 0 {
                    let k = row.keyBytes
                    if g.next() & 1 == 0 { a.rows.removeAll { $0.keyBytes == k }; a.tombstones.append(k) }
                    else { b.rows.removeAll { $0.keyBytes == k }; b.tombstones.append(k) }
                }
            }
            var exchanges = 0
            while try a.root() != b.root() {
                exchanges += 1
                #expect(exchanges <= 2, "trial \(trial): not converged after 2 exchanges each way")
                if exchanges > 2 { break }
                if let resp = try Responder.respond(to: try a.request(), from: b) { a.apply(try roundTrip(resp)) }
                if let resp = try Responder.respond(to: try b.request(), from: a) { b.apply(try roundTrip(resp)) }
            }
            #expect(try a.root() == b.root(), "trial \(trial)")
        }
    }

    /// Frames go through their JSON text as they would on the wire.
    func roundTrip(_ r: ReconcileResponse) throws -> ReconcileResponse {
        guard case .response(let back) = try ReconcileFrame.decode(jsonText: ReconcileFrame.response(r).jsonText) else {
            Issue.record("response decoded as a request")
            return r
        }
        return back
    }

    @Test func frameDecodeNeverTrapsOnTruncation() throws {
        let rows = (0..<5).map { SampleRows.typical(.messages, index: $0) }
        let req = try ReplicaNamespace(namespace: .messages, rows: rows).request()
        let text = Array(ReconcileFrame.request(req).jsonText.utf8)
        for n in 0..<text.count {
            #expect(throws: WireError.self) { try ReconcileFrame.decode(jsonText: String(decoding: text.prefix(n), as: UTF8.self)) }
        }
    }
}

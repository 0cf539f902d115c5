import Foundation
import Primitives
import Vectors

/// `conformance bench reconcile`: bucketize and respond over a million leaves, with 1, 100 and
/// 10,000 rows present only on the responder, plus the request and response sizes.
enum ReconcileBench {
    static func run(leaves n: Int) {
        print("== reconcile over \(n) leaves (generator rule index; keys 4 bytes)")
        let all = LeafList.indexRule(count: n)
        for missing in [1, 100, 10_000] {
            // The requester lacks `missing` keys spread evenly; the responder holds them all.
            let stride = max(1, n / missing)
            var lacking = Set<Int>()
            var i = stride / 2
            while lacking.count < missing && i < n { lacking.insert(i); i += stride }
            let requester = all.enumerated().filter { !lacking.contains($0.offset) }.map(\.element)

            var start = BenchCommand.now()
            let buckets = Bucketizer.bucketize(namespace: .blocks, sortedLeaves: requester)
            let bucketizeSeconds = Double(BenchCommand.now() - start) / 1e9
            let request = ReconcileRequest(namespace: .blocks, buckets: buckets)

            start = BenchCommand.now()
            let mismatched = Responder.mismatchedBuckets(buckets, namespace: .blocks, sortedLeaves: all)
            var shipped: [[UInt8]] = []
            for leaf in all where mismatched[Responder.bucketIndex(of: leaf.key, in: buckets)] { shipped.append(leaf.key) }
            let respondSeconds = Double(BenchCommand.now() - start) / 1e9

            // Response size with a small real row per shipped key (a blocks row).
            let rows = shipped.map { k in
                Row(.blocks, ["blockedUserIDHash": .bytes(Array(SHA256.hash(k).bytes)), "blockedAt": .date(1_767_225_600_000)])
            }
            let response = ReconcileResponse(namespace: .blocks, rows: rows)
            let requestBytes = ReconcileFrame.request(request).jsonText.utf8.count
            let responseBytes = ReconcileFrame.response(response).jsonText.utf8.count
            print(String(format: "missing %6d: bucketize %.3f s, respond %.3f s, %d buckets, request %d B, response %d rows / %d B",
                         missing, bucketizeSeconds, respondSeconds, buckets.count, requestBytes, shipped.count, responseBytes))
        }
        // Linearity: the same at a tenth of the size.
        let small = LeafList.indexRule(count: n / 10)
        let start = BenchCommand.now()
        let b = Bucketizer.bucketize(namespace: .blocks, sortedLeaves: small)
        let t = Double(BenchCommand.now() - start) / 1e9
        print(String(format: "bucketize %d leaves: %.3f s, %d buckets, request %d B (request size is independent of n above 256 leaves)",
                     n / 10, t, b.count, ReconcileFrame.request(ReconcileRequest(namespace: .blocks, buckets: b)).jsonText.utf8.count))
    }
}

import Primitives

/// `bucketize`: the requester's side of a reconcile round (seed 002 §6, SPEC.md §5.2).
public enum Bucketizer {
    /// At or below this many leaves a namespace gets one bucket per leaf.
    public static let fineThreshold = 256
    /// The most buckets a request may carry.
    public static let maxBuckets = 256

    /// The group size for `n` leaves: 1 up to the threshold, then `ceil(n / 256)`.
    public static func groupSize(_ n: Int) -> Int {
        let t = Mutant.on(.threshold255) ? 255 : Mutant.on(.threshold257) ? 257 : fineThreshold
        if Mutant.on(.groupSizeFloor) { return n <= t ? 1 : max(1, n / t) }
        return n <= t ? 1 : (n + t - 1) / t
    }

    /// Buckets over leaves sorted by key (strictly increasing). They tile the key space: the first
    /// `lo` is empty, each `hi` is the next bucket's `lo`, the last `hi` is absent. An empty
    /// namespace sends one bucket covering everything with count 0 and the empty root, so a
    /// responder holding rows there still ships them.
    public static func bucketize(namespace: Namespace, sortedLeaves: [(key: [UInt8], leaf: SHA256Digest)]) -> [Bucket] {
        let n = sortedLeaves.count
        guard n > 0 else {
            if Mutant.on(.emptyNamespaceSendsNothing) { return [] }
            return [Bucket(lo: [], hi: nil, root: MerkleTree.emptyRoot(namespace), count: 0)]
        }
        let g = groupSize(n)
        var buckets: [Bucket] = []
        buckets.reserveCapacity((n + g - 1) / g)
        var start = 0
        while start < n {
            let end = min(start + g, n)
            let leaves = sortedLeaves[start..<end].map(\.leaf)
            let lo: [UInt8] = start == 0 && !Mutant.on(.firstLoIsFirstKey) ? [] : sortedLeaves[start].key
            let hi: [UInt8]? = end < n ? sortedLeaves[end].key : nil
            buckets.append(Bucket(lo: lo, hi: hi, root: MerkleTree.fold(leaves)!, count: UInt64(end - start)))
            start = end
        }
        return buckets
    }

    /// Sorts `(key, leaf)` pairs and rejects a repeated key, then bucketizes.
    public static func request(namespace: Namespace, keyedLeaves: [(key: [UInt8], leaf: SHA256Digest)]) throws(WireError) -> ReconcileRequest {
        let order = Bucket.keyOrder
        let sorted = keyedLeaves.sorted { order($0.key, $1.key) }
        for i in sorted.indices.dropFirst() where sorted[i].key == sorted[i - 1].key {
            throw WireError(.duplicateKey, "key \(Hex.encode(sorted[i].key)) appears twice", field: "leaves")
        }
        if namespace == .settings { return ReconcileRequest(namespace: .settings, buckets: []) }
        return ReconcileRequest(namespace: namespace, buckets: bucketize(namespace: namespace, sortedLeaves: sorted))
    }
}

import Primitives

/// How a simulated requester cuts its leaves into buckets. A parameter of the simulation, never of
/// the wire format: `v6` is SPEC.md §5.2 (the real `Bucketizer`); the others are candidate v7
/// rules a protocol designer can compare (their requests may carry more than 256 buckets, which a
/// v6 decoder refuses).
public enum BucketRule: Sendable, Hashable, CustomStringConvertible {
    /// §5.2: one bucket per leaf up to 256 leaves, then ⌈n / 256⌉ leaves a bucket.
    case v6
    /// The same shape with another limit: one bucket per leaf up to `k`, then ⌈n / k⌉ a bucket.
    case buckets(Int)
    /// Two rounds: the §5.2 request, then for each mismatched bucket of more than 256 rows a
    /// second request over that range alone, cut the §5.2 way (the responder answers the first
    /// round's big mismatched buckets with their bucket indices instead of their rows).
    case twoRound

    public var description: String {
        switch self {
        case .v6: return "v6 (256 buckets)"
        case .buckets(let k): return "\(k) buckets"
        case .twoRound: return "v6 + second round"
        }
    }

    /// A mismatched bucket holding more rows than this is narrowed instead of shipped (two-round).
    public static let narrowAbove = 256

    /// The buckets over sorted leaves.
    public func bucketize(_ ns: Namespace, _ leaves: [(key: [UInt8], leaf: SHA256Digest)]) -> [Bucket] {
        switch self {
        case .v6, .twoRound: return Bucketizer.bucketize(namespace: ns, sortedLeaves: leaves)
        case .buckets(let k): return Self.cut(ns, leaves, limit: k, lo: [], hi: nil)
        }
    }

    /// Buckets of at most ⌈n / limit⌉ leaves tiling `[lo, hi)`; with `lo` empty and `hi` nil,
    /// the whole key space (§5.2's shape).
    static func cut(_ ns: Namespace, _ leaves: [(key: [UInt8], leaf: SHA256Digest)], limit: Int, lo: [UInt8], hi: [UInt8]?) -> [Bucket] {
        let n = leaves.count
        guard n > 0 else { return [Bucket(lo: lo, hi: hi, root: MerkleTree.emptyRoot(ns), count: 0)] }
        let g = n <= limit ? 1 : (n + limit - 1) / limit
        var out: [Bucket] = []
        var start = 0
        while start < n {
            let end = min(start + g, n)
            let root = MerkleTree.fold(leaves[start..<end].map(\.leaf))!
            out.append(Bucket(lo: start == 0 ? lo : leaves[start].key, hi: end < n ? leaves[end].key : hi, root: root, count: .init(end - start)))
            start = end
        }
        return out
    }

    /// The second-round request for one range: the requester's leaves inside it, cut into at
    /// most 256 buckets tiling that range alone (the responder compares only inside it).
    static func narrow(_ ns: Namespace, _ all: [(key: [UInt8], leaf: SHA256Digest)], range: Bucket) -> [Bucket] {
        cut(ns, all.filter { range.contains($0.key) }, limit: Bucketizer.maxBuckets, lo: range.lo, hi: range.hi)
    }
}

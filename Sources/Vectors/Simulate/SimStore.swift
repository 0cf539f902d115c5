import Primitives

/// One device's replica of one namespace: rows sorted by key with their real leaves, and the
/// tombstoned keys. Roots and requests are memoized until the next change (seed 002 §9: "memoized
/// only until the next write"); the memo changes how long the simulator takes, never a byte it
/// counts.
public struct SimNamespace: Sendable {
    public let namespace: Namespace
    public private(set) var keys: [[UInt8]] = []
    public private(set) var leaves: [SHA256Digest] = []
    public private(set) var rows: [SimRow] = []
    /// Sorted.
    public private(set) var tombstones: [[UInt8]] = []
    private var memoRoot: SHA256Digest?
    private var memoRequest: (rule: BucketRule, buckets: [Bucket])?

    public init(_ namespace: Namespace) { self.namespace = namespace }

    /// Rows already sorted by key, with their leaves.
    public init(_ namespace: Namespace, sortedKeys: [[UInt8]], rows: [SimRow], leaves: [SHA256Digest]) {
        self.namespace = namespace
        self.keys = sortedKeys
        self.rows = rows
        self.leaves = leaves
    }

    public var count: Int { keys.count }

    /// Binary search: the index of `key`, or where it would go.
    public func find(_ key: [UInt8]) -> (found: Bool, index: Int) {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ByteOrder.precedes(keys[mid], key) { lo = mid + 1 } else { hi = mid }
        }
        return (lo < keys.count && keys[lo] == key, lo)
    }

    public func isTombstoned(_ key: [UInt8]) -> Bool {
        var lo = 0, hi = tombstones.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ByteOrder.precedes(tombstones[mid], key) { lo = mid + 1 } else { hi = mid }
        }
        return lo < tombstones.count && tombstones[lo] == key
    }

    public func row(_ key: [UInt8]) -> SimRow? {
        let f = find(key)
        return f.found ? rows[f.index] : nil
    }

    public func leaf(_ key: [UInt8]) -> SHA256Digest? {
        let f = find(key)
        return f.found ? leaves[f.index] : nil
    }

    private mutating func changed() {
        memoRoot = nil
        memoRequest = nil
    }

    /// Inserts or replaces a row (a local write or a merge result).
    public mutating func put(_ key: [UInt8], _ row: SimRow, encoder: inout LeafEncoder) {
        let leaf = row.leaf(namespace, key: key, encoder: &encoder)
        let f = find(key)
        if f.found {
            rows[f.index] = row
            leaves[f.index] = leaf
        } else {
            keys.insert(key, at: f.index)
            rows.insert(row, at: f.index)
            leaves.insert(leaf, at: f.index)
        }
        changed()
    }

    /// Deletes a row and remembers the tombstone. Returns whether anything changed.
    @discardableResult
    public mutating func delete(_ key: [UInt8]) -> Bool {
        var did = false
        let f = find(key)
        if f.found {
            keys.remove(at: f.index)
            rows.remove(at: f.index)
            leaves.remove(at: f.index)
            did = true
        }
        if !isTombstoned(key) {
            var lo = 0, hi = tombstones.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ByteOrder.precedes(tombstones[mid], key) { lo = mid + 1 } else { hi = mid }
            }
            tombstones.insert(key, at: lo)
            did = true
        }
        if did { changed() }
        return did
    }

    public var keyedLeaves: [(key: [UInt8], leaf: SHA256Digest)] {
        Array(zip(keys, leaves).map { (key: $0.0, leaf: $0.1) })
    }

    /// The §4.7 root.
    public mutating func root() -> SHA256Digest {
        if let r = memoRoot { return r }
        let r = MerkleTree.fold(leaves) ?? MerkleTree.emptyRoot(namespace)
        memoRoot = r
        return r
    }

    /// The request buckets under `rule`.
    public mutating func request(_ rule: BucketRule) -> [Bucket] {
        if let m = memoRequest, m.rule == rule { return m.buckets }
        let b = rule.bucketize(namespace, keyedLeaves)
        memoRequest = (rule, b)
        return b
    }

    /// What §5.4 `respond` finds for a request: the indices of the mismatched buckets, and the
    /// rows and tombstones in them. With `narrowAbove`, a mismatched bucket holding more rows is
    /// reported as narrowed instead of shipped (the two-round rule).
    public func respond(to buckets: [Bucket], narrowAbove: Int? = nil) -> (rows: [(key: [UInt8], row: SimRow, leaf: SHA256Digest)], tombstones: [[UInt8]], narrowed: [Int]) {
        guard let firstLo = buckets.first?.lo else { return ([], [], []) }
        // A range request (the second round) compares only the leaves inside its range.
        let lastHi = buckets.last!.hi
        var startIndex = 0, endIndex = keys.count
        if !firstLo.isEmpty { startIndex = find(firstLo).index }
        if let hi = lastHi { endIndex = find(hi).index }
        let inside = Array(zip(keys[startIndex..<endIndex], leaves[startIndex..<endIndex]).map { (key: $0.0, leaf: $0.1) })
        let mismatched = Responder.mismatchedBuckets(buckets, namespace: namespace, sortedLeaves: inside)
        var narrowedSet = [Bool](repeating: false, count: buckets.count)
        var narrowed: [Int] = []
        if let limit = narrowAbove {
            var counts = [Int](repeating: 0, count: buckets.count)
            var bi = 0
            for k in keys[startIndex..<endIndex] {
                while bi + 1 < buckets.count, !ByteOrder.precedes(k, buckets[bi + 1].lo) { bi += 1 }
                counts[bi] += 1
            }
            for i in buckets.indices where mismatched[i] && (counts[i] > limit || Int(buckets[i].count) > limit) {
                narrowedSet[i] = true
                narrowed.append(i)
            }
        }
        var rowsOut: [(key: [UInt8], row: SimRow, leaf: SHA256Digest)] = []
        var bi = 0
        for i in startIndex..<endIndex {
            while bi + 1 < buckets.count, !ByteOrder.precedes(keys[i], buckets[bi + 1].lo) { bi += 1 }
            if mismatched[bi] && !narrowedSet[bi] { rowsOut.append((keys[i], rows[i], leaves[i])) }
        }
        var tombsOut: [[UInt8]] = []
        for t in tombstones {
            if !firstLo.isEmpty, ByteOrder.precedes(t, firstLo) { continue }
            if let hi = lastHi, !ByteOrder.precedes(t, hi) { continue }
            let b = Responder.bucketIndex(of: t, in: buckets)
            if mismatched[b] && !narrowedSet[b] { tombsOut.append(t) }
        }
        return (rowsOut, tombsOut, narrowed)
    }
}

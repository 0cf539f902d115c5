import Primitives

/// `respond`: the responder's side of a reconcile round (SPEC.md §5.4).
public enum Responder {
    /// Recomputes root and count over this replica's leaves in each requested range; a range
    /// mismatches when either differs; returns the rows and tombstones in mismatched ranges with
    /// their version vectors, or nil (send no frame) when there is nothing to send.
    public static func respond(to request: ReconcileRequest, from replica: ReplicaNamespace) throws(WireError) -> ReconcileResponse? {
        guard request.namespace == replica.namespace else {
            throw WireError(.inputBadValue, "request is for \(request.namespace.rawValue), replica holds \(replica.namespace.rawValue)", field: "request.namespace")
        }
        if replica.namespace == .settings { return try settings(replica) }
        try ReconcileRequest.validateTiling(request.buckets)
        let leaves = try replica.sortedLeaves()
        let mismatched = mismatchedBuckets(request.buckets, namespace: replica.namespace, sortedLeaves: leaves)
        func inMismatchedRange(_ key: [UInt8]) -> Bool { mismatched[bucketIndex(of: key, in: request.buckets)] }

        var response = ReconcileResponse(namespace: replica.namespace)
        let rows = replica.rows.filter { (!LeafEncoder.isDropped($0) || Mutant.on(.calendarEventsShipped)) && inMismatchedRange($0.keyBytes) }
            .sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
        let tombs: [[UInt8]]
        if Mutant.on(.tombstonesNotShipped) {
            tombs = []
        } else if Mutant.on(.tombstonesFromMatchingBuckets) {
            tombs = mismatched.contains(true) ? replica.tombstones.sorted { ByteOrder.precedes($0, $1) } : []
        } else {
            tombs = replica.tombstones.filter(inMismatchedRange).sorted { ByteOrder.precedes($0, $1) }
        }
        guard !rows.isEmpty || !tombs.isEmpty || Mutant.on(.frameWhenNothingDiffers) else { return nil }
        response.rows = rows
        response.tombstones = tombs
        for k in rows.map(\.keyBytes) + tombs {
            let hex = TextKey(Hex.encode(k))
            if let vv = replica.vectors[hex] { response.vectors[hex] = vv }
        }
        return response
    }

    /// For each bucket, whether the responder's own leaves in its range differ in root or count.
    /// One sweep: leaves and buckets are both in key order and the buckets tile the key space.
    public static func mismatchedBuckets(_ buckets: [Bucket], namespace: Namespace, sortedLeaves leaves: [(key: [UInt8], leaf: SHA256Digest)]) -> [Bool] {
        var mismatched = [Bool](repeating: false, count: buckets.count)
        var li = 0
        var scratch: [SHA256Digest] = []
        for (bi, bucket) in buckets.enumerated() {
            scratch.removeAll(keepingCapacity: true)
            while li < leaves.count, bucket.contains(leaves[li].key) {
                scratch.append(leaves[li].leaf)
                li += 1
            }
            let root = MerkleTree.fold(scratch) ?? MerkleTree.emptyRoot(namespace)
            mismatched[bi] = root != bucket.root || (UInt64(scratch.count) != bucket.count && !Mutant.on(.countNotCompared))
        }
        return mismatched
    }

    /// The index of the bucket whose range holds `key` (binary search over the tiling).
    public static func bucketIndex(of key: [UInt8], in buckets: [Bucket]) -> Int {
        var lo = 0, hi = buckets.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if key.lexicographicallyPrecedes(buckets[mid].lo) { hi = mid - 1 } else { lo = mid }
        }
        return lo
    }

    /// settings: the whole synced dictionary, per-key version vectors and tombstoned keys.
    static func settings(_ replica: ReplicaNamespace) throws(WireError) -> ReconcileResponse? {
        var response = ReconcileResponse(namespace: .settings)
        var seen = Set<TextKey>()
        for row in replica.rows {
            guard case .text(let k)? = row["key"], case .text(let v)? = row["value"] else {
                throw WireError(.inputMissingField, "settings rows need key and value", field: "rows")
            }
            guard seen.insert(TextKey(k)).inserted else { throw WireError(.duplicateKey, "settings key \(k) appears twice", field: "rows") }
            if case .versionVector(let vv)? = row["versionVector"] { response.vectors[TextKey(k)] = vv }
            if LeafEncoder.isDropped(row) { response.settingsTombstones.append(k) } else { response.entries[TextKey(k)] = v }
        }
        if response.entries.isEmpty && response.settingsTombstones.isEmpty { return nil }
        return response
    }
}

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

        // One sweep: leaves and buckets are both in key order and the buckets tile the key space.
        var mismatched = [Bool](repeating: false, count: request.buckets.count)
        var li = 0
        for (bi, bucket) in request.buckets.enumerated() {
            let start = li
            while li < leaves.count, bucket.contains(leaves[li].key) { li += 1 }
            let mine = leaves[start..<li].map(\.leaf)
            let root = MerkleTree.fold(mine) ?? MerkleTree.emptyRoot(replica.namespace)
            mismatched[bi] = root != bucket.root || mine.count != bucket.count
        }

        func inMismatchedRange(_ key: [UInt8]) -> Bool {
            // Binary search for the bucket whose range holds the key.
            var lo = 0, hi = request.buckets.count - 1
            while lo < hi {
                let mid = (lo + hi + 1) / 2
                if key.lexicographicallyPrecedes(request.buckets[mid].lo) { hi = mid - 1 } else { lo = mid }
            }
            return mismatched[lo]
        }

        var response = ReconcileResponse(namespace: replica.namespace)
        let rows = replica.rows.filter { !LeafEncoder.isDropped($0) && inMismatchedRange($0.keyBytes) }
            .sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
        let tombs = replica.tombstones.filter(inMismatchedRange).sorted { $0.lexicographicallyPrecedes($1) }
        guard !rows.isEmpty || !tombs.isEmpty else { return nil }
        response.rows = rows
        response.tombstones = tombs
        for k in rows.map(\.keyBytes) + tombs {
            let hex = Hex.encode(k)
            if let vv = replica.vectors[hex] { response.vectors[hex] = vv }
        }
        return response
    }

    /// settings: the whole synced dictionary, per-key version vectors and tombstoned keys.
    static func settings(_ replica: ReplicaNamespace) throws(WireError) -> ReconcileResponse? {
        var response = ReconcileResponse(namespace: .settings)
        var seen = Set<String>()
        for row in replica.rows {
            guard case .text(let k)? = row["key"], case .text(let v)? = row["value"] else {
                throw WireError(.inputMissingField, "settings rows need key and value", field: "rows")
            }
            guard seen.insert(k).inserted else { throw WireError(.duplicateKey, "settings key \(k) appears twice", field: "rows") }
            if case .versionVector(let vv)? = row["versionVector"] { response.vectors[k] = vv }
            if LeafEncoder.isDropped(row) { response.settingsTombstones.append(k) } else { response.entries[k] = v }
        }
        response.settingsTombstones = ReconcileResponse.sortedUTF8(response.settingsTombstones)
        if response.entries.isEmpty && response.settingsTombstones.isEmpty { return nil }
        return response
    }
}

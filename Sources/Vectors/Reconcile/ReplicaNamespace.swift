import Primitives

/// One device's view of one namespace: live rows, tombstoned keys and per-row version vectors.
/// The input of `respond` and the state the round-trip property tests converge.
public struct ReplicaNamespace: Sendable, Hashable {
    public var namespace: Namespace
    public var rows: [Row]
    /// Deleted keys (non-settings; settings marks rows `tombstoned` instead).
    public var tombstones: [[UInt8]]
    /// Version vectors by lowercase hex key (non-settings). Settings rows carry their own.
    public var vectors: [TextKey: [TextKey: UInt64]]

    public init(namespace: Namespace, rows: [Row] = [], tombstones: [[UInt8]] = [], vectors: [TextKey: [TextKey: UInt64]] = [:]) {
        self.namespace = namespace
        self.rows = rows
        self.tombstones = tombstones
        self.vectors = vectors
    }

    /// Leaves sorted by key, dropped rows left out; repeated keys are checked first (`checkKeys`).
    public func sortedLeaves() throws(WireError) -> [(key: [UInt8], leaf: SHA256Digest)] {
        try checkKeys()
        var enc = LeafEncoder()
        var keyed: [(key: [UInt8], leaf: SHA256Digest)] = []
        keyed.reserveCapacity(rows.count)
        for row in rows where !LeafEncoder.isDropped(row) { keyed.append((row.keyBytes, try enc.leaf(row))) }
        let order = Bucket.keyOrder
        keyed.sort { order($0.key, $1.key) }
        return keyed
    }

    /// A key held twice (two rows, a row and a tombstone, a tombstone twice) is `duplicate_key`.
    func checkKeys() throws(WireError) {
        var seen = Set<[UInt8]>()
        for row in rows where !seen.insert(row.keyBytes).inserted {
            throw WireError(.duplicateKey, "key \(Hex.encode(row.keyBytes)) appears twice", field: "rows")
        }
        var dead = Set<[UInt8]>()
        for t in tombstones {
            guard !seen.contains(t) else { throw WireError(.duplicateKey, "key \(Hex.encode(t)) is both a row and a tombstone", field: "tombstones") }
            guard dead.insert(t).inserted else { throw WireError(.duplicateKey, "tombstone \(Hex.encode(t)) listed twice", field: "tombstones") }
        }
    }

    /// The namespace root, as in the digest.
    public func root() throws(WireError) -> SHA256Digest {
        try StateRoots.root(namespace, rows: rows).root
    }

    /// The request this replica sends for its namespace.
    public func request() throws(WireError) -> ReconcileRequest {
        if namespace == .settings { return ReconcileRequest(namespace: .settings, buckets: []) }
        return ReconcileRequest(namespace: namespace, buckets: Bucketizer.bucketize(namespace: namespace, sortedLeaves: try sortedLeaves()))
    }

    /// Applies a response with the insert-if-absent merge: a row whose key this replica holds
    /// (live or tombstoned) is skipped; a tombstone deletes the row and is remembered. Dropped
    /// rows (calendar events) are dropped again on apply so a stale sibling cannot reintroduce them.
    /// Returns the number of changes.
    @discardableResult
    public mutating func apply(_ response: ReconcileResponse) -> Int {
        var applied = 0
        if namespace == .settings {
            var byKey: [TextKey: Int] = [:]
            for (i, r) in rows.enumerated() { if case .text(let k)? = r["key"] { byKey[TextKey(k)] = i } }
            for (k, v) in response.entries.sorted(by: { $0.key < $1.key }) where byKey[k] == nil {
                var row = Row(.settings, ["key": .text(k.text), "value": .text(v)])
                if let vv = response.vectors[k] { row["versionVector"] = .versionVector(vv) }
                byKey[k] = rows.count
                rows.append(row)
                applied += 1
            }
            for t in response.settingsTombstones {
                let k = TextKey(t)
                if let i = byKey[k] {
                    if case .bool(true)? = rows[i]["tombstoned"] { continue }
                    rows[i]["tombstoned"] = .bool(true)
                } else {
                    rows.append(Row(.settings, ["key": .text(t), "value": .text(""), "tombstoned": .bool(true)]))
                }
                applied += 1
            }
            return applied
        }
        var held = Set(rows.map(\.keyBytes))
        let deleted = Set(tombstones)
        for row in response.rows where !LeafEncoder.isDropped(row) {
            let k = row.keyBytes
            guard !held.contains(k), !deleted.contains(k) else { continue }
            rows.append(row)
            held.insert(k)
            if let vv = response.vectors[TextKey(Hex.encode(k))] { vectors[TextKey(Hex.encode(k))] = vv }
            applied += 1
        }
        for t in response.tombstones where !deleted.contains(t) {
            rows.removeAll { $0.keyBytes == t }
            tombstones.append(t)
            if let vv = response.vectors[TextKey(Hex.encode(t))] { vectors[TextKey(Hex.encode(t))] = vv }
            applied += 1
        }
        tombstones.sort { $0.lexicographicallyPrecedes($1) }
        return applied
    }
}

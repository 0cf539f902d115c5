import Primitives

/// The snapshot payload inside a sync blob (SPEC.md §7.4): the account's current fold, as rows of
/// the §4 namespaces. There is no operation log to replay; this is all that was ever kept.
///
/// One store has exactly one encoding: namespaces with no rows are left out, rows are in key
/// order with distinct keys, text sets are normalised. Two exports of one store are byte-equal,
/// which is what lets a vector pin the blob.
public struct SyncSnapshot: Sendable, Hashable {
    public static let version: UInt64 = 1
    /// The mime type the blob is uploaded under; blob-svc gives it the `syncMaxBlobBytes` ceiling.
    public static let mimeType = "application/x-pixie-sync"

    /// Rows per namespace, each list in key order with distinct keys, no empty lists.
    public private(set) var namespaces: [Namespace: [Row]]

    /// Builds the canonical snapshot: sorts each namespace by key, drops empty ones. Two rows with
    /// one key in a namespace: `duplicate_key`.
    public init(_ rows: [Namespace: [Row]]) throws(WireError) {
        var out: [Namespace: [Row]] = [:]
        for (ns, list) in rows where !list.isEmpty {
            let sorted = list.map(SnapshotRowCodec.canonical).sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
            for i in sorted.indices.dropFirst() where sorted[i].keyBytes == sorted[i - 1].keyBytes {
                throw WireError(.duplicateKey, "key \(Hex.encode(sorted[i].keyBytes)) appears twice", field: "namespaces.\(ns.rawValue)")
            }
            out[ns] = sorted
        }
        namespaces = out
    }

    public var rowCount: Int { namespaces.values.reduce(0) { $0 + $1.count } }

    // MARK: wire form

    public var cbor: CBOR {
        .object([("version", .unsigned(Self.version)),
                 ("namespaces", .object(Namespace.allCases.compactMap { ns in
                     namespaces[ns].map { (ns.rawValue, CBOR.array($0.map(SnapshotRowCodec.tree))) }
                 }))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(cbor) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SyncSnapshot {
        let r = try SyncMapReader(bytes, tag: nil, allowed: ["version", "namespaces"])
        let v = try r.unsigned("version")
        guard v == version else { throw WireError(.syncUnsupportedVersion, "snapshot version \(v), this reader knows 1", field: "version") }
        guard case .map(let entries) = try r.required("namespaces") else {
            throw WireError(.syncBadType, "namespaces must be a map", field: "namespaces")
        }
        var out: [Namespace: [Row]] = [:]
        for e in entries {
            guard case .text(let name) = e.key else { throw WireError(.syncBadType, "namespace names are text strings", field: "namespaces") }
            guard let ns = Namespace(rawValue: name) else { throw WireError(.unknownNamespace, "no namespace \(name)", field: "namespaces.\(name)") }
            let path = "namespaces.\(name)"
            guard case .array(let items) = e.value else { throw WireError(.syncBadType, "rows must be an array", field: path) }
            guard !items.isEmpty else { throw WireError(.syncBadValue, "a namespace without rows is left out, not written empty", field: path) }
            var rows: [Row] = []
            for (i, item) in items.enumerated() {
                let row = try SnapshotRowCodec.decode(item, namespace: ns, path: "\(path)[\(i)]")
                if let prev = rows.last {
                    if prev.keyBytes == row.keyBytes {
                        throw WireError(.duplicateKey, "key \(Hex.encode(row.keyBytes)) appears twice", field: "\(path)[\(i)]")
                    }
                    if !prev.keyBytes.lexicographicallyPrecedes(row.keyBytes) {
                        throw WireError(.syncBadValue, "rows are written in key order", field: "\(path)[\(i)]")
                    }
                }
                rows.append(row)
            }
            out[ns] = rows
        }
        var s = try SyncSnapshot([:])
        s.namespaces = out
        return s
    }

    // MARK: vector form

    /// `{namespaces: {name: [ROW…]}}`, namespaces in §4.1 order, rows in key order.
    public var tree: CBOR {
        .object([("namespaces", .object(Namespace.allCases.compactMap { ns in
            namespaces[ns].map { (ns.rawValue, CBOR.array($0.map(SnapshotRowCodec.tree))) }
        }))])
    }

    /// Parses the vector form, rows read as §4 vector input (`input_*` codes).
    static func parse(_ json: JSONValue, path: String) throws(WireError) -> SyncSnapshot {
        let nsObj = try Input.member(json, "namespaces", path: path)
        let base = path.isEmpty ? "namespaces" : "\(path).namespaces"
        guard let members = nsObj.objectValue else {
            throw WireError(.inputBadType, "expected an object of namespaces", field: base)
        }
        var rows: [Namespace: [Row]] = [:]
        for (name, list) in members {
            guard let ns = Namespace(rawValue: name) else { throw WireError(.unknownNamespace, "no namespace \(name)", field: "\(base).\(name)") }
            guard rows[ns] == nil else { throw WireError(.inputBadValue, "namespace \(name) given twice", field: "\(base).\(name)") }
            rows[ns] = try StateDigestHandler.rows(list, namespace: ns, path: "\(base).\(name)")
        }
        return try SyncSnapshot(rows)
    }

    // MARK: import

    /// Insert-if-absent (SPEC.md §7.7): a row whose key the store already holds in that namespace
    /// is skipped, whatever its content; calendar-derived memory events (§4.5) are never inserted,
    /// as on reconcile apply. A tombstoned settings key is a row like any other: it carries the
    /// deletion, so it is inserted when absent. Returns
    /// the number of rows inserted. Importing the same snapshot again inserts nothing, which is
    /// what makes the whole exchange safe to retry.
    @discardableResult
    public mutating func importing(_ snapshot: SyncSnapshot) -> Int {
        var inserted = 0
        for ns in Namespace.allCases {
            guard let incoming = snapshot.namespaces[ns] else { continue }
            var rows = namespaces[ns] ?? []
            var held = Set(rows.map(\.keyBytes))
            if Mutant.on(.syncImportOverwrites) {
                for row in incoming where !Self.isCalendarEvent(row) {
                    rows.removeAll { $0.keyBytes == row.keyBytes }
                    rows.append(row)
                    inserted += held.insert(row.keyBytes).inserted ? 1 : 0
                }
            }
            for row in incoming where !Mutant.on(.syncImportOverwrites) && !Self.isCalendarEvent(row) && !held.contains(row.keyBytes) {
                rows.append(row)
                held.insert(row.keyBytes)
                inserted += 1
            }
            rows.sort { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
            if !rows.isEmpty { namespaces[ns] = rows }
        }
        return inserted
    }

    static func isCalendarEvent(_ row: Row) -> Bool {
        row.namespace == .memory && LeafEncoder.isDropped(row)
    }
}

import Primitives

/// A provider API key the P2P export carries (SPEC.md §7.4 `provider_keys`): "provider API keys ride
/// the same-account E2EE channel so the new device's agent works without re-entry".
public struct ProviderKey: Sendable, Hashable {
    public var name: String
    public var key: String

    public init(name: String, key: String) {
        self.name = name
        self.key = key
    }

    // By UTF-8 bytes: two spellings of one name are two providers (SPEC.md §2.2 rule 5).
    public static func == (a: ProviderKey, b: ProviderKey) -> Bool {
        a.name.utf8.elementsEqual(b.name.utf8) && a.key.utf8.elementsEqual(b.key.utf8)
    }

    public func hash(into h: inout Hasher) {
        h.combine(Array(name.utf8))
        h.combine(Array(key.utf8))
    }
}

/// The snapshot payload inside a sync blob (SPEC.md §7.4): the account's current fold, as rows of
/// the §4 namespaces, plus the provider keys. There is no operation log to replay; this is all
/// that was ever kept.
///
/// One store has exactly one encoding: namespaces with no rows are left out, rows are in key
/// order with distinct keys, text sets are normalised, provider keys sorted by name and left out
/// when there are none. Two exports of one store are byte-equal, which is what lets a vector pin
/// the blob.
public struct SyncSnapshot: Sendable, Hashable {
    public static let version: UInt64 = 1
    /// The mime type the blob is uploaded under; blob-svc gives it the `syncMaxBlobBytes` ceiling.
    public static let mimeType = "application/x-pixie-sync"

    /// Rows per namespace, each list in key order with distinct keys, no empty lists.
    public private(set) var namespaces: [Namespace: [SnapshotRow]]
    /// Sorted by the name's UTF-8 bytes, one key per name.
    public private(set) var providerKeys: [ProviderKey]

    /// Builds the canonical snapshot: sorts each namespace by key, drops empty ones. Two rows with
    /// one key in a namespace: `duplicate_key`.
    public init(_ rows: [Namespace: [SnapshotRow]], providerKeys: [ProviderKey] = []) throws(WireError) {
        var out: [Namespace: [SnapshotRow]] = [:]
        for (ns, list) in rows where !list.isEmpty {
            let sorted = list.map(SnapshotRowCodec.canonical).sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
            for i in sorted.indices.dropFirst() where sorted[i].keyBytes == sorted[i - 1].keyBytes {
                throw WireError(.duplicateKey, "key \(Hex.encode(sorted[i].keyBytes)) appears twice", field: "namespaces.\(ns.rawValue)")
            }
            out[ns] = sorted
        }
        namespaces = out
        self.providerKeys = Self.sortedKeys(providerKeys)
    }

    /// A snapshot of plain §4 rows (no snapshot fields).
    public init(rows: [Namespace: [Row]], providerKeys: [ProviderKey] = []) throws(WireError) {
        try self.init(rows.mapValues { $0.map { SnapshotRow($0) } }, providerKeys: providerKeys)
    }

    static func sortedKeys(_ keys: [ProviderKey]) -> [ProviderKey] {
        var seen = Set<[UInt8]>()
        return keys.filter { seen.insert(Array($0.name.utf8)).inserted }
            .sorted { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
    }

    public var rowCount: Int { namespaces.values.reduce(0) { $0 + $1.count } }

    // MARK: wire form

    public var cbor: CBOR {
        var top: [(String, CBOR)] = [("version", .unsigned(Self.version)),
                                     ("namespaces", .object(Namespace.allCases.compactMap { ns in
                                         namespaces[ns].map { (ns.rawValue, CBOR.array($0.map { SnapshotRowCodec.tree($0, wire: true) })) }
                                     }))]
        if !providerKeys.isEmpty {
            top.append(("provider_keys", .object(providerKeys.map { ($0.name, CBOR.text($0.key)) })))
        }
        return .object(top)
    }

    public var encoded: [UInt8] { CBORWriter.encode(cbor) }

    /// SPEC.md §7.4 decoding, steps 1–9 in order, the first failure reported.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SyncSnapshot {
        let item = try CBORReader.decode(bytes)
        guard case .map(var entries) = item else { throw WireError(.syncBadType, "a snapshot is a CBOR map", field: "(top level)") }
        if Mutant.on(.syncNullMemberAbsent) { entries.removeAll { $0.value == .null } }
        // 2. text keys, then 3. no member outside the three.
        var members: [String: CBOR] = [:]
        var names: [String] = []
        for e in entries {
            guard case .text(let k) = e.key else { throw WireError(.syncBadType, "map keys must be text strings", field: "(top level)") }
            names.append(k)
            members[k] = e.value
        }
        for k in names where !["version", "namespaces", "provider_keys"].contains(k) && !Mutant.on(.syncTolerateUnknownMembers) {
            throw WireError(.syncUnknownField, "no member \(k) in a snapshot", field: k)
        }
        // 4. version
        guard let v = members["version"] else { throw WireError(.syncMissingField, "missing version", field: "version") }
        guard case .unsigned(let n) = v else { throw WireError(.syncBadType, "version must be an unsigned integer", field: "version") }
        guard n == version else { throw WireError(.syncUnsupportedVersion, "snapshot version \(n), this reader knows 1", field: "version") }
        // 5–8. namespaces, one completely before the next ([R7.4-16]).
        guard let nsItem = members["namespaces"] else { throw WireError(.syncMissingField, "missing namespaces", field: "namespaces") }
        guard case .map(let nsEntries) = nsItem else { throw WireError(.syncBadType, "namespaces must be a map", field: "namespaces") }
        var out: [Namespace: [SnapshotRow]] = [:]
        func entry(_ e: CBORMapEntry) throws(WireError) -> (Namespace, [CBOR]) {
            guard case .text(let name) = e.key else { throw WireError(.syncBadType, "namespace names are text strings", field: "namespaces") }
            guard let ns = Namespace(rawValue: name) else { throw WireError(.unknownNamespace, "no namespace \(name)", field: "namespaces.\(name)") }
            guard case .array(let items) = e.value else { throw WireError(.syncBadType, "rows must be an array", field: "namespaces.\(name)") }
            guard !items.isEmpty else { throw WireError(.syncBadValue, "a namespace without rows is left out, not written empty", field: "namespaces.\(name)") }
            return (ns, items)
        }
        if Mutant.on(.syncNamespaceKeysBeforeRows) {
            var all: [(Namespace, [CBOR])] = []
            for e in nsEntries { all.append(try entry(e)) }
            for (ns, items) in all { out[ns] = try rows(items, ns) }
        } else {
            for e in nsEntries {
                let (ns, items) = try entry(e)
                out[ns] = try rows(items, ns)
            }
        }
        // 9. provider_keys
        var keys: [ProviderKey] = []
        if let pk = members["provider_keys"] {
            guard case .map(let pkEntries) = pk else { throw WireError(.syncBadType, "provider_keys must be a map", field: "provider_keys") }
            guard !pkEntries.isEmpty else { throw WireError(.syncBadValue, "provider_keys without entries is left out, not written empty", field: "provider_keys") }
            for e in pkEntries {
                guard case .text(let name) = e.key, case .text(let key) = e.value else {
                    throw WireError(.syncBadType, "provider_keys maps text to text", field: "provider_keys")
                }
                keys.append(ProviderKey(name: name, key: key))
            }
        }
        var s = try SyncSnapshot([:])
        s.namespaces = out
        s.providerKeys = sortedKeys(keys)
        return s
    }

    /// Steps 7–8 for one namespace's array: each row, then its key against the previous one.
    static func rows(_ items: [CBOR], _ ns: Namespace) throws(WireError) -> [SnapshotRow] {
        let path = "namespaces.\(ns.rawValue)"
        var rows: [SnapshotRow] = []
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
        return rows
    }

    // MARK: vector form

    /// `{namespaces: {name: [ROW…]}, provider_keys?}`: namespaces in §4.1 order, rows in key order,
    /// provider keys by name (SPEC.md §7.9 [R7.9-10]).
    public var tree: CBOR {
        var top: [(String, CBOR)] = [("namespaces", .object(Namespace.allCases.compactMap { ns in
            namespaces[ns].map { (ns.rawValue, CBOR.array($0.map { SnapshotRowCodec.tree($0) })) }
        }))]
        if !providerKeys.isEmpty { top.append(("provider_keys", .object(providerKeys.map { ($0.name, CBOR.text($0.key)) }))) }
        return .object(top)
    }

    /// Parses the vector form (SPEC.md §7.9 [R7.9-6]–[R7.9-9]): namespace names first, then the
    /// namespaces in §4.1 order whatever the JSON member order, rows as §4 vector input.
    static func parse(_ json: JSONValue, path: String) throws(WireError) -> SyncSnapshot {
        let nsObj = try Input.member(json, "namespaces", path: path)
        let base = Input.join(path, "namespaces")
        let members = try Input.object(nsObj, path: base)
        var rows: [Namespace: [SnapshotRow]] = [:]
        func read(_ name: String, _ list: JSONValue) throws(WireError) {
            guard let ns = Namespace(rawValue: name) else { throw WireError(.unknownNamespace, "no namespace \(name)", field: "\(base).\(name)") }
            guard rows[ns] == nil else { throw WireError(.inputBadValue, "namespace \(name) given twice", field: "\(base).\(name)") }
            let items = try Input.array(list, path: "\(base).\(name)")
            var out: [SnapshotRow] = []
            for (i, item) in items.enumerated() { out.append(try SnapshotRowCodec.parse(item, namespace: ns, path: "\(base).\(name)[\(i)]")) }
            rows[ns] = out
        }
        if Mutant.on(.syncSnapshotInputJSONOrder) {
            for (name, list) in members { try read(name, list) }
        } else {
            for (name, _) in members where Namespace(rawValue: name) == nil {
                throw WireError(.unknownNamespace, "no namespace \(name)", field: "\(base).\(name)")
            }
            for ns in Namespace.allCases {
                for (name, list) in members where name == ns.rawValue { try read(name, list) }
            }
        }
        var keys: [ProviderKey] = []
        if let pk = try SyncOfferHandler.optional(json, "provider_keys", path: path) {
            let pkPath = Input.join(path, "provider_keys")
            for (name, v) in try Input.object(pk, path: pkPath) {
                keys.append(ProviderKey(name: name, key: try Input.text(v, path: "\(pkPath).\(name)")))
            }
        }
        return try SyncSnapshot(rows, providerKeys: keys)
    }

    // MARK: import

    /// The §4.4 excluded fields import keeps (SPEC.md §7.7 [R7.7-3]): merge metadata and residency,
    /// not readings of the exporting device.
    static let keptExcluded: [Namespace: Set<String>] = [
        .settings: ["versionVector", "tombstoned"],
        .notebook: ["bodyOffloaded", "offloadHolderPubkey", "contentHash"],
    ]

    /// An incoming row as import inserts it: every per-device field left out.
    static func stripped(_ r: SnapshotRow) -> SnapshotRow {
        if Mutant.on(.syncImportKeepsPerDevice) { return r }
        var c = r
        let keep = Mutant.on(.syncImportStripsAllExcluded) ? [] : keptExcluded[r.namespace] ?? []
        for (i, f) in r.row.schema.fields.enumerated() where !f.isCommitted && !keep.contains(f.name) { c.row.values[i] = nil }
        return c
    }

    /// Insert-if-absent (SPEC.md §7.7): a row whose key the store already holds in that namespace
    /// is skipped, whatever its content; calendar-derived memory events (§4.5) are never inserted;
    /// an inserted row loses its per-device fields; provider keys are inserted the same way.
    /// Returns the number of rows inserted. Importing the same snapshot again inserts nothing, which
    /// is what makes the whole exchange safe to retry.
    @discardableResult
    public mutating func importing(_ snapshot: SyncSnapshot) -> Int {
        var inserted = 0
        let overwrite = Mutant.on(.syncImportOverwrites)
        for ns in Namespace.allCases {
            guard let incoming = snapshot.namespaces[ns] else { continue }
            var rows = namespaces[ns] ?? []
            var held = Set(rows.map(\.keyBytes))
            for row in incoming where !Self.isCalendarEvent(row.row) {
                if held.contains(row.keyBytes) {
                    guard overwrite else { continue }
                    rows.removeAll { $0.keyBytes == row.keyBytes }
                    rows.append(Self.stripped(row))
                    continue
                }
                rows.append(Self.stripped(row))
                held.insert(row.keyBytes)
                inserted += 1
            }
            rows.sort { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
            if !rows.isEmpty { namespaces[ns] = rows }
        }
        var names = Set(providerKeys.map { Array($0.name.utf8) })
        for k in snapshot.providerKeys {
            if names.contains(Array(k.name.utf8)) {
                guard overwrite else { continue }
                providerKeys.removeAll { $0.name.utf8.elementsEqual(k.name.utf8) }
            }
            providerKeys.append(k)
            names.insert(Array(k.name.utf8))
        }
        providerKeys = Self.sortedKeys(providerKeys)
        return inserted
    }

    static func isCalendarEvent(_ row: Row) -> Bool {
        row.namespace == .memory && LeafEncoder.isDropped(row)
    }
}

import Primitives

/// StateDigest v6: one version byte followed by the thirteen namespace roots in `Namespace` order,
/// 417 bytes in all. Two devices compare digests root by root to find the namespaces to reconcile.
public struct StateDigest: Sendable, Hashable {
    /// The leaf-encoding version. Any change to a leaf, root or this layout bumps it; a digest of
    /// another version is rejected, so a fleet spanning an encoding change degrades to "no
    /// reconcile" instead of a false repair.
    public static let wireVersion: UInt8 = 6
    public static let encodedByteCount = 1 + 13 * 32

    /// Roots in `Namespace.allCases` order.
    public var roots: [SHA256Digest]

    public init(roots: [SHA256Digest]) {
        precondition(roots.count == Namespace.allCases.count)
        self.roots = roots
    }

    public subscript(ns: Namespace) -> SHA256Digest { roots[ns.rawValueIndex] }

    public func encoded() -> [UInt8] {
        var out: [UInt8] = [StateDigest.wireVersion]
        out.reserveCapacity(StateDigest.encodedByteCount)
        for r in roots { out.append(contentsOf: r.bytes) }
        return out
    }

    /// Decodes 417 bytes (SPEC §4.8). The version byte is read first: a digest of another version
    /// is version skew whatever its length (the namespace count, and so the length, changed once
    /// already), then the length.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> StateDigest {
        func wrongLength() -> WireError {
            WireError(.digestWrongLength, "a StateDigest is \(encodedByteCount) bytes, got \(bytes.count)", offset: min(bytes.count, encodedByteCount))
        }
        let lengthOK = bytes.count == encodedByteCount || (Mutant.on(.decodeIgnoresTrailingBytes) && bytes.count > encodedByteCount)
        if Mutant.on(.digestLengthBeforeVersion) && !lengthOK { throw wrongLength() }
        guard let version = bytes.first else { throw wrongLength() }
        guard version == wireVersion || Mutant.on(.decodeIgnoresVersion) else {
            throw WireError(.digestUnsupportedVersion, "version \(version) is not \(wireVersion): no reconcile", offset: 0)
        }
        guard lengthOK else { throw wrongLength() }
        var roots: [SHA256Digest] = []
        for i in 0..<13 {
            roots.append(SHA256Digest(bytes: bytes[(1 + 32 * i)..<(33 + 32 * i)])!)
        }
        return StateDigest(roots: roots)
    }

    /// The namespaces whose roots differ, in digest order.
    public func divergentNamespaces(from other: StateDigest) -> [Namespace] {
        Namespace.allCases.filter { self[$0] != other[$0] }
    }
}

/// Computing roots from rows.
public enum StateRoots {
    /// The settings root: SHA-256("pixie.state.settings" || 0x00 || CBOR map {key: value}) over the
    /// live (non-tombstoned) keys. Settings is one flat dictionary, too small for a tree, so it has
    /// no per-row leaves; version vectors and tombstoned keys stay out.
    public static func settingsRoot(_ rows: [Row]) throws(WireError) -> (root: SHA256Digest, count: Int) {
        var live: [(key: String, value: String)] = []
        var keys = Set<TextKey>()
        var swiftKeys = Set<String>()
        for row in rows {
            guard case .text(let k)? = row["key"], case .text(let v)? = row["value"] else {
                throw WireError(.inputMissingField, "settings rows need key and value", field: "key")
            }
            // Keys are distinct by UTF-8 bytes: an NFC and an NFD spelling are two keys (SPEC §4.7).
            let repeated = Mutant.on(.settingsKeysCanonicalEqual) ? !swiftKeys.insert(k).inserted : !keys.insert(TextKey(k)).inserted
            guard !repeated else {
                throw WireError(.duplicateKey, "settings key \(k) appears twice", field: "key")
            }
            if !LeafEncoder.isDropped(row) {
                if Mutant.on(.settingsVersionVectorHashed), case .versionVector(let vv)? = row["versionVector"] {
                    live.append((k, v + CBORDiagnostic.render(FieldValue.versionVector(vv).tree)))
                } else {
                    live.append((k, v))
                }
            }
        }
        var w = CBORWriter()
        if Mutant.on(.settingsMapInsertionOrder) {
            w.writeMapHeader(live.count)
            for (k, v) in live { w.writeText(k); w.writeText(v) }
        } else if Mutant.on(.settingsKeysUTF16Order) {
            // Length-first like the canonical rule, then UTF-16 code units instead of bytes.
            let sorted = live.sorted { $0.key.utf8.count != $1.key.utf8.count ? $0.key.utf8.count < $1.key.utf8.count : MutantText.utf16Precedes($0.key, $1.key) }
            w.writeMapHeader(sorted.count)
            for (k, v) in sorted { w.writeText(k); w.writeText(v) }
        } else {
            w.write(.map(live.map { CBORMapEntry(key: .text($0.key), value: .text($0.value)) }))
        }
        let root = SHA256.hash(Namespace.settings.separatorBytes + w.bytes)
        return (root, live.count)
    }

    /// A namespace's root and the number of leaves it folded. Rows are already read (§4.3); then
    /// repeated keys (dropped rows included), then leaves (SPEC §4.7, R4.7-5).
    public static func root(_ ns: Namespace, rows: [Row]) throws(WireError) -> (root: SHA256Digest, count: Int) {
        if ns == .settings { return try settingsRoot(rows) }
        var enc = LeafEncoder()
        if Mutant.on(.rootLeavesBeforeDuplicates) {
            for row in rows where !LeafEncoder.isDropped(row) { _ = try enc.leaf(row) }
        }
        var keyed: [(key: [UInt8], leaf: SHA256Digest)] = []
        keyed.reserveCapacity(rows.count)
        var firstLeafError: WireError?
        var hasDropped = false
        for row in rows {
            if LeafEncoder.isDropped(row) { hasDropped = true; continue }
            do { keyed.append((row.keyBytes, try enc.leaf(row))) } catch {
                // Reported only after the repeated-key check, which comes first.
                if firstLeafError == nil { firstLeafError = error }
                keyed.append((row.keyBytes, SHA256Digest(0, 0, 0, 0)))
            }
        }
        // Repeated keys among dropped rows too: only a store that holds any needs the extra set.
        if hasDropped {
            var seen = Set<[UInt8]>()
            for row in rows where !seen.insert(row.keyBytes).inserted {
                throw WireError(.duplicateKey, "key \(Hex.encode(row.keyBytes)) appears twice in \(ns.rawValue)", field: "rows")
            }
        }
        keyed.sort { ByteOrder.precedes($0.key, $1.key) }
        for i in keyed.indices.dropFirst() where keyed[i].key == keyed[i - 1].key {
            throw WireError(.duplicateKey, "key \(Hex.encode(keyed[i].key)) appears twice in \(ns.rawValue)", field: "rows")
        }
        if let firstLeafError { throw firstLeafError }
        return (MerkleTree.fold(keyed.map(\.leaf)) ?? MerkleTree.emptyRoot(ns), keyed.count)
    }

    /// The digest of a whole store; a namespace with no rows gets its empty root.
    public static func digest(_ store: [Namespace: [Row]]) throws(WireError) -> StateDigest {
        var roots: [SHA256Digest] = []
        for ns in Namespace.allCases {
            roots.append(try root(ns, rows: store[ns] ?? []).root)
        }
        return StateDigest(roots: roots)
    }
}

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

    /// Decodes 417 bytes. The length is checked first (`digest_wrong_length`), then the version
    /// (`digest_unsupported_version`), so a truncated digest is never mistaken for a skewed one.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> StateDigest {
        guard bytes.count == encodedByteCount || (Mutant.on(.decodeIgnoresTrailingBytes) && bytes.count > encodedByteCount) else {
            throw WireError(.digestWrongLength, "a StateDigest is \(encodedByteCount) bytes, got \(bytes.count)", offset: min(bytes.count, encodedByteCount))
        }
        guard bytes[0] == wireVersion || Mutant.on(.decodeIgnoresVersion) else {
            throw WireError(.digestUnsupportedVersion, "version \(bytes[0]) is not \(wireVersion): no reconcile", offset: 0)
        }
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
        var live: [(String, String)] = []
        var keys = Set<String>()
        for row in rows {
            guard case .text(let k)? = row["key"], case .text(let v)? = row["value"] else {
                throw WireError(.inputMissingField, "settings rows need key and value", field: "key")
            }
            guard keys.insert(k).inserted else {
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
        } else {
            w.write(.map(live.map { (CBOR.text($0.0), CBOR.text($0.1)) }))
        }
        let root = SHA256.hash(Namespace.settings.separatorBytes + w.bytes)
        return (root, live.count)
    }

    /// A namespace's root and the number of leaves it folded.
    public static func root(_ ns: Namespace, rows: [Row]) throws(WireError) -> (root: SHA256Digest, count: Int) {
        if ns == .settings { return try settingsRoot(rows) }
        var enc = LeafEncoder()
        var keyed: [(key: [UInt8], leaf: SHA256Digest)] = []
        keyed.reserveCapacity(rows.count)
        for row in rows where !LeafEncoder.isDropped(row) {
            keyed.append((row.keyBytes, try enc.leaf(row)))
        }
        return (try MerkleTree.root(namespace: ns, keyedLeaves: keyed), keyed.count)
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

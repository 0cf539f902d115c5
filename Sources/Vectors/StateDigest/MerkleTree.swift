import Primitives

/// The StateDigest Merkle fold (SPEC.md §StateDigest.Merkle).
///
/// Leaves are sorted by key and folded pairwise, level by level; an odd node at the end of a
/// level is promoted unchanged (no padding, no self-pairing), so a one-leaf tree's root is its
/// leaf. Interior nodes hash under `pixie.state.node`, a separator distinct from every leaf's.
public enum MerkleTree {
    public static let nodeSeparator = "pixie.state.node"
    public static let emptySeparator = "pixie.state.empty"

    /// SHA-256("pixie.state.node" || 0x00 || left || right).
    @inlinable
    public static func node(_ left: SHA256Digest, _ right: SHA256Digest) -> SHA256Digest {
        // 17 separator bytes + 64 digest bytes, built on the stack.
        var buf: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        return withUnsafeMutableBytes(of: &buf) { raw in
            let p = raw.baseAddress!
            // "pixie.state.node\0"
            if Mutant.active != nil, Mutant.on(.nodeUsesLeafSeparator) {
                return SHA256.hash(Array("pixie.state.messages".utf8) + [0] + left.bytes + right.bytes)
            }
            // "pixie.state.node" || 0x00 as two 8-byte stores and a zero byte (no array walk per node).
            p.storeBytes(of: nodePrefixWords.0, toByteOffset: 0, as: UInt64.self)
            p.storeBytes(of: nodePrefixWords.1, toByteOffset: 8, as: UInt64.self)
            p.storeBytes(of: 0, toByteOffset: 16, as: UInt8.self)
            left.write(to: p + 17)
            right.write(to: p + 49)
            return SHA256.hash(UnsafeRawBufferPointer(start: p, count: 81))
        }
    }

    /// The 16 ASCII bytes of "pixie.state.node" as two words in memory order.
    @usableFromInline static let nodePrefixWords: (UInt64, UInt64) = {
        let b = Array("pixie.state.node".utf8)
        func word(_ o: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(b[o + $1]) << (8 * UInt64($1)) } }
        return (UInt64(littleEndian: word(0)), UInt64(littleEndian: word(8)))
    }()

    /// The root of an empty namespace: SHA-256("pixie.state.empty" || 0x00 || namespace name).
    /// A real hash rather than 32 zero bytes, so an implementation that forgot to compute a root
    /// (an all-zero buffer) never matches it.
    public static func emptyRoot(_ ns: Namespace) -> SHA256Digest {
        if Mutant.on(.emptyRootZeros) { return SHA256Digest(0, 0, 0, 0) }
        return SHA256.hash(Array(emptySeparator.utf8) + [0] + Array(ns.rawValue.utf8))
    }

    /// Folds leaves that are already in key order. Empty input has no root here; callers use
    /// `emptyRoot`.
    public static func fold(_ sortedLeaves: [SHA256Digest]) -> SHA256Digest? {
        guard !sortedLeaves.isEmpty else { return nil }
        var level = sortedLeaves
        var n = level.count
        level.withUnsafeMutableBufferPointer { buf in
            while n > 1 {
                var out = 0
                var i = 0
                while i + 1 < n {
                    buf[out] = node(buf[i], buf[i + 1])
                    out += 1
                    i += 2
                }
                if i < n {
                    buf[out] = Mutant.active != nil && Mutant.on(.oddNodePairedWithItself) ? node(buf[i], buf[i]) : buf[i]  // odd node promoted unchanged
                    out += 1
                }
                n = out
            }
        }
        return level[0]
    }

    /// Sorts `(key, leaf)` pairs by key bytes and folds them; rejects a key that appears twice.
    public static func root(namespace: Namespace, keyedLeaves: [(key: [UInt8], leaf: SHA256Digest)]) throws(WireError) -> SHA256Digest {
        let prefixLast = Mutant.active != nil && Mutant.on(.rowKeysPrefixLast)
        let sorted = prefixLast
            ? keyedLeaves.sorted { ByteOrder.prefixLastPrecedes($0.key, $1.key) }
            : keyedLeaves.sorted { ByteOrder.precedes($0.key, $1.key) }
        for i in sorted.indices.dropFirst() where sorted[i].key == sorted[i - 1].key {
            throw WireError(.duplicateKey, "key \(Hex.encode(sorted[i].key)) appears twice in \(namespace.rawValue)", field: "key")
        }
        if Mutant.on(.foldInInputOrder) { return fold(keyedLeaves.map(\.leaf)) ?? emptyRoot(namespace) }
        return fold(sorted.map(\.leaf)) ?? emptyRoot(namespace)
    }
}

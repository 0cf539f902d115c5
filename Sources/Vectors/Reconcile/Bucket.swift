import Primitives

/// One key range of a `reconcile_req`: the half-open range `[lo, hi)` of sort keys, the Merkle
/// root over the requester's leaves in it, and how many leaves that is.
///
/// `lo` empty means unbounded below (the empty byte string sorts before every key); `hi` nil means
/// unbounded above. The count makes the comparison structural: a one-leaf range's root is the leaf
/// itself, so without it a lone leaf could stand in for a two-leaf node.
public struct Bucket: Sendable, Hashable {
    public var lo: [UInt8]
    public var hi: [UInt8]?
    public var root: SHA256Digest
    /// Any value 0 … 2^64 − 1 decodes (SPEC §5.3 step 4); a bucketizer never writes more than n.
    public var count: UInt64

    public init(lo: [UInt8], hi: [UInt8]?, root: SHA256Digest, count: UInt64) {
        self.lo = lo
        self.hi = hi
        self.root = root
        self.count = count
    }

    /// Whether `key` falls in `[lo, hi)`.
    public func contains(_ key: [UInt8]) -> Bool {
        let precedes = Self.keyOrder
        guard !precedes(key, lo) else { return false }
        if let hi { return precedes(key, hi) || (Mutant.on(.closedUpperBound) && key == hi) }
        return true
    }

    /// §5.1's key order (R5.1-1): bytewise, a proper prefix first, the empty key before every
    /// other. The one seam for the mutant that breaks the prefix tie the other way; read it once
    /// per sort, not per comparison.
    static var keyOrder: ([UInt8], [UInt8]) -> Bool {
        if Mutant.on(.keysPrefixLast) { return { ByteOrder.prefixLastPrecedes($0, $1) } }
        return { ByteOrder.precedes($0, $1) }
    }

    var tree: CBOR {
        var members: [(String, CBOR)] = [("lo", .bytes(lo))]
        if let hi { members.append(("hi", .bytes(hi))) }
        members.append(("root", .bytes(root.bytes)))
        members.append(("count", .unsigned(count)))
        return .object(members)
    }
}

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
    public var count: Int

    public init(lo: [UInt8], hi: [UInt8]?, root: SHA256Digest, count: Int) {
        self.lo = lo
        self.hi = hi
        self.root = root
        self.count = count
    }

    /// Whether `key` falls in `[lo, hi)`.
    public func contains(_ key: [UInt8]) -> Bool {
        guard !key.lexicographicallyPrecedes(lo) else { return false }
        if let hi { return key.lexicographicallyPrecedes(hi) || (Mutant.on(.closedUpperBound) && key == hi) }
        return true
    }

    var tree: CBOR {
        var members: [(String, CBOR)] = [("lo", .bytes(lo))]
        if let hi { members.append(("hi", .bytes(hi))) }
        members.append(("root", .bytes(root.bytes)))
        members.append(("count", .unsigned(UInt64(count))))
        return .object(members)
    }
}

/// One last-write-wins register (SPEC.md §11.2): the stamp of the write that set it and its value,
/// or no value for a tombstone. An empty value is a value, not a tombstone.
public struct Register: Hashable, Sendable {
    public let stamp: Stamp
    /// nil: the key was removed (a tombstone, kept so an older write cannot bring it back).
    public let value: [UInt8]?

    public init(stamp: Stamp, value: [UInt8]?) {
        self.stamp = stamp
        self.value = value
    }

    public var isTombstone: Bool { value == nil }

    /// Whether `self` replaces `other` in a merge ([R11.4-1], [R11.4-2]): a strictly later stamp
    /// wins; on equal stamps the greater content wins, where any value is greater than a tombstone
    /// and two values compare by their bytes. Equal registers do not replace each other.
    public func beats(_ other: Register) -> Bool {
        if stamp != other.stamp { return stamp.isAfter(other.stamp) }
        if Mutant.on(.accountMergeTieKeepsLocal) { return false }
        switch (value, other.value) {
        case (nil, _): return false
        case (.some, nil): return true
        case (.some(let a), .some(let b)): return b.lexicographicallyPrecedes(a)
        }
    }
}

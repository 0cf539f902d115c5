/// A last-write-wins stamp (SPEC.md §11.3): the writing device's wall-clock milliseconds and its
/// 32-byte device id. Stamps order by `ts`, then by the device id's bytes, so two writes in the
/// same millisecond by different devices are ordered the same way on every replica.
public struct Stamp: Hashable, Sendable {
    public static let deviceByteCount = 32

    public let ts: UInt64
    public let device: [UInt8]

    public init(ts: UInt64, device: [UInt8]) {
        precondition(device.count == Stamp.deviceByteCount, "a stamp's device id is 32 bytes")
        self.ts = ts
        self.device = device
    }

    /// Strictly after `other` in (ts, device) order ([R11.3-1]). The seam of the tie and `>=`
    /// mutants.
    public func isAfter(_ other: Stamp) -> Bool {
        if ts != other.ts { return ts > other.ts }
        if Mutant.on(.accountTieLowerDeviceWins) { return device.lexicographicallyPrecedes(other.device) }
        if Mutant.on(.accountEqualStampApplies) && device == other.device { return true }
        return other.device.lexicographicallyPrecedes(device)
    }
}

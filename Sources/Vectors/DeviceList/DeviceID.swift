import Primitives

/// A 32-byte node id: an identity's Ed25519 public key. Devices and accounts are both named by
/// one; the device list's sets hold them, and the merge sorts them by their bytes.
public struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Nil unless exactly 32 bytes.
    public init?(_ bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        self.bytes = bytes
    }

    /// For callers that already took exactly 32 bytes.
    init(unchecked bytes: [UInt8]) { self.bytes = bytes }

    /// Bytewise lexicographic order: the order `merge` writes its sets in (Rust's `sort_unstable`
    /// on `[u8; 32]` in the Haven implementation is the same order).
    public static func < (a: DeviceID, b: DeviceID) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }
}

import Primitives

/// `--shard K/N` (K in 1...N): a case belongs to shard K when the first 8 bytes of SHA-256(id),
/// big-endian, are congruent to K-1 mod N. Hashing the id, not its position, keeps every case in
/// its shard when vectors are added.
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`.
    public init?(_ text: String) {
        let p = text.split(separator: "/", omittingEmptySubsequences: false)
        guard p.count == 2, let k = Int(p[0]), let n = Int(p[1]) else { return nil }
        self.init(index: k, count: n)
    }

    public var description: String { "\(index)/\(count)" }

    public static func bucket(of id: String, count: Int) -> Int {
        Int(SHA256.hash(Array(id.utf8)).w0 % UInt64(count))
    }

    public func contains(_ id: String) -> Bool { Shard.bucket(of: id, count: count) == index - 1 }
}

import Primitives
import Vectors

/// The fuzzer's only source of randomness: SplitMix64 (the suite's `SeededGenerator`) with its own
/// draws, so an input depends on nothing but the seed, the suite version, the format, the op and the
/// case number. Swift's `random(in:using:)` and `shuffled(using:)` are not used: their algorithms
/// may change between toolchains, and a seed must give the same inputs wherever it is replayed.
public struct FuzzRNG: Sendable {
    var g: SeededGenerator

    public init(seed: UInt64) { g = SeededGenerator(seed: seed) }

    /// The generator of case `n` of `format`/`op` under the run's seed: SHA-256 of a label, the seed,
    /// the suite version and the case's coordinates, first 8 bytes big-endian.
    public init(seed: UInt64, format: String, op: String, n: Int) {
        var m = Array("pixie.fuzz.case".utf8) + [0]
        for i in (0..<8).reversed() { m.append(UInt8(truncatingIfNeeded: seed >> (UInt64(i) * 8))) }
        m += Array(SuiteInfo.version.utf8) + [0] + Array(format.utf8) + [0] + Array(op.utf8) + [0] + Array(String(n).utf8)
        let h = SHA256.hash(m).bytes
        var s: UInt64 = 0
        for b in h.prefix(8) { s = s << 8 | UInt64(b) }
        g = SeededGenerator(seed: s)
    }

    public mutating func next() -> UInt64 { g.next() }

    /// Uniform in 0..<n (n ≥ 1), by multiply-shift (Lemire's method without the rejection step; the
    /// bias is below 2^-40 for every n used here).
    public mutating func below(_ n: Int) -> Int {
        precondition(n > 0)
        return Int((UInt128(next()) &* UInt128(UInt64(n))) >> 64)
    }

    /// Uniform in the closed range.
    public mutating func int(_ r: ClosedRange<Int>) -> Int { r.lowerBound + below(r.upperBound - r.lowerBound + 1) }

    /// True once in `n` draws.
    public mutating func oneIn(_ n: Int) -> Bool { below(n) == 0 }

    /// True with probability `percent` / 100.
    public mutating func percent(_ p: Int) -> Bool { below(100) < p }

    public mutating func bool() -> Bool { next() & 1 == 1 }

    public mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    public mutating func bytes(_ n: Int) -> [UInt8] { g.bytes(n) }

    /// A length biased toward the small and the edges: 0, 1, 2, then up to `max`.
    public mutating func length(max: Int) -> Int {
        switch below(8) {
        case 0: return 0
        case 1: return 1
        case 2: return min(2, max)
        case 3: return max
        default: return below(Swift.max(1, max) + 1)
        }
    }

    /// The items in a random order (Fisher–Yates on our own draws).
    public mutating func shuffled<T>(_ items: [T]) -> [T] {
        var a = items
        if a.count < 2 { return a }
        for i in stride(from: a.count - 1, to: 0, by: -1) { a.swapAt(i, below(i + 1)) }
        return a
    }
}

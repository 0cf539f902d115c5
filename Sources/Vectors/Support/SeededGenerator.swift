/// SplitMix64: the suite's only source of "randomness". Every generated vector and seeded test draws
/// from one of these with a fixed seed, so `generate` is byte-for-byte repeatable.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    public mutating func bytes(_ n: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(n)
        while out.count < n {
            var w = next()
            for _ in 0..<min(8, n - out.count) {
                out.append(UInt8(truncatingIfNeeded: w))
                w >>= 8
            }
        }
        return out
    }
}

extension MLKEM768 {
    /// Arithmetic in Z_q, q = 3329, on values kept in [0, q), and the Compress/Decompress maps of
    /// FIPS 203 §4.2.1. Every function is branch-free.
    enum Field {
        /// ⌊2^43 / q⌋ for Barrett reduction of any 32-bit value.
        static let barrett: UInt64 = 2_642_262_848
        /// ⌈2^35 / q⌉: (a · m) >> 35 = ⌊a / q⌋ for every a < 2^23 (checked exhaustively by a test).
        static let divider: UInt64 = 10_321_340

        /// r - q when r ≥ q, else r, for r < 2q.
        @inline(__always)
        static func csubq(_ r: UInt32) -> UInt32 {
            let s = r &- q
            return s &+ (q & (0 &- (s >> 31)))
        }

        /// x mod q for any 32-bit x: t = ⌊x·m / 2^43⌋ undershoots ⌊x/q⌋ by at most one (the error
        /// x·(2^43/q - m)/2^43 is below 1), so x - t·q lies in [0, 2q) before the final csubq.
        @inline(__always)
        static func reduce(_ x: UInt32) -> UInt32 {
            let t = UInt32(truncatingIfNeeded: (UInt64(x) &* barrett) >> 43)
            return csubq(x &- t &* q)
        }

        @inline(__always)
        static func add(_ a: UInt32, _ b: UInt32) -> UInt32 { csubq(a &+ b) }

        @inline(__always)
        static func sub(_ a: UInt32, _ b: UInt32) -> UInt32 { csubq(a &+ q &- b) }

        @inline(__always)
        static func mul(_ a: UInt32, _ b: UInt32) -> UInt32 { reduce(a &* b) }

        /// Compress_d(x) = ⌈(2^d / q) · x⌋ mod 2^d for x in [0, q) and d ≤ 11 (FIPS 203 (4.7)).
        /// Rounding half up is ⌊(2^d·x + ⌊q/2⌋) / q⌋ because q is odd; the division is a multiply.
        @inline(__always)
        static func compress(_ x: UInt32, _ d: Int) -> UInt32 {
            let a = UInt64((x << UInt32(d)) &+ (q >> 1))
            return UInt32(truncatingIfNeeded: (a &* divider) >> 35) & ((1 << UInt32(d)) &- 1)
        }

        /// Decompress_d(y) = ⌈(q / 2^d) · y⌋ for y < 2^d (FIPS 203 (4.8)).
        @inline(__always)
        static func decompress(_ y: UInt32, _ d: Int) -> UInt32 {
            (y &* q &+ (1 << UInt32(d - 1))) >> UInt32(d)
        }
    }

    /// Compress_d / Decompress_d on raw values, for the exhaustive tests of the rounding.
    package static func compressForTesting(_ x: UInt32, bits d: Int) -> UInt32 { Field.compress(x, d) }
    package static func decompressForTesting(_ y: UInt32, bits d: Int) -> UInt32 { Field.decompress(y, d) }
    package static func reduceForTesting(_ x: UInt32) -> UInt32 { Field.reduce(x) }
}

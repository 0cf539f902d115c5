extension MLDSA65 {
    /// Arithmetic in Z_q, q = 8380417, on `Int32` values, plus the rounding functions of
    /// FIPS 204 §7.4 (Algorithms 35-40).
    ///
    /// Why: signed 32-bit coefficients with Montgomery multiplication (R = 2^32) keep every
    /// product in one 64-bit multiply and one reduction, and the bounds argued in the NTT
    /// comments keep the wrapping operators (`&+`, `&*`) exact.
    enum Field {
        /// q^-1 mod 2^32.
        static let qInv: Int32 = 58_728_449

        /// a · 2^-32 mod q for |a| < q·2^31; the result lies in (-q, q).
        @inline(__always)
        static func montgomeryReduce(_ a: Int64) -> Int32 {
            let t = Int32(truncatingIfNeeded: a) &* qInv
            return Int32(truncatingIfNeeded: (a &- Int64(t) &* Int64(q)) >> 32)
        }

        /// A representative of a mod q in [-6283008, 6283008] for a ≤ 2^31 - 2^22 - 1. When the
        /// centred representative of a has magnitude below q/2 - 2^22, this is it, which is what
        /// the norm checks rely on (for bounds up to γ1 and γ2).
        @inline(__always)
        static func reduce32(_ a: Int32) -> Int32 {
            let t = (a &+ (1 << 22)) >> 23
            return a &- t &* q
        }

        /// Adds q when a is negative: (-q, q) → [0, q).
        @inline(__always)
        static func caddq(_ a: Int32) -> Int32 {
            a &+ ((a >> 31) & q)
        }

        /// The standard representative in [0, q).
        @inline(__always)
        static func freeze(_ a: Int32) -> Int32 {
            caddq(reduce32(a))
        }

        /// FIPS 204 Algorithm 35 Power2Round for r in [0, q): (r1, r0) with r = r1·2^d + r0 and
        /// r0 in (-2^(d-1), 2^(d-1)].
        @inline(__always)
        static func power2Round(_ r: Int32) -> (high: Int32, low: Int32) {
            let r1 = (r &+ (1 << 12) &- 1) >> 13
            return (r1, r &- (r1 << 13))
        }

        /// FIPS 204 Algorithm 36 Decompose for r in [0, q) and 2γ2 = (q-1)/16: r = r1·2γ2 + r0
        /// with r0 in (-γ2, γ2], except that r1 = 16 is folded to 0 with r0 decreased by 1 (the
        /// r+ - r0 = q - 1 case). r1 is ⌈r/128⌉·1025/2^22 rounded, which equals ⌊(r + γ2 - 1)/2γ2⌋
        /// (mod 16) on [0, q) — the constant-time division of the Dilithium reference code.
        @inline(__always)
        static func decompose(_ r: Int32) -> (high: Int32, low: Int32) {
            var r1 = (r &+ 127) >> 7
            r1 = (r1 &* 1025 &+ (1 << 21)) >> 22
            r1 &= 15
            var r0 = r &- r1 &* (2 * gamma2)
            r0 &-= (((q - 1) / 2 &- r0) >> 31) & q
            return (r1, r0)
        }

        /// FIPS 204 Algorithm 37 HighBits.
        @inline(__always)
        static func highBits(_ r: Int32) -> Int32 { decompose(r).high }

        /// FIPS 204 Algorithm 40 UseHint for r in [0, q), m = (q-1)/(2γ2) = 16.
        @inline(__always)
        static func useHint(_ h: Int32, _ r: Int32) -> Int32 {
            let (r1, r0) = decompose(r)
            if h == 0 { return r1 }
            return r0 > 0 ? (r1 &+ 1) & 15 : (r1 &- 1) & 15
        }

        /// |a| for the infinity norm checks (a centred representative, |a| < 2^31).
        @inline(__always)
        static func magnitude(_ a: Int32) -> Int32 {
            let s = a >> 31
            return (a ^ s) &- s
        }
    }
}

extension Ed25519 {
    /// An integer modulo the group order L = 2^252 + 27742317777372353535851937790883648493
    /// (RFC 8032 §5.1), as five unsigned 52-bit limbs.
    ///
    /// Why Montgomery form: RFC 8032 §5.1.6–§5.1.7 reduce 512-bit SHA-512 outputs mod L and compute
    /// S = (r + k·s) mod L. Montgomery reduction (R = 2^260) does both with only multiplications,
    /// shifts and one masked final subtraction — no data-dependent branch or index, so the secret
    /// nonce r and secret scalar s are handled in constant time. (The same construction as
    /// curve25519-dalek's `Scalar52`; the constants below were recomputed independently.)
    @usableFromInline
    struct Scalar: Sendable {
        var l0: UInt64
        var l1: UInt64
        var l2: UInt64
        var l3: UInt64
        var l4: UInt64

        @inline(__always)
        init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
            self.l0 = l0; self.l1 = l1; self.l2 = l2; self.l3 = l3; self.l4 = l4
        }

        static let mask52: UInt64 = (1 << 52) - 1

        /// L in radix 2^52.
        static let order = Scalar(0x2631a5cf5d3ed, 0xdea2f79cd6581, 0x000000014def9, 0, 0x100000000000)
        /// -L^-1 mod 2^52.
        static let lFactor: UInt64 = 0x51da312547e1b
        /// R = 2^260 mod L.
        static let r = Scalar(0xf48bd6721e6ed, 0x3bab5ac67e45a, 0xfffffeb35e51b, 0xfffffffffffff, 0xfffffffffff)
        /// R² = 2^520 mod L.
        static let rr = Scalar(0x9d265e952d13b, 0xd63c715bea69f, 0x5be65cb687604, 0x3dceec73d217f, 0x9411b7c309a)

        /// The 256-bit little-endian integer at `p`, unreduced (fine for any value < 2^260).
        init(bytes p: UnsafeRawPointer) {
            let w0 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
            let w1 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let w2 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            let w3 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            let m = Scalar.mask52
            self.init(w0 & m, (w0 >> 52 | w1 << 12) & m, (w1 >> 40 | w2 << 24) & m,
                      (w2 >> 28 | w3 << 36) & m, w3 >> 16)
        }

        /// The 512-bit little-endian integer at `p` (a SHA-512 output) reduced mod L
        /// (RFC 8032 §5.1.6 steps 2 and 4, §5.1.7 step 2).
        ///
        /// Splits the input as lo + hi·2^260, then lo·R/R + hi·R²/R = lo + hi·2^260 (mod L).
        init(reducingWide p: UnsafeRawPointer) {
            @inline(__always) func w(_ i: Int) -> UInt64 {
                UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
            }
            let m = Scalar.mask52
            let lo = Scalar(w(0) & m, (w(0) >> 52 | w(1) << 12) & m, (w(1) >> 40 | w(2) << 24) & m,
                            (w(2) >> 28 | w(3) << 36) & m, (w(3) >> 16 | w(4) << 48) & m)
            let hi = Scalar((w(4) >> 4) & m, (w(4) >> 56 | w(5) << 8) & m, (w(5) >> 44 | w(6) << 20) & m,
                            (w(6) >> 32 | w(7) << 32) & m, w(7) >> 20)
            self = Scalar.add(Scalar.montgomeryMul(lo, Scalar.r), Scalar.montgomeryMul(hi, Scalar.rr))
        }

        /// Writes the 32-byte little-endian encoding (value < L < 2^253).
        func write(to p: UnsafeMutableRawPointer) {
            p.storeBytes(of: (l0 | l1 << 52).littleEndian, toByteOffset: 0, as: UInt64.self)
            p.storeBytes(of: (l1 >> 12 | l2 << 40).littleEndian, toByteOffset: 8, as: UInt64.self)
            p.storeBytes(of: (l2 >> 24 | l3 << 28).littleEndian, toByteOffset: 16, as: UInt64.self)
            p.storeBytes(of: (l3 >> 36 | l4 << 16).littleEndian, toByteOffset: 24, as: UInt64.self)
        }

        /// (r + k·s) mod L — RFC 8032 §5.1.6 step 5. Requires k, r < L and s < 2^256.
        static func mulAdd(_ k: Scalar, _ s: Scalar, _ r: Scalar) -> Scalar {
            // k·s/R, then ·R²/R: k·s mod L.
            let ks = montgomeryMul(montgomeryMul(k, s), rr)
            return add(ks, r)
        }

        /// a - b mod L for a, b < L (constant time: the wrap-around is undone with a mask).
        static func sub(_ a: Scalar, _ b: Scalar) -> Scalar {
            let m = mask52
            var borrow = a.l0 &- b.l0
            let d0 = borrow & m
            borrow = a.l1 &- (b.l1 &+ (borrow >> 63)); let d1 = borrow & m
            borrow = a.l2 &- (b.l2 &+ (borrow >> 63)); let d2 = borrow & m
            borrow = a.l3 &- (b.l3 &+ (borrow >> 63)); let d3 = borrow & m
            borrow = a.l4 &- (b.l4 &+ (borrow >> 63)); let d4 = borrow & m
            // All-ones when the subtraction went negative: add L back.
            let under = 0 &- (borrow >> 63)
            var c = d0 &+ (order.l0 & under); let r0 = c & m
            c = (c >> 52) &+ d1 &+ (order.l1 & under); let r1 = c & m
            c = (c >> 52) &+ d2 &+ (order.l2 & under); let r2 = c & m
            c = (c >> 52) &+ d3 &+ (order.l3 & under); let r3 = c & m
            c = (c >> 52) &+ d4 &+ (order.l4 & under); let r4 = c & m
            return Scalar(r0, r1, r2, r3, r4)
        }

        /// a + b mod L for a, b < L.
        static func add(_ a: Scalar, _ b: Scalar) -> Scalar {
            let m = mask52
            var c = a.l0 &+ b.l0; let s0 = c & m
            c = (c >> 52) &+ a.l1 &+ b.l1; let s1 = c & m
            c = (c >> 52) &+ a.l2 &+ b.l2; let s2 = c & m
            c = (c >> 52) &+ a.l3 &+ b.l3; let s3 = c & m
            c = (c >> 52) &+ a.l4 &+ b.l4; let s4 = c & m
            return sub(Scalar(s0, s1, s2, s3, s4), order)
        }

        @inline(__always)
        static func m(_ a: UInt64, _ b: UInt64) -> UInt128 { UInt128(a) &* UInt128(b) }

        /// a·b·R^-1 mod L, for a·b < L·2^260 (so the result before the final subtraction is < 2L).
        static func montgomeryMul(_ a: Scalar, _ b: Scalar) -> Scalar {
            // Schoolbook product in nine 128-bit columns.
            let z0 = m(a.l0, b.l0)
            let z1 = m(a.l0, b.l1) &+ m(a.l1, b.l0)
            let z2 = m(a.l0, b.l2) &+ m(a.l1, b.l1) &+ m(a.l2, b.l0)
            let z3 = m(a.l0, b.l3) &+ m(a.l1, b.l2) &+ m(a.l2, b.l1) &+ m(a.l3, b.l0)
            let z4 = m(a.l0, b.l4) &+ m(a.l1, b.l3) &+ m(a.l2, b.l2) &+ m(a.l3, b.l1) &+ m(a.l4, b.l0)
            let z5 = m(a.l1, b.l4) &+ m(a.l2, b.l3) &+ m(a.l3, b.l2) &+ m(a.l4, b.l1)
            let z6 = m(a.l2, b.l4) &+ m(a.l3, b.l3) &+ m(a.l4, b.l2)
            let z7 = m(a.l3, b.l4) &+ m(a.l4, b.l3)
            let z8 = m(a.l4, b.l4)

            // Montgomery reduction, one 52-bit limb at a time: add n_i·L so the low limb vanishes.
            let l = order
            @inline(__always) func part1(_ sum: UInt128) -> (UInt128, UInt64) {
                let n = (UInt64(truncatingIfNeeded: sum) &* lFactor) & mask52
                return ((sum &+ m(n, l.l0)) >> 52, n)
            }
            @inline(__always) func part2(_ sum: UInt128) -> (UInt128, UInt64) {
                (sum >> 52, UInt64(truncatingIfNeeded: sum) & mask52)
            }
            // l.l3 = 0, so its products are omitted.
            var (carry, n0) = part1(z0)
            let n1: UInt64, n2: UInt64, n3: UInt64, n4: UInt64
            (carry, n1) = part1(carry &+ z1 &+ m(n0, l.l1))
            (carry, n2) = part1(carry &+ z2 &+ m(n0, l.l2) &+ m(n1, l.l1))
            (carry, n3) = part1(carry &+ z3 &+ m(n1, l.l2) &+ m(n2, l.l1))
            (carry, n4) = part1(carry &+ z4 &+ m(n0, l.l4) &+ m(n2, l.l2) &+ m(n3, l.l1))
            let r0: UInt64, r1: UInt64, r2: UInt64, r3: UInt64
            (carry, r0) = part2(carry &+ z5 &+ m(n1, l.l4) &+ m(n3, l.l2) &+ m(n4, l.l1))
            (carry, r1) = part2(carry &+ z6 &+ m(n2, l.l4) &+ m(n4, l.l2))
            (carry, r2) = part2(carry &+ z7 &+ m(n3, l.l4))
            (carry, r3) = part2(carry &+ z8 &+ m(n4, l.l4))
            let r4 = UInt64(truncatingIfNeeded: carry)
            return sub(Scalar(r0, r1, r2, r3, r4), order)
        }

        /// True when the 32 little-endian bytes at `p` encode an integer < L (RFC 8032 §5.1.7:
        /// S must be canonical). Variable time; S is public.
        static func isCanonical(_ p: UnsafeRawPointer) -> Bool {
            // L as four little-endian 64-bit words, compared from the most significant.
            let lw: (UInt64, UInt64, UInt64, UInt64) =
                (0x5812631a5cf5d3ed, 0x14def9dea2f79cd6, 0x0000000000000000, 0x1000000000000000)
            @inline(__always) func w(_ i: Int) -> UInt64 {
                UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self))
            }
            if w(3) != lw.3 { return w(3) < lw.3 }
            if w(2) != lw.2 { return w(2) < lw.2 }
            if w(1) != lw.1 { return w(1) < lw.1 }
            return w(0) < lw.0
        }
    }
}

extension Ed25519 {
    /// An element of GF(p), p = 2^255 - 19 (RFC 8032 §5.1), as five unsigned 51-bit limbs
    /// (radix 2^51): value = l0 + l1·2^51 + l2·2^102 + l3·2^153 + l4·2^204.
    ///
    /// Why this shape: 51-bit limbs leave 13 bits of headroom, so additions need no carry, and a
    /// 5×5 schoolbook product fits in `UInt128` accumulators; 2^255 ≡ 19 folds the upper half back.
    /// Every operation is straight-line code on the limbs (no branches, no table indices), so it
    /// runs in the same time for every value — the secret-scalar paths rely on that.
    ///
    /// Limb bounds (the invariant every caller keeps): `*`, `squared()`, `-` and `reduced()`
    /// return limbs below 2^52; `+` of two such values stays below 2^53, and the point formulas
    /// never add more than that plus one reduced value (< 2^54). `*` and `squared()` accept limbs
    /// below 2^54: 19·2^54 < 2^59 fits a `UInt64`, and each column (at most 77·2^108) fits a
    /// `UInt128` with room for the carries; `-` adds 16p, whose limbs exceed 2^54.
    @usableFromInline
    struct FieldElement: Sendable {
        @usableFromInline var l0: UInt64
        @usableFromInline var l1: UInt64
        @usableFromInline var l2: UInt64
        @usableFromInline var l3: UInt64
        @usableFromInline var l4: UInt64

        @inline(__always)
        init(_ l0: UInt64, _ l1: UInt64, _ l2: UInt64, _ l3: UInt64, _ l4: UInt64) {
            self.l0 = l0; self.l1 = l1; self.l2 = l2; self.l3 = l3; self.l4 = l4
        }

        static let mask51: UInt64 = (1 << 51) - 1

        static let zero = FieldElement(0, 0, 0, 0, 0)
        static let one = FieldElement(1, 0, 0, 0, 0)
        /// d = -121665/121666 (RFC 8032 §5.1).
        static let d = FieldElement(
            0x34dca135978a3, 0x1a8283b156ebd, 0x5e7a26001c029, 0x739c663a03cbb, 0x52036cee2b6ff)
        /// 2·d, used by the extended-coordinates addition (T1·2d·T2).
        static let d2 = FieldElement(
            0x69b9426b2f159, 0x35050762add7a, 0x3cf44c0038052, 0x6738cc7407977, 0x2406d9dc56dff)
        /// sqrt(-1) = 2^((p-1)/4) mod p (RFC 8032 §5.1.3 step 3).
        static let sqrtMinusOne = FieldElement(
            0x61b274a0ea0b0, 0x0d5a5fc8f189d, 0x7ef5e9cbd0c60, 0x78595a6804c9e, 0x2b8324804fc1d)

        // MARK: Bytes

        /// Reads 32 little-endian bytes, ignoring bit 255 (RFC 8032 §5.1.3 step 1 clears it; the
        /// caller reads it as the sign of x). Values in [p, 2^255) are NOT rejected here — the
        /// decoder checks canonicity on the bytes.
        @inline(__always)
        init(bytes p: UnsafeRawPointer) {
            let w0 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
            let w1 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let w2 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
            let w3 = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
            let m = FieldElement.mask51
            self.init(
                w0 & m,
                (w0 >> 51 | w1 << 13) & m,
                (w1 >> 38 | w2 << 26) & m,
                (w2 >> 25 | w3 << 39) & m,
                (w3 >> 12) & m)
        }

        /// The canonical representative in [0, p), limbs below 2^51.
        ///
        /// Computes q = floor((value + 19) / 2^255) ∈ {0, 1} by a carry chain (no comparison), then
        /// value + 19q with the 2^255 bit dropped — that is value - p·q.
        @inline(__always)
        func canonical() -> FieldElement {
            let m = FieldElement.mask51
            let t = self.reduced()  // limbs < 2^51 + small: value < 2p
            var q = (t.l0 &+ 19) >> 51
            q = (t.l1 &+ q) >> 51
            q = (t.l2 &+ q) >> 51
            q = (t.l3 &+ q) >> 51
            q = (t.l4 &+ q) >> 51
            var r0 = t.l0 &+ 19 &* q
            var r1 = t.l1 &+ (r0 >> 51); r0 &= m
            var r2 = t.l2 &+ (r1 >> 51); r1 &= m
            var r3 = t.l3 &+ (r2 >> 51); r2 &= m
            var r4 = t.l4 &+ (r3 >> 51); r3 &= m
            r4 &= m
            return FieldElement(r0, r1, r2, r3, r4)
        }

        /// The 32-byte little-endian canonical encoding (RFC 8032 §5.1.2, bit 255 left zero).
        @inline(__always)
        func write(to p: UnsafeMutableRawPointer) {
            let c = canonical()
            p.storeBytes(of: (c.l0 | c.l1 << 51).littleEndian, toByteOffset: 0, as: UInt64.self)
            p.storeBytes(of: (c.l1 >> 13 | c.l2 << 38).littleEndian, toByteOffset: 8, as: UInt64.self)
            p.storeBytes(of: (c.l2 >> 26 | c.l3 << 25).littleEndian, toByteOffset: 16, as: UInt64.self)
            p.storeBytes(of: (c.l3 >> 39 | c.l4 << 12).littleEndian, toByteOffset: 24, as: UInt64.self)
        }

        /// The low bit of the canonical value ("x is negative" in RFC 8032 §5.1.2).
        @inline(__always)
        var isNegative: UInt64 { canonical().l0 & 1 }

        /// All-ones when the canonical value is zero, else zero (no branch).
        @inline(__always)
        var isZeroMask: UInt64 {
            let c = canonical()
            let acc = c.l0 | c.l1 | c.l2 | c.l3 | c.l4
            // acc == 0  ⇔  (acc - 1) has its top bit set while acc's top bit is clear.
            return 0 &- (((acc &- 1) & ~acc) >> 63)
        }

        /// Exact equality of the represented values (variable time only in the public `Bool`).
        @inline(__always)
        static func == (a: FieldElement, b: FieldElement) -> Bool {
            (a - b).isZeroMask != 0
        }

        // MARK: Arithmetic

        /// One carry pass: limbs back below 2^51 + 19·2^13 (< 2^52) for any 64-bit limbs.
        @inline(__always)
        func reduced() -> FieldElement {
            let m = FieldElement.mask51
            let c0 = l0 >> 51, c1 = l1 >> 51, c2 = l2 >> 51, c3 = l3 >> 51, c4 = l4 >> 51
            return FieldElement(
                (l0 & m) &+ c4 &* 19, (l1 & m) &+ c0, (l2 & m) &+ c1, (l3 & m) &+ c2, (l4 & m) &+ c3)
        }

        @inline(__always)
        static func + (a: FieldElement, b: FieldElement) -> FieldElement {
            FieldElement(a.l0 &+ b.l0, a.l1 &+ b.l1, a.l2 &+ b.l2, a.l3 &+ b.l3, a.l4 &+ b.l4)
        }

        /// a - b computed as (a + 16p) - b, then one carry pass. 16p limbs exceed any operand
        /// limb (< 2^54), so nothing wraps.
        @inline(__always)
        static func - (a: FieldElement, b: FieldElement) -> FieldElement {
            FieldElement(
                (a.l0 &+ 0x7F_FFFF_FFFF_FED0) &- b.l0,
                (a.l1 &+ 0x7F_FFFF_FFFF_FFF0) &- b.l1,
                (a.l2 &+ 0x7F_FFFF_FFFF_FFF0) &- b.l2,
                (a.l3 &+ 0x7F_FFFF_FFFF_FFF0) &- b.l3,
                (a.l4 &+ 0x7F_FFFF_FFFF_FFF0) &- b.l4
            ).reduced()
        }

        @inline(__always)
        static prefix func - (a: FieldElement) -> FieldElement { zero - a }

        @inline(__always)
        static func m(_ a: UInt64, _ b: UInt64) -> UInt128 { UInt128(a) &* UInt128(b) }

        /// Carries five 128-bit column sums (each < 2^117) into limbs below 2^52.
        @inline(__always)
        static func carry(
            _ c0: UInt128, _ c1: UInt128, _ c2: UInt128, _ c3: UInt128, _ c4: UInt128
        ) -> FieldElement {
            let m = FieldElement.mask51
            var c1 = c1, c2 = c2, c3 = c3, c4 = c4
            c1 &+= c0 >> 51
            let r0 = UInt64(truncatingIfNeeded: c0) & m
            c2 &+= c1 >> 51
            let r1 = UInt64(truncatingIfNeeded: c1) & m
            c3 &+= c2 >> 51
            let r2 = UInt64(truncatingIfNeeded: c2) & m
            c4 &+= c3 >> 51
            let r3 = UInt64(truncatingIfNeeded: c3) & m
            let r4 = UInt64(truncatingIfNeeded: c4) & m
            // c4 < 2^117, so the carry is below 2^66: fold it times 19 in 128 bits.
            let top = (c4 >> 51) &* 19 &+ UInt128(r0)
            let s0 = UInt64(truncatingIfNeeded: top) & m
            let s1 = r1 &+ UInt64(truncatingIfNeeded: top >> 51)
            return FieldElement(s0, s1, r2, r3, r4)
        }

        /// Schoolbook 5×5 product with the 2^255 ≡ 19 fold applied to the upper columns.
        @inline(__always)
        static func * (a: FieldElement, b: FieldElement) -> FieldElement {
            let b1_19 = b.l1 &* 19, b2_19 = b.l2 &* 19, b3_19 = b.l3 &* 19, b4_19 = b.l4 &* 19
            let c0 = m(a.l0, b.l0) &+ m(a.l1, b4_19) &+ m(a.l2, b3_19) &+ m(a.l3, b2_19) &+ m(a.l4, b1_19)
            let c1 = m(a.l0, b.l1) &+ m(a.l1, b.l0) &+ m(a.l2, b4_19) &+ m(a.l3, b3_19) &+ m(a.l4, b2_19)
            let c2 = m(a.l0, b.l2) &+ m(a.l1, b.l1) &+ m(a.l2, b.l0) &+ m(a.l3, b4_19) &+ m(a.l4, b3_19)
            let c3 = m(a.l0, b.l3) &+ m(a.l1, b.l2) &+ m(a.l2, b.l1) &+ m(a.l3, b.l0) &+ m(a.l4, b4_19)
            let c4 = m(a.l0, b.l4) &+ m(a.l1, b.l3) &+ m(a.l2, b.l2) &+ m(a.l3, b.l1) &+ m(a.l4, b.l0)
            return carry(c0, c1, c2, c3, c4)
        }

        /// a², using the symmetric cross terms (15 products instead of 25).
        @inline(__always)
        func squared() -> FieldElement {
            let m = FieldElement.m
            let d0 = l0 &* 2, d1 = l1 &* 2
            let l3_19 = l3 &* 19, l4_19 = l4 &* 19
            let c0 = m(l0, l0) &+ m(d1, l4_19) &+ m(l2 &* 2, l3_19)
            let c1 = m(d0, l1) &+ m(l2 &* 2, l4_19) &+ m(l3, l3_19)
            let c2 = m(d0, l2) &+ m(l1, l1) &+ m(l3 &* 2, l4_19)
            let c3 = m(d0, l3) &+ m(d1, l2) &+ m(l4, l4_19)
            let c4 = m(d0, l4) &+ m(d1, l3) &+ m(l2, l2)
            return FieldElement.carry(c0, c1, c2, c3, c4)
        }

        /// 2·a², the doubling formula's 2Z² term.
        @inline(__always)
        func squaredTimesTwo() -> FieldElement {
            let s = squared()
            return s + s
        }

        /// a^(2^n) by n squarings.
        @inline(__always)
        func squared(times n: Int) -> FieldElement {
            var r = self
            for _ in 0..<n { r = r.squared() }
            return r
        }

        /// Returns (a^(2^250 - 1), a^11): the shared prefix of the inversion and square-root
        /// addition chains (the ref10 chain: 254 squarings, 11 multiplications).
        @inline(never)
        func pow22501() -> (FieldElement, FieldElement) {
            let t0 = squared()                   // 2
            let t1 = t0.squared(times: 2) * self // 9
            let t2 = t1 * t0                     // 11
            let t3 = t2.squared() * t1           // 2^5 - 1
            let t4 = t3.squared(times: 5) * t3   // 2^10 - 1
            let t5 = t4.squared(times: 10) * t4  // 2^20 - 1
            let t6 = t5.squared(times: 20) * t5  // 2^40 - 1
            let t7 = t6.squared(times: 10) * t4  // 2^50 - 1
            let t8 = t7.squared(times: 50) * t7  // 2^100 - 1
            let t9 = t8.squared(times: 100) * t8 // 2^200 - 1
            let t10 = t9.squared(times: 50) * t7 // 2^250 - 1
            return (t10, t2)
        }

        /// a^(p-2) = a^-1 (Fermat; 0 maps to 0). A fixed exponentiation, so constant time.
        @inline(never)
        func inverted() -> FieldElement {
            let (t, a11) = pow22501()
            return t.squared(times: 5) * a11     // 2^255 - 21 = p - 2
        }

        /// a^((p-5)/8) = a^(2^252 - 3), the exponent of RFC 8032 §5.1.3 step 3.
        @inline(never)
        func pow2523() -> FieldElement {
            let (t, _) = pow22501()
            return t.squared(times: 2) * self    // 2^252 - 4 + 1
        }

        /// Constant-time select: `b` where `mask` is all-ones, `a` where it is zero.
        @inline(__always)
        static func select(_ a: FieldElement, _ b: FieldElement, mask: UInt64) -> FieldElement {
            FieldElement(
                a.l0 ^ (mask & (a.l0 ^ b.l0)), a.l1 ^ (mask & (a.l1 ^ b.l1)),
                a.l2 ^ (mask & (a.l2 ^ b.l2)), a.l3 ^ (mask & (a.l3 ^ b.l3)),
                a.l4 ^ (mask & (a.l4 ^ b.l4)))
        }
    }
}

extension X25519 {
    /// 32 bytes held inline as four little-endian words (no heap storage for keys or scratch).
    typealias Words = (UInt64, UInt64, UInt64, UInt64)

    typealias FieldElement = Ed25519.FieldElement

    /// The X25519 function of RFC 7748 §5: decodeScalar25519 (clamping), decodeUCoordinate
    /// (bit 255 masked, non-canonical values in [p, 2^255) accepted and reduced), the Montgomery
    /// ladder, and encodeUCoordinate (canonical, 32 bytes little-endian).
    ///
    /// Why it looks like this: the field is the Curve25519 field of `Ed25519.FieldElement`
    /// (five 51-bit limbs), shared rather than duplicated. The ladder runs 255 identical steps
    /// whose only secret-dependent operation is `conditionalSwap`, a masked XOR, so the running
    /// time and memory accesses do not depend on the scalar or on u.
    enum Ladder {
        /// a24 = (A - 2) / 4 = 121665 for A = 486662 (RFC 7748 §5, the ladder's constant).
        static let a24: UInt64 = 121_665

        /// decodeScalar25519 (RFC 7748 §5): clear bits 0, 1, 2 and 255, set bit 254.
        @inline(__always)
        static func clamp(_ k: Words) -> Words {
            (UInt64(littleEndian: k.0) & ~7, UInt64(littleEndian: k.1), UInt64(littleEndian: k.2),
             (UInt64(littleEndian: k.3) & ~(1 << 63)) | (1 << 62))
        }

        /// X25519(k, u) written to `out` (32 bytes). `scalar` and `u` are 32 bytes each.
        static func scalarMult(_ scalar: UnsafeRawPointer, _ u: UnsafeRawPointer, _ out: UnsafeMutableRawPointer) {
            let k = clamp(scalar.loadUnaligned(as: Words.self))
            let x1 = FieldElement(bytes: u)  // ignores bit 255: the decodeUCoordinate mask
            var x2 = FieldElement.one, z2 = FieldElement.zero
            var x3 = x1, z3 = FieldElement.one
            var swap: UInt64 = 0
            // Bits 254 down to 0 of the clamped scalar (bit 255 is clear).
            for t in stride(from: 254, through: 0, by: -1) {
                let word = t >= 192 ? k.3 : t >= 128 ? k.2 : t >= 64 ? k.1 : k.0  // t is public
                let bit = (word >> UInt64(t & 63)) & 1
                swap ^= bit
                conditionalSwap(&x2, &x3, mask: 0 &- swap)
                conditionalSwap(&z2, &z3, mask: 0 &- swap)
                swap = bit
                // RFC 7748 §5 ladder step (limb bounds: sums < 2^53, every product input < 2^54).
                let a = x2 + z2
                let aa = a.squared()
                let b = x2 - z2
                let bb = b.squared()
                let e = aa - bb
                let c = x3 + z3
                let d = x3 - z3
                let da = d * a
                let cb = c * b
                x3 = (da + cb).squared()
                z3 = x1 * (da - cb).squared()
                x2 = aa * bb
                z2 = e * (aa + e.times(a24))
            }
            conditionalSwap(&x2, &x3, mask: 0 &- swap)
            conditionalSwap(&z2, &z3, mask: 0 &- swap)
            // x2 · z2^(p-2); z2 = 0 (a low-order u) gives 0, as RFC 7748 specifies.
            (x2 * z2.inverted()).write(to: out)
        }

        /// X25519(k, 9), the public key of scalar k, through the Edwards form: [k]B on edwards25519
        /// with Ed25519's constant-time fixed-base table, then u = (1 + y) / (1 - y) = (Z + Y) / (Z - Y)
        /// (RFC 7748 §4.1 birational map). [k]B is never the identity for a clamped k (k < 2^255 is
        /// a non-zero multiple of 8 below 8L, so L does not divide it), hence Z - Y ≠ 0. Equal to
        /// `scalarMult(k, 9)`; a test checks the two agree.
        static func scalarMultBase(_ scalar: UnsafeRawPointer, _ out: UnsafeMutableRawPointer) {
            var k = clamp(scalar.loadUnaligned(as: Words.self))
            k = (k.0.littleEndian, k.1.littleEndian, k.2.littleEndian, k.3.littleEndian)
            let p = withUnsafeBytes(of: &k) { Ed25519.BasepointTable.mulBase($0.baseAddress!) }
            ((p.Z + p.Y) * (p.Z - p.Y).inverted()).write(to: out)
        }

        /// Constant-time cswap (RFC 7748 §5): swaps when `mask` is all ones, keeps when zero.
        @inline(__always)
        static func conditionalSwap(_ a: inout FieldElement, _ b: inout FieldElement, mask: UInt64) {
            let t0 = mask & (a.l0 ^ b.l0), t1 = mask & (a.l1 ^ b.l1), t2 = mask & (a.l2 ^ b.l2)
            let t3 = mask & (a.l3 ^ b.l3), t4 = mask & (a.l4 ^ b.l4)
            a.l0 ^= t0; a.l1 ^= t1; a.l2 ^= t2; a.l3 ^= t3; a.l4 ^= t4
            b.l0 ^= t0; b.l1 ^= t1; b.l2 ^= t2; b.l3 ^= t3; b.l4 ^= t4
        }
    }
}

extension Ed25519.FieldElement {
    /// a · k for a small constant k < 2^17 (the ladder's a24): five 64×64 products carried once,
    /// limbs below 2^52 as for `*`.
    @inline(__always)
    func times(_ k: UInt64) -> Ed25519.FieldElement {
        let m = Ed25519.FieldElement.m
        return Ed25519.FieldElement.carry(m(l0, k), m(l1, k), m(l2, k), m(l3, k), m(l4, k))
    }
}

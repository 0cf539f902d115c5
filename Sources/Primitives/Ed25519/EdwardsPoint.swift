extension Ed25519 {
    /// A point of edwards25519, -x² + y² = 1 + d·x²·y² (RFC 8032 §5.1), in extended twisted Edwards
    /// coordinates (X:Y:Z:T) with x = X/Z, y = Y/Z, x·y = T/Z (Hisil–Wong–Carter–Dawson 2008, §3).
    ///
    /// Why several representations: the fastest formulas move between forms (the ref10 layout).
    /// Doubling takes a `ProjectivePoint` (X:Y:Z) and gives a `CompletedPoint`; additions take an
    /// `EdwardsPoint` plus a cached form of the other operand (`ProjectiveNielsPoint`, or
    /// `AffineNielsPoint` for precomputed tables) and give a `CompletedPoint`; a completed point
    /// converts back with 3 (to projective) or 4 (to extended) multiplications. The a = -1
    /// addition law used here is complete on this curve (d is not a square), so no formula has
    /// exceptional inputs and none branches.
    @usableFromInline
    struct EdwardsPoint: Sendable {
        var X: FieldElement
        var Y: FieldElement
        var Z: FieldElement
        var T: FieldElement

        @inline(__always)
        init(X: FieldElement, Y: FieldElement, Z: FieldElement, T: FieldElement) {
            self.X = X; self.Y = Y; self.Z = Z; self.T = T
        }

        /// The neutral element (0, 1).
        static let identity = EdwardsPoint(X: .zero, Y: .one, Z: .one, T: .zero)

        /// The base point B of RFC 8032 §5.1 (y = 4/5, x even).
        static let basepoint = EdwardsPoint(
            X: FieldElement(0x62d608f25d51a, 0x412a4b4f6592a, 0x75b7171a4b31d, 0x1ff60527118fe, 0x216936d3cd6e5),
            Y: FieldElement(0x6666666666658, 0x4cccccccccccc, 0x1999999999999, 0x3333333333333, 0x6666666666666),
            Z: .one,
            T: FieldElement(0x68ab3a5b7dda3, 0x00eea2a5eadbb, 0x2af8df483c27e, 0x332b375274732, 0x67875f0fd78b7))

        /// Decodes 32 bytes as SPEC.md §9.1 [R9.1-3] reads a point, or nil. Variable time: only ever
        /// applied to public data (public keys and the R half of signatures).
        ///
        /// 1. y = the low 255 bits, taken mod p: a y in [p, 2^255) is read as y - p (the ref10
        ///    reading Go, OpenSSL 3 and ed25519-dalek share). x_0 = bit 255.
        /// 2-3. u = y² - 1, v = d·y² + 1, candidate x = u·v³·(u·v⁷)^((p-5)/8); if v·x² = u keep it,
        ///      if v·x² = -u take x·sqrt(-1), otherwise reject (u/v is not a square: not a point).
        /// 4. if x mod 2 ≠ x_0 take p - x; x = 0 with x_0 = 1 is read as x = 0.
        ///
        /// `canonical` reports whether the bytes are the point's RFC 8032 §5.1.2 encoding (y < p and
        /// not "x = 0 with the sign bit set"); the strict reading of RFC 8032 §5.1.3 rejects the rest.
        static func decode(_ p: UnsafeRawPointer) -> (point: EdwardsPoint, canonical: Bool)? {
            let nonCanonicalY = Ed25519.isNonCanonicalFieldEncoding(p)
            let sign = UInt64(p.load(fromByteOffset: 31, as: UInt8.self) >> 7)
            let y = FieldElement(bytes: p)
            let yy = y.squared()
            let u = yy - .one
            let v = yy * .d + .one
            let v3 = v.squared() * v
            let v7 = v3.squared() * v
            var x = u * v3 * (u * v7).pow2523()
            let vxx = v * x.squared()
            if vxx == u {
                // x is a square root of u/v.
            } else if vxx == -u {
                x = x * .sqrtMinusOne
            } else {
                return nil
            }
            let minusZero = x.isZeroMask != 0 && sign == 1
            if x.isNegative != sign && !minusZero { x = -x }
            return (EdwardsPoint(X: x, Y: y, Z: .one, T: x * y), !nonCanonicalY && !minusZero)
        }

        /// The 32-byte encoding of RFC 8032 §5.1.2: y little-endian with the low bit of x in bit 255.
        /// Constant time (one inversion by exponentiation), so it is used for secret-derived points.
        func encode(to p: UnsafeMutableRawPointer) {
            ProjectivePoint(X: X, Y: Y, Z: Z).encode(to: p)
        }

        @inline(__always)
        var projective: ProjectivePoint { ProjectivePoint(X: X, Y: Y, Z: Z) }

        @inline(__always)
        var projectiveNiels: ProjectiveNielsPoint {
            ProjectiveNielsPoint(yPlusX: Y + X, yMinusX: Y - X, Z: Z, t2d: T * .d2)
        }

        /// Converts to the affine cached form (y+x, y-x, 2dxy); one inversion.
        var affineNiels: AffineNielsPoint {
            let zi = Z.inverted()
            let x = X * zi, y = Y * zi
            return AffineNielsPoint(yPlusX: (y + x).reduced(), yMinusX: y - x, xy2d: x * y * .d2)
        }

        /// -P = (-X : Y : Z : -T).
        @inline(__always)
        var negated: EdwardsPoint { EdwardsPoint(X: -X, Y: Y, Z: Z, T: -T) }

        /// 2P (dbl-2008-hwcd via the projective doubling).
        @inline(__always)
        func doubled() -> EdwardsPoint { projective.doubled().extended }

        /// P + Q, Q in projective Niels form (add-2008-hwcd-3, 8M + 1 multiplication by 2d in Q).
        @inline(__always)
        static func + (p: EdwardsPoint, q: ProjectiveNielsPoint) -> CompletedPoint {
            let a = (p.Y + p.X) * q.yPlusX
            let b = (p.Y - p.X) * q.yMinusX
            let c = q.t2d * p.T
            let zz = p.Z * q.Z
            let d = zz + zz
            return CompletedPoint(X: a - b, Y: a + b, Z: d + c, T: d - c)
        }

        /// P - Q, Q in projective Niels form (-Q swaps y+x with y-x and negates 2dT).
        @inline(__always)
        static func - (p: EdwardsPoint, q: ProjectiveNielsPoint) -> CompletedPoint {
            let a = (p.Y + p.X) * q.yMinusX
            let b = (p.Y - p.X) * q.yPlusX
            let c = q.t2d * p.T
            let zz = p.Z * q.Z
            let d = zz + zz
            return CompletedPoint(X: a - b, Y: a + b, Z: d - c, T: d + c)
        }

        /// P + Q, Q affine (madd-2008-hwcd-3: Z2 = 1 saves a multiplication).
        @inline(__always)
        static func + (p: EdwardsPoint, q: AffineNielsPoint) -> CompletedPoint {
            let a = (p.Y + p.X) * q.yPlusX
            let b = (p.Y - p.X) * q.yMinusX
            let c = q.xy2d * p.T
            let d = p.Z + p.Z
            return CompletedPoint(X: a - b, Y: a + b, Z: d + c, T: d - c)
        }

        /// P - Q, Q affine.
        @inline(__always)
        static func - (p: EdwardsPoint, q: AffineNielsPoint) -> CompletedPoint {
            let a = (p.Y + p.X) * q.yMinusX
            let b = (p.Y - p.X) * q.yPlusX
            let c = q.xy2d * p.T
            let d = p.Z + p.Z
            return CompletedPoint(X: a - b, Y: a + b, Z: d - c, T: d + c)
        }
    }

    /// A point in projective coordinates (X:Y:Z), x = X/Z, y = Y/Z: the input of doubling.
    @usableFromInline
    struct ProjectivePoint: Sendable {
        var X: FieldElement
        var Y: FieldElement
        var Z: FieldElement

        static let identity = ProjectivePoint(X: .zero, Y: .one, Z: .one)

        /// 2P in completed form (dbl-2008-hwcd with a = -1: 4 squarings).
        @inline(__always)
        func doubled() -> CompletedPoint {
            let xx = X.squared()
            let yy = Y.squared()
            let zz2 = Z.squaredTimesTwo()
            let xy2 = (X + Y).squared()
            let yPlus = yy + xx
            let yMinus = yy - xx
            return CompletedPoint(X: xy2 - yPlus, Y: yPlus, Z: yMinus, T: zz2 - yMinus)
        }

        /// RFC 8032 §5.1.2 encoding of (X/Z, Y/Z).
        func encode(to p: UnsafeMutableRawPointer) {
            let zi = Z.inverted()
            let x = X * zi, y = Y * zi
            y.write(to: p)
            let top = p.load(fromByteOffset: 31, as: UInt8.self) | UInt8(truncatingIfNeeded: x.isNegative << 7)
            p.storeBytes(of: top, toByteOffset: 31, as: UInt8.self)
        }
    }

    /// A point in completed coordinates ((X:Z), (Y:T)), x = X/Z, y = Y/T: the output of the
    /// addition and doubling formulas before their final multiplications.
    @usableFromInline
    struct CompletedPoint: Sendable {
        var X: FieldElement
        var Y: FieldElement
        var Z: FieldElement
        var T: FieldElement

        /// To extended coordinates (4M).
        @inline(__always)
        var extended: EdwardsPoint {
            EdwardsPoint(X: X * T, Y: Y * Z, Z: Z * T, T: X * Y)
        }

        /// To projective coordinates (3M) when the next step is another doubling.
        @inline(__always)
        var projective: ProjectivePoint {
            ProjectivePoint(X: X * T, Y: Y * Z, Z: Z * T)
        }
    }

    /// Q cached for addition: (Y+X, Y-X, Z, 2d·T).
    @usableFromInline
    struct ProjectiveNielsPoint: Sendable {
        var yPlusX: FieldElement
        var yMinusX: FieldElement
        var Z: FieldElement
        var t2d: FieldElement
    }

    /// An affine point cached for addition: (y+x, y-x, 2d·x·y). The identity is (1, 1, 0).
    @usableFromInline
    struct AffineNielsPoint: Sendable {
        var yPlusX: FieldElement
        var yMinusX: FieldElement
        var xy2d: FieldElement

        static let identity = AffineNielsPoint(yPlusX: .one, yMinusX: .one, xy2d: .zero)

        /// Constant-time select: `b` where `mask` is all-ones, `a` where it is zero.
        @inline(__always)
        static func select(_ a: AffineNielsPoint, _ b: AffineNielsPoint, mask: UInt64) -> AffineNielsPoint {
            AffineNielsPoint(
                yPlusX: .select(a.yPlusX, b.yPlusX, mask: mask),
                yMinusX: .select(a.yMinusX, b.yMinusX, mask: mask),
                xy2d: .select(a.xy2d, b.xy2d, mask: mask))
        }

        /// -Q when `mask` is all-ones, Q when zero, without a branch.
        @inline(__always)
        func conditionallyNegated(mask: UInt64) -> AffineNielsPoint {
            AffineNielsPoint(
                yPlusX: .select(yPlusX, yMinusX, mask: mask),
                yMinusX: .select(yMinusX, yPlusX, mask: mask),
                xy2d: .select(xy2d, -xy2d, mask: mask))
        }
    }

    /// True when the low 255 bits of the 32 bytes at `p` are ≥ p = 2^255 - 19, i.e. they are not
    /// the canonical encoding of a field element (RFC 8032 §5.1.3 step 1). Public data only.
    static func isNonCanonicalFieldEncoding(_ p: UnsafeRawPointer) -> Bool {
        // y ≥ 2^255 - 19 with y < 2^255 means: byte 0 ≥ 0xed, bytes 1…30 = 0xff, byte 31 & 0x7f = 0x7f.
        guard p.load(fromByteOffset: 31, as: UInt8.self) & 0x7f == 0x7f else { return false }
        for i in 1..<31 where p.load(fromByteOffset: i, as: UInt8.self) != 0xff { return false }
        return p.load(fromByteOffset: 0, as: UInt8.self) >= 0xed
    }
}

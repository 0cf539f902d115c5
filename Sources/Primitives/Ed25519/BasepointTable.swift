extension Ed25519 {
    /// Precomputed multiples of the base point B and the two scalar multiplications built on them.
    ///
    /// Why two tables: signing multiplies B by SECRET scalars (the key scalar s and the nonce r,
    /// RFC 8032 §5.1.5 step 3 and §5.1.6 step 3), so that path uses a fixed signed-radix-16 window
    /// whose table entries are fetched by scanning every entry of a row with masked selects — no
    /// branch and no memory address depends on a secret bit. Verification (§5.1.7) only touches
    /// public values, so it uses a faster variable-time sliding-window double-scalar multiplication
    /// with a table of odd multiples of B.
    ///
    /// The tables are computed on first use (a few milliseconds once per process) rather than
    /// pasted in as thousands of literals; `static let` makes that initialisation thread-safe and
    /// the result immutable.
    enum BasepointTable {
        /// rows[i][j] = (j + 1)·256^i·B, i in 0..<32, j in 0..<8, affine, row-major (256 entries).
        static let radix16: [AffineNielsPoint] = {
            var table: [AffineNielsPoint] = []
            table.reserveCapacity(32 * 8)
            var rowBase = EdwardsPoint.basepoint
            for _ in 0..<32 {
                let cached = rowBase.projectiveNiels
                var multiple = rowBase
                for j in 0..<8 {
                    if j > 0 { multiple = (multiple + cached).extended }
                    table.append(multiple.affineNiels)
                }
                for _ in 0..<8 { rowBase = rowBase.doubled() }
            }
            return table
        }()

        /// Odd multiples B, 3B, 5B, …, 127B (affine): digits of a width-8 sliding window.
        static let oddMultiples: [AffineNielsPoint] = {
            var table: [AffineNielsPoint] = []
            table.reserveCapacity(oddMultipleCount)
            let twoB = EdwardsPoint.basepoint.doubled().projectiveNiels
            var p = EdwardsPoint.basepoint
            for i in 0..<oddMultipleCount {
                if i > 0 { p = (p + twoB).extended }
                table.append(p.affineNiels)
            }
            return table
        }()

        static let oddMultipleCount = 64
        /// Largest sliding-window digit for B (odd multiples up to 127·B).
        static let baseDigitLimit = 2 * oddMultipleCount - 1
        /// Largest digit for the per-signature point (odd multiples up to 15·A, 8 cached points).
        static let pointDigitLimit = 15

        /// [a]B for a 32-byte little-endian scalar a < 2^255, in constant time (RFC 8032 §5.1.5
        /// step 3, §5.1.6 step 3).
        ///
        /// a = Σ e_i·16^i with signed digits e_i ∈ [-8, 8]; the odd-index digits are added first
        /// (using rows 256^(i/2)), the sum is multiplied by 16 with four doublings, then the
        /// even-index digits are added — 64 mixed additions and 4 doublings (the ref10 method).
        static func mulBase(_ scalar: UnsafeRawPointer) -> EdwardsPoint {
            withUnsafeTemporaryAllocation(of: Int8.self, capacity: 64) { e in
                for i in 0..<32 {
                    let b = scalar.load(fromByteOffset: i, as: UInt8.self)
                    e[2 * i] = Int8(b & 15)
                    e[2 * i + 1] = Int8(b >> 4)
                }
                // Recentre each digit into [-8, 8) by carrying; arithmetic only, no branch.
                var carry: Int8 = 0
                for i in 0..<63 {
                    e[i] &+= carry
                    carry = (e[i] &+ 8) >> 4
                    e[i] &-= carry << 4
                }
                e[63] &+= carry
                return radix16.withUnsafeBufferPointer { table in
                    var h = EdwardsPoint.identity
                    for i in stride(from: 1, to: 64, by: 2) {
                        h = (h + select(table, row: i / 2, digit: e[i])).extended
                    }
                    var p = h.projective.doubled().projective
                    p = p.doubled().projective
                    p = p.doubled().projective
                    h = p.doubled().extended
                    for i in stride(from: 0, to: 64, by: 2) {
                        h = (h + select(table, row: i / 2, digit: e[i])).extended
                    }
                    return h
                }
            }
        }

        /// |digit|·256^row·B negated when digit < 0, read by scanning all eight entries of the
        /// row with masked selects so neither timing nor addresses depend on the digit.
        @inline(__always)
        static func select(_ table: UnsafeBufferPointer<AffineNielsPoint>, row: Int, digit: Int8) -> AffineNielsPoint {
            let bits = UInt64(UInt8(bitPattern: digit))
            let negative = bits >> 7                       // 1 when digit < 0
            let negMask = 0 &- negative
            // |digit| = (digit XOR m) - m for m = sign mask (two's complement), here on 8 bits.
            let absolute = ((bits ^ (negMask & 0xff)) &+ negative) & 0xff
            var t = AffineNielsPoint.identity
            let base = row * 8
            for j in 0..<8 {
                let diff = absolute ^ UInt64(j + 1)
                let eq = 0 &- ((diff &- 1) >> 63)         // all-ones iff diff == 0 (diff < 2^8)
                t = .select(t, table[base + j], mask: eq)
            }
            return t.conditionallyNegated(mask: negMask)
        }

        /// Signed sliding-window digits of a 256-bit little-endian scalar: Σ r_i·2^i = scalar with
        /// every non-zero r_i odd and |r_i| ≤ limit (ref10 `slide`). Variable time; public input.
        static func slide(_ scalar: UnsafeRawPointer, into r: UnsafeMutableBufferPointer<Int8>, limit: Int) {
            for i in 0..<256 {
                r[i] = Int8((scalar.load(fromByteOffset: i >> 3, as: UInt8.self) >> (i & 7)) & 1)
            }
            var i = 0
            while i < 256 {
                if r[i] != 0 {
                    var b = 1
                    while b <= 7 && i + b < 256 {
                        if r[i + b] != 0 {
                            let cur = Int(r[i]), next = Int(r[i + b]) << b
                            if cur + next <= limit {
                                r[i] = Int8(cur + next)
                                r[i + b] = 0
                            } else if cur - next >= -limit {
                                r[i] = Int8(cur - next)
                                var k = i + b
                                while k < 256 {
                                    if r[k] == 0 { r[k] = 1; break }
                                    r[k] = 0
                                    k += 1
                                }
                            } else {
                                break
                            }
                        }
                        b += 1
                    }
                }
                i += 1
            }
        }

        /// [a]A + [b]B for public scalars a, b < 2^253 (so no digit carries past bit 255),
        /// variable time (RFC 8032 §5.1.7 step 3, rearranged as [S]B + [k](-A)).
        static func doubleScalarMulVartime(
            _ a: UnsafeRawPointer, _ point: EdwardsPoint, _ b: UnsafeRawPointer
        ) -> ProjectivePoint {
            withUnsafeTemporaryAllocation(of: Int8.self, capacity: 512) { digits in
                let aDigits = UnsafeMutableBufferPointer(rebasing: digits[0..<256])
                let bDigits = UnsafeMutableBufferPointer(rebasing: digits[256..<512])
                slide(a, into: aDigits, limit: pointDigitLimit)
                slide(b, into: bDigits, limit: baseDigitLimit)
                return withUnsafeTemporaryAllocation(of: ProjectiveNielsPoint.self, capacity: 8) { ai in
                    // ai[j] = (2j + 1)·A
                    let a2 = point.doubled()
                    ai.initialize(repeating: point.projectiveNiels)
                    var acc = point
                    for j in 1..<8 {
                        acc = (a2 + ai[j - 1]).extended
                        ai[j] = acc.projectiveNiels
                    }
                    return oddMultiples.withUnsafeBufferPointer { bi in
                        var i = 255
                        while i >= 0 && aDigits[i] == 0 && bDigits[i] == 0 { i -= 1 }
                        var r = ProjectivePoint.identity
                        while i >= 0 {
                            var t = r.doubled()
                            let da = aDigits[i], db = bDigits[i]
                            if da > 0 {
                                t = t.extended + ai[Int(da) / 2]
                            } else if da < 0 {
                                t = t.extended - ai[Int(-da) / 2]
                            }
                            if db > 0 {
                                t = t.extended + bi[Int(db) / 2]
                            } else if db < 0 {
                                t = t.extended - bi[Int(-db) / 2]
                            }
                            r = t.projective
                            i -= 1
                        }
                        return r
                    }
                }
            }
        }
    }
}

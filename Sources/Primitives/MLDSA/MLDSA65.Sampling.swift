extension MLDSA65 {
    /// The pseudorandom samplers of FIPS 204 §7.3 (Algorithms 29-34), reading SHAKE output
    /// straight from the sponge state (no intermediate arrays).
    enum Sampling {
        /// RejNTTPoly (FIPS 204 Algorithm 30) with the ExpandA seed ρ || s || r (Algorithm 32):
        /// 3-byte candidates from SHAKE128 (CoeffFromThreeBytes, Algorithm 14: 23 bits, kept
        /// when < q). Each 168-byte block holds exactly 56 candidates, parsed in place.
        static func rejNTTPoly(rho: UnsafeRawPointer, column s: Int, row r: Int,
                               into a: UnsafeMutablePointer<Int32>) {
            var xof = KeccakSponge(rate: 168, domain: 0x1F)
            xof.absorb(UnsafeRawBufferPointer(start: rho, count: 32))
            var suffix = (UInt16(UInt8(truncatingIfNeeded: s)) | UInt16(UInt8(truncatingIfNeeded: r)) << 8).littleEndian
            withUnsafeBytes(of: &suffix) { xof.absorb($0) }
            var count = 0
            while count < n {
                count = xof.withNextBlock { block in
                    var c = count
                    var i = 0
                    while i < 168 && c < n {
                        let b0 = UInt32(block.load(fromByteOffset: i, as: UInt8.self))
                        let b1 = UInt32(block.load(fromByteOffset: i &+ 1, as: UInt8.self))
                        let b2 = UInt32(block.load(fromByteOffset: i &+ 2, as: UInt8.self))
                        let z = (b2 & 0x7F) << 16 | b1 << 8 | b0
                        if z < UInt32(q) {
                            a[c] = Int32(z)
                            c &+= 1
                        }
                        i &+= 3
                    }
                    return c
                }
            }
        }

        /// ExpandA (FIPS 204 Algorithm 32): Â[r][s] = RejNTTPoly(ρ || s || r), k·l polynomials
        /// stored row-major at `a` (entry (r, s) at offset (r·l + s)·256), values in [0, q).
        static func expandA(rho: UnsafeRawPointer, into a: UnsafeMutablePointer<Int32>) {
            for r in 0..<k {
                for s in 0..<l {
                    rejNTTPoly(rho: rho, column: s, row: r, into: a + (r * l + s) * n)
                }
            }
        }

        /// RejBoundedPoly (FIPS 204 Algorithm 31) for η = 4 with seed ρ' || IntegerToBytes(nonce, 2):
        /// each SHAKE256 byte gives two half-byte candidates, kept when < 9 as 4 - b
        /// (CoeffFromHalfByte, Algorithm 15).
        static func rejBoundedPoly(rhoPrime: UnsafeRawPointer, nonce: Int,
                                   into a: UnsafeMutablePointer<Int32>) {
            var xof = KeccakSponge(rate: 136, domain: 0x1F)
            xof.absorb(UnsafeRawBufferPointer(start: rhoPrime, count: 64))
            var suffix = UInt16(truncatingIfNeeded: nonce).littleEndian
            withUnsafeBytes(of: &suffix) { xof.absorb($0) }
            var count = 0
            while count < n {
                count = xof.withNextBlock { block in
                    var c = count
                    var i = 0
                    while i < 136 && c < n {
                        let byte = Int32(block.load(fromByteOffset: i, as: UInt8.self))
                        let z0 = byte & 15, z1 = byte >> 4
                        if z0 < 9 { a[c] = 4 &- z0; c &+= 1 }
                        if z1 < 9 && c < n { a[c] = 4 &- z1; c &+= 1 }
                        i &+= 1
                    }
                    return c
                }
            }
        }

        /// ExpandS (FIPS 204 Algorithm 33): s1 (l polynomials, nonces 0..<l) and s2 (k
        /// polynomials, nonces l..<l+k) from ρ'.
        static func expandS(rhoPrime: UnsafeRawPointer, s1: UnsafeMutablePointer<Int32>,
                            s2: UnsafeMutablePointer<Int32>) {
            for r in 0..<l { rejBoundedPoly(rhoPrime: rhoPrime, nonce: r, into: s1 + r * n) }
            for r in 0..<k { rejBoundedPoly(rhoPrime: rhoPrime, nonce: r + l, into: s2 + r * n) }
        }

        /// ExpandMask (FIPS 204 Algorithm 34): y[r] = BitUnpack(H(ρ'' || IntegerToBytes(κ + r, 2), 640),
        /// γ1 - 1, γ1) for r < l; coefficients in (-γ1, γ1].
        static func expandMask(rhoPrimePrime: UnsafeRawPointer, kappa: Int,
                               into y: UnsafeMutablePointer<Int32>) {
            withUnsafeTemporaryAllocation(byteCount: zPolyBytes, alignment: 8) { buf in
                for r in 0..<l {
                    var xof = KeccakSponge(rate: 136, domain: 0x1F)
                    xof.absorb(UnsafeRawBufferPointer(start: rhoPrimePrime, count: 64))
                    var suffix = UInt16(truncatingIfNeeded: kappa + r).littleEndian
                    withUnsafeBytes(of: &suffix) { xof.absorb($0) }
                    xof.squeeze(into: buf)
                    Encoding.unpack(UnsafeRawPointer(buf.baseAddress!), count: n, bits: 20, bias: gamma1,
                                    into: y + r * n)
                }
            }
        }

        /// SampleInBall (FIPS 204 Algorithm 29): a polynomial with τ = 49 coefficients ±1 and the
        /// rest 0, from SHAKE256(c̃): 8 bytes of sign bits, then Fisher-Yates positions by rejection.
        static func sampleInBall(cTilde: UnsafeRawPointer, into c: UnsafeMutablePointer<Int32>) {
            var xof = KeccakSponge(rate: 136, domain: 0x1F)
            xof.absorb(UnsafeRawBufferPointer(start: cTilde, count: cTildeByteCount))
            c.update(repeating: 0, count: n)
            withUnsafeTemporaryAllocation(byteCount: 136, alignment: 8) { block in
                xof.squeeze(into: block)
                var signs: UInt64 = 0
                for i in 0..<8 { signs |= UInt64(block[i]) << UInt64(8 * i) }
                var pos = 8
                for i in (n - tau)..<n {
                    var j: Int
                    repeat {
                        if pos == 136 {
                            xof.squeeze(into: block)
                            pos = 0
                        }
                        j = Int(block[pos])
                        pos += 1
                    } while j > i
                    c[i] = c[j]
                    c[j] = 1 &- 2 &* Int32(truncatingIfNeeded: signs & 1)
                    signs >>= 1
                }
            }
        }
    }
}

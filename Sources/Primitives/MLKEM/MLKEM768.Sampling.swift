extension MLKEM768 {
    /// The symmetric functions of FIPS 203 §4.1 and the samplers of §4.2.2, all straight on a
    /// `KeccakSponge` (no allocation): PRF_η (4.2), H (4.4), J (4.4), G (4.5), XOF (4.6),
    /// SampleNTT (Algorithm 7) and SamplePolyCBD_2 (Algorithm 8).
    enum Sampling {
        /// H(s) = SHA3-256(s) (FIPS 203 (4.4)); writes 32 bytes.
        static func h(_ s: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer) {
            var sponge = KeccakSponge(rate: 136, domain: 0x06)
            sponge.absorb(s)
            sponge.squeeze(into: UnsafeMutableRawBufferPointer(start: out, count: 32))
        }

        /// G(a ‖ b) = SHA3-512(a ‖ b) (FIPS 203 (4.5)); writes 64 bytes (the two 32-byte halves).
        static func g(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer) {
            var sponge = KeccakSponge(rate: 72, domain: 0x06)
            sponge.absorb(a)
            sponge.absorb(b)
            sponge.squeeze(into: UnsafeMutableRawBufferPointer(start: out, count: 64))
        }

        /// J(z ‖ c) = SHAKE256(z ‖ c, 8·32) (FIPS 203 (4.4)); writes 32 bytes.
        static func j(_ z: UnsafeRawBufferPointer, _ c: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer) {
            var sponge = KeccakSponge(rate: 136, domain: 0x1F)
            sponge.absorb(z)
            sponge.absorb(c)
            sponge.squeeze(into: UnsafeMutableRawBufferPointer(start: out, count: 32))
        }

        /// SamplePolyCBD_η(PRF_η(s, b)) for η = 2 (FIPS 203 (4.3) and Algorithm 8): PRF is
        /// SHAKE256(s ‖ b, 8·64·η), 128 bytes; coefficient i is x - y mod q where x and y are the
        /// sums of bits 4i, 4i+1 and of bits 4i+2, 4i+3 of that output. Branch-free.
        static func cbd2(seed s: UnsafeRawPointer, nonce b: UInt8, into f: UnsafeMutablePointer<UInt16>) {
            var sponge = KeccakSponge(rate: 136, domain: 0x1F)
            sponge.absorb(UnsafeRawBufferPointer(start: s, count: 32))
            var nonce = b
            withUnsafeBytes(of: &nonce) { sponge.absorb($0) }
            // 128 bytes fit in the first 136-byte block: read them in place.
            sponge.withNextBlock { block in
                for i in 0..<128 {
                    let byte = UInt32(block.load(fromByteOffset: i, as: UInt8.self))
                    // Per nibble: bit0 + bit1 and bit2 + bit3.
                    let pairs = (byte & 0x55) &+ ((byte >> 1) & 0x55)
                    let x0 = pairs & 3, y0 = (pairs >> 2) & 3
                    let x1 = (pairs >> 4) & 3, y1 = (pairs >> 6) & 3
                    f[2 &* i] = UInt16(truncatingIfNeeded: Field.csubq(x0 &+ q &- y0))
                    f[2 &* i &+ 1] = UInt16(truncatingIfNeeded: Field.csubq(x1 &+ q &- y1))
                }
            }
        }

        /// SampleNTT(ρ ‖ j ‖ i) (FIPS 203 Algorithm 7): 12-bit candidates from the SHAKE128 stream
        /// (XOF, (4.6)), three bytes giving two, kept when below q. Reads whole 168-byte blocks in
        /// place. Variable time in ρ only, which is public.
        static func sampleNTT(rho: UnsafeRawPointer, j: UInt8, i: UInt8, into a: UnsafeMutablePointer<UInt16>) {
            var sponge = KeccakSponge(rate: 168, domain: 0x1F)
            sponge.absorb(UnsafeRawBufferPointer(start: rho, count: 32))
            var index: (UInt8, UInt8) = (j, i)
            withUnsafeBytes(of: &index) { sponge.absorb($0) }
            var count = 0
            while count < 256 {
                sponge.withNextBlock { block in
                    var o = 0
                    while o < 168 && count < 256 {
                        let c0 = UInt16(block.load(fromByteOffset: o, as: UInt8.self))
                        let c1 = UInt16(block.load(fromByteOffset: o &+ 1, as: UInt8.self))
                        let c2 = UInt16(block.load(fromByteOffset: o &+ 2, as: UInt8.self))
                        let d1 = c0 | ((c1 & 15) << 8)
                        let d2 = (c1 >> 4) | (c2 << 4)
                        if d1 < UInt16(q) {
                            a[count] = d1
                            count &+= 1
                        }
                        if d2 < UInt16(q) && count < 256 {
                            a[count] = d2
                            count &+= 1
                        }
                        o &+= 3
                    }
                }
            }
        }

        /// Â with Â[i, j] = SampleNTT(ρ ‖ j ‖ i) (Algorithm 13 lines 3-7, Algorithm 14 lines 4-8),
        /// stored row-major: entry (i, j) at (i·k + j)·256.
        static func expandA(rho: UnsafeRawPointer, into a: UnsafeMutablePointer<UInt16>) {
            for i in 0..<k {
                for j in 0..<k {
                    sampleNTT(rho: rho, j: UInt8(j), i: UInt8(i), into: a + (i &* k &+ j) &* n)
                }
            }
        }
    }
}

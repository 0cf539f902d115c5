extension MLKEM768 {
    /// K-PKE, the component public-key encryption scheme of FIPS 203 §5 (Algorithms 13-15), on
    /// caller-provided memory. Not a public API: FIPS 203 §3.3 forbids using K-PKE on its own.
    enum KPKE {
        /// K-PKE.KeyGen (Algorithm 13) from the 32-byte seed d. Writes ek_PKE (1184 bytes) to `ek`,
        /// ŝ (k polynomials in the NTT domain) to `sHat`, and the values the public key caches:
        /// t̂ to `tHat` and Â (k·k polynomials, row-major) to `aHat`.
        static func keyGen(d: UnsafeRawPointer, ek: UnsafeMutableRawPointer, sHat: UnsafeMutablePointer<UInt16>,
                           tHat: UnsafeMutablePointer<UInt16>, aHat: UnsafeMutablePointer<UInt16>) {
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { rhoSigma in
                let rho = UnsafeRawPointer(rhoSigma.baseAddress!), sigma = rho + 32
                // Line 1: (ρ, σ) ← G(d ‖ k), the domain separation of the final standard.
                var kByte = UInt8(k)
                withUnsafeBytes(of: &kByte) {
                    Sampling.g(UnsafeRawBufferPointer(start: d, count: 32), $0, into: UnsafeMutableRawPointer(rhoSigma.baseAddress!))
                }
                Sampling.expandA(rho: rho, into: aHat)  // lines 3-7
                withUnsafeTemporaryAllocation(of: UInt16.self, capacity: k * n) { e in
                    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n) { acc in
                        let e = e.baseAddress!, acc = acc.baseAddress!
                        for i in 0..<k { Sampling.cbd2(seed: sigma, nonce: UInt8(i), into: sHat + i * n) }   // lines 8-11
                        for i in 0..<k { Sampling.cbd2(seed: sigma, nonce: UInt8(k + i), into: e + i * n) }  // lines 12-15
                        for i in 0..<k {                                                                      // lines 16-17
                            NTT.forward(sHat + i * n)
                            NTT.forward(e + i * n)
                        }
                        for i in 0..<k {                                                                      // line 18
                            acc.initialize(repeating: 0, count: n)
                            for j in 0..<k { NTT.multiplyAccumulate(aHat + (i * k + j) * n, sHat + j * n, into: acc) }
                            for c in 0..<n { acc[c] &+= UInt32(e[i * n + c]) }
                            NTT.reduce(acc, into: tHat + i * n)
                        }
                    }
                }
                // Lines 19-20: ek_PKE ← ByteEncode12(t̂) ‖ ρ.
                let out = ek.assumingMemoryBound(to: UInt8.self)
                for i in 0..<k { Encoding.encode(tHat + i * n, bits: 12, into: out + i * polyBytes12) }
                (ek + vectorBytes12).copyMemory(from: rho, byteCount: 32)
            }
        }

        /// K-PKE.Encrypt (Algorithm 14) of the 32-byte message m with the 32-byte randomness r,
        /// under the key whose t̂ and Â are given (lines 2-8 done once, by the public key).
        /// Writes the 1088-byte ciphertext c1 ‖ c2 to `c`.
        static func encrypt(tHat: UnsafePointer<UInt16>, aHat: UnsafePointer<UInt16>, m: UnsafeRawPointer,
                            r: UnsafeRawPointer, into c: UnsafeMutableRawPointer) {
            let out = c.assumingMemoryBound(to: UInt8.self)
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: (2 * k + 2) * n) { scratch in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n) { acc in
                    let y = scratch.baseAddress!, e1 = y + k * n, e2 = e1 + k * n, tmp = e2 + n
                    let acc = acc.baseAddress!
                    for i in 0..<k { Sampling.cbd2(seed: r, nonce: UInt8(i), into: y + i * n) }           // lines 9-12
                    for i in 0..<k { Sampling.cbd2(seed: r, nonce: UInt8(k + i), into: e1 + i * n) }      // lines 13-16
                    Sampling.cbd2(seed: r, nonce: UInt8(2 * k), into: e2)                                  // line 17
                    for i in 0..<k { NTT.forward(y + i * n) }                                              // line 18
                    // Line 19: u ← NTT^-1(Âᵀ ∘ ŷ) + e1; line 22: c1 ← ByteEncode_du(Compress_du(u)).
                    for i in 0..<k {
                        acc.initialize(repeating: 0, count: n)
                        for j in 0..<k { NTT.multiplyAccumulate(aHat + (j * k + i) * n, y + j * n, into: acc) }
                        NTT.reduce(acc, into: tmp)
                        NTT.inverse(tmp)
                        for c in 0..<n {
                            let u = Field.add(UInt32(tmp[c]), UInt32(e1[i * n + c]))
                            tmp[c] = UInt16(truncatingIfNeeded: Field.compress(u, du))
                        }
                        Encoding.encode(tmp, bits: du, into: out + i * 32 * du)
                    }
                    // Lines 20-21: μ ← Decompress_1(ByteDecode_1(m)); v ← NTT^-1(t̂ᵀ ∘ ŷ) + e2 + μ.
                    acc.initialize(repeating: 0, count: n)
                    for j in 0..<k { NTT.multiplyAccumulate(tHat + j * n, y + j * n, into: acc) }
                    NTT.reduce(acc, into: tmp)
                    NTT.inverse(tmp)
                    for c in 0..<n {
                        let bit = UInt32(m.load(fromByteOffset: c >> 3, as: UInt8.self) >> UInt8(c & 7)) & 1
                        let v = Field.add(Field.add(UInt32(tmp[c]), UInt32(e2[c])), Field.decompress(bit, 1))
                        tmp[c] = UInt16(truncatingIfNeeded: Field.compress(v, dv))                      // line 23
                    }
                    Encoding.encode(tmp, bits: dv, into: out + c1Bytes)
                }
            }
        }

        /// K-PKE.Decrypt (Algorithm 15) of the 1088-byte ciphertext c with ŝ (already decoded from
        /// dk_PKE, line 5). Writes the 32-byte message to `m`.
        static func decrypt(sHat: UnsafePointer<UInt16>, c: UnsafeRawPointer, into m: UnsafeMutableRawPointer) {
            let bytes = c.assumingMemoryBound(to: UInt8.self)
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: (k + 1) * n) { scratch in
                withUnsafeTemporaryAllocation(of: UInt32.self, capacity: n) { acc in
                    let u = scratch.baseAddress!, w = u + k * n, acc = acc.baseAddress!
                    acc.initialize(repeating: 0, count: n)
                    for i in 0..<k {
                        // Line 3: u' ← Decompress_du(ByteDecode_du(c1)); line 6 takes NTT(u').
                        Encoding.decode(bytes + i * 32 * du, bits: du, into: u + i * n)
                        for c in 0..<n { u[i * n + c] = UInt16(truncatingIfNeeded: Field.decompress(UInt32(u[i * n + c]), du)) }
                        NTT.forward(u + i * n)
                        NTT.multiplyAccumulate(sHat + i * n, u + i * n, into: acc)
                    }
                    NTT.reduce(acc, into: w)
                    NTT.inverse(w)
                    // Line 4: v' ← Decompress_dv(ByteDecode_dv(c2)); line 6: w ← v' - NTT^-1(ŝᵀ ∘ NTT(u')).
                    Encoding.decode(bytes + c1Bytes, bits: dv, into: u)
                    let out = m.assumingMemoryBound(to: UInt8.self)
                    out.initialize(repeating: 0, count: 32)
                    for c in 0..<n {
                        let v = Field.decompress(UInt32(u[c]), dv)
                        let bit = Field.compress(Field.sub(v, UInt32(w[c])), 1)                        // line 7
                        out[c >> 3] |= UInt8(truncatingIfNeeded: bit << UInt32(c & 7))
                    }
                }
            }
        }
    }
}

extension MLDSA65 {
    /// The internal algorithms of FIPS 204 §6: ML-DSA.KeyGen_internal (Algorithm 6),
    /// ML-DSA.Sign_internal (Algorithm 7) and ML-DSA.Verify_internal (Algorithm 8), plus the
    /// message representative μ (Algorithm 7 line 6 / Algorithm 8 line 7).
    ///
    /// Why a single scratch buffer: each signature attempt touches ~40 polynomials; one temporary
    /// allocation per call, carved into vectors, keeps the rejection loop allocation-free.
    enum Algorithms {
        /// μ = H(tr || M', 64) where M' is given as pieces (so the external interface can feed
        /// 0 || |ctx| || ctx || M without concatenating).
        static func mu(tr: [UInt8], pieces: (inout KeccakSponge) -> Void) -> [UInt8] {
            var h = KeccakSponge(rate: 136, domain: 0x1F)
            tr.withUnsafeBytes { h.absorb($0) }
            pieces(&h)
            return squeeze(&h, muBytes)
        }

        static func squeeze(_ h: inout KeccakSponge, _ count: Int) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: count) { buf, m in
                h.squeeze(into: UnsafeMutableRawBufferPointer(buf))
                m = count
            }
        }

        /// Absorbs any byte collection, directly when its storage is contiguous.
        static func absorb<C: Collection>(_ h: inout KeccakSponge, _ bytes: C) where C.Element == UInt8 {
            if bytes.withContiguousStorageIfAvailable({ h.absorb(UnsafeRawBufferPointer($0)) }) != nil { return }
            Array(bytes).withUnsafeBytes { h.absorb($0) }
        }

        /// Â ∘ v̂ row by row, then NTT^-1, into `out` (k polynomials, values in [0, q)). Products are
        /// summed in 64 bits and reduced once: |Â| < q and |v̂| < 9q give |Σ| < 5·9·q² < q·2^31,
        /// inside `montgomeryReduce`'s range. `subtract`, if given, is ĉ and the k polynomials
        /// t̂1 whose product ĉ∘t̂1 is subtracted first (verification, Algorithm 8 line 9).
        static func matrixTimesVector(_ aHat: UnsafePointer<Int32>, _ vHat: UnsafePointer<Int32>,
                                      subtract: (c: UnsafePointer<Int32>, t: UnsafePointer<Int32>)?,
                                      into out: UnsafeMutablePointer<Int32>) {
            for r in 0..<k {
                let row = aHat + r * l * n
                let o = out + r * n
                for j in 0..<n {
                    var acc: Int64 = 0
                    for s in 0..<l {
                        acc &+= Int64(row[s * n + j]) &* Int64(vHat[s * n + j])
                    }
                    if let sub = subtract {
                        acc &-= Int64(sub.c[j]) &* Int64(sub.t[r * n + j])
                    }
                    o[j] = Field.montgomeryReduce(acc)
                }
                NTT.inverseToMontgomery(o)
                for j in 0..<n { o[j] = Field.caddq(o[j]) }
            }
        }

        /// NTT^-1(ĉ ∘ ŝ) for one polynomial, reduced to the centred representative when small.
        @inline(__always)
        static func challengeProduct(_ cHat: UnsafePointer<Int32>, _ sHat: UnsafePointer<Int32>,
                                     into out: UnsafeMutablePointer<Int32>) {
            for j in 0..<n { out[j] = Field.montgomeryReduce(Int64(cHat[j]) &* Int64(sHat[j])) }
            NTT.inverseToMontgomery(out)
            for j in 0..<n { out[j] = Field.reduce32(out[j]) }
        }

        /// w1Encode (FIPS 204 Algorithm 28) of k polynomials with coefficients in [0, 16).
        static func w1Encode(_ w1: UnsafePointer<Int32>, into out: UnsafeMutableRawPointer) {
            for i in 0..<(k * n / 2) {
                let b = UInt8(truncatingIfNeeded: w1[2 * i] | w1[2 * i + 1] << 4)
                out.storeBytes(of: b, toByteOffset: i, as: UInt8.self)
            }
        }

        /// c̃ = H(μ || w1Encode(w1), λ/4) (Algorithm 7 line 15, Algorithm 8 line 12).
        static func commitmentHash(mu: UnsafeRawBufferPointer, w1: UnsafePointer<Int32>,
                                   into cTilde: UnsafeMutableRawBufferPointer) {
            var h = KeccakSponge(rate: 136, domain: 0x1F)
            h.absorb(mu)
            withUnsafeTemporaryAllocation(byteCount: k * w1PolyBytes, alignment: 8) { buf in
                w1Encode(w1, into: buf.baseAddress!)
                h.absorb(UnsafeRawBufferPointer(buf))
            }
            h.squeeze(into: cTilde)
        }

        // MARK: Algorithm 6

        /// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) from the 32-byte seed ξ.
        static func keyGen(seed xi: [UInt8]) -> PrivateKey {
            precondition(xi.count == seedByteCount)
            // (ρ, ρ', K) = H(ξ || k || l, 128)
            var h = KeccakSponge(rate: 136, domain: 0x1F)
            xi.withUnsafeBytes { h.absorb($0) }
            var kl: (UInt8, UInt8) = (UInt8(k), UInt8(l))
            withUnsafeBytes(of: &kl) { h.absorb($0) }
            let expanded = squeeze(&h, 128)
            let rho = Array(expanded[0..<32])
            let rhoPrime = Array(expanded[32..<96])
            let key = Array(expanded[96..<128])

            var aHat = [Int32](repeating: 0, count: k * l * n)
            var s1 = [Int32](repeating: 0, count: l * n)
            var s2 = [Int32](repeating: 0, count: k * n)
            aHat.withUnsafeMutableBufferPointer { a in
                rho.withUnsafeBytes { Sampling.expandA(rho: $0.baseAddress!, into: a.baseAddress!) }
            }
            s1.withUnsafeMutableBufferPointer { p1 in
                s2.withUnsafeMutableBufferPointer { p2 in
                    rhoPrime.withUnsafeBytes {
                        Sampling.expandS(rhoPrime: $0.baseAddress!, s1: p1.baseAddress!, s2: p2.baseAddress!)
                    }
                }
            }
            return assemble(rho: rho, key: key, s1: s1, s2: s2, aHat: aHat, seed: xi, expectedT0: nil, expectedTr: nil)!
        }

        /// The shared tail of key generation and of decoding an expanded private key:
        /// t = NTT^-1(Â ∘ NTT(s1)) + s2, (t1, t0) = Power2Round(t), pk = pkEncode(ρ, t1),
        /// tr = H(pk, 64) (Algorithm 6 lines 5-9). When decoding, the recomputed t0 and tr must
        /// equal the encoded ones, otherwise nil (the encoding is not a consistent key).
        static func assemble(rho: [UInt8], key: [UInt8], s1: [Int32], s2: [Int32], aHat: [Int32],
                             seed: [UInt8]?, expectedT0: [Int32]?, expectedTr: [UInt8]?) -> PrivateKey? {
            var s1Hat = s1, s2Hat = s2
            var t1 = [Int32](repeating: 0, count: k * n)
            var t0 = [Int32](repeating: 0, count: k * n)
            s1Hat.withUnsafeMutableBufferPointer { p in
                for i in 0..<l { NTT.forward(p.baseAddress! + i * n) }
                for j in 0..<(l * n) { p[j] = Field.reduce32(p[j]) }
            }
            s2Hat.withUnsafeMutableBufferPointer { p in
                for i in 0..<k { NTT.forward(p.baseAddress! + i * n) }
                for j in 0..<(k * n) { p[j] = Field.reduce32(p[j]) }
            }
            aHat.withUnsafeBufferPointer { a in
                s1Hat.withUnsafeBufferPointer { v in
                    t1.withUnsafeMutableBufferPointer { t in
                        matrixTimesVector(a.baseAddress!, v.baseAddress!, subtract: nil, into: t.baseAddress!)
                    }
                }
            }
            for j in 0..<(k * n) {
                let t = Field.freeze(t1[j] &+ s2[j])
                (t1[j], t0[j]) = Field.power2Round(t)
            }
            if let expectedT0, expectedT0 != t0 { return nil }
            var t0Hat = t0
            t0Hat.withUnsafeMutableBufferPointer { p in
                for i in 0..<k { NTT.forward(p.baseAddress! + i * n) }
                for j in 0..<(k * n) { p[j] = Field.reduce32(p[j]) }
            }
            let publicKey = PublicKey(rho: rho, t1: t1, aHat: aHat)
            if let expectedTr, expectedTr != publicKey.tr { return nil }
            return PrivateKey(seed: seed, rho: rho, key: key, s1: s1, s2: s2, t0: t0,
                              s1Hat: s1Hat, s2Hat: s2Hat, t0Hat: t0Hat, publicKey: publicKey)
        }

        // MARK: Algorithm 7

        /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) from line 7 on, given μ (64 bytes) and
        /// rnd (32 bytes). Loops until a candidate passes every rejection test (lines 10-28).
        ///
        /// `oversizedZ` inverts the z test (for conformance vectors): the loop then stops at the
        /// first candidate whose z fails ‖z‖∞ < γ1 - β (every coefficient still in (-γ1, γ1], so it
        /// encodes) and which passes every other test.
        static func sign(_ sk: PrivateKey, mu: [UInt8], rnd: [UInt8], oversizedZ: Bool = false) -> [UInt8] {
            precondition(mu.count == muBytes && rnd.count == rndBytes)
            // ρ'' = H(K || rnd || μ, 64)
            var h = KeccakSponge(rate: 136, domain: 0x1F)
            sk.key.withUnsafeBytes { h.absorb($0) }
            rnd.withUnsafeBytes { h.absorb($0) }
            mu.withUnsafeBytes { h.absorb($0) }
            let rhoPrimePrime = squeeze(&h, 64)

            var signature = [UInt8](repeating: 0, count: signatureByteCount)
            let vectorL = l * n, vectorK = k * n
            withUnsafeTemporaryAllocation(of: Int32.self, capacity: 2 * vectorL + 5 * vectorK + n) { ws in
                let y = ws.baseAddress!
                let z = y + vectorL
                let w = z + vectorL
                let w1 = w + vectorK
                let r = w1 + vectorK          // w - <<cs2>>
                let ct0 = r + vectorK
                let hint = ct0 + vectorK
                let c = hint + vectorK
                sk.publicKey.aHat.withUnsafeBufferPointer { aHat in
                sk.s1Hat.withUnsafeBufferPointer { s1Hat in
                sk.s2Hat.withUnsafeBufferPointer { s2Hat in
                sk.t0Hat.withUnsafeBufferPointer { t0Hat in
                rhoPrimePrime.withUnsafeBytes { rhoPP in
                mu.withUnsafeBytes { muBytes in
                signature.withUnsafeMutableBytes { sig in
                    var kappa = 0
                    attempt: while true {
                        defer { kappa += l }
                        // y = ExpandMask(ρ'', κ); w = NTT^-1(Â ∘ NTT(y)); w1 = HighBits(w)
                        Sampling.expandMask(rhoPrimePrime: rhoPP.baseAddress!, kappa: kappa, into: y)
                        z.update(from: y, count: vectorL)
                        for i in 0..<l { NTT.forward(z + i * n) }
                        matrixTimesVector(aHat.baseAddress!, z, subtract: nil, into: w)
                        for j in 0..<vectorK { w1[j] = Field.highBits(w[j]) }
                        // c̃ = H(μ || w1Encode(w1), λ/4); c = SampleInBall(c̃); ĉ = NTT(c)
                        let cTilde = UnsafeMutableRawBufferPointer(rebasing: sig[0..<cTildeByteCount])
                        commitmentHash(mu: muBytes, w1: w1, into: cTilde)
                        Sampling.sampleInBall(cTilde: UnsafeRawPointer(cTilde.baseAddress!), into: c)
                        NTT.forward(c)
                        // z = y + <<cs1>>; reject when ||z||∞ ≥ γ1 - β
                        for i in 0..<l {
                            challengeProduct(c, s1Hat.baseAddress! + i * n, into: z + i * n)
                        }
                        var zOutOfRange = false
                        for j in 0..<vectorL {
                            let v = Field.reduce32(z[j] &+ y[j])
                            if Field.magnitude(v) >= gamma1 - beta {
                                if !oversizedZ || v > gamma1 || v <= -gamma1 { continue attempt }
                                zOutOfRange = true
                            }
                            z[j] = v
                        }
                        if oversizedZ && !zOutOfRange { continue attempt }
                        // r = w - <<cs2>>, r0 = LowBits(r); reject when ||r0||∞ ≥ γ2 - β
                        for i in 0..<k {
                            challengeProduct(c, s2Hat.baseAddress! + i * n, into: r + i * n)
                        }
                        for j in 0..<vectorK {
                            let v = Field.freeze(w[j] &- r[j])
                            if Field.magnitude(Field.decompose(v).low) >= gamma2 - beta { continue attempt }
                            r[j] = v
                        }
                        // <<ct0>>; reject when ||ct0||∞ ≥ γ2
                        for i in 0..<k {
                            challengeProduct(c, t0Hat.baseAddress! + i * n, into: ct0 + i * n)
                        }
                        for j in 0..<vectorK where Field.magnitude(ct0[j]) >= gamma2 { continue attempt }
                        // h = MakeHint(-<<ct0>>, w - <<cs2>> + <<ct0>>) (Algorithm 39: HighBits(r + ct0) ≠
                        // HighBits(r + ct0 - ct0)); reject when more than ω ones.
                        var ones = 0
                        for j in 0..<vectorK {
                            let shifted = Field.freeze(r[j] &+ ct0[j])
                            let differs: Int32 = Field.highBits(shifted) != Field.highBits(r[j]) ? 1 : 0
                            hint[j] = differs
                            ones &+= Int(differs)
                        }
                        if ones > omega { continue attempt }
                        // σ = sigEncode(c̃, z mod± q, h) (Algorithm 26); c̃ is already in place.
                        let base = sig.baseAddress!
                        for i in 0..<l {
                            Encoding.pack(z + i * n, count: n, bits: 20, bias: gamma1,
                                          into: base + cTildeByteCount + i * zPolyBytes)
                        }
                        Encoding.hintPack(hint, into: base + cTildeByteCount + l * zPolyBytes)
                        break attempt
                    }
                }
                }
                }
                }
                }
                }
                }
            }
            return signature
        }

        // MARK: Algorithm 8

        /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) from line 3 on, given μ. False for a
        /// signature of the wrong length, a malformed hint (Algorithm 21 returns ⊥), ||z||∞ ≥ γ1 - β
        /// or a commitment hash mismatch.
        static func verify(_ pk: PublicKey, signature: UnsafeRawBufferPointer, mu: [UInt8],
                           rule: VerificationRule = .fips204) -> Bool {
            guard signature.count == signatureByteCount, mu.count == muBytes,
                  let sigBase = signature.baseAddress else { return false }
            let vectorL = l * n, vectorK = k * n
            return withUnsafeTemporaryAllocation(of: Int32.self, capacity: vectorL + 2 * vectorK + n) { ws in
                let z = ws.baseAddress!
                let hint = z + vectorL
                let w = hint + vectorK
                let c = w + vectorK
                // (c̃, z, h) = sigDecode(σ) (Algorithm 27)
                for i in 0..<l {
                    Encoding.unpack(sigBase + cTildeByteCount + i * zPolyBytes, count: n, bits: 20,
                                    bias: gamma1, into: z + i * n)
                }
                if rule.checkZBound {
                    for j in 0..<vectorL where Field.magnitude(z[j]) >= gamma1 - beta { return false }
                }
                guard Encoding.hintUnpack(sigBase + cTildeByteCount + l * zPolyBytes, into: hint, rule: rule) else {
                    return false
                }
                // c = SampleInBall(c̃); w'Approx = NTT^-1(Â ∘ NTT(z) - NTT(c) ∘ NTT(t1 · 2^d))
                Sampling.sampleInBall(cTilde: sigBase, into: c)
                NTT.forward(c)
                for i in 0..<l { NTT.forward(z + i * n) }
                pk.aHat.withUnsafeBufferPointer { aHat in
                    pk.t1Hat.withUnsafeBufferPointer { t1Hat in
                        matrixTimesVector(aHat.baseAddress!, z, subtract: (UnsafePointer(c), t1Hat.baseAddress!),
                                          into: w)
                    }
                }
                // w1' = UseHint(h, w'Approx); c̃' = H(μ || w1Encode(w1'), λ/4)
                for j in 0..<vectorK { w[j] = Field.useHint(hint[j], w[j]) }
                return withUnsafeTemporaryAllocation(byteCount: cTildeByteCount, alignment: 8) { cTildePrime in
                    mu.withUnsafeBytes { commitmentHash(mu: $0, w1: w, into: cTildePrime) }
                    var diff: UInt8 = 0
                    for i in 0..<cTildeByteCount { diff |= cTildePrime[i] ^ signature[i] }
                    return diff == 0
                }
            }
        }
    }
}

extension MLKEM768 {
    /// An ML-KEM-768 decapsulation key, generated from (and represented by) its 64-byte seed
    /// d ‖ z, or decoded from the 2400-byte expanded form dk = dk_PKE ‖ ek ‖ H(ek) ‖ z.
    ///
    /// Why it caches: ŝ is decoded once and the public key keeps t̂ and Â, so a decapsulation
    /// (decrypt, then re-encrypt for the implicit-rejection comparison) does no key expansion.
    public struct PrivateKey: Sendable {
        /// d ‖ z, or nil for a key decoded from the expanded form (which does not contain d).
        let seed: [UInt8]?
        /// dk, 2400 bytes, exactly as generated or given.
        let expanded: [UInt8]
        /// ŝ = ByteDecode12(dk_PKE) (Algorithm 15 line 5), k polynomials.
        let sHat: [UInt16]
        /// The encapsulation key inside dk, with its cached t̂, Â and H(ek).
        public let publicKey: PublicKey

        /// ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16) from the 64-byte seed d ‖ z (d first,
        /// as in the seed format of FIPS 203 §7.1 and the ACVP/pq-kat files). ML-KEM.KeyGen
        /// (Algorithm 19) is this with a random seed. Throws `.invalidLength` for any other length.
        public init<C: Collection>(seed: C) throws where C.Element == UInt8 {
            let dz = Array(seed)
            guard dz.count == seedByteCount else {
                throw CryptoError(.invalidLength, "ML-KEM-768 seed d ‖ z must be \(seedByteCount) bytes, got \(dz.count)")
            }
            self.init(validSeed: dz)
        }

        /// A fresh key from `SystemRandomNumberGenerator` (FIPS 203 Algorithm 19).
        public init() {
            var rng = SystemRandomNumberGenerator()
            self.init(validSeed: (0..<seedByteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) })
        }

        private init(validSeed dz: [UInt8]) {
            var sHat = [UInt16](repeating: 0, count: k * n)
            var tHat = [UInt16](repeating: 0, count: k * n)
            var aHat = [UInt16](repeating: 0, count: k * k * n)
            var ek = [UInt8](repeating: 0, count: publicKeyByteCount)
            dz.withUnsafeBytes { d in
                ek.withUnsafeMutableBytes { e in
                    sHat.withUnsafeMutableBufferPointer { s in
                        tHat.withUnsafeMutableBufferPointer { t in
                            aHat.withUnsafeMutableBufferPointer { a in
                                KPKE.keyGen(d: d.baseAddress!, ek: e.baseAddress!, sHat: s.baseAddress!,
                                            tHat: t.baseAddress!, aHat: a.baseAddress!)
                            }
                        }
                    }
                }
            }
            let publicKey = PublicKey(encoded: ek, tHat: tHat, aHat: aHat)
            // Algorithm 16 line 3: dk ← dk_PKE ‖ ek ‖ H(ek) ‖ z, with dk_PKE = ByteEncode12(ŝ).
            var dk = [UInt8](repeating: 0, count: expandedPrivateKeyByteCount)
            dk.withUnsafeMutableBufferPointer { out in
                sHat.withUnsafeBufferPointer { s in
                    for i in 0..<k { Encoding.encode(s.baseAddress! + i * n, bits: 12, into: out.baseAddress! + i * polyBytes12) }
                }
            }
            dk.replaceSubrange(vectorBytes12..<(vectorBytes12 + publicKeyByteCount), with: ek)
            dk.replaceSubrange(2336..<2368, with: publicKey.h)
            dk.replaceSubrange(2368..<2400, with: dz[32..<64])
            self.seed = dz
            self.expanded = dk
            self.sHat = sHat
            self.publicKey = publicKey
        }

        /// Decodes an expanded decapsulation key with the checks of FIPS 203 §7.3 that concern
        /// dk: the type check (2400 bytes, else `.invalidLength`) and the hash check
        /// H(dk[384k : 768k + 32]) = dk[768k + 32 : 768k + 64] (else `.invalidEncoding`).
        /// As in §7.3, the ek inside dk is not modulus-checked; it is decoded mod q like dk_PKE.
        /// `seedRepresentation` of such a key is empty.
        public init<C: Collection>(expandedRepresentation: C) throws where C.Element == UInt8 {
            let dk = Array(expandedRepresentation)
            guard dk.count == expandedPrivateKeyByteCount else {
                throw CryptoError(.invalidLength, "ML-KEM-768 decapsulation key must be \(expandedPrivateKeyByteCount) bytes, got \(dk.count)")
            }
            let (publicKey, _) = PublicKey.decode(Array(dk[vectorBytes12..<(vectorBytes12 + publicKeyByteCount)]))
            guard ConstantTime.equal(publicKey.h, dk[2336..<2368]) else {
                throw CryptoError(.invalidEncoding, "ML-KEM-768 decapsulation key fails the hash check (H(ek) does not match)")
            }
            let sHat = [UInt16](unsafeUninitializedCapacity: k * n) { s, count in
                _ = dk.withUnsafeBufferPointer { Encoding.decode12Reducing($0.baseAddress!, polys: k, into: s.baseAddress!) }
                count = k * n
            }
            self.seed = nil
            self.expanded = dk
            self.sHat = sHat
            self.publicKey = publicKey
        }

        /// d ‖ z, the 64 bytes this key was generated from (empty for a key decoded from the
        /// expanded form, which does not contain d).
        public var seedRepresentation: [UInt8] { seed ?? [] }

        /// dk = dk_PKE ‖ ek ‖ H(ek) ‖ z, 2400 bytes (Algorithm 16 line 3).
        public var expandedRepresentation: [UInt8] { expanded }

        /// ML-KEM.Decaps (FIPS 203 Algorithm 21): the ciphertext type check of §7.3 (1088 bytes,
        /// else `.invalidLength`; the dk checks were done when this key was made), then
        /// ML-KEM.Decaps_internal (Algorithm 18) with implicit rejection: a ciphertext that does
        /// not re-encrypt to itself yields K̄ = J(z ‖ c), never an error.
        public func decapsulate<C: Collection>(_ ciphertext: C) throws -> [UInt8] where C.Element == UInt8 {
            let c = Array(ciphertext)
            guard c.count == ciphertextByteCount else {
                throw CryptoError(.invalidLength, "ML-KEM-768 ciphertext must be \(ciphertextByteCount) bytes, got \(c.count)")
            }
            return c.withUnsafeBytes { decapsulateInternal($0.baseAddress!) }
        }

        /// Algorithm 18 on a 1088-byte ciphertext.
        func decapsulateInternal(_ c: UnsafeRawPointer) -> [UInt8] {
            [UInt8](unsafeUninitializedCapacity: 32) { out, count in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32 + 64 + 32 + ciphertextByteCount) { scratch in
                    let mPrime = UnsafeMutableRawPointer(scratch.baseAddress!)
                    let kr = mPrime + 32, kBar = kr + 64, cPrime = kBar + 32
                    sHat.withUnsafeBufferPointer { KPKE.decrypt(sHat: $0.baseAddress!, c: c, into: mPrime) }   // line 7
                    expanded.withUnsafeBytes { dk in
                        let h = UnsafeRawBufferPointer(rebasing: dk[2336..<2368])
                        let z = UnsafeRawBufferPointer(rebasing: dk[2368..<2400])
                        Sampling.g(UnsafeRawBufferPointer(start: mPrime, count: 32), h, into: kr)            // line 8
                        Sampling.j(z, UnsafeRawBufferPointer(start: c, count: ciphertextByteCount), into: kBar) // line 9
                    }
                    publicKey.tHat.withUnsafeBufferPointer { t in                                          // line 10
                        publicKey.aHat.withUnsafeBufferPointer { a in
                            KPKE.encrypt(tHat: t.baseAddress!, aHat: a.baseAddress!, m: mPrime, r: kr + 32, into: cPrime)
                        }
                    }
                    // Lines 11-13: K' unless c ≠ c', then K̄; full-length comparison, masked selection.
                    var diff: UInt8 = 0
                    for i in 0..<ciphertextByteCount {
                        diff |= c.load(fromByteOffset: i, as: UInt8.self) ^ cPrime.load(fromByteOffset: i, as: UInt8.self)
                    }
                    let keep = UInt8(truncatingIfNeeded: 0 &- ((UInt32(diff) &- 1) >> 31))  // 0xff iff diff == 0
                    for i in 0..<32 {
                        let kp = kr.load(fromByteOffset: i, as: UInt8.self)
                        let kb = kBar.load(fromByteOffset: i, as: UInt8.self)
                        out[i] = kb ^ (keep & (kp ^ kb))
                    }
                }
                count = 32
            }
        }
    }
}

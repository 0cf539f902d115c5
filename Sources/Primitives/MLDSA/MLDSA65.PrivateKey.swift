extension MLDSA65 {
    /// An ML-DSA-65 signing key, generated from (and represented by) its 32-byte seed ξ.
    ///
    /// Why it caches: FIPS 204 allows storing either ξ or the expanded key; this keeps ξ as the
    /// representation and holds the NTT forms of s1, s2, t0 and the expanded Â (shared with
    /// `publicKey`), so each signature only does the per-signature work of Algorithm 7.
    public struct PrivateKey: Sendable {
        /// ξ, or nil for a key decoded from its expanded form (KATs only).
        let seed: [UInt8]?
        let rho: [UInt8]
        /// K, the 32-byte signing seed mixed into ρ''.
        let key: [UInt8]
        let s1: [Int32], s2: [Int32], t0: [Int32]
        let s1Hat: [Int32], s2Hat: [Int32], t0Hat: [Int32]
        /// The matching verification key (pkEncode(ρ, t1) with its cached expansions).
        public let publicKey: PublicKey

        init(seed: [UInt8]?, rho: [UInt8], key: [UInt8], s1: [Int32], s2: [Int32], t0: [Int32],
             s1Hat: [Int32], s2Hat: [Int32], t0Hat: [Int32], publicKey: PublicKey) {
            self.seed = seed
            self.rho = rho
            self.key = key
            self.s1 = s1; self.s2 = s2; self.t0 = t0
            self.s1Hat = s1Hat; self.s2Hat = s2Hat; self.t0Hat = t0Hat
            self.publicKey = publicKey
        }

        /// ML-DSA.KeyGen_internal (FIPS 204 Algorithm 6) from ξ; ML-DSA.KeyGen (Algorithm 1) is
        /// this with ξ drawn from a CSPRNG. Throws `.invalidLength` unless ξ is 32 bytes.
        public init<C: Collection>(seed: C) throws where C.Element == UInt8 {
            let xi = Array(seed)
            guard xi.count == seedByteCount else {
                throw CryptoError(.invalidLength, "ML-DSA-65 seed must be \(seedByteCount) bytes, got \(xi.count)")
            }
            self = Algorithms.keyGen(seed: xi)
        }

        /// A fresh key from `SystemRandomNumberGenerator` (FIPS 204 Algorithm 1).
        public init() {
            var rng = SystemRandomNumberGenerator()
            let xi = (0..<seedByteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            self = Algorithms.keyGen(seed: xi)
        }

        /// Decodes an expanded private key (skDecode, FIPS 204 Algorithm 25), as ACVP sigGen
        /// files give it. Beyond the length (`.invalidLength`), the key must be consistent:
        /// s1, s2 coefficients in [-η, η], and t0 and tr equal to those recomputed from ρ, s1, s2
        /// (`.invalidEncoding` otherwise). `seedRepresentation` of such a key is empty.
        package init<C: Collection>(expandedRepresentation: C) throws where C.Element == UInt8 {
            let bytes = Array(expandedRepresentation)
            guard bytes.count == privateKeyByteCount else {
                throw CryptoError(.invalidLength, "ML-DSA-65 expanded private key must be \(privateKeyByteCount) bytes, got \(bytes.count)")
            }
            let rho = Array(bytes[0..<32])
            let key = Array(bytes[32..<64])
            let tr = Array(bytes[64..<128])
            var s1 = [Int32](repeating: 0, count: l * n)
            var s2 = [Int32](repeating: 0, count: k * n)
            var t0 = [Int32](repeating: 0, count: k * n)
            bytes.withUnsafeBytes { src in
                var offset = 128
                s1.withUnsafeMutableBufferPointer { p in
                    for i in 0..<l {
                        Encoding.unpack(src.baseAddress! + offset, count: n, bits: 4, bias: eta, into: p.baseAddress! + i * n)
                        offset += etaPolyBytes
                    }
                }
                s2.withUnsafeMutableBufferPointer { p in
                    for i in 0..<k {
                        Encoding.unpack(src.baseAddress! + offset, count: n, bits: 4, bias: eta, into: p.baseAddress! + i * n)
                        offset += etaPolyBytes
                    }
                }
                t0.withUnsafeMutableBufferPointer { p in
                    for i in 0..<k {
                        Encoding.unpack(src.baseAddress! + offset, count: n, bits: 13, bias: 1 << 12, into: p.baseAddress! + i * n)
                        offset += t0PolyBytes
                    }
                }
            }
            guard s1.allSatisfy({ $0 >= -eta }) && s2.allSatisfy({ $0 >= -eta }) else {
                throw CryptoError(.invalidEncoding, "ML-DSA-65 private key: s1/s2 coefficient outside [-η, η]")
            }
            var aHat = [Int32](repeating: 0, count: k * l * n)
            aHat.withUnsafeMutableBufferPointer { a in
                rho.withUnsafeBytes { Sampling.expandA(rho: $0.baseAddress!, into: a.baseAddress!) }
            }
            guard let decoded = Algorithms.assemble(rho: rho, key: key, s1: s1, s2: s2, aHat: aHat, seed: nil,
                                                    expectedT0: t0, expectedTr: tr) else {
                throw CryptoError(.invalidEncoding, "ML-DSA-65 private key: t0 or tr does not match ρ, s1, s2")
            }
            self = decoded
        }

        /// ξ, the 32-byte seed this key was generated from (empty for a key decoded from the
        /// expanded form, which does not contain it).
        public var seedRepresentation: [UInt8] { seed ?? [] }

        /// skEncode (FIPS 204 Algorithm 24): ρ || K || tr || s1 || s2 || t0, 4032 bytes.
        package var encoded: [UInt8] {
            var out = [UInt8](repeating: 0, count: privateKeyByteCount)
            out.replaceSubrange(0..<32, with: rho)
            out.replaceSubrange(32..<64, with: key)
            out.replaceSubrange(64..<128, with: publicKey.tr)
            out.withUnsafeMutableBytes { dst in
                var offset = 128
                s1.withUnsafeBufferPointer { p in
                    for i in 0..<l {
                        Encoding.pack(p.baseAddress! + i * n, count: n, bits: 4, bias: eta, into: dst.baseAddress! + offset)
                        offset += etaPolyBytes
                    }
                }
                s2.withUnsafeBufferPointer { p in
                    for i in 0..<k {
                        Encoding.pack(p.baseAddress! + i * n, count: n, bits: 4, bias: eta, into: dst.baseAddress! + offset)
                        offset += etaPolyBytes
                    }
                }
                t0.withUnsafeBufferPointer { p in
                    for i in 0..<k {
                        Encoding.pack(p.baseAddress! + i * n, count: n, bits: 13, bias: 1 << 12, into: dst.baseAddress! + offset)
                        offset += t0PolyBytes
                    }
                }
            }
            return out
        }

        /// ML-DSA.Sign (FIPS 204 Algorithm 2), hedged: rnd is 32 bytes from
        /// `SystemRandomNumberGenerator`. Throws `.invalidParameter` for a context over 255 bytes.
        public func signature<M: Collection>(for message: M, context: [UInt8] = []) throws -> [UInt8]
        where M.Element == UInt8 {
            var rng = SystemRandomNumberGenerator()
            let rnd = (0..<rndBytes).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            return try externalSignature(message, context: context, rnd: rnd)
        }

        /// ML-DSA.Sign (FIPS 204 Algorithm 2), deterministic variant: rnd = 32 zero bytes.
        /// Throws `.invalidParameter` for a context over 255 bytes.
        public func deterministicSignature<M: Collection>(for message: M, context: [UInt8] = []) throws -> [UInt8]
        where M.Element == UInt8 {
            try externalSignature(message, context: context, rnd: [UInt8](repeating: 0, count: rndBytes))
        }

        /// Algorithm 2 with a given rnd (32 bytes, else `.invalidLength`).
        package func signature(for message: [UInt8], context: [UInt8], randomness: [UInt8]) throws -> [UInt8] {
            guard randomness.count == rndBytes else {
                throw CryptoError(.invalidLength, "ML-DSA rnd must be \(rndBytes) bytes, got \(randomness.count)")
            }
            return try externalSignature(message, context: context, rnd: randomness)
        }

        /// M' = IntegerToBytes(0, 1) || IntegerToBytes(|ctx|, 1) || ctx || M (Algorithm 2 line 10),
        /// absorbed into μ without building M'.
        private func externalSignature<M: Collection>(_ message: M, context: [UInt8], rnd: [UInt8],
                                                      oversizedZ: Bool = false) throws -> [UInt8]
        where M.Element == UInt8 {
            guard context.count <= maxContextBytes else {
                throw CryptoError(.invalidParameter, "ML-DSA context must be at most 255 bytes, got \(context.count)")
            }
            let mu = Algorithms.mu(tr: publicKey.tr) { h in
                var header: (UInt8, UInt8) = (0, UInt8(context.count))
                withUnsafeBytes(of: &header) { h.absorb($0) }
                context.withUnsafeBytes { h.absorb($0) }
                Algorithms.absorb(&h, message)
            }
            return Algorithms.sign(self, mu: mu, rnd: rnd, oversizedZ: oversizedZ)
        }

        /// A deterministic signature (rnd = 32 zero bytes) that FIPS 204 verification MUST reject
        /// for one reason only: ‖z‖∞ ≥ γ1 - β. It is the first candidate of Algorithm 7's loop
        /// that fails the z test and passes every other test, with z still encodable in 20 bits,
        /// so a verifier that skips the z bound accepts it. For conformance vectors only
        /// (package API).
        package func deterministicSignatureWithOversizedZ(for message: [UInt8], context: [UInt8] = []) throws -> [UInt8] {
            try externalSignature(message, context: context, rnd: [UInt8](repeating: 0, count: rndBytes), oversizedZ: true)
        }

        /// ML-DSA.Sign_internal (FIPS 204 Algorithm 7) on an already formatted M'. `randomness`
        /// must be 32 bytes (precondition: package API for known-answer tests).
        package func signatureInternal(messagePrime: [UInt8], randomness: [UInt8]) -> [UInt8] {
            let mu = Algorithms.mu(tr: publicKey.tr) { h in messagePrime.withUnsafeBytes { h.absorb($0) } }
            return Algorithms.sign(self, mu: mu, rnd: randomness)
        }

        /// Algorithm 7 from line 7 with an externally computed μ (ACVP "externalMu"). `mu` must be
        /// 64 bytes and `randomness` 32 (precondition: package API for known-answer tests).
        package func signatureInternal(mu: [UInt8], randomness: [UInt8]) -> [UInt8] {
            Algorithms.sign(self, mu: mu, rnd: randomness)
        }
    }
}

extension MLDSA65 {
    /// An ML-DSA-65 verification key (FIPS 204 §7.2 pkEncode: ρ || 6 × 320 bytes of t1).
    ///
    /// Why it caches: decoding expands Â = ExpandA(ρ) (30 SHAKE128 rejection samplers), computes
    /// NTT(t1·2^d) and tr = H(pk, 64) once, so each `isValidSignature` only does the per-signature
    /// work. Equality and hashing use the encoded bytes alone.
    public struct PublicKey: Sendable, Hashable {
        /// pkEncode(ρ, t1), 1952 bytes.
        public let rawRepresentation: [UInt8]
        /// tr = H(pk, 64) (FIPS 204 Algorithm 6 line 9, Algorithm 8 line 6).
        let tr: [UInt8]
        /// Â = ExpandA(ρ), k×l polynomials row-major, values in [0, q).
        let aHat: [Int32]
        /// NTT(t1 · 2^d), k polynomials, reduced (|value| < q).
        let t1Hat: [Int32]

        /// Decodes pkEncode output (FIPS 204 Algorithm 23 pkDecode). Every 1952-byte string is a
        /// valid encoding (10-bit fields cover [0, 1024)); any other length throws `.invalidLength`.
        public init<C: Collection>(rawRepresentation: C) throws where C.Element == UInt8 {
            let bytes = Array(rawRepresentation)
            guard bytes.count == publicKeyByteCount else {
                throw CryptoError(.invalidLength, "ML-DSA-65 public key must be \(publicKeyByteCount) bytes, got \(bytes.count)")
            }
            let rho = Array(bytes[0..<32])
            var t1 = [Int32](repeating: 0, count: k * n)
            bytes.withUnsafeBytes { src in
                t1.withUnsafeMutableBufferPointer { t in
                    for i in 0..<k {
                        Encoding.unpack(src.baseAddress! + 32 + i * t1PolyBytes, count: n, bits: 10, bias: nil,
                                        into: t.baseAddress! + i * n)
                    }
                }
            }
            var aHat = [Int32](repeating: 0, count: k * l * n)
            aHat.withUnsafeMutableBufferPointer { a in
                rho.withUnsafeBytes { Sampling.expandA(rho: $0.baseAddress!, into: a.baseAddress!) }
            }
            self.init(encoded: bytes, t1: t1, aHat: aHat)
        }

        /// From key generation: encodes (ρ, t1) and reuses the Â already expanded.
        init(rho: [UInt8], t1: [Int32], aHat: [Int32]) {
            var bytes = [UInt8](repeating: 0, count: publicKeyByteCount)
            bytes.withUnsafeMutableBytes { dst in
                for i in 0..<32 { dst[i] = rho[i] }
                t1.withUnsafeBufferPointer { t in
                    for i in 0..<k {
                        Encoding.pack(t.baseAddress! + i * n, count: n, bits: 10, bias: nil,
                                      into: dst.baseAddress! + 32 + i * t1PolyBytes)
                    }
                }
            }
            self.init(encoded: bytes, t1: t1, aHat: aHat)
        }

        private init(encoded: [UInt8], t1: [Int32], aHat: [Int32]) {
            rawRepresentation = encoded
            var h = KeccakSponge(rate: 136, domain: 0x1F)
            encoded.withUnsafeBytes { h.absorb($0) }
            tr = Algorithms.squeeze(&h, trBytes)
            var t1Hat = t1
            t1Hat.withUnsafeMutableBufferPointer { p in
                for j in 0..<(k * n) { p[j] <<= Int32(d) }
                for i in 0..<k { NTT.forward(p.baseAddress! + i * n) }
                for j in 0..<(k * n) { p[j] = Field.reduce32(p[j]) }
            }
            self.t1Hat = t1Hat
            self.aHat = aHat
        }

        public static func == (a: PublicKey, b: PublicKey) -> Bool { a.rawRepresentation == b.rawRepresentation }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }

        /// ML-DSA.Verify (FIPS 204 Algorithm 3): M' = 0 || |ctx| || ctx || M. Returns false, never
        /// traps, for a context over 255 bytes, a signature of the wrong length, a malformed hint
        /// encoding, an out-of-range z or a mismatching commitment hash.
        public func isValidSignature<S: Collection, M: Collection>(
            _ signature: S, for message: M, context: [UInt8] = []
        ) -> Bool where S.Element == UInt8, M.Element == UInt8 {
            guard context.count <= maxContextBytes, signature.count == signatureByteCount else { return false }
            let mu = Algorithms.mu(tr: tr) { h in
                var header: (UInt8, UInt8) = (0, UInt8(context.count))
                withUnsafeBytes(of: &header) { h.absorb($0) }
                context.withUnsafeBytes { h.absorb($0) }
                Algorithms.absorb(&h, message)
            }
            if let result = signature.withContiguousStorageIfAvailable({
                Algorithms.verify(self, signature: UnsafeRawBufferPointer($0), mu: mu)
            }) {
                return result
            }
            return Array(signature).withUnsafeBytes { Algorithms.verify(self, signature: $0, mu: mu) }
        }

        /// ML-DSA.Verify_internal (FIPS 204 Algorithm 8) on an already formatted M'.
        package func isValidSignatureInternal(_ signature: [UInt8], messagePrime: [UInt8]) -> Bool {
            let mu = Algorithms.mu(tr: tr) { h in messagePrime.withUnsafeBytes { h.absorb($0) } }
            return isValidSignatureInternal(signature, mu: mu)
        }

        /// Algorithm 8 with an externally computed μ (ACVP "externalMu"); false unless μ is 64 bytes.
        package func isValidSignatureInternal(_ signature: [UInt8], mu: [UInt8]) -> Bool {
            signature.withUnsafeBytes { Algorithms.verify(self, signature: $0, mu: mu) }
        }
    }
}

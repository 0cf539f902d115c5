extension MLKEM768 {
    /// An ML-KEM-768 encapsulation key ek = ByteEncode12(t̂) ‖ ρ (FIPS 203 Algorithm 13 line 19).
    ///
    /// Why it caches: decoding once keeps t̂, the expanded matrix Â (nine SampleNTT runs, most of
    /// an encapsulation's cost) and H(ek), so each `encapsulate` does only the per-message work.
    /// Equality and hashing use the encoded bytes alone.
    public struct PublicKey: Sendable, Hashable {
        /// ek, 1184 bytes, exactly as given or generated.
        public let rawRepresentation: [UInt8]
        /// t̂ = ByteDecode12(ek[0 : 384k]), k polynomials.
        let tHat: [UInt16]
        /// Â, k·k polynomials, Â[i, j] = SampleNTT(ρ ‖ j ‖ i) at (i·k + j)·256.
        let aHat: [UInt16]
        /// H(ek) (Algorithm 17 line 1; stored in dk by Algorithm 16 line 3).
        let h: [UInt8]

        /// Decodes an encapsulation key with the input checks of FIPS 203 §7.2 (ML-KEM.Encaps):
        /// the type check (1184 bytes, else `.invalidLength`) and the modulus check
        /// ByteEncode12(ByteDecode12(ek[0 : 384k])) = ek[0 : 384k], which fails exactly when a
        /// 12-bit field of t̂ is ≥ q (`.invalidEncoding`).
        public init<C: Collection>(rawRepresentation: C) throws where C.Element == UInt8 {
            let bytes = Array(rawRepresentation)
            guard bytes.count == publicKeyByteCount else {
                throw CryptoError(.invalidLength, "ML-KEM-768 encapsulation key must be \(publicKeyByteCount) bytes, got \(bytes.count)")
            }
            let (key, canonical) = PublicKey.decode(bytes)
            guard canonical else {
                throw CryptoError(.invalidEncoding, "ML-KEM-768 encapsulation key fails the modulus check (a coefficient of t̂ is ≥ q)")
            }
            self = key
        }

        /// Decodes 1184 bytes reducing each 12-bit field mod q (ByteDecode12, Algorithm 6) and
        /// reports whether the modulus check held. Used as is for the ek inside a decapsulation
        /// key, which FIPS 203 §7.3 does not modulus-check.
        static func decode(_ bytes: [UInt8]) -> (PublicKey, canonical: Bool) {
            var mask: UInt32 = 0
            let tHat = [UInt16](unsafeUninitializedCapacity: k * n) { t, count in
                bytes.withUnsafeBufferPointer { mask = Encoding.decode12Reducing($0.baseAddress!, polys: k, into: t.baseAddress!) }
                count = k * n
            }
            let aHat = [UInt16](unsafeUninitializedCapacity: k * k * n) { a, count in
                bytes.withUnsafeBytes { Sampling.expandA(rho: $0.baseAddress! + vectorBytes12, into: a.baseAddress!) }
                count = k * k * n
            }
            return (PublicKey(encoded: bytes, tHat: tHat, aHat: aHat), mask != 0)
        }

        /// From key generation (t̂ and Â already computed).
        init(encoded: [UInt8], tHat: [UInt16], aHat: [UInt16]) {
            rawRepresentation = encoded
            self.tHat = tHat
            self.aHat = aHat
            h = [UInt8](unsafeUninitializedCapacity: 32) { out, count in
                encoded.withUnsafeBytes { Sampling.h($0, into: UnsafeMutableRawPointer(out.baseAddress!)) }
                count = 32
            }
        }

        public static func == (a: PublicKey, b: PublicKey) -> Bool { a.rawRepresentation == b.rawRepresentation }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }

        /// ML-KEM.Encaps (FIPS 203 Algorithm 20): m is 32 bytes from `SystemRandomNumberGenerator`.
        /// The §7.2 checks were done when this key was decoded.
        public func encapsulate() -> KEMEncapsulationResult {
            var rng = SystemRandomNumberGenerator()
            var m: (UInt64, UInt64, UInt64, UInt64) = (rng.next(), rng.next(), rng.next(), rng.next())
            return withUnsafeBytes(of: &m) { encapsulateInternal(m: $0.baseAddress!) }
        }

        /// ML-KEM.Encaps_internal (FIPS 203 Algorithm 17) with the given 32-byte randomness m
        /// (`.invalidLength` otherwise): deterministic, for known-answer tests and vector generation.
        /// Public because SPEC.md §9 names it: a held-out test vector (ACVP encapDecap, another
        /// team's golden file) drives this entry point from outside the package. Never call it with
        /// predictable m to protect anything: FIPS 203 §3.3 requires m to be fresh randomness.
        public func encapsulate<C: Collection>(randomness m: C) throws -> KEMEncapsulationResult where C.Element == UInt8 {
            let bytes = Array(m)
            guard bytes.count == encapsulationRandomnessByteCount else {
                throw CryptoError(.invalidLength, "ML-KEM encapsulation randomness must be 32 bytes, got \(bytes.count)")
            }
            return bytes.withUnsafeBytes { encapsulateInternal(m: $0.baseAddress!) }
        }

        /// Algorithm 17: (K, r) ← G(m ‖ H(ek)); c ← K-PKE.Encrypt(ek, m, r).
        func encapsulateInternal(m: UnsafeRawPointer) -> KEMEncapsulationResult {
            var sharedSecret = [UInt8](repeating: 0, count: 32)
            let ciphertext = [UInt8](unsafeUninitializedCapacity: ciphertextByteCount) { c, count in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { kr in
                    let kr = UnsafeMutableRawPointer(kr.baseAddress!)
                    h.withUnsafeBytes { Sampling.g(UnsafeRawBufferPointer(start: m, count: 32), $0, into: kr) }
                    tHat.withUnsafeBufferPointer { t in
                        aHat.withUnsafeBufferPointer { a in
                            KPKE.encrypt(tHat: t.baseAddress!, aHat: a.baseAddress!, m: m, r: kr + 32,
                                         into: UnsafeMutableRawPointer(c.baseAddress!))
                        }
                    }
                    sharedSecret.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(start: kr, count: 32)) }
                }
                count = ciphertextByteCount
            }
            return KEMEncapsulationResult(sharedSecret: sharedSecret, ciphertext: ciphertext)
        }
    }
}

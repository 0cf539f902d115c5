/// Ed25519 signatures (RFC 8032 §5.1, "pure" Ed25519: no context, no pre-hashing).
///
/// Why hand-written: the suite must produce and check signatures byte-exactly without system
/// crypto. Secret-dependent work (key expansion and signing) is constant time: field arithmetic
/// is branch-free (`FieldElement`), the fixed-base multiplication reads its table by masked scans
/// (`BasepointTable.mulBase`), and scalars mod L use Montgomery reduction (`Scalar`).
/// Verification handles only public data and uses a faster variable-time multiplication.
public enum Ed25519 {
    public static let publicKeyByteCount = 32
    public static let signatureByteCount = 64
    public static let seedByteCount = 32

    /// A signing key: the 32-byte seed of RFC 8032 §5.1.5, expanded once at initialisation.
    public struct PrivateKey: Sendable {
        private let seedWords: (UInt64, UInt64, UInt64, UInt64)
        /// s: the clamped low half of SHA-512(seed) (§5.1.5 steps 1–2), little-endian bytes.
        private let scalarWords: (UInt64, UInt64, UInt64, UInt64)
        /// prefix: the high half of SHA-512(seed), hashed before the message to derive the nonce.
        private let prefixWords: (UInt64, UInt64, UInt64, UInt64)
        public let publicKey: PublicKey

        /// Expands a 32-byte seed (RFC 8032 §5.1.5). Throws `.invalidLength` for any other length.
        public init<C: Collection>(seed: C) throws where C.Element == UInt8 {
            guard seed.count == Ed25519.seedByteCount else {
                throw CryptoError(.invalidLength, "Ed25519 seed must be 32 bytes, got \(seed.count)")
            }
            var seedWords: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &seedWords) { buf in
                Ed25519.copy(seed, into: buf)
            }
            var h: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &h) { out in
                var hasher = SHA512()
                withUnsafeBytes(of: &seedWords) { hasher.update($0) }
                hasher.finalize(into: out.baseAddress!)
                // §5.1.5 step 2: clear the low 3 bits and bit 255, set bit 254.
                out[0] &= 248
                out[31] &= 127
                out[31] |= 64
            }
            var scalarWords = (h.0, h.1, h.2, h.3)
            self.seedWords = seedWords
            self.scalarWords = scalarWords
            self.prefixWords = (h.4, h.5, h.6, h.7)
            // §5.1.5 step 3: A = [s]B.
            let point = withUnsafeBytes(of: &scalarWords) { BasepointTable.mulBase($0.baseAddress!) }
            var encoded: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &encoded) { point.encode(to: $0.baseAddress!) }
            self.publicKey = PublicKey(encoded: encoded, point: point)
        }

        /// The 32-byte seed this key was created from.
        public var seed: [UInt8] {
            var words = seedWords
            return withUnsafeBytes(of: &words) { Array($0) }
        }

        /// The 64-byte signature R || S of RFC 8032 §5.1.6:
        /// r = SHA-512(prefix || M) mod L, R = [r]B, k = SHA-512(R || A || M) mod L,
        /// S = (r + k·s) mod L. Deterministic: the same key and message give the same bytes.
        public func signature<C: Collection>(for message: C) -> [UInt8] where C.Element == UInt8 {
            if let sig = message.withContiguousStorageIfAvailable({ sign(UnsafeRawBufferPointer($0)) }) {
                return sig
            }
            return Array(message).withUnsafeBytes { sign($0) }
        }

        private func sign(_ message: UnsafeRawBufferPointer) -> [UInt8] {
            var prefix = prefixWords, scalar = scalarWords, publicBytes = publicKey.encoded
            return [UInt8](unsafeUninitializedCapacity: 64) { out, count in
                let sig = UnsafeMutableRawPointer(out.baseAddress!)
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { digest in
                    let d = UnsafeMutableRawPointer(digest.baseAddress!)
                    // Step 2: r = SHA-512(prefix || M) mod L.
                    var hasher = SHA512()
                    withUnsafeBytes(of: &prefix) { hasher.update($0) }
                    hasher.update(message)
                    hasher.finalize(into: d)
                    let r = Scalar(reducingWide: d)
                    // Step 3: R = [r]B, encoded into the first half of the signature.
                    var rBytes: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
                    withUnsafeMutableBytes(of: &rBytes) { r.write(to: $0.baseAddress!) }
                    let bigR = withUnsafeBytes(of: &rBytes) { BasepointTable.mulBase($0.baseAddress!) }
                    bigR.encode(to: sig)
                    // Step 4: k = SHA-512(R || A || M) mod L.
                    hasher = SHA512()
                    hasher.update(UnsafeRawBufferPointer(start: sig, count: 32))
                    withUnsafeBytes(of: &publicBytes) { hasher.update($0) }
                    hasher.update(message)
                    hasher.finalize(into: d)
                    let k = Scalar(reducingWide: d)
                    // Step 5: S = (r + k·s) mod L.
                    let s = withUnsafeBytes(of: &scalar) { Scalar(bytes: $0.baseAddress!) }
                    Scalar.mulAdd(k, s, r).write(to: sig + 32)
                }
                count = 64
            }
        }
    }

    /// A verification key: the 32-byte encoding of A, decoded once.
    public struct PublicKey: Sendable, Hashable {
        fileprivate let encoded: (UInt64, UInt64, UInt64, UInt64)
        let point: EdwardsPoint
        /// True when the bytes are the point's RFC 8032 §5.1.2 encoding (y < p, no "-0").
        public let isCanonicalEncoding: Bool

        fileprivate init(encoded: (UInt64, UInt64, UInt64, UInt64), point: EdwardsPoint) {
            self.encoded = encoded
            self.point = point
            self.isCanonicalEncoding = true
        }

        /// Decodes a 32-byte public key as SPEC.md §9.1 [R9.1-3] reads A: y is taken mod p (a
        /// y ≥ p is accepted as y - p), x = 0 with the sign bit set is read as x = 0, and only a y
        /// for which (y² - 1)/(d·y² + 1) is not a square throws `.invalidEncoding` (no such
        /// point). Any other length throws `.invalidLength`. `isCanonicalEncoding` tells the
        /// accepted aliases apart, for the stricter rules of `VerificationRule`.
        public init<C: Collection>(rawRepresentation: C) throws where C.Element == UInt8 {
            guard rawRepresentation.count == Ed25519.publicKeyByteCount else {
                throw CryptoError(.invalidLength,
                                  "Ed25519 public key must be 32 bytes, got \(rawRepresentation.count)")
            }
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { buf in
                Ed25519.copy(rawRepresentation, into: buf)
            }
            guard let decoded = withUnsafeBytes(of: &words, { EdwardsPoint.decode($0.baseAddress!) }) else {
                throw CryptoError(.invalidEncoding, "Ed25519 public key is not the encoding of a curve point")
            }
            self.encoded = words
            self.point = decoded.point
            self.isCanonicalEncoding = decoded.canonical
        }

        /// The 32-byte encoding, exactly as given (a non-canonical alias stays as it was given).
        public var rawRepresentation: [UInt8] {
            var words = encoded
            return withUnsafeBytes(of: &words) { Array($0) }
        }

        /// True when A has small order ([8]A is the identity): one of the 8 points of order 1, 2,
        /// 4 or 8, under any of their 14 encodings.
        public var isSmallOrder: Bool { point.timesCofactor.isIdentity }

        public static func == (a: PublicKey, b: PublicKey) -> Bool {
            a.encoded == b.encoded
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(encoded.0)
            hasher.combine(encoded.1)
            hasher.combine(encoded.2)
            hasher.combine(encoded.3)
        }

        /// Verifies a signature under the suite's rule, SPEC.md §9.1 (`VerificationRule.suite`):
        ///
        /// 1. reject unless the signature is exactly 64 bytes R || S [R9.1-1];
        /// 2. reject if S ≥ L (no reduction, no shortcut on the top bits) [R9.1-2];
        /// 3. A was decoded at initialisation, aliases included [R9.1-3];
        /// 4. k = SHA-512(R || A || M) mod L over the bytes as given [R9.1-4];
        /// 5. R' = [S]B - [k]A; accept iff encode(R') equals the 32 bytes of R [R9.1-5];
        /// 6. no small-order check on A or R [R9.1-6].
        ///
        /// R is never decoded: encode(R') is always canonical, so a non-canonical R (y ≥ p, or
        /// "-0") can never equal it, and an R that is not a point never equals anything. An R with
        /// a small-order component does match when the equation holds (R = [S]B - [k]A exactly).
        /// Variable time: every input is public.
        public func isValidSignature<S: Collection, M: Collection>(_ signature: S, for message: M) -> Bool
        where S.Element == UInt8, M.Element == UInt8 {
            guard signature.count == Ed25519.signatureByteCount else { return false }
            var sig: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &sig) { buf in
                Ed25519.copy(signature, into: buf)
            }
            if let ok = message.withContiguousStorageIfAvailable({ verify(&sig, UnsafeRawBufferPointer($0)) }) {
                return ok
            }
            return Array(message).withUnsafeBytes { verify(&sig, $0) }
        }

        /// k = SHA-512(R || A || M) mod L, with A as given [R9.1-4], written to `out` (32 bytes).
        func challenge(_ rBytes: UnsafeRawPointer, _ message: UnsafeRawBufferPointer, into out: UnsafeMutableRawPointer) {
            var publicBytes = encoded
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
                let digest = UnsafeMutableRawPointer(scratch.baseAddress!)
                var hasher = SHA512()
                hasher.update(UnsafeRawBufferPointer(start: rBytes, count: 32))
                withUnsafeBytes(of: &publicBytes) { hasher.update($0) }
                hasher.update(message)
                hasher.finalize(into: digest)
                Scalar(reducingWide: digest).write(to: out)
            }
        }

        private func verify(
            _ sig: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64),
            _ message: UnsafeRawBufferPointer
        ) -> Bool {
            withUnsafeBytes(of: &sig) { sigBytes in
                let rBytes = sigBytes.baseAddress!, sBytes = sigBytes.baseAddress! + 32
                guard Scalar.isCanonical(sBytes) else { return false }
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { scratch in
                    let kBytes = UnsafeMutableRawPointer(scratch.baseAddress!)
                    challenge(rBytes, message, into: kBytes)
                    let rPrime = BasepointTable.doubleScalarMulVartime(kBytes, point.negated, sBytes)
                    rPrime.encode(to: kBytes + 32)
                    return memcmp32(kBytes + 32, rBytes)
                }
            }
        }

        func memcmp32(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer) -> Bool {
            for i in 0..<4 where a.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self)
                != b.loadUnaligned(fromByteOffset: 8 * i, as: UInt64.self) {
                return false
            }
            return true
        }
    }

    /// Copies the first `out.count` bytes of `bytes` (whose count the caller has checked) into
    /// `out`. Contiguous collections are copied with one `memcpy`; the element-wise fallback is
    /// bounded by `out.count`, so a collection misreporting its count cannot write past `out`.
    /// (The public entry points are generic and not inlinable, so callers in other modules run
    /// them unspecialised, where a per-element loop costs far more than the copy itself.)
    static func copy<C: Collection>(_ bytes: C, into out: UnsafeMutableRawBufferPointer)
    where C.Element == UInt8 {
        let done: Bool? = bytes.withContiguousStorageIfAvailable { src in
            guard src.count >= out.count, let base = src.baseAddress else { return false }
            out.copyMemory(from: UnsafeRawBufferPointer(start: base, count: out.count))
            return true
        }
        if done == true { return }
        var i = 0
        for b in bytes {
            guard i < out.count else { break }
            out[i] = b
            i += 1
        }
    }
}

/// X25519 Diffie-Hellman (RFC 7748 §5 and §6.1) over Curve25519.
///
/// Keys are 32-byte strings. A private key is any 32 bytes (clamped when used, RFC 7748 §5
/// decodeScalar25519; `rawRepresentation` returns the bytes as given). A public key is any 32
/// bytes (RFC 7748 §5: bit 255 is masked and non-canonical u-coordinates are accepted), so
/// decoding only checks the length.
///
/// **All-zero shared secret.** RFC 7748 §6.1 lets a protocol check for the all-zero output,
/// which arises exactly when the peer's u-coordinate is a point of small order. Both forms
/// exist here, so each caller states which it means:
/// - `PrivateKey.sharedSecret(with:)` performs the check (in constant time over the output) and
///   throws `CryptoError(.zeroSharedSecret)`; this is the form for protocols that use the raw
///   X25519 output themselves.
/// - `PrivateKey.sharedSecretUnchecked(with:)` returns the RFC 7748 §5 function value as is,
///   zeros included. X-Wing (draft-connolly-cfrg-xwing-kem) uses this form: its combiner hashes
///   ss_X together with ct_X, pk_X and the ML-KEM secret and performs no such check, and its
///   test vectors and interoperating implementations would otherwise disagree on low-order input.
public enum X25519 {
    public static let keyByteCount = 32
    public static let sharedSecretByteCount = 32

    /// A private key: 32 bytes, clamped when used (RFC 7748 §5 decodeScalar25519).
    public struct PrivateKey: Sendable {
        let words: Words
        /// X25519(k, 9) (RFC 7748 §6.1), computed once when the key is created.
        public let publicKey: PublicKey

        /// Uses 32 given bytes as the private key. Throws `.invalidLength` for any other length.
        public init<C: Collection>(rawRepresentation: C) throws where C.Element == UInt8 {
            guard rawRepresentation.count == keyByteCount else {
                throw CryptoError(.invalidLength, "X25519 private key must be 32 bytes, got \(rawRepresentation.count)")
            }
            var w: Words = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &w) { Ed25519.copy(rawRepresentation, into: $0) }
            self.init(words: w)
        }

        /// A fresh key: 32 bytes from `SystemRandomNumberGenerator`.
        public init() {
            var rng = SystemRandomNumberGenerator()
            self.init(words: (rng.next(), rng.next(), rng.next(), rng.next()))
        }

        init(words: Words) {
            var w = words
            var pub: Words = (0, 0, 0, 0)
            withUnsafeBytes(of: &w) { k in
                withUnsafeMutableBytes(of: &pub) { Ladder.scalarMultBase(k.baseAddress!, $0.baseAddress!) }
            }
            self.words = words
            self.publicKey = PublicKey(words: pub)
        }

        /// The 32 bytes this key was created from (unclamped, as given).
        public var rawRepresentation: [UInt8] {
            var w = words
            return withUnsafeBytes(of: &w) { Array($0) }
        }

        /// X25519(k, u) with the RFC 7748 §6.1 check: throws `.zeroSharedSecret` when the result
        /// is all zeros (the peer's u is of small order). The check reads every output byte.
        public func sharedSecret(with peer: PublicKey) throws -> [UInt8] {
            var out = rawSharedSecret(peer)
            let acc = out.0 | out.1 | out.2 | out.3
            guard acc != 0 else {
                throw CryptoError(.zeroSharedSecret, "X25519 shared secret is all zeros (peer public key of small order)")
            }
            return withUnsafeBytes(of: &out) { Array($0) }
        }

        /// X25519(k, u) exactly as RFC 7748 §5 defines it, all-zero output included (no §6.1
        /// check). For constructions that hash the output with both public values, as X-Wing does.
        public func sharedSecretUnchecked(with peer: PublicKey) -> [UInt8] {
            var out = rawSharedSecret(peer)
            return withUnsafeBytes(of: &out) { Array($0) }
        }

        func rawSharedSecret(_ peer: PublicKey) -> Words {
            var k = words, u = peer.words
            var out: Words = (0, 0, 0, 0)
            withUnsafeBytes(of: &k) { kp in
                withUnsafeBytes(of: &u) { up in
                    withUnsafeMutableBytes(of: &out) { Ladder.scalarMult(kp.baseAddress!, up.baseAddress!, $0.baseAddress!) }
                }
            }
            return out
        }
    }

    /// A public key: a 32-byte u-coordinate, kept as given (RFC 7748 §5 accepts every value).
    public struct PublicKey: Sendable, Hashable {
        let words: Words

        /// Accepts any 32 bytes; throws `.invalidLength` for any other length.
        public init<C: Collection>(rawRepresentation: C) throws where C.Element == UInt8 {
            guard rawRepresentation.count == keyByteCount else {
                throw CryptoError(.invalidLength, "X25519 public key must be 32 bytes, got \(rawRepresentation.count)")
            }
            var w: Words = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &w) { Ed25519.copy(rawRepresentation, into: $0) }
            self.words = w
        }

        init(words: Words) { self.words = words }

        /// The 32 bytes as given (for a derived key: the canonical encoding of X25519(k, 9)).
        public var rawRepresentation: [UInt8] {
            var w = words
            return withUnsafeBytes(of: &w) { Array($0) }
        }

        public static func == (a: PublicKey, b: PublicKey) -> Bool { a.words == b.words }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(words.0); hasher.combine(words.1); hasher.combine(words.2); hasher.combine(words.3)
        }
    }

    /// The X25519 function of RFC 7748 §5 on raw byte strings: scalar k and u-coordinate, both 32
    /// bytes (`.invalidLength` otherwise); no all-zero check. For the known-answer tests
    /// (§5.2, including the iterated test).
    package static func scalarMult(scalar: [UInt8], u: [UInt8]) throws -> [UInt8] {
        guard scalar.count == keyByteCount, u.count == keyByteCount else {
            throw CryptoError(.invalidLength, "X25519 scalar and u must be 32 bytes, got \(scalar.count) and \(u.count)")
        }
        return [UInt8](unsafeUninitializedCapacity: 32) { out, n in
            scalar.withUnsafeBytes { k in
                u.withUnsafeBytes { Ladder.scalarMult(k.baseAddress!, $0.baseAddress!, UnsafeMutableRawPointer(out.baseAddress!)) }
            }
            n = 32
        }
    }

    /// The u = 9 base point (RFC 7748 §4.1), encoded.
    public static let basePoint: [UInt8] = [9] + [UInt8](repeating: 0, count: 31)
}

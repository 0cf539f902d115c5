/// The one error type of the `Primitives` module.
///
/// Errors compare by `code` alone: tests and callers match on the code, the `reason` is for people.
/// The codes are stable strings because the wire-format layer maps them into the suite's
/// error vocabulary (SPEC.md, "Error vocabulary").
public struct CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// A key, seed, nonce or tag had the wrong number of bytes.
        case invalidLength = "crypto_invalid_length"
        /// Bytes that should encode a key, point or signature do not decode.
        case invalidEncoding = "crypto_invalid_encoding"
        /// An AEAD tag did not verify; no plaintext was released.
        case authenticationFailure = "crypto_authentication_failure"
        /// A parameter is outside what the algorithm allows (e.g. an ML-DSA context over 255 bytes).
        case invalidParameter = "crypto_invalid_parameter"
        /// X25519 produced the all-zero shared secret: the peer's public key is a point of small
        /// order (RFC 7748 §6.1 check, performed by `X25519.PrivateKey.sharedSecret(with:)`).
        case zeroSharedSecret = "crypto_zero_shared_secret"
    }

    public let code: Code
    public let reason: String

    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public static func == (lhs: CryptoError, rhs: CryptoError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { "\(code.rawValue): \(reason)" }
}

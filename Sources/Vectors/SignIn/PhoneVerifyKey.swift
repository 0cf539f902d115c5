import Primitives

/// phone-verify-svc's hybrid key (SPEC.md §8.1): a `PinnedHybridKey` whose signatures are judged
/// by the `signin` rules, named `pinned_key` in errors.
public enum PhoneVerifyKey {
    public static let publicKeyByteCount = PinnedHybridKey.byteCount  // 1,984

    /// A pinned public key: `Ed25519 public key (32) || ML-DSA-65 public key (1,952)`.
    public struct PublicKey: Sendable, Hashable {
        public let key: PinnedHybridKey
        public var bytes: [UInt8] { key.bytes }

        public init(bytes: [UInt8]) throws(WireError) {
            key = try PinnedHybridKey(bytes: bytes, format: "signin", noun: "a phone-verify public key", field: "pinned_key")
        }

        /// Checks both halves of a hybrid signature, always both (§9.3), naming what failed.
        public func verify(_ signature: [UInt8], for message: [UInt8]) throws(HybridSignature.Failure) {
            try key.verify(signature, for: message)
        }
    }

    /// The signing half, for the generator and the `cert_issue` op.
    public typealias Signer = PinnedHybridKey.Signer
}

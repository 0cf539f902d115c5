import Primitives

/// credential-svc's hybrid signing key, as a device pins it (SPEC.md §14.6): a `PinnedHybridKey`
/// (the same form as the phone-verify key of §8.1) whose signatures are judged by the `envelope`
/// rules, named `credential_key` in errors.
public struct CredentialKey: Sendable, Hashable {
    public static let byteCount = PinnedHybridKey.byteCount  // 1,984

    public let key: PinnedHybridKey
    public var bytes: [UInt8] { key.bytes }

    public init(bytes: [UInt8]) throws(WireError) {
        key = try PinnedHybridKey(bytes: bytes, format: "envelope", noun: "a credential-service key", field: "credential_key")
    }

    /// Both halves, always both (§9.3); the failure names which.
    func verify(_ signature: [UInt8], for message: [UInt8]) throws(HybridSignature.Failure) {
        try key.verify(signature, for: message)
    }

    /// The signing side, for the generator and the `sender_cert_issue` op: two 32-byte seeds.
    public typealias Signer = PinnedHybridKey.Signer
}

import Primitives

/// credential-svc's hybrid signing key, as a device pins it (SPEC.md §14.6): the Ed25519 public
/// key (32 bytes) ‖ the ML-DSA-65 public key (1,952 bytes), the halves in the order of the
/// signature's halves (§9.3). 1,984 bytes; the same form as the phone-verify key of §8.1.
public struct CredentialKey: Sendable, Hashable {
    public static let byteCount = Ed25519.publicKeyByteCount + MLDSA65.publicKeyByteCount  // 1,984

    public let bytes: [UInt8]
    /// nil when the Ed25519 half is not a curve point: every Ed25519 half then fails.
    let ed25519: Ed25519.PublicKey?
    let mldsa: MLDSA65.PublicKey

    public init(bytes: [UInt8]) throws(WireError) {
        guard bytes.count == Self.byteCount, let pq = try? MLDSA65.PublicKey(rawRepresentation: bytes[Ed25519.publicKeyByteCount...]) else {
            throw WireError(.inputBadLength, "a credential-service key is \(Self.byteCount) bytes, got \(bytes.count)", field: "credential_key")
        }
        self.bytes = bytes
        ed25519 = try? Ed25519.PublicKey(rawRepresentation: bytes[0..<Ed25519.publicKeyByteCount])
        mldsa = pq
    }

    public static func == (a: CredentialKey, b: CredentialKey) -> Bool { a.bytes == b.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Both halves, always both (§9.3); the failure names which. The mutants model a verifier that
    /// checks one half only.
    func verify(_ signature: [UInt8], for message: [UInt8]) throws(HybridSignature.Failure) {
        guard signature.count == HybridSignature.byteCount else { throw .wrongLength }
        let edOK = Mutant.on(.envelopeCertEd25519Ignored)
            || (ed25519?.isValidSignature(signature[0..<Ed25519.signatureByteCount], for: message) ?? false)
        let pqOK = Mutant.on(.envelopeCertMLDSAIgnored)
            || mldsa.isValidSignature(signature[Ed25519.signatureByteCount...], for: message, context: [])
        switch (edOK, pqOK) {
        case (true, true): return
        case (false, true): throw .ed25519Invalid
        case (true, false): throw .mldsaInvalid
        case (false, false): throw .bothInvalid
        }
    }

    /// The signing side, for the generator and the `sender_cert_issue` op: two 32-byte seeds.
    public struct Signer: Sendable {
        public let key: HybridSignature.PrivateKey

        public init(ed25519Seed: [UInt8], mldsaSeed: [UInt8]) throws(WireError) {
            guard ed25519Seed.count == 32 else { throw WireError(.inputBadLength, "ed25519_seed must be 32 bytes", field: "signer.ed25519_seed") }
            guard mldsaSeed.count == 32 else { throw WireError(.inputBadLength, "mldsa_seed must be 32 bytes", field: "signer.mldsa_seed") }
            do { key = try HybridSignature.PrivateKey(ed25519Seed: ed25519Seed, mldsaSeed: mldsaSeed) } catch {
                throw WireError(.inputBadValue, "seed rejected: \(error)", field: "signer")
            }
        }

        public var publicKeyBytes: [UInt8] { key.ed25519.publicKey.rawRepresentation + key.mldsa.publicKey.rawRepresentation }

        public func sign(_ message: [UInt8]) -> [UInt8] { key.signature(for: message) }
    }
}

import Primitives

/// phone-verify-svc's hybrid key (SPEC.md §8.1). The public key a device pins is
/// `Ed25519 public key (32) || ML-DSA-65 public key (1,952)` = 1,984 bytes, the two halves in the
/// same order as the two halves of the signature (§9.3).
public enum PhoneVerifyKey {
    public static let publicKeyByteCount = Ed25519.publicKeyByteCount + MLDSA65.publicKeyByteCount  // 1,984

    /// A pinned public key, held as its two encoded halves. Decoding never fails on content: an
    /// Ed25519 half that is not a curve point (§9.1 [R9.1-3]) makes every Ed25519 signature under
    /// it invalid, which the verifier reports as that half failing; an alias (y ≥ p, "-0") is a
    /// key like any other.
    public struct PublicKey: Sendable, Hashable {
        public let bytes: [UInt8]
        /// nil when the Ed25519 half does not decode.
        let ed25519: Ed25519.PublicKey?
        let mldsa: MLDSA65.PublicKey

        public init(bytes: [UInt8]) throws(WireError) {
            guard bytes.count == PhoneVerifyKey.publicKeyByteCount else {
                throw WireError(.inputBadLength, "a phone-verify public key is \(PhoneVerifyKey.publicKeyByteCount) bytes, got \(bytes.count)",
                                field: "pinned_key")
            }
            self.bytes = bytes
            ed25519 = try? Ed25519.PublicKey(rawRepresentation: bytes[0..<Ed25519.publicKeyByteCount])
            do {
                mldsa = try MLDSA65.PublicKey(rawRepresentation: bytes[Ed25519.publicKeyByteCount...])
            } catch {
                // Unreachable: every 1,952-byte string is a valid ML-DSA-65 key encoding.
                throw WireError(.inputBadLength, "ML-DSA-65 half rejected: \(error)", field: "pinned_key")
            }
        }

        public static func == (a: PublicKey, b: PublicKey) -> Bool { a.bytes == b.bytes }
        public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

        /// Checks both halves of a hybrid signature, always both (§9.3), naming what failed.
        public func verify(_ signature: [UInt8], for message: [UInt8]) throws(HybridSignature.Failure) {
            guard signature.count == HybridSignature.byteCount else { throw .wrongLength }
            let edOK = ed25519?.isValidSignature(signature[0..<Ed25519.signatureByteCount], for: message,
                                                 rule: SignatureRules.ed25519("signin")) ?? false
            let pqOK = mldsa.isValidSignature(Array(signature[Ed25519.signatureByteCount...]), for: message,
                                              rule: SignatureRules.mldsa("signin"))
            switch (edOK, pqOK) {
            case (true, true): return
            case (false, true): throw .ed25519Invalid
            case (true, false): throw .mldsaInvalid
            case (false, false): throw .bothInvalid
            }
        }
    }

    /// The signing half, for the generator and the `cert_issue` op: two 32-byte seeds (the Ed25519
    /// seed of RFC 8032 §5.1.5 and the ML-DSA-65 ξ of FIPS 204 Algorithm 1).
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

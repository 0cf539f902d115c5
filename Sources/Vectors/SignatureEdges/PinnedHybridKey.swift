import Primitives

/// A service's hybrid public key as a device pins it: the Ed25519 public key (32 bytes) ‖ the
/// ML-DSA-65 public key (1,952 bytes) = 1,984 bytes, the halves in the order of the signature's
/// halves (SPEC.md §9.3). It is the phone-verify key of §8.1 (`PhoneVerifyKey.PublicKey`) and the
/// credential key of §14.6 (`CredentialKey`). Decoding never fails on content: an Ed25519 half that
/// is not a curve point (§9.1 [R9.1-3]) makes every Ed25519 signature under it invalid, which the
/// verifier reports as that half failing; an alias (y ≥ p, "-0") is a key like any other.
/// Signatures are judged by `SignatureRules` for the key's format, so a format's stock-verifier
/// mutants reach every key it pins.
public struct PinnedHybridKey: Sendable, Hashable {
    public static let byteCount = Ed25519.publicKeyByteCount + MLDSA65.publicKeyByteCount  // 1,984

    public let bytes: [UInt8]
    /// nil when the Ed25519 half does not decode.
    let ed25519: Ed25519.PublicKey?
    let mldsa: MLDSA65.PublicKey
    /// The format whose §9 rules (and mutants) judge signatures under this key.
    let format: String

    /// `noun` names the key in the error ("a phone-verify public key"); `field` is the input member
    /// the error names.
    init(bytes: [UInt8], format: String, noun: String, field: String) throws(WireError) {
        guard bytes.count == Self.byteCount else {
            throw WireError(.inputBadLength, "\(noun) is \(Self.byteCount) bytes, got \(bytes.count)", field: field)
        }
        do {
            mldsa = try MLDSA65.PublicKey(rawRepresentation: bytes[Ed25519.publicKeyByteCount...])
        } catch {
            // Unreachable: every 1,952-byte string is a valid ML-DSA-65 key encoding.
            throw WireError(.inputBadLength, "ML-DSA-65 half rejected: \(error)", field: field)
        }
        self.bytes = bytes
        self.format = format
        ed25519 = try? Ed25519.PublicKey(rawRepresentation: bytes[0..<Ed25519.publicKeyByteCount])
    }

    public static func == (a: PinnedHybridKey, b: PinnedHybridKey) -> Bool { a.bytes == b.bytes }
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }

    /// Checks both halves of a hybrid signature, always both (§9.3), each under the format's §9.1
    /// and §9.2 rule, naming what failed.
    public func verify(_ signature: [UInt8], for message: [UInt8]) throws(HybridSignature.Failure) {
        guard signature.count == HybridSignature.byteCount else { throw .wrongLength }
        let edOK = ed25519?.isValidSignature(signature[0..<Ed25519.signatureByteCount], for: message,
                                             rule: SignatureRules.ed25519(format)) ?? false
        let pqOK = mldsa.isValidSignature(Array(signature[Ed25519.signatureByteCount...]), for: message,
                                          rule: SignatureRules.mldsa(format))
        switch (edOK, pqOK) {
        case (true, true): return
        case (false, true): throw .ed25519Invalid
        case (true, false): throw .mldsaInvalid
        case (false, false): throw .bothInvalid
        }
    }

    /// The signing side, for the generators and the issuing ops: two 32-byte seeds (the Ed25519
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

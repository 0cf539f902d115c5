/// The hybrid signature every signed format in this suite uses: an Ed25519 signature (64 bytes)
/// followed by an ML-DSA-65 signature (3,309 bytes), both over the same message; ML-DSA is the
/// deterministic variant with an empty context. This is the layout of the public Haven
/// implementation the DeviceList seed comes from.
///
/// Verification requires both halves. It always checks both, so a failure says exactly which half
/// (or both) failed: an implementation that verifies only one half is caught by vectors where the
/// other half alone is broken.
public enum HybridSignature {
    public static let byteCount = Ed25519.signatureByteCount + MLDSA65.signatureByteCount  // 3,373

    /// Why a hybrid signature did not verify. Stable codes: the wire layer maps them into the
    /// suite's error vocabulary.
    public enum Failure: String, Error, Sendable, Hashable, CaseIterable {
        case wrongLength = "hybrid_wrong_length"
        case ed25519Invalid = "hybrid_ed25519_invalid"
        case mldsaInvalid = "hybrid_mldsa_invalid"
        case bothInvalid = "hybrid_both_invalid"
    }

    public struct PrivateKey: Sendable {
        public let ed25519: Ed25519.PrivateKey
        public let mldsa: MLDSA65.PrivateKey

        public init(ed25519: Ed25519.PrivateKey, mldsa: MLDSA65.PrivateKey) {
            self.ed25519 = ed25519
            self.mldsa = mldsa
        }

        /// From a 32-byte Ed25519 seed and a 32-byte ML-DSA-65 seed (xi).
        public init(ed25519Seed: [UInt8], mldsaSeed: [UInt8]) throws {
            self.init(ed25519: try Ed25519.PrivateKey(seed: ed25519Seed), mldsa: try MLDSA65.PrivateKey(seed: mldsaSeed))
        }

        public var publicKey: PublicKey { PublicKey(ed25519: ed25519.publicKey, mldsa: mldsa.publicKey) }

        /// Ed25519(message) || ML-DSA-65 deterministic(message, context "").
        public func signature<M: Collection>(for message: M) -> [UInt8] where M.Element == UInt8 {
            let m = Array(message)
            // An empty context is always valid, so deterministic signing cannot throw here.
            let pq = (try? mldsa.deterministicSignature(for: m, context: [])) ?? []
            return ed25519.signature(for: m) + pq
        }
    }

    public struct PublicKey: Sendable, Hashable {
        public let ed25519: Ed25519.PublicKey
        public let mldsa: MLDSA65.PublicKey

        public init(ed25519: Ed25519.PublicKey, mldsa: MLDSA65.PublicKey) {
            self.ed25519 = ed25519
            self.mldsa = mldsa
        }

        /// Checks both halves; throws the failure that names which half did not verify.
        public func verify<S: Collection, M: Collection>(_ signature: S, for message: M) throws(Failure)
        where S.Element == UInt8, M.Element == UInt8 {
            let sig = Array(signature)
            guard sig.count == HybridSignature.byteCount else { throw .wrongLength }
            let m = Array(message)
            let edOK = ed25519.isValidSignature(sig[0..<Ed25519.signatureByteCount], for: m)
            let pqOK = mldsa.isValidSignature(sig[Ed25519.signatureByteCount...], for: m, context: [])
            switch (edOK, pqOK) {
            case (true, true): return
            case (false, true): throw .ed25519Invalid
            case (true, false): throw .mldsaInvalid
            case (false, false): throw .bothInvalid
            }
        }

        /// `verify` under explicit rules for each half (SPEC.md §9.1 and §9.2 are `.suite` and
        /// `.fips204`); for mutants modelling a testee built on a stock library.
        package func verify(_ signature: [UInt8], for message: [UInt8], ed25519Rule: Ed25519.VerificationRule,
                            mldsaRule: MLDSA65.VerificationRule) throws(Failure) {
            guard signature.count == HybridSignature.byteCount else { throw .wrongLength }
            let edOK = ed25519.isValidSignature(signature[0..<Ed25519.signatureByteCount], for: message, rule: ed25519Rule)
            let pqOK = mldsa.isValidSignature(Array(signature[Ed25519.signatureByteCount...]), for: message, rule: mldsaRule)
            switch (edOK, pqOK) {
            case (true, true): return
            case (false, true): throw .ed25519Invalid
            case (true, false): throw .mldsaInvalid
            case (false, false): throw .bothInvalid
            }
        }

        public func isValidSignature<S: Collection, M: Collection>(_ signature: S, for message: M) -> Bool
        where S.Element == UInt8, M.Element == UInt8 {
            do { try verify(signature, for: message); return true } catch { return false }
        }
    }
}

import Primitives

/// ML-DSA-65 verifiers that skip one FIPS 204 decoding check (SPEC.md §9.2). No stock library is
/// known to do so (RustCrypto `ml-dsa`, which Haven uses, rejects every class: `hint.rs`
/// `bit_unpack`, `Signature::decode`); these model a hurried port, and the mutants use them.
enum LenientMLDSAVerifier: String, CaseIterable, Sendable {
    case skipsHintOrder = "mldsa-skips-hint-order"
    case skipsHintPadding = "mldsa-skips-hint-padding"
    case skipsHintCountOrder = "mldsa-skips-hint-count-order"
    /// Neither count check of Algorithm 21 line 3 (below the previous count, above ω): a count it
    /// cannot use gives its polynomial no positions.
    case skipsHintCount = "mldsa-skips-hint-count"
    case skipsZBound = "mldsa-skips-z-bound"

    var rule: MLDSA65.VerificationRule {
        switch self {
        case .skipsHintOrder: return .init(checkHintOrder: false)
        case .skipsHintPadding: return .init(checkHintPadding: false)
        case .skipsHintCountOrder: return .init(checkHintCountOrder: false)
        case .skipsHintCount: return .init(checkHintCountOrder: false, checkHintCountBound: false)
        case .skipsZBound: return .init(checkZBound: false)
        }
    }

    func accepts(publicKey: MLDSA65.PublicKey, signature: [UInt8], message: [UInt8]) -> Bool {
        publicKey.isValidSignature(signature, for: message, rule: rule)
    }
}

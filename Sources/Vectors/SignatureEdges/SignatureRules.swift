import Primitives

/// The one seam where the reference decides how Ed25519 and ML-DSA-65 are verified (SPEC.md
/// §9.1, §9.2): `.suite` and `.fips204`, unless a mutant of the format asks for a stock library's
/// rule. Every signature check in `signin`, `device_list` and `envelope` (the pinned keys of
/// `PinnedHybridKey` among them), and every Ed25519 key a bundle carries, goes through here.
enum SignatureRules {
    /// The Ed25519 rule for `format`.
    static func ed25519(_ format: String) -> Ed25519.VerificationRule {
        guard let m = Mutant.active, m.format == format else { return .suite }
        switch m {
        case .signinEd25519Cofactored, .listEd25519Cofactored, .envelopeEd25519Cofactored: return StockEd25519Verifier.zip215.rule
        case .signinEd25519ReducesS, .envelopeEd25519ReducesS: return StockEd25519Verifier.reducesS.rule
        case .signinEd25519TopBitsS, .envelopeEd25519TopBitsS: return StockEd25519Verifier.legacyScalarCheck.rule
        case .signinEd25519RefusesSmallOrder, .listEd25519RefusesSmallOrder, .envelopeEd25519RefusesSmallOrder: return StockEd25519Verifier.libsodium.rule
        case .signinEd25519CanonicalA, .envelopeEd25519CanonicalA: return StockEd25519Verifier.rfc8032Strict.rule
        case .envelopeEd25519PrereducedCofactored: return StockEd25519Verifier.prereducedCofactored.rule
        default: return .suite
        }
    }

    /// The ML-DSA-65 rule for `format`.
    static func mldsa(_ format: String) -> MLDSA65.VerificationRule {
        guard let m = Mutant.active, m.format == format else { return .fips204 }
        switch m {
        case .signinMLDSAUnsortedHints, .listMLDSAUnsortedHints, .envelopeMLDSAUnsortedHints: return LenientMLDSAVerifier.skipsHintOrder.rule
        case .signinMLDSAPaddingUnchecked, .envelopeMLDSAPaddingUnchecked: return LenientMLDSAVerifier.skipsHintPadding.rule
        case .signinMLDSAZUnchecked, .listMLDSAZUnchecked, .envelopeMLDSAZUnchecked: return LenientMLDSAVerifier.skipsZBound.rule
        case .signinMLDSAHintCountUnchecked, .listMLDSAHintCountUnchecked, .envelopeMLDSAHintCountUnchecked: return LenientMLDSAVerifier.skipsHintCount.rule
        default: return .fips204
        }
    }

    /// Whether a 32-byte Ed25519 key part is accepted where a format parses one (a DeviceList
    /// bundle, §10.1): it must decode under [R9.1-3], aliases included, unless a mutant parses
    /// strictly.
    static func parseEd25519Key(_ bytes: ArraySlice<UInt8>, format: String) -> Ed25519.PublicKey? {
        guard let key = try? Ed25519.PublicKey(rawRepresentation: bytes) else { return nil }
        if format == "device_list" && Mutant.on(.listBundleStrictEd25519) && !key.isCanonicalEncoding { return nil }
        return key
    }

    /// Both halves, always both (§9.3), under this format's rules.
    static func verify(_ key: HybridSignature.PublicKey, _ signature: [UInt8], _ message: [UInt8], format: String) throws(HybridSignature.Failure) {
        try key.verify(signature, for: message, ed25519Rule: ed25519(format), mldsaRule: mldsa(format))
    }
}

/// The Ed25519 edge classes of SPEC.md §9.1: every way a 64-byte signature and a 32-byte public
/// key sit on a boundary of the verification rule, modelled on C2SP CCTV's `ed25519vectors` flags
/// and the ed25519-speccheck cases ("Taming the many EdDSAs"). Each class says how its material is
/// built, whether the suite's rule accepts it, and which rule it pins; the stock libraries'
/// verdicts are computed, never typed in (`StockEd25519Verifier`).
enum Ed25519EdgeClass: String, CaseIterable, Sendable {
    /// The signer's own RFC 8032 signature: every verifier accepts it.
    case control
    /// S replaced by S + L (< 2^253): the same value mod L, not canonical.
    case sPlusL = "s-plus-l"
    /// S replaced by S + 2L (≥ 2^253): caught even by a check of the top three bits.
    case sPlus2L = "s-plus-2l"
    /// A = R = the identity's encoding and S = L: with S = 0 it would verify (`smallOrderASZero`).
    case sEqualsL = "s-equals-l"
    /// A = R = the identity's encoding, S = 0: a valid signature under a weak key.
    case smallOrderASZero = "small-order-a-s-zero"
    /// A of order 8, R = [r]B, S = r, with [k]A = O: valid under the suite's rule.
    case smallOrderA = "small-order-a"
    /// The real key, R = the identity's encoding, S = k·s: valid under the suite's rule.
    case smallOrderR = "small-order-r"
    /// A = [a]B + T (T of order 8), R = [r]B, S = r + k·a with 8 | k: valid (the cofactorless
    /// equation holds exactly), and rejected by the cofactored equation with pre-reduced scalars.
    case mixedOrderA = "mixed-order-a"
    /// The same A with 8 ∤ k: only the cofactored equation accepts it.
    case cofactoredOnlyA = "cofactored-only-mixed-a"
    /// The real key, R = [r]B + T, S = r + k·s: only the cofactored equation accepts it.
    case cofactoredOnlyR = "cofactored-only-mixed-r"
    /// A = ed ff…ff 7f (y = p, read as y = 0: a point of order 4), R = [r]B, S = r, [k]A = O.
    case nonCanonicalAY = "non-canonical-a-y"
    /// A = 01 00…00 80 (the identity with the sign bit set, "-0"), R = [r]B, S = r.
    case nonCanonicalAMinusZero = "non-canonical-a-minus-zero"
    /// The real key, R = ee ff…ff 7f (y = p + 1, an alias of the identity), S = k·s.
    case nonCanonicalRY = "non-canonical-r-y"
    /// The real key, R = 01 00…00 80 (the identity with "-0"), S = k·s.
    case nonCanonicalRMinusZero = "non-canonical-r-minus-zero"
    /// The real key and S, R = 02 00…00 (y = 2 is not on the curve).
    case rNotAPoint = "r-not-a-point"

    /// Accepted by SPEC.md §9.1 (the generator checks this against the reference verifier).
    var validUnderSuite: Bool {
        switch self {
        case .control, .smallOrderASZero, .smallOrderA, .smallOrderR, .mixedOrderA, .nonCanonicalAY, .nonCanonicalAMinusZero: return true
        case .sPlusL, .sPlus2L, .sEqualsL, .cofactoredOnlyA, .cofactoredOnlyR, .nonCanonicalRY, .nonCanonicalRMinusZero, .rNotAPoint: return false
        }
    }

    /// The public key is not the signer's: the case pins a key whose Ed25519 half is this A.
    var ownKey: Bool {
        switch self {
        case .sEqualsL, .smallOrderASZero, .smallOrderA, .mixedOrderA, .cofactoredOnlyA, .nonCanonicalAY, .nonCanonicalAMinusZero: return true
        default: return false
        }
    }

    /// The §9.1 rules the class pins.
    var rules: [String] {
        switch self {
        case .control: return ["R9.1-1", "R9.1-4", "R9.1-5"]
        case .sPlusL, .sPlus2L, .sEqualsL: return ["R9.1-2"]
        case .smallOrderASZero, .smallOrderA, .smallOrderR: return ["R9.1-6"]
        case .mixedOrderA: return ["R9.1-5", "R9.1-6"]
        case .cofactoredOnlyA, .cofactoredOnlyR: return ["R9.1-5"]
        case .nonCanonicalAY, .nonCanonicalAMinusZero: return ["R9.1-3", "R9.1-4"]
        case .nonCanonicalRY, .nonCanonicalRMinusZero, .rNotAPoint: return ["R9.1-5"]
        }
    }

    /// One line for a case comment.
    var summary: String {
        switch self {
        case .control: return "the signer's own Ed25519 signature"
        case .sPlusL: return "S + L in place of S (below 2^253): a verifier that reduces S, or checks only its top three bits, accepts it"
        case .sPlus2L: return "S + 2L in place of S (at least 2^253): a verifier that reduces S accepts it"
        case .sEqualsL: return "key and R the identity, S = L: a verifier that reduces S, or tests S ≤ L, accepts it"
        case .smallOrderASZero: return "key and R the identity, S = 0: valid under §9.1 (small-order keys are not refused); libsodium and verify_strict refuse it"
        case .smallOrderA: return "a key of order 8 and a signature valid for it: §9.1 accepts; libsodium and verify_strict refuse small-order keys"
        case .smallOrderR: return "R = the identity and S = k·s under the real key: §9.1 accepts; libsodium and verify_strict refuse small-order R"
        case .mixedOrderA: return "a key with an order-8 component, 8 | k: the cofactorless equation holds; a cofactored check with pre-reduced scalars rejects it"
        case .cofactoredOnlyA: return "a key with an order-8 component, 8 ∤ k: only the cofactored equation holds, §9.1 rejects"
        case .cofactoredOnlyR: return "R with an order-8 component under the real key: only the cofactored equation holds, §9.1 rejects"
        case .nonCanonicalAY: return "key ed ff…ff 7f (y = p, read as 0, order 4): decodes under §9.1 and verifies; a verifier demanding y < p refuses it"
        case .nonCanonicalAMinusZero: return "key 01 00…00 80 (x = 0 with the sign bit set): read as the identity under §9.1 and verifies; a strict decoder refuses it"
        case .nonCanonicalRY: return "R = ee ff…ff 7f (an alias of the identity) with S = k·s: encodings differ, §9.1 rejects; a verifier comparing points accepts it"
        case .nonCanonicalRMinusZero: return "R = 01 00…00 80 (the identity with -0) with S = k·s: encodings differ, §9.1 rejects; a verifier comparing points accepts it"
        case .rNotAPoint: return "R = 02 00…00, not a curve point: every verifier rejects it (none may trap)"
        }
    }
}

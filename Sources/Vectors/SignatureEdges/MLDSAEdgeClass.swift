/// The ML-DSA-65 edge classes of SPEC.md §9.2, each a change to a genuine deterministic signature
/// that FIPS 204 verification rejects. Where a verifier skipping exactly one check would accept the
/// result (the rest of the signature is genuine), the class says which check that is, so a mutant
/// skipping it is killed by the class's cases.
enum MLDSAEdgeClass: String, CaseIterable, Sendable {
    /// One byte short (3,308): the hybrid is then 3,372 bytes.
    case short
    /// One byte long (3,310).
    case long
    /// The count of a polynomial without hints set to ω + 1 = 56: the decoded hints are unchanged
    /// for a decoder that skips the bound, so c̃ passes and only the count check rejects it.
    /// (Replaces `hint-count-over-omega`, which changed the last count and so the hints: c̃
    /// failed too, and a decoder skipping the bound was rejected for the wrong reason.)
    case hintCountOverOmegaSameHints = "hint-count-over-omega-same-hints"
    /// The last cumulative hint count set to 255: a decoder trusting it reads past the signature.
    case hintCountFF = "hint-count-ff"
    /// The count of a polynomial without hints set one below the previous count: the decoded
    /// hints are unchanged for a decoder that skips the order test. (Replaces
    /// `hint-count-decreasing`, which changed the hints.)
    case hintCountDecreasingSameHints = "hint-count-decreasing-same-hints"
    /// Two positions of one polynomial swapped (the same set, out of order).
    case hintUnsorted = "hint-unsorted"
    /// A position written twice (the same set, one position repeated).
    case hintRepeated = "hint-repeated"
    /// A non-zero byte in the unused position slots.
    case hintPadding = "hint-padding"
    /// A signature whose only fault is ‖z‖∞ ≥ γ1 − β (signed with the z test inverted).
    case zOutOfRange = "z-out-of-range"
    /// The last byte of c̃ flipped.
    case cTildeFlipped = "c-tilde-flipped"
    /// A genuine signature of another message (the signed message with its last byte changed).
    case otherMessage = "other-message"

    var rules: [String] {
        switch self {
        case .short, .long: return ["R9.2-1", "R9.3-1"]
        case .hintCountOverOmegaSameHints, .hintCountFF, .hintCountDecreasingSameHints, .hintUnsorted, .hintRepeated, .hintPadding: return ["R9.2-2"]
        case .zOutOfRange: return ["R9.2-3"]
        case .cTildeFlipped: return ["R9.2-4"]
        case .otherMessage: return ["R9.2-4", "R9.3-3"]
        }
    }

    /// The 3,309-byte length changes, so the hybrid is not 3,373 bytes (§9.3 `hybrid_wrong_length`).
    var changesLength: Bool { self == .short || self == .long }

    var summary: String {
        switch self {
        case .short: return "an ML-DSA-65 half of 3,308 bytes (the hybrid is 3,372)"
        case .long: return "an ML-DSA-65 half of 3,310 bytes (the hybrid is 3,374)"
        case .hintCountOverOmegaSameHints: return "a polynomial without hints has count ω + 1 = 56 (the hints read are unchanged, c̃ passes): HintBitUnpack must return ⊥"
        case .hintCountFF: return "the last hint count is 255: a decoder trusting it reads past the signature"
        case .hintCountDecreasingSameHints: return "a polynomial without hints has a count below the previous one (the hints read are unchanged, c̃ passes): HintBitUnpack must return ⊥"
        case .hintUnsorted: return "two hint positions of one polynomial swapped: the same hint set, out of order, must be ⊥"
        case .hintRepeated: return "a hint position written twice: the same hint set, repeated, must be ⊥"
        case .hintPadding: return "a non-zero byte in the unused hint positions: must be ⊥"
        case .zOutOfRange: return "‖z‖∞ ≥ γ1 − β and nothing else wrong: the z bound must be checked"
        case .cTildeFlipped: return "the last byte of c̃ flipped: all 48 bytes of c̃ are compared"
        case .otherMessage: return "a genuine ML-DSA-65 signature of another message"
        }
    }
}

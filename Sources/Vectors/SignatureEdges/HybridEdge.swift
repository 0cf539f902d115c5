import Primitives

/// One hybrid-signature edge item (SPEC.md §9.3): the Ed25519 key to pin, the message, the
/// signature bytes a format carries, and what the suite's rule says about them — computed by the
/// reference verifier, with the verifiers that would answer otherwise.
struct HybridEdge: Sendable {
    /// `ed25519/<class>`, `mldsa/<class>` or `both/<ed25519 class>+<mldsa class>`.
    let name: String
    /// The Ed25519 half of the key to verify under (the signer's own unless the class brings one).
    let ed25519PublicKey: [UInt8]
    let message: [UInt8]
    /// The hybrid signature bytes (3,373 unless an ML-DSA length class changed it).
    let signature: [UInt8]
    /// nil when both halves verify under SPEC.md §9.
    let failure: HybridSignature.Failure?
    /// The §9 rules the item pins.
    let rules: [String]
    /// One line for a case comment.
    let summary: String
    /// Flags naming the verifiers whose verdict differs from the suite's: `accepted-by:<id>` when
    /// the suite rejects, `rejected-by:<id>` when it accepts.
    let stockFlags: [String]

    /// The Ed25519 key differs from the signer's, so the pinned key must carry it.
    let ownKey: Bool
}

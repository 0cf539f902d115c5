/// Accepted cases already in a file that are a hand-written two-fault case with both faults taken
/// out: `conformance coverage`'s audit tries the named neighbour first, where smaller cases that
/// differ from the two-fault case in fewer, coarser places would outrank it. A neighbour written
/// for its case carries the flag `neighbour-of:<id>` instead; these name cases that were there
/// first, whose flags cannot change without withdrawing them (SPEC.md §2.1).
public enum TwoFaultNeighbours {
    /// Two-fault case id → accepted neighbour id; each format keeps its own list beside its cases.
    public static let all: [String: String] = Dictionary(
        (SyncOfferVectors.twoFaultNeighbours + RevocationVectors.twoFaultNeighbours).map { ($0.case, $0.neighbour) },
        uniquingKeysWith: { a, _ in a })
}

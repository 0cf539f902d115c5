/// The tie-breaks of the pairing service and of `ensure_paired` (§13.2, §13.3) as facets (issue
/// 23). A repeat, of a member name in a JSON body or of the `Authorization` field, is where two
/// stock readers keep different ones: SPEC refuses it, and each stock reading is a mutant at the
/// one seam that reads repeats (`RepeatReading`). The limits and orders of the HTTP formats are
/// measured by their scenario edges (`HTTPEdges`), not by facets yet.
enum PairingFacets {
    static let format = "pairing"

    static let tieBreaks = [
        TieBreakFacet(rule: "R13.2-7", format: format, tie: "repeats a member name",
                      decides: "a /pair body that repeats `token` is 400, whichever copy is well formed",
                      others: [.pairDuplicateMemberFirstWins, .pairDuplicateMemberLastWins]),
        TieBreakFacet(rule: "R13.2-19", format: format, tie: "admitted by none of them",
                      decides: "two Authorization lines admit nobody, whichever holds the right token",
                      others: [.authFirstLineWins, .authLastLineWins]),
        TieBreakFacet(rule: "R13.3-2", format: format, tie: "a repeated member name",
                      decides: "a /hello answer that repeats `paired` stops with pairing_hello_invalid, whichever copy is read",
                      others: [.clientDuplicateFirstWins, .clientDuplicateLastWins]),
    ]

    static let declared = FormatFacets(format: format, section: "13", facets: tieBreaks.map(Facet.tieBreak), boundless: [:])
}

/// The tie-breaks of the identity service and of `self_status_outcome` (§13.4, §13.5) as facets
/// (issue 23): the order of the two lists when rows are otherwise alike, and repeats (of a member
/// name, of the `Authorization` field) that stock readers resolve first-wins or last-wins. The
/// limits and orders of the HTTP formats are measured by their scenario edges (`HTTPEdges`), not
/// by facets yet.
enum RevocationFacets {
    static let format = "revocation"

    static let tieBreaks = [
        TieBreakFacet(rule: "R13.4-9", format: format, tie: "oldest registration first",
                      decides: "siblings are listed in registration order, neither newest first nor by pubkey",
                      others: [.siblingsNewestFirst, .siblingsByPubkey]),
        TieBreakFacet(rule: "R13.4-11", format: format, tie: "oldest first",
                      decides: "an account's public pubkeys are listed in registration order, neither newest first nor by pubkey",
                      others: [.userPubkeysNewestFirst, .userPubkeysByPubkey]),
        TieBreakFacet(rule: "R13.4-15", format: format, tie: "two or more authenticate nobody",
                      decides: "two Authorization lines are no session, whichever holds a minted token",
                      others: [.sessionFirstLineWins, .sessionLastLineWins]),
        TieBreakFacet(rule: "R13.4-4", format: format, tie: "not a JSON object (§13.1)",
                      decides: "a register body that repeats `pubkey_hex` is 400, whichever copy is well formed",
                      others: [.registerDuplicateFirstWins, .registerDuplicateLastWins]),
        TieBreakFacet(rule: "R13.5-5", format: format, tie: "must be a JSON object (§13.1)",
                      decides: "a self-status body that repeats `revoked` is revocation_status_invalid, whichever copy is read",
                      others: [.clientDuplicateFirstWinsStatus, .clientDuplicateLastWinsStatus]),
    ]

    static let declared = FormatFacets(format: format, section: "13", facets: tieBreaks.map(Facet.tieBreak), boundless: [:])
}

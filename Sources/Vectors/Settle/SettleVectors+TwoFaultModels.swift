/// The model of settle's one two-fault case the byte comparison cannot confirm (issue 23, item 4).
/// `step` answers with the actions and the state after the event, and the state echoes the input's
/// siblings: a back-off left on or taken off shows in every output, so the case is judged on its
/// `actions`, the part R12.6-11's order decides.
extension SettleVectors {
    static func twoFaultModels() -> [TwoFaultModel] {
        let actions: @Sendable (JSONValue) -> JSONValue? = { $0["actions"] }
        return [
            // R12.6-11: a received digest is decoded before the sender's back-off is looked at. The
            // first fault is a digest of version 7 (dropped with its code); the second, a sibling
            // backed off for 30 s (its valid digest ignored, no action). With neither, the digest
            // of a sibling that is not backed off starts a pull.
            TwoFaultModel("settle/step/order/undecodable-digest-from-a-backed-off-sibling", op: "step", first: "version", second: "backoff",
                          decisive: actions) { s in
                let digest = d2.encoded()
                return stepInput(state([sib(ipad, until: s.has("backoff") ? T + 30_000 : nil)]),
                                 gotBytes(T, ipad, s.has("version") ? [7] + Array(digest.dropFirst()) : digest))
            },
        ]
    }
}

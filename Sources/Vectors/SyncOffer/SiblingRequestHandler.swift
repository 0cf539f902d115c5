/// What a sibling does with a `sync_request` (SPEC.md §7.3): the same account gate, first, then
/// the request. Accepting means: export, seal, upload, offer (§7.5).
///
/// The milder direction of the gate: without it, anyone who learned this device's address could
/// make it export, encrypt and upload its whole store on demand.
public enum SiblingRequestHandler {
    public enum Result: String, Sendable {
        case accepted
        case dropped
    }

    /// Dropped (no answer, nothing parsed) when the sender is not this account; otherwise the
    /// decoded request, or the decoder's code thrown.
    public static func handle(request bytes: [UInt8], ownUserIDHash: [UInt8]?, senderUserIDHash: [UInt8])
        throws(WireError) -> (result: Result, request: SyncRequest?)
    {
        guard Mutant.on(.syncSkipRequestGate) || AccountGate.isSameAccount(own: ownUserIDHash, sender: senderUserIDHash) else { return (.dropped, nil) }
        return (.accepted, try SyncRequest.decode(bytes))
    }
}

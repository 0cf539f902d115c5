/// The payload tags of the snapshot exchange (SPEC.md §7.2). Each message carries its tag in its
/// own `type` member, so a payload read as the wrong message fails on the tag
/// (`sync_wrong_payload_type`) instead of on whichever field happens to be missing first.
public enum SyncPayloadType: String, Sendable, CaseIterable {
    case syncRequest = "sync_request"
    case syncOffer = "sync_offer"
    case syncAck = "sync_ack"
}

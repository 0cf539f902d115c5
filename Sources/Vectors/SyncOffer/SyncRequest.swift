import Primitives

/// `sync_request` (SPEC.md §7.2): what a new device sends each sibling to ask for a snapshot.
///
/// Sealed sender leaves the outer envelope without a return address, so the request carries its
/// own (`replyPubkey`). `requestID` is stable across re-sends to one sibling, which is what lets
/// the sibling deduplicate repeats and the requester map the offer back to the sibling to ack.
public struct SyncRequest: Sendable, Hashable {
    public static let requestIDByteCount = 16
    /// An X-Wing public key (ML-KEM-768 encapsulation key 1,184 bytes || X25519 key 32 bytes), the
    /// key form the SignIn flow already uses for sealed replies.
    public static let replyPubkeyByteCount = 1216

    public var requestID: [UInt8]
    public var replyPubkey: [UInt8]
    /// Milliseconds since the Unix epoch at the first send; re-sends repeat it byte for byte.
    public var timestampMs: UInt64

    public init(requestID: [UInt8], replyPubkey: [UInt8], timestampMs: UInt64) {
        self.requestID = requestID
        self.replyPubkey = replyPubkey
        self.timestampMs = timestampMs
    }

    /// The members in table order (SPEC.md §7.2), `type` aside.
    static let fields: [(String, PayloadShape)] = [("request_id", .bytes(requestIDByteCount)), ("reply_pubkey", .bytes(replyPubkeyByteCount)), ("timestamp_ms", .uint)]

    public var tree: CBOR {
        .object([("type", .text(SyncPayloadType.syncRequest.rawValue)), ("request_id", .bytes(requestID)),
                 ("reply_pubkey", .bytes(replyPubkey)), ("timestamp_ms", .unsigned(timestampMs))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SyncRequest {
        let r = try SyncMapReader(bytes, tag: .syncRequest, fields: fields)
        return SyncRequest(requestID: r.bytes("request_id"), replyPubkey: r.bytes("reply_pubkey"), timestampMs: r.unsigned("timestamp_ms"))
    }
}

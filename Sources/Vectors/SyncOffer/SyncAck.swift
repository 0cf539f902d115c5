import Primitives

/// `sync_ack` (SPEC.md §7.2): the requester's verdict on an offer. Informational for the sibling
/// (it never retries on `ok: false`), but it is the only signal that the blob was taken.
public struct SyncAck: Sendable, Hashable {
    public var requestID: [UInt8]
    public var ok: Bool

    public init(requestID: [UInt8], ok: Bool) {
        self.requestID = requestID
        self.ok = ok
    }

    /// The members in table order (SPEC.md §7.2), `type` aside; the encoding order differs.
    static let fields: [(String, PayloadShape)] = [("request_id", .bytes(SyncRequest.requestIDByteCount)), ("ok", .bool)]

    public var tree: CBOR {
        .object([("type", .text(SyncPayloadType.syncAck.rawValue)), ("request_id", .bytes(requestID)), ("ok", .bool(ok))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SyncAck {
        let r = try SyncMapReader(bytes, tag: .syncAck, fields: fields)
        return SyncAck(requestID: r.bytes("request_id"), ok: r.bool("ok"))
    }
}

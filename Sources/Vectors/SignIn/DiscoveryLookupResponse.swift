/// The body of `POST /v1/discovery/own` (SPEC.md §8.3): the caller's own account discovery inbox
/// and the X-Wing key to seal to — never an account id, never a device key.
///
/// No payload tag: it is an HTTP response whose meaning the endpoint gives, never the content of a
/// sealed box that could be confused with another message.
public struct DiscoveryLookupResponse: Sendable, Hashable {
    public static let inboxByteCount = 32
    /// An X-Wing public key (ML-KEM-768 encapsulation key 1,184 || X25519 key 32), opaque here.
    public static let xwingPublicKeyByteCount = 1216
    static let members = ["discovery_inbox", "discovery_xwing_pubkey"]

    public var inbox: [UInt8]
    public var xwingPublicKey: [UInt8]

    public init(inbox: [UInt8], xwingPublicKey: [UInt8]) throws(WireError) {
        guard inbox.count == Self.inboxByteCount else {
            throw WireError(.signinBadLength, "discovery_inbox must be 32 bytes, got \(inbox.count)", field: "discovery_inbox")
        }
        guard xwingPublicKey.count == Self.xwingPublicKeyByteCount else {
            throw WireError(.signinBadLength, "discovery_xwing_pubkey must be 1216 bytes, got \(xwingPublicKey.count)", field: "discovery_xwing_pubkey")
        }
        self.inbox = inbox
        self.xwingPublicKey = xwingPublicKey
    }

    public var tree: CBOR {
        .object([("discovery_inbox", .bytes(inbox)), ("discovery_xwing_pubkey", .bytes(xwingPublicKey))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> DiscoveryLookupResponse {
        let r = try SignInMapReader(bytes, tag: nil, allowed: members)
        return try DiscoveryLookupResponse(inbox: try r.bytes("discovery_inbox", length: inboxByteCount),
                                           xwingPublicKey: try r.bytes("discovery_xwing_pubkey", length: xwingPublicKeyByteCount))
    }
}

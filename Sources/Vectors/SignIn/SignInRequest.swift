/// `signin_request` (SPEC.md §8.4): what a new device seals to the account's discovery key.
///
/// The certificate travels as an opaque byte string: decoding the request (rung 1) never looks
/// inside it, and whether it decodes and verifies is rung 2's question, with rung 2's codes.
public struct SignInRequest: Sendable, Hashable {
    public static let replySubjectByteCount = 32
    public static let deviceModelUTF8Length = 1...64
    static let members = ["cert", "device_model", "timestamp_s", "xwing_pubkey", "reply_subject"]

    /// Shown on the sibling's prompt; 1–64 UTF-8 bytes so a sender cannot fill a lock screen.
    public var deviceModel: String
    /// A fresh random relay subject the requester subscribed before sending.
    public var replySubject: [UInt8]
    /// The requester's own X-Wing public key, which the ack and approval are sealed to.
    public var xwingPublicKey: [UInt8]
    /// Unix seconds when the request was made (rung 5 compares it with the sibling's clock).
    public var timestamp: UInt64
    /// The requester's PhoneOwnershipCert, exactly as phone-verify-svc encoded it.
    public var cert: [UInt8]

    public init(deviceModel: String, replySubject: [UInt8], xwingPublicKey: [UInt8], timestamp: UInt64, cert: [UInt8]) throws(WireError) {
        // §8.4: the bound counts UTF-8 bytes (the mutant counts characters, as Swift's `count` does).
        let length = Mutant.on(.signinModelCharacters) ? deviceModel.count : deviceModel.utf8.count
        guard Self.deviceModelUTF8Length.contains(length) else {
            throw WireError(.signinBadLength, "device_model must be 1–64 UTF-8 bytes, got \(deviceModel.utf8.count)", field: "device_model")
        }
        guard replySubject.count == Self.replySubjectByteCount else {
            throw WireError(.signinBadLength, "reply_subject must be 32 bytes, got \(replySubject.count)", field: "reply_subject")
        }
        guard xwingPublicKey.count == DiscoveryLookupResponse.xwingPublicKeyByteCount else {
            throw WireError(.signinBadLength, "xwing_pubkey must be 1216 bytes, got \(xwingPublicKey.count)", field: "xwing_pubkey")
        }
        self.deviceModel = deviceModel
        self.replySubject = replySubject
        self.xwingPublicKey = xwingPublicKey
        self.timestamp = timestamp
        self.cert = cert
    }

    public var tree: CBOR {
        .object([("type", .text(SignInPayloadType.signinRequest.rawValue)), ("device_model", .text(deviceModel)),
                 ("reply_subject", .bytes(replySubject)), ("xwing_pubkey", .bytes(xwingPublicKey)),
                 ("timestamp_s", .unsigned(timestamp)), ("cert", .bytes(cert))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SignInRequest {
        let r = try SignInMapReader(bytes, tag: .signinRequest, allowed: members)
        return try SignInRequest(deviceModel: try r.text("device_model", utf8Length: deviceModelUTF8Length),
                                 replySubject: try r.bytes("reply_subject", length: replySubjectByteCount),
                                 xwingPublicKey: try r.bytes("xwing_pubkey", length: DiscoveryLookupResponse.xwingPublicKeyByteCount),
                                 timestamp: try r.unsigned("timestamp_s"),
                                 cert: try r.bytes("cert"))
    }
}

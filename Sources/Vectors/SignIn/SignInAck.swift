/// `signin_ack` (SPEC.md §8.7): sealed back after all five rungs pass, so the new device can say
/// "Approve on your iPhone" instead of showing an unlabelled wait.
public struct SignInAck: Sendable, Hashable {
    public static let deviceFamilyUTF8Length = 1...32
    static let members = ["device_family"]

    /// The sibling's device family as the peerDevices store names it (§4.4 `family`), e.g. `iPhone`.
    public var deviceFamily: String

    public init(deviceFamily: String) throws(WireError) {
        guard Self.deviceFamilyUTF8Length.contains(deviceFamily.utf8.count) else {
            throw WireError(.signinBadLength, "device_family must be 1–32 UTF-8 bytes, got \(deviceFamily.utf8.count)", field: "device_family")
        }
        self.deviceFamily = deviceFamily
    }

    public var tree: CBOR {
        .object([("type", .text(SignInPayloadType.signinAck.rawValue)), ("device_family", .text(deviceFamily))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SignInAck {
        let r = try SignInMapReader(bytes, tag: .signinAck, allowed: members)
        return try SignInAck(deviceFamily: try r.text("device_family", utf8Length: deviceFamilyUTF8Length))
    }
}

/// The device grant identity-svc mints when a sibling taps Approve (`POST /v1/auth/devices/grant`,
/// SPEC.md §8.8): a 32-byte token the new device redeems through register-with-grant, valid for
/// three minutes.
public struct DeviceGrant: Sendable, Hashable {
    public static let tokenByteCount = 32
    /// identity-svc sets `expires_at_s` = minting time + 180.
    public static let lifetimeSeconds: UInt64 = 180
    static let members = ["token", "expires_at_s"]

    public var token: [UInt8]
    /// Unix seconds: the first second at which the grant no longer admits.
    public var expiresAt: UInt64

    public init(token: [UInt8], expiresAt: UInt64) throws(WireError) {
        guard token.count == Self.tokenByteCount else {
            throw WireError(.signinBadLength, "grant.token must be 32 bytes, got \(token.count)", field: "grant.token")
        }
        self.token = token
        self.expiresAt = expiresAt
    }

    /// A grant minted at `mintedAt`, expiring three minutes later.
    public static func minted(token: [UInt8], at mintedAt: UInt64) throws(WireError) -> DeviceGrant {
        guard mintedAt <= UInt64.max - lifetimeSeconds else {
            throw WireError(.inputBadValue, "minting time leaves no room for a 180 s lifetime", field: "minted_at_s")
        }
        return try DeviceGrant(token: token, expiresAt: mintedAt + lifetimeSeconds)
    }

    public var tree: CBOR { .object([("token", .bytes(token)), ("expires_at_s", .unsigned(expiresAt))]) }

    static func read(_ r: SignInMapReader) throws(WireError) -> DeviceGrant {
        try DeviceGrant(token: try r.bytes("token", length: tokenByteCount), expiresAt: try r.unsigned("expires_at_s"))
    }
}

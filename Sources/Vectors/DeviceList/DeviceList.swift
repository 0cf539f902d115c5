/// The account's signed, versioned roster (SPEC.md §10.3). Contacts seal to the devices it
/// authorizes, so it is signed by the account identity and versioned: a verifier keeps the highest
/// version it has seen, which is what stops a replayed old list from resurrecting a revoked device.
public struct DeviceList: Sendable, Equatable {
    public static let domain = Array("haven-device-list-v1".utf8)
    /// Folded into the signed bytes only when the account leaf is retired, so a non-retired list
    /// signs exactly the bytes a pre-retirement implementation signs.
    public static let retiredDomain = Array("haven-device-list-acct-leaf-retired-v1".utf8)
    /// Appended to the wire after the signature, only when retired.
    public static let retiredWireSuffix = Array("HVNLEAF1".utf8)

    public var accountID: DeviceID
    public var version: UInt64
    /// Unix seconds, supplied by the signer; advisory, but signed.
    public var updatedAt: UInt64
    /// In wire order: the signature covers the order, so it is kept exactly as given.
    public var devices: [DeviceID]
    public var revoked: [DeviceID]
    public var accountLeafRetired: Bool
    public var signature: [UInt8]

    public init(accountID: DeviceID, version: UInt64, updatedAt: UInt64, devices: [DeviceID], revoked: [DeviceID],
                accountLeafRetired: Bool, signature: [UInt8] = []) {
        self.accountID = accountID
        self.version = version
        self.updatedAt = updatedAt
        self.devices = devices
        self.revoked = revoked
        self.accountLeafRetired = accountLeafRetired
        self.signature = signature
    }

    /// `"haven-device-list-v1" ‖ account_id ‖ version u64 ‖ updated_at u64 ‖ n u64 ‖ ids ‖ m u64 ‖ ids`
    /// then `"haven-device-list-acct-leaf-retired-v1"` only when retired. Counts are u64 here and
    /// u32 on the wire: that is the Haven layout.
    public var signingBytes: [UInt8] {
        var v = Self.domain + accountID.bytes
        v.appendLE(version)
        v.appendLE(updatedAt)
        v.appendLE(UInt64(devices.count))
        for d in devices { v += d.bytes }
        v.appendLE(UInt64(revoked.count))
        for d in revoked { v += d.bytes }
        if accountLeafRetired { v += Self.retiredDomain }
        return v
    }

    /// The same content signed by `account` (whose node id becomes the account id).
    public func signed(by account: HavenIdentity) -> DeviceList {
        var out = self
        out.accountID = account.nodeID
        out.signature = account.sign(out.signingBytes)
        return out
    }

    /// `account_id ‖ version u64 ‖ updated_at u64 ‖ n u32 ‖ ids ‖ m u32 ‖ ids ‖ signature`, then
    /// `HVNLEAF1` only when retired.
    public var wire: [UInt8] {
        var v = accountID.bytes
        v.appendLE(version)
        v.appendLE(updatedAt)
        v.appendLE(UInt32(devices.count))
        for d in devices { v += d.bytes }
        v.appendLE(UInt32(revoked.count))
        for d in revoked { v += d.bytes }
        v += signature
        if accountLeafRetired { v += Self.retiredWireSuffix }
        return v
    }

    /// The inverse of `wire`. The retired suffix is detected first, off the tail: when the last 8
    /// bytes are `HVNLEAF1` they are the flag, whatever precedes them. A non-retired signature
    /// that ended in those bytes would therefore decode as retired and fail `verify` — closed, not
    /// open (and a well-formed ML-DSA-65 signature cannot end that way: SPEC.md §10.3).
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> DeviceList {
        let suffix = retiredWireSuffix
        let retired = bytes.count >= suffix.count && Array(bytes.suffix(suffix.count)) == suffix
        var r = LittleEndianReader(bytes, end: retired ? bytes.count - suffix.count : bytes.count)
        let account = try r.id(field: "account_id")
        let version = try r.u64(field: "version")
        let updatedAt = try r.u64(field: "updated_at")
        let devices = try r.idList(field: "devices")
        let revoked = try r.idList(field: "revoked")
        let sigOffset = r.offset
        let sig = r.rest()
        guard !sig.isEmpty else {
            throw WireError(.deviceListMissingSignature, "nothing follows the revoked ids", offset: sigOffset, field: "signature")
        }
        return DeviceList(accountID: account, version: version, updatedAt: updatedAt, devices: devices, revoked: revoked,
                          accountLeafRetired: retired, signature: sig)
    }

    /// Against the pinned account bundle: ids match, then the hybrid signature over the signing
    /// bytes this list's own flag selects (so a flag flipped without re-signing fails here).
    public func verify(pinned: PublicBundle) throws(WireError) {
        guard pinned.nodeID == accountID || Mutant.on(.listAccountNotChecked) else {
            throw WireError(.deviceListAccountMismatch, "the list names account \(accountID.hex), pinned is \(pinned.nodeID.hex)", field: "account_id")
        }
        try pinned.verify(signature, for: signingBytes, field: "signature")
    }

    /// Present in `devices`, absent from `revoked`, and not the account id itself once the account
    /// leaf is retired.
    public func isAuthorized(_ id: DeviceID) -> Bool {
        if accountLeafRetired && id == accountID && !Mutant.on(.listRetiredAccountAuthorized) { return false }
        return devices.contains(id) && !revoked.contains(id)
    }

    /// The authorized ids, deduplicated, in ascending byte order.
    public var authorized: [DeviceID] { Set(devices.filter(isAuthorized)).sorted() }

    /// Rollback defence: `other` replaces this list only when it is the same account and strictly
    /// newer. Both are assumed verified.
    @discardableResult
    public mutating func adoptIfNewer(_ other: DeviceList) -> Bool {
        guard other.accountID == accountID, other.version > version || (Mutant.on(.listAdoptEqualVersion) && other.version == version) else { return false }
        self = other
        return true
    }
}

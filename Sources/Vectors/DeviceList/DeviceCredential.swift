/// An account's signed statement "this device is mine" (SPEC.md §10.2): the account identity's
/// hybrid signature over the account id, the issue time, the device's name and its full public
/// bundle, so a contact holding the pinned account key can seal to the device and nobody else can
/// add one.
public struct DeviceCredential: Sendable, Equatable {
    public static let domain = Array("haven-device-cred-v1".utf8)

    public var accountID: DeviceID
    /// Unix seconds, supplied by the issuer; advisory, but signed.
    public var createdAt: UInt64
    /// Human label, UTF-8 as given (no normalisation); advisory, but signed.
    public var name: String
    public var device: PublicBundle
    public var signature: [UInt8]

    public var deviceID: DeviceID { device.nodeID }

    /// `"haven-device-cred-v1" ‖ account_id ‖ created_at u64 ‖ name_len u32 ‖ name ‖ bundle`.
    public static func signingBytes(accountID: DeviceID, createdAt: UInt64, name: String, device: PublicBundle) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        var v = domain + accountID.bytes
        v.appendLE(createdAt)
        v.appendLE(UInt32(nameBytes.count))
        v += nameBytes
        v += device.bytes
        return v
    }

    public var signingBytes: [UInt8] {
        Self.signingBytes(accountID: accountID, createdAt: createdAt, name: name, device: device)
    }

    /// The account vouches for `device`.
    public static func issue(account: HavenIdentity, device: PublicBundle, name: String, createdAt: UInt64) throws(WireError) -> DeviceCredential {
        let name = DeviceListSeams.nameToSign(name)
        guard name.utf8.count <= Int(UInt32.max) else { throw WireError(.inputBadValue, "name longer than 2^32 − 1 bytes", field: "name") }
        let msg = signingBytes(accountID: account.nodeID, createdAt: createdAt, name: name, device: device)
        return DeviceCredential(accountID: account.nodeID, createdAt: createdAt, name: name, device: device, signature: account.sign(msg))
    }

    /// `account_id ‖ created_at u64 ‖ name_len u32 ‖ name ‖ bundle_len u32 ‖ bundle ‖ signature`.
    public var wire: [UInt8] {
        let nameBytes = Array(name.utf8)
        var v = accountID.bytes
        v.appendLE(createdAt)
        v.appendLE(UInt32(nameBytes.count))
        v += nameBytes
        v.appendLE(UInt32(device.bytes.count))
        v += device.bytes
        v += signature
        return v
    }

    /// The inverse of `wire`, checked in byte order (SPEC.md §10.2). The signature is whatever
    /// follows the bundle; its length is judged by `verify`, so a decoder still shows a short one.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> DeviceCredential {
        var r = LittleEndianReader(bytes)
        let account = try r.id(field: "account_id")
        let createdAt = try r.u64(field: "created_at")
        let nameLengthOffset = r.offset
        let nameLength = DeviceListSeams.count(try r.u32(field: "name_len"))
        guard nameLength <= r.remaining else {
            throw WireError(.deviceListTruncated, "name_len \(nameLength) exceeds the \(r.remaining) bytes left", offset: nameLengthOffset, field: "name_len")
        }
        let nameOffset = r.offset
        let nameBytes = try r.take(nameLength, field: "name")
        guard let name = DeviceListSeams.name(nameBytes) else {
            throw WireError(.deviceListBadName, "the device name is not valid UTF-8", offset: nameOffset, field: "name")
        }
        let bundleLengthOffset = r.offset
        let bundleLength = DeviceListSeams.count(try r.u32(field: "bundle_len"))
        guard bundleLength <= r.remaining else {
            throw WireError(.deviceListTruncated, "bundle_len \(bundleLength) exceeds the \(r.remaining) bytes left", offset: bundleLengthOffset, field: "bundle_len")
        }
        let bundleOffset = r.offset
        let bundle = try PublicBundle(try r.take(bundleLength, field: "bundle"), field: "bundle", offset: bundleOffset)
        let sigOffset = r.offset
        let sig = r.rest()
        guard !sig.isEmpty else {
            throw WireError(.deviceListMissingSignature, "nothing follows the bundle", offset: sigOffset, field: "signature")
        }
        return DeviceCredential(accountID: account, createdAt: createdAt, name: name, device: bundle, signature: sig)
    }

    /// Against the pinned account bundle: the ids must match, then the hybrid signature.
    public func verify(pinned: PublicBundle) throws(WireError) {
        guard pinned.nodeID == accountID else {
            throw WireError(.deviceListAccountMismatch, "the credential names account \(accountID.hex), pinned is \(pinned.nodeID.hex)", field: "account_id")
        }
        try pinned.verify(signature, for: signingBytes, field: "signature")
    }
}

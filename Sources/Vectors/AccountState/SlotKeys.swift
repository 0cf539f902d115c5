import Primitives

/// The relay-mailbox keys of self-sync (SPEC.md §11.6), Haven's `selfsync::slot_key`,
/// `slot_prefix`, `grant_slot_key` and `grant_slot_prefix`: ASCII paths with the 32-byte account
/// and device node ids as 64 lowercase hex digits.
public struct SlotKeys: Equatable, Sendable {
    public let slot: String
    public let prefix: String
    public let grantSlot: String
    public let grantPrefix: String

    public init(accountID: DeviceID, deviceID: DeviceID) {
        var account = Self.hex(accountID), device = Self.hex(deviceID)
        if Mutant.on(.accountSlotKeySwapped) { swap(&account, &device) }
        slot = "self/\(account)/state/\(device)"
        prefix = "self/\(account)/state/"
        grantSlot = "self/\(account)/keygrant/\(device)"
        grantPrefix = "self/\(account)/keygrant/"
    }

    /// Lowercase hex ([R11.6-2]); the seam of the uppercase mutant.
    static func hex(_ id: DeviceID) -> String {
        let h = Hex.encode(id.bytes)
        return Mutant.on(.accountSlotHexUppercase) ? h.uppercased() : h
    }
}

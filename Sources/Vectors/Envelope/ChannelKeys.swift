import Primitives

/// The key an envelope's MAC is made under (SPEC.md §14.5): `ChannelKeys.resolve` of seed 000 §5.
/// When the other party's user-id hash is this device's own, the key is the sibling channel key
/// derived from the account seed "and nothing else"; otherwise it is the channel key this device
/// holds for that contact. Resolution is fail-closed: no key, no send and no receive.
public enum ChannelKeys {
    public static let keyByteCount = 32
    public static let siblingInfo = "pixie-sibling-channel-key-v1"

    /// InnerMAC.siblingChannelKey(accountSeed:) = HKDF-SHA256(IKM = account seed, salt = none,
    /// info = "pixie-sibling-channel-key-v1", L = 32).
    public static func siblingChannelKey(accountSeed: [UInt8]) -> [UInt8] {
        let info = Mutant.on(.envelopeChannelKeyInfoEmpty) ? [] : Array(siblingInfo.utf8)
        // The extract output is 32 bytes and L = 32: expand cannot fail.
        return try! HKDFSHA256.deriveKey(inputKeyMaterial: accountSeed, salt: [], info: info, outputByteCount: keyByteCount)
    }

    /// A contact's channel key, as this device holds it.
    public struct Contact: Sendable, Hashable {
        public var userIDHash: [UInt8]
        public var channelKey: [UInt8]
        public init(userIDHash: [UInt8], channelKey: [UInt8]) {
            self.userIDHash = userIDHash
            self.channelKey = channelKey
        }
    }

    public enum Channel: String, Sendable {
        case sibling
        case contact
    }

    /// What this device knows to resolve a key: its own user-id hash (none while it does not know
    /// its account), the account seed (none until it has adopted one), its contacts.
    public struct Holder: Sendable {
        public var ownUserIDHash: [UInt8]?
        public var accountSeed: [UInt8]?
        public var contacts: [Contact]
        public init(ownUserIDHash: [UInt8]?, accountSeed: [UInt8]?, contacts: [Contact] = []) {
            self.ownUserIDHash = ownUserIDHash
            self.accountSeed = accountSeed
            self.contacts = contacts
        }
    }

    /// R14.5-2, R14.5-3: the own-account rule first (§7.3's isSameAccount), then contacts by
    /// byte equality; none is `envelope_no_channel_key` (own account, no seed) or
    /// `envelope_unknown_account`.
    public static func resolve(_ other: [UInt8], holder h: Holder, assumeSameAccount: Bool = false) throws(WireError) -> (Channel, [UInt8]) {
        let contact = h.contacts.first { $0.userIDHash == other }
        if Mutant.on(.envelopeContactKeyForOwnAccount), let contact { return (.contact, contact.channelKey) }
        if assumeSameAccount || AccountGate.isSameAccount(own: h.ownUserIDHash, sender: other) {
            guard let seed = h.accountSeed else {
                throw WireError(.envelopeNoChannelKey, "the other party is of this account and no account seed is held")
            }
            return (.sibling, siblingChannelKey(accountSeed: seed))
        }
        guard let contact else { throw WireError(.envelopeUnknownAccount, "no channel key for the account \(Hex.encode(other))") }
        return (.contact, contact.channelKey)
    }
}

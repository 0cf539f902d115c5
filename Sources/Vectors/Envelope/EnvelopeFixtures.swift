import Primitives

/// The fixed keys, accounts and certificates the `envelope` vectors are built from (SPEC.md
/// §14.11). Every seed is SHA-256 of an ASCII label, so each byte can be rebuilt from SPEC.md.
/// Signing (ML-DSA-65) is the slow part, so every certificate is made once here.
struct EnvelopeFixtures {
    static let base: UInt64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    static let day: UInt64 = 86_400
    static func seed(_ label: String) -> [UInt8] { SHA256.hash(Array(label.utf8)).bytes }

    struct Device {
        let seed: [UInt8]
        let pub: [UInt8]
        var id: [UInt8] { SHA256.hash(pub).bytes }
        init(_ label: String) throws {
            seed = EnvelopeFixtures.seed(label)
            pub = try XWing.PrivateKey(seed: seed).publicKey.rawRepresentation
        }
    }

    let now: UInt64 = base + 600
    let discovery: Device
    let newDevice: Device
    let sibling: Device
    let stranger: Device

    let credential: CredentialKey.Signer
    let otherCredential: CredentialKey.Signer
    var credentialKey: [UInt8] { credential.publicKeyBytes }
    var otherCredentialKey: [UInt8] { otherCredential.publicKeyBytes }

    let accountSeed: [UInt8]
    let otherAccountSeed: [UInt8]
    let hashA: [UInt8]
    let hashB: [UInt8]
    let contactKeyB: [UInt8]
    var siblingKey: [UInt8] { ChannelKeys.siblingChannelKey(accountSeed: accountSeed) }

    let certExpiry: UInt64
    /// The sibling's, the new device's and account B's device certificates, valid at `now`.
    let siblingCert: SenderCert
    let newDeviceCert: SenderCert
    let accountBCert: SenderCert
    /// The sibling's fields signed by the other credential key (both halves valid, wrong key).
    let siblingCertOtherKey: SenderCert
    /// The sibling's certificate expiring at exactly `now`, one second later, and long ago.
    let siblingCertExpiringNow: SenderCert
    let siblingCertExpiringNext: SenderCert
    let siblingCertExpired: SenderCert

    let signIn: SignInFixtures

    init() throws {
        discovery = try Device("pixie.vectors.envelope.discovery")
        newDevice = try Device("pixie.vectors.envelope.new-device")
        sibling = try Device("pixie.vectors.envelope.sibling")
        stranger = try Device("pixie.vectors.envelope.stranger")
        credential = try CredentialKey.Signer(ed25519Seed: Self.seed("pixie.vectors.envelope.credential.ed25519"),
                                              mldsaSeed: Self.seed("pixie.vectors.envelope.credential.mldsa65"))
        otherCredential = try CredentialKey.Signer(ed25519Seed: Self.seed("pixie.vectors.envelope.other-credential.ed25519"),
                                                   mldsaSeed: Self.seed("pixie.vectors.envelope.other-credential.mldsa65"))
        accountSeed = Self.seed("pixie.vectors.envelope.account-seed")
        otherAccountSeed = Self.seed("pixie.vectors.envelope.account-seed-b")
        hashA = Self.seed("pixie.vectors.envelope.account-a")
        hashB = Self.seed("pixie.vectors.envelope.account-b")
        contactKeyB = Self.seed("pixie.vectors.envelope.contact-b-key")
        certExpiry = Self.base + 30 * Self.day
        siblingCert = try .issue(userIDHash: hashA, deviceID: sibling.id, expiresAt: certExpiry, signer: credential)
        newDeviceCert = try .issue(userIDHash: hashA, deviceID: newDevice.id, expiresAt: certExpiry, signer: credential)
        accountBCert = try .issue(userIDHash: hashB, deviceID: stranger.id, expiresAt: certExpiry, signer: credential)
        siblingCertOtherKey = try .issue(userIDHash: hashA, deviceID: sibling.id, expiresAt: certExpiry, signer: otherCredential)
        siblingCertExpiringNow = try .issue(userIDHash: hashA, deviceID: sibling.id, expiresAt: Self.base + 600, signer: credential)
        siblingCertExpiringNext = try .issue(userIDHash: hashA, deviceID: sibling.id, expiresAt: Self.base + 601, signer: credential)
        siblingCertExpired = try .issue(userIDHash: hashA, deviceID: sibling.id, expiresAt: Self.base - Self.day, signer: credential)
        signIn = try SignInFixtures()
    }

    /// The sibling's certificate with its signature halves taken from elsewhere.
    func siblingCert(signature: [UInt8]) throws -> SenderCert {
        try SenderCert(userIDHash: hashA, deviceID: sibling.id, expiresAt: certExpiry, signature: signature)
    }

    static func splice(ed: [UInt8], mldsa: [UInt8]) -> [UInt8] {
        Array(ed[0..<Ed25519.signatureByteCount]) + Array(mldsa[Ed25519.signatureByteCount...])
    }

    static func flip(_ b: [UInt8], at i: Int, _ mask: UInt8 = 0x01) -> [UInt8] {
        var c = b
        c[i] ^= mask
        return c
    }

    /// What a device of account A holds once it has the seed (contacts: account B).
    var holderA: ChannelKeys.Holder {
        ChannelKeys.Holder(ownUserIDHash: hashA, accountSeed: accountSeed, contacts: [.init(userIDHash: hashB, channelKey: contactKeyB)])
    }
}

import Primitives

/// The fixed keys, numbers and certificates the `signin` vectors are built from (SPEC.md §8.10).
///
/// Every seed is `SHA-256` of a label, so another implementation can rebuild each signature from
/// SPEC.md alone. Signing is the slow part of generation (ML-DSA-65 in a debug build), so the
/// certificates are minted once here and shared by every case that needs them.
struct SignInFixtures {
    static let base: UInt64 = 1_767_225_600  // 2026-01-01T00:00:00Z
    static let day: UInt64 = 86_400

    static func seed(_ label: String) -> [UInt8] { SHA256.hash(Array(label.utf8)).bytes }

    static let ownNumber = "+15555550100"
    static let otherNumber = "+15555550199"

    let phoneVerify: PhoneVerifyKey.Signer
    let other: PhoneVerifyKey.Signer
    let pinned: [UInt8]
    let otherPinned: [UInt8]

    let ownPhoneID: [UInt8]
    let otherPhoneID: [UInt8]

    /// The sibling's own cached certificate.
    let ownCert: PhoneOwnershipCert
    /// Same number, already expired at `now`: only its phone_id is ever compared.
    let ownCertExpired: PhoneOwnershipCert
    /// The requester's certificate: same number, valid at `now`.
    let requestCert: PhoneOwnershipCert
    /// Requester certificates for numbers that are not the sibling's (one byte apart, and another number).
    let requestCertLastByte: PhoneOwnershipCert
    let requestCertFirstByte: PhoneOwnershipCert
    let requestCertOtherNumber: PhoneOwnershipCert
    /// The request certificate's number, expiring at 2^64 − 1 (never): rung 5 near the top of the clock.
    let requestCertForever: PhoneOwnershipCert
    /// Issued at 2^64 − 1, after its own expiry and after `now`: no check reads `issued_at_s`.
    let requestCertIssuedLate: PhoneOwnershipCert
    /// `requestCert`'s fields signed whole by the other key (both halves valid, under the wrong key).
    let otherSignature: [UInt8]
    /// `requestCert`'s fields signed without the domain prefix.
    let noDomainSignature: [UInt8]

    let now: UInt64 = base + 600
    let replySubject: [UInt8]
    let xwing: [UInt8]
    let inbox: [UInt8]
    let deviceModel = "iPhone17,1"

    init() throws {
        phoneVerify = try PhoneVerifyKey.Signer(ed25519Seed: Self.seed("pixie.vectors.signin.phone-verify.ed25519"),
                                                mldsaSeed: Self.seed("pixie.vectors.signin.phone-verify.mldsa65"))
        other = try PhoneVerifyKey.Signer(ed25519Seed: Self.seed("pixie.vectors.signin.other.ed25519"),
                                          mldsaSeed: Self.seed("pixie.vectors.signin.other.mldsa65"))
        pinned = phoneVerify.publicKeyBytes
        otherPinned = other.publicKeyBytes
        ownPhoneID = try PhoneID.derive(e164: Self.ownNumber)
        otherPhoneID = try PhoneID.derive(e164: Self.otherNumber)
        let b = Self.base, d = Self.day
        ownCert = try .issue(phoneID: ownPhoneID, issuedAt: b - 10 * d, expiresAt: b + 355 * d, signer: phoneVerify)
        ownCertExpired = try .issue(phoneID: ownPhoneID, issuedAt: b - 400 * d, expiresAt: b - 35 * d, signer: phoneVerify)
        requestCert = try .issue(phoneID: ownPhoneID, issuedAt: b - 3_600, expiresAt: b + 365 * d, signer: phoneVerify)
        var last = ownPhoneID; last[31] ^= 0x01
        var first = ownPhoneID; first[0] ^= 0x80
        requestCertLastByte = try .issue(phoneID: last, issuedAt: b - 3_600, expiresAt: b + 365 * d, signer: phoneVerify)
        requestCertFirstByte = try .issue(phoneID: first, issuedAt: b - 3_600, expiresAt: b + 365 * d, signer: phoneVerify)
        requestCertOtherNumber = try .issue(phoneID: otherPhoneID, issuedAt: b - 3_600, expiresAt: b + 365 * d, signer: phoneVerify)
        requestCertForever = try .issue(phoneID: ownPhoneID, issuedAt: b - 3_600, expiresAt: UInt64.max, signer: phoneVerify)
        requestCertIssuedLate = try .issue(phoneID: ownPhoneID, issuedAt: UInt64.max, expiresAt: b + 365 * d, signer: phoneVerify)
        otherSignature = other.sign(requestCert.signedMessage)
        noDomainSignature = phoneVerify.sign(CBORWriter.encode(.object([("phone_id", .bytes(ownPhoneID)),
                                                                        ("issued_at_s", .unsigned(b - 3_600)),
                                                                        ("expires_at_s", .unsigned(b + 365 * d))])))
        var g = SeededGenerator(seed: 0x5167_0001)
        replySubject = g.bytes(32)
        xwing = g.bytes(DiscoveryLookupResponse.xwingPublicKeyByteCount)
        inbox = g.bytes(32)
    }

    /// `requestCert` with its signature replaced.
    func requestCert(signature: [UInt8]) throws -> PhoneOwnershipCert {
        try PhoneOwnershipCert(phoneID: requestCert.phoneID, issuedAt: requestCert.issuedAt, expiresAt: requestCert.expiresAt, signature: signature)
    }

    /// A request from the new device carrying `cert`, made at `timestamp`.
    func request(cert: [UInt8], timestamp: UInt64) throws -> SignInRequest {
        try SignInRequest(deviceModel: deviceModel, replySubject: replySubject, xwingPublicKey: xwing, timestamp: timestamp, cert: cert)
    }

    /// Signature surgery: the Ed25519 half, the ML-DSA half, or both, taken from elsewhere.
    static func splice(ed: [UInt8], mldsa: [UInt8]) -> [UInt8] {
        Array(ed[0..<Ed25519.signatureByteCount]) + Array(mldsa[Ed25519.signatureByteCount...])
    }

    static func flip(_ b: [UInt8], at i: Int) -> [UInt8] {
        var c = b
        c[i] ^= 0x01
        return c
    }
}

import Primitives

/// The SenderCert (SPEC.md §14.6): what credential-svc signs for a device holding a session of an
/// account, so a receiver learns who sent a sealed-sender envelope only after opening it. It
/// carries `compute_user_id_hash(user_id)` of the session's account and the sending device's id,
/// and expires.
///
///     CBOR map { user_id_hash: bstr[32], device_id: bstr[32], expires_at_s: uint, sig: bstr[3373] }
///     signed_message = "pixie-sender-cert-v1" ‖ 00 ‖ CBOR({user_id_hash, device_id, expires_at_s})
public struct SenderCert: Sendable, Hashable {
    public static let domain = "pixie-sender-cert-v1"
    public static let userIDHashByteCount = 32
    public static let deviceIDByteCount = 32
    static let members = ["user_id_hash", "device_id", "expires_at_s", "sig"]

    public var userIDHash: [UInt8]
    public var deviceID: [UInt8]
    /// The first second at which the certificate is no longer valid.
    public var expiresAt: UInt64
    public var signature: [UInt8]

    public init(userIDHash: [UInt8], deviceID: [UInt8], expiresAt: UInt64, signature: [UInt8]) throws(WireError) {
        guard userIDHash.count == Self.userIDHashByteCount else { throw WireError(.envelopeBadLength, "user_id_hash is 32 bytes", field: "user_id_hash") }
        guard deviceID.count == Self.deviceIDByteCount else { throw WireError(.envelopeBadLength, "device_id is 32 bytes", field: "device_id") }
        guard signature.count == HybridSignature.byteCount else { throw WireError(.envelopeBadLength, "sig is 3373 bytes", field: "sig") }
        self.userIDHash = userIDHash
        self.deviceID = deviceID
        self.expiresAt = expiresAt
        self.signature = signature
    }

    public static func signedMessage(userIDHash: [UInt8], deviceID: [UInt8], expiresAt: UInt64) -> [UInt8] {
        Array(domain.utf8) + [0]
            + CBORWriter.encode(.object([("user_id_hash", .bytes(userIDHash)), ("device_id", .bytes(deviceID)), ("expires_at_s", .unsigned(expiresAt))]))
    }

    public var signedMessage: [UInt8] { Self.signedMessage(userIDHash: userIDHash, deviceID: deviceID, expiresAt: expiresAt) }

    public var tree: CBOR {
        .object([("user_id_hash", .bytes(userIDHash)), ("device_id", .bytes(deviceID)), ("expires_at_s", .unsigned(expiresAt)), ("sig", .bytes(signature))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    /// R14.6-4 (order): §1, a map with text keys, no unknown member, then the members in table order.
    public static func decode(_ bytes: [UInt8]) throws(WireError) -> SenderCert {
        let r = try EnvelopeMapReader(bytes, allowed: members)
        return try SenderCert(userIDHash: try r.bytes("user_id_hash", length: userIDHashByteCount),
                              deviceID: try r.bytes("device_id", length: deviceIDByteCount),
                              expiresAt: try r.unsigned("expires_at_s"),
                              signature: try r.bytes("sig", length: HybridSignature.byteCount))
    }

    public static func issue(userIDHash: [UInt8], deviceID: [UInt8], expiresAt: UInt64, signer: CredentialKey.Signer) throws(WireError) -> SenderCert {
        let message = signedMessage(userIDHash: userIDHash, deviceID: deviceID, expiresAt: expiresAt)
        return try SenderCert(userIDHash: userIDHash, deviceID: deviceID, expiresAt: expiresAt, signature: signer.sign(message))
    }

    /// R14.6-5 (order): decode (`envelope_sender_cert_malformed`), both signature halves, then
    /// `now < expires_at_s`.
    public static func verify(_ bytes: [UInt8], key: CredentialKey, now: UInt64) throws(WireError) -> SenderCert {
        let cert: SenderCert
        do { cert = try decode(bytes) } catch {
            throw WireError(.envelopeSenderCertMalformed, "the SenderCert does not decode: \(error)")
        }
        do { try key.verify(cert.signature, for: cert.signedMessage) } catch {
            switch error {
            case .ed25519Invalid: throw WireError(.envelopeSenderCertEd25519Invalid, "the Ed25519 half does not verify")
            case .mldsaInvalid: throw WireError(.envelopeSenderCertMLDSAInvalid, "the ML-DSA-65 half does not verify")
            case .bothInvalid, .wrongLength: throw WireError(.envelopeSenderCertBothInvalid, "neither half verifies")
            }
        }
        if Mutant.on(.envelopeCertExpiryNotChecked) { return cert }
        let expired = Mutant.on(.envelopeCertExpiryInclusive) ? now > cert.expiresAt : now >= cert.expiresAt
        if expired { throw WireError(.envelopeSenderCertExpired, "now \(now) ≥ expires_at_s \(cert.expiresAt)") }
        return cert
    }
}

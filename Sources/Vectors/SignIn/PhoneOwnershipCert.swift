import Primitives

/// What phone-verify-svc mints after SMS-OTP (SPEC.md §8.1): proof of control of one phone number,
/// and nothing else — no account, no session.
///
/// Encoding: a CBOR map `{sig, phone_id, issued_at_s, expires_at_s}`. The signature is the hybrid
/// signature (§9.3) of phone-verify-svc's key over
/// `"pixie-phone-ownership-cert-v1" || 0x00 || CBOR({phone_id, issued_at_s, expires_at_s})`,
/// so the signed bytes are the certificate's own fields minus `sig`, in the same deterministic
/// encoding, behind a domain string no other signed object in the suite uses.
public struct PhoneOwnershipCert: Sendable, Hashable {
    public static let domain = "pixie-phone-ownership-cert-v1"
    static let members = ["sig", "phone_id", "issued_at_s", "expires_at_s"]

    public var phoneID: [UInt8]
    /// Unix seconds. Carried for display and audit; no rung checks it (§8.6 rung 2 checks expiry only).
    public var issuedAt: UInt64
    /// Unix seconds: the first second at which the certificate is no longer valid.
    public var expiresAt: UInt64
    public var signature: [UInt8]

    public init(phoneID: [UInt8], issuedAt: UInt64, expiresAt: UInt64, signature: [UInt8]) throws(WireError) {
        guard phoneID.count == PhoneID.byteCount else {
            throw WireError(.signinBadLength, "phone_id must be 32 bytes, got \(phoneID.count)", field: "phone_id")
        }
        guard signature.count == HybridSignature.byteCount else {
            throw WireError(.signinBadLength, "sig must be \(HybridSignature.byteCount) bytes, got \(signature.count)", field: "sig")
        }
        self.phoneID = phoneID
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
        self.signature = signature
    }

    /// The domain-separated bytes both halves of the signature cover.
    public static func signedMessage(phoneID: [UInt8], issuedAt: UInt64, expiresAt: UInt64) -> [UInt8] {
        Array(domain.utf8) + [0] + CBORWriter.encode(.object([("phone_id", .bytes(phoneID)),
                                                               ("issued_at_s", .unsigned(issuedAt)),
                                                               ("expires_at_s", .unsigned(expiresAt))]))
    }

    public var signedMessage: [UInt8] { Self.signedMessage(phoneID: phoneID, issuedAt: issuedAt, expiresAt: expiresAt) }

    /// Member order as JSON shows it; the CBOR writer sorts keys (sig, phone_id, issued_at_s, expires_at_s).
    public var tree: CBOR {
        .object([("phone_id", .bytes(phoneID)), ("issued_at_s", .unsigned(issuedAt)),
                 ("expires_at_s", .unsigned(expiresAt)), ("sig", .bytes(signature))])
    }

    public var encoded: [UInt8] { CBORWriter.encode(tree) }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> PhoneOwnershipCert {
        let r = try SignInMapReader(bytes, tag: nil, allowed: members)
        // Members are read in the order of the table in §8.1.
        let phoneID = try r.bytes("phone_id", length: PhoneID.byteCount)
        let issued = try r.unsigned("issued_at_s")
        let expires = try r.unsigned("expires_at_s")
        let sig = try r.bytes("sig", length: HybridSignature.byteCount)
        return try PhoneOwnershipCert(phoneID: phoneID, issuedAt: issued, expiresAt: expires, signature: sig)
    }

    /// Mints a certificate (phone-verify-svc's side; the generator and `cert_issue` use it).
    public static func issue(phoneID: [UInt8], issuedAt: UInt64, expiresAt: UInt64, signer: PhoneVerifyKey.Signer) throws(WireError) -> PhoneOwnershipCert {
        guard phoneID.count == PhoneID.byteCount else {
            throw WireError(.signinBadLength, "phone_id must be 32 bytes, got \(phoneID.count)", field: "phone_id")
        }
        let sig = signer.sign(signedMessage(phoneID: phoneID, issuedAt: issuedAt, expiresAt: expiresAt))
        return try PhoneOwnershipCert(phoneID: phoneID, issuedAt: issuedAt, expiresAt: expiresAt, signature: sig)
    }

    /// Rung 2 of the ladder (§8.6) on its own: no pinned key, then decoding, then both signature
    /// halves, then expiry, in that order; the first failure is thrown with its rung-2 code.
    ///
    /// Signature before expiry so that expiry is only ever judged on authenticated values.
    public static func verify(_ bytes: [UInt8], pinnedKey: PhoneVerifyKey.PublicKey?, now: UInt64) throws(WireError) -> PhoneOwnershipCert {
        guard let pinnedKey else {
            if Mutant.on(.signinUnpinnedAccepted), let cert = try? decode(bytes) { return cert }
            throw WireError(.signinNoPinnedKey, "no phone-verify key is pinned: the phone_id would be self-claimed", field: "pinned_key")
        }
        let cert: PhoneOwnershipCert
        do { cert = try decode(bytes) } catch {
            throw WireError(.signinCertMalformed, "the certificate does not decode: \(error)", field: "cert")
        }
        do { try pinnedKey.verify(cert.signature, for: cert.signedMessage) } catch {
            switch error {
            case .mldsaInvalid where Mutant.on(.signinEd25519HalfOnly): break
            case .ed25519Invalid where Mutant.on(.signinMLDSAHalfOnly): break
            case .ed25519Invalid: throw WireError(.signinCertEd25519Invalid, "the Ed25519 half does not verify", field: "cert.sig")
            case .mldsaInvalid: throw WireError(.signinCertMLDSAInvalid, "the ML-DSA-65 half does not verify", field: "cert.sig")
            case .bothInvalid, .wrongLength: throw WireError(.signinCertBothInvalid, "neither half verifies", field: "cert.sig")
            }
        }
        guard now < cert.expiresAt || Mutant.on(.signinExpiryNotChecked) || (Mutant.on(.signinExpiryInclusive) && now == cert.expiresAt) else {
            throw WireError(.signinCertExpired, "expired at \(cert.expiresAt), now \(now)", field: "cert.expires_at_s")
        }
        return cert
    }
}

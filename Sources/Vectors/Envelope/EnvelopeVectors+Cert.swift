import Primitives

/// `sender_cert_issue`, `sender_cert_decode` and `sender_cert_verify` (SPEC.md §14.6).
extension EnvelopeVectors {
    static func certCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let signer = CBOR.object([("ed25519_seed", .bytes(EnvelopeFixtures.seed("pixie.vectors.envelope.credential.ed25519"))),
                                  ("mldsa_seed", .bytes(EnvelopeFixtures.seed("pixie.vectors.envelope.credential.mldsa65")))])
        let c = f.siblingCert
        try b.ok("sender_cert_issue", "valid/sibling", "the sibling's certificate: account A's user-id hash, its device id, expiring in 30 days",
                 rules: ["14.6-1", "14.6-2", "14.6-3"],
                 input: .object([("signer", signer), ("user_id_hash", .bytes(f.hashA)), ("device_id", .bytes(f.sibling.id)), ("expires_at_s", .unsigned(f.certExpiry))])) {
            $0["cert"] == .bytes(c.encoded) && $0["public_key"] == .bytes(f.credentialKey)
                && $0["signed_message"] == .bytes(Array("pixie-sender-cert-v1".utf8) + [0] + CBORWriter.encode(.object([
                    ("user_id_hash", .bytes(f.hashA)), ("device_id", .bytes(f.sibling.id)), ("expires_at_s", .unsigned(f.certExpiry))])))
        }
        try b.reject("sender_cert_issue", "input/user-id-hash-31-bytes", "a user-id hash is 32 bytes", rules: ["14.10-2", "2.2-4"],
                     input: .object([("signer", signer), ("user_id_hash", .bytes(Array(f.hashA.dropLast()))), ("device_id", .bytes(f.sibling.id)),
                                     ("expires_at_s", .unsigned(f.certExpiry))]), .inputBadLength)

        // decode: the canonical form, then every malformation.
        try b.ok("sender_cert_decode", "valid/sibling", "decodes to its four members", rules: ["14.6-1", "14.6-4"], input: .object([("cert", .bytes(c.encoded))])) {
            $0["user_id_hash"] == .bytes(f.hashA) && $0["sig"] == .bytes(c.signature)
        }
        let m = EnvelopeMalformed(tree: c.tree, members: [("user_id_hash", .bytes(32), .envelopeMissingField), ("device_id", .bytes(32), .envelopeMissingField),
                                                          ("expires_at_s", .unsigned, .envelopeMissingField),
                                                          ("sig", .bytes(HybridSignature.byteCount), .envelopeMissingField)])
        for v in m.variants {
            try b.reject("sender_cert_decode", "malformed/\(v.name)", v.comment, rules: ["14.6-4"], input: .object([("cert", .bytes(v.bytes))]), v.code)
        }
        try b.reject("sender_cert_decode", "order/unknown-before-missing", "an unknown member zz and no sig: unknown members are checked before members are read",
                     rules: ["14.6-4"], flags: ["two-faults"],
                     input: .object([("cert", .bytes(CBORWriter.encode(c.tree.replacingMember("sig", nil).replacingMember("zz", .unsigned(1)))))]), .envelopeUnknownField)
        try b.reject("sender_cert_decode", "order/table-order", "user_id_hash 31 bytes and device_id missing: user_id_hash is read first",
                     rules: ["14.6-4"], flags: ["two-faults"],
                     input: .object([("cert", .bytes(CBORWriter.encode(c.tree.replacingMember("device_id", nil)
                         .replacingMember("user_id_hash", .bytes(Array(f.hashA.dropLast()))))))]), .envelopeBadLength)

        // verify.
        func verify(_ name: String, _ comment: String, _ cert: [UInt8], key: [UInt8]? = nil, now: UInt64? = nil, rules: [String], flags: [String] = [],
                    _ code: ErrorCode?) throws {
            let input = CBOR.object([("cert", .bytes(cert)), ("credential_key", .bytes(key ?? f.credentialKey)), ("now_s", .unsigned(now ?? f.now))])
            if let code {
                try b.reject("sender_cert_verify", name, comment, rules: rules, flags: flags, input: input, code)
            } else {
                try b.ok("sender_cert_verify", name, comment, rules: rules, flags: flags, input: input) { $0["user_id_hash"] != nil }
            }
        }
        try verify("valid/sibling", "both halves verify, 30 days before expiry", c.encoded, rules: ["14.6-2", "14.6-5"], nil)
        try verify("valid/expires-next-second", "expires_at_s = now + 1: still valid", f.siblingCertExpiringNext.encoded, rules: ["14.6-6"], nil)
        try verify("expiry/at-now", "expires_at_s = now: expired (exclusive)", f.siblingCertExpiringNow.encoded, rules: ["14.6-6"], .envelopeSenderCertExpired)
        try verify("expiry/long-ago", "expired a day before the epoch of the vectors' clock", f.siblingCertExpired.encoded, rules: ["14.6-6"], .envelopeSenderCertExpired)
        try verify("expiry/now-zero", "now 0: long before expiry, valid (no not-before)", c.encoded, now: 0, rules: ["14.6-6"], nil)
        try verify("sig/other-key", "both halves valid under another credential key", f.siblingCertOtherKey.encoded, rules: ["14.6-5"], .envelopeSenderCertBothInvalid)
        try verify("sig/ed25519-half-flipped", "one bit of the Ed25519 half flipped; the ML-DSA half verifies",
                   try f.siblingCert(signature: EnvelopeFixtures.flip(c.signature, at: 10)).encoded, rules: ["14.6-5"], .envelopeSenderCertEd25519Invalid)
        try verify("sig/mldsa-half-flipped", "one bit of the ML-DSA-65 half flipped; the Ed25519 half verifies",
                   try f.siblingCert(signature: EnvelopeFixtures.flip(c.signature, at: 64 + 100)).encoded, rules: ["14.6-5"], .envelopeSenderCertMLDSAInvalid)
        try verify("sig/ed25519-half-from-other-key", "the Ed25519 half signed by the other key, the ML-DSA half genuine",
                   try f.siblingCert(signature: EnvelopeFixtures.splice(ed: f.siblingCertOtherKey.signature, mldsa: c.signature)).encoded,
                   rules: ["14.6-5"], .envelopeSenderCertEd25519Invalid)
        try verify("sig/mldsa-half-from-other-key", "the ML-DSA half signed by the other key, the Ed25519 half genuine",
                   try f.siblingCert(signature: EnvelopeFixtures.splice(ed: c.signature, mldsa: f.siblingCertOtherKey.signature)).encoded,
                   rules: ["14.6-5"], .envelopeSenderCertMLDSAInvalid)
        let otherAccount = try SenderCert(userIDHash: f.hashB, deviceID: c.deviceID, expiresAt: c.expiresAt, signature: c.signature)
        try verify("sig/user-id-hash-changed", "account B's hash put in the sibling's signed certificate: both halves fail", otherAccount.encoded,
                   rules: ["14.6-2", "14.6-5"], .envelopeSenderCertBothInvalid)
        let later = try SenderCert(userIDHash: c.userIDHash, deviceID: c.deviceID, expiresAt: c.expiresAt + 1, signature: c.signature)
        try verify("sig/expiry-extended", "expires_at_s moved one second later after signing: both halves fail", later.encoded, rules: ["14.6-2", "14.6-5"],
                   .envelopeSenderCertBothInvalid)
        let notPoint = [UInt8](repeating: 0xff, count: 32) + Array(f.credentialKey[32...])
        try verify("key/ed25519-half-not-a-point", "a pinned key whose Ed25519 half is not a curve point: still a key; the Ed25519 half fails", c.encoded, key: notPoint,
                   rules: ["14.6-3"], .envelopeSenderCertEd25519Invalid)
        try verify("malformed/not-cbor", "the certificate bytes ff: verification reports only that it is malformed", [0xff], rules: ["14.6-5"], .envelopeSenderCertMalformed)
        try verify("malformed/missing-sig", "no sig member", CBORWriter.encode(c.tree.replacingMember("sig", nil)), rules: ["14.6-5"], .envelopeSenderCertMalformed)
        let expiredOtherKey = try SenderCert.issue(userIDHash: f.hashA, deviceID: f.sibling.id, expiresAt: f.siblingCertExpired.expiresAt, signer: f.otherCredential)
        try verify("order/signature-before-expiry", "expired and signed by another key: the signature is judged first", expiredOtherKey.encoded,
                   rules: ["14.6-5"], flags: ["two-faults"], .envelopeSenderCertBothInvalid)
        // Replaces order/malformed-before-signature (withdrawn, Issue23Withdrawals): its signature
        // was good, so it held one fault. Not a base: it leaves the derived cases as committed.
        try verify("order/malformed-before-other-key", "an unknown member in a certificate signed by another credential key (both halves fail): malformed first",
                   CBORWriter.encode(f.siblingCertOtherKey.tree.replacingMember("zz", .unsigned(0))),
                   rules: ["14.6-5", "14.6-4"], flags: ["two-faults", InputBeforeRulesCases.notABase], .envelopeSenderCertMalformed)
        try b.reject("sender_cert_verify", "input/credential-key-1983-bytes", "a credential key is 1,984 bytes", rules: ["14.10-2"],
                     input: .object([("cert", .bytes(c.encoded)), ("credential_key", .bytes(Array(f.credentialKey.dropLast()))), ("now_s", .unsigned(f.now))]),
                     .inputBadLength)
    }
}


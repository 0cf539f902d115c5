import Primitives

/// Op inputs read by §2.2 and §14.10 (SPEC.md): integers at their limits and in the spellings a
/// lenient parser accepts, hex case and length, members missing, null and extra, the contact list,
/// and the order between reading inputs and running §14's rules.
extension EnvelopeVectors {
    static func inputCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let p = try payloads(&b, f)
        let env = try SealedSenderEnvelope.seal(payloadType: "sync_offer", payload: p.offer.encoded, senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                recipientUserIDHash: f.hashA, holder: f.holderA, eseed: b.eseed()).envelope
        let contacts = [(hash: f.hashB, key: f.contactKeyB)]
        func input(now: CBOR?? = nil, envelope: CBOR? = nil, seed: CBOR? = nil, own: CBOR? = nil, accountSeed: CBOR? = nil, contactList: CBOR?? = nil,
                   extra: [(String, CBOR)] = []) -> CBOR {
            var m: [(String, CBOR)] = []
            m.append(("envelope", envelope ?? .bytes(env)))
            m.append(("recipient_seed", seed ?? .bytes(f.newDevice.seed)))
            m.append(("credential_key", .bytes(f.credentialKey)))
            if let n: CBOR = now ?? .unsigned(f.now) { m.append(("now_s", n)) }
            m.append(("own_user_id_hash", own ?? .bytes(f.hashA)))
            m.append(("account_seed", accountSeed ?? .bytes(f.accountSeed)))
            let c: CBOR? = contactList ?? .array(contacts.map { .object([("user_id_hash", .bytes($0.hash)), ("channel_key", .bytes($0.key))]) })
            if let c { m.append(("contacts", c)) }
            return .object(m + extra)
        }
        func ok(_ name: String, _ comment: String, _ i: CBOR, rules: [String]) throws {
            try b.ok("envelope_open", "input/\(name)", comment, rules: rules, flags: ["input-class"], input: i) { $0["payload_type"] == .text("sync_offer") }
        }
        func bad(_ name: String, _ comment: String, _ i: CBOR, rules: [String], flags: [String] = [], _ code: ErrorCode) throws {
            try b.reject("envelope_open", "input/\(name)", comment, rules: rules, flags: ["input-class"] + flags, input: i, code)
        }
        // now_s: the clock at its edges (the certificate expires at B + 30 days).
        try ok("now-zero", "now_s 0: before the certificate expires", input(now: .unsigned(0)), rules: ["2.2-3", "14.6-6"])
        try ok("now-decimal-string", "now_s as the canonical decimal string of now", input(now: .text(String(f.now))), rules: ["2.2-3"])
        try bad("now-2-53", "now_s 2^53: the certificate has expired", input(now: .unsigned(1 << 53)), rules: ["2.2-3", "14.6-6"], .envelopeSenderCertExpired)
        try bad("now-2-53-plus-1-string", "now_s 2^53 + 1 as a decimal string: read exactly, expired", input(now: .text("9007199254740993")), rules: ["2.2-3"],
                .envelopeSenderCertExpired)
        try bad("now-2-63-string", "now_s 2^63: above int64, still a uint64", input(now: .text("9223372036854775808")), rules: ["2.2-3"], .envelopeSenderCertExpired)
        try bad("now-2-64-minus-1", "now_s 2^64 − 1", input(now: .text("18446744073709551615")), rules: ["2.2-3"], .envelopeSenderCertExpired)
        for (name, v, comment) in [("now-2-64", CBOR.text("18446744073709551616"), "now_s 2^64: outside uint64"), ("now-minus-one", .negative(0), "now_s −1"),
                                   ("now-float", .float(1.0), "now_s 1.0: not an integer"), ("now-plus-sign", .text("+5"), "now_s \"+5\""),
                                   ("now-leading-zero", .text("05"), "now_s \"05\""), ("now-space", .text(" 5"), "now_s \" 5\""), ("now-empty-string", .text(""), "now_s \"\""),
                                   ("now-true", .bool(true), "now_s true"), ("now-null", .null, "now_s null: null is not absence")] {
            try bad(name, comment + ": input_bad_type", input(now: v), rules: ["2.2-3", "2.2-1", "14.10-2"], .inputBadType)
        }
        try bad("now-missing", "no now_s", input(now: .some(nil)), rules: ["2.2-1", "14.10-2"], .inputMissingField)
        // Hex.
        let hex = Hex.encode(env)
        try ok("envelope-uppercase-hex", "the envelope in uppercase hex: the same bytes", input(envelope: .text(hex.uppercased())), rules: ["2.2-4"])
        try bad("envelope-odd-hex", "the envelope with its last hex digit dropped", input(envelope: .text(String(hex.dropLast()))), rules: ["2.2-4"], .inputBadValue)
        try bad("envelope-non-hex", "a g in the envelope's hex", input(envelope: .text("g" + hex.dropFirst())), rules: ["2.2-4"], .inputBadValue)
        try bad("envelope-number", "the envelope as a number", input(envelope: .unsigned(2)), rules: ["2.2-4"], .inputBadType)
        try bad("recipient-seed-31-bytes", "a 31-byte X-Wing private seed", input(seed: .bytes(Array(f.newDevice.seed.dropLast()))), rules: ["14.10-2", "2.2-4"], .inputBadLength)
        try bad("account-seed-33-bytes", "a 33-byte account seed", input(accountSeed: .bytes(f.accountSeed + [0])), rules: ["14.10-2", "2.2-4"], .inputBadLength)
        // Nullable and optional members.
        try bad("own-hash-missing", "own_user_id_hash absent: it is nullable, not optional", input(own: .null).replacingMember("own_user_id_hash", nil),
                rules: ["2.2-1", "14.10-2"], .inputMissingField)
        try bad("own-hash-number", "own_user_id_hash 0", input(own: .unsigned(0)), rules: ["2.2-1", "14.10-2"], .inputBadType)
        try ok("contacts-absent", "no contacts member: none (a sibling's envelope still opens)", input(contactList: .some(nil)), rules: ["14.10-2"])
        try bad("contacts-null", "contacts null: optional means absent, and null is not absence", input(contactList: .some(.null)), rules: ["2.2-1", "14.10-2"], .inputBadType)
        try bad("contacts-object", "contacts given as an object", input(contactList: .some(.object([]))), rules: ["14.10-2"], .inputBadType)
        let entry = CBOR.object([("user_id_hash", .bytes(f.hashB)), ("channel_key", .bytes(f.contactKeyB))])
        try bad("contacts-twice", "account B listed twice", input(contactList: .some(.array([entry, entry]))), rules: ["14.10-2"], .duplicateKey)
        try bad("contacts-hash-31-bytes", "a contact hash of 31 bytes", input(contactList: .some(.array([entry.replacingMember("user_id_hash", .bytes(Array(f.hashB.dropLast())))]))),
                rules: ["14.10-2"], .inputBadLength)
        try bad("contacts-key-missing", "a contact without its channel key", input(contactList: .some(.array([entry.replacingMember("channel_key", nil)]))),
                rules: ["14.10-2", "2.2-1"], .inputMissingField)
        try ok("contacts-extra-member", "a contact entry with a member zz: ignored", input(contactList: .some(.array([entry.replacingMember("zz", .unsigned(1))]))), rules: ["2.2-2"])
        try ok("extra-member", "an input member zz the op does not define: ignored", input(extra: [("zz", .text("x"))]), rules: ["2.2-2"])
        // Inputs before rules.
        try bad("order-input-before-layout", "an empty envelope and a 31-byte seed: every input is read before the layout is judged",
                input(envelope: .bytes([]), seed: .bytes(Array(f.newDevice.seed.dropLast()))), rules: ["14.10-1"], flags: ["two-faults"], .inputBadLength)
        try bad("order-input-before-channel", "no account seed (a sibling's envelope) and now_s -1: the input problem first",
                input(now: .negative(0), accountSeed: .null), rules: ["14.10-1"], flags: ["two-faults"], .inputBadType)
        try bad("order-members-in-table-order", "a 31-byte seed and now_s missing: recipient_seed comes first in the table",
                input(now: .some(nil), seed: .bytes(Array(f.newDevice.seed.dropLast()))), rules: ["14.10-1", "2.2-7"], flags: ["two-faults"], .inputBadLength)

        // SenderCert times at the top of uint64.
        let signer = CBOR.object([("ed25519_seed", .bytes(EnvelopeFixtures.seed("pixie.vectors.envelope.credential.ed25519"))),
                                  ("mldsa_seed", .bytes(EnvelopeFixtures.seed("pixie.vectors.envelope.credential.mldsa65")))])
        let maxOut = try b.ok("sender_cert_issue", "input/expires-2-64-minus-1", "expires_at_s 2^64 − 1 as a decimal string: a nine-byte head (1b ff…ff)",
                              rules: ["2.2-3", "14.6-1"], flags: ["input-class"],
                              input: .object([("signer", signer), ("user_id_hash", .bytes(f.hashA)), ("device_id", .bytes(f.sibling.id)),
                                              ("expires_at_s", .text("18446744073709551615"))]))
        try b.reject("sender_cert_issue", "input/expires-2-64", "expires_at_s 2^64: input_bad_type", rules: ["2.2-3"], flags: ["input-class"],
                     input: .object([("signer", signer), ("user_id_hash", .bytes(f.hashA)), ("device_id", .bytes(f.sibling.id)),
                                     ("expires_at_s", .text("18446744073709551616"))]), .inputBadType)
        guard case .bytes(let maxCert)? = maxOut["cert"] else { return }
        try b.ok("sender_cert_verify", "input/expires-max-now-max-minus-1", "a certificate expiring at 2^64 − 1, at now = 2^64 − 2: valid", rules: ["14.6-6", "2.2-3"],
                 flags: ["input-class"], input: .object([("cert", .bytes(maxCert)), ("credential_key", .bytes(f.credentialKey)), ("now_s", .text("18446744073709551614"))]))
        try b.reject("sender_cert_verify", "input/expires-max-now-max", "the same at now = 2^64 − 1: expired (no overflow, no wrap)", rules: ["14.6-6", "2.2-3"],
                     flags: ["input-class"], input: .object([("cert", .bytes(maxCert)), ("credential_key", .bytes(f.credentialKey)), ("now_s", .text("18446744073709551615"))]),
                     .envelopeSenderCertExpired)

        // box inputs.
        try b.reject("box_seal", "input/direction-capitalised", "direction \"Request\": compared byte for byte", rules: ["14.10-2"], flags: ["input-class"],
                     input: boxSealInput(f.discovery.pub, "Request", [], b.eseed()), .inputBadValue)
        try b.reject("box_seal", "input/direction-null", "direction null", rules: ["14.10-2", "2.2-1"], flags: ["input-class"],
                     input: boxSealInput(f.discovery.pub, "request", [], b.eseed()).replacingMember("direction", .null), .inputBadType)
        try b.reject("box_seal", "input/recipient-1215-bytes", "an X-Wing public key of 1,215 bytes", rules: ["14.10-2", "2.2-4"], flags: ["input-class"],
                     input: boxSealInput(Array(f.discovery.pub.dropLast()), "request", [], b.eseed()), .inputBadLength)
        try b.reject("box_seal", "input/eseed-63-bytes", "an eseed of 63 bytes", rules: ["14.10-2", "2.2-4"], flags: ["input-class"],
                     input: boxSealInput(f.discovery.pub, "request", [], Array(b.eseed().dropLast())), .inputBadLength)
        try b.reject("box_open", "input/order-direction-before-box", "an unknown direction and an empty box: inputs first", rules: ["14.10-1"], flags: ["input-class", "two-faults"],
                     input: boxOpenInput(f.discovery.seed, "sideways", []), .inputBadValue)
    }
}

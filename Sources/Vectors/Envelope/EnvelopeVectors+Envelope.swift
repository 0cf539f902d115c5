import Primitives

/// `envelope_seal` and `envelope_open` (SPEC.md §14.5, §14.7, §14.8): the sealed-sender layout,
/// the inner plaintext, the SenderCert inside, channel-key resolution on both sides, the MAC and
/// the wake byte, each failure at its place in the order.
extension EnvelopeVectors {
    struct Payloads {
        let request: SyncRequest
        let offer: SyncOffer
        let blob: [UInt8]
        let ack: SyncAck
    }

    static func payloads(_ b: inout Builder, _ f: EnvelopeFixtures) throws -> Payloads {
        let requestID = b.bytes(16)
        let request = SyncRequest(requestID: requestID, replyPubkey: f.newDevice.pub, timestampMs: (EnvelopeFixtures.base + 600) * 1000)
        let key = b.bytes(32), nonce = b.bytes(12), blobID = b.bytes(32)
        let blob = try SyncBlob.seal(try SyncSnapshot([:]).encoded, key: key, nonce: nonce)
        return Payloads(request: request, offer: SyncBlob.offer(for: blob, blobID: blobID, key: key, nonce: nonce), blob: blob,
                        ack: SyncAck(requestID: requestID, ok: true))
    }

    static func envelopeSealCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let p = try payloads(&b, f)
        let contacts = [(hash: f.hashB, key: f.contactKeyB)]
        func seal(_ name: String, _ comment: String, to dev: EnvelopeFixtures.Device, recipient: [UInt8], type: String, payload: [UInt8], cert: SenderCert,
                  own: [UInt8]? = nil, seed: [UInt8]?? = nil, contactList: [(hash: [UInt8], key: [UInt8])]? = nil, rules: [String], flags: [String] = [],
                  expect: @escaping (CBOR) -> Bool = { _ in true }) throws {
            let accountSeed: [UInt8]? = seed ?? f.accountSeed
            try b.ok("envelope_seal", name, comment, rules: rules, flags: flags,
                     input: sealInput(pk: dev.pub, recipient: recipient, type: type, payload: payload, cert: cert.encoded, own: own ?? f.hashA,
                                      accountSeed: accountSeed, contacts: contactList ?? contacts, eseed: b.eseed()), expect: expect)
        }
        try seal("valid/sync-request", "the new device's SyncRequest to a sibling: wake sync, sibling channel key", to: f.sibling, recipient: f.hashA,
                 type: "sync_request", payload: p.request.encoded, cert: f.newDeviceCert, rules: ["14.7-1", "14.7-2", "14.8-1", "7.8-5", "14.5-2", "14.2-1"]) {
            $0["wake"] == .text("sync") && $0["channel"] == .text("sibling") && $0["channel_key"] == .bytes(f.siblingKey)
                && $0["envelope"].map { if case .bytes(let e) = $0 { return Array(e.prefix(4)) == [2, 1, 4, 0x60] } else { return false } } == true
        }
        try seal("valid/sync-offer", "the sibling's SyncOffer to the new device's reply key: wake silent", to: f.newDevice, recipient: f.hashA,
                 type: "sync_offer", payload: p.offer.encoded, cert: f.siblingCert, rules: ["14.7-1", "14.7-2", "14.8-1", "7.8-5"]) {
            $0["wake"] == .text("silent")
        }
        try seal("valid/sync-ack", "the new device's SyncAck: wake silent", to: f.sibling, recipient: f.hashA, type: "sync_ack", payload: p.ack.encoded,
                 cert: f.newDeviceCert, rules: ["14.7-2", "14.8-1", "7.8-5"]) { $0["wake"] == .text("silent") }
        try seal("valid/contact-b", "a frame to account B, a contact: the contact's channel key", to: f.stranger, recipient: f.hashB, type: "message",
                 payload: Array("hello B".utf8), cert: f.siblingCert, rules: ["14.5-3", "14.7-2"]) {
            $0["channel"] == .text("contact") && $0["channel_key"] == .bytes(f.contactKeyB) && $0["wake"] == .text("silent")
        }
        try seal("valid/empty-payload", "an empty payload of type sync_delta", to: f.sibling, recipient: f.hashA, type: "sync_delta", payload: [],
                 cert: f.siblingCert, rules: ["14.7-2", "14.8-1", "7.8-5"]) { $0["wake"] == .text("silent") }
        try seal("valid/payload-type-64-bytes", "a payload type of 64 UTF-8 bytes, the longest", to: f.sibling, recipient: f.hashA,
                 type: String(repeating: "t", count: 64), payload: [1], cert: f.siblingCert, rules: ["14.7-2", "14.7-3"])
        try seal("wake/upper-case-sync-request", "payload type SYNC_REQUEST: not byte-equal to sync_request, so silent", to: f.sibling, recipient: f.hashA,
                 type: "SYNC_REQUEST", payload: p.request.encoded, cert: f.newDeviceCert, rules: ["14.8-1", "7.8-5"]) { $0["wake"] == .text("silent") }
        try seal("wake/sync-request-trailing-space", "payload type \"sync_request \": silent", to: f.sibling, recipient: f.hashA,
                 type: "sync_request ", payload: p.request.encoded, cert: f.newDeviceCert, rules: ["14.8-1", "7.8-5"]) { $0["wake"] == .text("silent") }
        try seal("channel/contact-entry-for-own-hash", "the device holds a contact entry for its own account's hash: the sibling key is used all the same (\"and nothing else\")",
                 to: f.sibling, recipient: f.hashA, type: "sync_request", payload: p.request.encoded, cert: f.newDeviceCert,
                 contactList: [(f.hashA, f.contactKeyB)], rules: ["14.5-2"]) { $0["channel_key"] == .bytes(f.siblingKey) }
        func sealFails(_ name: String, _ comment: String, to pk: [UInt8]? = nil, recipient: [UInt8], type: String = "sync_request", own: [UInt8]?,
                       seed: [UInt8]?, contactList: [(hash: [UInt8], key: [UInt8])]? = nil, rules: [String], flags: [String] = [], _ code: ErrorCode) throws {
            try b.reject("envelope_seal", name, comment, rules: rules, flags: flags,
                         input: sealInput(pk: pk ?? f.sibling.pub, recipient: recipient, type: type, payload: p.request.encoded, cert: f.newDeviceCert.encoded,
                                          own: own, accountSeed: seed, contacts: contactList, eseed: b.eseed()), code)
        }
        try sealFails("channel/no-account-seed", "a sibling frame from a device that has not adopted the account seed: the send throws", recipient: f.hashA, own: f.hashA,
                      seed: nil, rules: ["14.5-4", "14.5-2"], .envelopeNoChannelKey)
        try sealFails("channel/unknown-account", "a frame to account B with no channel key for it: the send throws", recipient: f.hashB, own: f.hashA, seed: f.accountSeed,
                      rules: ["14.5-3", "14.5-4"], .envelopeUnknownAccount)
        try sealFails("channel/own-hash-unknown", "a device that does not know its own hash: its own account is not recognised, and no contact matches",
                      recipient: f.hashA, own: nil, seed: f.accountSeed, rules: ["14.5-2", "14.5-3"], .envelopeUnknownAccount)
        try sealFails("channel/own-hash-31-bytes", "an own hash of 31 bytes (a prefix of the recipient's): isSameAccount needs 32, so not this account",
                      recipient: f.hashA, own: Array(f.hashA.dropLast()), seed: f.accountSeed, rules: ["14.5-2"], .envelopeUnknownAccount)
        try sealFails("inner/payload-type-empty", "an empty payload type", recipient: f.hashA, type: "", own: f.hashA, seed: f.accountSeed, rules: ["14.7-3", "14.7-2"],
                      .envelopeBadLength)
        try sealFails("inner/payload-type-65-bytes", "a payload type of 65 UTF-8 bytes", recipient: f.hashA, type: String(repeating: "é", count: 32) + "x",
                      own: f.hashA, seed: f.accountSeed, rules: ["14.7-3", "14.7-2"], .envelopeBadLength)
        let badKey = keyWithCoefficient(f.sibling.pub, index: 0, value: 3329)
        try sealFails("kem/recipient-mlkem-coefficient-3329", "the recipient key fails the modulus check", to: badKey, recipient: f.hashA, own: f.hashA,
                      seed: f.accountSeed, rules: ["14.2-4", "14.7-3"], .envelopeBadRecipientKey)
        try sealFails("order/channel-before-payload-type", "no channel key and an empty payload type: the key is resolved first", recipient: f.hashA, type: "",
                      own: f.hashA, seed: nil, rules: ["14.7-3"], flags: ["two-faults"], .envelopeNoChannelKey)
        try sealFails("order/payload-type-before-recipient-key", "an empty payload type and a recipient key failing the modulus check: the type first",
                      to: badKey, recipient: f.hashA, type: "", own: f.hashA, seed: f.accountSeed, rules: ["14.7-3"], flags: ["two-faults"], .envelopeBadLength)
        try sealFails("order/channel-before-recipient-key", "an unknown account and a bad recipient key: nothing is sealed without a channel key",
                      to: badKey, recipient: f.hashB, own: f.hashA, seed: f.accountSeed, contactList: [], rules: ["14.7-3", "14.5-4"], flags: ["two-faults"],
                      .envelopeUnknownAccount)
    }

    static func envelopeOpenCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let p = try payloads(&b, f)
        let contacts = [(hash: f.hashB, key: f.contactKeyB)]
        let now = CBOR.unsigned(f.now)
        /// An envelope to the sibling from the new device (or as given), built from an inner tree.
        func env(_ inner: CBOR, wake: UInt8 = 0, to dev: EnvelopeFixtures.Device? = nil) throws -> [UInt8] {
            try rawEnvelope(inner: CBORWriter.encode(inner), header: envelopeHeader(wake: wake), to: (dev ?? f.sibling).pub, eseed: b.eseed())
        }
        func inner(type: String = "sync_offer", payload: [UInt8]? = nil, cert: SenderCert? = nil, key: [UInt8]? = nil) -> CBOR {
            innerTree(type: type, payload: payload ?? p.offer.encoded, cert: (cert ?? f.siblingCert).encoded, macKey: key ?? f.siblingKey)
        }
        func open(_ name: String, _ comment: String, _ e: [UInt8], seed: [UInt8]? = nil, key: [UInt8]? = nil, at: CBOR? = nil, own: [UInt8]?? = nil,
                  accountSeed: [UInt8]?? = nil, contactList: [(hash: [UInt8], key: [UInt8])]? = nil, rules: [String], flags: [String] = [],
                  _ code: ErrorCode?, expect: @escaping (CBOR) -> Bool = { _ in true }) throws {
            let ownHash: [UInt8]? = own ?? f.hashA
            let aSeed: [UInt8]? = accountSeed ?? f.accountSeed
            let input = receiveInput(e, seed: seed ?? f.sibling.seed, key: key ?? f.credentialKey, now: at ?? now, own: ownHash, accountSeed: aSeed,
                                     contacts: contactList ?? contacts)
            if let code {
                try b.reject("envelope_open", name, comment, rules: rules, flags: flags, input: input, code)
            } else {
                try b.ok("envelope_open", name, comment, rules: rules, flags: flags, input: input, expect: expect)
            }
        }

        // valid/: what a conforming sender seals, opened.
        let offerEnv = try SealedSenderEnvelope.seal(payloadType: "sync_offer", payload: p.offer.encoded, senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                     recipientUserIDHash: f.hashA, holder: f.holderA, eseed: b.eseed()).envelope
        try open("valid/sync-offer", "the sibling's sealed offer, opened by the new device: sender = the SenderCert's hash and device id", offerEnv,
                 seed: f.newDevice.seed, rules: ["14.7-1", "14.7-4", "14.7-8", "14.2-2"], nil) {
            $0["sender"]?["user_id_hash"] == .bytes(f.hashA) && $0["sender"]?["device_id"] == .bytes(f.sibling.id) && $0["channel"] == .text("sibling")
                && $0["payload"] == .bytes(p.offer.encoded) && $0["wake"] == .text("silent")
        }
        let requestEnv = try SealedSenderEnvelope.seal(payloadType: "sync_request", payload: p.request.encoded, senderCert: f.newDeviceCert.encoded, to: f.sibling.pub,
                                                       recipientUserIDHash: f.hashA, holder: f.holderA, eseed: b.eseed()).envelope
        try open("valid/sync-request", "the new device's sealed request, opened by the sibling: wake sync", requestEnv, rules: ["14.7-4", "14.8-1", "7.8-5"], nil) {
            $0["wake"] == .text("sync") && $0["payload_type"] == .text("sync_request")
        }
        // The opener's own bounds on payload_type (R14.7-6), at each end: 1 and 64 UTF-8 bytes
        // open. The seal's bounds are its own code (R14.7-3), so an opener whose bound is 2 or 63
        // passed every case until these (cosmic-ray survivors of pixie, issue 25). Labelled eseeds:
        // the shared stream, and so every earlier case, is unchanged. Not flagged `edge`: the edge
        // is a length inside the seal, not an integer of the input the edge audit could move.
        for (name, type) in [("1-byte", "t"), ("64-bytes", String(repeating: "t", count: 64))] {
            let env = try SealedSenderEnvelope.seal(payloadType: type, payload: [1], senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                    recipientUserIDHash: f.hashA, holder: f.holderA, eseed: Builder.eseed(labelled: "payload-type-opens-" + name)).envelope
            try open("valid/payload-type-\(name)-opens", "an envelope whose payload type is \(type.utf8.count) UTF-8 byte\(type.utf8.count == 1 ? "" : "s"), the \(type.utf8.count == 1 ? "shortest" : "longest"): it opens",
                     env, seed: f.newDevice.seed, rules: ["14.7-6"], flags: [InputBeforeRulesCases.notABase], nil) { $0["payload_type"] == .text(type) }
        }
        let fromB = try SealedSenderEnvelope.seal(payloadType: "message", payload: Array("hi A".utf8), senderCert: f.accountBCert.encoded, to: f.sibling.pub,
                                                  recipientUserIDHash: f.hashA,
                                                  holder: .init(ownUserIDHash: f.hashB, accountSeed: f.otherAccountSeed, contacts: [.init(userIDHash: f.hashA, channelKey: f.contactKeyB)]),
                                                  eseed: b.eseed()).envelope
        try open("channel/contact-b-opens", "an envelope from account B, MAC'd under the contact key: it opens, and the sender is B (from the SenderCert, not the addressing)",
                 fromB, rules: ["14.5-3", "14.7-8"], nil) {
            $0["channel"] == .text("contact") && $0["sender"]?["user_id_hash"] == .bytes(f.hashB)
        }
        try open("channel/contact-b-unknown", "the same envelope at a device that holds no key for B: rejected", fromB, contactList: [],
                 rules: ["14.5-3", "14.5-4"], .envelopeUnknownAccount)
        try open("channel/no-account-seed", "a sibling's envelope at a device that has not adopted the seed: rejected (fail-closed)", offerEnv, seed: f.newDevice.seed,
                 accountSeed: .some(nil), rules: ["14.5-4", "14.5-2"], .envelopeNoChannelKey)
        try open("channel/own-hash-unknown", "a device that does not know its own hash, no contacts: a sibling's envelope is an unknown account's", offerEnv,
                 seed: f.newDevice.seed, own: .some(nil), contactList: [], rules: ["14.5-2", "14.5-3"], .envelopeUnknownAccount)
        let ownAsContact = [(hash: f.hashA, key: f.contactKeyB)]
        try open("channel/contact-entry-for-own-hash-ignored", "the device lists its own hash as a contact: the sibling key still decides, and the envelope opens",
                 offerEnv, seed: f.newDevice.seed, contactList: ownAsContact, rules: ["14.5-2"], nil) { $0["channel"] == .text("sibling") }
        let macOwnContact = try env(inner(key: f.contactKeyB), to: f.newDevice)
        try open("channel/mac-under-own-hash-contact-key", "MAC'd under the key of a contact entry that names this account: not the sibling key, so invalid",
                 macOwnContact, seed: f.newDevice.seed, contactList: ownAsContact, rules: ["14.5-2", "14.7-7"], .envelopeMACInvalid)

        // layout/ (§14.7 step 1).
        let base = offerEnv
        func layout(_ name: String, _ comment: String, _ e: [UInt8], rules: [String] = ["14.7-5", "14.7-4"], flags: [String] = [], _ code: ErrorCode) throws {
            try open("layout/\(name)", comment, e, seed: f.newDevice.seed, rules: rules, flags: flags, code)
        }
        try layout("empty", "no bytes", [], .envelopeTruncated)
        try layout("kind-01-box", "a DiscoveryBox's kind byte on an envelope", [0x01] + Array(base.dropFirst()), .envelopeWrongKind)
        try layout("kind-only", "the kind byte alone", [0x02], .envelopeTruncated)
        try layout("wake-02", "wake byte 02", [0x02, 0x02] + Array(base[2...]), .envelopeBadWakeClass)
        try layout("wake-ff", "wake byte ff", [0x02, 0xff] + Array(base[2...]), .envelopeBadWakeClass)
        try layout("no-length", "kind and wake only", [0x02, 0x00], .envelopeTruncated)
        try layout("half-length", "kind, wake and one length byte", [0x02, 0x00, 0x04], .envelopeTruncated)
        try layout("enc-length-0440", "length field 0440 (ML-KEM's ciphertext alone)", [0x02, 0x00, 0x04, 0x40] + Array(base[4...]), .envelopeKEMCiphertextLength)
        try layout("enc-length-0461", "length field 0461", [0x02, 0x00, 0x04, 0x61] + Array(base[4...]), .envelopeKEMCiphertextLength)
        // Each field is judged as soon as its bytes are all there, at exactly that length (a
        // reader whose `< 2` or `< 4` is `<=` calls these truncated; cosmic-ray boundary survivors).
        try layout("two-bytes-wake-ff", "exactly two bytes, 02 ff: the wake byte is there and wrong", [0x02, 0xff], flags: [InputBeforeRulesCases.notABase], .envelopeBadWakeClass)
        try layout("four-bytes-length-0440", "exactly four bytes, 02 00 0440: the length field is all there and wrong", [0x02, 0x00, 0x04, 0x40], flags: [InputBeforeRulesCases.notABase], .envelopeKEMCiphertextLength)
        try layout("header-and-enc", "header and enc, no tag", Array(base.prefix(4 + 1120)), .envelopeTruncated)
        try layout("one-short-of-minimum", "1,139 bytes: one short of the smallest envelope", Array(base.prefix(1139)), .envelopeTruncated)
        try layout("order-kind-before-truncation", "one byte 01: wrong kind and truncated", [0x01], flags: ["two-faults"], .envelopeWrongKind)
        try layout("order-wake-before-length", "wake ff and length 0440: the wake byte is read first", [0x02, 0xff, 0x04, 0x40] + Array(base[4...]),
                   flags: ["two-faults"], .envelopeBadWakeClass)
        try layout("order-length-before-truncation", "length 0440 and 20 bytes: the length field before the rest is counted", [0x02, 0x00, 0x04, 0x40] + [UInt8](repeating: 0, count: 20),
                   flags: ["two-faults"], .envelopeKEMCiphertextLength)

        // tamper/: the seal (§14.7 step 2).
        try open("tamper/wake-flipped-to-sync", "the relay sets the wake byte of a silent frame to 01: the header is the AAD, so the tag fails",
                 [0x02, 0x01] + Array(base[2...]), seed: f.newDevice.seed, rules: ["14.7-1", "14.7-4", "14.8-1", "7.8-5"], .envelopeOpenFailed)
        for (name, at) in [("enc-byte", 100), ("ciphertext-first-byte", 1124), ("tag-last-byte", base.count - 1)] {
            try open("tamper/\(name)", "one bit flipped at byte \(at)", EnvelopeFixtures.flip(base, at: at), seed: f.newDevice.seed, rules: ["14.7-4", "14.2-2"],
                     .envelopeOpenFailed)
        }
        try open("tamper/wrong-recipient", "opened by the sibling, not the device it was sealed to", base, rules: ["14.7-4", "14.2-2"], .envelopeOpenFailed)
        let boxInfo = try HPKESeal.seal(recipient: f.newDevice.pub, info: DiscoveryBox.info(.reply), aad: envelopeHeader(wake: 0),
                                        plaintext: CBORWriter.encode(inner()), eseed: b.eseed())
        try open("tamper/discovery-box-info", "an envelope sealed with the DiscoveryBox reply info instead of pixie-sealed-sender-v1", envelopeHeader(wake: 0) + boxInfo.enc + boxInfo.ciphertext,
                 seed: f.newDevice.seed, rules: ["14.7-1", "14.7-4"], .envelopeOpenFailed)

        // inner/: malformed inner plaintexts, each sealed correctly (§14.7 step 3).
        let good = inner()
        let im = EnvelopeMalformed(tree: good, members: [("payload_type", .text(1...64), .envelopeMissingField), ("payload", .bytes(nil), .envelopeMissingField),
                                                         ("sender_cert", .bytes(nil), .envelopeMissingField), ("mac", .bytes(32), .envelopeMACMissing)])
        for v in im.variants {
            let e = try rawEnvelope(inner: v.bytes, header: envelopeHeader(wake: 0), to: f.newDevice.pub, eseed: b.eseed())
            try open("inner/\(v.name)", v.comment + ", sealed correctly", e, seed: f.newDevice.seed, rules: ["14.7-6"], v.code)
        }
        let macPrefix = inner().replacingMember("mac", (inner()["mac"]).map { if case .bytes(let m) = $0 { return .bytes(Array(m.prefix(16))) } else { return $0 } })
        try open("mac/16-byte-prefix", "the first 16 bytes of the right MAC: not 32 bytes (a comparison over the bytes received accepts it)",
                 try env(macPrefix, to: f.newDevice), seed: f.newDevice.seed, rules: ["14.7-6", "14.7-7"], .envelopeBadLength)
        try open("order/unknown-before-missing", "an unknown member and no payload: unknown members first", try env(good.replacingMember("payload", nil).replacingMember("zz", .unsigned(1)), to: f.newDevice),
                 seed: f.newDevice.seed, rules: ["14.7-6"], flags: ["two-faults"], .envelopeUnknownField)
        try open("order/payload-before-mac", "no payload and no mac: payload is read first", try env(good.replacingMember("payload", nil).replacingMember("mac", nil), to: f.newDevice),
                 seed: f.newDevice.seed, rules: ["14.7-6"], flags: ["two-faults"], .envelopeMissingField)

        // cert/: the SenderCert inside (§14.7 step 4).
        func certEnv(_ cert: [UInt8]) throws -> [UInt8] {
            try env(innerTree(type: "sync_offer", payload: p.offer.encoded, cert: cert, macKey: f.siblingKey), to: f.newDevice)
        }
        let certs: [(String, [UInt8], String, ErrorCode?)] = [
            ("garbage", [0x00], "a SenderCert that is the byte 00", .envelopeSenderCertMalformed),
            ("empty", [], "an empty SenderCert", .envelopeSenderCertMalformed),
            ("other-credential-key", f.siblingCertOtherKey.encoded, "signed by another credential key", .envelopeSenderCertBothInvalid),
            ("ed25519-half-flipped", try f.siblingCert(signature: EnvelopeFixtures.flip(f.siblingCert.signature, at: 3)).encoded, "the Ed25519 half altered", .envelopeSenderCertEd25519Invalid),
            ("mldsa-half-flipped", try f.siblingCert(signature: EnvelopeFixtures.flip(f.siblingCert.signature, at: 2000)).encoded, "the ML-DSA-65 half altered", .envelopeSenderCertMLDSAInvalid),
            ("expires-at-now", f.siblingCertExpiringNow.encoded, "expires_at_s = now: expired", .envelopeSenderCertExpired),
            ("expired-long-ago", f.siblingCertExpired.encoded, "expired a day before the clock's base", .envelopeSenderCertExpired),
            ("expires-next-second", f.siblingCertExpiringNext.encoded, "expires_at_s = now + 1: valid", nil),
        ]
        for (name, cert, comment, code) in certs {
            try open("cert/\(name)", comment + " (the MAC is good)", try certEnv(cert), seed: f.newDevice.seed, rules: ["14.7-4", "14.6-5", "14.6-6"], code)
        }
        try open("cert/sender-cert-for-another-account-unknown", "a valid SenderCert of account B, MAC'd under A's sibling key, at a device with no key for B",
                 try certEnv(f.accountBCert.encoded), seed: f.newDevice.seed, contactList: [], rules: ["14.5-3", "14.7-8"], .envelopeUnknownAccount)
        try open("cert/sender-cert-for-another-account-contact", "the same at a device that holds B's contact key: A's sibling key is not B's key",
                 try certEnv(f.accountBCert.encoded), seed: f.newDevice.seed, rules: ["14.5-3", "14.7-7", "14.7-8"], .envelopeMACInvalid)

        // mac/ (§14.7 step 6).
        func macEnv(_ tree: CBOR) throws -> [UInt8] { try env(tree, to: f.newDevice) }
        let otherSibling = ChannelKeys.siblingChannelKey(accountSeed: f.otherAccountSeed)
        try open("mac/other-account-sibling-key", "MAC'd under another account's sibling key", try macEnv(inner(key: otherSibling)), seed: f.newDevice.seed,
                 rules: ["14.7-7"], .envelopeMACInvalid)
        try open("mac/under-account-seed-itself", "MAC'd under the account seed instead of the channel key derived from it", try macEnv(inner(key: f.accountSeed)),
                 seed: f.newDevice.seed, rules: ["14.7-7", "14.5-1"], .envelopeMACInvalid)
        let oneBit = inner().replacingMember("mac", .bytes(EnvelopeFixtures.flip(EnvelopeInner.mac(key: f.siblingKey, payloadType: "sync_offer", payload: p.offer.encoded,
                                                                                                   senderCert: f.siblingCert.encoded), at: 31)))
        try open("mac/last-bit-flipped", "the right MAC with its last byte's low bit flipped", try macEnv(oneBit), seed: f.newDevice.seed, rules: ["14.7-7"], .envelopeMACInvalid)
        let payloadOnly = inner().replacingMember("mac", .bytes(HMACSHA256.authenticationCode(for: Array("pixie-inner-mac-v1".utf8) + [0] + p.offer.encoded, key: f.siblingKey)))
        try open("mac/over-payload-only", "a MAC over the payload alone, not the payload type and SenderCert", try macEnv(payloadOnly), seed: f.newDevice.seed,
                 rules: ["14.7-2", "14.7-7"], .envelopeMACInvalid)
        let swapped = inner().replacingMember("mac", .bytes(EnvelopeInner.mac(key: f.siblingKey, payloadType: "sync_offer", payload: p.request.encoded, senderCert: f.siblingCert.encoded)))
        try open("mac/for-another-payload", "a MAC made for another payload, carried with this one", try macEnv(swapped), seed: f.newDevice.seed, rules: ["14.7-2", "14.7-7"],
                 .envelopeMACInvalid)
        let liftedCert = innerTree(type: "sync_offer", payload: p.offer.encoded, cert: f.newDeviceCert.encoded, macKey: nil,
                                   mac: .bytes(EnvelopeInner.mac(key: f.siblingKey, payloadType: "sync_offer", payload: p.offer.encoded, senderCert: f.siblingCert.encoded)))
        try open("mac/certificate-swapped", "the sibling's MAC carried with the new device's SenderCert: the MAC binds the certificate", try macEnv(liftedCert),
                 seed: f.newDevice.seed, rules: ["14.7-2", "14.7-7"], .envelopeMACInvalid)

        // wake/ (§14.7 step 7, §14.8).
        try open("wake/offer-marked-sync", "a sync_offer sealed with wake byte 01 (consistently, MAC good): the class of sync_offer is silent",
                 try env(inner(), wake: 1, to: f.newDevice), seed: f.newDevice.seed, rules: ["14.8-1", "7.8-5", "14.7-4"], .envelopeWrongWakeClass)
        try open("wake/request-marked-silent", "a sync_request sealed with wake byte 00: its class is sync",
                 try env(inner(type: "sync_request", payload: p.request.encoded, cert: f.newDeviceCert), wake: 0), rules: ["14.8-1", "7.8-5", "14.7-4"], .envelopeWrongWakeClass)
        try open("wake/upper-case-type-silent", "payload type SYNC_REQUEST with wake 00: silent is right (byte comparison)",
                 try env(inner(type: "SYNC_REQUEST", payload: p.request.encoded, cert: f.newDeviceCert), wake: 0), rules: ["14.8-1", "7.8-5"], nil) { $0["wake"] == .text("silent") }
        try open("wake/delta-silent", "payload type sync_delta with wake 00", try env(inner(type: "sync_delta", payload: [1, 2, 3]), wake: 0),
                 rules: ["14.8-1", "7.8-5"], nil) { $0["wake"] == .text("silent") }

        // order/: two faults in the steps after the seal.
        try open("order/mac-missing-before-cert", "no mac and a SenderCert that does not decode: the plaintext is judged first",
                 try env(innerTree(type: "sync_offer", payload: p.offer.encoded, cert: [0], macKey: nil), to: f.newDevice), seed: f.newDevice.seed,
                 rules: ["14.7-4"], flags: ["two-faults"], .envelopeMACMissing)
        try open("order/cert-before-channel", "a malformed SenderCert at a device with no seed: the certificate first", try certEnv([0]), seed: f.newDevice.seed,
                 accountSeed: .some(nil), rules: ["14.7-4"], flags: ["two-faults"], .envelopeSenderCertMalformed)
        try open("order/expiry-before-channel", "an expired SenderCert at a device with no seed", try certEnv(f.siblingCertExpired.encoded), seed: f.newDevice.seed,
                 accountSeed: .some(nil), rules: ["14.7-4"], flags: ["two-faults"], .envelopeSenderCertExpired)
        try open("order/signature-before-expiry", "an expired SenderCert whose ML-DSA half is altered: the signature first",
                 try certEnv(try SenderCert(userIDHash: f.hashA, deviceID: f.sibling.id, expiresAt: f.siblingCertExpired.expiresAt,
                                            signature: EnvelopeFixtures.flip(f.siblingCertExpired.signature, at: 3000)).encoded),
                 seed: f.newDevice.seed, rules: ["14.7-4", "14.6-5"], flags: ["two-faults"], .envelopeSenderCertMLDSAInvalid)
        try open("order/channel-before-mac", "no seed and a MAC under the wrong key: no key, no MAC check", try macEnv(inner(key: otherSibling)), seed: f.newDevice.seed,
                 accountSeed: .some(nil), rules: ["14.7-4", "14.5-4"], flags: ["two-faults"], .envelopeNoChannelKey)
        try open("order/mac-before-wake", "a MAC under the wrong key and the wrong wake byte: the MAC first", try env(inner(key: otherSibling), wake: 1, to: f.newDevice),
                 seed: f.newDevice.seed, rules: ["14.7-4"], flags: ["two-faults"], .envelopeMACInvalid)
        try open("order/no-key-before-wake", "no seed and the wrong wake byte", try env(inner(), wake: 1, to: f.newDevice), seed: f.newDevice.seed,
                 accountSeed: .some(nil), rules: ["14.7-4"], flags: ["two-faults"], .envelopeNoChannelKey)
        try open("order/cert-before-mac", "an expired SenderCert and a MAC under the wrong key",
                 try env(innerTree(type: "sync_offer", payload: p.offer.encoded, cert: f.siblingCertExpired.encoded, macKey: otherSibling), to: f.newDevice),
                 seed: f.newDevice.seed, rules: ["14.7-4"], flags: ["two-faults"], .envelopeSenderCertExpired)
        var noMacFlipped = try env(innerTree(type: "sync_offer", payload: p.offer.encoded, cert: f.siblingCert.encoded, macKey: nil), to: f.newDevice)
        noMacFlipped[1] ^= 1
        try open("order/seal-before-inner", "a wrong wake byte on an envelope whose plaintext has no mac: the tag fails before anything inside is read",
                 noMacFlipped, seed: f.newDevice.seed, rules: ["14.7-4"], flags: ["two-faults"], .envelopeOpenFailed)
    }
}

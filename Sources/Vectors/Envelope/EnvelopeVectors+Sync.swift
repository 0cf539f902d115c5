import Primitives

/// The three payloads of §7 in sealed-sender envelopes, from sealed bytes to §7's decisions
/// (SPEC.md §14.9): a request that reaches the sibling, the offer it answers with (sealed to the
/// request's reply key), the ack; and the ways each is dropped, refused or rejected.
extension EnvelopeVectors {
    static func syncCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let p = try payloads(&b, f)
        let contacts = [(hash: f.hashB, key: f.contactKeyB)]
        func envelope(_ out: CBOR) throws -> [UInt8] {
            guard case .bytes(let e)? = out["envelope"] else { throw StateDigestVectors.GeneratorCheckFailed(description: "no envelope") }
            return e
        }
        func receive(_ e: [UInt8], at dev: EnvelopeFixtures.Device, own: [UInt8]? = nil, accountSeed: [UInt8]?? = nil, extra: [(String, CBOR)] = []) -> CBOR {
            let s: [UInt8]? = accountSeed ?? f.accountSeed
            return receiveInput(e, seed: dev.seed, key: f.credentialKey, now: .unsigned(f.now), own: own ?? f.hashA, accountSeed: s, contacts: contacts, extra: extra)
        }

        // 1. The new device's request, sealed to the sibling, and what the sibling decides.
        let reqOut = try b.ok("envelope_seal", "pipeline/sync-request", "step 1: the new device seals its SyncRequest to a sibling, MAC'd under the seed it adopted at sign-in",
                              rules: ["14.9-2", "14.7-2", "14.4-5"],
                              input: sealInput(pk: f.sibling.pub, recipient: f.hashA, type: "sync_request", payload: p.request.encoded, cert: f.newDeviceCert.encoded,
                                               own: f.hashA, accountSeed: f.accountSeed, contacts: contacts, eseed: b.eseed())) { $0["wake"] == .text("sync") }
        let reqEnv = try envelope(reqOut)
        try b.ok("sync_request_receive", "pipeline/accepted", "step 2: the sibling opens it; the SenderCert names its own account; the request is accepted",
                 rules: ["14.9-2", "14.7-8"], input: receive(reqEnv, at: f.sibling)) {
            $0["result"] == .text("accepted") && $0["request"]?["reply_pubkey"] == .bytes(f.newDevice.pub) && $0["sender"]?["device_id"] == .bytes(f.newDevice.id)
        }
        // 2. The offer, sealed to the request's reply_pubkey.
        let offOut = try b.ok("envelope_seal", "pipeline/sync-offer", "step 3: the sibling seals its SyncOffer to the request's reply_pubkey (the new device's X-Wing key)",
                              rules: ["14.9-3", "14.8-1", "7.8-5"],
                              input: sealInput(pk: p.request.replyPubkey, recipient: f.hashA, type: "sync_offer", payload: p.offer.encoded, cert: f.siblingCert.encoded,
                                               own: f.hashA, accountSeed: f.accountSeed, contacts: contacts, eseed: b.eseed())) { $0["wake"] == .text("silent") }
        let offEnv = try envelope(offOut)
        func offerInput(_ e: [UInt8], blob: [UInt8]? = nil, cap: UInt64? = nil, accountSeed: [UInt8]?? = nil) -> CBOR {
            var extra: [(String, CBOR)] = [("request_id", .bytes(p.request.requestID)), ("blob", .bytes(blob ?? p.blob))]
            if let cap { extra.append(("max_blob_bytes", .unsigned(cap))) }
            return receive(e, at: f.newDevice, accountSeed: accountSeed, extra: extra)
        }
        try b.ok("sync_offer_receive", "pipeline/accepted", "step 4: the new device opens the offer, checks the blob's hash before decrypting, imports, and acks ok",
                 rules: ["14.9-3", "14.7-8"], input: offerInput(offEnv)) {
            $0["result"] == .text("accepted") && $0["ack"] == .bytes(p.ack.encoded) && $0["sender"]?["device_id"] == .bytes(f.sibling.id)
        }
        try b.ok("sync_offer_receive", "pipeline/blob-altered", "the blob rewritten on blob-svc: the hash that came inside the sealed offer refuses it",
                 rules: ["14.9-3"], input: offerInput(offEnv, blob: EnvelopeFixtures.flip(p.blob, at: 0))) {
            $0["result"] == .text("refused") && $0["reason"] == .text(ErrorCode.syncHashMismatch.rawValue)
        }
        try b.ok("sync_offer_receive", "pipeline/over-cap", "a receiver cap below the offer's size_bytes", rules: ["14.9-3"], input: offerInput(offEnv, cap: 10)) {
            $0["reason"] == .text(ErrorCode.syncBlobOverCap.rawValue)
        }
        try b.reject("sync_offer_receive", "pipeline/no-account-seed", "the offer at a device that has not adopted the seed: the envelope is rejected before §7 runs",
                     rules: ["14.9-3", "14.5-4"], input: offerInput(offEnv, accountSeed: .some(nil)), .envelopeNoChannelKey)
        // 3. The ack.
        let ackOut = try b.ok("envelope_seal", "pipeline/sync-ack", "step 5: the new device seals its SyncAck back to the sibling", rules: ["14.9-4"],
                              input: sealInput(pk: f.sibling.pub, recipient: f.hashA, type: "sync_ack", payload: p.ack.encoded, cert: f.newDeviceCert.encoded,
                                               own: f.hashA, accountSeed: f.accountSeed, contacts: contacts, eseed: b.eseed()))
        let ackEnv = try envelope(ackOut)
        try b.ok("sync_ack_receive", "pipeline/ack", "step 6: the sibling opens the ack (informational)", rules: ["14.9-4"], input: receive(ackEnv, at: f.sibling)) {
            $0["ack"]?["ok"] == .bool(true)
        }

        // From another account: the envelope opens under the contact key, and §7.3's gate drops it.
        let holderB = ChannelKeys.Holder(ownUserIDHash: f.hashB, accountSeed: f.otherAccountSeed, contacts: [.init(userIDHash: f.hashA, channelKey: f.contactKeyB)])
        func fromB(_ type: SyncPayloadType, _ payload: [UInt8], to dev: EnvelopeFixtures.Device) throws -> [UInt8] {
            try SealedSenderEnvelope.seal(payloadType: type.rawValue, payload: payload, senderCert: f.accountBCert.encoded, to: dev.pub, recipientUserIDHash: f.hashA,
                                          holder: holderB, eseed: b.eseed()).envelope
        }
        try b.ok("sync_offer_receive", "pipeline/offer-from-contact-dropped", "an offer from account B, a contact (its MAC is good under B's key): dropped by the account gate, no ack; identity came from B's SenderCert",
                 rules: ["14.9-3", "14.7-8", "14.5-3"], input: offerInput(try fromB(.syncOffer, p.offer.encoded, to: f.newDevice))) {
            $0["result"] == .text("dropped") && $0["ack"] == .null && $0["sender"]?["user_id_hash"] == .bytes(f.hashB)
        }
        try b.ok("sync_request_receive", "pipeline/request-from-contact-dropped", "a request from account B: dropped, nothing exported",
                 rules: ["14.9-2", "14.7-8"], input: receive(try fromB(.syncRequest, p.request.encoded, to: f.sibling), at: f.sibling)) {
            $0["result"] == .text("dropped") && $0["request"] == .null
        }
        try b.ok("sync_ack_receive", "pipeline/ack-from-contact", "an ack from account B: decoded (handleAck has no gate); the sender shows B",
                 rules: ["14.9-4"], input: receive(try fromB(.syncAck, p.ack.encoded, to: f.sibling), at: f.sibling)) {
            $0["sender"]?["user_id_hash"] == .bytes(f.hashB)
        }
        // Dispatch.
        try b.reject("sync_offer_receive", "pipeline/sealed-to-another-device", "the request envelope, sealed to the sibling, reaching the new device: it cannot open it",
                     rules: ["14.9-1", "14.2-2"], input: offerInput(reqEnv), .envelopeOpenFailed)
        let reqToNew = try SealedSenderEnvelope.seal(payloadType: "sync_request", payload: p.request.encoded, senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                     recipientUserIDHash: f.hashA, holder: f.holderA, eseed: b.eseed()).envelope
        try b.reject("sync_offer_receive", "pipeline/unexpected-payload-type", "an envelope carrying a sync_request, given to the offer handler",
                     rules: ["14.9-1"], input: offerInput(reqToNew), .envelopeUnexpectedPayloadType)
        try b.reject("sync_request_receive", "pipeline/ack-given-to-request-handler", "an envelope carrying a sync_ack, given to the request handler",
                     rules: ["14.9-1"], input: receive(ackEnv, at: f.sibling), .envelopeUnexpectedPayloadType)
        let mislabelled = try SealedSenderEnvelope.seal(payloadType: "sync_offer", payload: p.request.encoded, senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                        recipientUserIDHash: f.hashA, holder: f.holderA, eseed: b.eseed()).envelope
        try b.reject("sync_offer_receive", "pipeline/payload-is-another-type", "payload_type sync_offer over a sync_request encoding: §7.2 rejects the payload's own tag",
                     rules: ["14.9-3"], input: offerInput(mislabelled), .syncWrongPayloadType)
        let badMacRequest = try rawEnvelope(inner: CBORWriter.encode(innerTree(type: "sync_ack", payload: p.ack.encoded, cert: f.newDeviceCert.encoded,
                                                                             macKey: ChannelKeys.siblingChannelKey(accountSeed: f.otherAccountSeed))),
                                            header: envelopeHeader(wake: 0), to: f.sibling.pub, eseed: b.eseed())
        try b.reject("sync_request_receive", "order/envelope-before-dispatch", "a sync_ack with a bad MAC given to the request handler: the envelope is opened (and fails) before the type is compared",
                     rules: ["14.9-1", "14.7-4"], flags: ["two-faults"], input: receive(badMacRequest, at: f.sibling), .envelopeMACInvalid)

        // Added after the first release (labelled keys and eseeds, so the shared stream and every
        // earlier case are unchanged, §2.1): the offer of a full store, so a receiver that imports
        // rows wrongly (or only ever sees `{"namespaces": {}}`) fails.
        let label = { (name: String) in EnvelopeFixtures.seed("pixie.vectors.envelope.full-store.\(name)") }
        let full = try SyncOfferVectors.sampleSnapshot()
        let fullKey = label("key"), fullNonce = Array(label("nonce").prefix(12)), fullBlobID = label("blob-id")
        let fullBlob = try SyncBlob.seal(full.encoded, key: fullKey, nonce: fullNonce)
        let fullOffer = SyncBlob.offer(for: fullBlob, blobID: fullBlobID, key: fullKey, nonce: fullNonce)
        let fullOut = try b.ok("envelope_seal", "pipeline/sync-offer-full-store", "step 3 for a store of five namespaces and seven rows: the offer sealed to the reply key",
                               rules: ["14.9-3", "14.8-1"],
                               input: sealInput(pk: p.request.replyPubkey, recipient: f.hashA, type: "sync_offer", payload: fullOffer.encoded, cert: f.siblingCert.encoded,
                                                own: f.hashA, accountSeed: f.accountSeed, contacts: contacts,
                                                eseed: Builder.eseed(labelled: "sync-offer-full-store"))) { $0["wake"] == .text("silent") }
        var fullExtra: [(String, CBOR)] = [("request_id", .bytes(p.request.requestID)), ("blob", .bytes(fullBlob))]
        fullExtra.append(("max_blob_bytes", .unsigned(UInt64(fullBlob.count))))
        try b.ok("sync_offer_receive", "pipeline/accepted-full-store",
                 "step 4 for a full store: opened, hash checked, decrypted, five namespaces and seven rows imported, acked ok (the cap is the blob's exact size)",
                 rules: ["14.9-3", "14.7-8", "7.6-4"], input: receive(try envelope(fullOut), at: f.newDevice, extra: fullExtra)) {
            guard $0["result"] == .text("accepted"), $0["ack"] == .bytes(p.ack.encoded), case .map(let ns)? = $0["snapshot"]?["namespaces"] else { return false }
            return ns.count == 5
        }
    }
}


import Primitives

/// The models of envelope's two-fault cases whose faults the byte comparison cannot split (issue
/// 23, item 4): both faults in one signed certificate, where the signature covers the other fault,
/// or both inside one sealed-sender envelope, where one changed byte of plaintext changes every
/// byte of the seal. Each model builds the case's input from the set of faults switched on, and
/// `TwoFaultModel.audit` proves it is the committed case and that only the earlier check's fault
/// decides it.
///
/// The envelopes were sealed under eseeds drawn in sequence from the generator's shared stream,
/// and their payloads (a sync_offer, a sync_request and its ack, with request ids and keys from
/// the same stream) too, so a model built outside the generator can draw neither again. The
/// envelopes are `SealedModel`s (the committed one is opened and its plaintext compared); the
/// payloads are taken out of the accepted case of the same section that carries them, opened.
extension EnvelopeVectors {
    /// The sealed-sender envelope as a model's sealed member: after the 4-byte header, HPKE
    /// (X-Wing, the envelope's info) to the key whose seed is the input's `recipient_seed`.
    static let envelopeSealing = Sealing(
        seal: { plaintext, aad, input, label in
            let pk = try EnvelopeKEM.publicKey(seed: try recipientSeed(input))
            let s = try HPKESeal.seal(recipient: pk, info: envelopeInfo, aad: aad, plaintext: plaintext, eseed: Builder.eseed(labelled: label))
            return s.enc + s.ciphertext
        },
        open: { sealed, aad, input in
            guard sealed.count >= BoxLayout.encByteCount + AES256GCM.tagByteCount else { return nil }
            return try HPKESeal.open(seed: try recipientSeed(input), enc: Array(sealed.prefix(BoxLayout.encByteCount)), info: envelopeInfo, aad: aad,
                                     ciphertext: Array(sealed.dropFirst(BoxLayout.encByteCount)))
        })

    struct ModelBaseMissing: Error, CustomStringConvertible {
        var description: String
    }

    static func recipientSeed(_ input: CBOR) throws -> [UInt8] {
        guard let v = input["recipient_seed"], let seed = SealedModel.bytes(v) else { throw ModelBaseMissing(description: "the input holds no recipient_seed") }
        return seed
    }

    /// The payload inside the envelope of the accepted case `id`, opened with its input's
    /// recipient seed under its own header.
    static func openedPayload(_ id: String, in cases: [VectorCase]) throws -> [UInt8] {
        guard let c = cases.first(where: { $0.id == id }), case .output = c.expected else {
            throw ModelBaseMissing(description: "no accepted case \(id) to take a model's payload from")
        }
        let header = 4
        guard let v = c.input["envelope"], let env = SealedModel.bytes(v), env.count > header,
              let plaintext = try envelopeSealing.open(Array(env.dropFirst(header)), Array(env.prefix(header)), c.input) else {
            throw ModelBaseMissing(description: "\(id): its envelope does not open")
        }
        return try EnvelopeInner.decode(plaintext).payload
    }

    static func twoFaultModels(_ f: EnvelopeFixtures, cases: [VectorCase]) throws -> [TwoFaultModel] {
        let (hashA, siblingID, certExpiry, now) = (f.hashA, f.sibling.id, f.certExpiry, f.now)
        let (credential, otherCredential, credentialKey) = (f.credential, f.otherCredential, f.credentialKey)
        let (siblingCert, otherKeyCert, expired, newDeviceCert) = (f.siblingCert, f.siblingCertOtherKey, f.siblingCertExpired, f.newDeviceCert)
        let siblingKey = f.siblingKey, otherSibling = ChannelKeys.siblingChannelKey(accountSeed: f.otherAccountSeed)

        // sender_cert_verify: the inputs of `certCases`' `verify`.
        @Sendable func verify(_ cert: [UInt8]) -> CBOR {
            .object([("cert", .bytes(cert)), ("credential_key", .bytes(credentialKey)), ("now_s", .unsigned(now))])
        }
        let certModels = [
            // Signed by the other credential key (both halves fail) and expired long ago: both
            // faults are in the signed fields, so each alone is issued afresh.
            TwoFaultModel("envelope/sender_cert_verify/order/signature-before-expiry", op: "sender_cert_verify", first: "signature", second: "expiry") { s in
                verify(try SenderCert.issue(userIDHash: hashA, deviceID: siblingID, expiresAt: s.has("expiry") ? expired.expiresAt : certExpiry,
                                            signer: s.has("signature") ? otherCredential : credential).encoded)
            },
            // An unknown member zz (outside the signed message) in the sibling's certificate as
            // signed by the other credential key.
            TwoFaultModel("envelope/sender_cert_verify/order/malformed-before-other-key", op: "sender_cert_verify", first: "malformed", second: "signature") { s in
                let tree = (s.has("signature") ? otherKeyCert : siblingCert).tree
                return verify(CBORWriter.encode(s.has("malformed") ? tree.replacingMember("zz", .unsigned(0)) : tree))
            },
        ]

        // envelope_open and sync_request_receive: the inputs of `envelopeOpenCases`' `open` and
        // `syncCases`' `receive`, their envelope sealed from the model's plaintext.
        let contacts = [(hash: f.hashB, key: f.contactKeyB)]
        let atNewDevice = receiveInput([], seed: f.newDevice.seed, key: credentialKey, now: .unsigned(now), own: hashA, accountSeed: f.accountSeed, contacts: contacts)
        let atSibling = receiveInput([], seed: f.sibling.seed, key: credentialKey, now: .unsigned(now), own: hashA, accountSeed: f.accountSeed, contacts: contacts)
        @Sendable func envelope(_ inner: CBOR, wake: UInt8 = 0, sealedUnderWake: UInt8? = nil, at input: CBOR) -> SealedInput {
            SealedInput(input, member: "envelope", header: envelopeHeader(wake: wake), sealedUnder: sealedUnderWake.map(envelopeHeader),
                        plaintext: CBORWriter.encode(inner))
        }
        func model(_ op: String, _ name: String, first: String, second: String, _ contents: @escaping @Sendable (FaultSet) throws -> SealedInput) -> TwoFaultModel {
            TwoFaultModel("envelope/\(op)/\(name)", op: op, first: first, second: second, sealing: envelopeSealing, contents: contents)
        }
        // The sibling's sync_offer as the open cases seal it (their `inner()`): its payload is the
        // one the accepted valid/sync-offer carries.
        let offer = try openedPayload("envelope/envelope_open/valid/sync-offer", in: cases)
        @Sendable func offerInner(cert: SenderCert = siblingCert, macKey: [UInt8]? = siblingKey) -> CBOR {
            innerTree(type: "sync_offer", payload: offer, cert: cert.encoded, macKey: macKey)
        }
        let openModels = [
            model("envelope_open", "order/unknown-before-missing", first: "unknown", second: "missing") { s in
                var t = offerInner()
                if s.has("missing") { t = t.replacingMember("payload", nil) }
                if s.has("unknown") { t = t.replacingMember("zz", .unsigned(1)) }
                return envelope(t, at: atNewDevice)
            },
            model("envelope_open", "order/payload-before-mac", first: "payload", second: "mac") { s in
                var t = offerInner()
                if s.has("payload") { t = t.replacingMember("payload", nil) }
                if s.has("mac") { t = t.replacingMember("mac", nil) }
                return envelope(t, at: atNewDevice)
            },
            // A SenderCert that is the byte 00; without it, the sibling's (the MAC over whichever
            // is carried, under the sibling key, when there is one).
            model("envelope_open", "order/mac-missing-before-cert", first: "mac", second: "cert") { s in
                let t = innerTree(type: "sync_offer", payload: offer, cert: s.has("cert") ? [0] : siblingCert.encoded, macKey: s.has("mac") ? nil : siblingKey)
                return envelope(t, at: atNewDevice)
            },
            // The ML-DSA half's byte 3000 flipped, in the expired certificate or (without the
            // expiry) in the sibling's.
            model("envelope_open", "order/signature-before-expiry", first: "signature", second: "expiry") { s in
                let c = s.has("expiry") ? expired : siblingCert
                let cert = try SenderCert(userIDHash: c.userIDHash, deviceID: c.deviceID, expiresAt: c.expiresAt,
                                          signature: s.has("signature") ? EnvelopeFixtures.flip(c.signature, at: 3000) : c.signature)
                return envelope(offerInner(cert: cert), at: atNewDevice)
            },
            model("envelope_open", "order/mac-before-wake", first: "mac", second: "wake") { s in
                envelope(offerInner(macKey: s.has("mac") ? otherSibling : siblingKey), wake: s.has("wake") ? 1 : 0, at: atNewDevice)
            },
            model("envelope_open", "order/cert-before-mac", first: "cert", second: "mac") { s in
                envelope(offerInner(cert: s.has("cert") ? expired : siblingCert, macKey: s.has("mac") ? otherSibling : siblingKey), at: atNewDevice)
            },
            // The seal's fault is the wake byte set to 01 after sealing under 00 (the header is
            // the AAD); the inner one, no mac.
            model("envelope_open", "order/seal-before-inner", first: "seal", second: "inner") { s in
                envelope(offerInner(macKey: s.has("inner") ? nil : siblingKey), wake: s.has("seal") ? 1 : 0, sealedUnderWake: 0, at: atNewDevice)
            },
        ]

        // The new device's request, as the accepted pipeline/accepted carries it, and its ack:
        // sealed to the sibling and given to the request handler. The ack's wake class is silent,
        // the request's sync, so the wake byte follows the payload type.
        let request = try openedPayload("envelope/sync_request_receive/pipeline/accepted", in: cases)
        let ack = SyncAck(requestID: try SyncRequest.decode(request).requestID, ok: true).encoded
        let syncModels = [
            model("sync_request_receive", "order/envelope-before-dispatch", first: "mac", second: "dispatch") { s in
                let (type, payload) = s.has("dispatch") ? ("sync_ack", ack) : ("sync_request", request)
                let t = innerTree(type: type, payload: payload, cert: newDeviceCert.encoded, macKey: s.has("mac") ? otherSibling : siblingKey)
                return envelope(t, wake: PayloadWakeClass.byte(PayloadWakeClass.of(type)), at: atSibling)
            },
        ]
        return certModels + openModels + syncModels
    }
}

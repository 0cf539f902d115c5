import Primitives

/// The reference `envelope` format as the runner drives it (SPEC.md §14.10). Inputs are read by
/// §2.2 in the order each op's table lists them, every member before any rule of §14 runs.
public struct EnvelopeHandler: FormatHandler {
    public init() {}

    public var format: String { "envelope" }
    public var ops: [String] {
        ["channel_key", "box_seal", "box_open", "signin_request_seal", "signin_request_open", "signin_ack_seal", "signin_approval_seal",
         "signin_reply_open", "sender_cert_issue", "sender_cert_decode", "sender_cert_verify", "envelope_seal", "envelope_open",
         "sync_request_receive", "sync_offer_receive", "sync_ack_receive"]
    }

    public func generate() throws -> VectorFile { try EnvelopeVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        try tree(op: op, input: input).json
    }

    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR {
        typealias In = EnvelopeInput
        typealias Out = EnvelopeOutput
        switch op {
        case "channel_key":
            let seed = try In.bytes(input, "account_seed", length: 32)
            return .object([("channel_key", .bytes(ChannelKeys.siblingChannelKey(accountSeed: seed)))])
        case "box_seal":
            let pk = try In.bytes(input, "recipient_pubkey", length: XWing.publicKeyByteCount)
            let direction = try In.direction(input)
            let plaintext = try In.bytes(input, "plaintext")
            let eseed = try In.bytes(input, "eseed", length: XWing.encapsulationSeedByteCount)
            return Out.box(try DiscoveryBox.seal(plaintext, to: pk, direction: direction, eseed: eseed))
        case "box_open":
            let seed = try In.bytes(input, "recipient_seed", length: XWing.privateKeyByteCount)
            let direction = try In.direction(input)
            let box = try In.bytes(input, "box")
            return .object([("plaintext", .bytes(try DiscoveryBox.open(box, seed: seed, direction: direction)))])
        case "signin_request_seal":
            let pk = try In.bytes(input, "discovery_pubkey", length: XWing.publicKeyByteCount)
            let r = try Input.member(input, "request", path: "")
            let model = try Input.text(try Input.member(r, "device_model", path: "request"), path: "request.device_model")
            let subject = try In.bytes(r, "reply_subject", path: "request")
            let xwing = try In.bytes(r, "xwing_pubkey", path: "request")
            let ts = try In.uint64(r, "timestamp_s", path: "request")
            let cert = try In.bytes(r, "cert", path: "request")
            let eseed = try In.bytes(input, "eseed", length: XWing.encapsulationSeedByteCount)
            let request = try SignInRequest(deviceModel: model, replySubject: subject, xwingPublicKey: xwing, timestamp: ts, cert: cert)
            return Out.encodedBox(request.encoded, try SealedSignIn.sealRequest(request, to: pk, eseed: eseed))
        case "signin_request_open":
            let box = try In.bytes(input, "box")
            let seed = try In.bytes(input, "discovery_seed", length: XWing.privateKeyByteCount)
            let pinned = try In.nullableBytes(input, "pinned_key").map { b throws(WireError) in try PhoneVerifyKey.PublicKey(bytes: b) }
            let own = try In.nullableBytes(input, "own_cert")
            let now = try In.uint64(input, "now_s")
            return SignInOutput.verdict(try SealedSignIn.openRequest(box, discoverySeed: seed, pinnedKey: pinned, ownCert: own, now: now))
        case "signin_ack_seal":
            let pk = try In.bytes(input, "requester_pubkey", length: XWing.publicKeyByteCount)
            let family = try Input.text(try Input.member(input, "device_family", path: ""), path: "device_family")
            let eseed = try In.bytes(input, "eseed", length: XWing.encapsulationSeedByteCount)
            let ack = try SignInAck(deviceFamily: family)
            return Out.encodedBox(ack.encoded, try SealedSignIn.sealReply(ack.encoded, to: pk, eseed: eseed))
        case "signin_approval_seal":
            let pk = try In.bytes(input, "requester_pubkey", length: XWing.publicKeyByteCount)
            let fields = try In.approvalFields(input)
            let eseed = try In.bytes(input, "eseed", length: XWing.encapsulationSeedByteCount)
            let approval = try In.approval(fields)
            return Out.encodedBox(approval.encoded, try SealedSignIn.sealReply(approval.encoded, to: pk, eseed: eseed))
        case "signin_reply_open":
            let box = try In.bytes(input, "box")
            let seed = try In.bytes(input, "requester_seed", length: XWing.privateKeyByteCount)
            let now = try In.uint64(input, "now_s")
            return Out.reply(try SealedSignIn.openReply(box, requesterSeed: seed, now: now))
        case "sender_cert_issue":
            let s = try Input.member(input, "signer", path: "")
            let ed = try In.bytes(s, "ed25519_seed", path: "signer", length: 32)
            let pq = try In.bytes(s, "mldsa_seed", path: "signer", length: 32)
            let user = try In.bytes(input, "user_id_hash", length: SenderCert.userIDHashByteCount)
            let device = try In.bytes(input, "device_id", length: SenderCert.deviceIDByteCount)
            let expires = try In.uint64(input, "expires_at_s")
            let signer = try CredentialKey.Signer(ed25519Seed: ed, mldsaSeed: pq)
            let cert = try SenderCert.issue(userIDHash: user, deviceID: device, expiresAt: expires, signer: signer)
            return .object([("public_key", .bytes(signer.publicKeyBytes)), ("signed_message", .bytes(cert.signedMessage)), ("cert", .bytes(cert.encoded))])
        case "sender_cert_decode":
            let c = try SenderCert.decode(try In.bytes(input, "cert"))
            return .object([("user_id_hash", .bytes(c.userIDHash)), ("device_id", .bytes(c.deviceID)), ("expires_at_s", .unsigned(c.expiresAt)),
                            ("sig", .bytes(c.signature))])
        case "sender_cert_verify":
            let cert = try In.bytes(input, "cert")
            let key = try CredentialKey(bytes: try In.bytes(input, "credential_key"))
            let now = try In.uint64(input, "now_s")
            return Out.cert(try SenderCert.verify(cert, key: key, now: now))
        case "envelope_seal":
            let pk = try In.bytes(input, "recipient_pubkey", length: XWing.publicKeyByteCount)
            let recipient = try In.bytes(input, "recipient_user_id_hash")
            let type = try Input.text(try Input.member(input, "payload_type", path: ""), path: "payload_type")
            let payload = try In.bytes(input, "payload")
            let cert = try In.bytes(input, "sender_cert")
            let holder = try In.holder(input)
            let eseed = try In.bytes(input, "eseed", length: XWing.encapsulationSeedByteCount)
            return Out.sealed(try SealedSenderEnvelope.seal(payloadType: type, payload: payload, senderCert: cert, to: pk,
                                                             recipientUserIDHash: recipient, holder: holder, eseed: eseed))
        case "envelope_open":
            let r = try In.receiver(input)
            let o = try SealedSenderEnvelope.open(r.envelope, seed: r.seed, credentialKey: r.key, now: r.now, holder: r.holder)
            return .object([("sender", Out.sender(o)), ("channel", .text(o.channel.rawValue)), ("payload_type", .text(o.payloadType)),
                            ("payload", .bytes(o.payload)), ("wake", .text(o.wake.rawValue))])
        case "sync_request_receive":
            let r = try In.receiver(input)
            let o = try SealedSync.open(r.envelope, expecting: .syncRequest, seed: r.seed, credentialKey: r.key, now: r.now, holder: r.holder)
            let h = try SealedSync.receiveRequest(o, holder: r.holder)
            return Out.prefixed(o, SyncOfferOutput.handled(h.result, h.request))
        case "sync_offer_receive":
            let r = try In.receiver(input)
            let requestID = try In.bytes(input, "request_id", length: SyncRequest.requestIDByteCount)
            let blob = try In.bytes(input, "blob")
            let cap = try Input.optionalMember(input, "max_blob_bytes", path: "").map { j throws(WireError) in try Input.uint64(j, path: "max_blob_bytes") }
            let o = try SealedSync.open(r.envelope, expecting: .syncOffer, seed: r.seed, credentialKey: r.key, now: r.now, holder: r.holder)
            let outcome = try SealedSync.receiveOffer(o, holder: r.holder, requestID: requestID, blob: blob, maxBlobBytes: cap ?? SyncBlob.syncMaxBlobBytes)
            return Out.prefixed(o, SyncOfferOutput.received(outcome))
        case "sync_ack_receive":
            let r = try In.receiver(input)
            let o = try SealedSync.open(r.envelope, expecting: .syncAck, seed: r.seed, credentialKey: r.key, now: r.now, holder: r.holder)
            return .object([("sender", Out.sender(o)), ("ack", SyncOfferOutput.ack(try SealedSync.receiveAck(o)))])
        default:
            throw WireError(.unknownOp, "envelope has no op \(op)", field: "op")
        }
    }
}

/// Readers for `envelope` op inputs (SPEC.md §14.10), all through `Input` (§2.2).
enum EnvelopeInput {
    static func bytes(_ v: JSONValue, _ name: String, path: String = "", length: Int? = nil) throws(WireError) -> [UInt8] {
        try Input.bytes(try Input.member(v, name, path: path), path: Input.join(path, name), length: length)
    }

    static func uint64(_ v: JSONValue, _ name: String, path: String = "") throws(WireError) -> UInt64 {
        try Input.uint64(try Input.member(v, name, path: path), path: Input.join(path, name))
    }

    static func nullableBytes(_ v: JSONValue, _ name: String, length: Int? = nil) throws(WireError) -> [UInt8]? {
        guard let m = try Input.nullableMember(v, name, path: "") else { return nil }
        return try Input.bytes(m, path: name, length: length)
    }

    /// `"request"` or `"reply"`, byte for byte; other text is `input_bad_value`.
    static func direction(_ v: JSONValue) throws(WireError) -> DiscoveryBox.Direction {
        let s = try Input.text(try Input.member(v, "direction", path: ""), path: "direction")
        guard let d = DiscoveryBox.Direction.allCases.first(where: { Array($0.rawValue.utf8) == Array(s.utf8) }) else {
            throw WireError(.inputBadValue, "direction is request or reply", field: "direction")
        }
        return d
    }

    struct ApprovalFields {
        var grant: (token: [UInt8], expiresAt: UInt64)?
        var seed: [UInt8]?
        var kt: [UInt8]?
    }

    /// `grant: {token, expires_at_s} or null`, `account_seed or null`, `kt_handle or null`, read
    /// completely before §8.8's all-or-none rule runs.
    static func approvalFields(_ v: JSONValue) throws(WireError) -> ApprovalFields {
        var f = ApprovalFields()
        if let g = try Input.nullableMember(v, "grant", path: "") {
            f.grant = (try bytes(g, "token", path: "grant"), try uint64(g, "expires_at_s", path: "grant"))
        }
        f.seed = try nullableBytes(v, "account_seed")
        f.kt = try nullableBytes(v, "kt_handle")
        return f
    }

    static func approval(_ f: ApprovalFields) throws(WireError) -> SignInApproval {
        switch (f.grant, f.seed, f.kt) {
        case (nil, nil, nil): return SignInApproval(approved: nil)
        case (let g?, let seed?, let kt?):
            return SignInApproval(approved: try .init(grant: try DeviceGrant(token: g.token, expiresAt: g.expiresAt), accountSeed: seed, ktHandle: kt))
        default:
            throw WireError(.signinApprovalPartial, "grant, account_seed and kt_handle are all given or all null", field: "grant")
        }
    }

    /// `own_user_id_hash or null` (any length: the rule of §14.5 judges it), `account_seed or null`
    /// (32 bytes), `contacts?` (a list of `{user_id_hash, channel_key}`, 32 bytes each, no hash twice).
    static func holder(_ v: JSONValue) throws(WireError) -> ChannelKeys.Holder {
        let own = try nullableBytes(v, "own_user_id_hash")
        let seed = try nullableBytes(v, "account_seed", length: 32)
        var contacts: [ChannelKeys.Contact] = []
        if let list = try Input.optionalMember(v, "contacts", path: "") {
            for (i, c) in try Input.array(list, path: "contacts").enumerated() {
                let path = "contacts[\(i)]"
                let hash = try bytes(c, "user_id_hash", path: path, length: SenderCert.userIDHashByteCount)
                let key = try bytes(c, "channel_key", path: path, length: ChannelKeys.keyByteCount)
                if contacts.contains(where: { $0.userIDHash == hash }) {
                    throw WireError(.duplicateKey, "user_id_hash \(Hex.encode(hash)) is listed twice", field: path)
                }
                contacts.append(ChannelKeys.Contact(userIDHash: hash, channelKey: key))
            }
        }
        return ChannelKeys.Holder(ownUserIDHash: own, accountSeed: seed, contacts: contacts)
    }

    struct Receiver {
        var envelope: [UInt8]
        var seed: [UInt8]
        var key: CredentialKey
        var now: UInt64
        var holder: ChannelKeys.Holder
    }

    /// `{envelope, recipient_seed, credential_key, now_s, own_user_id_hash or null, account_seed or null, contacts?}`.
    static func receiver(_ v: JSONValue) throws(WireError) -> Receiver {
        let env = try bytes(v, "envelope")
        let seed = try bytes(v, "recipient_seed", length: XWing.privateKeyByteCount)
        let key = try CredentialKey(bytes: try bytes(v, "credential_key"))
        let now = try uint64(v, "now_s")
        return Receiver(envelope: env, seed: seed, key: key, now: now, holder: try holder(v))
    }
}

/// Output shapes shared by the handler and the generator.
enum EnvelopeOutput {
    static func box(_ s: DiscoveryBox.Sealed) -> CBOR {
        .object([("kem_ciphertext", .bytes(s.hpke.enc)), ("shared_secret", .bytes(s.hpke.sharedSecret)), ("key", .bytes(s.hpke.key)),
                 ("nonce", .bytes(s.hpke.nonce)), ("box", .bytes(s.box))])
    }

    static func encodedBox(_ encoded: [UInt8], _ s: DiscoveryBox.Sealed) -> CBOR {
        .object([("encoded", .bytes(encoded)), ("box", .bytes(s.box))])
    }

    static func reply(_ r: SealedSignIn.Reply) -> CBOR {
        switch r {
        case .ack(let a):
            return .object([("type", .text(SignInPayloadType.signinAck.rawValue)), ("device_family", .text(a.deviceFamily))])
        case .approval(let a, let refusal, let key):
            let admitted = refusal == nil ? a.approved : nil
            return .object([("type", .text(SignInPayloadType.signinApproval.rawValue)), ("admits", .bool(refusal == nil)),
                            ("reason", refusal.map { .text($0.rawValue) } ?? .null),
                            ("account_seed", admitted.map { .bytes($0.accountSeed) } ?? .null),
                            ("kt_handle", admitted.map { .bytes($0.ktHandle) } ?? .null),
                            ("channel_key", key.map { .bytes($0) } ?? .null)])
        }
    }

    static func cert(_ c: SenderCert) -> CBOR {
        .object([("user_id_hash", .bytes(c.userIDHash)), ("device_id", .bytes(c.deviceID)), ("expires_at_s", .unsigned(c.expiresAt))])
    }

    static func sender(_ o: SealedSenderEnvelope.Opened) -> CBOR {
        .object([("user_id_hash", .bytes(o.senderUserIDHash)), ("device_id", .bytes(o.sender.deviceID)), ("expires_at_s", .unsigned(o.sender.expiresAt))])
    }

    static func sealed(_ s: SealedSenderEnvelope.Sealed) -> CBOR {
        .object([("wake", .text(s.wake.rawValue)), ("channel", s.channel.map { .text($0.rawValue) } ?? .null),
                 ("channel_key", s.channelKey.map { .bytes($0) } ?? .null), ("mac", s.inner.mac.map { .bytes($0) } ?? .null),
                 ("inner", .bytes(s.inner.encoded)), ("kem_ciphertext", .bytes(s.hpke.enc)), ("shared_secret", .bytes(s.hpke.sharedSecret)),
                 ("key", .bytes(s.hpke.key)), ("nonce", .bytes(s.hpke.nonce)), ("envelope", .bytes(s.envelope))])
    }

    /// `{sender, …}` followed by the members of §7's output.
    static func prefixed(_ o: SealedSenderEnvelope.Opened, _ rest: CBOR) -> CBOR {
        guard case .map(let es) = rest else { return rest }
        return .map([CBORMapEntry(key: .text("sender"), value: sender(o))] + es)
    }
}

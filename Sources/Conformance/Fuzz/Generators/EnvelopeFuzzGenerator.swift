import Foundation
import Primitives
import Vectors

/// `envelope` (SPEC §14): DiscoveryBoxes and sealed-sender envelopes sealed by the reference's own
/// ops (so every open op gets inputs that open) to a small pool of X-Wing devices, with the
/// recipient, direction, clock, credential key and channel-key holder each mostly right and at a
/// boundary when not; SenderCerts of two accounts, signed once per run by two credential keys,
/// expiring around the clock; sign-in requests from the signin generator's certificate ladders;
/// sync payloads from the sync_offer generator. Format-aware faults tamper with the sealed bytes
/// where layouts break (kind, wake, length field, the KEM ciphertext, the tag, truncation).
struct EnvelopeFuzzGenerator: FuzzGenerator {
    var format: String { "envelope" }
    var ops: [String] {
        ["channel_key", "box_seal", "box_open", "signin_request_seal", "signin_request_open", "signin_ack_seal", "signin_approval_seal",
         "signin_reply_open", "sender_cert_issue", "sender_cert_decode", "sender_cert_verify", "envelope_seal", "envelope_open",
         "sync_request_receive", "sync_offer_receive", "sync_ack_receive"]
    }

    static let base: UInt64 = 1_767_225_600
    static var now0: UInt64 { base + 600 }

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        let f = Self.fixtures
        switch op {
        case "channel_key":
            return .obj([("account_seed", AdversarialValues.hex(rng.oneIn(3) ? f.accountSeed : rng.bytes(32), &rng))])
        case "box_seal":
            return .obj([("recipient_pubkey", AdversarialValues.hex(Self.recipientKey(&rng), &rng)), ("direction", .str(Self.direction(&rng))),
                         ("plaintext", AdversarialValues.hex(rng.bytes(rng.length(max: 300)), &rng)), ("eseed", .hex(rng.bytes(64)))])
        case "box_open":
            let d = rng.below(Fixtures.deviceCount)
            let direction = rng.pick(["request", "reply"])
            let sealed = FuzzReference.output("envelope", "box_seal", .obj([
                ("recipient_pubkey", .hex(f.devices[d].pub)), ("direction", .str(direction)),
                ("plaintext", .hex(rng.bytes(rng.length(max: 200)))), ("eseed", .hex(rng.bytes(64)))]))?["box"] ?? .str("")
            return .obj([("recipient_seed", .hex(Self.seed(for: d, &rng))), ("direction", .str(rng.oneIn(8) ? Self.direction(&rng) : direction)),
                         ("box", sealed)])
        case "signin_request_seal":
            return .obj([("discovery_pubkey", AdversarialValues.hex(Self.recipientKey(&rng), &rng)), ("request", Self.signinRequest(&rng).0),
                         ("eseed", .hex(rng.bytes(64)))])
        case "signin_request_open":
            var (request, slot, now) = Self.signinRequest(&rng)
            let d = rng.below(Fixtures.deviceCount)
            func seal(_ r: JSONValue, _ rng: inout FuzzRNG) -> JSONValue? {
                FuzzReference.output("envelope", "signin_request_seal", .obj([
                    ("discovery_pubkey", .hex(f.devices[d].pub)), ("request", r), ("eseed", .hex(rng.bytes(64)))]))?["box"]
            }
            var box = seal(request, &rng)
            if box == nil {
                // A request §8 refuses to encode cannot be sealed: a plain model and right lengths.
                request = request.setting("device_model", .str("iPhone17,1")).setting("reply_subject", .hex(rng.bytes(32)))
                    .setting("xwing_pubkey", .hex(rng.bytes(XWing.publicKeyByteCount)))
                box = seal(request, &rng)
            }
            let own: JSONValue
            switch rng.below(8) {
            case 0: own = .null
            case 1: own = AdversarialValues.hex(rng.bytes(rng.pick([0, 3, 40])), &rng)
            case 2, 3: own = AdversarialValues.hex(SignInFuzzGenerator.slot(&rng).cert, &rng)
            default: own = AdversarialValues.hex(SignInFuzzGenerator.fixtures.sameNumber(as: slot, &rng).cert, &rng)
            }
            return .obj([("box", box ?? .str("")), ("discovery_seed", .hex(Self.seed(for: d, &rng))), ("pinned_key", SignInFuzzGenerator.pinned(slot, &rng)),
                         ("own_cert", own), ("now_s", .u(now))])
        case "signin_ack_seal":
            return .obj([("requester_pubkey", AdversarialValues.hex(Self.recipientKey(&rng), &rng)), ("device_family", .str(Self.family(&rng))),
                         ("eseed", .hex(rng.bytes(64)))])
        case "signin_approval_seal":
            var m: [(String, JSONValue)] = [("requester_pubkey", AdversarialValues.hex(Self.recipientKey(&rng), &rng))]
            m += SignInFuzzGenerator.approval(&rng).0.objectValue ?? []
            m.append(("eseed", .hex(rng.bytes(64))))
            return .object(m)
        case "signin_reply_open":
            let d = rng.below(Fixtures.deviceCount)
            var now = Self.now0
            let box: JSONValue
            if rng.oneIn(3) {
                box = FuzzReference.output("envelope", "signin_ack_seal", .obj([
                    ("requester_pubkey", .hex(f.devices[d].pub)), ("device_family", .str(Self.family(&rng))), ("eseed", .hex(rng.bytes(64)))]))?["box"] ?? .str("")
            } else {
                let (a, expires) = SignInFuzzGenerator.approval(&rng)
                now = rng.percent(80) ? expires &+ UInt64(bitPattern: Int64(rng.pick([-181, -180, -1, 0, 1, -100]))) : AdversarialValues.unsigned(&rng)
                box = FuzzReference.output("envelope", "signin_approval_seal", .object([("requester_pubkey", .hex(f.devices[d].pub))]
                    + (a.objectValue ?? []) + [("eseed", .hex(rng.bytes(64)))]))?["box"] ?? .str("")
            }
            return .obj([("box", box), ("requester_seed", .hex(Self.seed(for: d, &rng))), ("now_s", .u(now))])
        case "sender_cert_issue":
            let s = rng.below(2)
            let signer: JSONValue = .obj([("ed25519_seed", AdversarialValues.hex(rng.oneIn(3) ? rng.bytes(32) : f.signerSeeds[s].0, &rng)),
                                          ("mldsa_seed", AdversarialValues.hex(rng.oneIn(3) ? rng.bytes(32) : f.signerSeeds[s].1, &rng))])
            return .obj([("signer", signer), ("user_id_hash", AdversarialValues.hex(rng.pick(f.accounts + [rng.bytes(32)]), &rng)),
                         ("device_id", AdversarialValues.hex(rng.bytes(32), &rng)), ("expires_at_s", AdversarialValues.json(Self.expiry(&rng), &rng))])
        case "sender_cert_decode":
            return .obj([("cert", AdversarialValues.hex(rng.pick(f.certs).cert, &rng))])
        case "sender_cert_verify":
            if rng.percent(60) {
                // Signed by a credential key the generator holds, with a signature edge class.
                let e = Self.edgeCerts.cert(rng.below(EdgeCertPool.count))
                return .obj([("cert", .hex(e.cert)), ("credential_key", .hex(e.credentialKey)), ("now_s", .u(Self.now0 + UInt64(rng.below(600))))])
            }
            let c = rng.pick(f.certs)
            return .obj([("cert", AdversarialValues.hex(c.cert, &rng)), ("credential_key", .hex(rng.oneIn(8) ? f.credentialKeys[1 - c.signer] : f.credentialKeys[c.signer])),
                         ("now_s", AdversarialValues.json(Self.now(around: c.expires, &rng), &rng))])
        case "envelope_seal":
            let c = rng.pick(f.certs)
            var m: [(String, JSONValue)] = [("recipient_pubkey", AdversarialValues.hex(Self.recipientKey(&rng), &rng)),
                                            ("recipient_user_id_hash", AdversarialValues.hex(Self.someHash(&rng), &rng)),
                                            ("payload_type", .str(Self.payloadType(&rng))),
                                            ("payload", AdversarialValues.hex(rng.bytes(rng.length(max: 120)), &rng)),
                                            ("sender_cert", AdversarialValues.hex(c.cert, &rng))]
            m += Self.holder(&rng, account: c.account)
            m.append(("eseed", .hex(rng.bytes(64))))
            return .object(m)
        case "envelope_open":
            return Self.receive(payloadType: Self.payloadType(&rng), payload: rng.bytes(rng.length(max: 120)), &rng)
        case "sync_request_receive":
            let payload = SyncOfferFuzzGenerator.cbor("encode_request", SyncOfferFuzzGenerator.request(&rng)).hexBytes("cbor") ?? []
            return Self.receive(payloadType: rng.percent(85) ? "sync_request" : Self.payloadType(&rng), payload: payload, &rng)
        case "sync_ack_receive":
            let payload = SyncOfferFuzzGenerator.cbor("encode_ack", SyncOfferFuzzGenerator.ack(&rng)).hexBytes("cbor") ?? []
            return Self.receive(payloadType: rng.percent(85) ? "sync_ack" : Self.payloadType(&rng), payload: payload, &rng)
        case "sync_offer_receive":
            let r = SyncOfferFuzzGenerator.receive(&rng)
            let payload = r.hexBytes("offer") ?? []
            var v = Self.receive(payloadType: rng.percent(85) ? "sync_offer" : Self.payloadType(&rng), payload: payload, &rng)
            for name in ["request_id", "blob", "max_blob_bytes"] { if let x = r[name] { v = v.setting(name, x) } }
            return v
        default:
            return .obj([])
        }
    }

    /// Faults only the layout knows: the sealed bytes of a box or envelope changed where a reader
    /// decides (kind and wake bytes, the length field, the KEM ciphertext, the body, the tag), or
    /// cut at a boundary.
    func invalidInput(op: String, valid: JSONValue, rng: inout FuzzRNG) -> JSONValue? {
        if rng.percent(35), let resealed = Self.senderFault(op: op, valid, &rng) { return resealed }
        let member = ["box", "envelope"].first { valid[$0] != nil }
        guard let member, rng.percent(60), var b = valid.hexBytes(member), !b.isEmpty else { return nil }
        let enc = 4 + 1120
        switch rng.below(6) {
        case 0: b[0] = rng.pick([0x00, 0x01, 0x02, 0x03, 0xff])
        case 1: b[rng.below(min(4, b.count))] ^= UInt8(1 << rng.below(8))
        case 2: b[rng.below(min(enc, b.count))] ^= UInt8(1 << rng.below(8))
        case 3: b[b.count - 1 - rng.below(min(16, b.count))] ^= UInt8(1 << rng.below(8))
        case 4: b = Array(b.prefix(rng.pick([0, 1, 2, 3, 4, enc - 1, enc, enc + 15, b.count - 1].filter { $0 >= 0 && $0 < b.count })))
        default: b[rng.below(b.count)] ^= UInt8(1 << rng.below(8))
        }
        return valid.setting(member, .hex(b))
    }

    /// A box or envelope re-sealed (`SealSurgery`) by a sender that gets one thing wrong, so the
    /// AEAD verifies and the receiver's own checks must catch it: the wake byte of the other class,
    /// the MAC cut to a prefix, an X25519 half of small order, or an ML-KEM ciphertext the
    /// recipient rejects implicitly.
    static func senderFault(op: String, _ valid: JSONValue, _ rng: inout FuzzRNG) -> JSONValue? {
        if let env = valid.hexBytes("envelope"), let seed = valid.hexBytes("recipient_seed") {
            let fault = rng.below(4)
            let out = SealSurgery.reseal(env, headerLength: 4, seed: seed, info: SealSurgery.envelopeInfo) { o in
                switch fault {
                case 0: wrongWake(&o)
                case 1: macPrefix(&o, &rng)
                case 2: SealSurgery.lowOrderX25519Ciphertext(&o, &rng)
                default: SealSurgery.rejectedKEMCiphertext(&o, &rng)
                }
            }
            return out.map { valid.setting("envelope", .hex($0)) }
        }
        let boxes: [String: (seed: String, direction: String?)] = [
            "box_open": ("recipient_seed", nil), "signin_request_open": ("discovery_seed", "request"), "signin_reply_open": ("requester_seed", "reply")]
        guard let spec = boxes[op], let box = valid.hexBytes("box"), let seed = valid.hexBytes(spec.seed),
              let direction = spec.direction ?? valid["direction"]?.stringValue else { return nil }
        let lowOrder = rng.bool()
        let out = SealSurgery.reseal(box, headerLength: 3, seed: seed, info: SealSurgery.boxInfo(direction)) { o in
            if lowOrder { SealSurgery.lowOrderX25519Ciphertext(&o, &rng) } else { SealSurgery.rejectedKEMCiphertext(&o, &rng) }
        }
        return out.map { valid.setting("box", .hex($0)) }
    }

    /// The header's wake byte of the other class. Targets receivers that never compare the header's
    /// class with the payload type's (SPEC §14.8: a sender whose table differs, every sync_*
    /// payload as `sync`, must be caught at the receiver: `envelope_wrong_wake_class`).
    static func wrongWake(_ o: inout SealSurgery.Opened) {
        if o.header.count > 1 { o.header[1] = o.header[1] == 0 ? 1 : 0 }
    }

    /// The inner plaintext's MAC cut to a prefix (1, 16 or 31 of its 32 bytes). Targets receivers
    /// that compare only the bytes received (SPEC §14.7: the MAC is 32 bytes, `envelope_bad_length`).
    static func macPrefix(_ o: inout SealSurgery.Opened, _ rng: inout FuzzRNG) {
        guard var m = CBORMutator.topMap(o.plaintext), let i = m.firstIndex(where: { CBORMutator.keyText($0.0) == "mac" }),
              case .bytes(let mac) = m[i].1.kind else { return }
        m[i].1 = CBORMutator.Node(.bytes(Array(mac.prefix(rng.pick([1, 16, 31])))))
        o.plaintext = CBORMutator.encodedMap(m)
    }

    // MARK: - pieces

    /// A device's X-Wing key, mostly; else a key of the right length that is not one, or the wrong length.
    static func recipientKey(_ rng: inout FuzzRNG) -> [UInt8] {
        switch rng.below(12) {
        case 0: return rng.bytes(XWing.publicKeyByteCount)
        case 1: return rng.bytes(rng.pick([0, 1215, 1217]))
        case 2: return [UInt8](repeating: 0xff, count: XWing.publicKeyByteCount)
        case 3:
            // A device's ML-KEM key with an X25519 half of small order: the sender's X25519 output
            // is all zero, which X-Wing uses as it is (SPEC §14.2).
            return Array(rng.pick(fixtures.devices).pub.prefix(MLKEM768.publicKeyByteCount)) + rng.pick(SealSurgery.lowOrderX25519)
        default: return rng.pick(fixtures.devices).pub
        }
    }

    /// Device d's seed, or another device's now and then.
    static func seed(for d: Int, _ rng: inout FuzzRNG) -> [UInt8] {
        rng.oneIn(8) ? fixtures.devices[(d + 1) % Fixtures.deviceCount].seed : fixtures.devices[d].seed
    }

    static func direction(_ rng: inout FuzzRNG) -> String {
        rng.percent(90) ? rng.pick(["request", "reply"]) : rng.pick(["Request", "reply ", "", "requests", "REPLY"])
    }

    static func family(_ rng: inout FuzzRNG) -> String {
        rng.percent(60) ? rng.pick(["iPhone", "iPad", "Mac", "android"]) : AdversarialValues.text(&rng)
    }

    static func payloadType(_ rng: inout FuzzRNG) -> String {
        switch rng.below(10) {
        case 0: return AdversarialValues.text(&rng)
        case 1: return rng.pick(["", "SYNC_REQUEST", "sync_request ", "sync_request\u{0}", String(repeating: "x", count: 64), String(repeating: "x", count: 65),
                                 String(repeating: "é", count: 32), String(repeating: "é", count: 33)])
        case 2:
            // The sync types in another case: a receiver or relay that compares them case-blind
            // gives them the wrong wake class (SPEC §7.8: compared byte for byte).
            return rng.pick(["SYNC_REQUEST", "Sync_Request", "sync_Request", "SYNC_OFFER", "Sync_Ack"])
        default: return rng.pick(["sync_request", "sync_offer", "sync_ack", "delta", "message"])
        }
    }

    static func someHash(_ rng: inout FuzzRNG) -> [UInt8] {
        switch rng.below(10) {
        case 0: return rng.bytes(rng.pick([0, 16, 31, 33]))
        case 1: return rng.bytes(32)
        default: return rng.pick(fixtures.accounts)
        }
    }

    static func expiry(_ rng: inout FuzzRNG) -> UInt64 {
        rng.oneIn(5) ? rng.pick(AdversarialValues.unsignedEdges) : now0 + UInt64(rng.pick([0, 1, 60, 86_400, 2_592_000]))
    }

    /// A clock at the expiry's edges, around the suite clock, or anywhere.
    static func now(around expires: UInt64, _ rng: inout FuzzRNG) -> UInt64 {
        switch rng.below(6) {
        case 0, 1: return expires &+ UInt64(bitPattern: Int64(rng.pick([-1, 0, 1, -600, 600])))
        case 2: return rng.pick(AdversarialValues.unsignedEdges)
        default: return now0 &+ UInt64(bitPattern: Int64(rng.int(-300...300)))
        }
    }

    /// A sign-in request's fields (for `signin_request_seal`), its certificate slot and a clock.
    static func signinRequest(_ rng: inout FuzzRNG) -> (JSONValue, SignInFuzzGenerator.CertSlot, UInt64) {
        let s = SignInFuzzGenerator.slot(&rng)
        let now = SignInFuzzGenerator.now(around: s, &rng)
        let ts = rng.oneIn(10) ? rng.pick([UInt64.max, 1 << 63, 0, now &+ (1 << 63)])
            : now &+ UInt64(bitPattern: Int64(rng.pick([-121, -120, -119, -1, 0, 1, 119, 120, 121, Int64(rng.int(-200...200))])))
        var request = SignInFuzzGenerator.request(s, timestamp: ts, &rng)
        if rng.oneIn(6) { request = request.setting("reply_subject", AdversarialValues.hex(rng.bytes(rng.pick([0, 31, 33])), &rng)) }
        if rng.oneIn(6) { request = request.setting("xwing_pubkey", AdversarialValues.hex(rng.bytes(rng.pick([0, 1215, 1217])), &rng)) }
        return (request, s, now)
    }

    /// `own_user_id_hash or null`, `account_seed or null`, `contacts?` of a holder in account
    /// `account` (0 or 1), mostly the account's own, sometimes missing its seed or its contact,
    /// listing a contact twice, or someone else's.
    static func holder(_ rng: inout FuzzRNG, account: Int) -> [(String, JSONValue)] {
        let f = fixtures
        var own: JSONValue = AdversarialValues.hex(f.accounts[account], &rng)
        var seed: JSONValue = .hex(f.accountSeeds[account])
        switch rng.below(10) {
        case 0: own = .null
        case 1: seed = .null
        case 2: own = AdversarialValues.hex(f.accounts[1 - account], &rng)
        case 3: own = AdversarialValues.hex(rng.bytes(rng.pick([0, 31, 33])), &rng)
        case 4: seed = .hex(rng.bytes(32))
        default: break
        }
        var m: [(String, JSONValue)] = [("own_user_id_hash", own), ("account_seed", seed)]
        if !rng.oneIn(4) {
            let other = 1 - account
            var contacts: [JSONValue] = [.obj([("user_id_hash", AdversarialValues.hex(f.accounts[other], &rng)),
                                               ("channel_key", .hex(rng.oneIn(8) ? rng.bytes(32) : f.contactKeys[other]))])]
            if rng.oneIn(8) { contacts.append(contacts[0]) }
            if rng.oneIn(6) { contacts.insert(.obj([("user_id_hash", .hex(rng.bytes(32))), ("channel_key", .hex(rng.bytes(32)))]), at: 0) }
            if rng.oneIn(10) { contacts = [] }
            if rng.oneIn(5) { contacts.insert(Self.ownAccountContact(f.accounts[account], &rng), at: rng.below(contacts.count + 1)) }
            m.append(("contacts", .array(contacts)))
        }
        return m
    }

    /// A contact entry naming the holder's own account (a contact list synced with oneself in it),
    /// with a key that is not the sibling key. Targets channel-key lookups that search contacts
    /// before applying the own-account rule (SPEC §14.5: the own account always uses the sibling
    /// key).
    static func ownAccountContact(_ own: [UInt8], _ rng: inout FuzzRNG) -> JSONValue {
        .obj([("user_id_hash", .hex(own)), ("channel_key", .hex(rng.oneIn(3) ? fixtures.contactKeys[0] : rng.bytes(32)))])
    }

    /// RECEIVE: an envelope sealed by the reference from one of the pool's certificates to a pool
    /// device, with the sender's holder, and a receiver's holder, key, seed and clock.
    static func receive(payloadType: String, payload: [UInt8], _ rng: inout FuzzRNG) -> JSONValue {
        let f = fixtures
        // Mostly a certificate valid for a month; the ones expiring at the clock a quarter of the time.
        let c = rng.percent(75) ? rng.pick(f.certs.filter { $0.expires > now0 + 1 }) : rng.pick(f.certs)
        let d = rng.below(Fixtures.deviceCount)
        // The sender addresses the recipient's account: its own (sibling), or the other (contact).
        let recipientAccount = rng.percent(70) ? c.account : 1 - c.account
        var sender: [(String, JSONValue)] = [("recipient_pubkey", .hex(f.devices[d].pub)), ("recipient_user_id_hash", .hex(f.accounts[recipientAccount])),
                                             ("payload_type", .str(payloadType)), ("payload", .hex(payload)), ("sender_cert", .hex(c.cert))]
        sender += [("own_user_id_hash", .hex(f.accounts[c.account])), ("account_seed", .hex(f.accountSeeds[c.account])),
                   ("contacts", .array([.obj([("user_id_hash", .hex(f.accounts[1 - c.account])), ("channel_key", .hex(f.contactKeys[c.account]))])]))]
        sender.append(("eseed", .hex(rng.bytes(64))))
        let envelope = FuzzReference.output("envelope", "envelope_seal", .object(sender))?["envelope"] ?? .str("")
        var m: [(String, JSONValue)] = [("envelope", envelope), ("recipient_seed", .hex(seed(for: d, &rng))),
                                        ("credential_key", .hex(rng.oneIn(8) ? f.credentialKeys[1 - c.signer] : f.credentialKeys[c.signer])),
                                        ("now_s", AdversarialValues.json(rng.percent(70) ? now0 &+ UInt64(rng.below(300)) : now(around: c.expires, &rng), &rng))]
        // The receiver's holder: in the recipient account; its contact is the sender's account with
        // the key the sender's account uses towards it.
        let own = f.accounts[recipientAccount]
        var holder: [(String, JSONValue)] = [("own_user_id_hash", AdversarialValues.hex(own, &rng)), ("account_seed", .hex(f.accountSeeds[recipientAccount]))]
        switch rng.below(10) {
        case 0: holder[0].1 = .null
        case 1: holder[1].1 = .null
        case 2: holder[1].1 = .hex(rng.bytes(32))
        default: break
        }
        if !rng.oneIn(4) {
            var contacts: [JSONValue] = [.obj([("user_id_hash", AdversarialValues.hex(f.accounts[1 - recipientAccount], &rng)),
                                               ("channel_key", .hex(rng.oneIn(8) ? rng.bytes(32) : f.contactKeys[1 - recipientAccount]))])]
            if rng.oneIn(10) { contacts.append(contacts[0]) }
            if rng.oneIn(10) { contacts = [] }
            if rng.oneIn(5) { contacts.insert(Self.ownAccountContact(own, &rng), at: rng.below(contacts.count + 1)) }
            holder.append(("contacts", .array(contacts)))
        }
        m += holder
        return .object(m)
    }

    // MARK: - the pool, built once from fixed seeds

    static let edgeCerts = EdgeCertPool()

    /// SenderCerts whose signature is of one edge class each (`AdversarialSigner`: Ed25519 S not
    /// reduced, small-order and mixed-order keys and R, non-canonical encodings; ML-DSA-65 hints
    /// out of order or padded, z over its bound), with the credential key each verifies under.
    /// Targets credential-key verifiers built on stock Ed25519 and ML-DSA libraries (SPEC §9.1,
    /// §9.2, §14.6). Built lazily, one slot at a time, from fixed seeds.
    final class EdgeCertPool: @unchecked Sendable {
        static let edClasses = AdversarialSigner.Ed25519Class.allCases.filter { $0 != .genuine }
        static let mlClasses = AdversarialSigner.MLDSAClass.allCases.filter { $0 != .genuine }
        static var count: Int { edClasses.count + mlClasses.count }

        struct Entry: Sendable {
            var cert: [UInt8]
            var credentialKey: [UInt8]
        }

        private let lock = NSLock()
        private var entries: [Int: Entry] = [:]

        func cert(_ i: Int) -> Entry {
            lock.lock()
            if let e = entries[i] { lock.unlock(); return e }
            lock.unlock()
            let e = build(i)
            lock.lock()
            entries[i] = e
            lock.unlock()
            return e
        }

        private func build(_ i: Int) -> Entry {
            let f = EnvelopeFuzzGenerator.fixtures
            let (edSeed, mlSeed) = f.signerSeeds[0]
            let ed = i < Self.edClasses.count ? Self.edClasses[i] : .genuine
            let ml = i < Self.edClasses.count ? .genuine : Self.mlClasses[i - Self.edClasses.count]
            guard let signer = try? CredentialKey.Signer(ed25519Seed: edSeed, mldsaSeed: mlSeed) else { return Entry(cert: [], credentialKey: []) }
            let device = SHA256.hash(Array("pixie.fuzz.envelope.edge-device.\(i)".utf8)).bytes
            let expires = EnvelopeFuzzGenerator.now0 + 30 * 86_400
            let message = SenderCert.signedMessage(userIDHash: f.accounts[0], deviceID: device, expiresAt: expires)
            let sig = AdversarialSigner.ed25519(ed, seed: edSeed, message: message) + AdversarialSigner.mldsa(ml, key: signer.key.mldsa, message: message)
            let real = signer.publicKeyBytes
            let key = AdversarialSigner.publicKey(ed, real: Array(real.prefix(32))) + Array(real.dropFirst(32))
            // A signature of the wrong length (ML-DSA short or long) cannot be a SenderCert: encode its members by hand.
            let cert = (try? SenderCert(userIDHash: f.accounts[0], deviceID: device, expiresAt: expires, signature: sig))?.encoded
                ?? CBORWriter.encode(.object([("user_id_hash", .bytes(f.accounts[0])), ("device_id", .bytes(device)), ("expires_at_s", .unsigned(expires)), ("sig", .bytes(sig))]))
            return Entry(cert: cert, credentialKey: key)
        }
    }

    static let fixtures = Fixtures()

    struct Cert: Sendable {
        var cert: [UInt8]
        var account: Int
        var signer: Int
        var expires: UInt64
    }

    final class Fixtures: @unchecked Sendable {
        static let deviceCount = 3
        let devices: [(seed: [UInt8], pub: [UInt8])]
        let signerSeeds: [([UInt8], [UInt8])]
        let credentialKeys: [[UInt8]]
        /// Two accounts' user-id hashes and seeds; `contactKeys[a]` is the key account a's devices
        /// share with the other account (both sides hold the same contact key).
        let accounts: [[UInt8]]
        let accountSeeds: [[UInt8]]
        let contactKeys: [[UInt8]]
        let accountSeed: [UInt8]
        let certs: [Cert]

        init() {
            func h(_ s: String) -> [UInt8] { SHA256.hash(Array("pixie.fuzz.envelope.\(s)".utf8)).bytes }
            devices = (0..<Self.deviceCount).map { i in
                let seed = h("device.\(i)")
                return (seed, (try? XWing.PrivateKey(seed: seed).publicKey.rawRepresentation) ?? [])
            }
            signerSeeds = [(h("credential.0.ed25519"), h("credential.0.mldsa")), (h("credential.1.ed25519"), h("credential.1.mldsa"))]
            accounts = [h("account.0"), h("account.1")]
            accountSeeds = [h("account-seed.0"), h("account-seed.1")]
            accountSeed = accountSeeds[0]
            let contact = h("contact-key")
            contactKeys = [contact, contact]
            var keys: [[UInt8]] = []
            var certs: [Cert] = []
            let expiries: [UInt64] = [EnvelopeFuzzGenerator.now0 + 30 * 86_400, EnvelopeFuzzGenerator.now0, EnvelopeFuzzGenerator.now0 + 1]
            for (s, seeds) in signerSeeds.enumerated() {
                let signer: JSONValue = .obj([("ed25519_seed", .hex(seeds.0)), ("mldsa_seed", .hex(seeds.1))])
                var key: [UInt8] = []
                for (k, (account, expires)) in [(0, expiries[0]), (1, expiries[0]), (0, expiries[1]), (0, expiries[2])].enumerated() where s == 0 || k < 2 {
                    let device = devices[(k + account) % Self.deviceCount].pub
                    let out = FuzzReference.output("envelope", "sender_cert_issue", .obj([
                        ("signer", signer), ("user_id_hash", .hex(accounts[account])), ("device_id", .hex(SHA256.hash(device).bytes)),
                        ("expires_at_s", .u(expires))]))
                    key = out?.hexBytes("public_key") ?? key
                    certs.append(Cert(cert: out?.hexBytes("cert") ?? [], account: account, signer: s, expires: expires))
                }
                keys.append(key)
            }
            credentialKeys = keys
            self.certs = certs
        }
    }
}

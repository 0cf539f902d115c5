import Primitives
import Vectors

/// `sync_offer` (SPEC §7): the three payloads as inputs and as CBOR (built by the reference's own
/// encode ops, so the CBOR mutators start from canonical bytes), snapshots of random row stores
/// (contact key fields, calendar rows, per-device and residency fields, provider keys), sealed
/// blobs with offers that lie about size, hash or key, account gates with hashes of every length,
/// blob caps at the blob's size, import into stores that already hold some keys, and times around
/// every re-send.
struct SyncOfferFuzzGenerator: FuzzGenerator {
    var format: String { "sync_offer" }
    var ops: [String] {
        ["encode_request", "decode_request", "encode_offer", "decode_offer", "encode_ack", "decode_ack",
         "encode_snapshot", "decode_snapshot", "seal", "receive", "handle_request", "import", "schedule",
         "wake_class", "relay_wake"]
    }

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        switch op {
        case "encode_request": return Self.request(&rng)
        case "decode_request": return Self.cbor("encode_request", Self.request(&rng))
        case "encode_offer": return Self.offer(&rng)
        case "decode_offer": return Self.cbor("encode_offer", Self.offer(&rng))
        case "encode_ack": return Self.ack(&rng)
        case "decode_ack": return Self.cbor("encode_ack", Self.ack(&rng))
        case "encode_snapshot": return Self.snapshot(&rng)
        case "decode_snapshot": return Self.cbor("encode_snapshot", Self.snapshot(&rng))
        case "seal":
            return .obj([("snapshot", Self.snapshot(&rng)), ("key", AdversarialValues.hex(rng.bytes(32), &rng)),
                         ("nonce", AdversarialValues.hex(rng.bytes(12), &rng)), ("blob_id", AdversarialValues.hex(rng.bytes(32), &rng))])
        case "receive": return Self.receive(&rng)
        case "handle_request":
            var m: [(String, JSONValue)] = [("request", Self.cbor("encode_request", Self.request(&rng))["cbor"] ?? .str(""))]
            Self.gate(&m, &rng)
            return .object(m)
        case "import":
            let store = Self.snapshot(&rng, rows: 3)
            var list: [JSONValue] = []
            for _ in 0..<rng.pick([0, 1, 1, 2, 3]) {
                // Often the same keys as the store, with other content: insert-if-absent decides.
                list.append(rng.bool() ? Self.variant(of: store, &rng) : Self.snapshot(&rng, rows: 3))
            }
            return .obj([("store", store), ("snapshots", .array(list))])
        case "schedule":
            let k = Int64(rng.int(0...9))
            let t: Int64 = rng.oneIn(6) ? rng.pick([Int64.max, -1, 1 << 53, 1 << 53 + 1, 0]) : k * 5_000 + Int64(rng.pick([-1, 0, 0, 1, 2_500]))
            return .obj([("elapsed_ms", AdversarialValues.json(t, &rng))])
        case "wake_class":
            let t = rng.pick(["sync_request", "sync_offer", "sync_ack", "signin_request", "SYNC_REQUEST", "Sync_Offer", "sync_ack ",
                              "sync", "", "message", "sync_snapshot", "sync_request\u{0}"])
            return .obj([("payload_type", .str(t))])
        case "relay_wake":
            var events: [JSONValue] = []
            for _ in 0..<rng.pick([0, 1, 2, 3, 5, 8, 12]) {
                events.append(.str(rng.percent(90) ? rng.pick(["sync", "sync", "silent", "reconnect"]) : rng.pick(["Sync", "SYNC", "wake", ""])))
            }
            return .obj([("events", .array(events))])
        default:
            return .obj([])
        }
    }

    /// `{cbor: hex}` from the reference's encode op (or an empty string when the input is refused).
    static func cbor(_ op: String, _ input: JSONValue) -> JSONValue {
        let out = FuzzReference.output("sync_offer", op, input)
        return .obj([("cbor", out?["cbor"] ?? .str(""))])
    }

    static func request(_ rng: inout FuzzRNG) -> JSONValue {
        .obj([("request_id", AdversarialValues.hex(rng.bytes(16), &rng)), ("reply_pubkey", AdversarialValues.hex(rng.bytes(SyncRequest.replyPubkeyByteCount), &rng)),
              ("timestamp_ms", AdversarialValues.json(rng.oneIn(4) ? AdversarialValues.unsigned(&rng) : 1_767_225_600_000 + UInt64(rng.below(1 << 30)), &rng))])
    }

    static func offer(_ rng: inout FuzzRNG) -> JSONValue {
        .obj([("blob_id", AdversarialValues.hex(rng.bytes(32), &rng)), ("key", AdversarialValues.hex(rng.bytes(32), &rng)),
              ("nonce", AdversarialValues.hex(rng.bytes(12), &rng)), ("sha256", AdversarialValues.hex(rng.bytes(32), &rng)),
              ("size_bytes", AdversarialValues.json(AdversarialValues.unsigned(&rng, near: 1_500), &rng))])
    }

    static func ack(_ rng: inout FuzzRNG) -> JSONValue {
        .obj([("request_id", AdversarialValues.hex(rng.bytes(16), &rng)), ("ok", .bool(rng.bool()))])
    }

    /// The contact key fields a snapshot row carries beyond §4.4 (SPEC §7.4).
    static let contactSnapshotFields: [(String, Int?)] = [("pubkey", nil), ("accountSigningPubkey", nil), ("channelKey", 32)]

    /// A snapshot in vector form: rows of a few namespaces (keys distinct), provider keys.
    static func snapshot(_ rng: inout FuzzRNG, rows max: Int = 4) -> JSONValue {
        var nss: [(String, JSONValue)] = []
        for ns in rng.shuffled(Namespace.allCases) where rng.oneIn(4) || (nss.isEmpty && rng.oneIn(3)) {
            var list: [JSONValue] = []
            var keys: [String] = []
            for _ in 0..<rng.int(1...max) {
                var r = StateDigestFuzzGenerator.row(ns, &rng)
                let key = r[LeafSchema.schema(for: ns).keyField]?.stringValue ?? ""
                if keys.contains(where: { $0.lowercased() == key.lowercased() }) && !rng.oneIn(10) { continue }
                keys.append(key)
                if ns == .contacts {
                    for (name, n) in contactSnapshotFields where rng.bool() {
                        r = r.setting(name, AdversarialValues.hex(rng.bytes(n ?? rng.pick([32, 33, 0])), &rng))
                    }
                }
                list.append(r)
            }
            nss.append((ns.rawValue, .array(list)))
        }
        var m: [(String, JSONValue)] = [("namespaces", .object(nss))]
        if rng.oneIn(3) {
            var keys: [(String, JSONValue)] = []
            for _ in 0..<rng.int(1...3) {
                let name = rng.pick(["openai", "anthropic", "é", "e\u{301}", "\u{1F600}", "\u{FF5E}", "Z", "a"])
                if !keys.contains(where: { $0.0.utf8.elementsEqual(name.utf8) }) { keys.append((name, .str(AdversarialValues.text(&rng)))) }
            }
            m.append(("provider_keys", .object(keys)))
        }
        return .object(m)
    }

    /// Another snapshot holding some of the same keys with other content.
    static func variant(of s: JSONValue, _ rng: inout FuzzRNG) -> JSONValue {
        guard let nss = s["namespaces"]?.objectValue else { return s }
        var out: [(String, JSONValue)] = []
        for (name, rows) in nss {
            guard let ns = Namespace(rawValue: name), let list = rows.arrayValue else { continue }
            let key = LeafSchema.schema(for: ns).keyField
            var changed: [JSONValue] = list.map { r in rng.bool() ? StateDigestFuzzGenerator.row(ns, &rng).setting(key, r[key] ?? .null) : r }
            if rng.bool() { changed.append(StateDigestFuzzGenerator.row(ns, &rng)) }
            out.append((name, .array(changed)))
        }
        var v = s.setting("namespaces", .object(out))
        if let pk = s["provider_keys"]?.objectValue { v = v.setting("provider_keys", .object(pk.map { ($0.0, .str("other")) })) }
        return v
    }

    /// Own and sender user-id hashes: equal, different, one absent, of other lengths.
    static func gate(_ m: inout [(String, JSONValue)], _ rng: inout FuzzRNG) {
        let length = rng.percent(75) ? 32 : rng.pick([0, 16, 31, 33, 64])
        let own = rng.bytes(length)
        var sender = own
        if rng.oneIn(4) { sender = rng.bytes(rng.percent(80) ? length : 32) }
        if !rng.oneIn(8) { m.append(("own_user_id_hash", AdversarialValues.hex(own, &rng))) }
        m.append(("sender_user_id_hash", AdversarialValues.hex(sender, &rng)))
    }

    /// A blob sealed from a snapshot (or from bytes that are not one), its offer, and the faults a
    /// receiver meets: a size that lies, a tampered blob, an offer hash of the tampered bytes, a
    /// short blob, a cap at the blob's size.
    static func receive(_ rng: inout FuzzRNG) -> JSONValue {
        let key = rng.bytes(32), nonce = rng.bytes(12), blobID = rng.bytes(32), requestID = rng.bytes(16)
        var plaintext: [UInt8]
        let snap = snapshot(&rng, rows: 2)
        plaintext = (FuzzReference.output("sync_offer", "encode_snapshot", snap)?["cbor"]?.stringValue).flatMap(Hex.decode) ?? []
        if rng.oneIn(6) { plaintext = CBORMutator.mutate(plaintext, rng: &rng) ?? rng.bytes(rng.below(40)) }
        var blob = (try? SyncBlob.seal(plaintext, key: key, nonce: nonce)) ?? []
        var offer = SyncBlob.offer(for: blob, blobID: blobID, key: key, nonce: nonce)
        let size = UInt64(blob.count)
        switch blob.isEmpty ? 99 : rng.below(12) {
        case 0: offer.sizeBytes = rng.pick([0, size &- 1, size + 1, SyncBlob.syncMaxBlobBytes + 1])
        case 1: blob[rng.below(blob.count)] ^= 0x01
        case 2:
            blob[rng.below(blob.count)] ^= 0x01
            offer.sha256 = SHA256.hash(blob).bytes
        case 3:
            blob = Array(blob.prefix(rng.pick([0, 1, 15, 16])))
            offer.sizeBytes = UInt64(blob.count)
            offer.sha256 = SHA256.hash(blob).bytes
        case 4: offer.key = rng.bytes(32)
        default: break
        }
        let size2 = UInt64(blob.count)
        var m: [(String, JSONValue)] = [("offer", AdversarialValues.hex(offer.encoded, &rng)), ("request_id", AdversarialValues.hex(requestID, &rng)),
                                        ("blob", AdversarialValues.hex(blob, &rng))]
        gate(&m, &rng)
        if rng.oneIn(3) {
            let cap = rng.pick([size2, size2 &- 1, size2 + 1, 0, SyncBlob.syncMaxBlobBytes, offer.sizeBytes, offer.sizeBytes &- 1])
            m.append(("max_blob_bytes", AdversarialValues.json(cap, &rng)))
        }
        return .object(m)
    }
}

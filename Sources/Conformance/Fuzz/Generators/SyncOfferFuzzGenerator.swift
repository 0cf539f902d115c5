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

    // MARK: - format-aware faults

    func invalidInput(op: String, valid: JSONValue, rng: inout FuzzRNG) -> JSONValue? {
        func hexMember(_ name: String, _ percent: Int, _ f: ([UInt8], inout FuzzRNG) -> [UInt8]?) -> JSONValue? {
            guard rng.percent(percent), let b = valid.hexBytes(name), let bad = f(b, &rng) else { return nil }
            return valid.setting(name, .hex(bad))
        }
        switch op {
        case "decode_request", "decode_offer", "decode_ack": return hexMember("cbor", 50, Self.payloadFault)
        case "handle_request", "receive":
            if rng.percent(15) { return Self.nullOptional(valid, ["own_user_id_hash", "max_blob_bytes"], &rng) }
            return hexMember(op == "receive" ? "offer" : "request", 30, Self.payloadFault)
        case "decode_snapshot": return hexMember("cbor", 50, Self.snapshotFault)
        case "encode_snapshot":
            if rng.percent(15) { return Self.nullOptional(valid, ["provider_keys"], &rng) }
            return rng.percent(40) ? Self.snapshotInputTwoFaults(valid, &rng) : nil
        case "seal":
            guard rng.percent(40), let snap = valid["snapshot"] else { return nil }
            guard let bad = rng.percent(30) ? Self.nullOptional(snap, ["provider_keys"], &rng) : Self.snapshotInputTwoFaults(snap, &rng) else { return nil }
            return valid.setting("snapshot", bad)
        default: return nil
        }
    }

    /// A payload (request, offer, ack) with one of the faults stock CBOR decoders and hurried
    /// readers let through or report differently (SPEC §7.2 decoding steps 1–5).
    static func payloadFault(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        switch rng.below(7) {
        case 0, 1: return twoMemberFaults(bytes, &rng)
        case 2: return typeTagCase(bytes, &rng)
        case 6: return repeatedKey(bytes, &rng)
        case 3: return nullMember(bytes, &rng)
        case 4: return floatMember(bytes, &rng)
        default: return CBORMutator.countBeyondInput(bytes, rng: &rng)
        }
    }

    /// Two members broken at once with different codes (left out, of another CBOR type, of the
    /// wrong length). Targets readers that check members in the order the map encodes them (or
    /// that notice missing members last) instead of the table's order (SPEC §7.2 [R7.2-8]).
    static func twoMemberFaults(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        guard var m = CBORMutator.topMap(bytes) else { return nil }
        let members = m.indices.filter { CBORMutator.keyText(m[$0].0) != "type" }
        guard members.count >= 2 else { return nil }
        let picked = Array(rng.shuffled(members).prefix(2))
        var faults = rng.shuffled(["missing", "type", "length"])
        var removed: [Int] = []
        for i in picked {
            var f = faults.removeFirst()
            if f == "length", case .bytes = m[i].1.kind {} else if f == "length" { f = faults.removeFirst() }
            switch f {
            case "missing": removed.append(i)
            case "type": m[i].1 = CBORMutator.retyped(m[i].1)
            default:
                if case .bytes(var b) = m[i].1.kind {
                    if rng.bool() || b.isEmpty { b.append(0) } else { b.removeLast() }
                    m[i].1 = CBORMutator.Node(.bytes(b))
                }
            }
        }
        for i in removed.sorted(by: >) { m.remove(at: i) }
        return CBORMutator.encodedMap(m)
    }

    /// A member written twice: right after itself (a duplicate) or after the next key (also out of
    /// order). Targets stock decoders that fill a dictionary, last write winning, and readers that
    /// check repeats against every earlier key before the order (SPEC §1: duplicates and order are
    /// checked against the previous key).
    static func repeatedKey(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        guard var m = CBORMutator.topMap(bytes), !m.isEmpty else { return nil }
        let i = rng.below(m.count)
        let key: CBORMutator.Node = m[i].0
        let value: CBORMutator.Node = rng.bool() ? m[i].1 : CBORMutator.retyped(m[i].1)
        let at = rng.bool() || i + 1 >= m.count ? i + 1 : i + 2
        m.insert((key, value), at: at)
        return CBORMutator.encodedMap(m)
    }

    /// An optional input member present as JSON null. Targets readers that treat null as absent
    /// (SPEC §2.2: `name?` members may be left out; null is a value of the wrong type, [R7.9-4]).
    static func nullOptional(_ v: JSONValue, _ names: [String], _ rng: inout FuzzRNG) -> JSONValue? {
        v.objectValue == nil ? nil : v.setting(rng.pick(names), .null)
    }

    /// The `type` tag in another case (`SYNC_REQUEST`, `Sync_Offer`). Targets readers that compare
    /// enum texts case-insensitively (SPEC §7.2: the tag is compared byte for byte).
    static func typeTagCase(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        guard var m = CBORMutator.topMap(bytes), let i = m.firstIndex(where: { CBORMutator.keyText($0.0) == "type" }),
              case .text(let t) = m[i].1.kind else { return nil }
        let s = String(decoding: t, as: UTF8.self)
        let cased = rng.pick([s.uppercased(), s.prefix(1).uppercased() + s.dropFirst(), s.split(separator: "_").map { $0.capitalized }.joined(separator: "_")])
        m[i].1 = CBORMutator.Node(.text(Array(cased.utf8)))
        return CBORMutator.encodedMap(m)
    }

    /// A member whose value is CBOR null. Targets decoders that fold null into "absent" (SPEC §1
    /// and §7.2: null is a value of the wrong type, not a missing member).
    static func nullMember(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        guard var m = CBORMutator.topMap(bytes), !m.isEmpty else { return nil }
        let members = m.indices.filter { CBORMutator.keyText(m[$0].0) != "type" }
        m[rng.pick(members.isEmpty ? Array(m.indices) : members)].1 = CBORMutator.Node(.simple(22))
        return CBORMutator.encodedMap(m)
    }

    /// An unsigned member written as a float of the same value. Targets decoders that accept any
    /// integral number where the table says major type 0 (SPEC §7.2).
    static func floatMember(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        guard var m = CBORMutator.topMap(bytes) else { return nil }
        guard let i = rng.shuffled(Array(m.indices)).first(where: { CBORMutator.integralFloat(m[$0].1, rng: &rng) != nil }),
              let f = CBORMutator.integralFloat(m[i].1, rng: &rng) else { return twoMemberFaults(bytes, &rng) }
        m[i].1 = f
        return CBORMutator.encodedMap(m)
    }

    /// A snapshot's CBOR with one of the faults below in a row or in the namespace map.
    static func snapshotFault(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        switch rng.below(6) {
        case 0, 1: return inRow(bytes, &rng, rowTwoFaults)
        case 2: return badRowThenBadNamespace(bytes, &rng)
        case 3: return inRow(bytes, &rng) { row, _, rng in
            // A row field null (an optional one is then "absent" to a folding decoder).
            guard !row.isEmpty else { return false }
            row[rng.below(row.count)].1 = CBORMutator.Node(.simple(22))
            return true
        }
        case 4: return inRow(bytes, &rng) { row, _, rng in
            guard let i = rng.shuffled(Array(row.indices)).first(where: { if case .unsigned = row[$0].1.kind { return true } else { return false } }),
                  let f = CBORMutator.integralFloat(row[i].1, rng: &rng) else { return false }
            row[i].1 = f
            return true
        }
        default: return CBORMutator.countBeyondInput(bytes, rng: &rng)
        }
    }

    /// The snapshot with `f` applied to one of its rows (nil when it has none or `f` declines).
    static func inRow(_ bytes: [UInt8], _ rng: inout FuzzRNG,
                      _ f: (inout [(CBORMutator.Node, CBORMutator.Node)], Namespace, inout FuzzRNG) -> Bool) -> [UInt8]? {
        guard var top = CBORMutator.topMap(bytes), let n = top.firstIndex(where: { CBORMutator.keyText($0.0) == "namespaces" }),
              case .map(var nss) = top[n].1.kind, !nss.isEmpty else { return nil }
        let k = rng.below(nss.count)
        guard let ns = CBORMutator.keyText(nss[k].0).flatMap(Namespace.init(rawValue:)), case .array(var rows) = nss[k].1.kind, !rows.isEmpty else { return nil }
        let r = rng.below(rows.count)
        guard case .map(var row) = rows[r].kind, f(&row, ns, &rng) else { return nil }
        rows[r] = CBORMutator.Node(.map(row))
        nss[k].1 = CBORMutator.Node(.array(rows))
        top[n].1 = CBORMutator.Node(.map(nss))
        return CBORMutator.encodedMap(top)
    }

    /// A snapshot row with two faults of different codes (an unknown member, a value of another
    /// CBOR type, a byte string of the wrong length) on two members. Targets readers that walk
    /// the schema and complain about leftovers last, instead of checking members in encoding
    /// order (SPEC §7.4 [R7.4-17]).
    static func rowTwoFaults(_ row: inout [(CBORMutator.Node, CBORMutator.Node)], _ ns: Namespace, _ rng: inout FuzzRNG) -> Bool {
        let schema = LeafSchema.schema(for: ns)
        func fixedLength(_ i: Int) -> Bool {
            guard let name = CBORMutator.keyText(row[i].0), let f = schema.fields.first(where: { $0.name == name }) else { return false }
            switch f.kind {
            case .bytes(let n): return n != nil
            case .normalizedHash: return true
            default: return false
            }
        }
        guard row.count >= 2 else { return false }
        var faults = rng.shuffled(["unknown", "type", "length"])
        var members = rng.shuffled(Array(row.indices))
        for _ in 0..<2 {
            let f = faults.removeFirst()
            switch f {
            case "unknown":
                let key = CBORMutator.Node(.text(Array(rng.pick(["a", "id", "x_fuzz", "zzzzzzzzzzzzzzzzzzzzzzzz"]).utf8)))
                let kb = CBORMutator.encoded(key)
                guard let at = CBORMutator.sortedIndex(row, kb) else { continue }
                row.insert((key, CBORMutator.Node(.unsigned(1))), at: at)
                members = members.map { $0 >= at ? $0 + 1 : $0 }
            case "length":
                guard let i = members.first(where: fixedLength), case .bytes(var b) = row[i].1.kind else { fallthrough }
                b.append(0)
                row[i].1 = CBORMutator.Node(.bytes(b))
                members.removeAll { $0 == i }
            default:
                guard let i = members.first else { return true }
                row[i].1 = CBORMutator.retyped(row[i].1)
                members.removeFirst()
            }
        }
        return true
    }

    /// A bad row in one namespace and, later in the map, a namespace entry that is itself wrong (an
    /// unknown name, an empty or non-array row list). Targets decoders that check every namespace
    /// entry before any row (SPEC §7.4 [R7.4-16]: one namespace completely before the next).
    static func badRowThenBadNamespace(_ bytes: [UInt8], _ rng: inout FuzzRNG) -> [UInt8]? {
        guard let withBadRow = inRow(bytes, &rng, { row, ns, rng in
            guard !row.isEmpty else { return false }
            let i = rng.below(row.count)
            row[i].1 = CBORMutator.retyped(row[i].1)
            return true
        }), var top = CBORMutator.topMap(withBadRow), let n = top.firstIndex(where: { CBORMutator.keyText($0.0) == "namespaces" }),
              case .map(var nss) = top[n].1.kind else { return nil }
        if rng.bool() || nss.count < 2 {
            // An unknown name long enough to sort after every real one.
            let key = CBORMutator.Node(.text(Array(rng.pick(["zzzzzzzzzzzzzzzzzzzz", "messages_archive_v2", "Notebook_entries_x"]).utf8)))
            guard let at = CBORMutator.sortedIndex(nss, CBORMutator.encoded(key)) else { return nil }
            nss.insert((key, CBORMutator.Node(.array([CBORMutator.Node(.map([]))]))), at: at)
        } else {
            nss[nss.count - 1].1 = rng.bool() ? CBORMutator.Node(.array([])) : CBORMutator.Node(.map([]))
        }
        top[n].1 = CBORMutator.Node(.map(nss))
        return CBORMutator.encodedMap(top)
    }

    /// A snapshot input (vector form) whose `namespaces` lists, out of §4.1 order, a namespace with
    /// a bad row before an unknown namespace name or before another bad row of another code.
    /// Targets readers that take the JSON members as they come (SPEC §7.9: names first, then the
    /// namespaces in §4.1 order).
    static func snapshotInputTwoFaults(_ snap: JSONValue, _ rng: inout FuzzRNG) -> JSONValue? {
        var members: [(String, JSONValue)] = (snap["namespaces"]?.objectValue ?? []).filter { !($0.1.arrayValue ?? []).isEmpty }
        guard !members.isEmpty else { return nil }
        // Namespaces in reverse §4.1 order.
        members.sort { (Namespace(rawValue: $1.0)?.rawValueIndex ?? 0) < (Namespace(rawValue: $0.0)?.rawValueIndex ?? 0) }
        func broken(_ k: Int, _ fault: RowFaults.Fault) {
            guard let ns = Namespace(rawValue: members[k].0), var rows = members[k].1.arrayValue, !rows.isEmpty else { return }
            let r = rng.below(rows.count)
            rows[r] = RowFaults.oneFault(rows[r], ns, fault, &rng)
            members[k].1 = .array(rows)
        }
        var faults = rng.shuffled([RowFaults.Fault.badType, .missing, .unknown, .badLength])
        broken(0, faults.removeFirst())
        if members.count >= 2 && rng.bool() {
            broken(members.count - 1, faults.removeFirst())
        } else {
            members.append((rng.pick(["Messages", "unknown", "messages ", "zz"]), .array([])))
        }
        return snap.setting("namespaces", .object(members))
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

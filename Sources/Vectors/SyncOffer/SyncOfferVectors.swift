import Primitives

/// The `sync_offer` golden cases. Every claim a case makes is checked while generating: each
/// receive case's reason, and for the ordering cases that the case really tells a wrong receiver
/// apart (a stale-hash blob also fails authentication; a size-only mismatch would otherwise
/// import; a stranger's offer would otherwise be accepted).
enum SyncOfferVectors {
    struct Builder {
        var cases: [VectorCase] = []
        mutating func add(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR, expected: VectorCase.Expected) {
            cases.append(VectorCase(id: "sync_offer/\(op)/\(id)", op: op, comment: comment, flags: flags, input: input, expected: expected))
        }

        /// A case the reference handler, run on the input as the runner sends it, must reject with exactly `code`.
        mutating func error(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR, _ code: ErrorCode) throws {
            let r = Result { () throws(WireError) -> JSONValue in try SyncOfferHandler().run(op: op, input: input.json) }
            guard case .failure(let e) = r, e.code == code else {
                try check(false, "sync_offer/\(op)/\(id): expected \(code.rawValue), got \(r)"); return
            }
            add(id, op, comment, flags: ["negative"] + flags, input: input, expected: .error(code))
        }
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "sync_offer generator check failed: \(what)") }
    }

    /// Fixed material, all from seeded generators (no system randomness).
    struct Fixture {
        var g = SeededGenerator(seed: 0x5_c0ff_e0ff_e7)
        let requestID: [UInt8]
        let replyPubkey: [UInt8]
        let key: [UInt8]
        let nonce: [UInt8]
        let blobID: [UInt8]
        let ownHash: [UInt8]
        let strangerHash: [UInt8]
        let snapshot: SyncSnapshot
        let plaintext: [UInt8]
        let blob: [UInt8]
        let offer: SyncOffer
        let timestampMs: UInt64 = UInt64(SampleRows.clock) + 1_234

        init() throws {
            requestID = g.bytes(16)
            replyPubkey = g.bytes(SyncRequest.replyPubkeyByteCount)
            key = g.bytes(32)
            nonce = g.bytes(12)
            blobID = g.bytes(32)
            ownHash = g.bytes(32)
            strangerHash = g.bytes(32)
            snapshot = try SyncOfferVectors.sampleSnapshot()
            plaintext = snapshot.encoded
            blob = try SyncBlob.seal(plaintext, key: key, nonce: nonce)
            offer = SyncBlob.offer(for: blob, blobID: blobID, key: key, nonce: nonce)
        }

        var request: SyncRequest { SyncRequest(requestID: requestID, replyPubkey: replyPubkey, timestampMs: timestampMs) }
    }

    static func sampleSnapshot() throws -> SyncSnapshot {
        try SyncSnapshot([
            .settings: [SampleRows.typical(.settings)],
            .messages: [SampleRows.typical(.messages, index: 0), SampleRows.typical(.messages, index: 1)],
            .contacts: [SampleRows.typical(.contacts)],
            .notebook: [SampleRows.typical(.notebook)],
            .plans: [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)],
        ])
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        let f = try Fixture()
        try messageCases(&b, f)
        try snapshotCases(&b, f)
        try sealCases(&b, f)
        try receiveCases(&b, f)
        try handleRequestCases(&b, f)
        try importCases(&b)
        try scheduleCases(&b)
        return VectorFile(format: "sync_offer",
                          description: "Snapshot sync: sync_request, sync_offer, sync_ack, the sealed snapshot blob, the receiver procedure, import, re-sends (SPEC.md §7)",
                          cases: b.cases)
    }

    // MARK: raw CBOR for malformed inputs

    static func enc(_ c: CBOR) -> [UInt8] { CBORWriter.encode(c) }

    /// A map written exactly as given: pairs of already-encoded keys and values, no sorting.
    static func rawMap(_ pairs: [([UInt8], [UInt8])]) -> [UInt8] {
        var w = CBORWriter()
        w.writeMapHeader(pairs.count)
        var out = w.bytes
        for (k, v) in pairs { out += k + v }
        return out
    }

    /// The canonical encoded pairs of a text-keyed map, in §1 order.
    static func sortedPairs(_ entries: [(String, CBOR)]) -> [([UInt8], [UInt8])] {
        entries.map { (enc(.text($0.0)), enc($0.1)) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }
    }

    /// The same byte string with a non-shortest length head (one step longer than needed).
    static func longHeadBytes(_ b: [UInt8]) -> [UInt8] {
        if b.count < 24 { return [0x58, UInt8(b.count)] + b }
        if b.count < 256 { return [0x59, 0x00, UInt8(b.count)] + b }
        return [0x5a, 0x00, 0x00, UInt8(b.count >> 8), UInt8(b.count & 0xff)] + b
    }

    // MARK: messages

    enum Shape { case bytes(Int), uint, bool }

    struct Message {
        let name: String            // request | offer | ack
        let tag: SyncPayloadType
        let fields: [(String, Shape)]
        let value: CBOR             // the valid decode output (vector form)
        let wire: [(String, CBOR)]  // the wire members, `type` included
    }

    static func messageCases(_ b: inout Builder, _ f: Fixture) throws {
        let req = f.request
        let ack = SyncAck(requestID: f.requestID, ok: true)
        let messages = [
            Message(name: "request", tag: .syncRequest,
                    fields: [("request_id", .bytes(16)), ("reply_pubkey", .bytes(1216)), ("timestamp_ms", .uint)],
                    value: SyncOfferOutput.request(req), wire: wireMembers(req.tree)),
            Message(name: "offer", tag: .syncOffer,
                    fields: [("blob_id", .bytes(32)), ("key", .bytes(32)), ("nonce", .bytes(12)), ("sha256", .bytes(32)), ("size_bytes", .uint)],
                    value: SyncOfferOutput.offer(f.offer), wire: wireMembers(f.offer.tree)),
            Message(name: "ack", tag: .syncAck, fields: [("request_id", .bytes(16)), ("ok", .bool)],
                    value: SyncOfferOutput.ack(ack), wire: wireMembers(ack.tree)),
        ]
        let handler = SyncOfferHandler()

        // Valid encodings, both directions.
        var valid: [(String, String, Message, CBOR)] = []
        for m in messages { valid.append(("typical", "a typical \(m.tag.rawValue)", m, m.value)) }
        var maxTS = req; maxTS.timestampMs = UInt64.max
        valid.append(("timestamp-max", "timestamp_ms 2^64-1: an 8-byte head; JSON carries it as a decimal string", messages[0], SyncOfferOutput.request(maxTS)))
        var zeroTS = req; zeroTS.timestampMs = 0
        valid.append(("timestamp-zero", "timestamp_ms 0: a one-byte head", messages[0], SyncOfferOutput.request(zeroTS)))
        var emptyOffer = f.offer; emptyOffer.sizeBytes = 0
        valid.append(("size-zero", "size_bytes 0 decodes (the receiver, not the decoder, refuses a blob shorter than a tag)", messages[1], SyncOfferOutput.offer(emptyOffer)))
        valid.append(("ok-false", "a refusal", messages[2], SyncOfferOutput.ack(SyncAck(requestID: f.requestID, ok: false))))
        for (name, comment, m, value) in valid {
            let out = try handler.run(op: "encode_\(m.name)", input: value.json)
            guard let hex = out["cbor"]?.stringValue, let bytes = Hex.decode(hex) else { throw WireError(.inputBadValue, "encode \(m.name)") }
            let decoded = try handler.run(op: "decode_\(m.name)", input: SyncOfferOutput.cbor(bytes).json)
            try check(decoded == value.json, "\(m.name) \(name) round trip")
            b.add("valid/\(name)", "encode_\(m.name)", comment + ": its one canonical encoding", input: value, expected: .output(SyncOfferOutput.cbor(bytes)))
            b.add("valid/\(name)", "decode_\(m.name)", comment, input: SyncOfferOutput.cbor(bytes), expected: .output(value))
        }
        // The fixed key order of each message, pinned by bytes.
        try check(Hex.encode(messages[2].wire.isEmpty ? [] : CBORWriter.encode(ack.tree)).hasPrefix("a3626f6bf5647479706568"), "ack key order ok, type, request_id")

        // Encode: bad vector input.
        func bad(_ m: Message, _ name: String, _ comment: String, _ change: (inout [CBORMapEntry]) -> Void, _ code: ErrorCode) {
            guard case .map(var e) = m.value else { return }
            change(&e)
            b.add("input/\(name)", "encode_\(m.name)", comment, flags: ["negative"], input: .map(e), expected: .error(code))
        }
        bad(messages[0], "request-id-15-bytes", "request_id of 15 bytes", { $0[0].value = .bytes([UInt8](repeating: 1, count: 15)) }, .inputBadLength)
        bad(messages[0], "reply-pubkey-32-bytes", "a 32-byte key where the X-Wing key of 1,216 bytes belongs", { $0[1].value = .bytes([UInt8](repeating: 1, count: 32)) }, .inputBadLength)
        bad(messages[0], "missing-timestamp", "no timestamp_ms", { $0.remove(at: 2) }, .inputMissingField)
        bad(messages[1], "key-31-bytes", "an AES-256 key of 31 bytes", { $0[1].value = .bytes([UInt8](repeating: 1, count: 31)) }, .inputBadLength)
        bad(messages[1], "size-negative", "size_bytes -1", { $0[4].value = .int(-1) }, .inputBadType)
        bad(messages[2], "ok-not-bool", "ok given as 1", { $0[1].value = .unsigned(1) }, .inputBadType)

        // Decode: malformed bytes of every message.
        for m in messages { try malformed(&b, m, others: messages.filter { $0.tag != m.tag }) }
    }

    static func wireMembers(_ tree: CBOR) -> [(String, CBOR)] {
        guard case .map(let e) = tree else { return [] }
        return e.compactMap { if case .text(let k) = $0.key { return (k, $0.value) } else { return nil } }
    }

    static func malformed(_ b: inout Builder, _ m: Message, others: [Message]) throws {
        let op = "decode_\(m.name)"
        let good = enc(.object(m.wire))
        var cases: [(String, String, [UInt8], ErrorCode)] = []
        func entries(_ change: (inout [(String, CBOR)]) -> Void) -> [UInt8] {
            var w = m.wire
            change(&w)
            return enc(.object(w))
        }
        func set(_ w: inout [(String, CBOR)], _ k: String, _ v: CBOR?) {
            if let i = w.firstIndex(where: { $0.0 == k }) {
                if let v { w[i].1 = v } else { w.remove(at: i) }
            } else if let v { w.append((k, v)) }
        }
        let sorted = sortedPairs(m.wire)
        cases += [
            ("empty", "no bytes at all", [], .cborTruncated),
            ("truncated-last-byte", "the last byte cut off", Array(good.dropLast()), .cborTruncated),
            ("truncated-half", "cut in half", Array(good.prefix(good.count / 2)), .cborTruncated),
            ("trailing-byte", "one byte after the map", good + [0x00], .cborTrailingBytes),
            ("trailing-map", "a second map after the first", good + good, .cborTrailingBytes),
            ("map-head-long", "the map's length in a one-byte argument where the initial byte holds it", [0xb8, UInt8(m.wire.count)] + good.dropFirst(), .cborNonCanonical),
            ("indefinite-map", "an indefinite-length map", [0xbf] + good.dropFirst() + [0xff], .cborIndefiniteLength),
            ("keys-unsorted", "members in the reverse of the §1 order", rawMap(sorted.reversed()), .cborUnsortedMapKeys),
            ("key-duplicated", "the last member twice", rawMap(sorted + [sorted.last!]), .cborDuplicateMapKey),
            ("not-a-map", "an array of the values", enc(.array(m.wire.map(\.1))), .syncBadType),
            ("integer-key", "an extra member with integer key 0", enc(.map(m.wire.map { (CBOR.text($0.0), $0.1) } + [(CBOR.unsigned(0), CBOR.unsigned(0))])), .syncBadType),
            ("type-missing", "no type member", entries { set(&$0, "type", nil) }, .syncMissingField),
            ("type-not-text", "type given as a byte string", entries { set(&$0, "type", .bytes(Array(m.tag.rawValue.utf8))) }, .syncBadType),
            ("type-unknown", "type sync_delta", entries { set(&$0, "type", .text("sync_delta")) }, .syncWrongPayloadType),
            ("unknown-member", "an extra member this version does not define", entries { set(&$0, "extra", .unsigned(1)) }, .syncUnknownField),
        ]
        for o in others {
            cases.append(("is-\(o.name)", "a valid \(o.tag.rawValue) given where a \(m.tag.rawValue) belongs", enc(.object(o.wire)), .syncWrongPayloadType))
        }
        for (name, shape) in m.fields {
            cases.append(("missing-\(name)", "no \(name)", entries { set(&$0, name, nil) }, .syncMissingField))
            switch shape {
            case .bytes(let n):
                cases.append(("\(name)-\(n - 1)-bytes", "\(name) one byte short", entries { set(&$0, name, .bytes([UInt8](repeating: 0x5a, count: n - 1))) }, .syncBadLength))
                cases.append(("\(name)-\(n + 1)-bytes", "\(name) one byte long", entries { set(&$0, name, .bytes([UInt8](repeating: 0x5a, count: n + 1))) }, .syncBadLength))
                cases.append(("\(name)-empty", "\(name) empty", entries { set(&$0, name, .bytes([])) }, .syncBadLength))
                cases.append(("\(name)-as-hex-text", "\(name) as a hex text string", entries { set(&$0, name, .text(Hex.encode([UInt8](repeating: 0x5a, count: n)))) }, .syncBadType))
                // The same value with a non-shortest length head: valid CBOR data, not the profile.
                let pairs = sortedPairs(m.wire).map { p -> ([UInt8], [UInt8]) in
                    guard p.0 == enc(.text(name)), case .bytes(let v)? = m.wire.first(where: { $0.0 == name })?.1 else { return p }
                    return (p.0, longHeadBytes(v))
                }
                cases.append(("\(name)-length-head-long", "\(name) with a length head longer than needed", rawMap(pairs), .cborNonCanonical))
            case .uint:
                cases.append(("\(name)-negative", "\(name) -1 (major type 1)", entries { set(&$0, name, .int(-1)) }, .syncBadType))
                cases.append(("\(name)-as-text", "\(name) as a decimal text string", entries { set(&$0, name, .text("1767225601234")) }, .syncBadType))
                cases.append(("\(name)-as-float", "\(name) as a float", entries { set(&$0, name, .float(1.5)) }, .syncBadType))
                let pairs = sortedPairs(m.wire).map { p -> ([UInt8], [UInt8]) in
                    p.0 == enc(.text(name)) ? (p.0, [0x1b, 0, 0, 0, 0, 0, 0, 0, 0x05]) : p
                }
                cases.append(("\(name)-head-long", "\(name) 5 in an 8-byte argument", rawMap(pairs), .cborNonCanonical))
            case .bool:
                cases.append(("\(name)-as-integer", "\(name) as 1", entries { set(&$0, name, .unsigned(1)) }, .syncBadType))
                cases.append(("\(name)-null", "\(name) null", entries { set(&$0, name, .null) }, .syncBadType))
            }
        }
        for (name, comment, bytes, code) in cases {
            let r = Result { () throws(WireError) -> Void in
                switch m.tag {
                case .syncRequest: _ = try SyncRequest.decode(bytes)
                case .syncOffer: _ = try SyncOffer.decode(bytes)
                case .syncAck: _ = try SyncAck.decode(bytes)
                }
            }
            guard case .failure(let e) = r, e.code == code else { try check(false, "\(op) \(name) should fail with \(code.rawValue), got \(r)"); return }
            b.add("malformed/\(name)", op, comment, flags: ["negative"], input: SyncOfferOutput.cbor(bytes), expected: .error(code))
        }
    }

    // MARK: snapshot

    static func snapshotCases(_ b: inout Builder, _ f: Fixture) throws {
        let s = f.snapshot
        try check(try SyncSnapshot.decode(s.encoded) == s, "snapshot round trip")
        b.add("valid/typical", "encode_snapshot", "settings, two messages, a contact, a note, two plans: namespaces and rows in their one order",
              input: s.tree, expected: .output(SyncOfferOutput.cbor(s.encoded)))
        b.add("valid/typical", "decode_snapshot", "the typical snapshot", input: SyncOfferOutput.cbor(s.encoded), expected: .output(s.tree))
        let empty = try SyncSnapshot([:])
        try check(Hex.encode(empty.encoded) == "a26776657273696f6e016a6e616d65737061636573a0", "empty snapshot bytes")
        b.add("valid/empty", "encode_snapshot", "a store with no rows: version 1, an empty namespaces map",
              input: empty.tree, expected: .output(SyncOfferOutput.cbor(empty.encoded)))
        b.add("valid/empty", "decode_snapshot", "the empty snapshot", input: SyncOfferOutput.cbor(empty.encoded), expected: .output(empty.tree))

        // Encode normalises: rows in another order, a text set with a duplicate, an empty namespace.
        guard case .map(var top) = s.tree, case .map(var nss) = top[0].value else { return }
        for i in nss.indices { if case .array(let rows) = nss[i].value { nss[i].value = .array(rows.reversed()) } }
        var note = SampleRows.typical(.notebook); note["tags"] = .textSet(["food", "Zest", "food", "bread"])
        if let i = nss.firstIndex(where: { $0.key == .text("notebook") }) { nss[i].value = .array([note.tree]) }
        nss.append(CBORMapEntry(key: .text("saga"), value: .array([])))
        top[0].value = .map(nss)
        try check(try SyncSnapshot.parse(CBOR.map(top).json, path: "") == s, "normalised snapshot equals the typical one")
        b.add("valid/normalised", "encode_snapshot", "rows given in reverse key order, a tag set unsorted with a duplicate, an empty saga list: the same bytes as typical",
              input: .map(top), expected: .output(SyncOfferOutput.cbor(s.encoded)))
        let dupRows = CBOR.object([("namespaces", .object([("plans", .array([SampleRows.typical(.plans).tree, SampleRows.typical(.plans).tree]))]))])
        b.add("input/duplicate-plan", "encode_snapshot", "two plans with one planID", flags: ["negative"], input: dupRows, expected: .error(.duplicateKey))

        // Decode: malformed payloads.
        let good = s.encoded
        let plan = SampleRows.typical(.plans)
        func snap(_ members: [(String, CBOR)]) -> [UInt8] { enc(.object(members)) }
        func one(_ ns: String, _ rows: [CBOR]) -> [UInt8] { snap([("version", .unsigned(1)), ("namespaces", .object([(ns, .array(rows))]))]) }
        func planWith(_ k: String, _ v: CBOR?) -> CBOR {
            guard case .map(var e) = SnapshotRowCodec.tree(plan) else { return .null }
            if let i = e.firstIndex(where: { $0.key == .text(k) }) { if let v { e[i].value = v } else { e.remove(at: i) } }
            else if let v { e.append(CBORMapEntry(key: .text(k), value: v)) }
            return .map(e)
        }
        let plans2 = [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)].sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
        var noteUnsorted = SampleRows.typical(.notebook)
        noteUnsorted["tags"] = .textSet(["food", "Zest"])
        let cases: [(String, String, [UInt8], ErrorCode)] = [
            ("truncated", "the last byte cut off", Array(good.dropLast()), .cborTruncated),
            ("trailing-byte", "one byte after the map", good + [0], .cborTrailingBytes),
            ("not-a-map", "an array", enc(.array([])), .syncBadType),
            ("version-missing", "no version", snap([("namespaces", .object([]))]), .syncMissingField),
            ("version-2", "version 2", snap([("version", .unsigned(2)), ("namespaces", .object([]))]), .syncUnsupportedVersion),
            ("version-text", "version as text", snap([("version", .text("1")), ("namespaces", .object([]))]), .syncBadType),
            ("namespaces-missing", "no namespaces", snap([("version", .unsigned(1))]), .syncMissingField),
            ("namespaces-array", "namespaces as an array", snap([("version", .unsigned(1)), ("namespaces", .array([]))]), .syncBadType),
            ("unknown-member", "a member beside version and namespaces", snap([("version", .unsigned(1)), ("namespaces", .object([])), ("x", .unsigned(0))]), .syncUnknownField),
            ("unknown-namespace", "namespace calendar", one("calendar", [SnapshotRowCodec.tree(plan)]), .unknownNamespace),
            ("rows-not-array", "plans as a map", snap([("version", .unsigned(1)), ("namespaces", .object([("plans", .object([]))]))]), .syncBadType),
            ("rows-empty", "an empty row list is left out, never written", one("plans", []), .syncBadValue),
            ("rows-out-of-order", "two plans in descending key order", one("plans", plans2.reversed().map(SnapshotRowCodec.tree)), .syncBadValue),
            ("rows-duplicate-key", "one plan twice", one("plans", [SnapshotRowCodec.tree(plan), SnapshotRowCodec.tree(plan)]), .duplicateKey),
            ("row-not-map", "a row that is an array", one("plans", [.array([])]), .syncBadType),
            ("row-missing-title", "a plan without its required title", one("plans", [planWith("title", nil)]), .syncMissingField),
            ("row-unknown-field", "a plan with a field the schema does not define", one("plans", [planWith("colour", .text("red"))]), .syncUnknownField),
            ("row-id-as-hex-text", "planID as hex text, not a byte string", one("plans", [planWith("planID", .text(Hex.encode(plan.keyBytes)))]), .syncBadType),
            ("row-id-15-bytes", "planID of 15 bytes", one("plans", [planWith("planID", .bytes(Array(plan.keyBytes.prefix(15))))]), .syncBadLength),
            ("row-date-as-text", "updatedAt as text", one("plans", [planWith("updatedAt", .text("2026-01-01"))]), .syncBadType),
            ("row-int-below-int64", "priority below -2^63", one("plans", [planWith("priority", .negative(UInt64(Int64.max) + 1))]), .syncBadValue),
            ("row-text-set-unsorted", "tags not in UTF-8 byte order (food before Zest)", one("notebook", [.object(wireMembers(noteUnsorted.tree))]), .syncBadValue),
        ]
        // Two problems in one text set: §7.4 reads it element by element, first problem wins.
        func noteTags(_ tags: [CBOR]) -> [UInt8] {
            one("notebook", [.object(wireMembers(SampleRows.typical(.notebook).tree).map { $0.0 == "tags" ? ($0.0, .array(tags)) : $0 })])
        }
        try b.error("order/text-set-unsorted-before-non-text", "decode_snapshot", "tags [\"food\", \"Zest\", 5]: the second element is out of order before the third is seen not to be text (sync_bad_value, not sync_bad_type)",
                    flags: ["order"], input: SyncOfferOutput.cbor(noteTags([.text("food"), .text("Zest"), .unsigned(5)])), .syncBadValue)
        try b.error("order/text-set-non-text-before-unsorted", "decode_snapshot", "tags [5, \"food\", \"Zest\"]: the first element is not text before the text elements are seen out of order (sync_bad_type, not sync_bad_value)",
                    flags: ["order"], input: SyncOfferOutput.cbor(noteTags([.unsigned(5), .text("food"), .text("Zest")])), .syncBadType)
        for (name, comment, bytes, code) in cases {
            let r = Result { () throws(WireError) -> SyncSnapshot in try SyncSnapshot.decode(bytes) }
            guard case .failure(let e) = r, e.code == code else { try check(false, "decode_snapshot \(name): expected \(code.rawValue), got \(r)"); return }
            b.add("malformed/\(name)", "decode_snapshot", comment, flags: ["negative"], input: SyncOfferOutput.cbor(bytes), expected: .error(code))
        }
    }

    // MARK: seal

    static func sealCases(_ b: inout Builder, _ f: Fixture) throws {
        func sealInput(_ s: SyncSnapshot, key: [UInt8], nonce: [UInt8], blobID: [UInt8]) -> CBOR {
            .object([("snapshot", s.tree), ("key", .bytes(key)), ("nonce", .bytes(nonce)), ("blob_id", .bytes(blobID))])
        }
        try check(f.blob.count == f.plaintext.count + 16, "ciphertext || tag layout")
        try check(SyncBlob.open(f.blob, key: f.key, nonce: f.nonce) == f.plaintext, "seal/open")
        b.add("valid/typical", "seal", "the typical snapshot under a seeded key and nonce: blob = ciphertext || tag, offer names its hash and size",
              input: sealInput(f.snapshot, key: f.key, nonce: f.nonce, blobID: f.blobID),
              expected: .output(SyncOfferOutput.sealed(plaintext: f.plaintext, blob: f.blob, offer: f.offer)))
        let empty = try SyncSnapshot([:])
        let eb = try SyncBlob.seal(empty.encoded, key: f.key, nonce: f.nonce)
        b.add("valid/empty", "seal", "the empty snapshot (22 bytes of plaintext, 38 of blob)",
              input: sealInput(empty, key: f.key, nonce: f.nonce, blobID: f.blobID),
              expected: .output(SyncOfferOutput.sealed(plaintext: empty.encoded, blob: eb, offer: SyncBlob.offer(for: eb, blobID: f.blobID, key: f.key, nonce: f.nonce))))
        b.add("input/key-31-bytes", "seal", "a key of 31 bytes", flags: ["negative"],
              input: sealInput(f.snapshot, key: Array(f.key.prefix(31)), nonce: f.nonce, blobID: f.blobID), expected: .error(.inputBadLength))
        b.add("input/nonce-16-bytes", "seal", "a 16-byte nonce: GCM here uses exactly 12", flags: ["negative"],
              input: sealInput(f.snapshot, key: f.key, nonce: f.nonce + [0, 0, 0, 0], blobID: f.blobID), expected: .error(.inputBadLength))
    }

    // MARK: receive

    static func receiveInput(offer: [UInt8], requestID: [UInt8], blob: [UInt8], own: [UInt8]?, sender: [UInt8], cap: UInt64?) -> CBOR {
        var m: [(String, CBOR)] = [("offer", .bytes(offer)), ("request_id", .bytes(requestID)), ("blob", .bytes(blob))]
        if let own { m.append(("own_user_id_hash", .bytes(own))) }
        m.append(("sender_user_id_hash", .bytes(sender)))
        if let cap { m.append(("max_blob_bytes", .unsigned(cap))) }
        return .object(m)
    }

    static func receiveCases(_ b: inout Builder, _ f: Fixture) throws {
        @discardableResult
        func receive(_ id: String, _ comment: String, offer: SyncOffer? = nil, offerBytes: [UInt8]? = nil, blob: [UInt8]? = nil,
                     own: [UInt8]?? = .none, sender: [UInt8]? = nil, cap: UInt64? = nil,
                     expect: SyncReceiver.Result, reason: ErrorCode?, flags: [String] = []) throws -> SyncReceiver.Outcome {
            let ob = offerBytes ?? (offer ?? f.offer).encoded
            let bl = blob ?? f.blob
            let ownHash: [UInt8]? = own ?? f.ownHash
            let sh = sender ?? f.ownHash
            let o = try SyncReceiver.receive(offer: ob, requestID: f.requestID, blob: bl, ownUserIDHash: ownHash, senderUserIDHash: sh,
                                             maxBlobBytes: cap ?? SyncBlob.syncMaxBlobBytes)
            try check(o.result == expect && o.reason == reason, "receive \(id): got \(o.result) \(String(describing: o.reason))")
            try check((o.ack == nil) == (expect == .dropped) && (o.ack?.ok ?? false) == (expect == .accepted), "receive \(id) ack")
            b.add(id, "receive", comment, flags: [expect.rawValue] + flags,
                  input: receiveInput(offer: ob, requestID: f.requestID, blob: bl, own: ownHash, sender: sh, cap: cap),
                  expected: .output(SyncOfferOutput.received(o)))
            return o
        }
        func flipped(_ b: [UInt8], bit: Int) -> [UInt8] { var c = b; c[bit / 8] ^= UInt8(1 << (bit % 8)); return c }
        func offerFor(_ blob: [UInt8], key: [UInt8]? = nil, nonce: [UInt8]? = nil) -> SyncOffer {
            SyncBlob.offer(for: blob, blobID: f.blobID, key: key ?? f.key, nonce: nonce ?? f.nonce)
        }
        let n = UInt64(f.blob.count)

        // Accepted.
        let ok = try receive("valid/end-to-end", "the typical blob and its offer from a sibling of this account: imported, ok true",
                             expect: .accepted, reason: nil)
        try check(ok.snapshot == f.snapshot, "end to end returns the snapshot")
        try receive("valid/at-cap", "a blob exactly max_blob_bytes long is within the cap", cap: n, expect: .accepted, reason: nil, flags: ["cap"])
        let empty = try SyncSnapshot([:])
        let eb = try SyncBlob.seal(empty.encoded, key: f.key, nonce: f.nonce)
        try receive("valid/empty-snapshot", "a sibling with an empty store: accepted, nothing to import", offer: offerFor(eb), blob: eb, expect: .accepted, reason: nil)

        // The account gate: silent, before anything is parsed.
        try receive("dropped/other-account", "a valid offer and blob from another account: dropped, no ack",
                    sender: f.strangerHash, expect: .dropped, reason: .syncNotSameAccount, flags: ["gate"])
        try receive("dropped/own-hash-absent", "this device does not know its own account yet: refuses everything, no ack",
                    own: .some(nil), expect: .dropped, reason: .syncNotSameAccount, flags: ["gate"])
        try receive("dropped/own-hash-31-bytes", "own hash of 31 bytes (a prefix of the sender's): not an account hash",
                    own: .some(Array(f.ownHash.prefix(31))), expect: .dropped, reason: .syncNotSameAccount, flags: ["gate"])
        try receive("dropped/own-hash-empty", "own hash empty", own: .some([]), expect: .dropped, reason: .syncNotSameAccount, flags: ["gate"])
        try receive("dropped/sender-hash-31-bytes", "own hash 32 bytes, the sender's its 31-byte prefix",
                    sender: Array(f.ownHash.prefix(31)), expect: .dropped, reason: .syncNotSameAccount, flags: ["gate"])
        try receive("dropped/both-hashes-33-bytes", "both hashes the same 33 bytes: equal but not account hashes",
                    own: .some(f.ownHash + [0]), sender: f.ownHash + [0], expect: .dropped, reason: .syncNotSameAccount, flags: ["gate"])
        try receive("dropped/other-account-malformed-offer", "a stranger's offer that is not even CBOR: dropped by the gate before it is parsed",
                    offerBytes: [0xff, 0x00], sender: f.strangerHash, expect: .dropped, reason: .syncNotSameAccount, flags: ["gate", "order"])

        // Lengths.
        var plusOne = f.offer; plusOne.sizeBytes = n + 1
        try check(SyncBlob.open(f.blob, key: f.key, nonce: f.nonce) != nil, "size-only case would otherwise import")
        try receive("refused/size-bytes-plus-one", "size_bytes one more than the blob; hash, key and nonce all right: a receiver that ignores size_bytes would import",
                    offer: plusOne, expect: .refused, reason: .syncSizeMismatch, flags: ["size"])
        var minusOne = f.offer; minusOne.sizeBytes = n - 1
        try receive("refused/size-bytes-minus-one", "size_bytes one less than the blob, everything else right",
                    offer: minusOne, expect: .refused, reason: .syncSizeMismatch, flags: ["size"])
        try receive("refused/over-cap-offer", "the offer promises one byte more than max_blob_bytes: refused before any download",
                    cap: n - 1, expect: .refused, reason: .syncBlobOverCap, flags: ["cap"])
        var atDefault = f.offer; atDefault.sizeBytes = SyncBlob.syncMaxBlobBytes + 1
        try receive("refused/over-default-cap", "size_bytes 268435457 with the default cap (no max_blob_bytes given): over syncMaxBlobBytes",
                    offer: atDefault, expect: .refused, reason: .syncBlobOverCap, flags: ["cap"])
        var exactlyDefault = f.offer; exactlyDefault.sizeBytes = SyncBlob.syncMaxBlobBytes
        try receive("refused/at-default-cap-size-differs", "size_bytes 268435456 is within the default cap, so the size comparison is what refuses",
                    offer: exactlyDefault, expect: .refused, reason: .syncSizeMismatch, flags: ["cap", "size"])
        let longer = f.blob + [0x00]
        var promisedSmall = offerFor(longer); promisedSmall.sizeBytes = n
        try receive("refused/over-cap-download", "the offer promises n = max_blob_bytes, the server sends n + 1: over the cap (checked before the size comparison)",
                    offer: promisedSmall, blob: longer, cap: n, expect: .refused, reason: .syncBlobOverCap, flags: ["cap", "order"])
        var hashWrongToo = f.offer; hashWrongToo.sizeBytes = n + 1; hashWrongToo.sha256 = flipped(f.offer.sha256, bit: 0)
        try receive("refused/size-before-hash", "size_bytes and sha256 both wrong: the size is reported (lengths come first)",
                    offer: hashWrongToo, expect: .refused, reason: .syncSizeMismatch, flags: ["order"])
        let short15 = Array(f.blob.prefix(15))
        try receive("refused/blob-15-bytes", "a 15-byte blob whose offer matches it: shorter than the tag",
                    offer: offerFor(short15), blob: short15, expect: .refused, reason: .syncBlobTooShort)
        try receive("refused/blob-empty", "an empty blob whose offer matches it", offer: offerFor([]), blob: [], expect: .refused, reason: .syncBlobTooShort)
        let tag16 = Array(f.blob.suffix(16))
        try receive("refused/blob-tag-only", "16 bytes: an empty ciphertext and a tag that does not verify under this key",
                    offer: offerFor(tag16), blob: tag16, expect: .refused, reason: .syncAuthFailed)

        // Hash before decryption.
        let flippedCT = flipped(f.blob, bit: 8 * 10 + 3)
        try check(SyncBlob.open(flippedCT, key: f.key, nonce: f.nonce) == nil, "flipped ciphertext fails authentication")
        try receive("refused/bit-flipped-hash-stale", "one ciphertext bit flipped, the offer still names the original hash: hash mismatch, never auth failure (the blob would also fail authentication, so a receiver that decrypts first reports the wrong code)",
                    blob: flippedCT, expect: .refused, reason: .syncHashMismatch, flags: ["order", "hash-before-decrypt"])
        try receive("refused/bit-flipped-hash-matches", "one ciphertext bit flipped and the offer's hash recomputed over it: passes the hash, fails authentication",
                    offer: offerFor(flippedCT), blob: flippedCT, expect: .refused, reason: .syncAuthFailed, flags: ["auth"])
        let flippedTag = flipped(f.blob, bit: 8 * (f.blob.count - 1))
        try receive("refused/tag-bit-flipped-hash-matches", "one tag bit flipped, hash recomputed: fails authentication",
                    offer: offerFor(flippedTag), blob: flippedTag, expect: .refused, reason: .syncAuthFailed, flags: ["auth"])
        try receive("refused/tag-bit-flipped-hash-stale", "one tag bit flipped in transit, the offer names the original hash: hash mismatch (authentication would fail too)",
                    blob: flippedTag, expect: .refused, reason: .syncHashMismatch, flags: ["order", "hash-before-decrypt"])
        var wrongHash = f.offer; wrongHash.sha256 = flipped(f.offer.sha256, bit: 255)
        try receive("refused/hash-wrong-blob-intact", "the blob is intact but the offer's hash is not its hash: refused (a receiver that skips the hash would import)",
                    offer: wrongHash, expect: .refused, reason: .syncHashMismatch, flags: ["hash"])
        let truncated = Array(f.blob.dropLast())
        try receive("refused/tag-truncated", "the last tag byte cut off, offer size and hash describing the truncated blob: the last 16 bytes are no tag, authentication fails",
                    offer: offerFor(truncated), blob: truncated, expect: .refused, reason: .syncAuthFailed, flags: ["auth"])
        try receive("refused/tag-truncated-stale-offer", "the last tag byte cut off in transit, the original offer: size mismatch",
                    blob: truncated, expect: .refused, reason: .syncSizeMismatch, flags: ["size"])

        // Wrong secrets.
        var wrongKey = f.offer; wrongKey.key = flipped(f.key, bit: 0)
        try receive("refused/wrong-key", "the offer's key differs by one bit; hash and size right: authentication fails",
                    offer: wrongKey, expect: .refused, reason: .syncAuthFailed, flags: ["auth"])
        var wrongNonce = f.offer; wrongNonce.nonce = flipped(f.nonce, bit: 95)
        try receive("refused/wrong-nonce", "the offer's nonce differs by one bit: authentication fails",
                    offer: wrongNonce, expect: .refused, reason: .syncAuthFailed, flags: ["auth"])

        // The payload.
        let notSnapshot = try SyncBlob.seal(enc(.text("not a snapshot")), key: f.key, nonce: f.nonce)
        try receive("refused/payload-not-snapshot", "a blob that opens to a CBOR text string: payload invalid, ok false",
                    offer: offerFor(notSnapshot), blob: notSnapshot, expect: .refused, reason: .syncPayloadInvalid, flags: ["payload"])
        let v2 = try SyncBlob.seal(enc(.object([("version", .unsigned(2)), ("namespaces", .object([]))])), key: f.key, nonce: f.nonce)
        try receive("refused/payload-version-2", "a snapshot of version 2: payload invalid",
                    offer: offerFor(v2), blob: v2, expect: .refused, reason: .syncPayloadInvalid, flags: ["payload"])
        let trailing = try SyncBlob.seal(f.plaintext + [0], key: f.key, nonce: f.nonce)
        try receive("refused/payload-trailing-byte", "the typical snapshot plus one byte, sealed: payload invalid",
                    offer: offerFor(trailing), blob: trailing, expect: .refused, reason: .syncPayloadInvalid, flags: ["payload"])

        // A same-account offer that does not decode: the decoder's code.
        let bad: [(String, String, [UInt8], ErrorCode)] = [
            ("offer-truncated", "the offer's last byte cut off", Array(f.offer.encoded.dropLast()), .cborTruncated),
            ("offer-is-request", "a sync_request where the offer belongs", f.request.encoded, .syncWrongPayloadType),
            ("offer-key-31-bytes", "an offer whose key is 31 bytes", enc(.object(wireMembers(f.offer.tree).map { $0.0 == "key" ? ($0.0, .bytes(Array(f.key.prefix(31)))) : $0 })), .syncBadLength),
        ]
        for (name, comment, ob, code) in bad {
            b.add("malformed/\(name)", "receive", comment, flags: ["negative"],
                  input: receiveInput(offer: ob, requestID: f.requestID, blob: f.blob, own: f.ownHash, sender: f.ownHash, cap: nil), expected: .error(code))
        }
        b.add("input/request-id-15-bytes", "receive", "the receiver's own request_id must be 16 bytes", flags: ["negative"],
              input: receiveInput(offer: f.offer.encoded, requestID: Array(f.requestID.prefix(15)), blob: f.blob, own: f.ownHash, sender: f.ownHash, cap: nil),
              expected: .error(.inputBadLength))
        // §7.9: every input member is read before the gate runs, so a stranger's offer with a bad input is an input error.
        try b.error("order/input-before-gate", "receive", "a request_id of 15 bytes on an offer from another account: input_bad_length, not dropped",
                    flags: ["order"],
                    input: receiveInput(offer: f.offer.encoded, requestID: Array(f.requestID.prefix(15)), blob: f.blob, own: f.ownHash, sender: f.strangerHash, cap: nil),
                    .inputBadLength)
        b.add("input/sender-missing", "receive", "sender_user_id_hash is required (the envelope always has one)", flags: ["negative"],
              input: .object([("offer", .bytes(f.offer.encoded)), ("request_id", .bytes(f.requestID)), ("blob", .bytes(f.blob)), ("own_user_id_hash", .bytes(f.ownHash))]),
              expected: .error(.inputMissingField))
    }

    // MARK: handle_request

    static func handleRequestCases(_ b: inout Builder, _ f: Fixture) throws {
        func input(_ req: [UInt8], own: [UInt8]?, sender: [UInt8]) -> CBOR {
            var m: [(String, CBOR)] = [("request", .bytes(req))]
            if let own { m.append(("own_user_id_hash", .bytes(own))) }
            m.append(("sender_user_id_hash", .bytes(sender)))
            return .object(m)
        }
        func handled(_ id: String, _ comment: String, _ req: [UInt8], own: [UInt8]?, sender: [UInt8], expect: SiblingRequestHandler.Result) throws {
            let r = try SiblingRequestHandler.handle(request: req, ownUserIDHash: own, senderUserIDHash: sender)
            try check(r.result == expect, "handle_request \(id)")
            b.add(id, "handle_request", comment, flags: expect == .dropped ? ["gate"] : [], input: input(req, own: own, sender: sender),
                  expected: .output(SyncOfferOutput.handled(r.result, r.request)))
        }
        let req = f.request.encoded
        try handled("accepted/same-account", "a request from a sibling of this account: accepted (export, seal, upload, offer follow)", req, own: f.ownHash, sender: f.ownHash, expect: .accepted)
        try handled("dropped/other-account", "a valid request from another account: dropped, this device exports nothing", req, own: f.ownHash, sender: f.strangerHash, expect: .dropped)
        try handled("dropped/own-hash-absent", "this device does not know its own account: drops every request", req, own: nil, sender: f.ownHash, expect: .dropped)
        try handled("dropped/own-hash-31-bytes", "own hash of 31 bytes", req, own: Array(f.ownHash.prefix(31)), sender: Array(f.ownHash.prefix(31)), expect: .dropped)
        try handled("dropped/other-account-malformed", "a stranger's request that is not CBOR: dropped by the gate before it is parsed", [0x1c], own: f.ownHash, sender: f.strangerHash, expect: .dropped)
        // §7.9: every input member is read before the gate runs.
        try b.error("order/input-before-gate", "handle_request", "a request that is not hex (\"zz\") from another account: input_bad_value, not dropped",
                    flags: ["order"], input: .object([("request", .text("zz")), ("own_user_id_hash", .bytes(f.ownHash)), ("sender_user_id_hash", .bytes(f.strangerHash))]),
                    .inputBadValue)
        b.add("malformed/truncated", "handle_request", "a same-account request cut short: the decoder's code", flags: ["negative"],
              input: input(Array(req.dropLast()), own: f.ownHash, sender: f.ownHash), expected: .error(.cborTruncated))
        b.add("malformed/is-ack", "handle_request", "a sync_ack where a request belongs", flags: ["negative"],
              input: input(SyncAck(requestID: f.requestID, ok: true).encoded, own: f.ownHash, sender: f.ownHash), expected: .error(.syncWrongPayloadType))
    }

    // MARK: import

    static func importCases(_ b: inout Builder) throws {
        let h = SyncOfferHandler()
        func run(_ id: String, _ comment: String, store: SyncSnapshot, snapshots: [SyncSnapshot], flags: [String] = []) throws -> (SyncSnapshot, [Int]) {
            var s = store
            let counts = snapshots.map { s.importing($0) }
            let input = CBOR.object([("store", store.tree), ("snapshots", .array(snapshots.map(\.tree)))])
            let out = SyncOfferOutput.imported(s, inserted: counts)
            try check(try h.run(op: "import", input: input.json) == out.json, "import \(id) through JSON")
            b.add(id, "import", comment, flags: flags, input: input, expected: .output(out))
            return (s, counts)
        }
        let snap = try sampleSnapshot()
        let empty = try SyncSnapshot([:])
        let (once, c1) = try run("basic/once", "an empty store imports the typical snapshot", store: empty, snapshots: [snap])
        let (twice, c2) = try run("basic/twice", "the same snapshot imported twice: the second inserts nothing; the store equals basic/once", store: empty, snapshots: [snap, snap], flags: ["idempotent"])
        try check(once == twice && c1 == [snap.rowCount] && c2 == [snap.rowCount, 0], "import twice == once")
        let (again, c3) = try run("basic/onto-itself", "a store that already holds the snapshot imports it: nothing inserted, nothing changed", store: once, snapshots: [snap], flags: ["idempotent"])
        try check(again == once && c3 == [0], "import onto itself")

        // Insert-if-absent, not overwrite: the local row wins whatever its content.
        var plan = SampleRows.typical(.plans, index: 0)
        plan["title"] = .text("Trip 0, edited here")
        plan["updatedAt"] = .date(SampleRows.clock + 9_999_000)
        let local = try SyncSnapshot([.plans: [plan]])
        let (kept, c4) = try run("keyed/plan-by-planID", "the store holds a plan with the same planID (edited later): kept, the incoming plan skipped; other rows inserted",
                                 store: local, snapshots: [snap], flags: ["insert-if-absent"])
        try check(kept.namespaces[.plans]?.contains(plan) == true && c4 == [snap.rowCount - 1], "planID keyed")
        var msg = SampleRows.typical(.messages, index: 1)
        msg["body"] = .text("a different body")
        let (keptMsg, c5) = try run("keyed/message-by-messageID", "the store holds one of the messages under its messageID with another body: kept",
                                    store: try SyncSnapshot([.messages: [msg]]), snapshots: [snap], flags: ["insert-if-absent"])
        try check(keptMsg.namespaces[.messages]?.contains(msg) == true && c5 == [snap.rowCount - 1], "messageID keyed")

        // Two overlapping snapshots (two siblings answered).
        let a = try SyncSnapshot([.plans: [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)]])
        let bb = try SyncSnapshot([.plans: [SampleRows.typical(.plans, index: 1), SampleRows.typical(.plans, index: 2)]])
        let (_, c6) = try run("basic/two-siblings-overlap", "two siblings' snapshots sharing one plan: the shared plan is inserted once", store: empty, snapshots: [a, bb])
        try check(c6 == [2, 1], "overlap counts")

        // Calendar events are never imported.
        var cal = SampleRows.typical(.memory, index: 2); cal["source"] = .text("calendar")
        let withCal = try SyncSnapshot([.memory: [SampleRows.typical(.memory, index: 0), cal]])
        let (afterCal, c7) = try run("dropped/calendar-event", "a calendar-derived memory event in a snapshot is not inserted (re-derived on every device)",
                                     store: empty, snapshots: [withCal], flags: ["dropped"])
        try check(c7 == [1] && afterCal.namespaces[.memory]?.count == 1, "calendar skipped")

        let dup = CBOR.object([("store", .object([("namespaces", .object([("plans", .array([SampleRows.typical(.plans).tree, SampleRows.typical(.plans).tree]))]))])),
                               ("snapshots", .array([]))])
        b.add("input/store-duplicate", "import", "a store with one planID twice", flags: ["negative"], input: dup, expected: .error(.duplicateKey))
    }

    // MARK: schedule

    static func scheduleCases(_ b: inout Builder) throws {
        let points: [(Int64, String)] = [
            (0, "the first send, the only push-waking one, at 0 ms"), (1, "1 ms: still one send"), (4_999, "4999 ms: one send"),
            (5_000, "5000 ms: the first re-send is due"), (5_001, "5001 ms: two sends"), (9_999, "9999 ms: two sends"),
            (10_000, "10000 ms: three sends"), (29_999, "29999 ms: six sends"), (30_000, "30000 ms: the seventh and last send"),
            (30_001, "30001 ms: all seven out, nothing next"), (34_999, "34999 ms: seven sends, coverage not yet over"),
            (35_000, "35000 ms: coverage over, no eighth send"), (35_001, "35001 ms: exhausted"), (40_000, "40000 ms: exhausted"),
            (3_600_000, "an hour later: still seven, exhausted"), (1 << 53, "2^53 ms: no overflow"),
        ]
        for (t, comment) in points {
            let out = SyncOfferOutput.schedule(elapsedMs: t)
            let due = ResendSchedule.due(elapsedMs: t)
            try check(due.count == min(7, Int(t / 5_000) + 1) && due.filter { $0.wake == .sync }.map(\.index) == [0], "schedule \(t)")
            b.add("boundary/t\(t)", "schedule", comment, input: .object([("elapsed_ms", .int(t))]), expected: .output(out))
        }
        b.add("input/negative", "schedule", "elapsed time -1 ms", flags: ["negative"], input: .object([("elapsed_ms", .int(-1))]), expected: .error(.inputBadValue))
        b.add("input/missing", "schedule", "no elapsed_ms", flags: ["negative"], input: .object([]), expected: .error(.inputMissingField))
    }
}

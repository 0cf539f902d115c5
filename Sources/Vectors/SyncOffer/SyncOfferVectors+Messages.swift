import Primitives

/// `encode_*` / `decode_*` for the three payloads: valid encodings, op-input edge classes
/// (integers, hex, null, missing, extra), malformed bytes, the §1 profile inside real payloads,
/// and the check orders of §7.2 with two faults at once.
extension SyncOfferVectors {
    struct Message {
        let name: String            // request | offer | ack
        let tag: SyncPayloadType
        let fields: [(String, PayloadShape)]
        let value: CBOR             // the valid decode output (vector form)
        let wire: [(String, CBOR)]  // the wire members, `type` included

        func decode(_ bytes: [UInt8]) throws(WireError) {
            switch tag {
            case .syncRequest: _ = try SyncRequest.decode(bytes)
            case .syncOffer: _ = try SyncOffer.decode(bytes)
            case .syncAck: _ = try SyncAck.decode(bytes)
            }
        }
    }

    static func messages(_ f: Fixture) -> [Message] {
        [Message(name: "request", tag: .syncRequest, fields: SyncRequest.fields, value: SyncOfferOutput.request(f.request), wire: wireMembers(f.request.tree)),
         Message(name: "offer", tag: .syncOffer, fields: SyncOffer.fields, value: SyncOfferOutput.offer(f.offer), wire: wireMembers(f.offer.tree)),
         Message(name: "ack", tag: .syncAck, fields: SyncAck.fields, value: SyncOfferOutput.ack(f.ack), wire: wireMembers(f.ack.tree))]
    }

    static let encodeValidRules = ["R7.2-1", "R1-1", "R1-3", "R7.9-1"]
    static let decodeValidRules = ["R7.2-6", "R7.9-12"]

    static func messageCases(_ b: inout Builder, _ f: Fixture) throws {
        let ms = messages(f)
        let (req, off, ack) = (ms[0], ms[1], ms[2])
        let handler = SyncOfferHandler()

        // Valid encodings, both directions.
        var valid: [(String, String, Message, CBOR, [String])] = []
        for m in ms { valid.append(("valid/typical", "a typical \(m.tag.rawValue)", m, m.value, [])) }
        var r = f.request
        func ts(_ v: UInt64) -> CBOR { r.timestampMs = v; return SyncOfferOutput.request(r) }
        valid.append(("valid/timestamp-max", "timestamp_ms 2^64-1: an 8-byte head; JSON carries it as a decimal string", req, ts(UInt64.max), ["R7.9-3", "R2.4-1"]))
        valid.append(("valid/timestamp-zero", "timestamp_ms 0: a one-byte head", req, ts(0), ["R2.4-1"]))
        var o = f.offer; o.sizeBytes = 0
        valid.append(("valid/size-zero", "size_bytes 0 decodes (the receiver, not the decoder, refuses a blob shorter than a tag)", off, SyncOfferOutput.offer(o), ["R7.1-1"]))
        valid.append(("valid/ok-false", "a refusal", ack, SyncOfferOutput.ack(SyncAck(requestID: f.requestID, ok: false)), []))
        // Integer edges: the head widths and the JSON number/string boundary at 2^53.
        let edges: [(String, UInt64)] = [("1", UInt64(1)), ("23", 23), ("24", 24), ("2p53-minus-1", (1 << 53) - 1), ("2p53", 1 << 53), ("2p53-plus-1", (1 << 53) + 1),
                          ("2p63-minus-1", UInt64(Int64.max)), ("2p63", 1 << 63), ("2p64-minus-2", UInt64.max - 1),
                          // Each head width's last value and the next, written as well as read (a
                          // writer whose width test is `<=` fails to write 256, 65536, 2^32).
                          ("255", 255), ("256", 256), ("65535", 65_535), ("65536", 65_536), ("2p32-minus-1", (1 << 32) - 1), ("2p32", 1 << 32)]
        for (name, v) in edges {
            valid.append(("int/timestamp-\(name)", "timestamp_ms \(v): a decoder or JSON writer that goes through a double or an Int64 gets it wrong", req, ts(v), ["R7.9-3", "R1-1", "R2.4-1", "R2.4-2"] + (name.hasPrefix("2p53") ? ["R2-3"] : [])))
        }
        o.sizeBytes = UInt64.max
        valid.append(("int/size-bytes-max", "size_bytes 2^64-1 (an 8-byte head, a decimal string in JSON): an Int64 reader overflows", off, SyncOfferOutput.offer(o), ["R7.9-3", "R1-1"]))
        for (id, comment, m, value, rules) in valid {
            let out = try handler.run(op: "encode_\(m.name)", input: value.json)
            guard let hex = out["cbor"]?.stringValue, let bytes = Hex.decode(hex) else { throw WireError(.inputBadValue, "encode \(m.name)") }
            try check(try handler.run(op: "decode_\(m.name)", input: cborInput(bytes).json) == value.json, "\(m.name) \(id) round trip")
            try b.add(id, "encode_\(m.name)", comment + ": its one canonical encoding", rules: encodeValidRules + rules, input: value, expected: .output(cborInput(bytes)))
            try b.add(id, "decode_\(m.name)", comment, rules: decodeValidRules + rules, input: cborInput(bytes), expected: .output(value))
        }
        try check(Hex.encode(f.ack.encoded).hasPrefix("a3626f6bf5647479706568"), "ack key order ok, type, request_id")

        try encodeInputCases(&b, f, ms)
        for m in ms { try malformed(&b, m, others: ms.filter { $0.tag != m.tag }) }
        try cborProfileCases(&b, f, ms)
        try cborEdgeCases(&b, f, ms)
        try messageOrderCases(&b, f, ms)
    }

    // MARK: encode_*: op inputs

    static func encodeInputCases(_ b: inout Builder, _ f: Fixture, _ ms: [Message]) throws {
        let (req, off, ack) = (ms[0], ms[1], ms[2])
        let reqBytes = f.request.encoded, offBytes = f.offer.encoded, ackBytes = f.ack.encoded
        func input(_ m: Message, _ id: String, _ comment: String, _ name: String, _ v: CBOR?, _ code: ErrorCode, rules: [String]) throws {
            try b.error(id, "encode_\(m.name)", comment, rules: rules, input: setting(m.value, name, v), code)
        }
        func same(_ m: Message, _ id: String, _ comment: String, _ input: CBOR, _ bytes: [UInt8], rules: [String]) throws {
            try b.add(id, "encode_\(m.name)", comment, rules: rules, input: input, expected: .output(cborInput(bytes)))
        }
        // Kept ids (older cases).
        try input(req, "input/request-id-15-bytes", "request_id of 15 bytes: an encoder that pads or trusts the caller writes a malformed request", "request_id", .bytes([UInt8](repeating: 1, count: 15)), .inputBadLength, rules: ["R7.9-4", "R2.2-4"])
        try input(req, "input/reply-pubkey-32-bytes", "a 32-byte key where the X-Wing key of 1,216 bytes belongs (an X25519-only key)", "reply_pubkey", .bytes([UInt8](repeating: 1, count: 32)), .inputBadLength, rules: ["R7.9-4"])
        try input(req, "input/missing-timestamp", "no timestamp_ms: an encoder that defaults it to 0 or to now", "timestamp_ms", nil, .inputMissingField, rules: ["R7.9-1", "R2.2-1"])
        try input(off, "input/key-31-bytes", "an AES-256 key of 31 bytes", "key", .bytes([UInt8](repeating: 1, count: 31)), .inputBadLength, rules: ["R7.9-4"])
        try input(off, "input/size-negative", "size_bytes -1: an unsigned member read as signed", "size_bytes", .int(-1), .inputBadType, rules: ["R7.9-3", "R2.2-3"])
        try input(ack, "input/ok-not-bool", "ok given as 1: a boolean read as truthy", "ok", .unsigned(1), .inputBadType, rules: ["R2.2-6", "R7.9-1"])

        // Every member missing and null (null is never absence).
        for m in ms {
            for (name, _) in m.fields where !(m.tag == .syncRequest && name == "timestamp_ms") {
                try input(m, "input/missing-\(name)", "no \(name): an encoder that fills in a default", name, nil, .inputMissingField, rules: ["R7.9-1", "R2.2-1"])
            }
            for (name, _) in m.fields {
                try input(m, "input/\(name)-null", "\(name) null: null read as absent, or as an empty value", name, .null, .inputBadType, rules: ["R7.9-5", "R2.2-1"])
            }
            let bytes = m.tag == .syncRequest ? reqBytes : m.tag == .syncOffer ? offBytes : ackBytes
            try same(m, "input/extra-member-ignored", "an input member the op does not define is ignored (§2.2 rule 2), not rejected", setting(m.value, "comment", .text("ignored")), bytes, rules: ["R7.9-1", "R2.2-2"])
        }

        // Hex: either case, odd length, a prefix, a space, wrong lengths.
        for m in ms {
            let bytes = m.tag == .syncRequest ? reqBytes : m.tag == .syncOffer ? offBytes : ackBytes
            for (name, shape) in m.fields {
                guard case .bytes(let n) = shape, case .bytes(let v)? = m.value[name] else { continue }
                try same(m, "hex/\(name)-uppercase", "\(name) in uppercase hex: the same bytes (a reader that takes lowercase only rejects it)", setting(m.value, name, upperHex(v)), bytes, rules: ["R7.9-4", "R2.2-4"])
                try input(m, "hex/\(name)-\(n + 1)-bytes", "\(name) one byte long", name, .bytes(v + [0]), .inputBadLength, rules: ["R7.9-4", "R2.2-4"])
                if !(m.tag == .syncRequest && name == "request_id") && !(m.tag == .syncOffer && name == "key") {
                    try input(m, "hex/\(name)-\(n - 1)-bytes", "\(name) one byte short", name, .bytes(Array(v.dropLast())), .inputBadLength, rules: ["R7.9-4", "R2.2-4"])
                }
            }
        }
        guard case .bytes(let rid)? = req.value["request_id"], case .bytes(let bid)? = off.value["blob_id"] else { return }
        try same(req, "hex/request_id-mixed-case", "request_id in mixed-case hex: the same bytes", setting(req.value, "request_id", mixedHex(rid)), reqBytes, rules: ["R7.9-4", "R2.2-4"])
        try input(req, "hex/request_id-odd-length", "31 hex digits: a reader that pads a nibble or drops the last one", "request_id", .text(String(Hex.encode(rid).dropLast())), .inputBadValue, rules: ["R7.9-4", "R2.2-4"])
        try input(req, "hex/request_id-0x-prefix", "\"0x\" and 32 digits: a reader that strips a prefix", "request_id", .text("0x" + Hex.encode(rid)), .inputBadValue, rules: ["R7.9-4", "R2.2-4"])
        try input(req, "hex/request_id-inner-space", "a space between two bytes: Python's bytes.fromhex skips it", "request_id", .text(Hex.encode(rid.prefix(8)) + " " + Hex.encode(rid.suffix(8))), .inputBadValue, rules: ["R7.9-4", "R2.2-4"])
        try input(req, "hex/request_id-non-hex-digit", "a g among the digits", "request_id", .text("g" + String(Hex.encode(rid).dropFirst())), .inputBadValue, rules: ["R7.9-4", "R2.2-4"])
        try input(req, "hex/request_id-empty", "an empty string: zero bytes, not 16", "request_id", .text(""), .inputBadLength, rules: ["R7.9-4", "R2.2-4"])
        try input(off, "hex/blob_id-as-number", "blob_id given as a JSON number", "blob_id", .unsigned(7), .inputBadType, rules: ["R7.9-4", "R2.2-4"])
        try input(off, "hex/blob_id-base64", "blob_id in base64 (Swift's JSONEncoder default for Data)", "blob_id", .text(base64(bid)), .inputBadValue, rules: ["R7.9-4", "R2.2-4"])

        // Integers: what a JSON library's defaults let through.
        var r = f.request
        func reqOut(_ v: UInt64) -> [UInt8] { r.timestampMs = v; return r.encoded }
        let goodInts: [(String, String, CBOR, UInt64)] = [
            ("timestamp-decimal-string", "timestamp_ms as the decimal string \"5\": §2.2 accepts a canonical decimal string at any magnitude", .text("5"), 5),
            ("timestamp-2p53-plus-1-number", "timestamp_ms 9007199254740993 as a JSON number: a parser that reads numbers as doubles gets 2^53", .jsonNumber("9007199254740993"), (1 << 53) + 1),
            ("timestamp-2p64-minus-1-number", "timestamp_ms 18446744073709551615 as a JSON number: a double or Int64 parser fails", .jsonNumber("18446744073709551615"), UInt64.max),
            ("timestamp-2p63-string", "timestamp_ms 2^63 as a decimal string: beyond Int64", .text("9223372036854775808"), 1 << 63),
            ("timestamp-minus-zero", "timestamp_ms given as the JSON number -0: it is 0", .jsonNumber("-0"), 0),
        ]
        for (id, comment, v, n) in goodInts {
            try same(req, "int/\(id)", comment, setting(req.value, "timestamp_ms", v), reqOut(n), rules: ["R7.9-3", "R2.2-3"])
        }
        let badInts: [(String, String, CBOR)] = [
            ("timestamp-2p64-string", "timestamp_ms 2^64 as a string: one beyond uint64 (a wrapping parser gives 0)", .text("18446744073709551616")),
            ("timestamp-2p64-number", "timestamp_ms 2^64 as a JSON number: a double parser rounds it to a value it thinks fits", .jsonNumber("18446744073709551616")),
            ("timestamp-minus-1", "timestamp_ms -1: an unsigned member read as signed, or wrapped to 2^64-1", .int(-1)),
            ("timestamp-minus-1-string", "timestamp_ms \"-1\": a negative decimal string for an unsigned member", .text("-1")),
            ("timestamp-true", "timestamp_ms true: a boolean read as 1", .bool(true)),
            ("timestamp-1.0", "timestamp_ms 1.0: a number with a fraction part is not an integer (JavaScript cannot tell)", .jsonNumber("1.0")),
            ("timestamp-1e0", "timestamp_ms 1e0: an exponent is not an integer", .jsonNumber("1e0")),
            ("timestamp-1e3-string", "timestamp_ms \"1e3\": not a canonical decimal string", .text("1e3")),
            ("timestamp-plus-sign", "timestamp_ms \"+5\": Swift's Int(\"+5\") and Python's int accept it", .text("+5")),
            ("timestamp-leading-zero", "timestamp_ms \"05\": a leading zero", .text("05")),
            ("timestamp-space", "timestamp_ms \" 5\": Python's int strips the space", .text(" 5")),
            ("timestamp-underscore", "timestamp_ms \"1_000\": Python's int accepts digit separators", .text("1_000")),
            ("timestamp-empty-string", "timestamp_ms \"\"", .text("")),
            ("timestamp-minus-zero-string", "timestamp_ms \"-0\": not canonical (a leading minus only for negative values)", .text("-0")),
            ("timestamp-array", "timestamp_ms [5]", .array([.unsigned(5)])),
            ("timestamp-object", "timestamp_ms {}", .object([])),
        ]
        for (id, comment, v) in badInts {
            try input(req, "int/\(id)", comment, "timestamp_ms", v, .inputBadType, rules: ["R7.9-3", "R2.2-3"])
        }
        var o = f.offer
        o.sizeBytes = 5
        try same(off, "int/size-bytes-decimal-string", "size_bytes as the decimal string \"5\"", setting(off.value, "size_bytes", .text("5")), o.encoded, rules: ["R7.9-3", "R2.2-3"])
        try input(off, "int/size-bytes-2p64", "size_bytes 2^64 as a string: one beyond uint64", "size_bytes", .text("18446744073709551616"), .inputBadType, rules: ["R7.9-3", "R2.2-3"])
        try input(off, "int/size-bytes-float", "size_bytes 38.0", "size_bytes", .jsonNumber("38.0"), .inputBadType, rules: ["R7.9-3", "R2.2-3"])
        try input(off, "int/size-bytes-false", "size_bytes false", "size_bytes", .bool(false), .inputBadType, rules: ["R7.9-3", "R2.2-3"])
        // Booleans.
        try input(ack, "input/ok-string", "ok given as \"true\": a string read as truthy", "ok", .text("true"), .inputBadType, rules: ["R2.2-6", "R7.9-1"])
        try input(ack, "input/ok-zero", "ok given as 0", "ok", .unsigned(0), .inputBadType, rules: ["R2.2-6", "R7.9-1"])

        // Input check order (§2.2 rule 7): table order, each member completely.
        try b.error("order/request-id-before-timestamp", "encode_request", "request_id 15 bytes and timestamp_ms -1: request_id is first in the table (input_bad_length, not input_bad_type)",
                    rules: ["R7.9-2", "R2.2-7"], twoFaults: true,
                    input: setting(setting(req.value, "request_id", .bytes(Array(f.requestID.prefix(15)))), "timestamp_ms", .int(-1)), .inputBadLength)
        try b.error("order/hex-before-later-missing", "encode_request", "request_id odd-length hex and no reply_pubkey: the first member is checked completely before the next is looked for",
                    rules: ["R7.9-2", "R2.2-7"], twoFaults: true,
                    input: setting(setting(req.value, "request_id", .text("abc")), "reply_pubkey", nil), .inputBadValue)
        try b.error("order/blob-id-before-size", "encode_offer", "blob_id 31 bytes and size_bytes true: blob_id first (a reader in JSON member order reports size_bytes)",
                    rules: ["R7.9-2", "R2.2-7"], twoFaults: true,
                    input: .object([("size_bytes", .bool(true)), ("sha256", .bytes(f.offer.sha256)), ("nonce", .bytes(f.nonce)), ("key", .text("xyz")),
                                    ("blob_id", .bytes(Array(f.blobID.prefix(31))))]), .inputBadLength)
        try b.error("order/request-id-before-ok", "encode_ack", "ok listed first in JSON as the string \"yes\", request_id of 17 bytes: request_id is first in the table",
                    rules: ["R7.9-2", "R2.2-7"], twoFaults: true,
                    input: .object([("ok", .text("yes")), ("request_id", .bytes(f.requestID + [0]))]), .inputBadLength)
    }

    static func base64(_ b: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var i = 0
        while i < b.count {
            let chunk = Array(b[i..<min(i + 3, b.count)])
            let n = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for j in 0..<4 { out.append(j <= chunk.count ? alphabet[(n >> (18 - 6 * j)) & 63] : "=") }
            i += 3
        }
        return out
    }

    // MARK: decode_*: malformed bytes

    static func malformed(_ b: inout Builder, _ m: Message, others: [Message]) throws {
        let op = "decode_\(m.name)"
        let good = enc(.object(m.wire))
        var cases: [(String, String, [UInt8], ErrorCode, [String])] = []
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
            ("empty", "no bytes at all", [], .cborTruncated, ["R1-6", "R7.2-2"]),
            ("truncated-last-byte", "the last byte cut off", Array(good.dropLast()), .cborTruncated, ["R1-6", "R7.2-2"]),
            ("truncated-half", "cut in half", Array(good.prefix(good.count / 2)), .cborTruncated, ["R1-6", "R7.2-2"]),
            ("trailing-byte", "one byte after the map: a decoder that stops after one item accepts it", good + [0x00], .cborTrailingBytes, ["R1-14", "R7.2-2"]),
            ("trailing-map", "a second map after the first", good + good, .cborTrailingBytes, ["R1-14", "R7.2-2"]),
            ("map-head-long", "the map's length in a one-byte argument where the initial byte holds it", [0xb8, UInt8(m.wire.count)] + good.dropFirst(), .cborNonCanonical, ["R1-1", "R1-7", "R7.2-2"]),
            ("indefinite-map", "an indefinite-length map (a streaming encoder's default)", [0xbf] + good.dropFirst() + [0xff], .cborIndefiniteLength, ["R1-2", "R1-8", "R7.2-2"]),
            ("keys-unsorted", "members in the reverse of the §1 order (an encoder that keeps insertion order)", rawMap(sorted.reversed()), .cborUnsortedMapKeys, ["R1-3", "R1-12", "R7.2-2"]),
            ("key-duplicated", "the last member twice: a decoder that keeps the last (or first) value accepts it", rawMap(sorted + [sorted.last!]), .cborDuplicateMapKey, ["R1-3", "R1-11", "R7.2-2"]),
            ("not-a-map", "an array of the values", enc(.array(m.wire.map(\.1))), .syncBadType, ["R7.2-3"]),
            ("integer-key", "an extra member with integer key 0", enc(.map(m.wire.map { (CBOR.text($0.0), $0.1) } + [(CBOR.unsigned(0), CBOR.unsigned(0))])), .syncBadType, ["R7.2-3"]),
            ("type-missing", "no type member", entries { set(&$0, "type", nil) }, .syncMissingField, ["R7.2-4"]),
            ("type-not-text", "type given as a byte string", entries { set(&$0, "type", .bytes(Array(m.tag.rawValue.utf8))) }, .syncBadType, ["R7.2-4"]),
            ("type-unknown", "type sync_delta", entries { set(&$0, "type", .text("sync_delta")) }, .syncWrongPayloadType, ["R7.2-4"]),
            ("unknown-member", "an extra member this version does not define: a tolerant decoder ignores it", entries { set(&$0, "extra", .unsigned(1)) }, .syncUnknownField, ["R7.2-5"]),
            ("type-null", "type null: null is a value of the wrong type, not an absent member", entries { set(&$0, "type", .null) }, .syncBadType, ["R7.2-4", "R7.2-6"]),
            ("type-uppercase", "type \"\(m.tag.rawValue.uppercased())\": tags compare byte for byte, not case-insensitively", entries { set(&$0, "type", .text(m.tag.rawValue.uppercased())) }, .syncWrongPayloadType, ["R7.2-4"]),
            ("type-trailing-space", "type with a trailing space: no trimming", entries { set(&$0, "type", .text(m.tag.rawValue + " ")) }, .syncWrongPayloadType, ["R7.2-4"]),
        ]
        for o in others {
            cases.append(("is-\(o.name)", "a valid \(o.tag.rawValue) given where a \(m.tag.rawValue) belongs", enc(.object(o.wire)), .syncWrongPayloadType, ["R7.2-4"]))
        }
        for (name, shape) in m.fields {
            cases.append(("missing-\(name)", "no \(name)", entries { set(&$0, name, nil) }, .syncMissingField, ["R7.2-6"]))
            switch shape {
            case .bytes(let n):
                cases.append(("\(name)-\(n - 1)-bytes", "\(name) one byte short", entries { set(&$0, name, .bytes([UInt8](repeating: 0x5a, count: n - 1))) }, .syncBadLength, ["R7.2-6"]))
                cases.append(("\(name)-\(n + 1)-bytes", "\(name) one byte long", entries { set(&$0, name, .bytes([UInt8](repeating: 0x5a, count: n + 1))) }, .syncBadLength, ["R7.2-6"]))
                cases.append(("\(name)-empty", "\(name) empty", entries { set(&$0, name, .bytes([])) }, .syncBadLength, ["R7.2-6"]))
                cases.append(("\(name)-as-hex-text", "\(name) as a hex text string", entries { set(&$0, name, .text(Hex.encode([UInt8](repeating: 0x5a, count: n)))) }, .syncBadType, ["R7.2-6"]))
                cases.append(("\(name)-null", "\(name) null: read as absent it would be sync_missing_field", entries { set(&$0, name, .null) }, .syncBadType, ["R7.2-6"]))
                let pairs = sortedPairs(m.wire).map { p -> ([UInt8], [UInt8]) in
                    guard p.0 == enc(.text(name)), case .bytes(let v)? = m.wire.first(where: { $0.0 == name })?.1 else { return p }
                    return (p.0, longHeadBytes(v))
                }
                cases.append(("\(name)-length-head-long", "\(name) with a length head longer than needed", rawMap(pairs), .cborNonCanonical, ["R1-1", "R1-7"]))
            case .uint:
                cases.append(("\(name)-negative", "\(name) -1 (major type 1): the wrong type, not a value out of range", entries { set(&$0, name, .int(-1)) }, .syncBadType, ["R7.1-1", "R7.2-6"]))
                cases.append(("\(name)-as-text", "\(name) as a decimal text string", entries { set(&$0, name, .text("1767225601234")) }, .syncBadType, ["R7.2-6"]))
                cases.append(("\(name)-as-float", "\(name) as a float", entries { set(&$0, name, .float(1.5)) }, .syncBadType, ["R7.1-1", "R7.2-6", "R1-16"]))
                cases.append(("\(name)-null", "\(name) null", entries { set(&$0, name, .null) }, .syncBadType, ["R7.2-6"]))
                let pairs = sortedPairs(m.wire).map { p -> ([UInt8], [UInt8]) in
                    p.0 == enc(.text(name)) ? (p.0, [0x1b, 0, 0, 0, 0, 0, 0, 0, 0x05]) : p
                }
                cases.append(("\(name)-head-long", "\(name) 5 in an 8-byte argument", rawMap(pairs), .cborNonCanonical, ["R1-1", "R1-7"]))
            case .bool:
                cases.append(("\(name)-as-integer", "\(name) as 1", entries { set(&$0, name, .unsigned(1)) }, .syncBadType, ["R7.2-6"]))
                cases.append(("\(name)-null", "\(name) null", entries { set(&$0, name, .null) }, .syncBadType, ["R7.2-6"]))
            }
        }
        for (name, comment, bytes, code, rules) in cases {
            let r = Result { () throws(WireError) -> Void in try m.decode(bytes) }
            guard case .failure(let e) = r, e.code == code else { try check(false, "\(op) \(name) should fail with \(code.rawValue), got \(r)"); return }
            try b.error("malformed/\(name)", op, comment, rules: rules, input: cborInput(bytes), code)
        }
    }

    // MARK: the §1 profile inside real payloads

    static func cborProfileCases(_ b: inout Builder, _ f: Fixture, _ ms: [Message]) throws {
        let (req, off, ack) = (ms[0], ms[1], ms[2])
        func bad(_ m: Message, _ id: String, _ comment: String, _ bytes: [UInt8], _ code: ErrorCode, rules: [String], twoFaults: Bool = false) throws {
            try b.error("cbor/\(id)", "decode_\(m.name)", comment, rules: rules, twoFaults: twoFaults, input: cborInput(bytes), code)
        }
        func sizeRaw(_ raw: [UInt8]) -> [UInt8] { withRaw(off.wire, "size_bytes", raw) }
        func okRaw(_ raw: [UInt8]) -> [UInt8] { withRaw(ack.wire, "ok", raw) }
        let typeText = Array(SyncPayloadType.syncOffer.rawValue.utf8)

        // Rule 1 / R1-7: a key written with a head longer than needed.
        let longKey = rawMap(sortedPairs(off.wire).map { $0.0 == enc(.text("type")) ? ([0x78, 0x04] + Array("type".utf8), $0.1) : $0 })
        try bad(off, "type-key-head-long", "the key \"type\" with a one-byte length argument (78 04): a generic decoder reads the same text", longKey, .cborNonCanonical, rules: ["R1-1", "R1-7", "R7.2-2"])
        // Rule 2 / R1-8: indefinite-length strings.
        let indefID = [0x5f, 0x48] + Array(f.requestID.prefix(8)) + [0x48] + Array(f.requestID.suffix(8)) + [0xff]
        try bad(req, "request-id-indefinite", "request_id as an indefinite byte string of two 8-byte chunks: the same 16 bytes, not the profile", withRaw(req.wire, "request_id", indefID), .cborIndefiniteLength, rules: ["R1-2", "R1-8", "R7.2-2"])
        try bad(off, "type-indefinite-text", "type as an indefinite text string in two chunks", withRaw(off.wire, "type", [0x7f, 0x64] + Array("sync".utf8) + [0x66] + Array("_offer".utf8) + [0xff]), .cborIndefiniteLength, rules: ["R1-2", "R1-8"])
        // R1-9: reserved additional information.
        try bad(off, "size-bytes-ai-28", "size_bytes written 1c: additional information 28 is reserved", sizeRaw([0x1c]), .cborReservedInfo, rules: ["R1-9"])
        try bad(off, "size-bytes-ai-31", "size_bytes written 1f: 31 in major type 0 is a stray break code, reserved, not an indefinite length", sizeRaw([0x1f]), .cborReservedInfo, rules: ["R1-9"])
        try bad(off, "size-bytes-negative-ai-31", "size_bytes written 3f: 31 in major type 1", sizeRaw([0x3f]), .cborReservedInfo, rules: ["R1-9"])
        try bad(off, "size-bytes-tag-ai-31", "size_bytes written df: 31 in major type 6", sizeRaw([0xdf, 0x00]), .cborReservedInfo, rules: ["R1-9"])
        try bad(off, "size-bytes-break", "size_bytes written ff: a break with no indefinite item open", sizeRaw([0xff]), .cborReservedInfo, rules: ["R1-9"])
        // R1-4 / R1-16: floats.
        try bad(off, "size-bytes-half-float", "size_bytes as the half float 1.0 (f93c00): valid CBOR, the wrong type (JavaScript decoders cannot tell it from 1)", sizeRaw([0xf9, 0x3c, 0x00]), .syncBadType, rules: ["R1-16", "R7.1-1"])
        try bad(off, "size-bytes-single-float", "size_bytes as the single float 1.0 (fa3f800000): half precision represents it, so not the profile", sizeRaw([0xfa, 0x3f, 0x80, 0x00, 0x00]), .cborNonCanonical, rules: ["R1-4", "R1-7"])
        try bad(off, "size-bytes-nan", "size_bytes NaN (f97e00): canonical, the wrong type", sizeRaw([0xf9, 0x7e, 0x00]), .syncBadType, rules: ["R1-16", "R7.1-1"])
        try bad(off, "size-bytes-nan-payload", "size_bytes a NaN with a payload (f97e01)", sizeRaw([0xf9, 0x7e, 0x01]), .cborNonCanonical, rules: ["R1-4", "R1-7"])
        // Each float rule of R1-7 on its own, and floats that no shorter precision holds (a NaN
        // test written as an order, a single-precision test that never runs on a double, a
        // round-trip test written `<=`: cosmic-ray survivors of pixie's reader, issue 25).
        try bad(off, "size-bytes-nan-payload-below", "size_bytes a NaN whose bits f97c01 sort below f97e00", sizeRaw([0xf9, 0x7c, 0x01]), .cborNonCanonical, rules: ["R1-4", "R1-7"])
        try bad(off, "size-bytes-single-nan", "size_bytes NaN in single precision (fa7fc00000): only f97e00 is a NaN", sizeRaw([0xfa, 0x7f, 0xc0, 0x00, 0x00]), .cborNonCanonical, rules: ["R1-4", "R1-7"])
        try bad(off, "size-bytes-double-nan", "size_bytes NaN in double precision (fb7ff8000000000000): only f97e00 is a NaN", sizeRaw([0xfb, 0x7f, 0xf8, 0, 0, 0, 0, 0, 0]), .cborNonCanonical, rules: ["R1-4", "R1-7"])
        try bad(off, "size-bytes-single-100000", "size_bytes the single float 100000.0 (fa47c35000): above half precision's 65504, so shortest; valid CBOR, the wrong type", sizeRaw([0xfa, 0x47, 0xc3, 0x50, 0x00]), .syncBadType, rules: ["R1-16", "R7.1-1"])
        try bad(off, "size-bytes-double-single-holds", "size_bytes the double 100000.0 (fb40f86a0000000000): single precision holds it, half does not, so not the profile", sizeRaw([0xfb, 0x40, 0xf8, 0x6a, 0, 0, 0, 0, 0]), .cborNonCanonical, rules: ["R1-4", "R1-7"])
        try bad(off, "size-bytes-double-0-7", "size_bytes the double 0.7 (fb3fe6666666666666): single precision rounds it down, so no shorter form holds it; valid CBOR, the wrong type", sizeRaw([0xfb, 0x3f, 0xe6, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66]), .syncBadType, rules: ["R1-16", "R7.1-1"])
        // R1-5: bignums.
        try bad(off, "size-bytes-bignum-2p64", "size_bytes 2^64 as a canonical bignum (tag 2): valid CBOR, not a uint (cbor2 decodes it to an int)", sizeRaw([0xc2, 0x49, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]), .syncBadType, rules: ["R1-5", "R1-16", "R7.1-1"])
        try bad(off, "size-bytes-bignum-fits", "size_bytes 2^56 as a bignum of 8 bytes: it fits major type 0, so not the profile", sizeRaw([0xc2, 0x48, 0x01, 0, 0, 0, 0, 0, 0, 0]), .cborNonCanonical, rules: ["R1-5", "R1-7"])
        try bad(off, "size-bytes-bignum-leading-zero", "size_bytes as a 10-byte bignum with a leading zero", sizeRaw([0xc2, 0x4a, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]), .cborNonCanonical, rules: ["R1-5", "R1-7"])
        try bad(off, "size-bytes-negative-bignum", "size_bytes as a negative bignum (tag 3)", sizeRaw([0xc3, 0x49, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]), .syncBadType, rules: ["R1-16", "R7.1-1"])
        // R1-7 holds tag 3 to the same content rules as tag 2 (a reader that checks tag 2 alone passes the case above).
        try bad(off, "size-bytes-negative-bignum-fits", "size_bytes −1 − 2^56 as a tag-3 bignum of 8 bytes: it fits major type 1, so not the profile", sizeRaw([0xc3, 0x48, 0x01, 0, 0, 0, 0, 0, 0, 0]), .cborNonCanonical, rules: ["R1-5", "R1-7"])
        try bad(off, "size-bytes-negative-bignum-leading-zero", "size_bytes as a 10-byte tag-3 bignum with a leading zero", sizeRaw([0xc3, 0x4a, 0x00, 0x01, 0, 0, 0, 0, 0, 0, 0, 0]), .cborNonCanonical, rules: ["R1-5", "R1-7"])
        try bad(off, "size-bytes-bignum-not-bytes", "size_bytes as tag 2 around the integer 1 (c201): a bignum's content must be a byte string", sizeRaw([0xc2, 0x01]), .cborNonCanonical, rules: ["R1-5", "R1-7"])
        try bad(off, "size-bytes-epoch-tag", "size_bytes inside tag 1 (epoch time): any other tag is valid CBOR and the wrong type", sizeRaw([0xc1, 0x18, 0x26]), .syncBadType, rules: ["R1-16", "R7.1-1"])
        // R1-10: simple values.
        try bad(ack, "ok-two-byte-true", "ok written f8 15 (true in the two-byte form)", okRaw([0xf8, 0x15]), .cborInvalidSimple, rules: ["R1-10"])
        try bad(ack, "ok-simple-19", "ok as simple value 19 (f3): valid CBOR, not a boolean", okRaw([0xf3]), .syncBadType, rules: ["R1-16", "R7.2-6"])
        try bad(ack, "ok-simple-32", "ok as simple value 32 (f8 20)", okRaw([0xf8, 0x20]), .syncBadType, rules: ["R1-16", "R7.2-6"])
        try bad(ack, "ok-undefined", "ok undefined (f7)", okRaw([0xf7]), .syncBadType, rules: ["R1-16", "R7.2-6"])
        // R1-13: UTF-8.
        try bad(off, "type-invalid-utf8", "type with one byte replaced by ff", withRaw(off.wire, "type", [0x6a] + typeText.prefix(9) + [0xff]), .cborInvalidUTF8, rules: ["R1-13"])
        try bad(off, "type-surrogate", "type followed by an encoded UTF-16 surrogate (ed a0 80): CESU-8 and lenient decoders accept it", withRaw(off.wire, "type", [0x6d] + typeText + [0xed, 0xa0, 0x80]), .cborInvalidUTF8, rules: ["R1-13"])
        try bad(off, "type-overlong", "type followed by an overlong encoding of / (c0 af)", withRaw(off.wire, "type", [0x6c] + typeText + [0xc0, 0xaf]), .cborInvalidUTF8, rules: ["R1-13"])
        try bad(off, "type-above-10ffff", "type followed by f4 90 80 80 (above U+10FFFF)", withRaw(off.wire, "type", [0x6e] + typeText + [0xf4, 0x90, 0x80, 0x80]), .cborInvalidUTF8, rules: ["R1-13"])
        try bad(off, "key-invalid-utf8", "an extra member whose key is not UTF-8 (61 ff): reported before the member is found unknown", rawMap(sortedPairs(off.wire) + [([0x62, 0x7a, 0xff], [0x00])]), .cborInvalidUTF8, rules: ["R1-13", "R1-17"], twoFaults: true)
        // R1-6: lengths beyond the input.
        try bad(off, "sha256-length-beyond-input", "sha256 declared as 2^32-1 bytes: truncated at its head, nothing allocated", withRaw(off.wire, "sha256", [0x5a, 0xff, 0xff, 0xff, 0xff]), .cborTruncated, rules: ["R1-6"])
        let mapHead = [0xb9, 0x03, 0xe8] + Array(enc(.object(off.wire)).dropFirst())
        try bad(off, "map-count-beyond-input", "a map declaring 1000 entries: more than half the bytes left", mapHead, .cborTruncated, rules: ["R1-6"])
        // R1-15 / R1-19: depth, at the limit and one beyond, through an unknown member that sorts last.
        let lastKey = enc(.text("zzzzzzzzzzz"))
        func deep(_ arrays: Int, _ tail: [UInt8]) -> [UInt8] { rawMap(sortedPairs(off.wire) + [(lastKey, [UInt8](repeating: 0x81, count: arrays) + tail)]) }
        try bad(off, "depth-31", "an unknown member nesting a scalar at depth 31: within the limit, so sync_unknown_field", deep(29, [0x00]), .syncUnknownField, rules: ["R1-15", "R7.2-5"])
        try bad(off, "depth-32", "a scalar at depth 32, the limit: still sync_unknown_field", deep(30, [0x00]), .syncUnknownField, rules: ["R1-15", "R7.2-5"])
        try bad(off, "depth-33", "a scalar at depth 33: cbor_depth_exceeded (a reader that counts only arrays, maps and tags lets it through)", deep(31, [0x00]), .cborDepthExceeded, rules: ["R1-15", "R7.2-2"])
        // R1-15 counts a map's key as deep as its value (a reader that reads keys one level
        // shallower passes every case above: cosmic-ray survivors of pixie's reader, issue 25).
        try bad(off, "key-depth-33", "a last member whose key is 31 nested arrays around a scalar, at depth 33: cbor_depth_exceeded, as for a value",
                rawMap(sortedPairs(off.wire) + [([UInt8](repeating: 0x81, count: 31) + [0x00], [0x00])]), .cborDepthExceeded, rules: ["R1-15"])
        try bad(off, "depth-33-input-ends", "a tag at depth 32 whose content, at depth 33, is missing: depth is checked before the byte is read",
                deep(30, [0xc1]), .cborDepthExceeded, rules: ["R1-15", "R1-19"], twoFaults: true)
        // R1-18: a count checked at its head, before the items.
        try bad(off, "array-count-before-items", "an unknown member's array declares 4 items with 3 bytes left, the first a non-shortest head (18 17): cbor_truncated at the head, not cbor_non_canonical",
                rawMap(sortedPairs(off.wire) + [(lastKey, [0x84, 0x18, 0x17, 0x00])]), .cborTruncated, rules: ["R1-6", "R1-18"], twoFaults: true)
        // R1-20 (Part C.1): a key repeating a non-adjacent one.
        let okKey = enc(.text("ok")), typeKey = enc(.text("type"))
        let repeated = rawMap([(okKey, [0xf5]), (typeKey, enc(.text("sync_ack"))), (okKey, [0xf5])])
        try bad(ack, "key-repeated-not-adjacent", "keys ok, type, ok: the repeat is compared with type only and sorts below it, so cbor_unsorted_map_keys (a reader that checks a set of all earlier keys says duplicate)",
                repeated, .cborUnsortedMapKeys, rules: ["R1-11", "R1-12", "R1-20"], twoFaults: true)
        // R1-17: byte order decides.
        let sortedReq = sortedPairs(req.wire)
        try bad(req, "unsorted-then-trailing", "keys out of order and a byte after the map: the key order comes first in the bytes", rawMap(sortedReq.reversed()) + [0x00], .cborUnsortedMapKeys, rules: ["R1-17"], twoFaults: true)
        let longMap = [0xb8, 0x04] + Array(rawMap(sortedReq).dropFirst())
        try bad(req, "long-head-then-truncated", "the map head in a one-byte argument (b8 04) and the input cut short at the end: the head comes first in the bytes", Array(longMap.dropLast()), .cborNonCanonical, rules: ["R1-17"], twoFaults: true)
        try bad(off, "invalid-utf8-then-unsorted", "type not UTF-8 and, later, two keys out of order: the UTF-8 fault comes first",
                rawMap([(enc(.text("key")), enc(.bytes(f.key))), (enc(.text("type")), [0x6a] + typeText.prefix(9) + [0xff]),
                        (enc(.text("sha256")), enc(.bytes(f.offer.sha256))), (enc(.text("nonce")), enc(.bytes(f.nonce)))]), .cborInvalidUTF8, rules: ["R1-17"], twoFaults: true)
        // Integers at their edges inside payloads.
        try bad(off, "size-bytes-255-head-long", "size_bytes 255 in a 2-byte argument (19 00ff)", sizeRaw([0x19, 0x00, 0xff]), .cborNonCanonical, rules: ["R1-1", "R1-7"])
        var o = f.offer
        for (name, v) in [("size-bytes-2p32", UInt64(1) << 32), ("size-bytes-2p32-minus-1", (UInt64(1) << 32) - 1), ("size-bytes-65535", 65_535), ("size-bytes-65536", 65_536)] {
            o.sizeBytes = v
            try b.add("int/\(name)", "decode_offer", "size_bytes \(v): the head width changes here", rules: ["R1-1", "R7.2-6"], input: cborInput(o.encoded), expected: .output(SyncOfferOutput.offer(o)))
        }
    }

    // MARK: §7.2 check order, two faults at once

    static func messageOrderCases(_ b: inout Builder, _ f: Fixture, _ ms: [Message]) throws {
        let (req, off, ack) = (ms[0], ms[1], ms[2])
        func wire(_ m: Message, _ changes: [(String, CBOR?)]) -> [UInt8] {
            var t = CBOR.object(m.wire)
            for (k, v) in changes { t = setting(t, k, v) }
            return enc(t)
        }
        try b.error("order/not-a-map-trailing-byte", "decode_request", "an array followed by one more byte: the whole input is read under §1 first (cbor_trailing_bytes, not sync_bad_type)",
                    rules: ["R7.2-7", "R7.2-2"], twoFaults: true, input: cborInput(enc(.array([])) + [0x00]), .cborTrailingBytes)
        try b.error("order/integer-key-before-type", "decode_request", "a map {0: 0}: a non-text key is reported before the missing type",
                    rules: ["R7.2-7", "R7.2-3"], twoFaults: true, input: cborInput(enc(.map([(.unsigned(0), .unsigned(0))]))), .syncBadType)
        try b.error("order/type-before-unknown-member", "decode_offer", "type sync_delta and an extra member: the tag is checked before the member names",
                    rules: ["R7.2-7", "R7.2-4"], twoFaults: true, input: cborInput(wire(off, [("type", .text("sync_delta")), ("aad", .bytes([1]))])), .syncWrongPayloadType)
        try b.error("order/missing-type-before-unknown-member", "decode_ack", "no type and an extra member: sync_missing_field for type first",
                    rules: ["R7.2-7", "R7.2-4"], twoFaults: true, input: cborInput(wire(ack, [("type", nil), ("aad", .bytes([1]))])), .syncMissingField)
        try b.error("order/unknown-member-before-missing", "decode_offer", "an extra member aad and no nonce: the names are checked before any member",
                    rules: ["R7.2-7", "R7.2-5"], twoFaults: true, input: cborInput(wire(off, [("aad", .bytes([1])), ("nonce", nil)])), .syncUnknownField)
        try b.error("order/table-not-encoding-order", "decode_offer", "blob_id 31 bytes and key a text string: table order reports blob_id (sync_bad_length); encoding order, which puts key first, would say sync_bad_type",
                    rules: ["R7.2-8", "R7.2-6"], twoFaults: true, input: cborInput(wire(off, [("blob_id", .bytes(Array(f.blobID.prefix(31)))), ("key", .text("k"))])), .syncBadLength)
        try b.error("order/missing-before-encoded-earlier", "decode_offer", "no blob_id and nonce of 11 bytes: blob_id is first in the table though nonce encodes first",
                    rules: ["R7.2-8", "R7.2-6"], twoFaults: true, input: cborInput(wire(off, [("blob_id", nil), ("nonce", .bytes(Array(f.nonce.prefix(11))))])), .syncMissingField)
        try b.error("order/table-not-encoding-order", "decode_ack", "request_id 15 bytes and ok given as 1: table order reports request_id (sync_bad_length); ok encodes first",
                    rules: ["R7.2-8", "R7.2-6"], twoFaults: true, input: cborInput(wire(ack, [("request_id", .bytes(Array(f.requestID.prefix(15)))), ("ok", .unsigned(1))])), .syncBadLength)
    }
}

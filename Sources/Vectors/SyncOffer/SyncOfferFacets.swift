import Primitives

/// The limits and check orders of §7.6 (the receiver) and §7.8 (the re-send schedule) as facets,
/// the decoders' orders of §7.2 and §7.4, the gate's for handle_request and the snapshot input's of
/// §7.9, and the cases derived from them (issue 23).
enum SyncOfferFacets {
    static let format = "sync_offer"

    static func refused(_ code: ErrorCode) -> LimitFacet.Effect { .behaviour("`receive` refuses with reason `\(code.rawValue)`") }

    static let promiseCap = LimitFacet(rule: "R7.6-3", format: format, quantity: "an offer's `size_bytes` against `max_blob_bytes`",
                                       bound: "size_bytes ≤ cap", side: .max, inclusive: true, effect: refused(.syncBlobOverCap))
    static let downloadCap = LimitFacet(rule: "R7.6-4", format: format, quantity: "the downloaded blob's length against `max_blob_bytes`",
                                        bound: "len(blob) ≤ cap", side: .max, inclusive: true, effect: refused(.syncBlobOverCap))
    static let tagLength = LimitFacet(rule: "R7.6-6", format: format, quantity: "the downloaded blob's length",
                                      bound: "len(blob) ≥ 16", side: .min, inclusive: true, effect: refused(.syncBlobTooShort))
    static let firstResend = LimitFacet(rule: "R7.8-2", format: format, quantity: "`elapsed_ms` against send 1's time 5,000",
                                        bound: "5,000·k ≤ t", side: .min, inclusive: true, effect: .behaviour("send 1 is due"))
    static let lastNext = LimitFacet(rule: "R7.8-3", format: format, quantity: "the number of sends due",
                                     bound: "< 7", side: .max, inclusive: false, effect: .behaviour("`next_at_ms` is none"))
    static let exhausted = LimitFacet(rule: "R7.8-4", format: format, quantity: "`elapsed_ms` against the schedule's end",
                                      bound: "35,000", side: .min, inclusive: true, effect: .behaviour("`exhausted` is true"))

    /// §7.4's type table (R7.4-4) in `decode_snapshot`: a present `normalized_hash` is 0 or 32
    /// bytes, a reaction's `reactor` 32.
    static let normalizedHashLength = LimitFacet(rule: "R7.4-4", name: "normalized-hash", format: format,
                                                 quantity: "the byte length of a present `normalized_hash` in a snapshot row (messages' `peerUserIDHash`)",
                                                 bound: "bstr of 0 or 32 bytes", side: .exact, inclusive: true, effect: .refuse(.syncBadLength))
    static let reactorLength = LimitFacet(rule: "R7.4-4", name: "reactor", format: format,
                                          quantity: "the byte length of a reaction's `reactor` in a snapshot row",
                                          bound: "reactor: bstr of 32 bytes", side: .exact, inclusive: true, effect: .refuse(.syncBadLength))

    /// §2's integer rendering (R2-3) on both sides, measured where an op's output carries a signed
    /// integer: a plan's `priority` in `decode_snapshot`. Inside, the vector writes a JSON number;
    /// beyond, a decimal string (a writer whose bound is `<` or a double in between gets one side
    /// wrong; pixie's lower bound was such a survivor, issue 25).
    static let jsonIntegerMax = LimitFacet(rule: "R2-3", name: "positive", format: format,
                                           quantity: "an output integer as a vector's JSON writes it (a plan's `priority`)",
                                           bound: "2^53", side: .max, inclusive: true, effect: .behaviour("written as a decimal string"))
    static let jsonIntegerMin = LimitFacet(rule: "R2-3", name: "negative", format: format,
                                           quantity: "an output integer as a vector's JSON writes it (a plan's `priority`)",
                                           bound: "−2^53", side: .min, inclusive: true, effect: .behaviour("written as a decimal string"))

    static let limits = [promiseCap, downloadCap, tagLength, firstResend, lastNext, exhausted, normalizedHashLength, reactorLength,
                         jsonIntegerMax, jsonIntegerMin]

    static func step(_ rule: String, _ a: OrderFacet.Check, _ b: OrderFacet.Check) -> OrderFacet {
        OrderFacet(rule: rule, format: format, checks: [a, b])
    }
    static let gate = OrderFacet.Check("gate", output: "dropped, sync_not_same_account")
    static let decode = OrderFacet.Check("decode", .cborTrailingBytes)
    static let cap = OrderFacet.Check("cap", output: "refused, sync_blob_over_cap")
    static let size = OrderFacet.Check("size", output: "refused, sync_size_mismatch")
    static let short = OrderFacet.Check("too-short", output: "refused, sync_blob_too_short")
    static let hash = OrderFacet.Check("hash", output: "refused, sync_hash_mismatch")
    static let open = OrderFacet.Check("open", output: "refused, sync_auth_failed")
    static let payload = OrderFacet.Check("payload", output: "refused, sync_payload_invalid")

    static let orders = [
        step("R7.6-11", gate, decode), step("R7.6-12", decode, cap), step("R7.6-13", cap, size), step("R7.6-14", size, short),
        step("R7.6-15", short, hash), step("R7.6-16", hash, open), step("R7.6-17", open, payload),
    ]

    /// The decoders' orders (§7.2 for the three messages, §7.4 for the snapshot), derived on
    /// `decode_offer` and `decode_snapshot`.
    static let decodeOrders = [
        OrderFacet(rule: "R7.2-7", format: format, checks: [
            .init("cbor", .cborTrailingBytes), .init("map-keys", .syncBadType), .init("type", .syncWrongPayloadType),
            .init("names", .syncUnknownField), .init("values", .syncBadLength),
        ]),
        OrderFacet(rule: "R7.2-8", format: format, checks: [.init("blob-id-length", .syncBadLength), .init("key-type", .syncBadType)]),
        OrderFacet(rule: "R7.4-15", format: format, checks: [
            .init("unknown-member", .syncUnknownField), .init("version", .syncUnsupportedVersion),
            .init("namespaces-row", .syncBadLength), .init("provider-keys", .syncBadValue),
        ]),
        OrderFacet(rule: "R7.4-16", format: format, checks: [
            .init("first-namespace-row", .syncUnknownField), .init("later-value", .syncBadType), .init("last-name", .unknownNamespace),
        ]),
        OrderFacet(rule: "R7.4-17", format: format, checks: [.init("zz-unknown", .syncUnknownField), .init("plan-id-length", .syncBadLength)]),
        OrderFacet(rule: "R7.4-18", format: format, checks: [
            .init("member-type", .syncBadType), .init("required-missing", .syncMissingField), .init("key-repeated", .duplicateKey),
        ]),
        OrderFacet(rule: "R7.4-19", format: format, checks: [.init("element-2-order", .syncBadValue), .init("element-3-type", .syncBadType)]),
    ]

    /// R7.3-2 for `handle_request` (`receive`'s is R7.6-11): the gate before the payload is parsed.
    static let requestGate = step("R7.3-2", gate, decode)
    /// R7.9-7 and R7.9-8, `encode_snapshot`'s input: the names, then the namespaces in §4.1 order,
    /// each row element by element; in a row, the §4 row, then the snapshot fields in table order.
    static let inputOrders = [
        OrderFacet(rule: "R7.9-7", format: format, checks: [
            .init("names", .unknownNamespace), .init("messages-row", .inputBadLength), .init("plans-row-1", .inputMissingField),
            .init("plans-row-2", .inputBadType),
        ]),
        OrderFacet(rule: "R7.9-8", format: format, checks: [
            .init("row", .inputMissingField), .init("pubkey", .inputBadValue), .init("channel-key", .inputBadType),
        ]),
    ]

    /// Import on an equal sort key: the held row stays, whatever either side's content (R7.7-1).
    static let tieBreaks = [
        TieBreakFacet(rule: "R7.7-1", format: format, tie: "a held row is kept as it is, whatever either side's content",
                      decides: "an incoming row whose key the store holds is not inserted and changes nothing", others: [.syncImportOverwrites]),
    ]

    static let all: [Facet] = limits.map(Facet.limit) + (orders + decodeOrders + [requestGate] + inputOrders).map(Facet.order)
        + tieBreaks.map(Facet.tieBreak)

    static let boundless: [String: String] = [
        "R7.2-2": "\"a head longer than needed\" is §1's canonical-length rule (the cbor cases), not a bound of §7",
        "R7.5-1": "the tag's 16 bytes are a layout; the length check is R7.6-6's facet",
        "R7.5-3": "the default cap's value; the cap's edges are R7.6-3's and R7.6-4's facets (receive/refused/over-default-cap and its neighbours pin the default)",
        "R7.6-8": "the tag's 16 bytes are a layout",
        "R7.4-5": "says a `normalized_hash` of 0 bytes is written as the member with an empty byte string (an encoding statement); the table's lengths are R7.4-4's facets",
        "R7.4-12": "its statement carries the numbered decoding steps before it (an order, R7.4-15 …), no bound",
        "R7.7-1": "its statement carries §7.6's closing prose (\"lengths before the hash\": an order, R7.6-15), no bound",
        "R7.9-11": "its statement carries the op table's shapes (`size_bytes` is a member name), no bound",
        "R7.9-3": "the uint64 range is §2.2's (the input battery's, another part of issue 23)",
    ]

    static let declared = FormatFacets(format: format, section: "7", facets: all, boundless: boundless,
                                       measuredElsewhere: ["R7.9-2": .inputOrder, "R7.9-6": .inputBeforeRules])
}

// MARK: - derived cases

extension SyncOfferFacets {
    typealias V = SyncOfferVectors

    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(SyncOfferHandler()) }

    /// One `receive` input as the faults of §7.6 see it; each flag breaks one step alone.
    struct Receive {
        var stranger = false, badOffer = false, overCap = false, sizeOff = false
        var short = false, hashOff = false, wrongKey = false, garbage = false
    }

    static func reason(_ out: CBOR) -> CBOR? { out["reason"] }

    static func cases(_ f: V.Fixture) throws -> [VectorCase] {
        var b = builder()
        let n = UInt64(f.blob.count)
        func input(offer: SyncOffer, blob: [UInt8], cap: UInt64?) -> CBOR {
            V.receiveInput(offer: offer.encoded, requestID: f.requestID, blob: blob, own: f.ownHash, sender: f.ownHash, cap: cap)
        }
        func notReason(_ code: ErrorCode) -> (CBOR) -> Bool { { reason($0) != .text(code.rawValue) } }
        try b.limit(promiseCap, op: "receive", slug: "size-bytes-against-cap",
                    comment: "max_blob_bytes = the blob's length n, the offer promising n − 1, n and n + 1 bytes",
                    input: { d in var o = f.offer; o.sizeBytes = UInt64(Int64(n) + Int64(d)); return input(offer: o, blob: f.blob, cap: n) },
                    inside: notReason(.syncBlobOverCap))
        try b.limit(downloadCap, op: "receive", slug: "blob-against-cap",
                    comment: "max_blob_bytes = size_bytes = n, the download n − 1, n and n + 1 bytes long",
                    input: { d in
                        let blob = d < 0 ? Array(f.blob.dropLast()) : f.blob + [UInt8](repeating: 0, count: d)
                        return input(offer: f.offer, blob: blob, cap: n)
                    }, inside: notReason(.syncBlobOverCap))
        let sixteen = try SyncBlob.seal([], key: f.key, nonce: f.nonce)
        try b.limit(tagLength, op: "receive", slug: "blob-tag-length",
                    comment: "a blob of 15, 16 and 17 bytes, each with an offer naming its own size and hash",
                    input: { d in
                        let blob = d < 0 ? Array(sixteen.prefix(15)) : d == 0 ? sixteen : try SyncBlob.seal([0x00], key: f.key, nonce: f.nonce)
                        return input(offer: SyncBlob.offer(for: blob, blobID: f.blobID, key: f.key, nonce: f.nonce), blob: blob, cap: nil)
                    }, inside: notReason(.syncBlobTooShort))
        func schedule(_ t: Int) -> CBOR { .object([("elapsed_ms", .unsigned(UInt64(t)))]) }
        try b.limit(firstResend, op: "schedule", slug: "first-resend", comment: "elapsed_ms 4,999, 5,000 and 5,001",
                    input: { d in schedule(5_000 + d) }, inside: { ($0["sends"]?.arrayValue?.count ?? 0) >= 2 })
        try b.limit(lastNext, op: "schedule", slug: "last-next", comment: "elapsed_ms 29,999 (6 sends due) and 30,000 (7 due)", edges: [.below, .at],
                    input: { d in schedule(30_000 + d) }, inside: { $0["next_at_ms"] != .null })
        try b.limit(exhausted, op: "schedule", slug: "exhausted", comment: "elapsed_ms 34,999, 35,000 and 35,001",
                    input: { d in schedule(35_000 + d) }, inside: { $0["exhausted"] == .bool(true) })

        let otherKey = [UInt8](repeating: 0x6b, count: 32)
        func build(_ m: Receive) throws -> CBOR {
            // A plaintext that is not a snapshot (one CBOR unsigned integer) for the payload fault.
            var blob = try SyncBlob.seal(m.garbage ? [0x01] : f.plaintext, key: f.key, nonce: f.nonce)
            if m.short { blob = Array(blob.prefix(15)) }
            var offer = SyncBlob.offer(for: blob, blobID: f.blobID, key: m.wrongKey ? otherKey : f.key, nonce: f.nonce)
            if m.sizeOff { offer.sizeBytes += 1 }
            if m.hashOff { offer.sha256[0] ^= 0x01 }
            return V.receiveInput(offer: offer.encoded + (m.badOffer ? [0x00] : []), requestID: f.requestID, blob: blob, own: f.ownHash,
                                  sender: m.stranger ? f.strangerHash : f.ownHash, cap: m.overCap ? UInt64(blob.count) - 1 : nil)
        }
        let faults: [String: (Receive) -> Receive] = [
            "gate": { var m = $0; m.stranger = true; return m }, "decode": { var m = $0; m.badOffer = true; return m },
            "cap": { var m = $0; m.overCap = true; return m }, "size": { var m = $0; m.sizeOff = true; return m },
            "too-short": { var m = $0; m.short = true; return m }, "hash": { var m = $0; m.hashOff = true; return m },
            "open": { var m = $0; m.wrongKey = true; return m }, "payload": { var m = $0; m.garbage = true; return m },
        ]
        let reasons: [String: ErrorCode] = [
            "gate": .syncNotSameAccount, "cap": .syncBlobOverCap, "size": .syncSizeMismatch, "too-short": .syncBlobTooShort,
            "hash": .syncHashMismatch, "open": .syncAuthFailed, "payload": .syncPayloadInvalid,
        ]
        for o in orders {
            var output: [Int: (CBOR) -> Bool] = [:]
            for (i, c) in o.checks.enumerated() where c.code == nil {
                let code = reasons[c.name]!
                output[i] = { reason($0) == .text(code.rawValue) }
            }
            try b.order(o, op: "receive", slug: "receive", comment: "the typical blob and its offer from a sibling",
                        base: Receive(), faults: o.checks.map { faults[$0.name]! }, input: build, output: output)
        }
        try decodeOrderCases(&b, f)
        return b.cases
    }

    static func decodeOrderCases(_ b: inout FacetCaseBuilder, _ f: V.Fixture) throws {
        func derive(_ o: OrderFacet, op: String, slug: String, comment: String, output: [Int: (CBOR) -> Bool] = [:],
                    _ input: @escaping (FaultSet) throws -> CBOR) throws {
            try b.order(o, op: op, slug: slug, comment: comment, output: output, input: input)
        }
        func derive(_ o: OrderFacet, op: String, slug: String, comment: String, _ bytes: @escaping (FaultSet) throws -> [UInt8]) throws {
            try derive(o, op: op, slug: slug, comment: comment) { V.cborInput(try bytes($0)) }
        }
        let o = decodeOrders
        // §7.2 on the typical offer. The offer's map as read back, so a fault edits one member.
        guard case .map(let offer) = try CBORReader.decode(f.offer.encoded) else { throw WireError(.syncBadType, "the typical offer is not a map") }
        func edited(_ m: FaultSet) -> [UInt8] {
            var e = offer
            func set(_ k: String, _ v: CBOR) {
                if let i = e.firstIndex(where: { $0.key == .text(k) }) { e[i].value = v } else { e.append(.init(key: .text(k), value: v)) }
            }
            if m.has("map-keys") { e.append(.init(key: .unsigned(0), value: .unsigned(0))) }
            if m.has("type") { set("type", .text(SyncPayloadType.syncAck.rawValue)) }
            if m.has("names") { set("zz", .unsigned(1)) }
            if m.has("values") || m.has("blob-id-length") { set("blob_id", .bytes(Array(f.blobID.prefix(31)))) }
            if m.has("key-type") { set("key", .text("k")) }
            return V.enc(.map(e)) + (m.has("cbor") ? [0x00] : [])
        }
        try derive(o[0], op: "decode_offer", slug: "offer", comment: "the typical offer; a byte after it, an integer key 0, type sync_ack, a member zz, blob_id 31 bytes", edited)
        try derive(o[1], op: "decode_offer", slug: "offer-table", comment: "the typical offer; blob_id 31 bytes (first in the table), key a text string (first in encoding order)", edited)

        // §7.4 on small snapshots of the typical rows.
        let plan = V.rowTree(SampleRows.typical(.plans))
        let badPlan = V.setting(plan, "planID", .bytes(Array(SampleRows.typical(.plans).keyBytes.prefix(15))))
        let v1 = ("version", CBOR.unsigned(1))
        try derive(o[2], op: "decode_snapshot", slug: "snapshot", comment: "one plan and a provider key; a member x, version 2, the plan's planID 15 bytes, provider_keys empty") { m in
            var members: [(String, CBOR)] = [("version", .unsigned(m.has("version") ? 2 : 1)),
                                              ("namespaces", .object([("plans", .array([m.has("namespaces-row") ? badPlan : plan]))])),
                                              ("provider_keys", m.has("provider-keys") ? .object([]) : .object([("openai", .text("k"))]))]
            if m.has("unknown-member") { members.append(("x", .unsigned(0))) }
            return V.snap(members)
        }
        let saga = V.rowTree(SampleRows.typical(.saga))
        try derive(o[3], op: "decode_snapshot", slug: "namespaces", comment: "saga (first in encoding order) and plans; a saga row with a field colour, plans the number 5, a namespace zzzzz after both") { m in
            var namespaces: [(String, CBOR)] = [("saga", .array([m.has("first-namespace-row") ? V.setting(saga, "colour", .text("red")) : saga])),
                                                ("plans", m.has("later-value") ? .unsigned(5) : .array([plan]))]
            if m.has("last-name") { namespaces.append(("zzzzz", .array([plan]))) }
            return V.snap([v1, ("namespaces", .object(namespaces))])
        }
        try derive(o[4], op: "decode_snapshot", slug: "row-members", comment: "one plan; a field zz (which encodes before planID), planID 15 bytes") { m in
            var row = m.has("plan-id-length") ? badPlan : plan
            if m.has("zz-unknown") { row = V.setting(row, "zz", .unsigned(1)) }
            return V.oneNamespace("plans", [row])
        }
        let plans2 = [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)].sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
        let first = V.rowTree(plans2[0])
        try derive(o[5], op: "decode_snapshot", slug: "second-row", comment: "two plans in key order; the second with priority a text string, without title, with the first's planID") { m in
            var row = V.rowTree(plans2[1])
            if m.has("member-type") { row = V.setting(row, "priority", .text("high")) }
            if m.has("required-missing") { row = V.setting(row, "title", nil) }
            if m.has("key-repeated") { row = V.setting(row, "planID", first["planID"]) }
            return V.oneNamespace("plans", [first, row])
        }
        try derive(o[6], op: "decode_snapshot", slug: "text-set", comment: "a notebook row's tags [food, gold, zest]; the second Zest (below food), the third the number 5") { m in
            let tags: [CBOR] = [.text("food"), .text(m.has("element-2-order") ? "Zest" : "gold"), m.has("element-3-type") ? .unsigned(5) : .text("zest")]
            return V.oneNamespace("notebook", [V.setting(V.rowTree(SampleRows.typical(.notebook)), "tags", .array(tags))])
        }

        // R2-3 on both sides: a plan's priority at ±2^53 and one step either way. The inside
        // answer is the JSON number; the rendering, not the tree, is what the rule decides.
        func priority(_ v: Int64) -> CBOR { V.cborInput(V.oneNamespace("plans", [V.setting(V.rowTree(SampleRows.typical(.plans)), "priority", .int(v))])) }
        func writtenAsNumber(_ v: Int64) -> (CBOR) -> Bool { { out in out.json.compact.contains("\"priority\":\(v)") } }
        let jsonSafe = Int64(CBOR.jsonSafeInteger)
        try b.limit(jsonIntegerMax, op: "decode_snapshot", slug: "json-integer-positive", comment: "a plan's priority 2^53 − 1, 2^53 and 2^53 + 1",
                    input: { d in priority(jsonSafe + Int64(d)) }, inside: { out in writtenAsNumber(jsonSafe - 1)(out) || writtenAsNumber(jsonSafe)(out) })
        try b.limit(jsonIntegerMin, op: "decode_snapshot", slug: "json-integer-negative", comment: "a plan's priority −2^53 − 1, −2^53 and −2^53 + 1",
                    input: { d in priority(-jsonSafe + Int64(d)) }, inside: { out in writtenAsNumber(-jsonSafe)(out) || writtenAsNumber(-jsonSafe + 1)(out) })

        // R7.4-4's lengths: a message's peerUserIDHash, and the first reaction of a full message.
        let msg = V.rowTree(SampleRows.typical(.messages))
        func messages(_ row: CBOR) -> CBOR { V.cborInput(V.oneNamespace("messages", [row])) }
        func peer(_ n: Int) -> CBOR { messages(V.setting(msg, "peerUserIDHash", .bytes([UInt8](repeating: 0x70, count: n)))) }
        try b.limit(normalizedHashLength, op: "decode_snapshot", slug: "peer-user-id-hash", comment: "a message whose peerUserIDHash is 31, 32 and 33 bytes",
                    input: { d in peer(32 + d) })
        try b.limitExtra(normalizedHashLength, op: "decode_snapshot", slug: "peer-user-id-hash", label: "zero",
                         comment: "a message whose peerUserIDHash is present and empty: 0 bytes is a normalized_hash (accepted)", wantInside: true, input: peer(0))
        try b.limitExtra(normalizedHashLength, op: "decode_snapshot", slug: "peer-user-id-hash", label: "one",
                         comment: "a message whose peerUserIDHash is 1 byte: neither 0 nor 32 (refused)", wantInside: false, input: peer(1))
        let full = V.rowTree(SampleRows.full(.messages))
        try b.limit(reactorLength, op: "decode_snapshot", slug: "reactor", comment: "a message with three reactions, the first one's reactor 31, 32 and 33 bytes") { d in
            guard case .array(var reactions)? = full["reactions"], case .bytes(let reactor)? = reactions.first?["reactor"] else {
                throw WireError(.syncBadType, "the full message row has no reactions")
            }
            let resized = d < 0 ? Array(reactor.dropLast()) : reactor + [UInt8](repeating: 0x72, count: d)
            reactions[0] = V.setting(reactions[0], "reactor", .bytes(resized))
            return messages(V.setting(full, "reactions", .array(reactions)))
        }

        // R7.3-2: a stranger's request with a byte after it.
        try derive(requestGate, op: "handle_request", slug: "request", comment: "the typical request from a sibling; from a stranger, a byte after it",
                   output: [0: { $0["result"] == .text("dropped") }]) { m in
            .object([("request", .bytes(f.request.encoded + (m.has("decode") ? [0x00] : []))), ("own_user_id_hash", .bytes(f.ownHash)),
                     ("sender_user_id_hash", .bytes(m.has("gate") ? f.strangerHash : f.ownHash))])
        }
        // R7.9-7: plans listed first in JSON, messages second (§4.1 puts messages first), zzz last.
        let message = V.rowTree(SampleRows.typical(.messages))
        try derive(inputOrders[0], op: "encode_snapshot", slug: "snapshot-input",
                   comment: "plans (two rows, listed first) and messages; a namespace zzz, a 3-byte messageID, the first plan without title, the second's priority a text string") { m in
            var namespaces: [(String, CBOR)] = [
                ("plans", .array([m.has("plans-row-1") ? V.setting(V.rowTree(plans2[0]), "title", nil) : V.rowTree(plans2[0]),
                                  m.has("plans-row-2") ? V.setting(V.rowTree(plans2[1]), "priority", .text("high")) : V.rowTree(plans2[1])])),
                ("messages", .array([m.has("messages-row") ? V.setting(message, "messageID", .bytes([1, 2, 3])) : message])),
            ]
            if m.has("names") { namespaces.append(("zzz", .array([]))) }
            return .object([("namespaces", .object(namespaces))])
        }
        // R7.9-8: a contact carrying two snapshot fields.
        let contact = V.setting(V.setting(V.rowTree(SampleRows.typical(.contacts)), "pubkey", .bytes([1, 2, 3])),
                                "channelKey", .bytes([UInt8](repeating: 0xab, count: 32)))
        try derive(inputOrders[1], op: "encode_snapshot", slug: "contact-input",
                   comment: "a contact with pubkey and channelKey; without displayName, pubkey not hex, channelKey null") { m in
            var row = contact
            if m.has("row") { row = V.setting(row, "displayName", nil) }
            if m.has("pubkey") { row = V.setting(row, "pubkey", .text("zz")) }
            if m.has("channel-key") { row = V.setting(row, "channelKey", .null) }
            return .object([("namespaces", .object([("contacts", .array([row]))]))])
        }
    }
}

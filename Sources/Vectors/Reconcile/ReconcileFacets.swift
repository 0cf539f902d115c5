import Primitives

/// The limits and check orders of §5 as facets, and the cases derived from them (issue 23).
/// Inputs are built from `SampleRows` (each row its own fixed seed), the index rule's leaves and
/// fixed bytes, so these cases draw from no stream an existing case uses.
enum ReconcileFacets {
    static let format = "reconcile"

    static func limit(_ rule: String, _ name: String? = nil, _ quantity: String, bound: String, _ side: LimitFacet.Side,
                      inclusive: Bool = true, _ effect: LimitFacet.Effect) -> LimitFacet {
        LimitFacet(rule: rule, name: name, format: format, quantity: quantity, bound: bound, side: side, inclusive: inclusive, effect: effect)
    }

    // MARK: limits

    static let halfOpen = limit("R5.1-1", nil, "a bucket bound X against a row's key k: k is below X (in the bucket that ends at X) iff k < X",
                                bound: "k < hi", .min, inclusive: false, .behaviour("the row falls in the bucket ending at X (which claims no rows), so it ships"))
    static let writtenNumber = limit("R5.3-1", nil, "a bucket's `count` in `encode_frame`'s JSON text", bound: "2^64−1", .max,
                                     .refuse(.frameBadType))
    static let depth = limit("R5.3-5", nil, "the nesting depth of a frame's JSON text (the frame object is depth 1)", bound: "deeper than 32", .max,
                             .refuse(.frameInvalidJSON))
    static let vectorKey16 = limit("R5.3-14", "16", "the byte length of a messages response's `vectors` key", bound: "16", .exact,
                                   .refuse(.frameBadKeyLength))
    static let vectorKey32 = limit("R5.3-14", "32", "the byte length of a contacts response's `vectors` key", bound: "32 bytes", .exact,
                                   .refuse(.frameBadKeyLength))
    static let fineThreshold = limit("R5.2-2", nil, "the number n of a namespace's leaves given to `bucketize`", bound: "n ≤ 256", .max,
                                     .behaviour("one bucket per leaf (group size 1); beyond it, groups of ⌈n / 256⌉"))
    static let countZero = limit("R5.3-9", "zero", "a bucket's `count`", bound: "0", .min, .refuse(.frameNegativeCount))
    static let countMax = limit("R5.3-9", "max", "a bucket's `count`", bound: "2^64−1", .max, .refuse(.frameBadType))
    static let bucketCount = limit("R5.3-12", nil, "the number of buckets in a request", bound: "256 buckets", .max, .refuse(.frameTooManyBuckets))
    static let outputInteger = limit("R5.6-1", nil, "an integer in an output frame (a bucket's `count`)", bound: "2^53", .max,
                                     .behaviour("the integer is written as a JSON number, beyond it as a decimal string"))
    static let digestLength = limit("R5.7-1", nil, "the byte length of a `state_digest` frame's version-6 `digest`", bound: "417 bytes", .exact,
                                    .refuse(.digestWrongLength))

    static let limits = [halfOpen, writtenNumber, depth, vectorKey16, vectorKey32, fineThreshold, countZero, countMax, bucketCount, outputInteger, digestLength]

    // MARK: orders

    /// R5.3-7: `kind`, then (reconcile kinds) `namespace`.
    static let kindOrder = OrderFacet(rule: "R5.3-7", format: format, checks: [
        .init("kind", .frameUnknownKind), .init("namespace", .unknownNamespace),
    ])
    /// R5.3-10: the number of buckets before any bucket, then a bucket's members in turn.
    static let bucketOrder = OrderFacet(rule: "R5.3-10", format: format, checks: [
        .init("bucket-count", .frameTooManyBuckets), .init("lo", .frameMissingField), .init("hi", .frameBadType),
        .init("root", .frameBadRootLength), .init("count", .frameNegativeCount),
    ])
    /// R5.3-11: tiling only after every bucket is read.
    static let tilingOrder = OrderFacet(rule: "R5.3-11", format: format, checks: [
        .init("bucket", .frameNegativeCount), .init("tiling", .frameNotTiling),
    ])
    /// R5.3-13: `vectors`, `rows`, `tombstones`, then repeated keys.
    static let responseOrder = OrderFacet(rule: "R5.3-13", format: format, checks: [
        .init("vectors", .frameBadType), .init("rows", .unknownField), .init("tombstones", .frameBadKeyLength),
        .init("duplicate", .duplicateKey),
    ])
    /// R5.3-18: data keys in the order of their bytes, not the text's.
    static let dataKeyOrder = OrderFacet(rule: "R5.3-18", format: format, checks: [
        .init("lower-key", .frameBadType), .init("higher-key", .frameBadKeyLength),
    ])
    /// R5.4-1: the request decoded, then its kind.
    static let respondRequestOrder = OrderFacet(rule: "R5.4-1", format: format, checks: [
        .init("decode", .unknownNamespace), .init("kind", .inputBadValue),
    ])
    /// R5.4-2: the replica's rows, tombstones, vectors, then repeated keys, then leaves.
    static let replicaOrder = OrderFacet(rule: "R5.4-2", format: format, checks: [
        .init("rows", .inputMissingField), .init("tombstones", .inputBadLength), .init("vectors", .inputBadValue),
        .init("duplicate", .duplicateKey), .init("leaf", .notebookOffloadedWithoutHash),
    ])
    /// R5.7-2: `digest` as lowercase hex, then §4.8 (version, then length).
    static let digestFrameOrder = OrderFacet(rule: "R5.7-2", format: format, checks: [
        .init("hex", .frameBadType), .init("version", .digestUnsupportedVersion), .init("length", .digestWrongLength),
    ])
    /// R5.7-5: `local`, then `frame` (its codes, then its kind), then `reconciling`.
    static let receiveOrder = OrderFacet(rule: "R5.7-5", format: format, checks: [
        .init("local", .digestWrongLength), .init("frame", .frameMissingField), .init("kind", .inputBadValue),
        .init("reconciling", .inputBadType),
    ])

    static let orders = [kindOrder, bucketOrder, tilingOrder, responseOrder, dataKeyOrder, respondRequestOrder, replicaOrder, digestFrameOrder,
                         receiveOrder]

    /// §5.1's key order on a prefix tie: it decides both the order of the requester's buckets and
    /// which bucket a key falls in.
    static let tieBreaks = [
        TieBreakFacet(rule: "R5.1-1", format: format, tie: "a proper prefix sorts first",
                      decides: "a key that is a proper prefix of another is below it: its bucket comes first, and it is outside a bucket whose lo is the longer key", others: [.keysPrefixLast]),
    ]

    static let all: [Facet] = limits.map(Facet.limit) + orders.map(Facet.order) + tieBreaks.map(Facet.tieBreak)

    /// Rules of §5 whose words sound like a bound but state none.
    static let boundless: [String: String] = [
        "R5.3-2": "a writing order (key bytes, UTF-8 bytes of data keys), no bound",
    ]

    static let declared = FormatFacets(format: format, section: "5", facets: all, boundless: boundless)
}

// MARK: - derived cases

extension ReconcileFacets {
    typealias V = ReconcileVectors

    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(ReconcileHandler()) }

    static func bytes(_ n: Int, _ fill: UInt8) -> [UInt8] { [UInt8](repeating: fill, count: n) }
    static func decode(_ text: String) -> CBOR { .object([("json", .text(text))]) }
    /// A request's JSON text over bucket trees.
    static func request(_ ns: String, _ buckets: [CBOR]) -> String {
        V.text(.object([("kind", .text("reconcile_req")), ("namespace", .text(ns)), ("buckets", .array(buckets))]))
    }
    /// `n` tiling buckets of one index-rule leaf each, in contacts (the existing bucket-count
    /// cases are in messages).
    static func tiling(_ n: Int) -> [CBOR] {
        let leaves = LeafList.indexRule(count: n)
        return (0..<n).map { i in Bucket(lo: i == 0 ? [] : leaves[i].key, hi: i == n - 1 ? nil : leaves[i + 1].key, root: leaves[i].leaf, count: 1).tree }
    }

    /// `k + d` as a big-endian number of the same length (no wrap for the keys used here).
    static func shifted(_ k: [UInt8], by d: Int) -> [UInt8] {
        var out = k
        var carry = d
        for i in out.indices.reversed() where carry != 0 {
            let v = Int(out[i]) + carry
            out[i] = UInt8(truncatingIfNeeded: v)
            carry = v >> 8
        }
        return out
    }

    static func cases() throws -> [VectorCase] {
        var b = builder()
        try limitCases(&b)
        try orderCases(&b)
        return b.cases
    }

    static func limitCases(_ b: inout FacetCaseBuilder) throws {
        /// Group size 1: every bucket holds one leaf.
        func oneLeafEach(_ out: CBOR) -> Bool { (out["request"]?["buckets"]?.arrayValue ?? []).allSatisfy { $0["count"] == .unsigned(1) } }
        try b.limit(fineThreshold, op: "bucketize", slug: "fine-threshold", comment: "contacts with 255, 256 and 257 generated leaves", rules: ["R5.2-3"],
                    input: { d in
                        .object([("namespace", .text("contacts")), ("generate", .object([("rule", .text("index")), ("count", .unsigned(UInt64(256 + d)))]))])
                    }, inside: oneLeafEach)

        // A three-bucket contacts request, bucket 1's count moved.
        let three = tiling(3)
        func withCount(_ c: CBOR) -> CBOR { decode(request("contacts", three.enumerated().map { i, t in i == 1 ? V.with(t, "count", c) : t })) }
        try b.limit(countZero, op: "decode_frame", slug: "count-zero", comment: "a request whose bucket 1 has count −1, 0 and 1") { d in
            withCount(d < 0 ? .negative(0) : .unsigned(UInt64(d)))
        }
        try b.limit(countMax, op: "decode_frame", slug: "count-largest", comment: "a request whose bucket 1 has count 2^64 − 2, 2^64 − 1 and 2^64 (JSON numbers)") { d in
            withCount(d > 0 ? .jsonNumber("18446744073709551616") : .unsigned(UInt64.max - UInt64(-d)))
        }
        try b.limit(bucketCount, op: "decode_frame", slug: "bucket-count", comment: "a contacts request of 255, 256 and 257 tiling buckets", rules: ["R5.3-10"]) { d in
            decode(request("contacts", tiling(256 + d)))
        }
        let safe = CBOR.jsonSafeInteger
        try b.limit(outputInteger, op: "decode_frame", slug: "output-integer", comment: "a request whose bucket 1 has count 2^53 − 1, 2^53 and 2^53 + 1, decoded",
                    rules: ["R5.3-9"], input: { d in withCount(.unsigned(d < 0 ? safe - 1 : safe + UInt64(d))) },
                    inside: { out in if case .number? = out.json["frame"]?["buckets"]?.arrayValue?[1]["count"] { true } else { false } })

        // Two messages rows, the lower of key k; bucket 0 [ "", X ) claims no rows, bucket 1
        // [ X, ∞ ) claims both: row k ships iff it falls in bucket 0, i.e. k < X. (Two rows, and
        // the replica's empty tombstones and vectors, keep these inputs larger than the input
        // battery's respond bases, so its bases stay put.)
        let two = V.sortedByKey(V.rows(.messages, 0..<2))
        let k = two[0].keyBytes
        var enc = LeafEncoder()
        let bothRoot = try MerkleTree.root(namespace: .messages, keyedLeaves: try two.map { (key: $0.keyBytes, leaf: try enc.leaf($0)) })
        let empty = try MerkleTree.root(namespace: .messages, keyedLeaves: [])
        let replica = CBOR.object([("rows", .array(two.map(\.tree))), ("tombstones", .array([])), ("vectors", .object([]))])
        try b.limit(halfOpen, op: "respond", slug: "half-open-range", comment: "X = k − 1, k and k + 1 (16-byte big-endian) for a responder holding rows k and one above",
                    rules: ["R5.4-3", "R5.4-4"], input: { d in
                        let x = shifted(k, by: d)
                        let req = ReconcileRequest(namespace: .messages, buckets: [Bucket(lo: [], hi: x, root: empty, count: 0), Bucket(lo: x, hi: nil, root: bothRoot, count: 2)])
                        return .object([("request", req.tree), ("replica", replica)])
                    }, inside: { out in (out["response"]?["rows"]?.arrayValue ?? []).contains { $0["messageID"] == .bytes(k) } })

        func encodeCount(_ c: CBOR) -> CBOR {
            .object([("frame", .object([("kind", .text("reconcile_req")), ("namespace", .text("contacts")),
                                        ("buckets", .array(tiling(3).enumerated().map { i, t in i == 1 ? V.with(t, "count", c) : t }))]))])
        }
        try b.limit(writtenNumber, op: "encode_frame", slug: "written-count", comment: "a FRAME whose bucket 1 has count 2^64 − 2, 2^64 − 1 and 2^64",
                    rules: ["R5.3-9"], input: { d in encodeCount(d > 0 ? .jsonNumber("18446744073709551616") : .unsigned(UInt64.max - UInt64(-d))) },
                    inside: { out in
                        guard case .text(let json)? = out["json"] else { return false }
                        return json.contains("\"count\":1844674407370955161") && !json.contains("\"count\":\"")
                    })
        // Nested objects in an ignored member (the existing depth cases nest arrays).
        func nested(_ depth: Int) -> String {
            "{\"kind\":\"reconcile_req\",\"namespace\":\"settings\",\"x\":" + String(repeating: "{\"a\":", count: depth - 2) + "{}" + String(repeating: "}", count: depth - 2) + "}"
        }
        try b.limit(depth, op: "decode_frame", slug: "depth-objects", comment: "a settings request whose ignored member nests objects to a depth of 31, 32 and 33") { d in
            decode(nested(32 + d))
        }
        let vv = CBOR.object([("device-a", .unsigned(1))])
        func vectorKey(_ ns: String, _ n: Int) -> CBOR {
            decode(V.text(.object([("kind", .text("reconcile_resp")), ("namespace", .text(ns)), ("rows", .array([])),
                                   ("vectors", .object([(Hex.encode(bytes(n, 0x6d)), vv)]))])))
        }
        try b.limit(vectorKey16, op: "decode_frame", slug: "vectors-key-16", comment: "a messages response whose one vectors key is 15, 16 and 17 bytes") { d in
            vectorKey("messages", 16 + d)
        }
        try b.limit(vectorKey32, op: "decode_frame", slug: "vectors-key-32", comment: "a contacts response whose one vectors key is 31, 32 and 33 bytes") { d in
            vectorKey("contacts", 32 + d)
        }

        var store: [Namespace: [Row]] = [:]
        for ns in Namespace.allCases { store[ns] = [SampleRows.typical(ns)] }
        let encoded = try StateRoots.digest(store).encoded()
        func digestFrame(_ hex: String) -> CBOR { decode("{\"kind\":\"state_digest\",\"digest\":\"\(hex)\"}") }
        try b.limit(digestLength, op: "decode_frame", slug: "digest-length", comment: "a state_digest frame whose version-6 digest is 416, 417 and 418 bytes",
                    rules: ["R5.7-2"]) { d in
            digestFrame(Hex.encode(d < 0 ? Array(encoded.dropLast(-d)) : encoded + bytes(d, 0)))
        }
    }
}

extension ReconcileFacets {
    /// A request as the faults of R5.3-10 see it: 257 buckets, and bucket 1's members.
    struct Buckets { var tooMany = false, noLo = false, badHi = false, shortRoot = false, negativeCount = false }
    /// A messages response as the faults of R5.3-13 see it, its members written tombstones, rows,
    /// vectors (the reverse of the checking order).
    struct Response { var badVectors = false, unknownInRow = false, shortTombstone = false, rowAlsoTombstone = false }
    /// A notebook replica as the faults of R5.4-2 see it.
    struct Replica { var rowMissingTitle = false, shortTombstone = false, vectorKeyNotHex = false, liveAndTombstoned = false, offloadedWithoutHash = false }
    /// A `receive_digest` input as the faults of R5.7-5 see it.
    struct Receive { var shortLocal = false, frameMissingMember = false, otherKind = false, reconcilingText = false }

    static func orderCases(_ b: inout FacetCaseBuilder) throws {
        let three = tiling(3)
        try b.order(kindOrder, op: "decode_frame", slug: "kind", comment: "a three-bucket contacts request",
                    base: (kind: "reconcile_req", ns: "contacts"), faults: [{ m in (kind: "heartbeat", ns: m.ns) }, { m in (kind: m.kind, ns: "calendar") }],
                    input: { m in decode(V.text(.object([("kind", .text(m.kind)), ("namespace", .text(m.ns)), ("buckets", .array(three))]))) })

        let extra = three[2]
        try b.order(bucketOrder, op: "decode_frame", slug: "bucket", comment: "a three-bucket contacts request (faults in bucket 1; 257 buckets by repeating the last)",
                    base: Buckets(), faults: [
                        { var m = $0; m.tooMany = true; return m }, { var m = $0; m.noLo = true; return m },
                        { var m = $0; m.badHi = true; return m }, { var m = $0; m.shortRoot = true; return m },
                        { var m = $0; m.negativeCount = true; return m },
                    ], input: { m in
                        var one = three[1]
                        if m.noLo { one = V.without(one, "lo") }
                        if m.badHi { one = V.with(one, "hi", .text("zz")) }
                        if m.shortRoot { one = V.with(one, "root", .bytes(bytes(31, 0x3b))) }
                        if m.negativeCount { one = V.with(one, "count", .negative(0)) }
                        let buckets = [three[0], one, three[2]] + (m.tooMany ? [CBOR](repeating: extra, count: 254) : [])
                        return decode(request("contacts", buckets))
                    })
        try b.order(tilingOrder, op: "decode_frame", slug: "tiling", comment: "a three-bucket contacts request (bucket 2's count, bucket 0's lo)",
                    base: (negative: false, loSet: false), faults: [{ m in (negative: true, loSet: m.loSet) }, { m in (negative: m.negative, loSet: true) }],
                    input: { m in
                        var buckets = three
                        if m.negative { buckets[2] = V.with(buckets[2], "count", .negative(0)) }
                        if m.loSet { buckets[0] = V.with(buckets[0], "lo", .bytes([0x00])) }
                        return decode(request("contacts", buckets))
                    })

        let rows = V.sortedByKey(V.rows(.messages, 0..<2))
        let keyHex = rows.map { Hex.encode($0.keyBytes) }
        let vv = CBOR.object([("device-a", .unsigned(1))])
        try b.order(responseOrder, op: "decode_frame", slug: "response", comment: "a messages response of two rows, one tombstone and one vector, written tombstones, rows, vectors",
                    base: Response(), faults: [
                        { var m = $0; m.badVectors = true; return m }, { var m = $0; m.unknownInRow = true; return m },
                        { var m = $0; m.shortTombstone = true; return m }, { var m = $0; m.rowAlsoTombstone = true; return m },
                    ], input: { m in
                        var tombstones: [CBOR] = [.bytes(bytes(m.shortTombstone ? 15 : 16, 0x42))]
                        if m.rowAlsoTombstone { tombstones.append(.bytes(rows[1].keyBytes)) }
                        let trees = [rows[0].tree, m.unknownInRow ? V.with(rows[1].tree, "colour", .text("red")) : rows[1].tree]
                        return decode(V.text(.object([("kind", .text("reconcile_resp")), ("namespace", .text("messages")), ("tombstones", .array(tombstones)),
                                                      ("rows", .array(trees)), ("vectors", m.badVectors ? .text("x") : .object([(keyHex[0], vv)]))])))
                    })
        // Two vectors entries: ff…ff listed first, 00…00 (the lower key, checked first) second.
        let low = bytes(16, 0x00), high = bytes(16, 0xff)
        try b.order(dataKeyOrder, op: "decode_frame", slug: "vectors-keys", comment: "a messages response whose vectors list key ff…ff before key 00…00",
                    base: (lowBad: false, highShort: false), faults: [{ m in (lowBad: true, highShort: m.highShort) }, { m in (lowBad: m.lowBad, highShort: true) }],
                    input: { m in
                        let vectors: [(String, CBOR)] = [(Hex.encode(m.highShort ? Array(high.prefix(15)) : high), vv),
                                                         (Hex.encode(low), m.lowBad ? .object([("device-a", .text("x"))]) : vv)]
                        return decode(V.text(.object([("kind", .text("reconcile_resp")), ("namespace", .text("messages")), ("rows", .array([])),
                                                      ("vectors", .object(vectors))])))
                    })

        // respond: a notebook replica, the request made from its own rows.
        let notes = V.sortedByKey(V.rows(.notebook, 0..<3))
        let notebookRequest = try ReplicaNamespace(namespace: .notebook, rows: notes).request().tree
        let replicaTree = CBOR.object([("rows", .array(notes.map(\.tree))), ("tombstones", .array([])), ("vectors", .object([]))])
        try b.order(respondRequestOrder, op: "respond", slug: "request", comment: "a notebook request and a replica of its own three rows",
                    base: (response: false, calendar: false), faults: [{ m in (response: m.response, calendar: true) }, { m in (response: true, calendar: m.calendar) }],
                    input: { m in
                        let frame: CBOR = m.response
                            ? .object([("kind", .text("reconcile_resp")), ("namespace", .text("notebook")), ("rows", .array([]))])
                            : notebookRequest
                        return .object([("request", m.calendar ? V.with(frame, "namespace", .text("calendar")) : frame), ("replica", replicaTree)])
                    })
        try b.order(replicaOrder, op: "respond", slug: "replica", comment: "a notebook request and a replica of three rows, one tombstone and one vector",
                    base: Replica(), faults: [
                        { var m = $0; m.rowMissingTitle = true; return m }, { var m = $0; m.shortTombstone = true; return m },
                        { var m = $0; m.vectorKeyNotHex = true; return m }, { var m = $0; m.liveAndTombstoned = true; return m },
                        { var m = $0; m.offloadedWithoutHash = true; return m },
                    ], input: { m in
                        var rs = notes
                        if m.offloadedWithoutHash { rs[1]["bodyOffloaded"] = .bool(true) }
                        var trees = rs.map(\.tree)
                        if m.rowMissingTitle { trees[2] = V.without(trees[2], "title") }
                        var tombstones: [CBOR] = [.bytes(bytes(m.shortTombstone ? 15 : 16, 0x42))]
                        if m.liveAndTombstoned { tombstones.append(.bytes(notes[0].keyBytes)) }
                        let vectors: [(String, CBOR)] = [(m.vectorKeyNotHex ? "zz" : Hex.encode(notes[0].keyBytes), vv)]
                        return .object([("request", notebookRequest),
                                        ("replica", .object([("rows", .array(trees)), ("tombstones", .array(tombstones)), ("vectors", .object(vectors))]))])
                    })

        var store: [Namespace: [Row]] = [:]
        for ns in Namespace.allCases { store[ns] = [SampleRows.typical(ns)] }
        let encoded = try StateRoots.digest(store).encoded()
        try b.order(digestFrameOrder, op: "decode_frame", slug: "state-digest", comment: "a state_digest frame of one typical row per namespace",
                    base: (upper: false, version: false, short: false), faults: [
                        { m in (upper: true, version: m.version, short: m.short) }, { m in (upper: m.upper, version: true, short: m.short) },
                        { m in (upper: m.upper, version: m.version, short: true) },
                    ], input: { m in
                        var d = encoded
                        if m.version { d[0] = 7 }
                        if m.short { d = Array(d.dropLast()) }
                        let hex = m.upper ? Hex.encode(d).uppercased() : Hex.encode(d)
                        return decode("{\"kind\":\"state_digest\",\"digest\":\"\(hex)\"}")
                    })
        let digestFrame = ReconcileFrame.digest(try StateRoots.digest(store)).tree
        try b.order(receiveOrder, op: "receive_digest", slug: "receive", comment: "local and the sibling's digest frame equal, reconciling true",
                    base: Receive(), faults: [
                        { var m = $0; m.shortLocal = true; return m }, { var m = $0; m.frameMissingMember = true; return m },
                        { var m = $0; m.otherKind = true; return m }, { var m = $0; m.reconcilingText = true; return m },
                    ], input: { m in
                        // The frame fault drops the member its kind needs next: `digest` of a
                        // state_digest frame, `namespace` of a request.
                        var frame = m.otherKind ? V.with(V.with(digestFrame, "kind", .text("reconcile_req")), "namespace", .text("settings")) : digestFrame
                        if m.frameMissingMember { frame = V.without(frame, m.otherKind ? "namespace" : "digest") }
                        return .object([("local", .bytes(m.shortLocal ? Array(encoded.dropLast()) : encoded)), ("frame", frame),
                                        ("reconciling", m.reconcilingText ? .text("true") : .bool(true))])
                    })
    }
}

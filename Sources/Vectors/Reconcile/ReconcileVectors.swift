import Primitives

/// The `reconcile` golden cases. Like the state_digest generator, every claim a case makes is
/// checked while generating.
enum ReconcileVectors {
    struct Builder {
        var cases: [VectorCase] = []
        mutating func add(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR, expected: VectorCase.Expected) {
            cases.append(VectorCase(id: "reconcile/\(op)/\(id)", op: op, comment: comment, flags: flags, input: input, expected: expected))
        }
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "reconcile generator check failed: \(what)") }
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        try bucketizeCases(&b)
        try respondCases(&b)
        try frameCases(&b)
        return VectorFile(format: "reconcile",
                          description: "reconcile_req / reconcile_resp: bucketize, respond, frame encoding and decoding (SPEC.md §5)",
                          cases: b.cases)
    }

    // MARK: bucketize

    static func bucketizeCases(_ b: inout Builder) throws {
        for n in [0, 1, 2, 255, 256, 257, 511, 512, 513, 1000, 65_536] {
            let leaves = LeafList.indexRule(count: n)
            let req = try Bucketizer.request(namespace: .messages, keyedLeaves: leaves)
            let g = Bucketizer.groupSize(n)
            try check(req.buckets.count == (n == 0 ? 1 : (n + g - 1) / g) && req.buckets.count <= 256, "bucket count for \(n)")
            try ReconcileRequest.validateTiling(req.buckets)
            let desc = n == 0 ? "an empty namespace sends one bucket covering everything, count 0, the empty root"
                : n <= 256 ? "one bucket per leaf; the first lo is empty, the last hi absent"
                : "group size ceil(\(n)/256) = \(g): \(req.buckets.count) buckets"
            b.add("index/n\(n)", "bucketize", "\(n) leaves: " + desc, flags: ["generated"],
                  input: .object([("namespace", .text("messages")), ("generate", .object([("rule", .text("index")), ("count", .unsigned(UInt64(n)))]))]),
                  expected: .output(ReconcileOutput.request(req)))
        }
        // Explicit, unsorted, with keys of different lengths.
        let explicit: [(key: [UInt8], leaf: SHA256Digest)] = [([0x02], SHA256.hash([2])), ([0x01, 0x00], SHA256.hash([1])), ([0x01], SHA256.hash([0]))]
        let req = try Bucketizer.request(namespace: .contacts, keyedLeaves: explicit)
        b.add("explicit/unsorted-three", "bucketize", "three leaves given out of order: sorted by key bytes (01 < 0100 < 02) before bucketing",
              input: .object([("namespace", .text("contacts")), ("leaves", .array(explicit.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes))]) }))]),
              expected: .output(ReconcileOutput.request(req)))
        b.add("explicit/settings", "bucketize", "settings sends no fingerprints: a request with no buckets",
              input: .object([("namespace", .text("settings")), ("leaves", .array([]))]),
              expected: .output(ReconcileOutput.request(ReconcileRequest(namespace: .settings, buckets: []))))
        let dup: [CBOR] = [.object([("key", .bytes([1])), ("leaf", .bytes(SHA256.hash([1]).bytes))]), .object([("key", .bytes([1])), ("leaf", .bytes(SHA256.hash([2]).bytes))])]
        b.add("explicit/duplicate-key", "bucketize", "one key twice is rejected", flags: ["negative"],
              input: .object([("namespace", .text("contacts")), ("leaves", .array(dup))]), expected: .error(.duplicateKey))
    }

    // MARK: respond

    static func rows(_ ns: Namespace, _ indices: some Sequence<Int>) -> [Row] { indices.map { SampleRows.typical(ns, index: $0) } }

    static func sortedByKey(_ rows: [Row]) -> [Row] { rows.sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) } }

    static func replicaTree(_ r: ReplicaNamespace) -> CBOR {
        .object([("rows", .array(r.rows.map(\.tree))),
                 ("tombstones", .array(r.tombstones.map { .bytes($0) })),
                 ("vectors", .object(r.vectors.keys.sorted().map { ($0, ReconcileResponse.vectorTree(r.vectors[$0]!)) }))])
    }

    @discardableResult
    static func respond(_ b: inout Builder, _ id: String, _ comment: String, request: ReconcileRequest, responder: ReplicaNamespace, flags: [String] = []) throws -> ReconcileResponse? {
        let resp = try Responder.respond(to: request, from: responder)
        b.add(id, "respond", comment, flags: flags,
              input: .object([("request", request.tree), ("replica", replicaTree(responder))]),
              expected: .output(ReconcileOutput.response(resp)))
        return resp
    }

    static func vectorsFor(_ rows: [Row]) -> [String: [String: UInt64]] {
        var out: [String: [String: UInt64]] = [:]
        for (i, r) in rows.enumerated() { out[Hex.encode(r.keyBytes)] = ["device-a": UInt64(i + 1), "device-b": 1] }
        return out
    }

    static func respondCases(_ b: inout Builder) throws {
        let ns = Namespace.messages
        let all = sortedByKey(rows(ns, 0..<8))
        let base = Array(all[1...6])  // requester holds keys 1...6 of 8 sorted
        let requester = ReplicaNamespace(namespace: ns, rows: base)
        let req = try requester.request()

        let equal = try respond(&b, "fine/equal", "both sides hold the same rows: no frame", request: req,
                                responder: ReplicaNamespace(namespace: ns, rows: base, vectors: vectorsFor(base)))
        try check(equal == nil, "equal sides send nothing")
        let below = base + [all[0]]
        let r1 = try respond(&b, "fine/extra-below-first", "the responder holds a key below the requester's first key (falls in the first, unbounded-below bucket)",
                             request: req, responder: ReplicaNamespace(namespace: ns, rows: below, vectors: vectorsFor(below)))
        try check(r1?.rows.map(\.keyBytes).contains(all[0].keyBytes) == true, "below first")
        let above = base + [all[7]]
        let r2 = try respond(&b, "fine/extra-above-last", "the responder holds a key above the requester's last key (falls in the last, unbounded-above bucket)",
                             request: req, responder: ReplicaNamespace(namespace: ns, rows: above, vectors: vectorsFor(above)))
        try check(r2?.rows.map(\.keyBytes).contains(all[7].keyBytes) == true, "above last")
        // Between two of the requester's keys: requester lacks all[3].
        var gapRows = base; gapRows.remove(at: 2)
        let gapReq = try ReplicaNamespace(namespace: ns, rows: gapRows).request()
        let r3 = try respond(&b, "fine/extra-between", "the responder holds a key between two of the requester's keys: only that bucket ships",
                             request: gapReq, responder: ReplicaNamespace(namespace: ns, rows: base, vectors: vectorsFor(base)))
        try check(r3?.rows.count == 2, "between: the bucket holding the gap has the requester's row and the new one")
        let onlyReq = try respond(&b, "fine/requester-has-more", "only the requester holds extra rows: nothing to send, no frame", request: req,
                                  responder: ReplicaNamespace(namespace: ns, rows: Array(base.prefix(4))))
        try check(onlyReq == nil, "requester-only extra rows")
        var edited = base
        edited[2]["body"] = .text("edited on the other device")
        let r4 = try respond(&b, "fine/edited-row", "same keys, one row edited: the responder ships that row", request: req,
                             responder: ReplicaNamespace(namespace: ns, rows: edited, vectors: vectorsFor(edited)))
        try check(r4?.rows.count == 1, "edited row")
        let tombKey = base[4].keyBytes
        let withTomb = ReplicaNamespace(namespace: ns, rows: base.filter { $0.keyBytes != tombKey }, tombstones: [tombKey],
                                        vectors: vectorsFor(base))
        let r5 = try respond(&b, "fine/tombstone", "the responder deleted a row the requester still holds: the tombstone ships with its vector",
                             request: req, responder: withTomb, flags: ["tombstone"])
        try check(r5?.tombstones == [tombKey] && r5?.rows.isEmpty == true, "tombstone")
        // Empty requester namespace: one bucket, count 0.
        let emptyReq = try ReplicaNamespace(namespace: ns).request()
        let r6 = try respond(&b, "fine/requester-empty", "the requester has no rows (one bucket, count 0): the responder ships everything",
                             request: emptyReq, responder: ReplicaNamespace(namespace: ns, rows: base))
        try check(r6?.rows.count == base.count, "empty requester")
        let r6b = try respond(&b, "fine/both-empty", "both sides empty: no frame", request: emptyReq, responder: ReplicaNamespace(namespace: ns))
        try check(r6b == nil, "both empty")

        // Count catches what the root cannot: a one-leaf bucket whose root equals a two-leaf node.
        let two = sortedByKey(Array(all.prefix(2)))
        var enc = LeafEncoder()
        let l0 = try enc.leaf(two[0]), l1 = try enc.leaf(two[1])
        let forged = ReconcileRequest(namespace: ns, buckets: [Bucket(lo: [], hi: nil, root: MerkleTree.node(l0, l1), count: 1)])
        let r7 = try respond(&b, "fine/count-catches-equal-root", "the request's only bucket has the responder's two-leaf root but count 1: count differs, rows ship",
                             request: forged, responder: ReplicaNamespace(namespace: ns, rows: two), flags: ["count"])
        try check(r7?.rows.count == 2, "count compared")

        // Coarse buckets (n > 256): blocks namespace, 600 rows → group size 3.
        let coarse = sortedByKey(rows(.blocks, 0..<601))
        let reqRows = coarse.enumerated().filter { $0.offset != 300 }.map(\.element)  // requester lacks one row inside a bucket
        let coarseReq = try ReplicaNamespace(namespace: .blocks, rows: reqRows).request()
        try check(coarseReq.buckets.count == 200, "600 rows → 200 buckets of 3")
        let r8 = try respond(&b, "coarse/extra-inside-bucket", "600 requester rows in 200 buckets of 3; the responder holds one more inside a bucket: that bucket's rows ship",
                             request: coarseReq, responder: ReplicaNamespace(namespace: .blocks, rows: coarse), flags: ["coarse"])
        try check((r8?.rows.count ?? 0) >= 3 && (r8?.rows.count ?? 0) <= 4, "coarse bucket ships its rows")
        let r9 = try respond(&b, "coarse/equal", "600 rows each side, identical: no frame", request: coarseReq,
                             responder: ReplicaNamespace(namespace: .blocks, rows: reqRows), flags: ["coarse"])
        try check(r9 == nil, "coarse equal")

        // memory: a calendar event on the responder is never shipped.
        let mem = rows(.memory, 0..<3)
        var cal = SampleRows.typical(.memory, index: 5); cal["source"] = .text("calendar")
        let memReq = try ReplicaNamespace(namespace: .memory, rows: mem).request()
        let r10 = try respond(&b, "fine/calendar-not-shipped", "a calendar-derived memory event on the responder is not a leaf and never ships: no frame",
                              request: memReq, responder: ReplicaNamespace(namespace: .memory, rows: mem + [cal]), flags: ["dropped"])
        try check(r10 == nil, "calendar not shipped")

        let r10b = try respond(&b, "fine/calendar-not-shipped-requester-empty", "the requester has no memory rows: every manual event ships, the calendar event never",
                               request: try ReplicaNamespace(namespace: .memory).request(), responder: ReplicaNamespace(namespace: .memory, rows: mem + [cal]), flags: ["dropped"])
        try check(r10b?.rows.count == 3, "calendar not shipped to an empty requester")

        // settings.
        var settings = rows(.settings, 0..<3)
        settings.append(Row(.settings, ["key": .text("ui.old"), "value": .text("x"), "tombstoned": .bool(true), "versionVector": .versionVector(["device-a": 9])]))
        let sreq = ReconcileRequest(namespace: .settings, buckets: [])
        let r11 = try respond(&b, "settings/whole-dictionary", "settings: the whole dictionary, per-key version vectors and tombstoned keys",
                              request: sreq, responder: ReplicaNamespace(namespace: .settings, rows: settings), flags: ["settings"])
        try check(r11?.entries.count == 3 && r11?.settingsTombstones == ["ui.old"], "settings response")
        let r12 = try respond(&b, "settings/empty", "settings with nothing to send: no frame", request: sreq,
                              responder: ReplicaNamespace(namespace: .settings), flags: ["settings"])
        try check(r12 == nil, "settings empty")

        // Negative: a request that does not tile, a replica with a key both live and deleted.
        var bad = req
        bad.buckets[0].lo = [0x00]
        b.add("negative/request-not-tiling", "respond", "the request's first lo is not empty", flags: ["negative"],
              input: .object([("request", bad.tree), ("replica", replicaTree(requester))]), expected: .error(.frameNotTiling))
        b.add("negative/row-and-tombstone", "respond", "the responder's store holds a key both live and tombstoned", flags: ["negative"],
              input: .object([("request", req.tree), ("replica", replicaTree(ReplicaNamespace(namespace: ns, rows: base, tombstones: [base[0].keyBytes])))]),
              expected: .error(.duplicateKey))
    }

    // MARK: frames

    static func frameCases(_ b: inout Builder) throws {
        let ns = Namespace.messages
        let base = sortedByKey(rows(ns, 0..<3))
        let req = try ReplicaNamespace(namespace: ns, rows: base).request()
        let resp = ReconcileResponse(namespace: ns, rows: Array(base.prefix(2)), tombstones: [[UInt8](repeating: 0x42, count: 16)],
                                     vectors: vectorsFor(Array(base.prefix(2))))
        var sresp = ReconcileResponse(namespace: .settings)
        sresp.entries = ["ui.theme": "dark", "a": "1"]
        sresp.vectors = ["ui.theme": ["device-a": 2]]
        sresp.settingsTombstones = ["ui.old"]

        for (name, frame, comment) in [("request", ReconcileFrame.request(req), "a three-bucket request"),
                                       ("response", .response(resp), "a response with two rows, a tombstone and vectors"),
                                       ("settings-request", .request(ReconcileRequest(namespace: .settings, buckets: [])), "a settings request: no buckets member"),
                                       ("settings-response", .response(sresp), "a settings response: entries, vectors, tombstones")] {
            b.add("encode/\(name)", "encode_frame", comment + ": canonical JSON text and CBOR twin",
                  input: .object([("frame", frame.tree)]), expected: .output(ReconcileOutput.encoded(frame)))
            b.add("decode/\(name)", "decode_frame", comment + ": decodes to the same frame",
                  input: .object([("json", .text(frame.jsonText))]), expected: .output(ReconcileOutput.decoded(frame)))
        }

        func decodeCase(_ name: String, _ comment: String, _ text: String, _ expected: VectorCase.Expected, flags: [String] = []) throws {
            if case .output = expected {
                let got = ReconcileOutput.decoded(try ReconcileFrame.decode(jsonText: text))
                try check(expected == .output(got), "decode \(name)")
            }
            b.add("decode/\(name)", "decode_frame", comment, flags: flags, input: .object([("json", .text(text))]), expected: expected)
        }
        let respNoExtras = ReconcileResponse(namespace: ns, rows: Array(base.prefix(1)))
        let legacy = CBOR.object([("kind", .text("reconcile_resp")), ("namespace", .text("messages")), ("rows", .array([base[0].tree]))]).json.compact
        try decodeCase("legacy-no-vectors-no-tombstones", "an un-upgraded sibling's response without vectors or tombstones decodes with them empty",
                       legacy, .output(ReconcileOutput.decoded(.response(respNoExtras))), flags: ["tolerated"])
        let unknown = CBOR.object([("kind", .text("reconcile_req")), ("namespace", .text("messages")), ("future", .unsigned(1)),
                                   ("buckets", .array(req.buckets.map { b in
                                       guard case .map(var e) = b.tree else { return b.tree }
                                       e.append(CBORMapEntry(key: .text("hint"), value: .text("x")))
                                       return .map(e)
                                   }))]).json.compact
        try decodeCase("unknown-fields-ignored", "unknown members at frame and bucket level are ignored", unknown,
                       .output(ReconcileOutput.decoded(.request(req))), flags: ["tolerated"])

        // Rejections.
        func reqJSON(_ buckets: [CBOR], extra: [(String, CBOR)] = [], dropping: String? = nil) -> String {
            var members: [(String, CBOR)] = [("kind", .text("reconcile_req")), ("namespace", .text("messages")), ("buckets", .array(buckets))]
            members += extra
            if let dropping { members.removeAll { $0.0 == dropping } }
            return CBOR.object(members).json.compact
        }
        let good = req.buckets.map(\.tree)
        func mutate(_ i: Int, _ f: (inout [CBORMapEntry]) -> Void) -> [CBOR] {
            var out = good
            guard case .map(var e) = out[i] else { return out }
            f(&e)
            out[i] = .map(e)
            return out
        }
        func set(_ e: inout [CBORMapEntry], _ k: String, _ v: CBOR?) {
            if let i = e.firstIndex(where: { $0.key == .text(k) }) {
                if let v { e[i].value = v } else { e.remove(at: i) }
            } else if let v { e.append(CBORMapEntry(key: .text(k), value: v)) }
        }
        let rejections: [(String, String, String, ErrorCode)] = [
            ("not-json", "not JSON at all", "{\"kind\":", .frameInvalidJSON),
            ("not-an-object", "a JSON array", "[]", .frameBadType),
            ("missing-kind", "no kind member", reqJSON(good, dropping: "kind"), .frameMissingField),
            ("unknown-kind", "kind state_digest is not a reconcile frame", reqJSON(good).replacingOccurrences(of: "reconcile_req", with: "state_digest"), .frameUnknownKind),
            ("unknown-namespace", "namespace calendar does not exist", reqJSON(good).replacingOccurrences(of: "\"messages\"", with: "\"calendar\""), .unknownNamespace),
            ("missing-buckets", "a non-settings request without buckets", reqJSON(good, dropping: "buckets"), .frameMissingField),
            ("no-buckets", "an empty bucket list does not tile", reqJSON([]), .frameNotTiling),
            ("bucket-missing-root", "a bucket without root", reqJSON(mutate(1) { set(&$0, "root", nil) }), .frameMissingField),
            ("bucket-missing-count", "a bucket without count", reqJSON(mutate(1) { set(&$0, "count", nil) }), .frameMissingField),
            ("bucket-missing-lo", "a bucket without lo", reqJSON(mutate(0) { set(&$0, "lo", nil) }), .frameMissingField),
            ("count-negative", "count -1", reqJSON(mutate(1) { set(&$0, "count", .int(-1)) }), .frameNegativeCount),
            ("count-string", "count as a string", reqJSON(mutate(1) { set(&$0, "count", .text("1")) }), .frameBadType),
            ("root-31-bytes", "a root of 31 bytes", reqJSON(mutate(1) { set(&$0, "root", .bytes([UInt8](repeating: 1, count: 31))) }), .frameBadRootLength),
            ("root-33-bytes", "a root of 33 bytes", reqJSON(mutate(1) { set(&$0, "root", .bytes([UInt8](repeating: 1, count: 33))) }), .frameBadRootLength),
            ("root-not-hex", "a root that is not hex", reqJSON(mutate(1) { set(&$0, "root", .text("zz")) }), .frameBadType),
            ("first-lo-not-empty", "the first lo is not empty: keys below it would be invisible", reqJSON(mutate(0) { set(&$0, "lo", .bytes([0])) }), .frameNotTiling),
            ("last-hi-present", "the last bucket has a hi: keys above it would be invisible", reqJSON(mutate(2) { set(&$0, "hi", .bytes([0xff])) }), .frameNotTiling),
            ("middle-hi-missing", "a bucket before the last omits hi", reqJSON(mutate(0) { set(&$0, "hi", nil) }), .frameNotTiling),
            ("gap", "a hi that is not the next lo leaves a gap", reqJSON(mutate(0) { set(&$0, "hi", .bytes([0x00])) }), .frameNotTiling),
            ("empty-range", "a bucket whose lo equals its hi", reqJSON(mutate(1) { e in
                if let lo = e.first(where: { $0.key == .text("lo") })?.value { set(&e, "hi", lo) } }), .frameNotTiling),
        ]
        for (name, comment, text, code) in rejections {
            try decodeCase(name, comment, text, .error(code), flags: ["negative"])
        }
        // 257 buckets: generated over 257 leaves with group size 1 (as a buggy threshold would send).
        let many = LeafList.indexRule(count: 257)
        let manyBuckets = (0..<257).map { i in Bucket(lo: i == 0 ? [] : many[i].key, hi: i == 256 ? nil : many[i + 1].key, root: many[i].leaf, count: 1) }
        try decodeCase("too-many-buckets", "257 buckets (one per leaf above the threshold): more than 256", reqJSON(manyBuckets.map(\.tree)), .error(.frameTooManyBuckets), flags: ["negative"])
        let respMissingRows = CBOR.object([("kind", .text("reconcile_resp")), ("namespace", .text("messages"))]).json.compact
        try decodeCase("response-missing-rows", "a non-settings response without rows", respMissingRows, .error(.frameMissingField), flags: ["negative"])
        let settingsMissing = CBOR.object([("kind", .text("reconcile_resp")), ("namespace", .text("settings"))]).json.compact
        try decodeCase("settings-response-missing-entries", "a settings response without entries", settingsMissing, .error(.frameMissingField), flags: ["negative"])
        let badTomb = CBOR.object([("kind", .text("reconcile_resp")), ("namespace", .text("messages")), ("rows", .array([])), ("tombstones", .text("x"))]).json.compact
        try decodeCase("tombstones-not-array", "tombstones must be an array", badTomb, .error(.frameBadType), flags: ["negative"])
    }
}

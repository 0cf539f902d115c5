import Primitives

/// The limits and check orders of §4 as facets, and the cases derived from them (issue 23).
/// Every input is built from `SampleRows` (each row its own fixed seed) and fixed bytes, so these
/// cases draw from no stream an existing case uses.
enum StateDigestFacets {
    static let format = "state_digest"

    static func limit(_ rule: String, _ name: String? = nil, _ quantity: String, bound: String, _ side: LimitFacet.Side,
                      inclusive: Bool = true, _ effect: LimitFacet.Effect) -> LimitFacet {
        LimitFacet(rule: rule, name: name, format: format, quantity: quantity, bound: bound, side: side, inclusive: inclusive, effect: effect)
    }

    // MARK: limits

    static let uintMax = limit("R4.2-4", "max", "a `uint` field (saga's `chapter`)", bound: "2^64−1", .max, .refuse(.inputBadType))
    static let uintZero = limit("R4.2-4", "zero", "a `uint` field (saga's `chapter`)", bound: "0", .min, .refuse(.inputBadType))
    static let intMax = limit("R4.2-5", "max", "an `int` field (plans' `priority`)", bound: "2^63−1", .max, .refuse(.inputBadType))
    static let intMin = limit("R4.2-5", "min", "an `int` field (plans' `priority`)", bound: "−2^63", .min, .refuse(.inputBadType))
    static let dateMax = limit("R4.2-7", "max", "a `date` field in milliseconds (messages' `sentAt`)", bound: "2^63−1", .max, .refuse(.inputBadType))
    static let dateMin = limit("R4.2-7", "min", "a `date` field in milliseconds (messages' `sentAt`)", bound: "−2^63", .min, .refuse(.inputBadType))
    static let normalizedHashLength = limit("R4.2-9", nil, "the byte length of a present `normalized_hash` (messages' `peerUserIDHash`)",
                                            bound: "32 bytes", .exact, .refuse(.inputBadLength))
    static let reactorLength = limit("R4.2-10", nil, "the byte length of a reaction's `reactor`", bound: "bytes[32]", .exact,
                                     .refuse(.inputBadLength))
    static let contentHashLength = limit("R4.6-1", nil, "the byte length of an offloaded note's `contentHash`", bound: "32 bytes", .exact,
                                         .refuse(.inputBadLength))
    static let digestLength = limit("R4.8-1", nil, "the byte length of a version-6 digest given to `digest_decode`", bound: "417 bytes", .exact,
                                    .refuse(.digestWrongLength))
    static let outputIntegerMax = limit("R4.9-1", "positive", "an integer in an output row (`mark_offloaded`'s `localRowID`)", bound: "2^53", .max,
                                        .behaviour("the integer is written as a JSON number, beyond it as a decimal string"))
    static let outputIntegerMin = limit("R4.9-1", "negative", "a negative integer in an output row (`mark_offloaded`'s `localRowID`)", bound: "2^53",
                                        .min, .behaviour("the integer is written as a JSON number, beyond −2^53 as a decimal string"))

    static let limits = [uintMax, uintZero, intMax, intMin, dateMax, dateMin, normalizedHashLength, reactorLength, contentHashLength, digestLength,
                         outputIntegerMax, outputIntegerMin]

    // MARK: orders

    /// R4.2-13 within one reaction object: its members, then `reactor`, then `emoji`.
    static let reactionOrder = OrderFacet(rule: "R4.2-13", format: format, checks: [
        .init("unknown", .unknownField), .init("reactor", .inputBadLength), .init("emoji", .inputBadType),
    ])
    /// R4.3-4: unknown members, then the schema's fields in table order (excluded ones last).
    static let rowOrder = OrderFacet(rule: "R4.3-4", format: format, checks: [
        .init("unknown", .unknownField), .init("message-id", .inputBadLength), .init("body", .inputMissingField),
        .init("local-row-id", .inputBadType),
    ])
    /// R4.6-3: the three members read in turn, then the row's state, the hash's length, its value.
    static let offloadOrder = OrderFacet(rule: "R4.6-3", format: format, checks: [
        .init("row", .unknownField), .init("content-hash", .inputBadValue), .init("holder", .inputBadType),
        .init("offloaded", .inputBadValue), .init("length", .inputBadLength), .init("mismatch", .notebookOffloadHashMismatch),
    ])
    /// R4.7-5: every row read, then repeated keys, then leaves.
    static let rootOrder = OrderFacet(rule: "R4.7-5", format: format, checks: [
        .init("read", .inputMissingField), .init("duplicate", .duplicateKey), .init("leaf", .notebookOffloadedWithoutHash),
    ])
    /// R4.8-2: the version byte before the length.
    static let decodeOrder = OrderFacet(rule: "R4.8-2", format: format, checks: [
        .init("version", .digestUnsupportedVersion), .init("length", .digestWrongLength),
    ])
    /// R4.8-4: `a` decoded before `b`.
    static let divergenceOrder = OrderFacet(rule: "R4.8-4", format: format, checks: [
        .init("a", .digestWrongLength), .init("b", .digestUnsupportedVersion),
    ])
    /// R4.9-3: the namespace, then the elements one by one, then repeated keys.
    static let foldOrder = OrderFacet(rule: "R4.9-3", format: format, checks: [
        .init("settings", .inputBadValue), .init("element-0", .inputBadType), .init("element-2", .inputBadLength),
        .init("duplicate", .duplicateKey),
    ])
    /// R4.9-4: `rule` before `count`.
    static let generateOrder = OrderFacet(rule: "R4.9-4", format: format, checks: [
        .init("rule", .inputBadValue), .init("count", .inputBadType),
    ])
    /// R4.9-5: every member name, then the namespaces in §4.1 order (`digest` and `digest_encode`).
    static let namespacesOrder = OrderFacet(rule: "R4.9-5", format: format, checks: [
        .init("name", .unknownNamespace), .init("earlier", .inputBadType), .init("later", .inputMissingField),
    ])

    static let orders = [reactionOrder, rowOrder, offloadOrder, rootOrder, decodeOrder, divergenceOrder, foldOrder, generateOrder, namespacesOrder]

    /// The ties of §4's sort orders: a key (or set element) that is a proper prefix of another,
    /// and two reactions of one reactor.
    static let tieBreaks = [
        TieBreakFacet(rule: "R4.2-8", format: format, tie: "shorter prefix first",
                      decides: "a text-set element that is a proper prefix of another is written before it", others: [.textSetPrefixLast]),
        TieBreakFacet(rule: "R4.2-10", format: format, tie: "sorted by reactor bytes, then by emoji UTF-8 bytes",
                      decides: "the reactor decides; only equal reactors are ordered by emoji", others: [.reactionsEmojiFirst]),
        TieBreakFacet(rule: "R4.4-2", format: format, tie: "bytewise lexicographically with a shorter prefix first",
                      decides: "a row whose key is a proper prefix of another's is folded before it", others: [.rowKeysPrefixLast]),
    ]

    static let all: [Facet] = limits.map(Facet.limit) + orders.map(Facet.order) + tieBreaks.map(Facet.tieBreak)

    /// Rules of §4 whose words sound like a bound but state none.
    static let boundless: [String: String] = [
        "R4.1-2": "`<namespace>` is a placeholder in the separator's text, not a comparison",
        "R4.2-8": "a sort order (UTF-8 bytes, shorter prefix first) and de-duplication: no bound",
        "R4.2-12": "the excluded `contentHash` of 31 bytes is an example of an excluded field read by its type; the length edge of that bytes[32] field is R4.6-1's facet, whose resident-note cases (31 and 33 bytes, flagged rule:R4.2-12) are this rule's",
        "R4.4-2": "a sort order (\"UTF-8 bytes\" names the comparison), no bound",
        "R4.5-1": "an exact text comparison (\"compared by UTF-8 bytes\"), no bound",
        "R4.7-6": "the settings map's key order (encoded bytes, shorter first) and key comparison (UTF-8 bytes): a sort order, no bound",
        "R4.7-1": "the 81 bytes are the node preimage's size (16-byte separator, 0x00, two 32-byte children): a layout, not a bound",
    ]

    static let declared = FormatFacets(format: format, section: "4", facets: all, boundless: boundless)
}

// MARK: - derived cases

extension StateDigestFacets {
    typealias V = StateDigestVectors

    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(StateDigestHandler()) }

    /// A signed integer as vector data.
    static func integer(_ v: Int64) -> CBOR { v < 0 ? .negative(UInt64(-(v + 1))) : .unsigned(UInt64(v)) }
    /// `2^63 − 1 + d` (d ≥ 1 is past Int64) and `−2^63 + d` (d ≤ −1 is past Int64), as vector data.
    static func aboveInt64Max(_ d: Int) -> CBOR { d > 0 ? .unsigned(UInt64(Int64.max) + UInt64(d)) : integer(Int64.max + Int64(d)) }
    static func belowInt64Min(_ d: Int) -> CBOR { d < 0 ? .negative(UInt64(Int64.max) + UInt64(-d)) : integer(Int64.min + Int64(d)) }
    static func bytes(_ n: Int, _ fill: UInt8) -> [UInt8] { [UInt8](repeating: fill, count: n) }

    static func cases() throws -> [VectorCase] {
        var b = builder()
        try limitCases(&b)
        try orderCases(&b)
        return b.cases
    }

    static func limitCases(_ b: inout FacetCaseBuilder) throws {
        let saga = SampleRows.typical(.saga).tree, plan = SampleRows.typical(.plans).tree, message = SampleRows.typical(.messages).tree
        func leaf(_ ns: String, _ row: CBOR) -> CBOR { V.leafInput(ns, row) }
        try b.limit(uintMax, op: "leaf", slug: "uint-largest", comment: "saga chapter 2^64 − 2, 2^64 − 1 and 2^64", rules: ["R2.2-3"]) { d in
            leaf("saga", V.with(saga, "chapter", d > 0 ? .text("18446744073709551616") : .unsigned(UInt64.max - UInt64(-d))))
        }
        try b.limit(uintZero, op: "leaf", slug: "uint-zero", comment: "saga chapter −1, 0 and 1", rules: ["R2.2-3"]) { d in
            leaf("saga", V.with(saga, "chapter", d < 0 ? .negative(0) : .unsigned(UInt64(d))))
        }
        try b.limit(intMax, op: "leaf", slug: "int-largest", comment: "plans priority 2^63 − 2, 2^63 − 1 and 2^63", rules: ["R2.2-3"]) { d in
            leaf("plans", V.with(plan, "priority", aboveInt64Max(d)))
        }
        try b.limit(intMin, op: "leaf", slug: "int-smallest", comment: "plans priority −2^63 − 1, −2^63 and −2^63 + 1", rules: ["R2.2-3"]) { d in
            leaf("plans", V.with(plan, "priority", belowInt64Min(d)))
        }
        try b.limit(dateMax, op: "leaf", slug: "date-largest", comment: "messages sentAt 2^63 − 2, 2^63 − 1 and 2^63 ms", rules: ["R2.2-3"]) { d in
            leaf("messages", V.with(message, "sentAt", aboveInt64Max(d)))
        }
        try b.limit(dateMin, op: "leaf", slug: "date-smallest", comment: "messages sentAt −2^63 − 1, −2^63 and −2^63 + 1 ms", rules: ["R2.2-3"]) { d in
            leaf("messages", V.with(message, "sentAt", belowInt64Min(d)))
        }

        try b.limit(normalizedHashLength, op: "leaf", slug: "peer-hash-length", comment: "messages peerUserIDHash of 31, 32 and 33 bytes") { d in
            leaf("messages", V.with(message, "peerUserIDHash", .bytes(bytes(32 + d, 0x9a))))
        }
        try b.limitExtra(normalizedHashLength, op: "leaf", slug: "peer-hash-length", label: "empty",
                         comment: "messages peerUserIDHash of 0 bytes: the other length a normalized_hash may have (absent ≡ empty)",
                         wantInside: true, input: leaf("messages", V.with(message, "peerUserIDHash", .bytes([]))))
        try b.limitExtra(normalizedHashLength, op: "leaf", slug: "peer-hash-length", label: "one-byte",
                         comment: "messages peerUserIDHash of 1 byte: one past the empty length, refused",
                         wantInside: false, input: leaf("messages", V.with(message, "peerUserIDHash", .bytes([0x9a]))))

        // The three sample reactions, the first one's reactor resized: larger than any passing
        // case the input battery takes as its base, so its bases stay put.
        let sample = SampleRows.sampleReactions(index: 0)
        try b.limit(reactorLength, op: "leaf", slug: "reactor-length",
                    comment: "a messages row with the three sample reactions, the first one's reactor 31, 32 and 33 bytes", rules: ["R4.2-13"]) { d in
            let reactions: [CBOR] = sample.enumerated().map { i, r in
                .object([("reactor", .bytes(i == 0 ? Array((r.reactor + bytes(1, 0x5e)).prefix(32 + d)) : r.reactor)), ("emoji", .text(r.emoji))])
            }
            return leaf("messages", V.with(message, "reactions", .array(reactions)))
        }

        // An offloaded note commits its contentHash as its body; a resident one reads and ignores it.
        // The offloaded row is notebook/residency-offloaded-holder-a's, so that the input battery,
        // which takes the smallest passing case reading a member as its base, keeps its base.
        let note = SampleRows.typical(.notebook)
        guard case .text(let body)? = note["body"] else { return }
        let hash = NotebookBody.digest(body).bytes
        let offloaded = try NotebookBody.markOffloaded(note, contentHash: hash, holder: bytes(32, 0xa1)).tree
        try b.limit(contentHashLength, op: "leaf", slug: "offloaded-content-hash-length", comment: "an offloaded note whose contentHash is 31, 32 and 33 bytes",
                    rules: ["R4.2-12"]) { d in
            leaf("notebook", V.with(offloaded, "contentHash", .bytes(bytes(32 + d, 0xc4))))
        }
        for n in [31, 33] {
            try b.limitExtra(contentHashLength, op: "leaf", slug: "resident-content-hash-length", label: "resident-\(n)",
                             comment: "a resident note whose excluded contentHash is \(n) bytes: read by its type though never hashed (R4.2-12)",
                             rules: ["R4.2-12"], wantInside: false, input: leaf("notebook", V.with(note.tree, "contentHash", .bytes(bytes(n, 0xc4)))))
        }

        var store: [Namespace: [Row]] = [:]
        for ns in Namespace.allCases { store[ns] = [SampleRows.typical(ns)] }
        let encoded = try StateRoots.digest(store).encoded()
        func decode(_ bytes: [UInt8]) -> CBOR { .object([("encoded", .bytes(bytes))]) }
        try b.limit(digestLength, op: "digest_decode", slug: "digest-length", comment: "a version-6 digest of 416, 417 and 418 bytes", rules: ["R4.8-2"]) { d in
            decode(d < 0 ? Array(encoded.dropLast(-d)) : encoded + bytes(d, 0))
        }
        try b.limitExtra(digestLength, op: "digest_decode", slug: "digest-length", label: "version-only",
                         comment: "only the version byte 06: a version-6 digest of 1 byte", rules: ["R4.8-2"], wantInside: false, input: decode([6]))

        func offload(_ localRowID: CBOR) -> CBOR {
            .object([("row", V.with(note.tree, "localRowID", localRowID)), ("contentHash", .bytes(hash))])
        }
        func writtenAsNumber(_ out: CBOR) -> Bool {
            if case .number? = out.json["row"]?["localRowID"] { return true } else { return false }
        }
        let safe = Int64(CBOR.jsonSafeInteger)
        try b.limit(outputIntegerMax, op: "mark_offloaded", slug: "output-integer-positive", comment: "localRowID 2^53 − 1, 2^53 and 2^53 + 1 in the output row",
                    rules: ["R4.6-4"], input: { d in offload(integer(safe + Int64(d))) }, inside: writtenAsNumber)
        try b.limit(outputIntegerMin, op: "mark_offloaded", slug: "output-integer-negative",
                    comment: "localRowID −2^53 − 1, −2^53 and −2^53 + 1 in the output row", rules: ["R4.6-4"],
                    input: { d in offload(integer(-safe + Int64(d))) }, inside: writtenAsNumber)
    }
}

extension StateDigestFacets {
    /// One reaction object as the faults of R4.2-13 see it; its members are written emoji,
    /// reactor, then the unknown one, so a reader that checks in member order gets each pair wrong.
    struct ReactionObject { var unknown = false, shortReactor = false, emojiNumber = false }
    /// A messages row as the faults of R4.3-4 see it, written excluded `localRowID` first and the
    /// unknown member last.
    struct MessageRow { var unknown = false, shortID = false, noBody = false, badLocalRowID = false }
    /// A `mark_offloaded` input as the faults of R4.6-3 see it.
    struct Offload { var unknownInRow = false, hashOddHex = false, holderNumber = false, offloaded = false, short = false, mismatch = false }
    /// Three notebook rows as the faults of R4.7-5 see them.
    struct Notes { var unread = false, duplicate = false, offloadedWithoutHash = false }
    /// A `fold` over three explicit leaves as the faults of R4.9-3 see it.
    struct Fold { var settings = false, element0NotObject = false, element2Short = false, duplicate = false }
    /// A `digest` or `digest_encode` input as the faults of R4.9-5 see it.
    struct Members { var unknown = false, earlier = false, later = false }

    static func orderCases(_ b: inout FacetCaseBuilder) throws {
        let message = SampleRows.typical(.messages).tree
        let full = SampleRows.full(.messages).tree
        try b.order(reactionOrder, op: "leaf", slug: "reaction", comment: "a messages row with one reaction (members emoji, reactor, then the unknown one)",
                    base: ReactionObject(), faults: [
                        { var m = $0; m.unknown = true; return m }, { var m = $0; m.shortReactor = true; return m },
                        { var m = $0; m.emojiNumber = true; return m },
                    ], input: { m in
                        var r: [(String, CBOR)] = [("emoji", m.emojiNumber ? .unsigned(1) : .text("\u{1F44D}")),
                                                   ("reactor", .bytes(m.shortReactor ? bytes(31, 0x5e) : SampleRows.reactor(0)))]
                        if m.unknown { r.append(("at", .unsigned(1))) }
                        return V.leafInput("messages", V.with(full, "reactions", .array([.object(r)])))
                    })

        try b.order(rowOrder, op: "leaf", slug: "row", comment: "a typical messages row (members excluded localRowID and body first, an unknown one last)",
                    base: MessageRow(), faults: [
                        { var m = $0; m.unknown = true; return m }, { var m = $0; m.shortID = true; return m },
                        { var m = $0; m.noBody = true; return m }, { var m = $0; m.badLocalRowID = true; return m },
                    ], input: { m in
                        var row = message
                        if m.shortID { row = V.with(row, "messageID", .bytes(bytes(15, 0x1d))) }
                        if m.noBody { row = V.without(row, "body") }
                        if m.badLocalRowID { row = V.with(row, "localRowID", .text("x")) }
                        if m.unknown { row = V.with(row, "colour", .text("red")) }
                        return V.leafInput("messages", V.reordered(row, first: ["localRowID", "body"]))
                    })

        let resident = SampleRows.typical(.notebook)
        guard case .text(let body)? = resident["body"] else { return }
        let hash = NotebookBody.digest(body).bytes
        let holder = bytes(32, 0xa1)
        let offloadedTree = try NotebookBody.markOffloaded(resident, contentHash: hash, holder: holder).tree
        try b.order(offloadOrder, op: "mark_offloaded", slug: "offload", comment: "a resident note, its body's digest and a 32-byte holder",
                    base: Offload(), faults: [
                        { var m = $0; m.unknownInRow = true; return m }, { var m = $0; m.hashOddHex = true; return m },
                        { var m = $0; m.holderNumber = true; return m }, { var m = $0; m.offloaded = true; return m },
                        { var m = $0; m.short = true; return m }, { var m = $0; m.mismatch = true; return m },
                    ], input: { m in
                        var row = m.offloaded ? offloadedTree : resident.tree
                        if m.unknownInRow { row = V.with(row, "colour", .text("red")) }
                        var h = hash
                        if m.mismatch { h[0] ^= 0x80 }
                        if m.short { h = Array(h.prefix(31)) }
                        let contentHash: CBOR = m.hashOddHex ? .text(String(Hex.encode(h).dropLast())) : .bytes(h)
                        return .object([("row", row), ("contentHash", contentHash), ("holder", m.holderNumber ? .unsigned(1) : .bytes(holder))])
                    })

        let notes = (0..<3).map { SampleRows.typical(.notebook, index: $0) }
        try b.order(rootOrder, op: "root", slug: "rows", comment: "three notebook rows (faults: row 2 without title, row 2 repeating row 0's noteID, row 1 offloaded without contentHash)",
                    base: Notes(), faults: [
                        { var m = $0; m.unread = true; return m }, { var m = $0; m.duplicate = true; return m },
                        { var m = $0; m.offloadedWithoutHash = true; return m },
                    ], input: { m in
                        var rows = notes
                        if m.duplicate { rows[2]["noteID"] = rows[0]["noteID"] }
                        if m.offloadedWithoutHash { rows[1]["bodyOffloaded"] = .bool(true) }
                        var trees = rows.map(\.tree)
                        if m.unread { trees[2] = V.without(trees[2], "title") }
                        return .object([("namespace", .text("notebook")), ("rows", .array(trees))])
                    })

        var store: [Namespace: [Row]] = [:]
        for ns in Namespace.allCases { store[ns] = [SampleRows.typical(ns)] }
        let encoded = try StateRoots.digest(store).encoded()
        let emptyStore = try StateRoots.digest([:]).encoded()
        let skewed = { (e: [UInt8]) -> [UInt8] in var v = e; v[0] = 5; return v }
        let cut = { (e: [UInt8]) -> [UInt8] in Array(e.dropLast()) }
        try b.order(decodeOrder, op: "digest_decode", slug: "decode", comment: "a version-6 digest of one typical row per namespace",
                    base: encoded, faults: [skewed, cut], input: { .object([("encoded", .bytes($0))]) })
        try b.order(divergenceOrder, op: "divergence", slug: "divergence", comment: "a: one typical row per namespace, b: the empty store",
                    base: (a: encoded, b: emptyStore), faults: [
                        { m in (a: cut(m.a), b: m.b) }, { m in (a: m.a, b: { var v = $0; v[0] = 7; return v }(m.b)) },
                    ], input: { .object([("a", .bytes($0.a)), ("b", .bytes($0.b))]) })

        let leaves = LeafList.indexRule(count: 3)
        try b.order(foldOrder, op: "fold", slug: "leaves", comment: "three explicit leaves of the index rule",
                    base: Fold(), faults: [
                        { var m = $0; m.settings = true; return m }, { var m = $0; m.element0NotObject = true; return m },
                        { var m = $0; m.element2Short = true; return m }, { var m = $0; m.duplicate = true; return m },
                    ], input: { m in
                        var items: [CBOR] = leaves.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes))]) }
                        if m.element0NotObject { items[0] = .text("00") }
                        let key2 = m.duplicate ? leaves[1].key : leaves[2].key
                        items[2] = .object([("key", .bytes(key2)), ("leaf", .bytes(m.element2Short ? Array(leaves[2].leaf.bytes.prefix(31)) : leaves[2].leaf.bytes))])
                        return .object([("namespace", .text(m.settings ? "settings" : "messages")), ("leaves", .array(items))])
                    })
        try b.order(generateOrder, op: "fold", slug: "generate", comment: "generator rule index, count 2",
                    base: (rule: "index", count: CBOR.unsigned(2)), faults: [{ m in (rule: "random", count: m.count) }, { m in (rule: m.rule, count: .negative(0)) }],
                    input: { .object([("namespace", .text("messages")), ("generate", .object([("rule", .text($0.rule)), ("count", $0.count)]))]) })

        // digest: posts (later in §4.1 order) listed before messages, an unknown name listed last.
        let posts = SampleRows.typical(.posts).tree, messages = SampleRows.typical(.messages).tree
        try b.order(namespacesOrder, op: "digest", slug: "namespaces", comment: "a store of one posts row and one messages row, posts listed first",
                    base: Members(), faults: [
                        { var m = $0; m.unknown = true; return m }, { var m = $0; m.earlier = true; return m },
                        { var m = $0; m.later = true; return m },
                    ], input: { m in
                        var members: [(String, CBOR)] = [("posts", .array([m.later ? V.without(posts, "body") : posts])),
                                                         ("messages", m.earlier ? .object([]) : .array([messages]))]
                        if m.unknown { members.append(("zzz", .array([]))) }
                        return .object([("namespaces", .object(members))])
                    })
        // digest_encode: the thirteen roots listed in reverse (settings last), an unknown name after them.
        let digest = try StateRoots.digest(store)
        try b.order(namespacesOrder, op: "digest_encode", slug: "roots", comment: "the thirteen roots of one typical row per namespace, listed in reverse",
                    base: Members(), faults: [
                        { var m = $0; m.unknown = true; return m }, { var m = $0; m.earlier = true; return m },
                        { var m = $0; m.later = true; return m },
                    ], input: { m in
                        var roots: [(String, CBOR)] = Namespace.allCases.reversed().compactMap { ns in
                            if m.later && ns == .agentConversations { return nil }
                            return (ns.rawValue, m.earlier && ns == .settings ? .unsigned(1) : .bytes(digest[ns].bytes))
                        }
                        if m.unknown { roots.append(("calendar", .bytes(bytes(32, 0)))) }
                        return .object([("roots", .object(roots))])
                    })
    }
}

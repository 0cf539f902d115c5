import Primitives

/// Every field of every namespace's snapshot row, given a value of another CBOR type and given
/// null (SPEC.md §7.4, R7.4-12: "each member by its field's type"; R7.4-4: the types of §4.4).
///
/// Derived from the schemas, not written field by field: a cosmic-ray run on the Python
/// implementation (issue 25) found that the vectors reached the type check of a byte, bool,
/// version-vector, text-set and reaction-set field nowhere, and no check inside a reaction at
/// all, so a reader that skipped them passed. One case per field and spelling, named after both.
extension SyncOfferVectors {
    static func fieldTypeCases(_ b: inout Builder) throws {
        for ns in Namespace.allCases {
            let fields = LeafSchema.schema(for: ns).fields + SnapshotFields.all(for: ns)
            let row = rowTree(SampleRows.full(ns))
            for field in fields {
                let (wrong, spelled) = wrongType(for: field.kind)
                try b.error("field-type/\(ns.rawValue)-\(field.name)-\(spelled)", "decode_snapshot",
                            "a \(ns.rawValue) row whose \(field.name) (\(field.kind.name)) is \(spelled.replacingOccurrences(of: "-", with: " ")): sync_bad_type",
                            rules: ["R7.4-12", "R7.4-4"], input: cborInput(oneNamespace(ns.rawValue, [setting(row, field.name, wrong)])), .syncBadType)
                try b.error("field-type/\(ns.rawValue)-\(field.name)-null", "decode_snapshot",
                            "a \(ns.rawValue) row whose \(field.name) (\(field.kind.name)) is null: sync_bad_type, null is neither a value nor absent",
                            rules: ["R7.4-12"], input: cborInput(oneNamespace(ns.rawValue, [setting(row, field.name, .null)])), .syncBadType)
            }
        }
        try reactionCases(&b)
    }

    /// A value of another CBOR major type than `kind`'s, and its name in the case id.
    static func wrongType(for kind: FieldKind) -> (CBOR, String) {
        switch kind {
        case .bytes, .normalizedHash: return (.text("00"), "text")
        case .text, .noteBody: return (.bytes([0x61]), "bytes")
        case .uint, .int, .date: return (.text("1"), "text")
        case .bool: return (.unsigned(1), "integer-1")
        case .textSet: return (.text("food"), "text")
        case .reactionSet: return (.object([]), "map")
        case .versionVector: return (.array([]), "array")
        }
    }

    /// §7.4: a reaction is a map of exactly reactor (32-byte byte string) and emoji (text), and
    /// a message's reactions are written and read back as such.
    static func reactionCases(_ b: inout Builder) throws {
        let message = SampleRows.typical(.messages)
        let reactor = [UInt8](repeating: 0x07, count: 32)
        func withReaction(_ reaction: CBOR) -> [UInt8] {
            oneNamespace("messages", [setting(rowTree(message), "reactions", .array([reaction]))])
        }
        let good: [(String, CBOR)] = [("emoji", .text("\u{1F44D}")), ("reactor", .bytes(reactor))]
        let cases: [(String, String, CBOR, ErrorCode)] = [
            ("not-a-map", "a reaction that is a text string", .text("\u{1F44D}"), .syncBadType),
            ("integer-key", "a reaction with an integer key beside its two members", .map(good.map { (.text($0.0), $0.1) } + [(.unsigned(1), .unsigned(1))]), .syncBadType),
            ("unknown-member", "a reaction with a third member at", .object(good + [("at", .unsigned(1))]), .syncUnknownField),
            ("reactor-missing", "a reaction with an emoji and no reactor", .object([good[0]]), .syncMissingField),
            ("reactor-text", "a reactor given as hex text", .object([good[0], ("reactor", .text(Hex.encode(reactor)))]), .syncBadType),
            ("reactor-31-bytes", "a reactor of 31 bytes", .object([good[0], ("reactor", .bytes(Array(reactor.dropLast())))]), .syncBadLength),
            ("reactor-33-bytes", "a reactor of 33 bytes", .object([good[0], ("reactor", .bytes(reactor + [7]))]), .syncBadLength),
            ("emoji-missing", "a reaction with a reactor and no emoji", .object([good[1]]), .syncMissingField),
            ("emoji-bytes", "an emoji given as a byte string", .object([("emoji", .bytes(Array("\u{1F44D}".utf8))), good[1]]), .syncBadType),
            ("emoji-null", "an emoji that is null", .object([("emoji", .null), good[1]]), .syncBadType),
        ]
        for (name, comment, reaction, code) in cases {
            try b.error("reaction/\(name)", "decode_snapshot", comment + ": \(code.rawValue)", rules: ["R7.4-12", "R7.4-4"],
                        input: cborInput(withReaction(reaction)), code)
        }
        // Read back: a message with three reactions by two reactors, in leaf order on the wire,
        // given in JSON as the list of {reactor, emoji} in that order.
        let full = try SyncSnapshot(rows: [.messages: [SampleRows.full(.messages)]])
        try b.add("reaction/three-by-two-reactors", "decode_snapshot", "a message with three reactions by two reactors: read back in leaf order",
                  rules: ["R7.4-12", "R7.4-4", "R7.9-11"], flags: [InputBeforeRulesCases.notABase], input: cborInput(full.encoded), expected: .output(full.tree))
        // The same reactions given in reverse: written in leaf order all the same.
        guard case .array(let reactions)? = SnapshotRowCodec.tree(SnapshotRow(SampleRows.full(.messages)))["reactions"] else {
            throw StateDigestVectors.GeneratorCheckFailed(description: "sync_offer: the full message row has no reactions")
        }
        let reversedRow = setting(rowTree(SampleRows.full(.messages)), "reactions", .array(reactions.reversed()))
        let reversed = CBOR.object([("namespaces", .object([("messages", .array([reversedRow]))]))])
        try b.add("reaction/three-by-two-reactors-reversed", "encode_snapshot", "a message with three reactions by two reactors given in reverse leaf order: written in leaf order",
                  rules: ["R7.4-5", "R7.4-4"], flags: [InputBeforeRulesCases.notABase], input: reversed, expected: .output(cborInput(full.encoded)))
    }
}

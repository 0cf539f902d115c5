import Primitives

/// `encode_snapshot` / `decode_snapshot`: the snapshot payload of SPEC.md §7.4 and its vector
/// form (§7.9), with the seed's contact keys and provider keys, Unicode and integer edges, the §1
/// profile inside rows, and every check order with two faults at once.
extension SyncOfferVectors {
    static func rowTree(_ r: Row) -> CBOR { SnapshotRowCodec.tree(SnapshotRow(r)) }

    static func snapshotCases(_ b: inout Builder, _ f: Fixture) throws {
        let s = f.snapshot
        try check(try SyncSnapshot.decode(s.encoded) == s, "snapshot round trip")
        let encRules = ["R7.4-1", "R7.4-4", "R7.4-5", "R1-3", "R7.9-10"]
        let decRules = ["R7.4-2", "R7.4-12", "R7.9-11"]
        func both(_ id: String, _ comment: String, _ snap: SyncSnapshot, rules: [String]) throws {
            try check(try SyncSnapshot.decode(snap.encoded) == snap, "\(id) round trip")
            try b.add(id, "encode_snapshot", comment + ": its one encoding", rules: encRules + rules, input: snap.tree, expected: .output(cborInput(snap.encoded)))
            try b.add(id, "decode_snapshot", comment, rules: decRules + rules, input: cborInput(snap.encoded), expected: .output(snap.tree))
        }
        try both("valid/typical", "settings, two messages, a contact, a note, two plans: namespaces and rows in their one order", s, rules: [])
        let empty = try SyncSnapshot([:])
        try check(Hex.encode(empty.encoded) == "a26776657273696f6e016a6e616d65737061636573a0", "empty snapshot bytes")
        try both("valid/empty", "a store with no rows: version 1, an empty namespaces map", empty, rules: [])

        // Encode normalises: rows in another order, a text set with a duplicate, an empty namespace.
        guard case .map(var top) = s.tree, case .map(var nss) = top[0].value else { return }
        for i in nss.indices { if case .array(let rows) = nss[i].value { nss[i].value = .array(rows.reversed()) } }
        var note = SampleRows.typical(.notebook); note["tags"] = .textSet(["food", "Zest", "food", "bread"])
        if let i = nss.firstIndex(where: { $0.key == .text("notebook") }) { nss[i].value = .array([note.tree]) }
        nss.append(CBORMapEntry(key: .text("saga"), value: .array([])))
        top[0].value = .map(nss)
        try b.add("valid/normalised", "encode_snapshot", "rows given in reverse key order, a tag set unsorted with a duplicate, an empty saga list: the same bytes as typical",
                  rules: ["R7.9-10", "R7.4-5"], input: .map(top), expected: .output(cborInput(s.encoded)))
        let dupRows = CBOR.object([("namespaces", .object([("plans", .array([rowTree(SampleRows.typical(.plans)), rowTree(SampleRows.typical(.plans))]))]))])
        try b.error("input/duplicate-plan", "encode_snapshot", "two plans with one planID: an encoder that keeps the last one hides a conflict", rules: ["R7.9-10"], input: dupRows, .duplicateKey)
        // More rows in one namespace than a runtime caches small integers for (256 in CPython, 127
        // for Java's boxed Integer): a duplicate check comparing the count of distinct keys with
        // the count of rows by identity refuses it (a cosmic-ray survivor of pixie, issue 25).
        let many = try SyncSnapshot(rows: [.settings: (0..<260).map { SampleRows.typical(.settings, index: $0) }])
        try check(many.rowCount == 260, "260 distinct settings keys")
        try both("valid/260-settings", "260 settings rows in one namespace, no two with one key", many, rules: ["R7.9-10", "R7.4-13"])

        // The seed's snapshot: contact keys, provider keys, every namespace, per-device fields.
        try both("seed/full", "every namespace, a contact carrying pubkey, accountSigningPubkey and channelKey, and three provider keys: what seed 000's export holds", f.seedSnapshot,
                 rules: ["R7.4-3", "R7.4-1", "R7.4-2"])
        var keyed = SnapshotRow(SampleRows.typical(.contacts, index: 1))
        keyed["pubkey"] = .bytes(f.contactKeys.pubkey)
        keyed["channelKey"] = .bytes(f.contactKeys.channel)
        try both("seed/contact-keys", "a contact with pubkey and channelKey but no accountSigningPubkey: present snapshot fields only", try SyncSnapshot([.contacts: [keyed]]), rules: ["R7.4-3", "R7.4-5"])
        try both("seed/provider-keys", "provider keys only (no rows): written as a map in §1 order (openai, mistral, anthropic), listed by UTF-8 bytes in JSON",
                 try SyncSnapshot([:], providerKeys: providerKeys), rules: ["R7.4-1", "R7.4-5", "R7.9-11"])

        try unicodeSnapshotCases(&b, f)
        try intSnapshotCases(&b, f)
        try malformedSnapshotCases(&b, f)
        try snapshotInputCases(&b, f)
        try snapshotOrderCases(&b, f)
        try fieldTypeCases(&b)
    }

    // MARK: Unicode

    static func unicodeSnapshotCases(_ b: inout Builder, _ f: Fixture) throws {
        func both(_ id: String, _ comment: String, _ snap: SyncSnapshot, rules: [String]) throws {
            try b.add(id, "encode_snapshot", comment, rules: ["R7.4-5", "R2.2-5"] + rules, input: snap.tree, expected: .output(cborInput(snap.encoded)))
            try b.add(id, "decode_snapshot", comment, rules: ["R7.4-12", "R2.2-5"] + rules, input: cborInput(snap.encoded), expected: .output(snap.tree))
        }
        var note = SampleRows.typical(.notebook)
        note["title"] = .text("Cafe\u{301} menu")
        try both("unicode/nfd-title", "a title spelled in NFD (e + U+0301): kept as given; a writer that normalises to NFC changes the bytes", try SyncSnapshot(rows: [.notebook: [note]]), rules: [])
        let nfc = Row(.settings, ["key": .text("\u{e9}t\u{e9}"), "value": .text("nfc")])
        let nfd = Row(.settings, ["key": .text("e\u{301}te\u{301}"), "value": .text("nfd")])
        try both("unicode/nfc-and-nfd-keys", "two settings keys, one in NFC and one in NFD: two rows (Swift String equality, or a normalising map, makes them one), the NFD one first by UTF-8 bytes",
                 try SyncSnapshot(rows: [.settings: [nfc, nfd]]), rules: ["R7.7-1"])
        var tags = SampleRows.typical(.notebook)
        tags["tags"] = .textSet(["\u{1F600}", "\u{FF5E}", "a"])
        try both("unicode/text-set-non-bmp", "tags U+1F600 and U+FF5E: by UTF-8 bytes U+FF5E (ef bd 9e) sorts first; UTF-16 code units (d83d < ff5e) would put U+1F600 first",
                 try SyncSnapshot(rows: [.notebook: [tags]]), rules: [])
        tags["tags"] = .textSet(["\u{e9}", "e\u{301}"])
        try both("unicode/text-set-nfc-and-nfd", "a tag in NFC and the same tag in NFD: two distinct elements, not a duplicate", try SyncSnapshot(rows: [.notebook: [tags]]), rules: [])
        // §2's JSON number/string boundary on the negative side: −2^53 is a number, −2^53 − 1 a
        // string (a writer whose lower bound is `<` writes −2^53 as a string; a boundary survivor).
        for (name, v) in [("minus-2p53", -(Int64(1) << 53)), ("minus-2p53-minus-1", -(Int64(1) << 53) - 1)] {
            var plan = SampleRows.typical(.plans)
            plan["priority"] = .int(v)
            try both("int/priority-\(name)", "a plan's priority \(v): JSON writes it as \(v == -(Int64(1) << 53) ? "a number" : "a decimal string")",
                     try SyncSnapshot(rows: [.plans: [plan]]), rules: ["R2-3"])
        }
        var mem = SampleRows.typical(.memory)
        let controls = String(String.UnicodeScalarView((0..<32).compactMap(Unicode.Scalar.init)))
        mem["summary"] = .text(controls + "\u{7f}\u{2028}\u{2029}\"\\/\u{feff}\u{1F600}")
        try both("unicode/controls-and-separators", "a summary holding U+0000–U+001F, DEL, U+2028, U+2029, quote, backslash, slash, a BOM and a non-BMP character: every one kept through JSON and CBOR",
                 try SyncSnapshot(rows: [.memory: [mem]]), rules: [])
        let keys = [ProviderKey(name: "\u{1F600}", key: "k1"), ProviderKey(name: "\u{FF5E}", key: "k2")]
        try both("unicode/provider-names", "provider names U+1F600 and U+FF5E: the CBOR map puts the 3-byte name first (§1 order), JSON lists them by UTF-8 bytes",
                 try SyncSnapshot([:], providerKeys: keys), rules: ["R7.9-11"])

        // Decode: the UTF-16 order is not the order.
        func noteWithTags(_ t: [String]) -> [UInt8] {
            enc(.object([("version", .unsigned(1)), ("namespaces", .object([("notebook", .array([setting(rowTree(SampleRows.typical(.notebook)), "tags", .array(t.map { .text($0) }))]))]))]))
        }
        try b.error("unicode/text-set-utf16-order", "decode_snapshot", "tags [U+1F600, U+FF5E]: sorted by UTF-16 code units, not by UTF-8 bytes", rules: ["R7.4-12", "R7.4-5"],
                    input: cborInput(noteWithTags(["\u{1F600}", "\u{FF5E}"])), .syncBadValue)
        let a = Row(.settings, ["key": .text("\u{1F600}"), "value": .text("a")]), z = Row(.settings, ["key": .text("\u{FF5E}"), "value": .text("z")])
        let utf16Rows = enc(.object([("version", .unsigned(1)), ("namespaces", .object([("settings", .array([rowTree(a), rowTree(z)]))]))]))
        try b.error("unicode/rows-utf16-order", "decode_snapshot", "settings rows keyed U+1F600 then U+FF5E: key order is by UTF-8 bytes", rules: ["R7.4-13"],
                    input: cborInput(utf16Rows), .syncBadValue)
    }

    // MARK: integers

    static func intSnapshotCases(_ b: inout Builder, _ f: Fixture) throws {
        let plan = SampleRows.typical(.plans)
        func planBytes(_ k: String, raw: [UInt8]) -> [UInt8] {
            let row = withRaw(wireMembers(rowTree(plan)), k, raw)
            return [0xa2] + enc(.text("version")) + [0x01] + enc(.text("namespaces")) + [0xa1] + enc(.text("plans")) + [0x81] + row
        }
        func good(_ id: String, _ comment: String, _ r: Row, _ ns: Namespace, rules: [String]) throws {
            let snap = try SyncSnapshot(rows: [ns: [r]])
            try b.add(id, "decode_snapshot", comment, rules: ["R7.4-4", "R7.9-11"] + rules, input: cborInput(snap.encoded), expected: .output(snap.tree))
            try b.add(id, "encode_snapshot", comment, rules: ["R7.4-4", "R2.2-3"] + rules, input: snap.tree, expected: .output(cborInput(snap.encoded)))
        }
        var p = plan
        p["priority"] = .int(Int64.max); try good("int/priority-2p63-minus-1", "priority 2^63-1, the largest int: a decimal string in JSON", p, .plans, rules: [])
        p["priority"] = .int(Int64.min); try good("int/priority-minus-2p63", "priority -2^63, the smallest int (3b 7fffffffffffffff)", p, .plans, rules: [])
        p = plan
        p["updatedAt"] = .date(1 << 53); try good("int/date-2p53", "updatedAt 2^53 ms: the last integer JSON carries as a number", p, .plans, rules: ["R2.4-1"])
        p["updatedAt"] = .date((1 << 53) + 1); try good("int/date-2p53-plus-1", "updatedAt 2^53+1 ms: a decimal string in JSON; a double-based JSON reader loses the 1", p, .plans, rules: ["R2.4-1"])
        p["updatedAt"] = .date(-(1 << 53) - 1); try good("int/date-minus-2p53-minus-1", "updatedAt -(2^53+1) ms", p, .plans, rules: ["R2.4-1"])
        p["updatedAt"] = .date(-1); try good("int/date-minus-1", "updatedAt -1 ms (major type 1, 20)", p, .plans, rules: ["R2.4-1"])
        var saga = SampleRows.typical(.saga)
        saga["chapter"] = .uint(UInt64.max); try good("int/chapter-2p64-minus-1", "chapter 2^64-1: a uint field at its top", saga, .saga, rules: [])
        saga["chapter"] = .uint(0); try good("int/chapter-0", "chapter 0", saga, .saga, rules: [])

        func bad(_ id: String, _ comment: String, _ k: String, _ raw: [UInt8], _ code: ErrorCode, rules: [String]) throws {
            try b.error("int/\(id)", "decode_snapshot", comment, rules: ["R7.4-4", "R7.4-12"] + rules, input: cborInput(planBytes(k, raw: raw)), code)
        }
        try bad("priority-2p63", "priority 2^63 (1b 8000000000000000): beyond int64, a reader into UInt64 accepts it", "priority", [0x1b, 0x80, 0, 0, 0, 0, 0, 0, 0], .syncBadValue, rules: [])
        try bad("priority-minus-2p64", "priority -2^64 (3b ffffffffffffffff): the most negative CBOR integer", "priority", [0x3b] + [UInt8](repeating: 0xff, count: 8), .syncBadValue, rules: [])
        try bad("date-half-float", "updatedAt as the half float 1.0", "updatedAt", [0xf9, 0x3c, 0x00], .syncBadType, rules: ["R1-16"])
        try bad("date-bignum", "updatedAt as a bignum of 9 bytes", "updatedAt", [0xc2, 0x49, 0x01, 0, 0, 0, 0, 0, 0, 0, 0], .syncBadType, rules: ["R1-16"])
        try bad("date-single-float", "updatedAt as the single float 1.0: not the profile", "updatedAt", [0xfa, 0x3f, 0x80, 0, 0], .cborNonCanonical, rules: ["R1-4", "R1-7"])
        let sagaRow = { (raw: [UInt8]) -> [UInt8] in
            [0xa2] + enc(.text("version")) + [0x01] + enc(.text("namespaces")) + [0xa1] + enc(.text("saga")) + [0x81] + withRaw(wireMembers(rowTree(SampleRows.typical(.saga))), "chapter", raw)
        }
        try b.error("int/chapter-negative", "decode_snapshot", "chapter -1: a uint field given major type 1 is the wrong type", rules: ["R7.4-4", "R7.4-12"],
                    input: cborInput(sagaRow([0x20])), .syncBadType)

        // Vector input (JSON) integers, read by §2.2 rule 3 through §4's row rules.
        func jsonRow(_ id: String, _ comment: String, _ k: String, _ v: CBOR, _ code: ErrorCode?) throws {
            let input = CBOR.object([("namespaces", .object([("plans", .array([setting(rowTree(plan), k, v)]))]))])
            if let code { try b.error("int/\(id)", "encode_snapshot", comment, rules: ["R7.9-8", "R2.2-3"], input: input, code); return }
            var r = plan
            if case .text(let t) = v { r[k] = .date(Int64(t)!) } else if case .tagged(_, .bytes(let lit)) = v { r[k] = .date(Int64(String(decoding: lit, as: UTF8.self))!) }
            let snap = try SyncSnapshot(rows: [.plans: [r]])
            try b.add("int/\(id)", "encode_snapshot", comment, rules: ["R7.9-8", "R2.2-3"], input: input, expected: .output(cborInput(snap.encoded)))
        }
        try jsonRow("date-decimal-string-2p63-minus-1", "updatedAt \"9223372036854775807\": a canonical decimal string at the top of int64", "updatedAt", .text("9223372036854775807"), nil)
        try jsonRow("date-number-2p53-plus-1", "updatedAt 9007199254740993 as a JSON number: exact, not rounded to 2^53", "updatedAt", .jsonNumber("9007199254740993"), nil)
        try jsonRow("date-2p63", "updatedAt \"9223372036854775808\": beyond int64", "updatedAt", .text("9223372036854775808"), .inputBadType)
        try jsonRow("date-1.0", "updatedAt 1.0", "updatedAt", .jsonNumber("1.0"), .inputBadType)
        try jsonRow("date-1e3", "updatedAt 1e3: an exponent is not an integer", "updatedAt", .jsonNumber("1e3"), .inputBadType)
        try jsonRow("date-true", "updatedAt true", "updatedAt", .bool(true), .inputBadType)
    }

    // MARK: malformed payloads

    static func snap(_ members: [(String, CBOR)]) -> [UInt8] { enc(.object(members)) }
    static func oneNamespace(_ ns: String, _ rows: [CBOR]) -> [UInt8] { snap([("version", .unsigned(1)), ("namespaces", .object([(ns, .array(rows))]))]) }
    static func planWith(_ k: String, _ v: CBOR?) -> CBOR { setting(rowTree(SampleRows.typical(.plans)), k, v) }

    static func malformedSnapshotCases(_ b: inout Builder, _ f: Fixture) throws {
        let good = f.snapshot.encoded
        let plan = SampleRows.typical(.plans)
        let plans2 = [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)].sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
        var noteUnsorted = SampleRows.typical(.notebook)
        noteUnsorted["tags"] = .textSet(["food", "Zest"])
        let contact = rowTree(SampleRows.typical(.contacts))
        let repeatedReaction = CBOR.object([("emoji", .text("\u{1F44D}")), ("reactor", .bytes([UInt8](repeating: 0x07, count: 32)))])
        let v1 = ("version", CBOR.unsigned(1))
        let noNS = ("namespaces", CBOR.object([]))
        let cases: [(String, String, [UInt8], ErrorCode, [String])] = [
            ("truncated", "the last byte cut off", Array(good.dropLast()), .cborTruncated, ["R7.4-6", "R1-6"]),
            ("trailing-byte", "one byte after the map", good + [0], .cborTrailingBytes, ["R7.4-6", "R1-14"]),
            ("not-a-map", "an array", enc(.array([])), .syncBadType, ["R7.4-7"]),
            ("version-missing", "no version", snap([noNS]), .syncMissingField, ["R7.4-9"]),
            ("version-2", "version 2: a reader that ignores the version reads a format it does not know", snap([("version", .unsigned(2)), noNS]), .syncUnsupportedVersion, ["R7.4-9"]),
            ("version-text", "version as text", snap([("version", .text("1")), noNS]), .syncBadType, ["R7.4-9"]),
            ("namespaces-missing", "no namespaces", snap([v1]), .syncMissingField, ["R7.4-10"]),
            ("namespaces-array", "namespaces as an array", snap([v1, ("namespaces", .array([]))]), .syncBadType, ["R7.4-10"]),
            ("unknown-member", "a member beside version, namespaces and provider_keys", snap([v1, noNS, ("x", .unsigned(0))]), .syncUnknownField, ["R7.4-8"]),
            ("unknown-namespace", "namespace calendar", oneNamespace("calendar", [rowTree(plan)]), .unknownNamespace, ["R7.4-11"]),
            ("rows-not-array", "plans as a map", snap([v1, ("namespaces", .object([("plans", .object([]))]))]), .syncBadType, ["R7.4-11"]),
            ("rows-empty", "an empty row list is left out, never written", oneNamespace("plans", []), .syncBadValue, ["R7.4-11", "R7.4-5"]),
            ("rows-out-of-order", "two plans in descending key order", oneNamespace("plans", plans2.reversed().map(rowTree)), .syncBadValue, ["R7.4-13", "R7.4-5"]),
            ("rows-duplicate-key", "one plan twice", oneNamespace("plans", [rowTree(plan), rowTree(plan)]), .duplicateKey, ["R7.4-13"]),
            ("row-not-map", "a row that is an array", oneNamespace("plans", [.array([])]), .syncBadType, ["R7.4-12"]),
            ("row-missing-title", "a plan without its required title", oneNamespace("plans", [planWith("title", nil)]), .syncMissingField, ["R7.4-12", "R7.4-2"]),
            ("row-unknown-field", "a plan with a field the schema does not define", oneNamespace("plans", [planWith("colour", .text("red"))]), .syncUnknownField, ["R7.4-12", "R7.4-2"]),
            ("row-id-as-hex-text", "planID as hex text, not a byte string", oneNamespace("plans", [planWith("planID", .text(Hex.encode(plan.keyBytes)))]), .syncBadType, ["R7.4-12", "R7.4-4"]),
            ("row-id-15-bytes", "planID of 15 bytes", oneNamespace("plans", [planWith("planID", .bytes(Array(plan.keyBytes.prefix(15))))]), .syncBadLength, ["R7.4-12", "R7.4-4"]),
            ("row-date-as-text", "updatedAt as text", oneNamespace("plans", [planWith("updatedAt", .text("2026-01-01"))]), .syncBadType, ["R7.4-12", "R7.4-4"]),
            ("row-int-below-int64", "priority below -2^63", oneNamespace("plans", [planWith("priority", .negative(UInt64(Int64.max) + 1))]), .syncBadValue, ["R7.4-12", "R7.4-4"]),
            ("row-text-set-unsorted", "tags not in UTF-8 byte order (food before Zest)", oneNamespace("notebook", [.object(wireMembers(noteUnsorted.tree))]), .syncBadValue, ["R7.4-12", "R7.4-5"]),
            // Strictly greater: an element equal to the one before is refused like a smaller one
            // (a cosmic-ray survivor of pixie's `>` written `>=`, issue 25).
            ("row-text-set-repeated", "tags [food, food]: an element equal to the one before it is not strictly greater",
             oneNamespace("notebook", [setting(rowTree(SampleRows.typical(.notebook)), "tags", .array([.text("food"), .text("food")]))]), .syncBadValue, ["R7.4-12", "R7.4-5"]),
            ("row-reaction-set-repeated", "one reaction listed twice in a message's reactions: not strictly increasing",
             oneNamespace("messages", [setting(rowTree(SampleRows.typical(.messages)), "reactions", .array([repeatedReaction, repeatedReaction]))]), .syncBadValue, ["R7.4-12", "R7.4-5"]),
            // Missing, null, extra at every level.
            ("version-null", "version null", snap([("version", .null), noNS]), .syncBadType, ["R7.4-9"]),
            ("namespaces-null", "namespaces null: null is not an empty store", snap([v1, ("namespaces", .null)]), .syncBadType, ["R7.4-10"]),
            ("rows-null", "plans: null", snap([v1, ("namespaces", .object([("plans", .null)]))]), .syncBadType, ["R7.4-11"]),
            ("namespace-key-integer", "a namespace keyed by the integer 6", enc(.object([v1, ("namespaces", .map([(.unsigned(6), .array([rowTree(plan)]))]))])), .syncBadType, ["R7.4-11"]),
            ("row-null", "a row that is null", oneNamespace("plans", [.null]), .syncBadType, ["R7.4-12"]),
            ("row-key-integer", "a row with an integer key", oneNamespace("plans", [.map(wireMembersMap(rowTree(plan)) + [(.unsigned(1), .unsigned(1))])]), .syncBadType, ["R7.4-12"]),
            ("row-optional-field-null", "a contact with handle: null: an optional field is absent only when its member is (a null-as-absent reader accepts it)",
             oneNamespace("contacts", [setting(contact, "handle", .null)]), .syncBadType, ["R7.4-12"]),
            ("row-required-field-null", "a plan with title: null: sync_bad_type, not sync_missing_field", oneNamespace("plans", [planWith("title", .null)]), .syncBadType, ["R7.4-12"]),
            ("text-set-element-null", "a tag that is null", oneNamespace("notebook", [setting(rowTree(SampleRows.typical(.notebook)), "tags", .array([.null]))]), .syncBadType, ["R7.4-12"]),
            ("version-vector-key-integer", "a version vector keyed by an integer", oneNamespace("settings", [setting(rowTree(SampleRows.typical(.settings)), "versionVector", .map([(.unsigned(1), .unsigned(1))]))]), .syncBadType, ["R7.4-4", "R7.4-12"]),
            ("version-vector-negative", "a version-vector counter of -1", oneNamespace("settings", [setting(rowTree(SampleRows.typical(.settings)), "versionVector", .object([("device-a", .int(-1))]))]), .syncBadType, ["R7.4-4", "R7.4-12"]),
            ("provider-keys-null", "provider_keys null", snap([v1, noNS, ("provider_keys", .null)]), .syncBadType, ["R7.4-14"]),
            ("provider-keys-empty", "an empty provider_keys is left out, never written", snap([v1, noNS, ("provider_keys", .object([]))]), .syncBadValue, ["R7.4-14", "R7.4-5"]),
            ("provider-key-bytes", "a provider key given as a byte string", snap([v1, noNS, ("provider_keys", .object([("openai", .bytes([1, 2]))]))]), .syncBadType, ["R7.4-14"]),
            ("provider-name-integer", "a provider keyed by an integer", enc(.object([v1, noNS, ("provider_keys", .map([(.unsigned(1), .text("k"))]))])), .syncBadType, ["R7.4-14"]),
            // What a snapshot never carries.
            ("account-seed-member", "an account_seed member: the seed rides only in the sign-in approval, a snapshot that carries it is refused", snap([v1, noNS, ("account_seed", .bytes([UInt8](repeating: 7, count: 32)))]), .syncUnknownField, ["R7.4-8"]),
            ("backup-key-member", "a backup_key member: the BackupKey is never exported", snap([v1, noNS, ("backup_key", .bytes([UInt8](repeating: 7, count: 32)))]), .syncUnknownField, ["R7.4-8"]),
            // Snapshot fields.
            ("channel-key-31-bytes", "a contact channelKey of 31 bytes", oneNamespace("contacts", [setting(contact, "channelKey", .bytes([UInt8](repeating: 3, count: 31)))]), .syncBadLength, ["R7.4-3", "R7.4-12"]),
            ("channel-key-33-bytes", "a contact channelKey of 33 bytes", oneNamespace("contacts", [setting(contact, "channelKey", .bytes([UInt8](repeating: 3, count: 33)))]), .syncBadLength, ["R7.4-3", "R7.4-12"]),
            ("pubkey-as-text", "a contact pubkey as a text string", oneNamespace("contacts", [setting(contact, "pubkey", .text("ed25519:abc"))]), .syncBadType, ["R7.4-3", "R7.4-12"]),
            ("channel-key-null", "a contact channelKey null", oneNamespace("contacts", [setting(contact, "channelKey", .null)]), .syncBadType, ["R7.4-3", "R7.4-12"]),
            ("pubkey-on-a-plan", "a plan carrying pubkey: snapshot fields belong to contacts only", oneNamespace("plans", [planWith("pubkey", .bytes([1]))]), .syncUnknownField, ["R7.4-3", "R7.4-12"]),
            // Below the one version too (a reader testing `> 1` where SPEC says `!= 1`: a
            // cosmic-ray survivor of pixie, issue 25).
            ("version-0", "version 0: not the one version, below it", snap([("version", .unsigned(0)), noNS]), .syncUnsupportedVersion, ["R7.4-9"]),
        ]
        for (name, comment, bytes, code, rules) in cases {
            try b.error("malformed/\(name)", "decode_snapshot", comment, rules: rules, input: cborInput(bytes), code)
        }

        // The §1 profile inside snapshots.
        func cbor(_ id: String, _ comment: String, _ bytes: [UInt8], _ code: ErrorCode, rules: [String], twoFaults: Bool = false) throws {
            try b.error("cbor/\(id)", "decode_snapshot", comment, rules: rules, twoFaults: twoFaults, input: cborInput(bytes), code)
        }
        let sagaRow = rowTree(SampleRows.typical(.saga)), planRow = rowTree(plan)
        let nsPairs: [([UInt8], [UInt8])] = [(enc(.text("saga")), enc(.array([sagaRow]))), (enc(.text("plans")), enc(.array([planRow]))), (enc(.text("saga")), enc(.array([sagaRow])))]
        let head = [0xa2] + enc(.text("version")) + [0x01] + enc(.text("namespaces"))
        try cbor("key-repeated-not-adjacent", "namespaces saga, plans, saga: the second saga is compared with plans only and sorts below it: cbor_unsorted_map_keys, not cbor_duplicate_map_key",
                 head + rawMap(nsPairs), .cborUnsortedMapKeys, rules: ["R1-11", "R1-12", "R1-20"], twoFaults: true)
        try cbor("namespace-duplicated", "plans twice in a row", head + rawMap([nsPairs[1], nsPairs[1]]), .cborDuplicateMapKey, rules: ["R1-11"])
        let planSchemaOrder = rawMap(wireMembers(planRow).map { (enc(.text($0.0)), enc($0.1)) })
        try cbor("row-fields-in-schema-order", "a plan whose fields are written in §4.4 order, not §1 key order (a writer that keeps struct order)",
                 head + [0xa1] + enc(.text("plans")) + [0x81] + planSchemaOrder, .cborUnsortedMapKeys, rules: ["R1-3", "R1-12"])
        let planPairs = sortedPairs(wireMembers(planRow))
        try cbor("row-field-duplicated", "a plan with its title twice", head + [0xa1] + enc(.text("plans")) + [0x81] + rawMap(planPairs + [planPairs.last!]), .cborDuplicateMapKey, rules: ["R1-11"])
        let noteRow = wireMembers(rowTree(SampleRows.typical(.notebook)))
        try cbor("text-set-indefinite", "tags as an indefinite-length array", head + [0xa1] + enc(.text("notebook")) + [0x81]
                 + withRaw(noteRow, "tags", [0x9f] + enc(.text("Zest")) + enc(.text("bread")) + enc(.text("food")) + [0xff]), .cborIndefiniteLength, rules: ["R1-2", "R1-8"])
        try cbor("title-invalid-utf8", "a plan title holding a lone continuation byte (80)", head + [0xa1] + enc(.text("plans")) + [0x81] + withRaw(wireMembers(planRow), "title", [0x63, 0x61, 0x80, 0x62]), .cborInvalidUTF8, rules: ["R1-13"])
        try cbor("title-surrogate", "a plan title holding an encoded low surrogate (ed b0 80)", head + [0xa1] + enc(.text("plans")) + [0x81] + withRaw(wireMembers(planRow), "title", [0x63, 0xed, 0xb0, 0x80]), .cborInvalidUTF8, rules: ["R1-13"])
        try cbor("version-head-long", "version 1 written 18 01", [0xa2] + enc(.text("version")) + [0x18, 0x01] + enc(.text("namespaces")) + [0xa0], .cborNonCanonical, rules: ["R1-1", "R1-7"])
        // Depth through an unknown row field: the row is at depth 4, the field's value at 5.
        func deepRow(_ arrays: Int) -> [UInt8] {
            head + [0xa1] + enc(.text("plans")) + [0x81] + rawMap([(enc(.text("zz")), [UInt8](repeating: 0x81, count: arrays) + [0x00])] + planPairs)
        }
        try cbor("depth-32", "a row field nesting a scalar at depth 32: within the limit (sync_unknown_field)", deepRow(27), .syncUnknownField, rules: ["R1-15", "R7.4-12"])
        try cbor("depth-33", "a scalar at depth 33 inside a row: cbor_depth_exceeded", deepRow(28), .cborDepthExceeded, rules: ["R1-15"])
        // R1-18: a rows array declaring 65,536 rows, holding one whose planID head is too long.
        let longID = rawMap(planPairs.map { $0.0 == enc(.text("planID")) ? ($0.0, longHeadBytes(plan.keyBytes)) : $0 })
        try cbor("rows-count-before-items", "a rows array declaring 65,536 rows, then one plan whose planID head is not the shortest: cbor_truncated at the array head (a lazy reader reports cbor_non_canonical)",
                 head + [0xa1] + enc(.text("plans")) + [0x9a, 0x00, 0x01, 0x00, 0x00] + longID, .cborTruncated, rules: ["R1-6", "R1-18"], twoFaults: true)
    }

    static func wireMembersMap(_ tree: CBOR) -> [(CBOR, CBOR)] { wireMembers(tree).map { (CBOR.text($0.0), $0.1) } }

    // MARK: vector input (encode_snapshot)

    static func snapshotInputCases(_ b: inout Builder, _ f: Fixture) throws {
        let plan = rowTree(SampleRows.typical(.plans))
        let contact = rowTree(SampleRows.typical(.contacts))
        func input(_ id: String, _ comment: String, _ inp: CBOR, _ code: ErrorCode, rules: [String]) throws {
            try b.error("input/\(id)", "encode_snapshot", comment, rules: rules, input: inp, code)
        }
        func ns(_ pairs: [(String, CBOR)]) -> CBOR { .object([("namespaces", .object(pairs))]) }
        try input("namespaces-missing", "no namespaces member", .object([]), .inputMissingField, rules: ["R7.9-7", "R2.2-1"])
        try input("namespaces-array", "namespaces as an array", .object([("namespaces", .array([]))]), .inputBadType, rules: ["R7.9-7"])
        try input("namespaces-null", "namespaces null", .object([("namespaces", .null)]), .inputBadType, rules: ["R7.9-7", "R2.2-1"])
        try input("unknown-namespace", "a namespace called calendar", ns([("calendar", .array([]))]), .unknownNamespace, rules: ["R7.9-7"])
        try input("rows-not-array", "plans given as an object", ns([("plans", .object([]))]), .inputBadType, rules: ["R7.9-7"])
        try input("row-null", "a row that is null", ns([("plans", .array([.null]))]), .inputBadType, rules: ["R7.9-8"])
        try input("row-unknown-field", "a plan with a field §4.4 does not define", ns([("plans", .array([setting(plan, "colour", .text("red"))]))]), .unknownField, rules: ["R7.9-8"])
        try input("pubkey-on-a-plan", "a plan carrying pubkey: a snapshot field of contacts only", ns([("plans", .array([setting(plan, "pubkey", .bytes([1]))]))]), .unknownField, rules: ["R7.9-8", "R7.4-3"])
        try input("channel-key-31-bytes", "a contact channelKey of 31 bytes", ns([("contacts", .array([setting(contact, "channelKey", .bytes([UInt8](repeating: 1, count: 31)))]))]), .inputBadLength, rules: ["R7.9-8", "R7.4-3"])
        try input("pubkey-not-hex", "a contact pubkey that is not hex", ns([("contacts", .array([setting(contact, "pubkey", .text("zz"))]))]), .inputBadValue, rules: ["R7.9-8", "R7.4-3"])
        try input("channel-key-null", "a contact channelKey null", ns([("contacts", .array([setting(contact, "channelKey", .null)]))]), .inputBadType, rules: ["R7.9-8", "R7.9-5"])
        try input("provider-keys-null", "provider_keys null: an optional member given as null is not absent", .object([("namespaces", .object([])), ("provider_keys", .null)]), .inputBadType, rules: ["R7.9-5", "R7.9-9"])
        try input("provider-keys-array", "provider_keys as an array of pairs", .object([("namespaces", .object([])), ("provider_keys", .array([.text("openai")]))]), .inputBadType, rules: ["R7.9-9"])
        try input("provider-key-number", "a provider key given as a number", .object([("namespaces", .object([])), ("provider_keys", .object([("openai", .unsigned(5))]))]), .inputBadType, rules: ["R7.9-9"])
        // Accepted spellings.
        var keyed = SnapshotRow(SampleRows.typical(.contacts))
        keyed["channelKey"] = .bytes([UInt8](repeating: 0xab, count: 32))
        let want = try SyncSnapshot([.contacts: [keyed]], providerKeys: [ProviderKey(name: "openai", key: "k")])
        try b.add("input/uppercase-hex-and-empty-extras", "encode_snapshot", "channelKey in uppercase hex, an empty saga list, an unknown top-level member: read, normalised, ignored",
                  rules: ["R7.9-4", "R7.9-10", "R7.9-1", "R7.9-9"],
                  input: .object([("namespaces", .object([("contacts", .array([setting(contact, "channelKey", upperHex([UInt8](repeating: 0xab, count: 32)))])), ("saga", .array([]))])),
                                  ("provider_keys", .object([("openai", .text("k"))])), ("note", .text("ignored"))]),
                  expected: .output(cborInput(want.encoded)))
        try b.add("input/provider-keys-empty", "encode_snapshot", "provider_keys {} in input: left out of the encoding (the empty snapshot's bytes)", rules: ["R7.9-10", "R7.4-5"],
                  input: .object([("namespaces", .object([])), ("provider_keys", .object([]))]), expected: .output(cborInput(try SyncSnapshot([:]).encoded)))
    }

    // MARK: check orders, two faults at once

    static func snapshotOrderCases(_ b: inout Builder, _ f: Fixture) throws {
        let plan = SampleRows.typical(.plans)
        let planRow = rowTree(plan)
        let v1 = ("version", CBOR.unsigned(1))
        func dec(_ id: String, _ comment: String, _ bytes: [UInt8], _ code: ErrorCode, rules: [String]) throws {
            try b.error("order/\(id)", "decode_snapshot", comment, rules: rules, twoFaults: true, input: cborInput(bytes), code)
        }
        // Text sets (kept ids).
        func noteTags(_ tags: [CBOR]) -> [UInt8] {
            oneNamespace("notebook", [setting(rowTree(SampleRows.typical(.notebook)), "tags", .array(tags))])
        }
        try dec("text-set-unsorted-before-non-text", "tags [\"food\", \"Zest\", 5]: the second element is out of order before the third is seen not to be text (sync_bad_value, not sync_bad_type)",
                noteTags([.text("food"), .text("Zest"), .unsigned(5)]), .syncBadValue, rules: ["R7.4-19", "R7.4-12"])
        try dec("text-set-non-text-before-unsorted", "tags [5, \"food\", \"Zest\"]: the first element is not text before the text elements are seen out of order (sync_bad_type, not sync_bad_value)",
                noteTags([.unsigned(5), .text("food"), .text("Zest")]), .syncBadType, rules: ["R7.4-19", "R7.4-12"])
        // Top level: steps in their order.
        try dec("unknown-member-before-version", "an extra member x and no version: sync_unknown_field (members are named before version is read)",
                snap([("x", .unsigned(0)), ("namespaces", .object([]))]), .syncUnknownField, rules: ["R7.4-15"])
        try dec("version-before-namespaces", "version 2 and no namespaces: sync_unsupported_version (version is read before namespaces)",
                snap([("version", .unsigned(2))]), .syncUnsupportedVersion, rules: ["R7.4-15"])
        try dec("namespaces-before-provider-keys", "namespaces an array and provider_keys empty: sync_bad_type for namespaces, not sync_bad_value",
                snap([v1, ("namespaces", .array([])), ("provider_keys", .object([]))]), .syncBadType, rules: ["R7.4-15"])
        try dec("rows-before-provider-keys", "a plan with an unknown field and provider_keys a number: every row is read before provider_keys",
                snap([v1, ("namespaces", .object([("plans", .array([planWith("colour", .text("red"))]))])), ("provider_keys", .unsigned(5))]), .syncUnknownField, rules: ["R7.4-15"])
        // Part C.2: one namespace completely before the next.
        let sagaBad = setting(rowTree(SampleRows.typical(.saga)), "colour", .text("red"))
        try dec("namespace-rows-before-next-value", "saga (first in encoding order) holds a row with an unknown field, plans is not an array: the saga row is reported (a reader that checks every namespace's value before any row says sync_bad_type)",
                snap([v1, ("namespaces", .object([("saga", .array([sagaBad])), ("plans", .unsigned(5))]))]), .syncUnknownField, rules: ["R7.4-16"])
        try dec("namespace-rows-before-next-name", "saga holds a bad row, a later namespace is called zzzzz: the saga row first, not unknown_namespace",
                snap([v1, ("namespaces", .object([("saga", .array([sagaBad])), ("zzzzz", .array([planRow]))]))]), .syncUnknownField, rules: ["R7.4-16"])
        try dec("namespace-name-before-value", "a namespace called calendar whose value is 5: the name is checked first", snap([v1, ("namespaces", .object([("calendar", .unsigned(5))]))]),
                .unknownNamespace, rules: ["R7.4-11"])
        // Rows.
        try dec("row-members-encoding-order", "a plan with an unknown field zz and a planID of 15 bytes: zz encodes first, so sync_unknown_field (a reader walking §4.4 order says sync_bad_length)",
                oneNamespace("plans", [setting(planWith("planID", .bytes(Array(plan.keyBytes.prefix(15)))), "zz", .unsigned(1))]), .syncUnknownField, rules: ["R7.4-17"])
        try dec("row-member-before-missing", "a plan without title whose priority is text: sync_bad_type (every member is checked before a required field is looked for)",
                oneNamespace("plans", [setting(planWith("title", nil), "priority", .text("high"))]), .syncBadType, rules: ["R7.4-18"])
        let plans2 = [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)].sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
        try dec("row-before-key-order", "two plans in descending key order, the second with an unknown field: the row's own fault is reported before its key is compared",
                oneNamespace("plans", [rowTree(plans2[1]), setting(rowTree(plans2[0]), "colour", .text("red"))]), .syncUnknownField, rules: ["R7.4-18"])
        try dec("row-missing-before-key-order", "two plans in descending key order, the second without title: sync_missing_field before sync_bad_value",
                oneNamespace("plans", [rowTree(plans2[1]), setting(rowTree(plans2[0]), "title", nil)]), .syncMissingField, rules: ["R7.4-18"])

        // Vector input order (§7.9).
        func enc(_ id: String, _ comment: String, _ inp: CBOR, _ code: ErrorCode, rules: [String]) throws {
            try b.error("order/\(id)", "encode_snapshot", comment, rules: rules, twoFaults: true, input: inp, code)
        }
        let msgBad = setting(rowTree(SampleRows.typical(.messages)), "messageID", .bytes([1, 2, 3]))
        try enc("namespace-names-before-rows", "messages holds a row with a 3-byte messageID and a namespace is called zzz: every name is checked first (unknown_namespace)",
                .object([("namespaces", .object([("messages", .array([msgBad])), ("zzz", .array([]))]))]), .unknownNamespace, rules: ["R7.9-7"])
        try enc("namespaces-in-digest-order", "plans (listed first in JSON) lacks a title, messages has a 3-byte messageID: namespaces are read in §4.1 order, so messages' input_bad_length",
                .object([("namespaces", .object([("plans", .array([planWith("title", nil)])), ("messages", .array([msgBad]))]))]), .inputBadLength, rules: ["R7.9-7"])
        try enc("rows-element-by-element", "two plans, the first without title, the second with priority \"high\": the first row is reported",
                .object([("namespaces", .object([("plans", .array([planWith("title", nil), planWith("priority", .text("high"))]))]))]), .inputMissingField, rules: ["R7.9-7"])
        try enc("row-unknown-before-missing", "a plan without title that carries a field colour, listed last: §4.3 reads a row's names before its fields (input_unknown_field, not input_missing_field)",
                .object([("namespaces", .object([("plans", .array([setting(planWith("title", nil), "colour", .text("red"))]))]))]), .unknownField, rules: ["R7.9-8"])
        let contactBad = setting(setting(rowTree(SampleRows.typical(.contacts)), "channelKey", .bytes([1])), "displayName", nil)
        try enc("row-before-snapshot-fields", "a contact with a 1-byte channelKey and no displayName: the §4 row is read first (input_missing_field)",
                .object([("namespaces", .object([("contacts", .array([contactBad]))]))]), .inputMissingField, rules: ["R7.9-8"])
        try enc("namespaces-before-provider-keys", "a plan with an unknown field and provider_keys a number: namespaces first",
                .object([("provider_keys", .unsigned(1)), ("namespaces", .object([("plans", .array([planWith("colour", .text("red"))]))]))]), .unknownField, rules: ["R7.9-2"])
    }
}

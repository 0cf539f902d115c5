import Primitives

/// The `state_digest` golden cases. Every property a case claims (a field commits, a field is
/// excluded, residency never moves a leaf) is asserted here while generating, so a case can never
/// ship claiming something the reference does not do.
enum StateDigestVectors {
    struct GeneratorCheckFailed: Error, CustomStringConvertible {
        let description: String
    }

    struct Builder {
        var cases: [VectorCase] = []

        mutating func add(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR, expected: VectorCase.Expected) {
            cases.append(VectorCase(id: "state_digest/\(op)/\(id)", op: op, comment: comment, flags: flags, input: input, expected: expected))
        }

        /// Adds a `leaf` case and returns the leaf (nil when dropped).
        @discardableResult
        mutating func leaf(_ id: String, _ comment: String, _ row: Row, flags: [String] = []) throws -> SHA256Digest? {
            let r = try StateDigestHandler.leafResult(row)
            add(id, "leaf", comment, flags: flags,
                input: .object([("namespace", .text(row.namespace.rawValue)), ("row", row.tree)]),
                expected: .output(StateDigestOutput.leaf(row: row, r)))
            return r?.leaf
        }

        mutating func leafError(_ id: String, _ comment: String, namespace: String, row: CBOR, _ code: ErrorCode) {
            add(id, "leaf", comment, flags: ["negative"], input: .object([("namespace", .text(namespace)), ("row", row)]), expected: .error(code))
        }

        @discardableResult
        mutating func root(_ id: String, _ comment: String, _ ns: Namespace, _ rows: [Row], flags: [String] = []) throws -> SHA256Digest {
            let r = try StateRoots.root(ns, rows: rows)
            add(id, "root", comment, flags: flags,
                input: .object([("namespace", .text(ns.rawValue)), ("rows", .array(rows.map(\.tree)))]),
                expected: .output(StateDigestOutput.root(r.root, count: r.count)))
            return r.root
        }
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw GeneratorCheckFailed(description: "state_digest generator check failed: \(what)") }
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        try leafCases(&b)
        try notebookCases(&b)
        try rootCases(&b)
        try digestCases(&b)
        return VectorFile(format: "state_digest",
                          description: "StateDigest v6: leaf encodings, namespace roots, the 417-byte digest (SPEC.md §StateDigest)",
                          cases: b.cases)
    }

    // MARK: leaves

    static func leafCases(_ b: inout Builder) throws {
        for ns in Namespace.allCases where ns != .settings {
            let schema = LeafSchema.schema(for: ns)
            let base = SampleRows.typical(ns)
            let baseLeaf = try b.leaf("\(ns.rawValue)/typical", "a typical \(ns.rawValue) row with every field present", base, flags: ["typical"])!

            var minimal = base
            for (i, f) in schema.fields.enumerated() where f.optional { minimal.values[i] = nil }
            let minimalLeaf = try b.leaf("\(ns.rawValue)/minimal", "only the required fields: every optional absent", minimal, flags: ["minimal"])
            if schema.committed.contains(where: \.optional) {
                try check(minimalLeaf != baseLeaf, "\(ns) minimal row should differ from typical")
            }

            // notebook.bodyOffloaded switches which value the body commits; the residency cases
            // below cover it with a consistent contentHash.
            for f in schema.fields where !(ns == .notebook && f.name == "bodyOffloaded") {
                var changed = base
                changed[f.name] = SampleRows.altered(base[f.name], kind: f.kind)
                if f.isCommitted {
                    let leaf = try b.leaf("\(ns.rawValue)/commits-\(f.name)", "changing committed field \(f.name) changes the leaf", changed, flags: ["commits:\(f.name)"])
                    try check(leaf != baseLeaf && leaf != nil, "\(ns).\(f.name) must commit")
                } else {
                    let leaf = try b.leaf("\(ns.rawValue)/ignores-\(f.name)", "changing excluded field \(f.name) leaves the leaf bit-identical", changed, flags: ["excluded:\(f.name)"])
                    try check(leaf == baseLeaf, "\(ns).\(f.name) must be excluded")
                    var removed = base
                    removed[f.name] = nil
                    let leaf2 = try b.leaf("\(ns.rawValue)/ignores-absent-\(f.name)", "removing excluded field \(f.name) leaves the leaf bit-identical", removed, flags: ["excluded:\(f.name)"])
                    try check(leaf2 == baseLeaf, "\(ns).\(f.name) absent must be excluded")
                }
                if f.isCommitted && f.optional {
                    var absent = base
                    absent[f.name] = nil
                    let la = try b.leaf("\(ns.rawValue)/absent-\(f.name)", "optional \(f.name) absent: presence marker 0", absent, flags: ["presence:\(f.name)"])
                    if f.kind == .text {
                        var empty = base
                        empty[f.name] = .text("")
                        let le = try b.leaf("\(ns.rawValue)/empty-\(f.name)", "optional \(f.name) present but empty: presence marker 1 then an empty string, never equal to absent", empty, flags: ["presence:\(f.name)"])
                        try check(la != le, "\(ns).\(f.name) absent and empty must differ")
                    }
                }
            }
        }

        // Dates: whole seconds, floor.
        let m = SampleRows.typical(.messages)
        guard case .date(let sent)? = m["sentAt"] else { return }
        let secondStart = sent - ((sent % 1000) + 1000) % 1000
        var a = m; a["sentAt"] = .date(secondStart)
        var c = m; c["sentAt"] = .date(secondStart + 999)
        var d = m; d["sentAt"] = .date(secondStart + 1000)
        let la = try b.leaf("messages/date-second-start", "sentAt exactly on a whole second", a, flags: ["date"])
        let lc = try b.leaf("messages/date-subsecond-same", "sentAt 999 ms later, same second: leaf bit-identical", c, flags: ["date"])
        let ld = try b.leaf("messages/date-next-second", "sentAt 1000 ms later: next second, leaf changes", d, flags: ["date"])
        try check(la == lc && la != ld, "sub-second dates")
        for (name, ms, comment) in [("date-negative-1ms", Int64(-1), "-1 ms floors to -1 s"),
                                    ("date-negative-1000ms", -1000, "-1000 ms is exactly -1 s"),
                                    ("date-negative-1001ms", -1001, "-1001 ms floors to -2 s"),
                                    ("date-zero", 0, "the epoch itself"),
                                    ("date-999ms", 999, "999 ms floors to 0 s")] {
            var r = m; r["sentAt"] = .date(ms)
            try b.leaf("messages/\(name)", comment, r, flags: ["date"])
        }

        // peerUserIDHash: absent and empty collapse.
        var absent = m; absent["peerUserIDHash"] = nil
        var empty = m; empty["peerUserIDHash"] = .bytes([])
        let l1 = try b.leaf("messages/peer-hash-absent", "peerUserIDHash absent: encoded as an empty byte string", absent, flags: ["normalized"])
        let l2 = try b.leaf("messages/peer-hash-empty", "peerUserIDHash empty: same leaf as absent", empty, flags: ["normalized"])
        try check(l1 == l2, "peerUserIDHash normalisation")

        // textSet order and duplicates.
        let n = SampleRows.typical(.notebook)
        var shuffled = n; shuffled["tags"] = .textSet(["bread", "food", "Zest", "food"])
        let ln0 = try StateDigestHandler.leafResult(n)?.leaf
        let ln1 = try b.leaf("notebook/tags-order-and-duplicates", "tags in another order with a duplicate: same leaf (a set sorted by UTF-8 bytes)", shuffled, flags: ["text_set"])
        try check(ln0 == ln1, "textSet normalisation")

        // memory: calendar events dropped.
        var cal = SampleRows.typical(.memory); cal["source"] = .text("calendar")
        try b.leaf("memory/calendar-dropped", "a calendar-derived memory event has no leaf at all", cal, flags: ["dropped"])

        // Negative inputs.
        let mt = m.tree
        func without(_ t: CBOR, _ key: String) -> CBOR {
            guard case .map(let e) = t else { return t }
            return .map(e.filter { $0.key != .text(key) })
        }
        func with(_ t: CBOR, _ key: String, _ v: CBOR) -> CBOR {
            guard case .map(var e) = t else { return t }
            if let i = e.firstIndex(where: { $0.key == .text(key) }) { e[i].value = v } else { e.append(CBORMapEntry(key: .text(key), value: v)) }
            return .map(e)
        }
        b.leafError("messages/missing-required-body", "a required committed field is missing", namespace: "messages", row: without(mt, "body"), .inputMissingField)
        b.leafError("messages/id-15-bytes", "messageID must be 16 bytes", namespace: "messages", row: with(mt, "messageID", .bytes([UInt8](repeating: 1, count: 15))), .inputBadLength)
        b.leafError("messages/peer-hash-31-bytes", "a user-id hash is 32 bytes or empty", namespace: "messages", row: with(mt, "peerUserIDHash", .bytes([UInt8](repeating: 1, count: 31))), .inputBadLength)
        b.leafError("messages/unknown-field", "a field the schema does not define", namespace: "messages", row: with(mt, "colour", .text("red")), .unknownField)
        b.leafError("messages/date-as-text", "dates are integer milliseconds", namespace: "messages", row: with(mt, "sentAt", .text("2026-01-01")), .inputBadType)
        b.leafError("messages/body-not-text", "body must be a string", namespace: "messages", row: with(mt, "body", .unsigned(5)), .inputBadType)
        b.leafError("unknown/namespace", "a namespace that does not exist", namespace: "calendar", row: mt, .unknownNamespace)
        b.leafError("settings/no-row-leaves", "settings has no per-row leaves", namespace: "settings", row: SampleRows.typical(.settings).tree, .inputBadValue)
        var off = n; off["bodyOffloaded"] = .bool(true); off["body"] = .text("")
        b.leafError("notebook/offloaded-without-hash", "an offloaded note with no contentHash cannot commit its body", namespace: "notebook", row: off.tree, .notebookOffloadedWithoutHash)
    }

    // MARK: notebook residency (seed 002 §7: the four properties)

    static func notebookCases(_ b: inout Builder) throws {
        let resident = SampleRows.typical(.notebook)
        guard case .text(let body)? = resident["body"] else { return }
        let hash = NotebookBody.digest(body).bytes
        let holderA = [UInt8](repeating: 0xa1, count: 32)
        let holderB = [UInt8](repeating: 0xb2, count: 32)
        let offA = try NotebookBody.markOffloaded(resident, contentHash: hash, holder: holderA)
        let offB = try NotebookBody.markOffloaded(resident, contentHash: hash, holder: holderB)

        let lr = try b.leaf("notebook/residency-resident", "resident body: commits noteBodyDigest(body)", resident, flags: ["residency"])
        let la = try b.leaf("notebook/residency-offloaded-holder-a", "offloaded to holder A: commits contentHash, same leaf as resident", offA, flags: ["residency"])
        let lb = try b.leaf("notebook/residency-offloaded-holder-b", "offloaded to holder B: two pointers naming different holders agree", offB, flags: ["residency"])
        try check(lr == la && la == lb, "residency independence")

        var other = offA
        other["contentHash"] = .bytes(NotebookBody.digest(body + " (edited)").bytes)
        let lo = try b.leaf("notebook/residency-pointer-other-content", "a pointer to different content still diverges the leaf", other, flags: ["residency"])
        try check(lo != lr, "pointer to other content")

        var unoff = offA
        unoff["body"] = .text(body); unoff["bodyOffloaded"] = .bool(false); unoff["offloadHolderPubkey"] = nil
        let lu = try b.leaf("notebook/residency-unoffloaded", "body fetched back (un-offload): leaf unchanged", unoff, flags: ["residency"])
        try check(lu == lr, "un-offload")

        // Property 1: an offloading device and a fully resident one compute the same root.
        let rows = (0..<4).map { SampleRows.typical(.notebook, index: $0) }
        var mixed = rows
        for i in [1, 3] {
            guard case .text(let bi)? = rows[i]["body"] else { continue }
            mixed[i] = try NotebookBody.markOffloaded(rows[i], contentHash: NotebookBody.digest(bi).bytes, holder: holderA)
        }
        let r1 = try b.root("notebook/residency-all-resident", "four resident notes", .notebook, rows, flags: ["residency"])
        let r2 = try b.root("notebook/residency-half-offloaded", "the same four notes, two offloaded: same root", .notebook, mixed, flags: ["residency"])
        try check(r1 == r2, "root residency independence")

        // Property 2: the offload transition itself.
        let before = try StateDigestHandler.leafResult(resident)!.leaf
        let after = try StateDigestHandler.leafResult(offA)!.leaf
        try check(before == after, "markOffloaded transition")
        b.add("notebook/offload-transition", "mark_offloaded", "markOffloaded stamps the hash, clears the body, keeps updatedAt: leaf before == leaf after",
              flags: ["residency"],
              input: .object([("row", resident.tree), ("contentHash", .bytes(hash)), ("holder", .bytes(holderA))]),
              expected: .output(StateDigestOutput.offloaded(row: offA, before: before, after: after)))
        var wrong = hash; wrong[0] ^= 0x80
        b.add("notebook/offload-hash-mismatch", "mark_offloaded", "markOffloaded refuses a contentHash that is not noteBodyDigest(body)",
              flags: ["negative", "residency"],
              input: .object([("row", resident.tree), ("contentHash", .bytes(wrong))]),
              expected: .error(.notebookOffloadHashMismatch))
        b.add("notebook/offload-hash-short", "mark_offloaded", "contentHash must be 32 bytes",
              flags: ["negative"],
              input: .object([("row", resident.tree), ("contentHash", .bytes(Array(hash.prefix(31))))]),
              expected: .error(.inputBadLength))
        b.add("notebook/offload-already-offloaded", "mark_offloaded", "an already offloaded note cannot be offloaded again",
              flags: ["negative"],
              input: .object([("row", offA.tree), ("contentHash", .bytes(hash))]),
              expected: .error(.inputBadValue))
        // The separator of noteBodyDigest, shown on its own.
        var emptyNote = resident; emptyNote["body"] = .text("")
        try b.leaf("notebook/body-empty", "an empty resident body commits noteBodyDigest(\"\")", emptyNote, flags: ["residency"])
    }

    // MARK: roots

    static func rootCases(_ b: inout Builder) throws {
        for ns in Namespace.allCases {
            try b.root("\(ns.rawValue)/empty", "no rows: the empty root of \(ns.rawValue)", ns, [], flags: ["empty"])
        }
        for ns in Namespace.allCases {
            let rows = (0..<3).map { SampleRows.typical(ns, index: $0) }
            try b.root("\(ns.rawValue)/three-rows", "three typical rows, given in generation order", ns, rows)
        }
        // Unsorted input: the root does not depend on row order.
        let rows = (0..<5).map { SampleRows.typical(.messages, index: $0) }
        let r1 = try b.root("messages/five-rows", "five message rows", .messages, rows)
        let r2 = try b.root("messages/five-rows-reversed", "the same rows reversed: same root (sorted by messageID bytes)", .messages, rows.reversed())
        try check(r1 == r2, "root independent of input order")
        // Memory: a calendar row changes nothing.
        var mem = (0..<3).map { SampleRows.typical(.memory, index: $0) }
        let m1 = try b.root("memory/three-manual", "three manual events", .memory, mem)
        var cal = SampleRows.typical(.memory, index: 9); cal["source"] = .text("calendar")
        mem.insert(cal, at: 1)
        let m2 = try b.root("memory/with-calendar-event", "plus a calendar event: dropped, same root and count", .memory, mem, flags: ["dropped"])
        try check(m1 == m2, "calendar dropped from root")
        // Settings.
        let s = (0..<3).map { SampleRows.typical(.settings, index: $0) }
        let s1 = try b.root("settings/three-keys", "three live keys: hash of the CBOR map", .settings, s)
        var sv = s; sv[1]["versionVector"] = .versionVector(["device-z": 99])
        let s2 = try b.root("settings/version-vector-ignored", "another version vector on one key: same root", .settings, sv, flags: ["excluded:versionVector"])
        try check(s1 == s2, "settings version vectors excluded")
        var st = s; st.append(Row(.settings, ["key": .text("ui.deleted"), "value": .text("x"), "tombstoned": .bool(true)]))
        let s3 = try b.root("settings/tombstoned-key-left-out", "a tombstoned key is not in the dictionary: same root", .settings, st, flags: ["tombstone"])
        try check(s1 == s3, "settings tombstone excluded")
        var sc = s; sc[0]["value"] = .text("light")
        let s4 = try b.root("settings/value-changed", "one value changed: root changes", .settings, sc)
        try check(s1 != s4, "settings value commits")
        let unordered = [("zoom", "1.5"), ("a", "x"), ("ui.theme.0", "dark"), ("bb", "y")].map { Row(.settings, ["key": .text($0.0), "value": .text($0.1)]) }
        try b.root("settings/keys-out-of-order", "keys given out of order and of different lengths: the map is sorted by encoded key (shorter first: a, bb, zoom, ui.theme.0)", .settings, unordered)
        let sd = s + [Row(.settings, ["key": .text("ui.theme.0"), "value": .text("light")])]
        b.add("settings/duplicate-key", "root", "a key given twice is rejected", flags: ["negative"],
              input: .object([("namespace", .text("settings")), ("rows", .array(sd.map(\.tree)))]), expected: .error(.duplicateKey))
        let md = rows + [rows[2]]
        b.add("messages/duplicate-key", "root", "two rows with one messageID are rejected", flags: ["negative"],
              input: .object([("namespace", .text("messages")), ("rows", .array(md.map(\.tree)))]), expected: .error(.duplicateKey))

        // The fold itself, over explicit and generated leaf lists.
        for n in [0, 1, 2, 3, 4, 5, 7, 8, 9] {
            let leaves = LeafList.indexRule(count: n)
            let root = try MerkleTree.root(namespace: .messages, keyedLeaves: leaves)
            if n == 1 { try check(root == leaves[0].leaf, "one-leaf root is the leaf") }
            b.add("index/n\(n)", "fold", "\(n) leaves listed explicitly" + (n == 1 ? ": the root is the leaf itself" : ""), flags: ["fold"],
                  input: .object([("namespace", .text("messages")), ("leaves", .array(leaves.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes))]) }))]),
                  expected: .output(StateDigestOutput.root(root, count: n)))
        }
        for n in [255, 256, 257, 1000] {
            let leaves = LeafList.indexRule(count: n)
            let root = try MerkleTree.root(namespace: .messages, keyedLeaves: leaves)
            b.add("generated/n\(n)", "fold", "\(n) leaves by generator rule index", flags: ["fold", "generated"],
                  input: .object([("namespace", .text("messages")), ("generate", .object([("rule", .text("index")), ("count", .unsigned(UInt64(n)))]))]),
                  expected: .output(StateDigestOutput.root(root, count: n)))
        }
        var unsorted = LeafList.indexRule(count: 6)
        unsorted.swapAt(0, 5); unsorted.swapAt(1, 3)
        let ur = try MerkleTree.root(namespace: .messages, keyedLeaves: unsorted)
        try check(ur == (try MerkleTree.root(namespace: .messages, keyedLeaves: LeafList.indexRule(count: 6))), "fold sorts")
        b.add("index/unsorted-n6", "fold", "six leaves given out of key order: sorted before folding", flags: ["fold"],
              input: .object([("namespace", .text("messages")), ("leaves", .array(unsorted.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes))]) }))]),
              expected: .output(StateDigestOutput.root(ur, count: 6)))
        let prefix: [(key: [UInt8], leaf: SHA256Digest)] = [([0x01, 0x00], SHA256.hash([1])), ([0x01], SHA256.hash([2])), ([0x00, 0xff, 0xff], SHA256.hash([3]))]
        let pr = try MerkleTree.root(namespace: .messages, keyedLeaves: prefix)
        b.add("index/prefix-keys", "fold", "keys of different lengths: a key sorts before its extensions (0x01 < 0x0100)", flags: ["fold"],
              input: .object([("namespace", .text("messages")), ("leaves", .array(prefix.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes))]) }))]),
              expected: .output(StateDigestOutput.root(pr, count: 3)))
        let dup = LeafList.indexRule(count: 2).map { (key: [UInt8](repeating: 7, count: 4), leaf: $0.leaf) }
        b.add("index/duplicate-key", "fold", "two leaves with one key are rejected", flags: ["fold", "negative"],
              input: .object([("namespace", .text("messages")), ("leaves", .array(dup.map { .object([("key", .bytes($0.key)), ("leaf", .bytes($0.leaf.bytes))]) }))]),
              expected: .error(.duplicateKey))
        b.add("index/leaf-31-bytes", "fold", "a leaf that is not 32 bytes is rejected", flags: ["fold", "negative"],
              input: .object([("namespace", .text("messages")), ("leaves", .array([.object([("key", .bytes([1])), ("leaf", .bytes([UInt8](repeating: 0, count: 31)))])]))]),
              expected: .error(.inputBadLength))
    }

    // MARK: digests

    static func storeTree(_ store: [Namespace: [Row]]) -> CBOR {
        .object([("namespaces", .object(Namespace.allCases.compactMap { ns in store[ns].map { (ns.rawValue, CBOR.array($0.map(\.tree))) } }))])
    }

    static func digestCases(_ b: inout Builder) throws {
        var store: [Namespace: [Row]] = [:]
        for ns in Namespace.allCases { store[ns] = (0..<2).map { SampleRows.typical(ns, index: $0) } }
        let full = try StateRoots.digest(store)
        b.add("store/two-rows-each", "digest", "two typical rows in every namespace", input: storeTree(store), expected: .output(StateDigestOutput.digest(full)))
        let empty = try StateRoots.digest([:])
        b.add("store/empty", "digest", "an empty store: settings hashes the empty map, the rest are empty roots", input: storeTree([:]), expected: .output(StateDigestOutput.digest(empty)))
        var changed = store
        changed[.contacts]![0]["displayName"] = .text("Grace H.")
        let changedDigest = try StateRoots.digest(changed)
        b.add("store/one-contact-renamed", "digest", "one contact renamed: only the contacts root moves", input: storeTree(changed), expected: .output(StateDigestOutput.digest(changedDigest)))
        try check(full.divergentNamespaces(from: changedDigest) == [.contacts], "single divergence")

        var rootsObj: [(String, CBOR)] = []
        for ns in Namespace.allCases { rootsObj.append((ns.rawValue, .bytes(full[ns].bytes))) }
        b.add("encode/full", "digest_encode", "13 roots in namespace order after the version byte 6: 417 bytes",
              input: .object([("roots", .object(rootsObj))]), expected: .output(.object([("encoded", .bytes(full.encoded()))])))
        b.add("encode/missing-root", "digest_encode", "a namespace root is missing", flags: ["negative"],
              input: .object([("roots", .object(Array(rootsObj.dropLast())))]), expected: .error(.inputMissingField))
        var shortRoots = rootsObj; shortRoots[3].1 = .bytes([UInt8](repeating: 0, count: 31))
        b.add("encode/short-root", "digest_encode", "a root of 31 bytes", flags: ["negative"],
              input: .object([("roots", .object(shortRoots))]), expected: .error(.inputBadLength))

        let enc = full.encoded()
        b.add("decode/full", "digest_decode", "decodes to version 6 and 13 roots", input: .object([("encoded", .bytes(enc))]), expected: .output(StateDigestOutput.decoded(full)))
        b.add("decode/empty-store", "digest_decode", "the empty store's digest", input: .object([("encoded", .bytes(empty.encoded()))]), expected: .output(StateDigestOutput.decoded(empty)))
        for (name, bytes, comment) in [("length-0", [UInt8](), "no bytes at all"),
                                       ("length-1", [UInt8(6)], "only the version byte"),
                                       ("length-416", Array(enc.dropLast()), "one byte short"),
                                       ("length-418", enc + [0], "one byte extra"),
                                       ("length-385", Array(enc.prefix(385)), "a 12-namespace digest (an older layout)")] {
            b.add("decode/\(name)", "digest_decode", comment + ": wrong length", flags: ["negative"], input: .object([("encoded", .bytes(bytes))]), expected: .error(.digestWrongLength))
        }
        for v in [UInt8(5), 7, 0, 255] {
            var e = enc; e[0] = v
            b.add("decode/version-\(v)", "digest_decode", "version byte \(v): unsupported, no reconcile", flags: ["negative"], input: .object([("encoded", .bytes(e))]), expected: .error(.digestUnsupportedVersion))
        }
        var v5short = Array(enc.dropLast()); v5short[0] = 5
        b.add("decode/version-5-and-short", "digest_decode", "wrong version and wrong length: the length is checked first", flags: ["negative"],
              input: .object([("encoded", .bytes(v5short))]), expected: .error(.digestWrongLength))

        func div(_ name: String, _ comment: String, _ a: [UInt8], _ c: [UInt8], _ expected: VectorCase.Expected, flags: [String] = []) {
            b.add("pair/\(name)", "divergence", comment, flags: flags, input: .object([("a", .bytes(a)), ("b", .bytes(c))]), expected: expected)
        }
        div("identical", "equal digests: nothing to reconcile", enc, enc, .output(StateDigestOutput.divergence([])))
        div("one-namespace", "only contacts differs", enc, changedDigest.encoded(), .output(StateDigestOutput.divergence([.contacts])))
        var several = full.roots
        for ns in [Namespace.settings, .notebook, .agentConversations] { several[ns.rawValueIndex] = SHA256.hash(Array(ns.rawValue.utf8)) }
        let sev = StateDigest(roots: several)
        div("first-middle-last", "settings, notebook and agentConversations differ, reported in digest order", enc, sev.encoded(),
            .output(StateDigestOutput.divergence(full.divergentNamespaces(from: sev))))
        try check(full.divergentNamespaces(from: sev) == [.settings, .notebook, .agentConversations], "divergence order")
        div("all", "every namespace differs", empty.encoded(), enc, .output(StateDigestOutput.divergence(empty.divergentNamespaces(from: full))))
        var v7 = enc; v7[0] = 7
        div("version-skew", "the peer runs another wire version: rejected, never a repair", enc, v7, .error(.digestUnsupportedVersion), flags: ["negative"])
        div("peer-truncated", "the peer's digest is truncated", enc, Array(enc.prefix(200)), .error(.digestWrongLength), flags: ["negative"])
    }
}

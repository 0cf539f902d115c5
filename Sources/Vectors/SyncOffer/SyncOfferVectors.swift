import Primitives

/// The `sync_offer` golden cases (SPEC.md §7, and §1 inside real payloads).
///
/// Every case names the rules it pins (`rule:` flags); a case that breaks two rules at once to pin
/// which is reported also carries `two-faults`. Every case is run through the reference handler
/// while generating, exactly as the runner sends it, and must give exactly what the case says;
/// the ordering cases are also checked to tell the named wrong reading apart.
enum SyncOfferVectors {
    struct Builder {
        var cases: [VectorCase] = []
        var ids = Set<String>()

        mutating func add(_ id: String, _ op: String, _ comment: String, rules: [String], flags: [String] = [], twoFaults: Bool = false,
                          input: CBOR, expected: VectorCase.Expected) throws {
            let full = "sync_offer/\(op)/\(id)"
            try check(!rules.isEmpty, "\(full) names no rule")
            try check(ids.insert(full).inserted, "\(full) appears twice")
            let r = Result { () throws(WireError) -> JSONValue in try SyncOfferHandler().run(op: op, input: input.json) }
            switch (expected, r) {
            case (.output(let o), .success(let got)):
                try check(got == o.json, "\(full): the reference answers \(got.compact), the case says \(o.json.compact)")
            case (.error(let c), .failure(let e)):
                try check(e.code == c, "\(full): the reference rejects with \(e.code.rawValue) (\(e)), the case says \(c.rawValue)")
            default:
                try check(false, "\(full): the reference gives \(r)")
            }
            var fl: [String] = []
            if case .error = expected { fl.append("negative") }
            fl += flags.filter { $0 != "negative" }
            if twoFaults { fl.append("two-faults") }
            fl += rules.map { "rule:\($0)" }
            cases.append(VectorCase(id: full, op: op, comment: comment, flags: fl, input: input, expected: expected))
        }

        /// A case the reference must reject with exactly `code`.
        mutating func error(_ id: String, _ op: String, _ comment: String, rules: [String], flags: [String] = [], twoFaults: Bool = false,
                            input: CBOR, _ code: ErrorCode) throws {
            try add(id, op, comment, rules: rules, flags: flags, twoFaults: twoFaults, input: input, expected: .error(code))
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
        /// The snapshot as seed 000 describes one: contact keys, provider keys, per-device fields.
        let seedSnapshot: SyncSnapshot
        let contactKeys: (pubkey: [UInt8], signing: [UInt8], channel: [UInt8])

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
            contactKeys = (g.bytes(1216), g.bytes(32), g.bytes(32))
            seedSnapshot = try SyncOfferVectors.seedShaped(contactKeys)
        }

        var request: SyncRequest { SyncRequest(requestID: requestID, replyPubkey: replyPubkey, timestampMs: timestampMs) }
        var ack: SyncAck { SyncAck(requestID: requestID, ok: true) }
    }

    static func sampleSnapshot() throws -> SyncSnapshot {
        try SyncSnapshot(rows: [
            .settings: [SampleRows.typical(.settings)],
            .messages: [SampleRows.typical(.messages, index: 0), SampleRows.typical(.messages, index: 1)],
            .contacts: [SampleRows.typical(.contacts)],
            .notebook: [SampleRows.typical(.notebook)],
            .plans: [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)],
        ])
    }

    static let providerKeys = [ProviderKey(name: "openai", key: "sk-proj-4f1c0e7a"), ProviderKey(name: "anthropic", key: "sk-ant-api03-9b2d"),
                               ProviderKey(name: "mistral", key: "mst-77e1")]

    /// Two contacts carrying the seed's key material (one with all three, one with none), every
    /// namespace's typical row (per-device fields included), and the provider keys.
    static func seedShaped(_ k: (pubkey: [UInt8], signing: [UInt8], channel: [UInt8])) throws -> SyncSnapshot {
        var rows: [Namespace: [SnapshotRow]] = [:]
        for ns in Namespace.allCases { rows[ns] = [SnapshotRow(SampleRows.typical(ns))] }
        var keyed = SnapshotRow(SampleRows.typical(.contacts, index: 1))
        keyed["pubkey"] = .bytes(k.pubkey)
        keyed["accountSigningPubkey"] = .bytes(k.signing)
        keyed["channelKey"] = .bytes(k.channel)
        rows[.contacts]?.append(keyed)
        return try SyncSnapshot(rows, providerKeys: providerKeys)
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        let f = try Fixture()
        try messageCases(&b, f)
        try snapshotCases(&b, f)
        try sealCases(&b, f)
        try receiveCases(&b, f)
        try handleRequestCases(&b, f)
        try importCases(&b, f)
        try scheduleCases(&b)
        try wakeCases(&b)
        let cases = b.cases + (try SyncOfferFacets.cases(f))
        try TwoFaultModels.check(try twoFaultModels(f), in: cases, handler: SyncOfferHandler())
        return VectorFile(format: "sync_offer",
                          description: "Snapshot sync: sync_request, sync_offer, sync_ack, the sealed snapshot blob, the receiver procedure, import, re-sends and wake classes (SPEC.md §7), and the §1 CBOR profile inside them",
                          cases: cases)
    }

    // MARK: raw CBOR

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

    /// A text-keyed map in §1 order with one member's value replaced by raw bytes (or added, in
    /// its sorted place, when absent).
    static func withRaw(_ entries: [(String, CBOR)], _ name: String, _ raw: [UInt8]) -> [UInt8] {
        var pairs = sortedPairs(entries.filter { $0.0 != name })
        pairs.append((enc(.text(name)), raw))
        return rawMap(pairs.sorted { $0.0.lexicographicallyPrecedes($1.0) })
    }

    /// The same byte string with a non-shortest length head (one step longer than needed).
    static func longHeadBytes(_ b: [UInt8]) -> [UInt8] {
        if b.count < 24 { return [0x58, UInt8(b.count)] + b }
        if b.count < 256 { return [0x59, 0x00, UInt8(b.count)] + b }
        return [0x5a, 0x00, 0x00, UInt8(b.count >> 8), UInt8(b.count & 0xff)] + b
    }

    static func wireMembers(_ tree: CBOR) -> [(String, CBOR)] {
        guard case .map(let e) = tree else { return [] }
        return e.compactMap { if case .text(let k) = $0.key { return (k, $0.value) } else { return nil } }
    }

    /// Replaces (or, with nil, removes; or appends) one member of a text-keyed object.
    static func setting(_ tree: CBOR, _ name: String, _ value: CBOR?) -> CBOR {
        var m = wireMembers(tree)
        if let i = m.firstIndex(where: { $0.0 == name }) {
            if let value { m[i].1 = value } else { m.remove(at: i) }
        } else if let value { m.append((name, value)) }
        return .object(m)
    }

    /// An uppercase hex rendering (op inputs accept either case, SPEC.md §2.2 rule 4).
    static func upperHex(_ b: [UInt8]) -> CBOR { .text(Hex.encode(b).uppercased()) }

    /// Mixed-case hex: every other digit uppercase.
    static func mixedHex(_ b: [UInt8]) -> CBOR {
        .text(String(Hex.encode(b).enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element }))
    }

    static func cborInput(_ bytes: [UInt8]) -> CBOR { SyncOfferOutput.cbor(bytes) }
}

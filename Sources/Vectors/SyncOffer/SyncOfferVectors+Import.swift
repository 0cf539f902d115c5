import Primitives

/// `import` (SPEC.md §7.7), `schedule`, `wake_class` and `relay_wake` (§7.8).
extension SyncOfferVectors {
    // MARK: import

    static func importCases(_ b: inout Builder, _ f: Fixture) throws {
        @discardableResult
        func run(_ id: String, _ comment: String, store: SyncSnapshot, snapshots: [SyncSnapshot], rules: [String], flags: [String] = []) throws -> (SyncSnapshot, [Int]) {
            var s = store
            let counts = snapshots.map { s.importing($0) }
            let input = CBOR.object([("store", store.tree), ("snapshots", .array(snapshots.map(\.tree)))])
            try b.add(id, "import", comment, rules: rules + ["R7.9-14"], flags: flags, input: input, expected: .output(SyncOfferOutput.imported(s, inserted: counts)))
            return (s, counts)
        }
        let snap = try sampleSnapshot()
        let empty = try SyncSnapshot([:])
        let (once, c1) = try run("basic/once", "an empty store imports the typical snapshot: every row inserted, each without its per-device fields", store: empty, snapshots: [snap], rules: ["R7.7-1", "R7.7-3"])
        let (twice, c2) = try run("basic/twice", "the same snapshot imported twice: the second inserts nothing; the store equals basic/once", store: empty, snapshots: [snap, snap], rules: ["R7.7-1"], flags: ["idempotent"])
        try check(once == twice && c1 == [snap.rowCount] && c2 == [snap.rowCount, 0], "import twice == once")
        let (again, c3) = try run("basic/onto-itself", "a store that already holds the snapshot imports it: nothing inserted, nothing changed", store: once, snapshots: [snap], rules: ["R7.7-1"], flags: ["idempotent"])
        try check(again == once && c3 == [0], "import onto itself")

        // Insert-if-absent, not overwrite: the local row wins whatever its content.
        var plan = SampleRows.typical(.plans, index: 0)
        plan["title"] = .text("Trip 0, edited here")
        plan["updatedAt"] = .date(SampleRows.clock + 9_999_000)
        let local = try SyncSnapshot(rows: [.plans: [plan]])
        let (kept, c4) = try run("keyed/plan-by-planID", "the store holds a plan with the same planID (edited later): kept, the incoming plan skipped; other rows inserted",
                                 store: local, snapshots: [snap], rules: ["R7.7-1"], flags: ["insert-if-absent"])
        try check(kept.namespaces[.plans]?.contains(SnapshotRow(plan)) == true && c4 == [snap.rowCount - 1], "planID keyed")
        var msg = SampleRows.typical(.messages, index: 1)
        msg["body"] = .text("a different body")
        let (keptMsg, c5) = try run("keyed/message-by-messageID", "the store holds one of the messages under its messageID with another body: kept, with its own per-device fields",
                                    store: try SyncSnapshot(rows: [.messages: [msg]]), snapshots: [snap], rules: ["R7.7-1", "R7.7-3"], flags: ["insert-if-absent"])
        try check(keptMsg.namespaces[.messages]?.contains(SnapshotRow(msg)) == true && c5 == [snap.rowCount - 1], "messageID keyed")

        // Two overlapping snapshots (two siblings answered).
        let a = try SyncSnapshot(rows: [.plans: [SampleRows.typical(.plans, index: 0), SampleRows.typical(.plans, index: 1)]])
        let bb = try SyncSnapshot(rows: [.plans: [SampleRows.typical(.plans, index: 1), SampleRows.typical(.plans, index: 2)]])
        let (_, c6) = try run("basic/two-siblings-overlap", "two siblings' snapshots sharing one plan: the shared plan is inserted once", store: empty, snapshots: [a, bb], rules: ["R7.7-1"])
        try check(c6 == [2, 1], "overlap counts")

        // Calendar events are never imported.
        var cal = SampleRows.typical(.memory, index: 2); cal["source"] = .text("calendar")
        let withCal = try SyncSnapshot(rows: [.memory: [SampleRows.typical(.memory, index: 0), cal]])
        let (afterCal, c7) = try run("dropped/calendar-event", "a calendar-derived memory event in a snapshot is not inserted (re-derived on every device)",
                                     store: empty, snapshots: [withCal], rules: ["R7.7-2"], flags: ["dropped"])
        try check(c7 == [1] && afterCal.namespaces[.memory]?.count == 1, "calendar skipped")
        // Only the source "calendar" is dropped: one sorting below it and one above are imported
        // (a source compared by order where SPEC means equality: a cosmic-ray survivor, issue 25).
        var below = SampleRows.typical(.memory, index: 2); below["source"] = .text("apple")
        var above = SampleRows.typical(.memory, index: 3); above["source"] = .text("calendars")
        let (afterOthers, c7b) = try run("kept/source-not-calendar", "memory events whose source is \"apple\" (sorting below \"calendar\") and \"calendars\" (above it): both inserted, only \"calendar\" itself is dropped",
                                         store: empty, snapshots: [try SyncSnapshot(rows: [.memory: [below, above]])], rules: ["R7.7-2"])
        try check(c7b == [2] && afterOthers.namespaces[.memory]?.count == 2, "other sources kept")

        // Per-device fields: stripped, except merge metadata and residency.
        let (seedIn, c8) = try run("seed/full", "the seed-shaped snapshot into an empty store: contact keys and provider keys kept, every per-device field (row ids, observedAt, outbox, cursors, drafts, cache paths, verifiedAt, lastSeenAt, peerPubkey) left out",
                                   store: empty, snapshots: [f.seedSnapshot], rules: ["R7.7-3", "R7.7-4", "R7.4-3"])
        try check(c8 == [f.seedSnapshot.rowCount] && seedIn.providerKeys.count == 3, "seed import counts")
        var offloaded = SampleRows.typical(.notebook, index: 3)
        offloaded["bodyOffloaded"] = .bool(true)
        offloaded["contentHash"] = .bytes([UInt8](repeating: 0x4c, count: 32))
        offloaded["offloadHolderPubkey"] = .bytes([UInt8](repeating: 0x68, count: 32))
        offloaded["body"] = .text("")
        var tomb = SampleRows.typical(.settings, index: 4)
        tomb["tombstoned"] = .bool(true)
        let (keptEx, _) = try run("strip/kept-excluded-fields", "an offloaded note and a tombstoned setting with its version vector: bodyOffloaded, offloadHolderPubkey, contentHash, versionVector and tombstoned are kept (residency and merge metadata), localRowID is not",
                                  store: empty, snapshots: [try SyncSnapshot(rows: [.notebook: [offloaded], .settings: [tomb]])], rules: ["R7.7-3"])
        try check(keptEx.namespaces[.notebook]?.first?["contentHash"] != nil && keptEx.namespaces[.notebook]?.first?["localRowID"] == nil, "kept excluded")
        var heldMsg = SampleRows.typical(.messages, index: 5)
        heldMsg["localRowID"] = .int(77)
        try run("strip/held-row-untouched", "the store's own message keeps its localRowID and outboxState; only the inserted rows lose theirs",
                store: try SyncSnapshot(rows: [.messages: [heldMsg]]), snapshots: [try SyncSnapshot(rows: [.messages: [SampleRows.typical(.messages, index: 6)]])], rules: ["R7.7-3", "R7.7-1"])

        // Provider keys: insert-if-absent by name.
        let store = try SyncSnapshot([:], providerKeys: [ProviderKey(name: "openai", key: "sk-entered-here")])
        let (pk, _) = try run("seed/provider-keys-insert-if-absent", "the store already holds an openai key: kept; anthropic and mistral inserted",
                              store: store, snapshots: [try SyncSnapshot([:], providerKeys: providerKeys)], rules: ["R7.7-4"])
        try check(pk.providerKeys.first { $0.name == "openai" }?.key == "sk-entered-here", "provider key kept")

        // Unicode: keys compare as bytes.
        let nfc = Row(.settings, ["key": .text("caf\u{e9}"), "value": .text("here")])
        let nfd = Row(.settings, ["key": .text("cafe\u{301}"), "value": .text("there")])
        let (uni, c9) = try run("unicode/nfc-and-nfd-keys", "the store holds settings key \"café\" in NFC, the snapshot the NFD spelling: a different key, inserted (a normalising or String-keyed store skips it)",
                                store: try SyncSnapshot(rows: [.settings: [nfc]]), snapshots: [try SyncSnapshot(rows: [.settings: [nfd]])], rules: ["R7.7-1", "R2.2-5"])
        try check(c9 == [1] && uni.namespaces[.settings]?.count == 2, "nfc/nfd distinct")

        // Inputs.
        let dup = CBOR.object([("store", .object([("namespaces", .object([("plans", .array([rowTree(SampleRows.typical(.plans)), rowTree(SampleRows.typical(.plans))]))]))])),
                               ("snapshots", .array([]))])
        try b.error("input/store-duplicate", "import", "a store with one planID twice", rules: ["R7.9-10"], input: dup, .duplicateKey)
        let good = CBOR.object([("store", empty.tree), ("snapshots", .array([snap.tree]))])
        try b.error("input/store-missing", "import", "no store", rules: ["R7.9-1", "R2.2-1"], input: good.setting("store", nil), .inputMissingField)
        try b.error("input/snapshots-not-array", "import", "snapshots given as one snapshot object, not an array", rules: ["R7.9-14", "R7.9-1"], input: good.replacing("snapshots", with: snap.tree), .inputBadType)
        try b.error("input/snapshot-null", "import", "a null element among the snapshots", rules: ["R7.9-14", "R7.9-1"], input: good.replacing("snapshots", with: .array([snap.tree, .null])), .inputBadType)
        try b.error("order/store-before-snapshots", "import", "a store naming namespace calendar and snapshots not an array: store first", rules: ["R7.9-2"], twoFaults: true,
                    input: .object([("snapshots", .unsigned(1)), ("store", .object([("namespaces", .object([("calendar", .array([]))]))]))]), .unknownNamespace)

        // R7.9-11: a store given in JSON comes back normalised, whatever order it was given in:
        // text sets sorted by UTF-8 bytes without repeats, reactions in leaf order (a survivor of
        // cosmic-ray on pixie: a writer that echoes the sets as given passed every case).
        var note = SampleRows.typical(.notebook)
        note["tags"] = .textSet(["food", "Zest", "food"])
        let message = SampleRows.full(.messages)
        guard case .array(let reactions)? = rowTree(message)["reactions"], reactions.count > 1 else {
            throw StateDigestVectors.GeneratorCheckFailed(description: "sync_offer: the full message row has fewer than two reactions")
        }
        let given = CBOR.object([("namespaces", .object([
            ("messages", .array([setting(rowTree(message), "reactions", .array(reactions.reversed()))])),
            ("notebook", .array([setting(rowTree(note), "tags", .array([.text("food"), .text("Zest"), .text("food")]))])),
        ]))])
        let normalised = try SyncSnapshot(rows: [.messages: [message], .notebook: [note]])
        try b.add("normalised/store-sets-as-given", "import", "a store whose note tags are given unsorted with a repeat and whose message reactions are given in reverse, no snapshot: the store comes back with its sets in order",
                  rules: ["R7.9-11", "R7.9-14"], flags: [InputBeforeRulesCases.notABase], input: .object([("store", given), ("snapshots", .array([]))]),
                  expected: .output(SyncOfferOutput.imported(normalised, inserted: [])))
    }

    // MARK: schedule

    static func scheduleCases(_ b: inout Builder) throws {
        let points: [(Int64, String)] = [
            (0, "the first send, of wake class sync like every send, at 0 ms"), (1, "1 ms: still one send"), (4_999, "4999 ms: one send"),
            (5_000, "5000 ms: the first re-send is due, also of class sync (a sender that marks re-sends silent changes the relay's view)"), (5_001, "5001 ms: two sends"), (9_999, "9999 ms: two sends"),
            (10_000, "10000 ms: three sends"), (29_999, "29999 ms: six sends"), (30_000, "30000 ms: the seventh and last send"),
            (30_001, "30001 ms: all seven out, nothing next"), (34_999, "34999 ms: seven sends, coverage not yet over"),
            (35_000, "35000 ms: coverage over, no eighth send (7 sends in all, 7 x 5 s = 35 s)"), (35_001, "35001 ms: exhausted"), (40_000, "40000 ms: exhausted"),
            (3_600_000, "an hour later: still seven, exhausted"), (1 << 53, "2^53 ms: no overflow"),
            (Int64.max, "2^63-1 ms, the largest elapsed time: no overflow in 5000 x k"),
        ]
        for (t, comment) in points {
            let due = ResendSchedule.due(elapsedMs: t)
            try check(due.count == min(7, Int(t / 5_000) + 1) && due.allSatisfy { $0.wake == .sync }, "schedule \(t)")
            let id = t == Int64.max ? "int/elapsed-2p63-minus-1" : "boundary/t\(t)"
            var rules = ["R7.8-1", "R7.8-2", "R7.8-3", "R7.8-4", "R7.8-5", "R7.9-15", "R2.4-2"]
            if t == Int64.max { rules += ["R7.9-3"] }
            try b.add(id, "schedule", comment, rules: rules, input: .object([("elapsed_ms", t == Int64.max ? .text(String(t)) : .int(t))]),
                      expected: .output(SyncOfferOutput.schedule(elapsedMs: t)))
        }
        try b.error("input/negative", "schedule", "elapsed time -1 ms", rules: ["R7.9-15"], input: .object([("elapsed_ms", .int(-1))]), .inputBadValue)
        try b.error("input/missing", "schedule", "no elapsed_ms", rules: ["R7.9-1", "R2.2-1"], input: .object([]), .inputMissingField)
        try b.error("int/elapsed-minus-2p63", "schedule", "elapsed_ms -2^63: an int64, so input_bad_value, not input_bad_type", rules: ["R7.9-15", "R7.9-3"],
                    input: .object([("elapsed_ms", .text(String(Int64.min)))]), .inputBadValue)
        try b.error("int/elapsed-2p63", "schedule", "elapsed_ms 2^63: beyond int64", rules: ["R7.9-3"], input: .object([("elapsed_ms", .text("9223372036854775808"))]), .inputBadType)
        try b.error("int/elapsed-float", "schedule", "elapsed_ms 5000.0", rules: ["R7.9-3", "R2.4-1"], input: .object([("elapsed_ms", .jsonNumber("5000.0"))]), .inputBadType)
        try b.error("int/elapsed-exponent", "schedule", "elapsed_ms 5e3", rules: ["R7.9-3", "R2.4-1"], input: .object([("elapsed_ms", .jsonNumber("5e3"))]), .inputBadType)
        try b.error("int/elapsed-true", "schedule", "elapsed_ms true", rules: ["R7.9-3"], input: .object([("elapsed_ms", .bool(true))]), .inputBadType)
        try b.error("int/elapsed-null", "schedule", "elapsed_ms null", rules: ["R7.9-1", "R2.2-1"], input: .object([("elapsed_ms", .null)]), .inputBadType)
        try b.add("int/elapsed-decimal-string", "schedule", "elapsed_ms \"5000\" as a decimal string: two sends", rules: ["R7.9-3", "R7.8-2"],
                  input: .object([("elapsed_ms", .text("5000"))]), expected: .output(SyncOfferOutput.schedule(elapsedMs: 5_000)))
    }

    // MARK: wake classes and the relay

    static func wakeCases(_ b: inout Builder) throws {
        let types: [(String, String, String)] = [
            ("sync-request", "sync_request", "a sync_request: class sync, whichever send of the schedule it is"),
            ("sync-offer", "sync_offer", "the offer: silent"),
            ("sync-ack", "sync_ack", "the ack: silent"),
            ("sync-delta", "sync_delta", "a later delta: silent"),
            ("signin-request", "signin_request", "a sign-in request: not a SyncRequest, silent"),
            ("uppercase", "SYNC_REQUEST", "SYNC_REQUEST: types compare byte for byte, so silent (a case-insensitive match says sync)"),
            ("capitalised", "Sync_Request", "Sync_Request: silent"),
            ("trailing-space", "sync_request ", "sync_request with a trailing space: silent"),
            ("empty", "", "the empty string: silent"),
        ]
        for (id, t, comment) in types {
            try b.add("basic/\(id)", "wake_class", comment, rules: ["R7.8-5", "R7.9-16"], input: .object([("payload_type", .text(t))]),
                      expected: .output(.object([("wake", .text(ResendSchedule.wakeClass(payloadType: t).rawValue))])))
        }
        try b.error("input/missing", "wake_class", "no payload_type", rules: ["R7.9-1", "R2.2-1"], input: .object([]), .inputMissingField)
        try b.error("input/number", "wake_class", "payload_type 1", rules: ["R7.9-16"], input: .object([("payload_type", .unsigned(1))]), .inputBadType)
        try b.error("input/null", "wake_class", "payload_type null", rules: ["R7.9-16", "R2.2-1"], input: .object([("payload_type", .null)]), .inputBadType)

        let seven = [RelayWake.Event](repeating: .sync, count: 7)
        let sequences: [(String, [RelayWake.Event], String)] = [
            ("seven-sends-asleep", seven, "the schedule's seven sync frames to a sibling that stays asleep: only the first pushes"),
            ("reconnect-after-third", Array(seven[0..<3]) + [.reconnect] + Array(seven[3...]), "the sibling reconnects after the third send: the next send wakes it again (events 0 and 4)"),
            ("silent-never-pushes", [.silent, .silent, .silent], "silent frames (offers, acks, deltas) never push"),
            ("silent-then-sync", [.silent, .sync, .sync], "a silent frame does not use up the wake: the first sync frame pushes"),
            ("reconnect-first", [.reconnect, .sync, .silent, .sync], "a reconnect before any frame changes nothing: the first sync frame pushes"),
            ("two-reconnects", [.sync, .reconnect, .reconnect, .sync, .sync], "two reconnects in a row re-arm once: events 0 and 3"),
            ("each-reconnect-rearms", [.sync, .reconnect, .sync, .reconnect, .sync], "every reconnect re-arms: events 0, 2 and 4"),
            ("no-events", [], "no events, no pushes"),
        ]
        for (id, events, comment) in sequences {
            try b.add("basic/\(id)", "relay_wake", comment, rules: ["R7.8-6", "R7.9-17"], input: .object([("events", .array(events.map { .text($0.rawValue) }))]),
                      expected: .output(.object([("pushes", .array(RelayWake.pushes(events).map { .unsigned(UInt64($0)) }))])))
        }
        try b.error("input/event-capitalised", "relay_wake", "an event \"Sync\": events compare byte for byte", rules: ["R7.9-17"], input: .object([("events", .array([.text("Sync")]))]), .inputBadValue)
        try b.error("input/event-number", "relay_wake", "an event 1", rules: ["R7.9-17"], input: .object([("events", .array([.unsigned(1)]))]), .inputBadType)
        try b.error("input/event-null", "relay_wake", "an event null", rules: ["R7.9-17"], input: .object([("events", .array([.text("sync"), .null]))]), .inputBadType)
        try b.error("input/events-not-array", "relay_wake", "events given as a string", rules: ["R7.9-17"], input: .object([("events", .text("sync"))]), .inputBadType)
        try b.error("input/missing", "relay_wake", "no events", rules: ["R7.9-1", "R2.2-1"], input: .object([]), .inputMissingField)
        try b.error("order/events-element-by-element", "relay_wake", "events [\"wake\", 5]: the first element is checked completely first (input_bad_value, not input_bad_type)",
                    rules: ["R7.9-17", "R7.9-2"], twoFaults: true, input: .object([("events", .array([.text("wake"), .unsigned(5)]))]), .inputBadValue)
    }
}

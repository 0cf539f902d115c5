import Primitives

/// The clock, input-reading and check-order cases of `settle` (SPEC.md §12.1–§12.5, §12.7, §2.2).
extension SettleVectors {
    enum P { case k(String), i(Int) }

    /// The tree with the member or element at `path` replaced (nil removes it; a missing last
    /// key is added at the end).
    static func edit(_ t: CBOR, _ path: [P], _ v: CBOR?) -> CBOR {
        guard let first = path.first else { return v ?? t }
        let rest = Array(path.dropFirst())
        switch (first, t) {
        case (.k(let key), .map(var entries)):
            if let j = entries.firstIndex(where: { $0.key == .text(key) }) {
                if rest.isEmpty, v == nil { entries.remove(at: j) } else { entries[j].value = edit(entries[j].value, rest, v) }
            } else if rest.isEmpty, let v {
                entries.append(CBORMapEntry(key: .text(key), value: v))
            }
            return .map(entries)
        case (.i(let j), .array(var items)):
            if rest.isEmpty, v == nil { items.remove(at: j) } else { items[j] = edit(items[j], rest, v) }
            return .array(items)
        default:
            return t
        }
    }

    static func stepInput(_ s: SettleState, _ e: SettleEvent) -> CBOR {
        .object([("state", SettleOutput.state(s)), ("event", e.tree)])
    }

    static let two53: UInt64 = 1 << 53
    static let two63: UInt64 = 1 << 63
    static let maxT = UInt64.max

    // MARK: times (R12.1-1, R12.1-2, R12.5-2, R12.5-8)

    static func clockCases(_ b: inout Builder) throws {
        try b.step("clock/same-millisecond", "an event at the state's own time is applied (two events may share a millisecond)",
                   rules: ["12.5-2"], flags: ["edge"], state: state(), write(T, d2), expect: [arm(T + 400)])
        try b.reject("step", "clock/one-ms-backwards", "an event 1 ms before the state's clock is refused",
                     rules: ["12.5-2"], flags: ["edge"], input: stepInput(state(), write(T - 1, d2)), .settleClockBackwards)
        try b.reject("step", "clock/zero-after-max", "an event at 0 after one at 2^64 − 1 is refused (no wrap-around)",
                     rules: ["12.5-2"], flags: ["edge"], input: stepInput(state(now: maxT), tick(0)), .settleClockBackwards)
        try b.step("clock/zero", "a state at 0 and an event at 0",
                   rules: ["12.1-1"], flags: ["edge"], state: state(now: 0), tick(0), expect: [])
        try b.step("clock/two-to-the-53", "a write at 2^53: the deadline 2^53 + 400 is written as a decimal string",
                   rules: ["12.1-1"], flags: ["edge"], state: state(now: two53), write(two53, d2), expect: [arm(two53 + 400)])
        try b.step("clock/two-to-the-53-plus-one", "a time a double cannot hold (2^53 + 1) keeps its last digit",
                   rules: ["12.1-1"], flags: ["edge"], state: state(now: two53 + 1), write(two53 + 1, d2), expect: [arm(two53 + 401)])
        try b.step("clock/deadline-past-2-to-the-63", "a deadline past 2^63 (a signed 64-bit clock overflows here)",
                   rules: ["12.1-1", "12.1-2"], flags: ["edge"], state: state(now: two63 - 100), write(two63 - 100, d2), expect: [arm(two63 + 300)])
        try b.step("clock/at-2-to-the-63", "a clock at exactly 2^63 is a time like any other",
                   rules: ["12.1-1"], flags: ["edge"], state: state(now: two63, digest: d1, [sib(ipad, rounds: [two63 - 1])]), tick(two63), expect: [])
        try b.step("clock/deadline-exactly-max", "a write 400 ms before 2^64 − 1 gets the deadline 2^64 − 1",
                   rules: ["12.1-2"], flags: ["edge"], state: state(now: maxT - 400), write(maxT - 400, d2), expect: [arm(maxT)])
        try b.reject("step", "clock/debounce-overflows", "a write 399 ms before 2^64 − 1 would need the deadline 2^64: settle_time_overflow, not a wrapped deadline",
                     rules: ["12.1-2", "12.5-8"], flags: ["edge"], input: stepInput(state(now: maxT - 399), write(maxT - 399, d2)), .settleTimeOverflow)
        try b.reject("step", "clock/write-at-max", "a write at 2^64 − 1 overflows its deadline",
                     rules: ["12.1-2"], flags: ["edge"], input: stepInput(state(now: maxT), write(maxT, d2)), .settleTimeOverflow)
        try b.reject("step", "clock/connected-at-max", "connecting at 2^64 − 1 overflows its debounce",
                     rules: ["12.1-2", "12.6-8"], flags: ["edge"], input: stepInput(state(now: maxT), connected(maxT)), .settleTimeOverflow)
        try b.step("clock/tick-at-max", "a tick at 2^64 − 1 sets no deadline and is fine",
                   rules: ["12.1-1"], flags: ["edge"], state: state(now: maxT - 5, debounceAt: maxT), tick(maxT), expect: [emit([ipad], .debounce)])
        try b.step("clock/no-op-apply-at-max", "a no-op round at 2^64 − 1 sets no deadline: its emit is fine",
                   rules: ["12.1-2", "12.6-20"], flags: ["edge"], state: state(now: maxT, [sib(ipad, reconciling: true)]), applied(maxT, ipad, 0, d1),
                   expect: [emit([ipad], .applied)])
        try b.reject("step", "clock/applied-change-at-max", "a round that changed something at 2^64 − 1 marks dirty and overflows",
                     rules: ["12.1-2", "12.6-21"], flags: ["edge"], input: stepInput(state(now: maxT, [sib(ipad, reconciling: true)]), applied(maxT, ipad, 1, d2)),
                     .settleTimeOverflow)
        let eight = { (now: UInt64) in (0..<8).map { now - 7 + UInt64($0) } }
        try b.step("clock/backoff-deadline-exactly-max", "the guard tripping 30,000 ms before 2^64 − 1 backs off until 2^64 − 1",
                   rules: ["12.1-2", "12.6-16"], flags: ["edge"], state: state(now: maxT - 30_000, [sib(ipad, rounds: eight(maxT - 30_000))]),
                   got(maxT - 30_000, ipad, d2),
                   expect: [.backOff(sibling: ipad, until: maxT), .logDivergent(sibling: ipad, namespaces: [.messages]), armBackoff(ipad, maxT)])
        try b.reject("step", "clock/backoff-overflows", "the guard tripping 29,999 ms before 2^64 − 1 would back off past it",
                     rules: ["12.1-2", "12.5-8"], flags: ["edge"],
                     input: stepInput(state(now: maxT - 29_999, [sib(ipad, rounds: eight(maxT - 29_999))]), got(maxT - 29_999, ipad, d2)), .settleTimeOverflow)
    }

    // MARK: reading inputs (§2.2, R12.2-x, R12.3-x)

    static func inputCases(_ b: inout Builder) throws {
        let base = stepInput(state(digest: d1, [sib(ipad, rounds: [T - 10])]), got(T, ipad, d1))
        func okCase(_ name: String, _ comment: String, _ rules: [String], _ path: [P], _ v: CBOR?, claim: @escaping (CBOR) -> Bool = { _ in true }) throws {
            try b.ok("step", "input/\(name)", comment, rules: rules, flags: ["input-class"], input: edit(base, path, v), claim: claim)
        }
        func bad(_ name: String, _ comment: String, _ rules: [String], _ path: [P], _ v: CBOR?, _ code: ErrorCode, on input: CBOR? = nil) throws {
            try b.reject("step", "input/\(name)", comment, rules: rules, flags: ["input-class"], input: edit(input ?? base, path, v), code)
        }
        let st = P.k("state"), ev = P.k("event"), sib0 = [P.k("state"), .k("siblings"), .i(0)]
        // The op's own members.
        try bad("state-missing", "the state is required", ["2.2-1", "12.7-1"], [st], nil, .inputMissingField)
        try bad("state-not-an-object", "a state that is an array", ["2.2-1"], [st], .array([]), .inputBadType)
        try bad("event-missing", "the event is required", ["2.2-1"], [ev], nil, .inputMissingField)
        // now
        try okCase("now-as-decimal-string", "an integer may be a canonical decimal string", ["2.2-3", "12.1-1"], [st, .k("now")], .text(String(T)))
        try bad("now-leading-zero", "a decimal string with a leading zero is not an integer", ["2.2-3"], [st, .k("now")], .text("0" + String(T)), .inputBadType)
        try bad("now-float", "1767225600000.0 is not an integer", ["2.2-3"], [st, .k("now")], .float(Double(T)), .inputBadType)
        try bad("now-negative", "a time is unsigned", ["2.2-3", "12.1-1"], [st, .k("now")], .negative(0), .inputBadType)
        try bad("now-null", "null is not a time (null never means absent)", ["2.2-1"], [st, .k("now")], .null, .inputBadType)
        try bad("now-2-to-the-64", "2^64 is past the largest time", ["2.2-3", "12.1-1"], [st, .k("now")], .text("18446744073709551616"), .inputBadType)
        try bad("now-missing", "now is required", ["2.2-1"], [st, .k("now")], nil, .inputMissingField)
        // digest
        try bad("digest-416-bytes", "the device's own digest is decoded as §4.8: one byte short", ["12.2-1"], [st, .k("digest")],
                .bytes(Array(d1.encoded().dropLast())), .digestWrongLength)
        try bad("digest-version-5", "the device's own digest must be of wire version 6", ["12.2-1"], [st, .k("digest")],
                .bytes([5] + Array(d1.encoded().dropFirst())), .digestUnsupportedVersion)
        try bad("digest-odd-hex", "an odd number of hex digits", ["2.2-4"], [st, .k("digest")], .text(Hex.encode(d1.encoded()) + "0"), .inputBadValue)
        try okCase("digest-uppercase-hex", "hex in upper case is the same digest, written back in lower case", ["2.2-4", "12.2-5"], [st, .k("digest")],
                   .text(Hex.encode(d1.encoded()).uppercased())) { $0["state"]?["digest"] == .bytes(d1.encoded()) }
        // overlay
        try bad("overlay-string", "\"true\" is not a boolean", ["2.2-6"], [st, .k("overlay")], .text("true"), .inputBadType)
        try bad("overlay-one", "1 is not a boolean", ["2.2-6"], [st, .k("overlay")], .unsigned(1), .inputBadType)
        // nullable members
        try bad("debounce-at-missing", "debounce_at is nullable, not optional: it must be present", ["2.2-1"], [st, .k("debounce_at")], nil, .inputMissingField)
        try bad("last-broadcast-missing", "last_broadcast must be present (null when none)", ["2.2-1"], [st, .k("last_broadcast")], nil, .inputMissingField)
        try bad("last-broadcast-version-5", "last_broadcast is a digest of this wire version", ["12.2-1"], [st, .k("last_broadcast")],
                .bytes([5] + Array(d1.encoded().dropFirst())), .digestUnsupportedVersion)
        try bad("backoff-until-string-true", "backoff_until is a time or null", ["2.2-3"], sib0 + [.k("backoff_until")], .text("true"), .inputBadType)
        try bad("reconciling-null", "reconciling is a boolean, never null", ["2.2-1", "2.2-6"], sib0 + [.k("reconciling")], .null, .inputBadType)
        // siblings
        try bad("siblings-not-an-array", "siblings is an array", ["2.2-1"], [st, .k("siblings")], .object([]), .inputBadType)
        try bad("sibling-id-31-bytes", "a sibling id is 32 bytes", ["12.2-2", "2.2-4"], sib0 + [.k("id")], .bytes([UInt8](repeating: 0x1a, count: 31)), .inputBadLength)
        try okCase("sibling-id-uppercase", "a sibling listed in upper-case hex is the sibling an event names in lower case",
                   ["12.2-2", "12.3-4", "12.2-5"], sib0 + [.k("id")], .text(Hex.encode(ipad.bytes).uppercased())) {
            $0["state"]?["siblings"] == .array([.object([("id", .bytes(ipad.bytes)), ("reconciling", .bool(false)), ("backoff_until", .null),
                                                         ("rounds", .array([.unsigned(T - 10)]))])])
        }
        let twoIDs = edit(base, [st, .k("siblings")], .array([SettleOutput.state(state([sib(ipad)]))["siblings"]!.arrayValue![0],
                                                              edit(SettleOutput.state(state([sib(ipad)]))["siblings"]!.arrayValue![0], [.k("id")],
                                                                   .text(Hex.encode(ipad.bytes).uppercased()))]))
        try bad("sibling-listed-twice-in-two-cases", "one id in lower and upper case is one sibling listed twice", ["12.2-4", "12.2-2"], [], nil, .duplicateKey, on: twoIDs)
        try bad("round-after-now", "a round later than now has not happened", ["12.2-3"], sib0 + [.k("rounds")], .array([.unsigned(T + 1)]), .inputBadValue)
        try okCase("round-at-now", "a round at now is fine", ["12.2-3"], sib0 + [.k("rounds")], .array([.unsigned(T)]))
        try okCase("round-as-decimal-string", "a round given as a decimal string", ["2.2-3"], sib0 + [.k("rounds")], .array([.text(String(T - 10))]))
        let unsorted = stepInput(state(digest: d1, [sib(ipad)]), tick(T))
        let shuffled = edit(edit(unsorted, [st, .k("siblings")], .array([
            SettleOutput.state(state([sib(tv, rounds: [T - 5, T - 9, T - 7])]))["siblings"]!.arrayValue![0],
            SettleOutput.state(state([sib(ipad)]))["siblings"]!.arrayValue![0],
            SettleOutput.state(state([sib(mac)]))["siblings"]!.arrayValue![0],
        ])), [], nil)
        try b.ok("step", "input/siblings-and-rounds-written-in-order", "siblings come back in id byte order and rounds in increasing order, whatever the input order",
                 rules: ["12.2-5"], flags: ["input-class"], input: shuffled) { out in
            guard case .array(let sibs)? = out["state"]?["siblings"] else { return false }
            return sibs.map { $0["id"] } == [.bytes(ipad.bytes), .bytes(mac.bytes), .bytes(tv.bytes)]
                && sibs[2]["rounds"] == .array([.unsigned(T - 9), .unsigned(T - 7), .unsigned(T - 5)])
        }
        var extra = edit(base, [st, .k("future")], .text("ignored"))
        extra = edit(extra, sib0 + [.k("nickname")], .text("iPad"))
        extra = edit(extra, [ev, .k("relay")], .object([("hop", .unsigned(2))]))
        try b.ok("step", "input/unknown-members-ignored", "members the op does not define are ignored in the state, a sibling and the event",
                 rules: ["2.2-2"], flags: ["input-class"], input: extra)
        // events
        try bad("event-at-missing", "an event needs at", ["2.2-1", "12.3-1"], [ev, .k("at")], nil, .inputMissingField)
        try bad("event-kind-missing", "an event needs a kind", ["2.2-1", "12.3-1"], [ev, .k("kind")], nil, .inputMissingField)
        try bad("event-kind-not-text", "a kind is a string", ["12.3-1"], [ev, .k("kind")], .unsigned(3), .inputBadType)
        for (name, kind, comment) in [("kind-unknown", "reconcile", "a kind that is not one of the six"),
                                      ("kind-wrong-case", "Digest_Received", "kinds compare exactly: no case folding"),
                                      ("kind-trailing-space", "digest_received ", "kinds compare exactly: no trimming"),
                                      ("kind-empty", "", "the empty kind")] {
            try bad(name, comment, ["12.3-1"], [ev, .k("kind")], .text(kind), .settleUnknownEvent)
        }
        try bad("from-unknown-sibling", "an event from a device the state does not list", ["12.3-4", "12.5-2"], [ev, .k("from")], .bytes(mac.bytes), .settleUnknownSibling)
        try bad("from-31-bytes", "from is a 32-byte id", ["2.2-4"], [ev, .k("from")], .bytes([UInt8](repeating: 0x1a, count: 31)), .inputBadLength)
        try bad("received-digest-odd-hex", "a received digest is read as hex first", ["2.2-4", "12.3-3"], [ev, .k("digest")], .text("060"), .inputBadValue)
        try okCase("received-digest-uppercase", "a received digest in upper-case hex matches", ["2.2-4"], [ev, .k("digest")],
                   .text(Hex.encode(d1.encoded()).uppercased())) { $0["actions"] == .array([]) }
        try okCase("received-digest-416-bytes", "a received digest one byte short is dropped with its §4.8 code, not refused as input",
                   ["12.3-3", "12.6-9"], [ev, .k("digest")], .bytes(Array(d1.encoded().dropLast()))) {
            $0["actions"] == .array([SettleAction.dropDigest(from: ipad, error: .digestWrongLength).tree])
        }
        try okCase("received-digest-version-7", "a received digest of another wire version is dropped: no reconcile, never a repair",
                   ["12.6-9"], [ev, .k("digest")], .bytes([7] + Array(d2.encoded().dropFirst()))) {
            $0["actions"] == .array([SettleAction.dropDigest(from: ipad, error: .digestUnsupportedVersion).tree])
        }
        try okCase("received-digest-empty", "an empty received digest is dropped", ["12.6-9"], [ev, .k("digest")], .bytes([])) {
            $0["actions"] == .array([SettleAction.dropDigest(from: ipad, error: .digestWrongLength).tree])
        }
        let writeInput = stepInput(state(), write(T, d2))
        try bad("local-write-digest-416-bytes", "the device's own digest in a write is decoded as §4.8 while the event is read", ["12.3-2"],
                [ev, .k("digest")], .bytes(Array(d2.encoded().dropLast())), .digestWrongLength, on: writeInput)
        let applyInput = stepInput(state([sib(ipad, reconciling: true)]), applied(T, ipad, 1, d2))
        try bad("applied-negative", "applied is unsigned", ["2.2-3"], [ev, .k("applied")], .negative(0), .inputBadType, on: applyInput)
        try bad("applied-exponent", "1e3 is not an integer", ["2.2-3"], [ev, .k("applied")], .float(1000), .inputBadType, on: applyInput)
        try bad("namespace-wrong-case", "namespace names compare exactly", ["12.3-1"], [ev, .k("namespace")], .text("Messages"), .unknownNamespace, on: applyInput)
        let request = stepInput(state(), req(T, ipad, rows: 0, tombs: 0))
        try b.ok("step", "input/rows-as-decimal-string", "counts may be decimal strings", rules: ["2.2-3", "12.6-19"], flags: ["input-class"],
                 input: edit(request, [ev, .k("rows")], .text("1"))) { $0["actions"] == .array([SettleAction.sendResponse(to: ipad, namespace: .messages).tree]) }
        try bad("tombstones-missing", "tombstones is required", ["2.2-1"], [ev, .k("tombstones")], nil, .inputMissingField, on: request)
        // episode
        let ep = Builder.episodeInput(state(), [write(T, d2)])
        try b.reject("episode", "input/events-missing", "an episode needs events", rules: ["2.2-1"], flags: ["input-class", "negative"],
                     input: edit(ep, [.k("events")], nil), .inputMissingField)
        try b.reject("episode", "input/events-not-an-array", "events is an array", rules: ["12.7-1"], flags: ["input-class"],
                     input: edit(ep, [.k("events")], .object([])), .inputBadType)
        try b.ok("episode", "input/no-events", "an episode with no events: no action lists, the state as read, written in order",
                 rules: ["12.7-2", "12.2-5"], flags: ["edge"], input: edit(shuffled, [.k("event")], nil).adding("events", .array([]))) { out in
            out["actions"] == .array([]) && out["state"]?["siblings"]?.arrayValue?.count == 3
        }
        try b.reject("episode", "input/last-event-fails-the-episode", "an error in the last event fails the whole episode: no partial output",
                     rules: ["12.5-8", "12.7-1"], input: Builder.episodeInput(state(), [write(T, d2), tick(T + 400), tick(T + 399)]), .settleClockBackwards)
    }

    // MARK: check orders, two faults at once

    static func orderCases(_ b: inout Builder) throws {
        let two = ["two-faults"]
        // R12.2-4: a sibling is read completely before it is compared with the others.
        let dupBase = stepInput(state([sib(ipad), sib(mac)]), tick(T))
        let dup = edit(dupBase, [.k("state"), .k("siblings"), .i(1), .k("id")], .bytes(ipad.bytes))
        try b.reject("step", "order/duplicate-sibling-with-bad-rounds", "a repeated id whose rounds are not an array: the element is read completely first",
                     rules: ["12.2-4", "2.2-7"], flags: two, input: edit(dup, [.k("state"), .k("siblings"), .i(1), .k("rounds")], .text("none")), .inputBadType)
        try b.reject("step", "order/duplicate-sibling-with-future-round", "a repeated id with a round after now: the round is reported",
                     rules: ["12.2-4", "12.2-3"], flags: two, input: edit(dup, [.k("state"), .k("siblings"), .i(1), .k("rounds")], .array([.unsigned(T + 5)])),
                     .inputBadValue)
        // R12.5-3: member reading, then the clock, then the sibling.
        let back = stepInput(state([sib(ipad, reconciling: true)]), applied(T - 1, ipad, 1, d2))
        try b.reject("step", "order/bad-member-before-clock", "a negative applied count in an event that is also too early: the member is reported",
                     rules: ["12.5-3", "12.5-1"], flags: two, input: edit(back, [.k("event"), .k("applied")], .negative(0)), .inputBadType)
        try b.reject("step", "order/unknown-kind-before-clock", "an unknown kind in an event that is also too early: the kind is reported",
                     rules: ["12.5-3", "12.3-1"], flags: two, input: edit(back, [.k("event"), .k("kind")], .text("applied")), .settleUnknownEvent)
        try b.reject("step", "order/bad-digest-before-clock", "a short digest in a write that is also too early: the digest is reported",
                     rules: ["12.5-3", "12.3-2"], flags: two,
                     input: stepInput(state(), SettleEvent(at: T - 1, .localWrite(digest: d2))).replacing(["event", "digest"], .bytes(Array(d2.encoded().dropLast()))),
                     .digestWrongLength)
        try b.reject("step", "order/clock-before-sibling", "an event too early from an unknown device: the clock is reported",
                     rules: ["12.5-3", "12.5-2"], flags: two, input: stepInput(state(), got(T - 1, mac, d2)), .settleClockBackwards)
        try b.reject("step", "order/clock-before-overflow", "a write too early whose deadline would also overflow: the clock is reported",
                     rules: ["12.5-3", "12.1-2"], flags: two, input: stepInput(state(now: maxT), write(maxT - 1, d2)), .settleClockBackwards)
        // R12.6-11: decoding before the back-off check.
        try b.step("order/undecodable-digest-from-a-backed-off-sibling", "a backed-off sibling's digest of another version: dropped with its code, not silently ignored",
                   rules: ["12.6-11", "12.6-9", "12.6-10"], flags: two, state: state([sib(ipad, until: T + 30_000)]),
                   gotBytes(T, ipad, [7] + Array(d2.encoded().dropFirst())), expect: [.dropDigest(from: ipad, error: .digestUnsupportedVersion)])
        // R12.7-1: the state first, then events one at a time.
        try b.reject("episode", "order/state-before-events", "a bad state and events that are not an array: the state is reported",
                     rules: ["12.7-1"], flags: two,
                     input: edit(Builder.episodeInput(state(), []).replacing(["state", "digest"], .bytes([6])), [.k("events")], .text("none")),
                     .digestWrongLength)
        try b.reject("episode", "order/events-applied-one-at-a-time", "event 0 is too early and event 1 has an unknown kind: event 0's clock error, because event 1 is never read",
                     rules: ["12.7-1", "12.5-2"], flags: two,
                     input: Builder.episodeInput(state(), [tick(T - 1), tick(T)]).replacing(["events"], .array([tick(T - 1).tree,
                         edit(tick(T).tree, [.k("kind")], .text("timer"))])),
                     .settleClockBackwards)
        try b.reject("episode", "order/second-event-checked-against-the-first", "event 1 is earlier than event 0 though not than the input state: refused",
                     rules: ["12.7-1", "12.5-2"], input: Builder.episodeInput(state(), [tick(T + 500), tick(T + 100)]), .settleClockBackwards)
    }
}

extension CBOR {
    /// This map with a member added at the end.
    func adding(_ key: String, _ v: CBOR) -> CBOR {
        guard case .map(var entries) = self else { return self }
        entries.append(CBORMapEntry(key: .text(key), value: v))
        return .map(entries)
    }

    /// This tree with the member at a path of keys replaced.
    func replacing(_ keys: [String], _ v: CBOR) -> CBOR {
        SettleVectors.edit(self, keys.map { .k($0) }, v)
    }

    var arrayValue: [CBOR]? { if case .array(let a) = self { return a } else { return nil } }
}

import Primitives

/// The limits and check orders §12 states, as facets, and the cases derived from them (issue 23).
/// Every bound here is quoted from its rule; `FacetSpecTests` checks the quote is in SPEC.md.
enum SettleFacets {
    static let format = "settle"

    static func limit(_ rule: String, _ name: String? = nil, _ quantity: String, bound: String, _ side: LimitFacet.Side,
                      inclusive: Bool = true, _ effect: LimitFacet.Effect) -> LimitFacet {
        LimitFacet(rule: rule, name: name, format: format, quantity: quantity, bound: bound, side: side, inclusive: inclusive, effect: effect)
    }

    // MARK: limits

    static let timeMax = limit("R12.1-1", "max", "a time (the state's `now`)", bound: "2^64 − 1", .max, .refuse(.inputBadType))
    static let timeZero = limit("R12.1-1", "zero", "a time (the state's `now`)", bound: "0", .min, .refuse(.inputBadType))
    static let debounceDeadline = limit("R12.1-2", "debounce", "the debounce deadline `now + 400`", bound: "2^64 − 1", .max,
                                        .refuse(.settleTimeOverflow))
    static let backoffDeadline = limit("R12.1-2", "backoff", "the back-off deadline `now + 30000`", bound: "2^64 − 1", .max,
                                       .refuse(.settleTimeOverflow))
    static let stateDigestLength = limit("R12.2-1", "digest", "the byte length of the state's `digest` (§4.8: 417 bytes)", bound: "§4.8", .exact,
                                         .refuse(.digestWrongLength))
    static let siblingIDLength = limit("R12.2-2", nil, "the byte length of a sibling `id`", bound: "32", .exact, .refuse(.inputBadLength))
    static let roundNotFuture = limit("R12.2-3", nil, "a sibling's round, against the state's `now`", bound: "now", .max,
                                      .refuse(.inputBadValue))
    static let writeDigestLength = limit("R12.3-2", nil, "the byte length of a `local_write` digest (§4.8: 417 bytes)", bound: "§4.8", .exact,
                                         .refuse(.digestWrongLength))
    static let clockBackwards = limit("R12.5-2", nil, "an event's `at`, against the state's `now`", bound: "now", .min,
                                      .refuse(.settleClockBackwards))
    static let roundWindow = limit("R12.5-4", nil, "a round's age `now − r`", bound: "10000", .max, inclusive: false,
                                   .behaviour("the round leaves the sibling's `rounds`"))
    static let debounceDue = limit("R12.5-5", "debounce", "`debounce_at`, against the event's time", bound: "at or before `now`", .max,
                                   .behaviour("the debounced emit fires"))
    static let backoffDue = limit("R12.5-5", "backoff", "`backoff_until`, against the event's time", bound: "at or before `now`", .max,
                                  .behaviour("the back-off ends with a `backoff_end` emit"))
    static let receivedDigestLength = limit("R12.6-9", nil, "the byte length of a received digest (§4.8: 417 bytes)", bound: "§4.8", .exact,
                                            .behaviour("the digest is dropped (`drop_digest`)"))
    static let stormLimit = limit("R12.6-14", nil, "a sibling's rounds inside the window, the new one included", bound: "more than 8", .max,
                                  .behaviour("the storm guard trips"))
    static let requestRows = limit("R12.6-19", "rows", "a request's `rows` (tombstones 0)", bound: "not zero", .min, inclusive: false,
                                   .behaviour("`send_response`"))
    static let requestTombstones = limit("R12.6-19", "tombstones", "a request's `tombstones` (rows 0)", bound: "not zero", .min,
                                         inclusive: false, .behaviour("`send_response`"))
    static let appliedDirty = limit("R12.6-21", nil, "a response's `applied` count", bound: "not zero", .min, inclusive: false,
                                    .behaviour("the state is marked dirty (`arm_timer`)"))

    static let limits: [LimitFacet] = [
        timeMax, timeZero, debounceDeadline, backoffDeadline, stateDigestLength, siblingIDLength, roundNotFuture, writeDigestLength,
        clockBackwards, roundWindow, debounceDue, backoffDue, receivedDigestLength, stormLimit, requestRows, requestTombstones, appliedDirty,
    ]

    // MARK: orders

    static let siblingOrder = OrderFacet(rule: "R12.2-4", format: format, checks: [
        .init("read", .inputBadType), .init("duplicate", .duplicateKey),
    ])
    static let eventOrder = OrderFacet(rule: "R12.5-3", format: format, checks: [
        .init("read", .inputBadType), .init("clock", .settleClockBackwards), .init("sibling", .settleUnknownSibling),
    ])
    static let dropOrder = OrderFacet(rule: "R12.6-11", format: format, checks: [
        .init("decode", output: "drop_digest"), .init("backed-off", output: "no action"),
    ])
    static let episodeOrder = OrderFacet(rule: "R12.7-1", format: format, checks: [
        .init("state", .digestWrongLength), .init("events", .inputBadType), .init("event-0", .settleClockBackwards),
        .init("event-1", .settleUnknownEvent),
    ])

    static let orders: [OrderFacet] = [siblingOrder, eventOrder, dropOrder, episodeOrder]

    /// R12.5-5 at one time: the debounce first, so a sibling whose back-off ends then is still
    /// backed off for it (R12.5-6).
    static let tieBreaks = [
        TieBreakFacet(rule: "R12.5-5", format: format, tie: "the debounce before back-off ends at the same time",
                      decides: "the debounce fires first: a sibling whose back-off ends at that time is not among its recipients",
                      others: [.settleBackoffBeforeDebounce]),
    ]

    static let all: [Facet] = limits.map(Facet.limit) + orders.map(Facet.order) + tieBreaks.map(Facet.tieBreak)

    /// Rules of §12 whose words sound like a bound but state none.
    static let boundless: [String: String] = [
        "R12.2-6": "says a deadline already due is accepted in an input state (both sides of `now` are read); when it fires is R12.5-5's facets",
        "R12.3-4": "says `from` compares \"as bytes\" with the state's siblings: no length (the id's 32 bytes are R12.2-2's facet)",
        "R12.5-6": "orders deadlines that are both due (a tie-break between two times), no bound on either",
        "R12.2-7": "the 417 bytes are §4.8's decoding (its `digest_wrong_length`), not a §2.2 size: R12.2-1's facet and §4's cases hold the edge",
        "R12.4-2": "the 32-byte `to` is a sibling id's fixed size (R12.2-2), and the rule's point is its type (one id, not an array)",
    ]

    static let declared = FormatFacets(format: format, section: "12", facets: all, boundless: boundless)
}

// MARK: - derived cases

extension SettleFacets {
    typealias V = SettleVectors

    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(SettleHandler()) }

    static func actions(_ out: CBOR) -> [CBOR] { out["actions"]?.arrayValue ?? [] }
    static func has(_ out: CBOR, _ action: String, reason: String? = nil) -> Bool {
        actions(out).contains { $0["action"] == .text(action) && (reason == nil || $0["reason"] == .text(reason!)) }
    }
    static func time(_ v: UInt64) -> CBOR { .unsigned(v) }

    static func cases() throws -> [VectorCase] {
        var b = builder()
        try limitCases(&b)
        try orderCases(&b)
        return b.cases
    }

    static func limitCases(_ b: inout FacetCaseBuilder) throws {
        let T = V.T, maxT = UInt64.max
        let st = V.P.k("state"), ev = V.P.k("event")
        func step(_ s: SettleState, _ e: SettleEvent) -> CBOR { V.stepInput(s, e) }
        func moved(_ v: UInt64, _ d: Int) -> UInt64 { d < 0 ? v - UInt64(-d) : v + UInt64(d) }

        try b.limit(timeMax, op: "step", slug: "now-largest-time", comment: "the state's now one below, at and one above 2^64 − 1, a tick at 2^64 − 1") { d in
            d > 0 ? V.edit(step(V.state(now: maxT), V.tick(maxT)), [st, .k("now")], .text("18446744073709551616"))
                  : step(V.state(now: moved(maxT, d)), V.tick(maxT))
        }
        try b.limit(timeZero, op: "step", slug: "now-zero", comment: "the state's now at −1, 0 and 1, a tick at the same time (0 for −1)") { d in
            d < 0 ? V.edit(step(V.state(now: 0), V.tick(0)), [st, .k("now")], .negative(0))
                  : step(V.state(now: UInt64(d)), V.tick(UInt64(d)))
        }
        try b.limit(debounceDeadline, op: "step", slug: "debounce-deadline-largest-time",
                    comment: "a write whose debounce deadline now + 400 is one below, at and one above 2^64 − 1") { d in
            let now = moved(maxT - 400, d)
            return step(V.state(now: now), V.write(now, V.d2))
        }
        let eight = { (now: UInt64) in (0..<8).map { now - 7 + UInt64($0) } }
        try b.limit(backoffDeadline, op: "step", slug: "backoff-deadline-largest-time",
                    comment: "the storm guard tripping where its back-off deadline now + 30000 is one below, at and one above 2^64 − 1") { d in
            let now = moved(maxT - 30_000, d)
            return step(V.state(now: now, [V.sib(V.ipad, rounds: eight(now))]), V.got(now, V.ipad, V.d2))
        }
        let d1 = V.d1.encoded()  // the state's own digest, 417 bytes
        func resized(_ bytes: [UInt8], _ d: Int) -> [UInt8] { d < 0 ? Array(bytes.dropLast(-d)) : bytes + [UInt8](repeating: 0, count: d) }
        try b.limit(stateDigestLength, op: "step", slug: "state-digest-length", comment: "the state's own digest 416, 417 and 418 bytes long") { d in
            V.edit(step(V.state(), V.tick(T)), [st, .k("digest")], .bytes(resized(d1, d)))
        }
        try b.limit(siblingIDLength, op: "step", slug: "sibling-id-length", comment: "a sibling id 31, 32 and 33 bytes long") { d in
            V.edit(step(V.state(), V.tick(T)), [st, .k("siblings"), .i(0), .k("id")], .bytes([UInt8](repeating: 0x1a, count: 32 + d)))
        }
        try b.limit(roundNotFuture, op: "step", slug: "round-against-now", comment: "a round 1 ms before, at and 1 ms after the state's now") { d in
            step(V.state([V.sib(V.ipad, rounds: [moved(T, d)])]), V.tick(T))
        }
        try b.limit(writeDigestLength, op: "step", slug: "write-digest-length", comment: "a local_write digest 416, 417 and 418 bytes long") { d in
            V.edit(step(V.state(), V.write(T, V.d2)), [ev, .k("digest")], .bytes(resized(V.d2.encoded(), d)))
        }
        try b.limit(clockBackwards, op: "step", slug: "event-against-now", comment: "a tick 1 ms before, at and 1 ms after the state's now") { d in
            step(V.state(), V.tick(moved(T, d)))
        }
        let aged = { (d: Int) in T - UInt64(10_000 + d) }
        try b.limit(roundWindow, op: "step", slug: "round-age-window", comment: "a round 9,999, 10,000 and 10,001 ms old when a tick comes",
                    input: { d in step(V.state(now: T - 1, [V.sib(V.ipad, rounds: [aged(d)])]), V.tick(T)) },
                    inside: { out in out["state"]?["siblings"]?.arrayValue?.first?["rounds"]?.arrayValue?.count == 1 })
        try b.limit(debounceDue, op: "step", slug: "debounce-due", comment: "a pending debounce 1 ms before, at and 1 ms after a tick",
                    input: { d in step(V.state(now: T - 100, debounceAt: moved(T, d)), V.tick(T)) },
                    inside: { has($0, "emit_digest", reason: "debounce") })
        try b.limit(backoffDue, op: "step", slug: "backoff-due", comment: "a back-off ending 1 ms before, at and 1 ms after a tick",
                    input: { d in step(V.state(now: T - 100, [V.sib(V.ipad, until: moved(T, d))]), V.tick(T)) },
                    inside: { has($0, "emit_digest", reason: "backoff_end") })
        try b.limit(receivedDigestLength, op: "step", slug: "received-digest-length",
                    comment: "a received digest 416, 417 and 418 bytes long (decoded as §4.8 when applied)",
                    input: { d in V.edit(step(V.state(), V.got(T, V.ipad, V.d2)), [ev, .k("digest")], .bytes(resized(V.d2.encoded(), d))) },
                    inside: { !has($0, "drop_digest") })
        try b.limit(stormLimit, op: "step", slug: "storm-rounds", comment: "a divergent digest starting the 7th, 8th and 9th round inside the window",
                    input: { d in
                        let before = (0..<(7 + d)).map { T - 70 + UInt64($0) * 10 }
                        return step(V.state([V.sib(V.ipad, rounds: before)]), V.got(T, V.ipad, V.d2))
                    },
                    inside: { has($0, "send_request") && !has($0, "back_off") })
        func request(rows: CBOR, tombs: CBOR) -> CBOR {
            V.edit(V.edit(step(V.state(), V.req(T, V.ipad, rows: 0, tombs: 0)), [ev, .k("rows")], rows), [ev, .k("tombstones")], tombs)
        }
        let answered = { (out: CBOR) in has(out, "send_response") }
        try b.limit(requestRows, op: "step", slug: "request-rows", comment: "a request with rows 0 and 1, tombstones 0", edges: [.at, .above],
                    input: { d in request(rows: .unsigned(UInt64(d)), tombs: .unsigned(0)) }, inside: answered)
        try b.limitExtra(requestRows, op: "step", slug: "request-rows", label: "max", comment: "a request with rows 2^64 − 1, tombstones 0",
                         wantInside: true, input: request(rows: time(maxT), tombs: .unsigned(0)), inside: answered)
        try b.limitExtra(requestRows, op: "step", slug: "request-rows", label: "sum-wraps-to-zero",
                         comment: "rows 1 and tombstones 2^64 − 1: a sum of the two wraps to exactly 0, the rule tests each (answered)",
                         wantInside: true, input: request(rows: .unsigned(1), tombs: time(maxT)), inside: answered)
        try b.limit(requestTombstones, op: "step", slug: "request-tombstones", comment: "a request with tombstones 0 and 1, rows 0", edges: [.at, .above],
                    input: { d in request(rows: .unsigned(0), tombs: .unsigned(UInt64(d))) }, inside: answered)
        try b.limitExtra(requestTombstones, op: "step", slug: "request-tombstones", label: "max", comment: "a request with tombstones 2^64 − 1, rows 0",
                         wantInside: true, input: request(rows: .unsigned(0), tombs: time(maxT)), inside: answered)
        try b.limitExtra(requestTombstones, op: "step", slug: "request-tombstones", label: "sum-wraps-to-zero",
                         comment: "tombstones 1 and rows 2^64 − 1: a sum wraps to exactly 0, the rule tests each (answered)",
                         wantInside: true, input: request(rows: time(maxT), tombs: .unsigned(1)), inside: answered)
        let dirty = { (out: CBOR) in has(out, "arm_timer") }
        func apply(_ n: CBOR) -> CBOR {
            V.edit(step(V.state([V.sib(V.ipad, reconciling: true)]), V.applied(T, V.ipad, 0, V.d2)), [ev, .k("applied")], n)
        }
        try b.limit(appliedDirty, op: "step", slug: "applied-count", comment: "a response that applied 0 and 1 changes", edges: [.at, .above],
                    input: { d in apply(.unsigned(UInt64(d))) }, inside: dirty)
        try b.limitExtra(appliedDirty, op: "step", slug: "applied-count", label: "max", comment: "a response that applied 2^64 − 1 changes",
                         wantInside: true, input: apply(time(maxT)), inside: dirty)
    }

    static func orderCases(_ b: inout FacetCaseBuilder) throws {
        let T = V.T
        func set(_ path: [V.P], _ v: CBOR) -> (CBOR) -> CBOR { { V.edit($0, path, v) } }
        let sibling1 = [V.P.k("state"), .k("siblings"), .i(1)]
        try b.order(siblingOrder, op: "step", slug: "sibling", comment: "the second of two siblings",
                    base: V.stepInput(V.state([V.sib(V.ipad), V.sib(V.mac)]), V.tick(T)),
                    faults: [set(sibling1 + [.k("rounds")], .text("none")), set(sibling1 + [.k("id")], .bytes(V.ipad.bytes))])
        let ev = V.P.k("event")
        try b.order(eventOrder, op: "step", slug: "event", comment: "a response_applied event",
                    base: V.stepInput(V.state([V.sib(V.ipad, reconciling: true)]), V.applied(T, V.ipad, 1, V.d2)),
                    faults: [set([ev, .k("applied")], .negative(0)), set([ev, .k("at")], .unsigned(T - 1)), set([ev, .k("from")], .bytes(V.mac.bytes))])
        try b.order(dropOrder, op: "step", slug: "received", comment: "a divergent digest from a sibling",
                    base: V.stepInput(V.state(), V.got(T, V.ipad, V.d2)),
                    faults: [set([ev, .k("digest")], .bytes([7] + Array(V.d2.encoded().dropFirst()))),
                             set([.k("state"), .k("siblings"), .i(0), .k("backoff_until")], .unsigned(T + 30_000))],
                    output: [0: { has($0, "drop_digest") && actions($0).count == 1 }, 1: { actions($0).isEmpty }])
        let events = V.P.k("events")
        try b.order(episodeOrder, op: "episode", slug: "episode", comment: "an episode of two ticks",
                    base: V.Builder.episodeInput(V.state(), [V.tick(T), V.tick(T + 1)]),
                    faults: [set([.k("state"), .k("digest")], .bytes([6])), set([events], .text("none")),
                             set([events, .i(0), .k("at")], .unsigned(T - 1)), set([events, .i(1), .k("kind")], .text("timer"))],
                    skip: [OrderPair(first: 1, second: 2)])
    }
}

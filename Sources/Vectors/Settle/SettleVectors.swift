import Primitives

/// The `settle` golden cases (SPEC.md §12): whole episodes of the settle loop. Every expected
/// output is the reference's answer read through the handler (as a testee reads it), and every
/// episode also states, in the generator, the actions it must produce step by step; generation
/// stops if the reference disagrees with the claim.
enum SettleVectors {
    static let base: UInt64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z, the suite's clock, in ms

    // Siblings (ids in this byte order) and the digests the episodes use.
    static let ipad = SiblingID([UInt8](repeating: 0x1a, count: 32))
    static let mac = SiblingID([UInt8](repeating: 0x2b, count: 32))
    static let tv = SiblingID([UInt8](repeating: 0x3c, count: 32))

    /// A digest whose root for each listed namespace is a labelled hash instead of the empty
    /// store's root: `dg([:])` is the real digest of an empty store.
    static func dg(_ changes: [Namespace: UInt8]) -> StateDigest {
        StateDigest(roots: Namespace.allCases.map { ns in
            guard let v = changes[ns] else { return MerkleTree.emptyRoot(ns) }
            return SHA256.hash(Array("pixie.vectors.settle".utf8) + [0] + Array(ns.rawValue.utf8) + [0, v])
        })
    }

    static let d0 = dg([:])
    static let d1 = dg([.messages: 1])
    static let d2 = dg([.messages: 2])
    static let d3 = dg([.messages: 3])

    static func sib(_ id: SiblingID, reconciling: Bool = false, until: UInt64? = nil, rounds: [UInt64] = []) -> SiblingState {
        SiblingState(id: id, reconciling: reconciling, backoffUntil: until, rounds: rounds)
    }

    static func state(now: UInt64 = base, digest: StateDigest = d1, overlay: Bool = false, debounceAt: UInt64? = nil,
                      last: StateDigest? = nil, _ siblings: [SiblingState] = [sib(ipad)]) -> SettleState {
        SettleState(now: now, digest: digest, overlay: overlay, debounceAt: debounceAt, lastBroadcast: last, siblings: siblings)
    }

    // Event shorthands.
    static func write(_ at: UInt64, _ d: StateDigest) -> SettleEvent { SettleEvent(at: at, .localWrite(digest: d)) }
    static func tick(_ at: UInt64) -> SettleEvent { SettleEvent(at: at, .tick) }
    static func connected(_ at: UInt64) -> SettleEvent { SettleEvent(at: at, .connected) }
    static func got(_ at: UInt64, _ from: SiblingID, _ d: StateDigest) -> SettleEvent { SettleEvent(at: at, .digestReceived(from: from, digest: d.encoded())) }
    static func gotBytes(_ at: UInt64, _ from: SiblingID, _ b: [UInt8]) -> SettleEvent { SettleEvent(at: at, .digestReceived(from: from, digest: b)) }
    static func req(_ at: UInt64, _ from: SiblingID, _ ns: Namespace = .messages, rows: UInt64, tombs: UInt64 = 0) -> SettleEvent {
        SettleEvent(at: at, .requestReceived(from: from, namespace: ns, rows: rows, tombstones: tombs))
    }
    static func applied(_ at: UInt64, _ from: SiblingID, _ n: UInt64, _ d: StateDigest, _ ns: Namespace = .messages) -> SettleEvent {
        SettleEvent(at: at, .responseApplied(from: from, namespace: ns, applied: n, digest: d))
    }

    // Action shorthands.
    static func arm(_ at: UInt64) -> SettleAction { .armTimer(.debounce, at: at) }
    static func armBackoff(_ s: SiblingID, _ at: UInt64) -> SettleAction { .armTimer(.backoff(s), at: at) }
    static func emit(_ to: [SiblingID], _ r: SettleAction.EmitReason) -> SettleAction { .emitDigest(to: to, reason: r) }
    static func pull(_ to: SiblingID, _ ns: Namespace = .messages) -> SettleAction { .sendRequest(to: to, namespace: ns) }
    static func answer(_ to: SiblingID, _ ns: Namespace = .messages) -> SettleAction { .sendResponse(to: to, namespace: ns) }

    struct GeneratorCheckFailed: Error, CustomStringConvertible { var description: String }

    static func check(_ ok: Bool, _ what: @autoclosure () -> String) throws {
        if !ok { throw GeneratorCheckFailed(description: "settle generator check failed: \(what())") }
    }

    struct Builder {
        var cases: [VectorCase] = []
        let handler = SettleHandler()

        static func flags(_ rules: [String], _ extra: [String]) -> [String] { extra + rules.map { "rule:R\($0)" } }

        static func episodeInput(_ s: SettleState, _ events: [SettleEvent]) -> CBOR {
            .object([("state", SettleOutput.state(s)), ("events", .array(events.map(\.tree)))])
        }

        /// An episode whose actions, step by step, must be exactly `expect` (and whose final state
        /// must satisfy `final`).
        mutating func episode(_ name: String, _ comment: String, rules: [String], flags: [String] = [], state: SettleState,
                              _ events: [SettleEvent], expect: [[SettleAction]]? = nil,
                              claim: ([[SettleAction]], SettleState) -> Bool = { _, _ in true }) throws {
            var s = state
            let got = try SettleScheduler.episode(&s, events, rules: .reference)
            if let expect {
                try check(expect.count == events.count, "episode/\(name): \(expect.count) expected steps for \(events.count) events")
                for (i, (e, g)) in zip(expect, got).enumerated() {
                    try check(e == g, "episode/\(name): step \(i) gave \(g.map(\.tree.json.compact)), the claim is \(e.map(\.tree.json.compact))")
                }
            }
            try check(claim(got, s), "episode/\(name): the claim about the episode does not hold")
            try ok("episode", name, comment, rules: rules, flags: flags, input: Builder.episodeInput(state, events))
        }

        /// A positive case from a raw input tree; `claim` checks the output.
        mutating func ok(_ op: String, _ name: String, _ comment: String, rules: [String], flags: [String] = [], input: CBOR,
                         claim: (CBOR) -> Bool = { _ in true }) throws {
            let out: CBOR
            do { out = try handler.tree(op: op, input: input.json) } catch {
                throw GeneratorCheckFailed(description: "settle \(op)/\(name): reference rejected with \(error)")
            }
            try check(claim(out), "\(op)/\(name): the output does not hold the claim")
            cases.append(VectorCase(id: "settle/\(op)/\(name)", op: op, comment: comment, flags: Self.flags(rules, flags),
                                    input: input, expected: .output(out)))
        }

        mutating func reject(_ op: String, _ name: String, _ comment: String, rules: [String], flags: [String] = [], input: CBOR,
                             _ code: ErrorCode) throws {
            do {
                _ = try handler.tree(op: op, input: input.json)
                throw GeneratorCheckFailed(description: "settle \(op)/\(name): expected \(code.rawValue), reference accepted")
            } catch let e as WireError {
                try check(e.code == code, "\(op)/\(name): expected \(code.rawValue), got \(e.code.rawValue)")
            }
            cases.append(VectorCase(id: "settle/\(op)/\(name)", op: op, comment: comment, flags: Self.flags(rules, ["negative"] + flags),
                                    input: input, expected: .error(code)))
        }

        /// A `step` case from typed values.
        mutating func step(_ name: String, _ comment: String, rules: [String], flags: [String] = [], state: SettleState, _ event: SettleEvent,
                           expect: [SettleAction]) throws {
            var s = state
            let got = try SettleScheduler.step(&s, event, rules: .reference)
            try check(got == expect, "step/\(name): gave \(got.map(\.tree.json.compact)), the claim is \(expect.map(\.tree.json.compact))")
            try ok("step", name, comment, rules: rules, flags: flags,
                   input: .object([("state", SettleOutput.state(state)), ("event", event.tree)]))
        }
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        try debounceCases(&b)
        try skipCases(&b)
        try applyCases(&b)
        try matchCases(&b)
        try pullCases(&b)
        try guardCases(&b)
        try respondCases(&b)
        try storyCases(&b)
        try clockCases(&b)
        try inputCases(&b)
        try orderCases(&b)
        try answerCases(&b)
        let cases = b.cases + (try SettleFacets.cases())
        try TwoFaultModels.check(twoFaultModels(), in: cases, handler: SettleHandler())
        return VectorFile(format: "settle",
                          description: "The settle loop of seed 002 §8–§9 as a pure transition function: debounce, re-advertisement after every round, identical-emit skip, return-once, silent responder, storm guard and overlay (SPEC.md §12)",
                          cases: cases)
    }
}

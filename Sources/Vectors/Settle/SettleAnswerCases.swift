import Primitives

/// The `settle` cases that pin what outside implementers had to guess (issue 23 item 5): the
/// type of a request's `to`, a `kind` that is not a string, zero siblings, the case of a received
/// digest's hex, a held digest of the wrong length, and the clock a late deadline fires at.
extension SettleVectors {
    static func answerCases(_ b: inout Builder) throws {
        // R12.4-2: send_request and send_response name one sibling (a hex string, not an array).
        try b.episode("actions/request-and-response-name-one-sibling",
                      "send_request and send_response carry to as one sibling id (a hex string); only emit_digest's to is an array",
                      rules: ["12.4-2", "12.6-15", "12.6-19"], state: state(digest: d1, [sib(ipad), sib(mac)]),
                      [got(T, ipad, d2), req(T + 1, mac, rows: 1)],
                      expect: [[pull(ipad)], [answer(mac)]])
        // R12.3-5: a kind that is not a string is input_bad_type, never settle_unknown_event.
        let base = stepInput(state(digest: d1, [sib(ipad)]), got(T, ipad, d1))
        for (name, v, comment) in [("kind-boolean", CBOR.bool(true), "a kind that is the boolean true"),
                                   ("kind-null", CBOR.null, "a kind that is null"),
                                   ("kind-array", CBOR.array([.text("tick")]), "a kind that is an array holding a kind's name")] {
            try b.reject("step", "input/\(name)", "\(comment): not a string, so input_bad_type (settle_unknown_event is for a string that is none of the six)",
                         rules: ["12.3-1", "12.3-5", "2.2-1"], flags: ["input-class"], input: edit(base, [.k("event"), .k("kind")], v), .inputBadType)
        }
        // R12.6-22: with no sibling the debounce sends nothing and the last broadcast stays.
        try b.episode("debounce/no-siblings-keeps-last-broadcast",
                      "no sibling at all: the debounce fires with no recipient, nothing is sent and last_broadcast keeps the older digest (no emit was made)",
                      rules: ["12.6-3", "12.6-6", "12.6-22"], state: state(digest: d0, last: d0, []), [write(T, d1), tick(T + 400)],
                      expect: [[arm(T + 400)], []]) { _, s in s.lastBroadcast == d0 && s.debounceAt == nil }
        // R12.3-6: a received digest's hex is read in either case, and compared as bytes.
        let mixed = String(Hex.encode(d2.encoded()).enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
        try b.ok("step", "input/received-digest-mixed-case-divergent",
                 "a received digest in mixed-case hex is the bytes it spells: it diverges in messages and starts a round",
                 rules: ["12.3-6", "2.2-4", "12.6-15"], flags: ["input-class"], input: edit(base, [.k("event"), .k("digest")], .text(mixed))) {
            $0["actions"] == .array([pull(ipad).tree])
        }
        // R12.2-7: a held digest of the wrong length fails with §4.8's code, not input_bad_length.
        try b.reject("step", "input/last-broadcast-418-bytes",
                     "last_broadcast one byte long is decoded as §4.8: digest_wrong_length, not input_bad_length",
                     rules: ["12.2-1", "12.2-7"], flags: ["input-class"],
                     input: edit(base, [.k("state"), .k("last_broadcast")], .bytes(d1.encoded() + [0])), .digestWrongLength)
        try b.reject("step", "input/digest-empty", "an empty digest is decoded as §4.8: digest_wrong_length (the table's 417 bytes is §4.8's rule, not a §2.2 fixed size)",
                     rules: ["12.2-1", "12.2-7"], flags: ["input-class"],
                     input: edit(base, [.k("state"), .k("digest")], .bytes([])), .digestWrongLength)
        // R12.5-9: late deadlines fire with now already the event's time and rounds pruned to it.
        try b.step("clock/late-debounce-rounds-pruned-at-event-time",
                   "a debounce due at T + 5000 fires at a tick at T + 10000: the round at T is pruned as of T + 10000 (exactly 10 s old), not as of the deadline",
                   rules: ["12.5-4", "12.5-5", "12.5-9"], flags: ["edge"],
                   state: state(now: T, digest: d1, debounceAt: T + 5_000, [sib(ipad, rounds: [T])]), tick(T + 10_000),
                   expect: [emit([ipad], .debounce)])
        var late = state(now: T, digest: d1, debounceAt: T + 5_000, [sib(ipad, rounds: [T])])
        _ = try SettleScheduler.step(&late, tick(T + 10_000), rules: .reference)
        try check(late.now == T + 10_000 && late.siblings[0].rounds.isEmpty, "clock/late-debounce: now is the tick's time and the round is pruned")
        try b.step("clock/late-backoff-end-rounds-pruned-at-event-time",
                   "a back-off ending at T + 2000 fires at a digest at T + 10001: the round at T + 1 is pruned, and the digest starts a round of its own",
                   rules: ["12.5-4", "12.5-5", "12.5-9", "12.6-18"], flags: ["edge"],
                   state: state(now: T + 1, digest: d1, [sib(ipad, until: T + 2_000, rounds: [T + 1])]), got(T + 10_001, ipad, d2),
                   expect: [emit([ipad], .backoffEnd), pull(ipad)])
        var lateB = state(now: T + 1, digest: d1, [sib(ipad, until: T + 2_000, rounds: [T + 1])])
        _ = try SettleScheduler.step(&lateB, got(T + 10_001, ipad, d2), rules: .reference)
        try check(lateB.siblings[0].rounds == [T + 10_001], "clock/late-backoff-end: only the new round remains")
    }
}

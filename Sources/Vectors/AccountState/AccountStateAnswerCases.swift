import Primitives

/// The `account_state` cases that pin what outside implementers had to guess (issue 23 item 5):
/// when an over-declared count fails (R11.2-12), the v0 fallback whose plaintext does not decode
/// (R11.5-12), alternates beyond four and an alternate that wins (R11.7-7), and the shape of the
/// `keys` entries (R11.8-3).
extension AccountStateVectors {
    static func answerCases(_ b: inout Builder) throws {
        func code(_ op: String, _ input: CBOR) -> ErrorCode? {
            do { _ = try b.handler.tree(op: op, input: input.json) } catch let e as WireError { return e.code } catch { return nil }
            return nil
        }
        func plain(_ bytes: [UInt8]) -> CBOR { .object([("plaintext", .bytes(bytes))]) }
        func recordBytes(_ key: [UInt8], presence: UInt8) -> [UInt8] { le32(UInt32(key.count)) + key + le64(1) + phone + [presence] }
        let many = le32(UInt32.max)

        // R11.2-12: a count is not compared with the bytes left; the first element's own fault wins.
        let overUTF8 = many + recordBytes([0x61, 0xff], presence: 0)
        try check(code("decode", plain(le32(1) + recordBytes([0x61, 0xff], presence: 0) + le32(0))) == .accountStateBadUTF8
                  && code("decode", plain(many + recordBytes([0x61], presence: 0))) == .accountStateTruncated,
                  "count/over-declared-after-bad-utf8: each fault alone")
        try b.reject("decode", "count/over-declared-after-bad-utf8",
                     "a record count of 2^32 − 1 over one record whose key 61 ff is not UTF-8: the key's fault, not truncation (a count is never compared with the bytes left)",
                     rules: ["11.2-5", "11.2-6", "11.2-8", "11.2-12"], flags: ["two-faults"], input: plain(overUTF8), .accountStateBadUTF8)
        try b.reject("decode", "count/over-declared-after-bad-presence",
                     "a record count of 2^32 − 1 over one record with presence byte 7: the presence fault comes first in byte order",
                     rules: ["11.2-5", "11.2-6", "11.2-7", "11.2-12"], flags: ["two-faults"], input: plain(many + recordBytes([0x61], presence: 7)), .accountStateBadPresence)
        try b.reject("decode", "count/over-declared-cursors-after-zero-cursor",
                     "a cursor count of 2^32 − 1 over one cursor at 0: the zero cursor, not truncation",
                     rules: ["11.2-5", "11.2-6", "11.2-10", "11.2-12"], flags: ["two-faults"],
                     input: plain(le32(0) + many + le32(1) + Array("c".utf8) + le64(0)), .accountStateZeroCursor)
        try b.reject("decode", "count/over-declared-fails-where-the-next-element-starts",
                     "a record count of 2^32 − 1 over one whole tombstone: truncated at the second record's key length",
                     rules: ["11.2-6", "11.2-12"], input: plain(many + recordBytes([0x61], presence: 0)), .accountStateTruncated)

        // R11.5-12: the fallback's tag verifies, its plaintext does not decode.
        var g = SeededGenerator(seed: 0xACC0_0000_0000_0C23)
        let seedKey = SelfSyncBlob.selfSyncKey(seed: dev(7))
        let collidingSalt = SelfSyncBlob.magic + le64(5) + [0xc0, 0x11, 0x1d, 0xe5]
        let nonce = g.bytes(12)
        let sealed = try AES256GCM.seal(Array(try model(havenRoundTrip).encoded.prefix(10)),
                                        key: SelfSyncBlob.subkey(key: seedKey, salt: collidingSalt), nonce: nonce)
        let blob = collidingSalt + nonce + sealed.ciphertext + sealed.tag
        try check(SelfSyncBlob.peekEpoch(blob) == 5, "the fallback blob peeks as epoch 5")
        // Withdrawn as …-undecodable-stale and …-undecodable-auth-failed (Issue23Withdrawals): the
        // v1 attempt's failure is no fault of its own (with a decodable plaintext the fallback
        // opens the blob), so each holds one fault; each still pins which failure is reported.
        try b.reject("open", "fallback/v0-salt-hss1-undecodable-not-stale",
                     "a v0 blob whose salt begins HSS1 (epoch 5, not accepted) opens under the seed key to a truncated plaintext: account_state_truncated, not the stale epoch",
                     rules: ["11.5-9", "11.5-12", "11.5-5"], input: openInput(blob, seed: seedKey, accepted: [(2, dev(22))]), .accountStateTruncated)
        try b.reject("open", "fallback/v0-salt-hss1-undecodable-not-auth-failed",
                     "the same blob with epoch 5 accepted under another key: the v1 tag fails, the v0 tag verifies, the plaintext's error is reported",
                     rules: ["11.5-9", "11.5-12", "11.5-6"], input: openInput(blob, seed: seedKey, accepted: [(5, dev(22))]), .accountStateTruncated)

        // R11.7-7: more than four alternates held; a commit whose key is already an alternate wins.
        func ring(_ input: CBOR, new: Bool, keys: [CBOR]) -> (CBOR) -> Bool { { $0["new"] == .bool(new) && $0["keys"] == .array(keys) } }
        let s1 = dev(0x31)
        let six = (1...6).map { dev(UInt8($0)) }
        try b.ok("receive_own_commit", "converge/six-alts-held-one-dropped",
                 "six alternates held (more than 4) and a new loser: only the oldest is dropped, so six remain, the loser last",
                 rules: ["11.7-2", "11.7-7", "11.8-3"],
                 input: commitInput([slot(1, dev(0xf0), six)], secret: s1, myEpoch: 1, epoch: 1, key: dev(0x07), commitSecret: s1),
                 expect: ring(.null, new: true, keys: [slot(1, dev(0xf0), Array(six.dropFirst()) + [dev(0x07)])]))
        try b.ok("receive_own_commit", "converge/six-alts-held-kept",
                 "six alternates held and the primary re-offered: nothing learned, all six kept as given",
                 rules: ["11.7-2", "11.7-7"],
                 input: commitInput([slot(1, dev(0xf0), six)], secret: s1, myEpoch: 1, epoch: 1, key: dev(0xf0), commitSecret: s1),
                 expect: ring(.null, new: false, keys: [slot(1, dev(0xf0), six)]))
        try b.ok("receive_own_commit", "converge/alternate-wins",
                 "the commit's key 20…20 is already an alternate and larger than the primary 10…10: it becomes primary, stays an alternate, and 10…10 is appended",
                 rules: ["11.7-1", "11.7-2", "11.7-7"],
                 input: commitInput([slot(1, dev(0x10), [dev(0x20), dev(0x05)])], secret: s1, myEpoch: 1, epoch: 1, key: dev(0x20), commitSecret: s1),
                 expect: ring(.null, new: true, keys: [slot(1, dev(0x20), [dev(0x20), dev(0x05), dev(0x10)])]))
        // The primary changes while the loser is already an alternate: learned through the
        // primary alone (a reader that takes `learned` from the loser's append, or that asks
        // whether the primary went down, says nothing new; a cosmic-ray survivor of pixie, issue 25).
        try b.ok("receive_own_commit", "converge/primary-replaced-loser-already-alternate",
                 "the slot lists its primary 10…10 among its alternates too; the commit's 20…20 wins: the primary changes, 10…10 is not appended again, and the commit is new",
                 rules: ["11.7-2", "11.7-7"],
                 input: commitInput([slot(1, dev(0x10), [dev(0x10), dev(0x05)])], secret: s1, myEpoch: 1, epoch: 1, key: dev(0x20), commitSecret: s1),
                 expect: ring(.null, new: true, keys: [slot(1, dev(0x20), [dev(0x10), dev(0x05)])]))

        // R11.8-3: the entries' shape and order in the output.
        let given: [CBOR] = [slot(4, dev(0x44), [dev(0x04), dev(0x03)]), slot(2, dev(0x42))]
        try b.ok("receive_own_commit", "output/keys-shape",
                 "keys given in descending epoch: the output lists {epoch, primary, alts} in ascending epoch, alts in held order, an empty alts as []",
                 rules: ["11.8-3", "11.7-5"],
                 input: commitInput(given, secret: s1, myEpoch: 4, epoch: 3, key: dev(0x43), commitSecret: s1),
                 expect: ring(.null, new: true, keys: [slot(2, dev(0x42)), slot(3, dev(0x43)), slot(4, dev(0x44), [dev(0x04), dev(0x03)])]))
    }
}

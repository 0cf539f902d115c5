import Primitives

/// The limits and check orders of §11 as facets, and the cases derived from them (issue 23).
enum AccountStateFacets {
    static let format = "account_state"

    static let peekLength = LimitFacet(rule: "R11.5-3", format: format, quantity: "the byte length of a blob that begins `HSS1`",
                                       bound: "at least 28 bytes", side: .min, inclusive: true, effect: .behaviour("`peek_epoch` gives an epoch"))
    static let v1Length = LimitFacet(rule: "R11.5-6", format: format, quantity: "the byte length of a v1 blob under an accepted epoch",
                                     bound: "56 bytes", side: .min, inclusive: true, effect: .refuse(.accountStateBlobTruncated))
    static let v0Length = LimitFacet(rule: "R11.5-8", format: format, quantity: "the byte length of a v0 blob given a seed key",
                                     bound: "44 bytes", side: .min, inclusive: true, effect: .refuse(.accountStateBlobTruncated))

    /// R11.7-2: a slot keeps up to 4 alternates; a new loser first drops the oldest when 4 are
    /// held (a reader whose cap is 3 or 5 passes every case above and below it: a cosmic-ray
    /// survivor of pixie, issue 25).
    static let alternates = LimitFacet(rule: "R11.7-2", format: format, quantity: "the alternates a slot holds when a losing key arrives",
                                       bound: "4 are held", side: .max, inclusive: false,
                                       effect: .behaviour("the oldest alternate is dropped before the loser is appended"))

    static let limits = [peekLength, v1Length, v0Length, alternates]

    /// R11.2-5 within one record: its key's UTF-8, then the key against the previous one, then
    /// the presence byte, then the value's bytes.
    static let decodeOrder = OrderFacet(rule: "R11.2-5", format: format, checks: [
        .init("utf8", .accountStateBadUTF8), .init("key-order", .accountStateUnsortedKeys),
        .init("presence", .accountStateBadPresence), .init("value-length", .accountStateTruncated),
    ])
    /// R11.5-4 on the v0 path (step 2): the seed key, the length, the tag, the plaintext.
    static let openOrder = OrderFacet(rule: "R11.5-4", format: format, checks: [
        .init("v0-retired", .accountStateV0Retired), .init("length", .accountStateBlobTruncated),
        .init("tag", .accountStateAuthFailed), .init("plaintext", .accountStateTrailingBytes),
    ])

    static let orders = [decodeOrder, openOrder]

    /// The three ties of §11: equal times between two devices, an equal stamp on a local write,
    /// and equal stamps on merge.
    static let tieBreaks = [
        TieBreakFacet(rule: "R11.3-1", format: format, tie: "Equal ts are thus broken by device id",
                      decides: "the stamp of the greater device id (bytewise) is after", others: [.accountTieLowerDeviceWins]),
        TieBreakFacet(rule: "R11.3-2", format: format, tie: "An equal stamp is not after",
                      decides: "a local write with the held register's stamp is refused", others: [.accountEqualStampApplies]),
        TieBreakFacet(rule: "R11.4-2", format: format, tie: "When the two stamps are equal",
                      decides: "the greater content wins, whichever replica holds it", others: [.accountMergeTieKeepsLocal]),
    ]

    static let all: [Facet] = limits.map(Facet.limit) + orders.map(Facet.order) + tieBreaks.map(Facet.tieBreak)

    static let boundless: [String: String] = [
        "R11.1-1": "the salt's 17 bytes are its length, not a bound",
        "R11.1-2": "the blob's 16-byte salt is a fixed layout",
        "R11.2-1": "`<id>`, `<hex>` are placeholders in key names, not comparisons",
        "R11.2-3": "a sort order (a tie-break), no bound",
        "R11.2-6": "a length at exactly the bytes left leaves the next field missing, so every length past the true one reports the same code: the truncation cases cut at every field instead",
        "R11.4-4": "`maximum` is the merge's result, not a bound",
        "R11.5-1": "a layout's size (44 bytes plus the plaintext), not a bound; the length check is R11.5-8's facet",
        "R11.5-2": "a layout's size (56 bytes plus the plaintext); the length check is R11.5-6's facet",
        "R11.8-1": "the 32-byte `device` is §2.2's fixed-size member (the input battery's)",
        "R11.7-7": "\"larger than the primary\" is R11.7-2's key comparison (a tie-break), and the list's size is R11.7-2's",
        "R11.8-3": "the 32-byte keys are §2.2 fixed-size members; the rule fixes the entries' shape and order",
    ]

    static let declared = FormatFacets(format: format, section: "11", facets: all, boundless: boundless)
}

// MARK: - derived cases

extension AccountStateFacets {
    typealias V = AccountStateVectors

    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(AccountStateHandler()) }

    /// The second record of a two-record plaintext, as the faults of R11.2-5 see it.
    struct Record {
        var badUTF8 = false
        var belowPrevious = false
        var badPresence = false
        var valueTooLong = false

        /// The previous key is `é` (c3 a9); this key is `ö` (c3 b6) above it, `c3 ff` (not UTF-8)
        /// above it, `a` below it, or `c3 28` (not UTF-8) below it: each fault alone is one fault.
        var key: [UInt8] {
            switch (badUTF8, belowPrevious) {
            case (false, false): return [0xc3, 0xb6]
            case (true, false): return [0xc3, 0xff]
            case (false, true): return [0x61]
            case (true, true): return [0xc3, 0x28]
            }
        }

        var plaintext: [UInt8] {
            let first = V.le32(2) + [0xc3, 0xa9] + V.le64(1) + V.phone + [1] + V.le32(1) + [0x41]
            var second = V.le32(UInt32(key.count)) + key + V.le64(1) + V.phone + [badPresence ? 2 : 1]
            // A value length one past the value and the cursor count after it: truncated.
            second += V.le32(valueTooLong ? 1 + 4 + 1 : 1) + [0x42]
            return V.le32(2) + first + second + V.le32(0)
        }
    }

    /// A v0 blob as the faults of R11.5-4 see it.
    struct Blob {
        var retired = false
        var cut = false
        var tampered = false
        var trailingPlaintext = false
    }

    static let seedKey = SelfSyncBlob.selfSyncKey(seed: V.dev(0x5f))
    static let salt = [UInt8](repeating: 0x5a, count: 16)
    static let nonce = [UInt8](repeating: 0x4e, count: 12)

    /// Seals raw plaintext bytes as a v0 blob (the reference's seal takes a state; a plaintext
    /// that does not decode needs this).
    static func v0(_ plaintext: [UInt8]) throws -> [UInt8] {
        let sealed = try AES256GCM.seal(plaintext, key: SelfSyncBlob.subkey(key: seedKey, salt: salt), nonce: nonce, authenticating: [])
        return salt + nonce + sealed.ciphertext + sealed.tag
    }

    static func cases() throws -> [VectorCase] {
        var b = builder()
        let epoch: UInt64 = 3
        func hss1(_ n: Int) -> [UInt8] { Array((SelfSyncBlob.magic + V.le64(epoch) + [UInt8](repeating: 0x11, count: max(0, n - 12))).prefix(n)) }
        try b.limit(peekLength, op: "peek_epoch", slug: "blob-length", comment: "a blob `HSS1` ‖ epoch 3 ‖ filler of 27, 28 and 29 bytes",
                    input: { d in .object([("blob", .bytes(hss1(28 + d)))]) },
                    inside: { $0["epoch"] == .unsigned(epoch) })
        // R11.7-2's cap: 3, 4 and 5 alternates held (01…01 the oldest) and a commit whose key
        // 07…07 loses to the primary f0…f0. Inside the limit the oldest stays.
        let held = (1...5).map { V.dev(UInt8($0)) }
        try b.limit(alternates, op: "receive_own_commit", slug: "alternates-held",
                    comment: "3, 4 and 5 alternates held (01…01 the oldest) and a commit whose key 07…07 loses to the primary f0…f0",
                    input: { d in V.commitInput([V.slot(1, V.dev(0xf0), Array(held.prefix(4 + d)))], secret: V.dev(0x31), myEpoch: 1, epoch: 1,
                                                 key: V.dev(0x07), commitSecret: V.dev(0x31)) },
                    inside: { out in
                        guard case .array(let slots)? = out["keys"], case .array(let alts)? = slots.first?["alts"] else { return false }
                        return alts.contains(.bytes(V.dev(1)))
                    })
        let k = V.dev(0x33)
        try b.limit(v1Length, op: "open", slug: "v1-length", comment: "a v1 blob under accepted epoch 3, 55, 56 and 57 bytes, no seed key (its tag cannot verify)") { d in
            V.openInput(hss1(56 + d), seed: nil, accepted: [(epoch, k)])
        }
        try b.limit(v0Length, op: "open", slug: "v0-length", comment: "a v0 blob of 43, 44 and 45 bytes given a seed key (its tag cannot verify)") { d in
            V.openInput([UInt8](repeating: 0x22, count: 44 + d), seed: seedKey, accepted: [])
        }

        try b.order(decodeOrder, op: "decode", slug: "record", comment: "the second of two records (keys é then ö)",
                    base: Record(), faults: [
                        { var r = $0; r.badUTF8 = true; return r }, { var r = $0; r.belowPrevious = true; return r },
                        { var r = $0; r.badPresence = true; return r }, { var r = $0; r.valueTooLong = true; return r },
                    ], input: { .object([("plaintext", .bytes($0.plaintext))]) })

        let good = V.le32(0) + V.le32(0)  // the empty state (R11.2-2)
        try b.order(openOrder, op: "open", slug: "v0", comment: "a v0 blob of the empty state",
                    base: Blob(), faults: [
                        { var m = $0; m.retired = true; return m }, { var m = $0; m.cut = true; return m },
                        { var m = $0; m.tampered = true; return m }, { var m = $0; m.trailingPlaintext = true; return m },
                    ], input: { m in
                        var blob = try v0(m.trailingPlaintext ? good + [0] : good)
                        // The salt's first byte: another subkey, so the tag fails, and the byte
                        // survives the cut.
                        if m.tampered { blob = V.flip(blob, at: 0) }
                        if m.cut { blob = Array(blob.prefix(SelfSyncBlob.v0Overhead - 1)) }
                        return V.openInput(blob, seed: m.retired ? nil : seedKey, accepted: [])
                    })
        return b.cases
    }
}

import Primitives

/// The limits and check orders of §10 as facets, and the cases derived from them (issue 23).
///
/// Signatures are the slow part: the verify cases reuse the signed list `with-revoked` and one
/// credential issued as the hand-written `iphone` one (deterministic, so the same bytes); the
/// decode cases build their wires by hand around a filler signature, since decoding never checks
/// it. The only new signing is in the cases at a change (version exhaustion's inside edge, the
/// base of the merge and self-add orders).
enum DeviceListFacets {
    static let format = "device_list"

    static let pinnedLength = LimitFacet(rule: "R10.1-3", format: format, quantity: "the byte length of the `pinned` bundle given to `list_verify`",
                                         bound: "exactly 3,200 bytes", side: .exact, inclusive: true, effect: .refuse(.deviceListBadBundle))
    /// A coefficient below q is kept; from q on it is replaced by itself mod q (never refused).
    static let kemCoefficient = LimitFacet(rule: "R10.1-7", format: format,
                                           quantity: "the first 12-bit coefficient of t̂ in a credential's device bundle (`credential_decode`)",
                                           bound: "below q", side: .max, inclusive: false,
                                           effect: .behaviour("the decoded `device_bundle` carries the coefficient mod q, not the wire's bytes"))
    static let signatureLength = LimitFacet(rule: "R10.1-5", format: format, quantity: "the signature's byte length in a list's wire (`list_verify`)",
                                            bound: "3,373 bytes", side: .exact, inclusive: true, effect: .refuse(.deviceListSigWrongLength))
    static let nameLength = LimitFacet(rule: "R10.2-7", format: format, quantity: "a credential's name_len against the bytes left after it (`credential_decode`)",
                                       bound: "greater than the bytes left", side: .max, inclusive: true, effect: .refuse(.deviceListTruncated))
    static let deviceCount = LimitFacet(rule: "R10.3-7", name: "devices", format: format, quantity: "a list's device count n against the bytes left after it (`list_decode`)",
                                        bound: "⌊(bytes left after the count) / 32⌋", side: .max, inclusive: true, effect: .refuse(.deviceListTruncated))
    static let revokedCount = LimitFacet(rule: "R10.3-7", name: "revoked", format: format, quantity: "a list's revoked count m against the bytes left after it (`list_decode`)",
                                         bound: "⌊(bytes left after the count) / 32⌋", side: .max, inclusive: true, effect: .refuse(.deviceListTruncated))
    static let adoptVersion = LimitFacet(rule: "R10.3-17", format: format, quantity: "other.version against local.version 2^53 (`adopt_if_newer`)",
                                         bound: "other.version > local.version", side: .min, inclusive: false, effect: .behaviour("`adopted` is true"))
    /// The version a change starts from: below 2^64 − 1 the op signs version + 1; at it there is
    /// no next version. Beyond (2^64) is no uint64 (limits-exempt.tsv).
    static let exhaustion = LimitFacet(rule: "R10.4-12", format: format, quantity: "the list's version when `with_account_leaf_retired` makes a change",
                                       bound: "2^64 − 1", side: .max, inclusive: false, effect: .refuse(.deviceListVersionExhausted))
    static let seedLength = LimitFacet(rule: "R10.6-6", format: format, quantity: "the byte length of `derive_identity`'s `seed`",
                                       bound: "32 bytes", side: .exact, inclusive: true, effect: .refuse(.inputBadLength))

    static let limits = [pinnedLength, kemCoefficient, signatureLength, nameLength, deviceCount, revokedCount, adoptVersion, exhaustion, seedLength]

    /// R10.1-6, Haven's `HavenId::verify`: length, Ed25519 half, the rest's length, ML-DSA half.
    static let signatureOrder = OrderFacet(rule: "R10.1-6", format: format, checks: [
        .init("short", .deviceListSigWrongLength), .init("ed25519", .deviceListSigEd25519Invalid),
        .init("rest-length", .deviceListSigWrongLength), .init("mldsa", .deviceListSigMLDSAInvalid),
    ])
    /// R10.2-5 steps 2–4. Step 1 (a fixed field cut short) leaves no byte after it, so no later
    /// fault can sit beside it; the truncation cases cut inside every field.
    static let credentialDecodeOrder = OrderFacet(rule: "R10.2-5", format: format, checks: [
        .init("name", .deviceListBadName), .init("bundle", .deviceListBadBundle), .init("signature", .deviceListMissingSignature),
    ])
    static func verifyOrder(_ rule: String) -> OrderFacet {
        OrderFacet(rule: rule, format: format, checks: [
            .init("pinned", .deviceListBadBundle), .init("decode", .deviceListTruncated),
            .init("account", .deviceListAccountMismatch), .init("signature", .deviceListSigEd25519Invalid),
        ])
    }
    /// R10.2-11 and R10.3-12: the pinned bundle before the wire (Haven's FFI).
    static let credentialPinnedFirst = OrderFacet(rule: "R10.2-11", format: format, checks: [
        .init("pinned", .deviceListBadBundle), .init("decode", .deviceListBadName),
    ])
    static let listPinnedFirst = OrderFacet(rule: "R10.3-12", format: format, checks: [
        .init("pinned", .deviceListBadBundle), .init("decode", .deviceListMissingSignature),
    ])
    /// R10.2-12 and R10.3-13: then the account id, before any signature check.
    static let credentialVerifyOrder = verifyOrder("R10.2-12")
    static let listVerifyOrder = verifyOrder("R10.3-13")
    /// R10.3-4: a count too large (step 3) before an empty signature (step 4). Steps 1 and 2 give
    /// no pair: the suffix is stripped, never refused, and a header cut short leaves no count or
    /// signature to break.
    static let listDecodeOrder = OrderFacet(rule: "R10.3-4", format: format, checks: [
        .init("count", .deviceListTruncated), .init("signature", .deviceListMissingSignature),
    ])
    /// R10.4-2 on merge: the signer before anything is computed, exhaustion included.
    static let signerFirst = OrderFacet(rule: "R10.4-2", format: format, checks: [
        .init("signer", .deviceListSignerMismatch), .init("exhausted", .deviceListVersionExhausted),
    ])
    /// R10.4-13 on with_self_added: the signer, then whether there is a change, then exhaustion.
    static let exhaustionLast = OrderFacet(rule: "R10.4-13", format: format, checks: [
        .init("signer", .deviceListSignerMismatch), .init("no-change", output: "`changed` is false"),
        .init("exhausted", .deviceListVersionExhausted),
    ])
    static let applyOrder = OrderFacet(rule: "R10.5-8", format: format, checks: [
        .init("duplicate", .duplicateKey), .init("empty", .deviceListEmptyAdvertisement),
    ])
    /// R10.6-2: both members are read as hex before the wire is decoded.
    static let readBeforeDecode = OrderFacet(rule: "R10.6-2", format: format, checks: [
        .init("read", .inputBadType), .init("decode", .deviceListTruncated),
    ])

    static let orders = [signatureOrder, credentialDecodeOrder, credentialPinnedFirst, credentialVerifyOrder, listDecodeOrder, listPinnedFirst,
                         listVerifyOrder, signerFirst, exhaustionLast, applyOrder, readBeforeDecode]

    /// R10.4-4 on a version tie: no id is re-authorized, so a revocation stays (the safe default).
    static let tieBreaks = [
        TieBreakFacet(rule: "R10.4-4", format: format, tie: "newer.version > older.version",
                      decides: "on equal versions no revoked id is re-authorized: the revocation stays", others: [.listTieReauthorizes]),
    ]

    static let all: [Facet] = limits.map(Facet.limit) + orders.map(Facet.order) + tieBreaks.map(Facet.tieBreak)

    static let boundless: [String: String] = [
        "R10-1": "the integers' widths (u32 = 4 bytes, u64 = 8 bytes) are the layouts', no bound; the truncation cases cut inside every field",
        "R10.1-2": "the bundle's layout (3,200 bytes); the length check is R10.1-3's facet",
        "R10.1-4": "the pinned key's size is the bundle's; the length check is R10.1-3's facet",
        "R10.2-3": "\"UTF-8 bytes\" names the name's encoding (signed as given), not a count of bytes; the rule fixes what `issue` signs and writes",
        "R10.3-5": "the 8 bytes are the suffix's own length: an input shorter than 8 cannot end in HVNLEAF1, and any input under 52 bytes is truncated either way (truncated/only-suffix pins the 8-byte input)",
        "R10.3-11": "the ambiguity of a signature ending in HVNLEAF1 (8 bytes read off as the flag), no bound; the hvnleaf1 cases pin it",
        "R10.6-3": "`at every depth` says where unknown members are ignored, not a depth limit (the input battery's extra-member cases)",
        "R10.6-5": "the uint64 range is §2.2's (the input battery's, another part of issue 23)",
        "R10.6-7": "`beyond U+FFFF` names the characters a surrogate pair escapes (§2.2 rule 5), no bound",
    ]

    static let declared = FormatFacets(format: format, section: "10", facets: all, boundless: boundless, singleFaultOrders: [
        "R10.5-4": "no input holds two faults with different outcomes: step 1's fault is the empty string, which has no entry for step 2 to refuse, and every bad entry of step 2 reports device_list_bad_advertisement (which one is first is not in the code); step 3 refuses nothing; read/empty and read/only-comma-not-empty pin which step applies",
    ], measuredElsewhere: ["R10.6-1": .inputOrder])
}

// MARK: - derived cases

extension DeviceListFacets {
    typealias V = DeviceListVectors

    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(DeviceListHandler()) }

    static func le64(_ v: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
    static func resize(_ b: [UInt8], _ n: Int, fill: UInt8) -> [UInt8] { n <= b.count ? Array(b.prefix(n)) : b + [UInt8](repeating: fill, count: n - b.count) }

    /// A credential wire written field by field, so decoding faults can be placed anywhere; the
    /// signature is 100 filler bytes (decoding takes any non-empty length, R10.2-10, and a filler
    /// of 3,373 bytes would pass for a hybrid signature, which DeviceListTests checks the tail of).
    struct CredentialWire {
        var accountID: [UInt8]
        var name: [UInt8] = Array("Pixel".utf8)
        var bundle: [UInt8]
        var signature = [UInt8](repeating: 0x5a, count: 100)
        var bytes: [UInt8] {
            accountID + DeviceListFacets.le64(DeviceListVectors.base) + V.le32(UInt32(name.count)) + name + V.le32(UInt32(bundle.count)) + bundle + signature
        }
    }

    static func cases(_ ids: V.Identities, _ s: V.SignedLists) throws -> [VectorCase] {
        var b = builder()
        try limitCases(&b, ids, s)
        try orderCases(&b, ids, s)
        // The cases whose input bundle holds a coefficient ≥ q say so (§10.1; the canonical-bundle
        // test checks every other bundle of the file).
        return b.cases.map { c in
            var c = c
            if c.flags.contains(kemCoefficient.flag(.at)) || c.flags.contains(kemCoefficient.flag(.above)) { c.flags.append("mlkem-non-canonical") }
            return c
        }
    }

    static func limitCases(_ b: inout FacetCaseBuilder, _ ids: V.Identities, _ s: V.SignedLists) throws {
        let pa = ids.a.bundle.bytes
        let two = s.twoDevices.wire
        func verify(_ wire: [UInt8], _ pinned: [UInt8]) -> CBOR { .object([("wire", .bytes(wire)), ("pinned", .bytes(pinned))]) }
        try b.limit(pinnedLength, op: "list_verify", slug: "pinned-length",
                    comment: "the signed list two-devices against account A's bundle cut by one byte, whole, and with one 00 byte appended") { d in
            verify(two, resize(pa, 3_200 + d, fill: 0x00))
        }
        try b.limitExtra(pinnedLength, op: "list_verify", slug: "pinned-length", label: "zero",
                         comment: "the signed list two-devices against an empty pinned bundle (0 bytes is a wrong size like any other)",
                         wantInside: false, input: verify(two, []))
        // The retired list: its signature sits before HVNLEAF1, so the edit is inside the wire.
        let retired = s.retired.wire
        let sigEnd = retired.count - 8
        try b.limit(signatureLength, op: "list_verify", slug: "signature-length",
                    comment: "the signed list retired with its signature's last byte removed, whole, and with one 00 byte added before HVNLEAF1 (the Ed25519 half intact)") { d in
            let body = Array(retired[..<sigEnd])
            return verify((d < 0 ? Array(body.dropLast()) : body + [UInt8](repeating: 0, count: d)) + DeviceList.retiredWireSuffix, pa)
        }

        // name_len 2, 3 and 4 with three bytes left, none of them UTF-8: inside the bound the
        // name is read and refused (bad_name), beyond it the length is.
        let header = ids.a.nodeID.bytes + le64(V.base)
        let tail: [UInt8] = [0xff, 0xfe, 0xfd]
        try b.limit(nameLength, op: "credential_decode", slug: "name-len",
                    comment: "a wire of account_id, created_at, name_len and three bytes ff fe fd: name_len 2, 3 and 4") { d in
            .object([("wire", .bytes(header + V.le32(UInt32(3 + d)) + tail))])
        }
        try b.limitExtra(nameLength, op: "credential_decode", slug: "name-len", label: "type-max",
                         comment: "name_len 2^32 − 1 before the same three bytes: truncated before anything is allocated",
                         wantInside: false, input: .object([("wire", .bytes(header + V.le32(.max) + tail))]))

        // Device 1's bundle in a hand-built credential wire, its first coefficient q − 1, q and
        // q + 1 (c0 = b64 | (b65 & 0x0f) << 8). `sent` is the bundle the edge's wire carries.
        var sent: [UInt8] = []
        try b.limit(kemCoefficient, op: "credential_decode", slug: "mlkem-coefficient",
                    comment: "a credential wire (account A, device 1, name Pixel, a 100-byte filler signature) whose device bundle's first coefficient is 3328, 3329 and 3330",
                    input: { d in
                        var m = CredentialWire(accountID: ids.a.nodeID.bytes, bundle: ids.d1.bundle.bytes)
                        let c = 3_329 + d
                        m.bundle[64] = UInt8(c & 0xff)
                        m.bundle[65] = (m.bundle[65] & 0xf0) | UInt8(c >> 8)
                        sent = m.bundle
                        return .object([("wire", .bytes(m.bytes))])
                    }, inside: { $0["device_bundle"] == .bytes(sent) })

        // Two 32-byte chunks whose first 4 bytes are zero, then 9 bytes: a count of 1 reads the
        // second chunk's zeros as the next count, a count of 2 reads the 9 bytes' zeros; 3 does
        // not fit. Ids need not be devices' keys.
        let chunk = [UInt8](repeating: 0, count: 4) + [UInt8](repeating: 0x11, count: 28)
        let listHeader = ids.a.nodeID.bytes + le64(1) + le64(V.base)
        let nine = [UInt8](repeating: 0, count: 4) + [UInt8](repeating: 0x5a, count: 5)
        try b.limit(deviceCount, op: "list_decode", slug: "device-count",
                    comment: "73 bytes after the device count (two 32-byte chunks beginning 00000000, then 00000000 and 5 signature bytes): n = 1, 2 and 3") { d in
            .object([("wire", .bytes(listHeader + V.le32(UInt32(2 + d)) + chunk + chunk + nine))])
        }
        try b.limit(revokedCount, op: "list_decode", slug: "revoked-count",
                    comment: "no devices, then 69 bytes after the revoked count (two 32-byte chunks and 5 signature bytes): m = 1, 2 and 3") { d in
            .object([("wire", .bytes(listHeader + V.le32(0) + V.le32(UInt32(2 + d)) + chunk + chunk + Array(nine.suffix(5))))])
        }

        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID
        let two53: UInt64 = 1 << 53
        try b.limit(adoptVersion, op: "adopt_if_newer", slug: "version",
                    comment: "local at version 2^53, other (one more device) at 2^53 − 1, 2^53 and 2^53 + 1: compared exactly, strictly higher adopts",
                    input: { d in
                        .object([("local", DeviceListOutput.list(V.plain(ids, two53, [a, d1]))),
                                 ("other", DeviceListOutput.list(V.plain(ids, UInt64(Int64(two53) + Int64(d)), [a, d1, d2])))])
                    }, inside: { $0["adopted"] == .bool(true) })

        let at = V.base + 400_000
        try b.limit(exhaustion, op: "with_account_leaf_retired", slug: "version-exhausted",
                    comment: "retiring the account leaf of a list at version 2^64 − 2 (signs 2^64 − 1) and 2^64 − 1 (no next version)", edges: [.below, .at]) { d in
            .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(V.plain(ids, UInt64.max - UInt64(-d), [a, d1]))), ("updated_at", .unsigned(at))])
        }

        // Device 2's seed: the hand-written derive_identity cases derive zero, ff, A, B and device 1.
        try b.limit(seedLength, op: "derive_identity", slug: "seed-length",
                    comment: "device 2's master seed cut by one byte, whole, and with one 00 byte appended") { d in
            .object([("seed", .bytes(resize(ids.d2.seed, 32 + d, fill: 0x00)))])
        }
    }

    /// One verify input as the faults of §10.1–§10.3 see it.
    struct Verify {
        var pinnedBad = false, wireBad = false, otherAccount = false, signatureBad = false
    }

    /// A signature as the faults of R10.1-6 see it.
    struct Signature {
        var short = false, ed25519 = false, restLength = false, mldsa = false
    }

    /// A merge or self-add input as the faults of §10.4 see it.
    struct Change {
        var wrongSigner = false, noChange = false, atTop = false
    }

    /// A `contact_apply` input as the faults of R10.5-8 see it.
    struct Apply {
        var duplicate = false, empty = false
    }

    /// A crafted list body as the faults of R10.3-4 see it.
    struct ListBody {
        var countTooLarge = false, noSignature = false
    }

    static func orderCases(_ b: inout FacetCaseBuilder, _ ids: V.Identities, _ s: V.SignedLists) throws {
        let pa = ids.a.bundle.bytes, pb = ids.b.bundle.bytes
        func verify(_ wire: [UInt8], _ pinned: CBOR) -> CBOR { .object([("wire", .bytes(wire)), ("pinned", pinned)]) }

        // §10.1 on the signed list two-devices: the signature cut to 64 bytes, a bit of the
        // Ed25519 half, one byte more, a bit of the ML-DSA half.
        let two = s.twoDevices.wire
        let sigAt = two.count - 3_373
        try b.order(signatureOrder, op: "list_verify", slug: "signature", comment: "the signed list two-devices under account A",
                    base: Signature(), faults: [
                        { var m = $0; m.short = true; return m }, { var m = $0; m.ed25519 = true; return m },
                        { var m = $0; m.restLength = true; return m }, { var m = $0; m.mldsa = true; return m },
                    ], input: { m in
                        var w = two
                        if m.ed25519 { w = V.flip(w, at: sigAt + 10) }
                        if m.mldsa { w = V.flip(w, at: sigAt + 64 + 500) }
                        if m.restLength { w += [0x00] }
                        if m.short { w = Array(w.prefix(sigAt + 64)) }
                        return verify(w, .bytes(pa))
                    }, skip: [OrderPair(first: 0, second: 3)])

        // §10.2 decoding, a hand-built wire: a name byte ff, the bundle's Ed25519 part not a
        // point, no signature.
        let good = CredentialWire(accountID: ids.a.nodeID.bytes, bundle: ids.d1.bundle.bytes)
        try b.order(credentialDecodeOrder, op: "credential_decode", slug: "credential",
                    comment: "account A's credential wire for device 1, name Pixel, a 100-byte filler signature",
                    base: good, faults: [
                        { var m = $0; m.name[1] = 0xff; return m },
                        { var m = $0; m.bundle.replaceSubrange(0..<32, with: Ed25519EdgeGenerator.notAPoint); return m },
                        { var m = $0; m.signature = []; return m },
                    ], input: { .object([("wire", .bytes($0.bytes))]) })

        // §10.2 verify: the credential issued as credential_verify/valid/iphone (deterministic).
        let iphone = try DeviceCredential.issue(account: ids.a, device: ids.d1.bundle, name: "Blaine's iPhone", createdAt: V.base)
        let cw = iphone.wire
        let credSigAt = cw.count - 3_373
        func credentialVerify(_ m: Verify, pinnedBad: [UInt8] = [], cut: Int) -> CBOR {
            var w = cw
            if m.signatureBad { w = V.flip(w, at: credSigAt + 10) }
            if m.wireBad { w = Array(w.prefix(cut)) }
            let pinned = m.otherAccount ? pb : pa
            return verify(w, .bytes(m.pinnedBad ? Array(pinned.prefix(3_199)) : pinned))
        }
        // R10.2-11 with a name byte made ff (so decoding fails with bad_name) beside a pinned
        // bundle one byte short.
        try b.order(credentialPinnedFirst, op: "credential_verify", slug: "credential-pinned",
                    comment: "the credential iphone under account A",
                    base: Verify(), faults: [{ var m = $0; m.pinnedBad = true; return m }, { var m = $0; m.wireBad = true; return m }],
                    input: { m in
                        let w = m.wireBad ? V.flip(cw, at: 44, 0xff ^ cw[44]) : cw
                        return verify(w, .bytes(m.pinnedBad ? Array(pa.prefix(3_199)) : pa))
                    })
        try b.order(credentialVerifyOrder, op: "credential_verify", slug: "credential-verify",
                    comment: "the credential iphone under account A: a pinned bundle one byte short, the wire cut inside the bundle, account B's bundle pinned, a bit of the Ed25519 half",
                    base: Verify(), faults: [
                        { var m = $0; m.pinnedBad = true; return m }, { var m = $0; m.wireBad = true; return m },
                        { var m = $0; m.otherAccount = true; return m }, { var m = $0; m.signatureBad = true; return m },
                    ], input: { credentialVerify($0, cut: 44 + iphone.name.utf8.count + 4 + 100) })

        // §10.3 decoding: a crafted body with no devices and no revoked ids, the revoked count 1
        // where no id follows, and no signature.
        let listHeader = ids.a.nodeID.bytes + le64(1) + le64(V.base)
        try b.order(listDecodeOrder, op: "list_decode", slug: "list",
                    comment: "account A's list at version 1 with no ids and a 40-byte filler signature",
                    base: ListBody(), faults: [{ var m = $0; m.countTooLarge = true; return m }, { var m = $0; m.noSignature = true; return m }],
                    input: { m in
                        let signature = m.noSignature ? [] : [UInt8](repeating: 0x5a, count: 40)
                        // A revoked count of 2 with 40 bytes left claims 64 (with none left, also too many).
                        return .object([("wire", .bytes(listHeader + V.le32(0) + V.le32(m.countTooLarge ? 2 : 0) + signature))])
                    })

        // §10.3 verify: the signed list with-revoked.
        let w = s.withRevoked.wire
        let listSigAt = w.count - 3_373
        try b.order(listPinnedFirst, op: "list_verify", slug: "list-pinned",
                    comment: "the signed list with-revoked under account A: a pinned bundle one byte short, the wire ending after the revoked ids",
                    base: Verify(), faults: [{ var m = $0; m.pinnedBad = true; return m }, { var m = $0; m.wireBad = true; return m }],
                    input: { m in verify(m.wireBad ? Array(w.prefix(listSigAt)) : w, .bytes(m.pinnedBad ? Array(pa.prefix(3_199)) : pa)) })
        try b.order(listVerifyOrder, op: "list_verify", slug: "list-verify",
                    comment: "the signed list with-revoked under account A: a pinned bundle one byte short, the wire cut in the device ids, account B's bundle pinned, a bit of the Ed25519 half",
                    base: Verify(), faults: [
                        { var m = $0; m.pinnedBad = true; return m }, { var m = $0; m.wireBad = true; return m },
                        { var m = $0; m.otherAccount = true; return m }, { var m = $0; m.signatureBad = true; return m },
                    ], input: { m in
                        var x = w
                        if m.signatureBad { x = V.flip(x, at: listSigAt + 10) }
                        if m.wireBad { x = Array(x.prefix(100)) }  // inside the device ids (60 is the hand-written order case's cut)
                        let pinned = m.otherAccount ? pb : pa
                        return verify(x, .bytes(m.pinnedBad ? Array(pinned.prefix(3_199)) : pinned))
                    })

        // R10.6-2: pinned as a JSON number (read as hex, input_bad_type) beside a cut wire.
        try b.order(readBeforeDecode, op: "credential_verify", slug: "read",
                    comment: "the credential iphone under account A: pinned given as a number, the wire cut inside the bundle",
                    base: Verify(), faults: [{ var m = $0; m.pinnedBad = true; return m }, { var m = $0; m.wireBad = true; return m }],
                    input: { m in
                        verify(m.wireBad ? Array(cw.prefix(44 + iphone.name.utf8.count + 4 + 100)) : cw, m.pinnedBad ? .unsigned(1) : .bytes(pa))
                    })

        // §10.4: account B's seed, a remote that brings nothing new, versions at 2^64 − 1.
        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID, d3 = ids.d3.nodeID
        let at = V.base + 500_000
        try b.order(signerFirst, op: "merge", slug: "merge",
                    comment: "account A's lists {A, d1} at version 7 and {A, d3} at 4",
                    base: Change(), faults: [{ var m = $0; m.wrongSigner = true; return m }, { var m = $0; m.atTop = true; return m }],
                    input: { m in
                        V.mergeInput(m.wrongSigner ? ids.b.seed : ids.a.seed, V.plain(ids, m.atTop ? .max : 7, [a, d1]), V.plain(ids, 4, [a, d3]), at)
                    })
        try b.order(exhaustionLast, op: "with_self_added", slug: "self-added",
                    comment: "adding device 2 to account A's list {A, d1} at version 8",
                    base: Change(), faults: [
                        { var m = $0; m.wrongSigner = true; return m }, { var m = $0; m.noChange = true; return m },
                        { var m = $0; m.atTop = true; return m },
                    ], input: { m in
                        .object([("account_seed", .bytes(m.wrongSigner ? ids.b.seed : ids.a.seed)),
                                 ("list", DeviceListOutput.list(V.plain(ids, m.atTop ? .max : 8, [a, d1, d2].filter { m.noChange || $0 != d2 }))),
                                 ("device_id", .bytes(d2.bytes)), ("updated_at", .unsigned(at))])
                    }, output: [1: { $0 == DeviceListOutput.change(nil) }])

        // §10.5: two records for device 3, an empty advertisement.
        typealias R = ContactDeviceSet.Record
        try b.order(applyOrder, op: "contact_apply", slug: "apply",
                    comment: "primary device 1, known device 3 (live), advertised devices 1 and 2",
                    base: Apply(), faults: [{ var m = $0; m.duplicate = true; return m }, { var m = $0; m.empty = true; return m }],
                    input: { m in
                        V.contactInput(d1, [R(device: d3, revoked: false)] + (m.duplicate ? [R(device: d3, revoked: true)] : []), m.empty ? [] : [d1, d2])
                    })
    }
}

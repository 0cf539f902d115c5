import Primitives

/// The limits and check orders of §8 as facets, and the cases derived from them (issue 23).
///
/// The certificates are `SignInFixtures`' (minted once, fixed seeds); the cases that verify a
/// signature reuse them, so the only new signatures are the two `cert_issue` cases at R8.9-7's
/// bound. Where a facet edge would repeat a hand-written case's input byte for byte, the facet
/// takes another fixture (the "other" key, the never-expiring certificate) so every case is new.
enum SignInFacets {
    static let format = "signin"

    static let digitsMax = LimitFacet(rule: "R8.1-2", name: "digits-max", format: format,
                                      quantity: "the number of ASCII digits after `+` in `phone_id`'s `e164`",
                                      bound: "1 to 15", side: .max, inclusive: true, effect: .refuse(.inputBadValue))
    static let digitsMin = LimitFacet(rule: "R8.1-2", name: "digits-min", format: format,
                                      quantity: "the number of ASCII digits after `+` in `phone_id`'s `e164`",
                                      bound: "1 to 15", side: .min, inclusive: true, effect: .refuse(.inputBadValue))
    static let phoneIDLength = LimitFacet(rule: "R8.1-1", format: format, quantity: "the byte length of the `phone_id` given to `cert_encode`",
                                          bound: "32 bytes", side: .exact, inclusive: true, effect: .refuse(.signinBadLength))
    static let pinnedLength = LimitFacet(rule: "R8.1-3", format: format, quantity: "the byte length of the `pinned_key` given to `cert_verify`",
                                         bound: "1,984 bytes", side: .exact, inclusive: true, effect: .refuse(.inputBadLength))
    /// A CBOR unsigned integer ends at 2^64 − 1; 2^64 is a tag-2 bignum (canonical in §1's
    /// profile, rule 5), which is not major type 0.
    static let unsignedRange = LimitFacet(rule: "R8.2-5", format: format,
                                          quantity: "a signin_request's `timestamp_s` in CBOR (`request_decode`); 2^64 as the bignum 2(h'010000000000000000')",
                                          bound: "2^64 − 1", side: .max, inclusive: true, effect: .refuse(.signinBadType))
    static let modelLength = LimitFacet(rule: "R8.4-3", format: format, quantity: "the UTF-8 byte length of the `device_model` given to `request_encode`",
                                        bound: "64 UTF-8 bytes", side: .max, inclusive: true, effect: .refuse(.signinBadLength))
    static let certExpiry = LimitFacet(rule: "R8.5-4", format: format, quantity: "`now_s` against the certificate's `expires_at_s` (`cert_verify`)",
                                       bound: "now < expires_at_s", side: .max, inclusive: false, effect: .refuse(.signinCertExpired))
    static let tooOld = LimitFacet(rule: "R8.6-6", name: "old", format: format, quantity: "now_s − timestamp_s, a request from the past (`ladder`)",
                                   bound: "more than 120 s", side: .max, inclusive: true,
                                   effect: .behaviour("dropped at rung 5, `signin_timestamp_too_old`"))
    static let tooNew = LimitFacet(rule: "R8.6-6", name: "new", format: format, quantity: "timestamp_s − now_s, a request from the future (`ladder`)",
                                   bound: "more than 120 s", side: .max, inclusive: true,
                                   effect: .behaviour("dropped at rung 5, `signin_timestamp_too_new`"))
    /// R8.6-7's overflow clause at the bottom of the clock: with timestamp_s 0 and now_s just
    /// below 120, a ladder that computes `now − 120` wraps and drops a request 119 s old.
    static let oldNearZero = LimitFacet(rule: "R8.6-7", name: "old-near-zero", format: format,
                                        quantity: "now_s − timestamp_s with timestamp_s = 0 (now_s 119, 120, 121)",
                                        bound: "≤ 120", side: .max, inclusive: true,
                                        effect: .behaviour("dropped at rung 5, `signin_timestamp_too_old`"))
    /// And at the top: with timestamp_s 2^64 − 1 and now_s within 120 of it, `now + 120` wraps.
    static let newNearTop = LimitFacet(rule: "R8.6-7", name: "new-near-top", format: format,
                                       quantity: "timestamp_s − now_s with timestamp_s = 2^64 − 1 (now_s 2^64 − 120, − 121, − 122)",
                                       bound: "≤ 120", side: .max, inclusive: true,
                                       effect: .behaviour("dropped at rung 5, `signin_timestamp_too_new`"))
    static let familyLength = LimitFacet(rule: "R8.7-2", format: format, quantity: "the UTF-8 byte length of the `device_family` given to `ack_encode`",
                                         bound: "1–32 bytes", side: .max, inclusive: true, effect: .refuse(.signinBadLength))
    /// The same rule's lower end: an empty family is refused and one byte is the shortest (an
    /// ack reader whose bound was 2 passed every case above it: a cosmic-ray survivor of pixie).
    static let familyLengthMin = LimitFacet(rule: "R8.7-2", name: "min", format: format,
                                            quantity: "the UTF-8 byte length of the `device_family` given to `ack_encode`",
                                            bound: "1–32 bytes", side: .min, inclusive: true, effect: .refuse(.signinBadLength))
    static let grantExpiry = LimitFacet(rule: "R8.8-8", format: format, quantity: "`now_s` against a grant minted at T (`approval_admits`)",
                                        bound: "T + 180", side: .max, inclusive: false,
                                        effect: .behaviour("`admits` is false, reason `signin_grant_expired`"))
    static let ed25519Seed = LimitFacet(rule: "R8.9-7", name: "ed25519-seed", format: format, quantity: "the byte length of `cert_issue`'s `signer.ed25519_seed`",
                                        bound: "32 bytes", side: .exact, inclusive: true, effect: .refuse(.inputBadLength))
    static let mldsaSeed = LimitFacet(rule: "R8.9-7", name: "mldsa-seed", format: format, quantity: "the byte length of `cert_issue`'s `signer.mldsa_seed`",
                                      bound: "32 bytes", side: .exact, inclusive: true, effect: .refuse(.inputBadLength))
    static let ladderPinnedLength = LimitFacet(rule: "R8.9-8", format: format, quantity: "the byte length of the `pinned_key` given to `ladder`",
                                               bound: "1,984 bytes", side: .exact, inclusive: true, effect: .refuse(.inputBadLength))

    static let limits = [digitsMax, digitsMin, phoneIDLength, pinnedLength, unsignedRange, modelLength, certExpiry, tooOld, tooNew, oldNearZero, newNearTop,
                         familyLength, familyLengthMin, grantExpiry, ed25519Seed, mldsaSeed, ladderPinnedLength]

    /// R8.2-6 for a signin_request, one fault per step, each with a code no other step gives.
    static let decodeOrder = OrderFacet(rule: "R8.2-6", format: format, checks: [
        .init("cbor", .cborTrailingBytes), .init("map", .signinBadType), .init("tag", .signinWrongPayloadType),
        .init("unknown", .signinUnknownField), .init("member", .signinBadLength),
    ])
    /// R8.5-5: no key, decoding, the signature halves, expiry.
    static let verifyOrder = OrderFacet(rule: "R8.5-5", format: format, checks: [
        .init("no-key", .signinNoPinnedKey), .init("malformed", .signinCertMalformed),
        .init("signature", .signinCertEd25519Invalid), .init("expiry", .signinCertExpired),
    ])
    /// R8.6-1: the five rungs; a drop is an output (R8.9-8), recognised by rung and reason.
    static let rungs: [(name: String, rung: Int, reason: ErrorCode)] = [
        ("rung1", 1, .signinUnknownField), ("rung2", 2, .signinNoPinnedKey), ("rung3", 3, .signinOwnCertMalformed),
        ("rung4", 4, .signinPhoneIDMismatch), ("rung5", 5, .signinTimestampTooOld),
    ]
    static let ladderOrder = OrderFacet(rule: "R8.6-1", format: format, checks: rungs.map {
        .init($0.name, output: "drop at rung \($0.rung), \($0.reason.rawValue)")
    })
    /// R8.8-2: step 4 (unknown members), then the all-or-none count, then member types.
    static let approvalOrder = OrderFacet(rule: "R8.8-2", format: format, checks: [
        .init("unknown", .signinUnknownField), .init("partial", .signinApprovalPartial), .init("member", .signinBadType),
    ])
    /// R8.8-5: the grant's inner checks belong to member 1, so before account_seed and kt_handle.
    static let grantOrder = OrderFacet(rule: "R8.8-5", format: format, checks: [
        .init("grant", .signinUnknownField), .init("account-seed", .signinBadType), .init("kt-handle", .signinBadLength),
    ])
    /// R8.9-4: `approval_admits` decodes `approval` before it reads `now_s`.
    static let admitsOrder = OrderFacet(rule: "R8.9-4", format: format, checks: [
        .init("decode", .cborTrailingBytes), .init("now", .inputBadType),
    ])
    /// R8.9-5: `ladder` reads every member before rung 1 decodes the request.
    static let ladderInputOrder = OrderFacet(rule: "R8.9-5", format: format, checks: [
        .init("input", .inputMissingField), .init("rung1", output: "drop at rung 1, cbor_truncated"),
    ])

    static let orders = [decodeOrder, verifyOrder, ladderOrder, approvalOrder, grantOrder, admitsOrder, ladderInputOrder]

    static let all: [Facet] = limits.map(Facet.limit) + orders.map(Facet.order)

    static let boundless: [String: String] = [
        "R8.1-4": "`y ≥ p` names §9.1's alias class of an Ed25519 key (the sig-edge cases pin it), and the rule says no key half is refused when the key is read: no bound",
        "R8.2-7": "says what a text length counts (UTF-8 bytes, as encoded); the bounds are R8.4-3's and R8.7-2's facets",
        "R8.5-3": "the halves' sizes (the first 64 bytes, the remaining 3,309) are the hybrid signature's layout (§9.3); a sig of another length fails decoding (§8.1's table, the cert_decode malformed cases)",
        "R8.9-2": "the uint64 range is §2.2's (the input battery's, another part of issue 23); the 31-byte reply subject is an example of which code an encoder gives, whose lengths are the tables'",
    ]

    static let declared = FormatFacets(format: format, section: "8", facets: all, boundless: boundless,
                                       measuredElsewhere: ["R8.9-3": .inputBeforeRules],
                                       noTieBreaks: "§8 orders nothing among equal values: its windows and expiries are limits (`now ≥ expires_at_s`, ±120 s, faceted as such), its comparisons are equalities (phone_id, payload type)")
}

// MARK: - derived cases

extension SignInFacets {
    typealias V = SignInVectors

    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(SignInHandler()) }

    static func drop(_ rung: Int, _ reason: ErrorCode) -> (CBOR) -> Bool {
        { $0 == SignInOutput.verdict(.drop(rung: rung, reason: reason)) }
    }

    static func ladderInput(request: [UInt8], pinned: [UInt8]?, own: [UInt8]?, now: CBOR?) -> CBOR {
        var members: [(String, CBOR)] = [("request", .bytes(request)), ("pinned_key", pinned.map { .bytes($0) } ?? .null),
                                         ("own_cert", own.map { .bytes($0) } ?? .null)]
        if let now { members.append(("now_s", now)) }
        return .object(members)
    }

    static func cases(_ f: SignInFixtures) throws -> [VectorCase] {
        var b = builder()
        try limitCases(&b, f)
        try orderCases(&b, f)
        return b.cases
    }

    static func limitCases(_ b: inout FacetCaseBuilder, _ f: SignInFixtures) throws {
        func e164(_ digits: Int) -> CBOR { .object([("e164", .text("+" + String(String(repeating: "71", count: 8).prefix(digits))))]) }
        try b.limit(digitsMax, op: "phone_id", slug: "e164-digits-max", comment: "`+` and 14, 15 and 16 digits 7171…") { d in e164(15 + d) }
        try b.limit(digitsMin, op: "phone_id", slug: "e164-digits-min", comment: "`+` and 0, 1 and 2 digits (`+`, `+7`, `+71`)") { d in e164(1 + d) }

        // cert_encode does not verify: the other number's phone_id beside the request
        // certificate's signature is a valid input (the hand-written cases use the own number).
        let c = f.requestCert
        func resize(_ b: [UInt8], _ n: Int, fill: UInt8) -> [UInt8] { n <= b.count ? Array(b.prefix(n)) : b + [UInt8](repeating: fill, count: n - b.count) }
        try b.limit(phoneIDLength, op: "cert_encode", slug: "phone-id-length",
                    comment: "the other number's phone_id cut to 31 bytes, whole, and with one 01 byte appended, beside the request certificate's times and sig") { d in
            .object([("phone_id", .bytes(resize(f.otherPhoneID, 32 + d, fill: 0x01))), ("issued_at_s", .unsigned(c.issuedAt)),
                     ("expires_at_s", .unsigned(c.expiresAt)), ("sig", .bytes(c.signature))])
        }

        let forever = f.requestCertForever
        try b.limit(pinnedLength, op: "cert_verify", slug: "pinned-key-length",
                    comment: "the never-expiring request certificate checked at now against the pinned key cut by one byte, whole, and with one 00 byte appended") { d in
            V.verifyInput(forever.encoded, pinned: resize(f.pinned, 1_984 + d, fill: 0x00), now: f.now)
        }
        try b.limit(ladderPinnedLength, op: "ladder", slug: "pinned-key-length",
                    comment: "a request carrying the never-expiring certificate, made now, with the pinned key cut by one byte, whole, and with one 00 byte appended") { d in
            ladderInput(request: try f.request(cert: forever.encoded, timestamp: f.now).encoded, pinned: resize(f.pinned, 1_984 + d, fill: 0x00),
                        own: f.ownCert.encoded, now: .unsigned(f.now))
        }

        // 31 × é and then "a", "ab", "abc": 32 to 34 characters, so a count of characters would
        // put all three inside.
        let r = try f.request(cert: c.encoded, timestamp: f.now)
        try b.limit(modelLength, op: "request_encode", slug: "device-model-length",
                    comment: "a device model of 63, 64 and 65 UTF-8 bytes: 31 × é (2 bytes each), then `a`, `ab` or `abc`") { d in
            MalformedEncodings.replacing(V.requestInput(r), "device_model", with: .text(String(repeating: "é", count: 31) + "abc".prefix(2 + d)))
        }
        // The never-expiring certificate inside, so the bound's case is not valid/timestamp-max.
        let foreverRequest = try f.request(cert: forever.encoded, timestamp: f.now)
        try b.limit(unsignedRange, op: "request_decode", slug: "timestamp-range",
                    comment: "a request carrying the never-expiring certificate with timestamp_s 2^64 − 2, 2^64 − 1 (nine-byte heads) and 2^64 (a tag-2 bignum)") { d in
            let ts: CBOR = d > 0 ? .tagged(2, .bytes([0x01] + [UInt8](repeating: 0, count: 8))) : .unsigned(UInt64.max - UInt64(-d))
            return .object([("encoded", .bytes(CBORWriter.encode(MalformedEncodings.replacing(foreverRequest.tree, "timestamp_s", with: ts))))])
        }
        try b.limit(familyLength, op: "ack_encode", slug: "device-family-length",
                    comment: "a device family of 31, 32 and 33 UTF-8 bytes, ö (2 bytes) 15 or 16 times and a final `a` where odd") { d in
            let text = d == 0 ? String(repeating: "ö", count: 16) : String(repeating: "ö", count: d < 0 ? 15 : 16) + "a"
            return .object([("device_family", .text(text))])
        }
        try b.limit(familyLengthMin, op: "ack_encode", slug: "device-family-shortest", comment: "a device family of 0, 1 and 2 UTF-8 bytes",
                    flags: [InputBeforeRulesCases.notABase]) { d in
            .object([("device_family", .text(String(repeating: "a", count: 1 + d)))])
        }

        // The other number's certificate: the hand-written expiry cases check the request one.
        let otherNumber = f.requestCertOtherNumber
        try b.limit(certExpiry, op: "cert_verify", slug: "cert-expiry",
                    comment: "the other number's certificate at now_s = expires_at_s − 1, expires_at_s and expires_at_s + 1") { d in
            V.verifyInput(otherNumber.encoded, pinned: f.pinned, now: UInt64(Int64(otherNumber.expiresAt) + Int64(d)))
        }
        try b.limitExtra(certExpiry, op: "cert_verify", slug: "cert-expiry", label: "max",
                         comment: "a certificate expiring at 2^64 − 1, checked at now_s = 2^64 − 1: expired (now < expires_at_s fails at the top of the clock too)",
                         wantInside: false, input: V.verifyInput(forever.encoded, pinned: f.pinned, now: UInt64.max))

        // Rung 5, every other rung passing: a sibling of the other number (its request and own
        // certificate both for +15555550199) at now, and near the ends of the clock the
        // never-expiring certificate beside the expired own one (rung 3 only decodes it). The
        // hand-written rung-5 cases use the request and own certificates.
        func clock(ts: UInt64, now: UInt64, cert: PhoneOwnershipCert, own: PhoneOwnershipCert) throws -> CBOR {
            ladderInput(request: try f.request(cert: cert.encoded, timestamp: ts).encoded, pinned: f.pinned, own: own.encoded, now: .unsigned(now))
        }
        func notDropped(_ reason: ErrorCode) -> (CBOR) -> Bool { { $0["reason"] != .text(reason.rawValue) } }
        try b.limit(tooOld, op: "ladder", slug: "timestamp-old", comment: "the other number's sibling, timestamp_s 119, 120 and 121 s before now_s",
                    input: { d in try clock(ts: f.now - UInt64(120 + d), now: f.now, cert: otherNumber, own: otherNumber) }, inside: notDropped(.signinTimestampTooOld))
        try b.limit(tooNew, op: "ladder", slug: "timestamp-new", comment: "the other number's sibling, timestamp_s 119, 120 and 121 s after now_s",
                    input: { d in try clock(ts: f.now + UInt64(120 + d), now: f.now, cert: otherNumber, own: otherNumber) }, inside: notDropped(.signinTimestampTooNew))
        try b.limit(oldNearZero, op: "ladder", slug: "timestamp-old-near-zero", comment: "timestamp_s 0 and now_s 119, 120 and 121",
                    input: { d in try clock(ts: 0, now: UInt64(120 + d), cert: forever, own: f.ownCertExpired) }, inside: notDropped(.signinTimestampTooOld))
        try b.limit(newNearTop, op: "ladder", slug: "timestamp-new-near-top",
                    comment: "timestamp_s 2^64 − 1 and now_s 2^64 − 120, 2^64 − 121 and 2^64 − 122 (the certificate expires at 2^64 − 1)",
                    input: { d in try clock(ts: UInt64.max, now: UInt64.max - UInt64(120 + d), cert: forever, own: f.ownCertExpired) }, inside: notDropped(.signinTimestampTooNew))

        // Fixed bytes, minted at T = B + 1,000 (the hand-written admits cases use the approval
        // fixture, minted at B + 700).
        let grant = try DeviceGrant.minted(token: [UInt8](repeating: 0x47, count: 32), at: SignInFixtures.base + 1_000)
        let approve = SignInApproval(approved: try .init(grant: grant, accountSeed: [UInt8](repeating: 0x53, count: 32), ktHandle: [UInt8](repeating: 0x4b, count: 32)))
        let expires = grant.expiresAt
        try b.limit(grantExpiry, op: "approval_admits", slug: "grant-expiry", comment: "an approval minted at T = B + 1,000, at T + 179, T + 180 and T + 181",
                    input: { d in .object([("approval", .bytes(approve.encoded)), ("now_s", .unsigned(UInt64(Int64(expires) + Int64(d))))]) },
                    inside: { $0 == SignInOutput.admits(nil) })

        // The only new signatures: the "other" key's seeds at the bound (the hand-written
        // cert_issue cases use the phone-verify key's).
        let edSeed = SignInFixtures.seed("pixie.vectors.signin.other.ed25519"), mlSeed = SignInFixtures.seed("pixie.vectors.signin.other.mldsa65")
        func issue(ed: [UInt8], ml: [UInt8], _ cert: PhoneOwnershipCert) -> CBOR {
            .object([("signer", .object([("ed25519_seed", .bytes(ed)), ("mldsa_seed", .bytes(ml))]))] + V.certFields(cert))
        }
        try b.limit(ed25519Seed, op: "cert_issue", slug: "ed25519-seed-length",
                    comment: "the other key's Ed25519 seed cut by one byte, whole, and with one 00 byte appended, over the request certificate's fields") { d in
            issue(ed: resize(edSeed, 32 + d, fill: 0x00), ml: mlSeed, c)
        }
        try b.limit(mldsaSeed, op: "cert_issue", slug: "mldsa-seed-length",
                    comment: "the other key's ML-DSA-65 seed cut by one byte, whole, and with one 00 byte appended, over the never-expiring certificate's fields") { d in
            issue(ed: edSeed, ml: resize(mlSeed, 32 + d, fill: 0x00), forever)
        }
    }

    /// A signin_request's encoding as the faults of R8.2-6 see it.
    struct Request {
        var trailing = false, integerKey = false, wrongTag = false, unknown = false, longModel = false
    }

    /// A `cert_verify` input as the faults of R8.5-5 see it.
    struct Verify {
        var noKey = false, malformed = false, badSignature = false, expired = false
    }

    /// A `ladder` input as the faults of R8.6-1 see it, one per rung.
    struct Ladder {
        var faults: Set<Int> = []
    }

    /// An approval's map as the faults of R8.8-2 and R8.8-5 see it.
    struct Approval {
        var unknown = false, grantMissing = false, seedAsText = false
        var grantExtraMember = false, ktHandleShort = false
    }

    /// An `approval_admits` or `ladder` input with one input fault and one decoding fault.
    struct ReadThenDecode {
        var inputFault = false, decodeFault = false
    }

    static func orderCases(_ b: inout FacetCaseBuilder, _ f: SignInFixtures) throws {
        let c = f.requestCert
        let r = try f.request(cert: c.encoded, timestamp: f.now)

        // §8.2: a trailing 00 (step 1), an integer key 0 (sorts first; step 2), the tag
        // signin_approval (step 3), a member zz (step 4), a 65-byte device model (step 5).
        try b.order(decodeOrder, op: "request_decode", slug: "request", comment: "the typical signin_request",
                    base: Request(), faults: [
                        { var m = $0; m.trailing = true; return m }, { var m = $0; m.integerKey = true; return m },
                        { var m = $0; m.wrongTag = true; return m }, { var m = $0; m.unknown = true; return m },
                        { var m = $0; m.longModel = true; return m },
                    ], input: { m in
                        var tree = r.tree
                        if m.wrongTag { tree = MalformedEncodings.replacing(tree, "type", with: .text("signin_approval")) }
                        if m.unknown { tree = MalformedEncodings.replacing(tree, "zz", with: .unsigned(1)) }
                        if m.longModel { tree = MalformedEncodings.replacing(tree, "device_model", with: .text(String(repeating: "M", count: 65))) }
                        if m.integerKey, case .map(let es) = tree { tree = .map(es + [CBORMapEntry(key: .unsigned(0), value: .unsigned(0))]) }
                        return .object([("encoded", .bytes(CBORWriter.encode(tree) + (m.trailing ? [0x00] : [])))])
                    })

        // §8.5: the Ed25519 half's byte 10 flipped (as the hand-written signature cases), a
        // trailing 00 after the certificate, now_s = expires_at_s.
        let flipped = try f.requestCert(signature: SignInFixtures.flip(c.signature, at: 10))
        try b.order(verifyOrder, op: "cert_verify", slug: "verify", comment: "the request certificate under the pinned key at now",
                    base: Verify(), faults: [
                        { var m = $0; m.noKey = true; return m }, { var m = $0; m.malformed = true; return m },
                        { var m = $0; m.badSignature = true; return m }, { var m = $0; m.expired = true; return m },
                    ], input: { m in
                        V.verifyInput((m.badSignature ? flipped : c).encoded + (m.malformed ? [0x00] : []), pinned: m.noKey ? nil : f.pinned,
                                      now: m.expired ? c.expiresAt : f.now)
                    })

        // §8.6: a member zz in the request (rung 1), no pinned key (2), the own certificate
        // without its last byte (3),
        // the other number's genuine certificate (4), a timestamp 121 s old (5).
        try b.order(ladderOrder, op: "ladder", slug: "ladder", comment: "the typical request, pinned key and own certificate at now",
                    base: Ladder(), faults: (1...5).map { k in { var m = $0; m.faults.insert(k); return m } },
                    input: { m in
                        let cert = m.faults.contains(4) ? f.requestCertOtherNumber : c
                        var tree = try f.request(cert: cert.encoded, timestamp: m.faults.contains(5) ? f.now - 121 : f.now).tree
                        if m.faults.contains(1) { tree = MalformedEncodings.replacing(tree, "zz", with: .unsigned(1)) }
                        return ladderInput(request: CBORWriter.encode(tree), pinned: m.faults.contains(2) ? nil : f.pinned,
                                           own: m.faults.contains(3) ? Array(f.ownCert.encoded.dropLast()) : f.ownCert.encoded, now: .unsigned(f.now))
                    }, output: Dictionary(uniqueKeysWithValues: rungs.enumerated().map { ($0.offset, drop($0.element.rung, $0.element.reason)) }))

        // §8.8: the approval fixture (the same bytes as the approval_* cases).
        let approve = try V.approvalFixture()
        let token = approve.approved!.grant.token
        func approvalInput(_ m: Approval) -> CBOR {
            var tree = approve.tree
            if m.unknown { tree = MalformedEncodings.replacing(tree, "zz", with: .unsigned(1)) }
            if m.grantMissing { tree = MalformedEncodings.replacing(tree, "grant", with: nil) }
            if m.grantExtraMember, let g = tree["grant"] { tree = MalformedEncodings.replacing(tree, "grant", with: MalformedEncodings.replacing(g, "issued_at_s", with: .unsigned(1))) }
            if m.seedAsText { tree = MalformedEncodings.replacing(tree, "account_seed", with: .text("x")) }
            if m.ktHandleShort { tree = MalformedEncodings.replacing(tree, "kt_handle", with: .bytes(Array(token.prefix(31)))) }
            return .object([("encoded", .bytes(CBORWriter.encode(tree)))])
        }
        try b.order(approvalOrder, op: "approval_decode", slug: "approval",
                    comment: "the approval fixture with a member zz (step 4), no grant (the count) and account_seed as text (member 2)",
                    base: Approval(), faults: [
                        { var m = $0; m.unknown = true; return m }, { var m = $0; m.grantMissing = true; return m },
                        { var m = $0; m.seedAsText = true; return m },
                    ], input: approvalInput)
        try b.order(grantOrder, op: "approval_decode", slug: "grant",
                    comment: "the approval fixture with a grant member issued_at_s (member 1's inner step 4), account_seed as text (member 2) and a 31-byte kt_handle (member 3)",
                    base: Approval(), faults: [
                        { var m = $0; m.grantExtraMember = true; return m }, { var m = $0; m.seedAsText = true; return m },
                        { var m = $0; m.ktHandleShort = true; return m },
                    ], input: approvalInput)

        // §8.9: a trailing 00 after the approval, now_s "soon"; and for the ladder no now_s and
        // the request cut in half.
        let mintedAt = approve.approved!.grant.expiresAt - DeviceGrant.lifetimeSeconds
        try b.order(admitsOrder, op: "approval_admits", slug: "admits", comment: "the approval fixture at its minting time",
                    base: ReadThenDecode(), faults: [
                        { var m = $0; m.decodeFault = true; return m }, { var m = $0; m.inputFault = true; return m },
                    ], input: { m in
                        .object([("approval", .bytes(approve.encoded + (m.decodeFault ? [0x00] : []))),
                                 ("now_s", m.inputFault ? .text("soon") : .unsigned(mintedAt))])
                    })
        try b.order(ladderInputOrder, op: "ladder", slug: "ladder-input", comment: "the typical request, pinned key and own certificate at now",
                    base: ReadThenDecode(), faults: [
                        { var m = $0; m.inputFault = true; return m }, { var m = $0; m.decodeFault = true; return m },
                    ], input: { m in
                        ladderInput(request: m.decodeFault ? Array(r.encoded.prefix(r.encoded.count / 2)) : r.encoded, pinned: f.pinned,
                                    own: f.ownCert.encoded, now: m.inputFault ? nil : .unsigned(f.now))
                    }, output: [1: drop(1, .cborTruncated)])
    }
}

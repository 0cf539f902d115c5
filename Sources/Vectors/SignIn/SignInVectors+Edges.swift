import Primitives

/// Input and encoding edge classes in the sign-in ops (`edge/…`, SPEC.md §8.10), designed from how
/// stock JSON, CBOR and Unicode libraries differ rather than from the reference: integers at their
/// limits and in the spellings a lenient parser accepts, text bounds in UTF-8 bytes against
/// characters, NFC against NFD, hex case and length, members missing, null and extra, and the
/// ladder's clock at every boundary. Then the `order/…` cases (flag `two-faults`) that break two
/// rules at once, one or more for every order rule of §8.
extension SignInVectors {
    static func edgeCases(_ b: inout Builder, _ f: SignInFixtures) throws {
        let c = f.requestCert

        // cert_encode: integers at their edges (expires_at_s; the output shows the head it takes).
        func encodeInput(expires: CBOR, extra: [(String, CBOR)] = []) -> CBOR {
            .object([("phone_id", .bytes(c.phoneID)), ("issued_at_s", .unsigned(c.issuedAt)), ("expires_at_s", expires), ("sig", .bytes(c.signature))] + extra)
        }
        func encodeOK(_ name: String, _ comment: String, _ expires: CBOR, value: UInt64, rules: [String]) throws {
            let cert = try PhoneOwnershipCert(phoneID: c.phoneID, issuedAt: c.issuedAt, expiresAt: value, signature: c.signature)
            try b.output("edge/\(name)", "cert_encode", comment, flags: ["edge"] + rules.map { "rule:\($0)" }, input: encodeInput(expires: expires)) {
                $0 == SignInOutput.certEncoded(cert)
            }
        }
        func encodeBad(_ name: String, _ comment: String, _ expires: CBOR, rules: [String] = ["R2.2-3", "R8.9-1"]) throws {
            try b.error("edge/\(name)", "cert_encode", comment, flags: ["edge"] + rules.map { "rule:\($0)" }, input: encodeInput(expires: expires), .inputBadType)
        }
        let two53: UInt64 = 1 << 53
        try encodeOK("expires-zero", "expires_at_s 0: a one-byte head (00)", .unsigned(0), value: 0, rules: ["R2.2-3", "R8-2"])
        try encodeOK("expires-2-53", "expires_at_s 2^53 as a JSON number, the largest a writer gives as a number: a nine-byte head", .unsigned(two53), value: two53, rules: ["R2.2-3", "R8-2"])
        try encodeOK("expires-2-53-plus-1", "expires_at_s 2^53 + 1 as a decimal string: exact (a parser through a double reads 2^53)", .text("9007199254740993"), value: two53 + 1, rules: ["R2.2-3", "R8.9-1"])
        try encodeOK("expires-2-63", "expires_at_s 2^63 as a decimal string: above the int64 range, still a uint64", .text("9223372036854775808"), value: 1 << 63, rules: ["R2.2-3", "R8.9-1"])
        try encodeOK("expires-2-64-minus-1", "expires_at_s 2^64 − 1 as a decimal string: the largest uint64", .text("18446744073709551615"), value: UInt64.max, rules: ["R2.2-3", "R8.9-1"])
        try encodeOK("expires-small-decimal-string", "expires_at_s as the canonical decimal string \"1798761600\": the same as the number", .text("1798761600"), value: 1_798_761_600, rules: ["R2.2-3", "R8.9-1"])
        try encodeBad("expires-2-64", "expires_at_s 2^64 as a decimal string: outside uint64, input_bad_type", .text("18446744073709551616"))
        try encodeBad("expires-float-one", "expires_at_s 1.0: a JSON number with a fraction is not an integer", .float(1.0))
        try encodeBad("expires-true", "expires_at_s true: a boolean is not an integer", .bool(true))
        try encodeBad("expires-plus-five", "expires_at_s \"+5\": not a canonical decimal string", .text("+5"))
        try encodeBad("expires-leading-zero", "expires_at_s \"05\": a leading zero is not canonical", .text("05"))
        try encodeBad("expires-space", "expires_at_s \" 5\": a space is not a digit", .text(" 5"))
        try encodeBad("expires-empty-string", "expires_at_s \"\": no digits", .text(""))
        try encodeBad("expires-null", "expires_at_s null: null is not absence, and not a number", .null, rules: ["R2.2-1", "R8.9-1"])
        try b.output("edge/extra-member", "cert_encode", "an input member zz the op does not define is ignored",
                     flags: ["edge", "rule:R2.2-2", "rule:R8.9-1"], input: encodeInput(expires: .unsigned(c.expiresAt), extra: [("zz", .unsigned(1))])) {
            $0 == SignInOutput.certEncoded(c)
        }
        // Hex in op inputs: either case; odd length and non-hex characters are input_bad_value.
        func hexInput(_ phone: String) -> CBOR {
            .object([("phone_id", .text(phone)), ("issued_at_s", .unsigned(c.issuedAt)), ("expires_at_s", .unsigned(c.expiresAt)), ("sig", .bytes(c.signature))])
        }
        let lower = Hex.encode(c.phoneID)
        try b.output("edge/phone-id-uppercase-hex", "cert_encode", "phone_id in uppercase hex: the same bytes", flags: ["edge", "rule:R2.2-4", "rule:R8.9-1"],
                     input: hexInput(lower.uppercased())) { $0 == SignInOutput.certEncoded(c) }
        let mixed = String(lower.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.uppercased()) : $0.element })
        try b.output("edge/phone-id-mixed-case-hex", "cert_encode", "phone_id in mixed-case hex: the same bytes", flags: ["edge", "rule:R2.2-4", "rule:R8.9-1"],
                     input: hexInput(mixed)) { $0 == SignInOutput.certEncoded(c) }
        try b.error("edge/phone-id-odd-hex", "cert_encode", "phone_id of 63 hex digits: input_bad_value", flags: ["edge", "rule:R2.2-4", "rule:R8.9-1"],
                    input: hexInput(String(lower.dropLast())), .inputBadValue)
        try b.error("edge/phone-id-non-hex", "cert_encode", "phone_id with the non-hex character g: input_bad_value", flags: ["edge", "rule:R2.2-4", "rule:R8.9-1"],
                    input: hexInput("g" + lower.dropFirst()), .inputBadValue)
        try b.error("edge/phone-id-as-number", "cert_encode", "phone_id given as a number: input_bad_type", flags: ["edge", "rule:R2.2-4", "rule:R8.9-1"],
                    input: .object([("phone_id", .unsigned(1)), ("issued_at_s", .unsigned(c.issuedAt)), ("expires_at_s", .unsigned(c.expiresAt)), ("sig", .bytes(c.signature))]),
                    .inputBadType)

        // cert_verify: now_s at its edges; no check reads issued_at_s.
        func verifyEdge(_ name: String, _ comment: String, cert: [UInt8] = c.encoded, pinned: CBOR? = .bytes(f.pinned), now: CBOR?, rules: [String],
                        _ code: ErrorCode?) throws {
            var members: [(String, CBOR)] = [("cert", .bytes(cert))]
            if let pinned { members.append(("pinned_key", pinned)) }
            if let now { members.append(("now_s", now)) }
            let flags = ["edge"] + rules.map { "rule:\($0)" }
            if let code {
                try b.error("edge/\(name)", "cert_verify", comment, flags: flags, input: .object(members), code)
            } else {
                try b.output("edge/\(name)", "cert_verify", comment, flags: flags, input: .object(members)) { $0["phone_id"] != nil }
            }
        }
        try verifyEdge("now-zero", "now_s 0, before the certificate was issued: valid (no not-before check)", now: .unsigned(0), rules: ["R8.1-8", "R8.5-4"], nil)
        try verifyEdge("now-decimal-string", "now_s as the canonical decimal string of now", now: .text(String(f.now)), rules: ["R2.2-3", "R8.9-1"], nil)
        try verifyEdge("now-2-64-minus-1", "now_s 2^64 − 1: expired", now: .text("18446744073709551615"), rules: ["R8.5-4", "R2.2-3"], .signinCertExpired)
        try verifyEdge("now-float", "now_s 1767226200.0: input_bad_type", now: .float(Double(f.now)), rules: ["R2.2-3", "R8.9-1"], .inputBadType)
        try verifyEdge("now-missing", "no now_s member: input_missing_field", now: nil, rules: ["R2.2-1", "R8.9-1"], .inputMissingField)
        try verifyEdge("pinned-key-absent", "pinned_key absent (none is written null): input_missing_field", pinned: nil, now: .unsigned(f.now), rules: ["R2.2-1", "R8.9-1"], .inputMissingField)
        try verifyEdge("pinned-key-uppercase-hex", "the pinned key in uppercase hex: the same key", pinned: .text(Hex.encode(f.pinned).uppercased()), now: .unsigned(f.now),
                       rules: ["R2.2-4", "R8.9-1"], nil)
        try verifyEdge("pinned-key-false", "pinned_key false: not hex, not null", pinned: .bool(false), now: .unsigned(f.now), rules: ["R2.2-4", "R8.9-1"], .inputBadType)
        try verifyEdge("issued-after-expiry", "a certificate issued at 2^64 − 1, after its own expiry and after now: no check reads issued_at_s",
                       cert: f.requestCertIssuedLate.encoded, now: .unsigned(f.now), rules: ["R8.1-8"], nil)

        // request_encode / request_decode: device_model bounds in UTF-8 bytes; NFC and NFD.
        let r = try f.request(cert: c.encoded, timestamp: f.now)
        func model(_ name: String, _ comment: String, _ text: String, rules: [String], _ code: ErrorCode?) throws {
            let input = MalformedEncodings.replacing(requestInput(r), "device_model", with: .text(text))
            let flags = ["edge"] + rules.map { "rule:\($0)" }
            if let code {
                try b.error("edge/\(name)", "request_encode", comment, flags: flags, input: input, code)
            } else {
                var v = r
                v.deviceModel = text
                try b.output("edge/\(name)", "request_encode", comment, flags: flags, input: input) { $0["encoded"] == .bytes(v.encoded) }
                try b.output("edge/\(name)", "request_decode", comment + " (decoded as encoded, byte for byte)", flags: flags,
                             input: .object([("encoded", .bytes(v.encoded))])) { $0 == SignInOutput.request(v) }
            }
        }
        let nfd = "e\u{301}"  // e + COMBINING ACUTE ACCENT: 3 UTF-8 bytes; NFC é is 2
        try model("model-32-e-acute-64-bytes", "32 × é (U+00E9): 32 characters, 64 UTF-8 bytes, at the limit", String(repeating: "é", count: 32), rules: ["R8.4-3", "R8.2-7"], nil)
        try model("model-33-e-acute-66-bytes", "33 × é: 33 characters but 66 UTF-8 bytes, over the limit", String(repeating: "é", count: 33), rules: ["R8.4-3", "R8.2-7", "R8.9-2"], .signinBadLength)
        try model("model-64-e-acute-128-bytes", "64 × é: 64 characters (the limit if it counted characters) but 128 UTF-8 bytes", String(repeating: "é", count: 64),
                  rules: ["R8.4-3", "R8.2-7", "R8.9-2"], .signinBadLength)
        try model("model-16-emoji-64-bytes", "16 × U+1F600 (4 UTF-8 bytes, 2 UTF-16 units each): 64 bytes, at the limit", String(repeating: "\u{1F600}", count: 16),
                  rules: ["R8.4-3", "R8.2-7"], nil)
        try model("model-nfd", "Zoë spelled NFD (e + U+0301): encoded as given, not normalised to NFC", "Pixel Zo" + nfd, rules: ["R8.2-7", "R2.2-5"], nil)
        try model("model-nfd-65-bytes", "21 × (e + U+0301) + \"ab\": 65 UTF-8 bytes as given (44 once NFC-normalised): over the limit",
                  String(repeating: nfd, count: 21) + "ab", rules: ["R8.4-3", "R8.2-7", "R8.9-2", "R2.2-5"], .signinBadLength)
        try model("model-nfd-64-bytes", "21 × (e + U+0301) + \"a\": 64 UTF-8 bytes, at the limit", String(repeating: nfd, count: 21) + "a", rules: ["R8.4-3", "R8.2-7"], nil)
        try b.error("edge/model-null", "request_encode", "device_model null: input_bad_type", flags: ["edge", "rule:R2.2-1", "rule:R8.9-1"],
                    input: MalformedEncodings.replacing(requestInput(r), "device_model", with: .null), .inputBadType)
        try b.output("edge/reply-subject-uppercase-hex", "request_encode", "reply_subject in uppercase hex: the same bytes", flags: ["edge", "rule:R2.2-4", "rule:R8.9-1"],
                     input: MalformedEncodings.replacing(requestInput(r), "reply_subject", with: .text(Hex.encode(r.replySubject).uppercased()))) {
            $0["encoded"] == .bytes(r.encoded)
        }
        try b.error("edge/reply-subject-odd-hex", "request_encode", "reply_subject of 63 hex digits: input_bad_value", flags: ["edge", "rule:R2.2-4", "rule:R8.9-1"],
                    input: MalformedEncodings.replacing(requestInput(r), "reply_subject", with: .text(String(Hex.encode(r.replySubject).dropLast()))), .inputBadValue)
        var t53 = r; t53.timestamp = two53 + 1
        try b.output("edge/timestamp-2-53-plus-1", "request_encode", "timestamp_s 2^53 + 1 (a decimal string in JSON): encoded exactly, a nine-byte head",
                     flags: ["edge", "rule:R2.2-3", "rule:R8-2"], input: requestInput(t53)) { $0["encoded"] == .bytes(t53.encoded) }
        try b.output("edge/timestamp-2-53-plus-1", "request_decode", "timestamp_s 2^53 + 1 decodes exactly (and is written as a decimal string)",
                     flags: ["edge", "rule:R8.4-1", "rule:R8-2"], input: .object([("encoded", .bytes(t53.encoded))])) { $0 == SignInOutput.request(t53) }

        // ack: device_family bounds in UTF-8 bytes.
        for (name, family, code, comment) in [("family-16-e-acute-32-bytes", String(repeating: "é", count: 16), nil as ErrorCode?, "16 × é: 32 UTF-8 bytes, at the limit"),
                                              ("family-17-e-acute-34-bytes", String(repeating: "é", count: 17), .signinBadLength, "17 × é: 17 characters, 34 UTF-8 bytes: over the limit")] {
            if let code {
                try b.error("edge/\(name)", "ack_encode", comment, flags: ["edge", "rule:R8.7-1", "rule:R8.9-2"], input: .object([("device_family", .text(family))]), code)
            } else {
                let a = try SignInAck(deviceFamily: family)
                try b.output("edge/\(name)", "ack_encode", comment, flags: ["edge", "rule:R8.7-1", "rule:R8.7-2"], input: SignInOutput.ack(a)) { $0["encoded"] == .bytes(a.encoded) }
            }
        }

        // The ladder's clock at every boundary, near 0 and near 2^64 − 1.
        let own = f.ownCert.encoded
        func clock(_ name: String, _ comment: String, cert: PhoneOwnershipCert = c, ts: UInt64, now: UInt64, _ drop: ErrorCode?) throws {
            try b.ladder("rung5/\(name)", comment, request: try f.request(cert: cert.encoded, timestamp: ts).encoded, pinned: f.pinned, own: own, now: now,
                         drop: drop.map { (5, $0) }, flags: ["edge", "rule:R8.6-6", "rule:R8.6-7"])
        }
        try clock("timestamp-minus-119", "timestamp_s = now − 119: inside the window", ts: f.now - 119, now: f.now, nil)
        try clock("timestamp-plus-119", "timestamp_s = now + 119: inside the window", ts: f.now + 119, now: f.now, nil)
        try clock("timestamp-2-63", "timestamp_s = 2^63: too new (a signed 64-bit difference would wrap)", ts: 1 << 63, now: f.now, .signinTimestampTooNew)
        try clock("now-zero-timestamp-120", "now = 0 (the certificate is not yet issued: no not-before check) and timestamp_s 120: inside", ts: 120, now: 0, nil)
        try clock("now-zero-timestamp-121", "now = 0 and timestamp_s 121: too new", ts: 121, now: 0, .signinTimestampTooNew)
        try clock("now-60-timestamp-zero", "now = 60 and timestamp_s 0: 60 s old, inside (now − 120 would wrap below 0)", ts: 0, now: 60, nil)
        let top = UInt64.max
        try clock("now-max-timestamp-120-earlier", "now = 2^64 − 2 (the certificate expires at 2^64 − 1) and timestamp_s 120 s earlier: inside",
                  cert: f.requestCertForever, ts: top - 122, now: top - 2, nil)
        try clock("now-max-timestamp-121-earlier", "now = 2^64 − 2 and timestamp_s 121 s earlier: too old", cert: f.requestCertForever, ts: top - 123, now: top - 2, .signinTimestampTooOld)
        try clock("now-max-timestamp-max", "now = 2^64 − 2 and timestamp_s 2^64 − 1: one second ahead, inside", cert: f.requestCertForever, ts: top, now: top - 2, nil)
        try clock("now-max-minus-121-timestamp-max", "now = 2^64 − 122 and timestamp_s 2^64 − 1: 121 s ahead, too new (now + 120 would wrap)",
                  cert: f.requestCertForever, ts: top, now: top - 121, .signinTimestampTooNew)
        try b.ladder("accept/issued-after-expiry", "the request certificate was issued at 2^64 − 1: no rung reads issued_at_s",
                     request: try f.request(cert: f.requestCertIssuedLate.encoded, timestamp: f.now).encoded, pinned: f.pinned, own: own, now: f.now, drop: nil,
                     flags: ["edge", "rule:R8.6-9", "rule:R8.1-8"])

        // C.3: the untagged maps carry no type member.
        try b.error("malformed/type-member", "cert_decode", "a certificate with a type member (untagged maps have none): signin_unknown_field",
                    flags: ["malformed", "edge", "rule:R8.2-4"], input: .object([("cert", .bytes(CBORWriter.encode(MalformedEncodings.replacing(c.tree, "type", with: .text("cert")))))]),
                    .signinUnknownField)
        let l = try DiscoveryLookupResponse(inbox: f.inbox, xwingPublicKey: f.xwing)
        try b.error("malformed/type-member", "lookup_decode", "a lookup response with a type member: signin_unknown_field",
                    flags: ["malformed", "edge", "rule:R8.2-4"], input: .object([("encoded", .bytes(CBORWriter.encode(MalformedEncodings.replacing(l.tree, "type", with: .text("lookup")))))]),
                    .signinUnknownField)
    }

    /// Two faults at once for every order rule of §8 (and §2.2 rule 7 in the sign-in ops).
    static func orderCases(_ b: inout Builder, _ f: SignInFixtures) throws {
        let c = f.requestCert
        let r = try f.request(cert: c.encoded, timestamp: f.now)
        let m = requestMalformations(r)
        func decode(_ name: String, _ comment: String, _ tree: CBOR, rules: [String], _ code: ErrorCode) throws {
            try b.error("order/\(name)", "request_decode", comment, flags: ["malformed", "order", "two-faults"] + rules.map { "rule:\($0)" },
                        input: .object([("encoded", .bytes(CBORWriter.encode(tree)))]), code)
        }
        // §8.2: step 1 before 2 (bytes that are not a map, followed by a stray byte).
        try b.error("order/cbor-before-map", "request_decode", "a byte string (not a map: step 2) followed by one 00 byte (step 1): cbor_trailing_bytes",
                    flags: ["malformed", "order", "two-faults", "rule:R8.2-6", "rule:R8.2-1"], input: .object([("encoded", .bytes(CBORWriter.encode(.bytes([1])) + [0]))]),
                    .cborTrailingBytes)
        // Step 2 before 3: an integer key and no type member.
        try b.error("order/map-keys-before-tag", "request_decode", "an integer key (step 2) and no type member (step 3): signin_bad_type",
                    flags: ["malformed", "order", "two-faults", "rule:R8.2-6", "rule:R8.2-2"],
                    input: .object([("encoded", .bytes(MalformedEncodings.raw([(CBORWriter.encode(.unsigned(0)), CBORWriter.encode(.unsigned(0)))]
                                                                               + MalformedEncodings(tree: m.replacing("type", with: nil), tag: nil, members: []).entries)))]),
                    .signinBadType)
        try decode("tag-before-unknown", "the tag signin_ack (step 3) and an unknown member zz (step 4): signin_wrong_payload_type",
                   MalformedEncodings.replacing(m.replacing("type", with: .text("signin_ack")), "zz", with: .unsigned(1)), rules: ["R8.2-6", "R8.2-3"], .signinWrongPayloadType)
        try decode("unknown-before-members", "an unknown member zz (step 4) and no device_model (step 5): signin_unknown_field",
                   MalformedEncodings.replacing(m.replacing("device_model", with: nil), "zz", with: .unsigned(1)), rules: ["R8.2-6", "R8.2-4"], .signinUnknownField)
        try decode("table-order-not-wire-order", "device_model of 65 bytes (member 1, 4th on the wire) and cert as text (member 5, 1st on the wire): members are checked in table order, signin_bad_length",
                   MalformedEncodings.replacing(m.replacing("device_model", with: .text(String(repeating: "M", count: 65))), "cert", with: .text("x")),
                   rules: ["R8.2-6", "R8.2-5"], .signinBadLength)
        try b.error("order/unknown-before-member", "cert_decode", "a certificate with a type member (step 4) and a 3,372-byte sig (step 5): signin_unknown_field",
                    flags: ["malformed", "order", "two-faults", "rule:R8.2-6", "rule:R8.2-4"],
                    input: .object([("cert", .bytes(CBORWriter.encode(MalformedEncodings.replacing(MalformedEncodings.replacing(c.tree, "type", with: .text("cert")),
                                                                                                  "sig", with: .bytes(Array(c.signature.dropLast()))))))]),
                    .signinUnknownField)
        // §8.6: rung 1 before rung 2, rung 2 before rung 3.
        try b.ladder("order/rung1-before-rung2", "an unknown member in the request (rung 1) around an empty certificate (rung 2): dropped at rung 1",
                     request: CBORWriter.encode(MalformedEncodings.replacing(try f.request(cert: [], timestamp: f.now).tree, "zz", with: .unsigned(1))),
                     pinned: f.pinned, own: f.ownCert.encoded, now: f.now, drop: (1, .signinUnknownField), flags: ["order", "two-faults", "rule:R8.6-1", "rule:R8.6-2"])
        try b.ladder("order/rung2-before-rung3", "no pinned key (rung 2) and no own certificate (rung 3): dropped at rung 2",
                     request: r.encoded, pinned: nil, own: nil, now: f.now, drop: (2, .signinNoPinnedKey), flags: ["order", "two-faults", "rule:R8.6-1", "rule:R8.5-1"])
        // §8.8: the partial count before member types.
        let approve = try approvalFixture()
        let am = MalformedEncodings(tree: approve.tree, tag: .signinApproval, members: [])
        try b.error("order/partial-before-member-type", "approval_decode", "a grant and an account seed given as text, no kt_handle: the count (partial) comes before member 2's type",
                    flags: ["malformed", "order", "two-faults", "rule:R8.8-2"],
                    input: .object([("encoded", .bytes(CBORWriter.encode(MalformedEncodings.replacing(am.replacing("kt_handle", with: nil), "account_seed", with: .text("x")))))]),
                    .signinApprovalPartial)
        // §8.9: input before message rule (cert_issue), and the ladder reads before it decodes.
        try b.error("order/seed-before-phone-id", "cert_issue", "a 31-byte Ed25519 seed (input_bad_length) and a 31-byte phone_id (signin_bad_length): the input is read first",
                    flags: ["order", "two-faults", "rule:R8.9-3", "rule:R8.9-7"],
                    input: .object([("signer", .object([("ed25519_seed", .bytes(Array(repeating: 7, count: 31))), ("mldsa_seed", .bytes(Array(repeating: 7, count: 32)))])),
                                    ("phone_id", .bytes(Array(c.phoneID.dropLast()))), ("issued_at_s", .unsigned(1)), ("expires_at_s", .unsigned(2))]),
                    .inputBadLength)
        try b.error("order/input-before-rungs", "ladder", "a request that does not decode and no now_s: the ladder reads its input before any rung, input_missing_field",
                    flags: ["order", "two-faults", "rule:R8.9-5"],
                    input: .object([("request", .bytes([0xff])), ("pinned_key", .bytes(f.pinned)), ("own_cert", .bytes(f.ownCert.encoded))]),
                    .inputMissingField)
        // §2.2 rule 7: members in op-table order.
        try b.error("order/members-in-table-order", "request_encode", "device_model as a number (member 1) and reply_subject of odd length (member 2): input_bad_type",
                    flags: ["order", "two-faults", "rule:R2.2-7", "rule:R8.9-1"],
                    input: MalformedEncodings.replacing(MalformedEncodings.replacing(requestInput(r), "device_model", with: .unsigned(1)),
                                                        "reply_subject", with: .text("abc")),
                    .inputBadType)
    }

    /// The approval the `approval_*` cases use (same seed, so the same bytes).
    static func approvalFixture() throws -> SignInApproval {
        var g = SeededGenerator(seed: 0x5167_0002)
        let grant = try DeviceGrant.minted(token: g.bytes(32), at: SignInFixtures.base + 700)
        return SignInApproval(approved: try .init(grant: grant, accountSeed: g.bytes(32), ktHandle: g.bytes(32)))
    }
}

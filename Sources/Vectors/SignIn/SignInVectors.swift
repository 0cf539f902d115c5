import Primitives

/// The `signin` golden cases (SPEC.md §8.10). Every case states what it expects — an accept, a
/// drop at a named rung with a named reason, a rejection code — and the builder runs the reference
/// and refuses to write a case whose claim the reference does not bear out.
enum SignInVectors {
    struct Builder {
        var cases: [VectorCase] = []
        let handler = SignInHandler()

        /// A case whose output the reference computes; `claim` must hold of that output.
        @discardableResult
        mutating func output(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR,
                             claim: (CBOR) -> Bool = { _ in true }) throws -> CBOR {
            let r = Result { () throws(WireError) -> CBOR in try handler.output(op: op, input: input.json) }
            guard case .success(let out) = r else {
                throw StateDigestVectors.GeneratorCheckFailed(description: "signin/\(op)/\(id): reference rejected: \(r)")
            }
            try check(claim(out), "signin/\(op)/\(id): the output does not bear out the claim: \(CBORDiagnostic.render(out))")
            cases.append(VectorCase(id: "signin/\(op)/\(id)", op: op, comment: comment, flags: flags, input: input, expected: .output(out)))
            return out
        }

        /// A case the reference must reject with exactly `code`.
        mutating func error(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR, _ code: ErrorCode) throws {
            let r = Result { () throws(WireError) -> CBOR in try handler.output(op: op, input: input.json) }
            switch r {
            case .success: try check(false, "signin/\(op)/\(id): expected \(code.rawValue), the reference accepted")
            case .failure(let e): try check(e.code == code, "signin/\(op)/\(id): expected \(code.rawValue), got \(e)")
            }
            cases.append(VectorCase(id: "signin/\(op)/\(id)", op: op, comment: comment, flags: ["negative"] + flags, input: input, expected: .error(code)))
        }

        /// A `ladder` case: `drop` nil claims accept, otherwise the first failing rung and its reason.
        mutating func ladder(_ id: String, _ comment: String, request: [UInt8], pinned: [UInt8]?, own: [UInt8]?, now: UInt64,
                             drop: (rung: Int, reason: ErrorCode)?, flags: [String] = []) throws {
            let input = SignInVectors.ladderInput(request: request, pinned: pinned, own: own, now: now)
            let expected: CBOR
            if let drop {
                expected = SignInOutput.verdict(.drop(rung: drop.rung, reason: drop.reason))
            } else {
                guard let req = try? SignInRequest.decode(request), let cert = try? PhoneOwnershipCert.decode(req.cert) else {
                    throw StateDigestVectors.GeneratorCheckFailed(description: "signin/ladder/\(id): an accept case must decode")
                }
                expected = SignInOutput.verdict(.accept(req, phoneID: cert.phoneID))
            }
            let tags = drop.map { ["rung:\($0.rung)", "drop"] } ?? ["accept"]
            try output(id, "ladder", comment, flags: tags + flags, input: input) { $0 == expected }
        }
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "signin generator check failed: \(what)") }
    }

    /// The input of a `ladder` case (§8.10): absent keys and certificates are null.
    static func ladderInput(request: [UInt8], pinned: [UInt8]?, own: [UInt8]?, now: UInt64) -> CBOR {
        .object([("request", .bytes(request)), ("pinned_key", pinned.map { .bytes($0) } ?? .null),
                 ("own_cert", own.map { .bytes($0) } ?? .null), ("now_s", .unsigned(now))])
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        let f = try SignInFixtures()
        try phoneIDCases(&b)
        try certCases(&b, f)
        try signatureEdgeCases(&b, f)
        try lookupCases(&b, f)
        try requestCases(&b, f)
        try ladderCases(&b, f)
        try ackCases(&b)
        try approvalCases(&b)
        try edgeCases(&b, f)
        try orderCases(&b, f)
        addRuleFlags(&b.cases)
        let cases = b.cases + (try SignInFacets.cases(f))
        try TwoFaultModels.check(try twoFaultModels(f), in: cases, handler: SignInHandler())
        return VectorFile(format: "signin",
                          description: "PhoneOwnershipCert, discovery lookup, signin_request and the sibling's guard ladder, signin_ack, signin_approval (SPEC.md §8)",
                          cases: cases, withdrawn: Issue23Withdrawals.entries("signin"))
    }

    /// Every malformation of `m` as a decode case (`op` takes `{encoded}` unless `field` says otherwise).
    static func malformed(_ b: inout Builder, op: String, field: String = "encoded", _ m: MalformedEncodings,
                          override: [String: ErrorCode] = [:]) throws {
        for v in m.variants {
            try b.error("malformed/\(v.name)", op, v.comment, flags: ["malformed"], input: .object([(field, .bytes(v.bytes))]), override[v.name] ?? v.code)
        }
    }

    // MARK: phone_id

    static func phoneIDCases(_ b: inout Builder) throws {
        for (name, number, comment) in [("us", "+15555550100", "a North American number (the vectors' own number)"),
                                        ("uk", "+447700900123", "a UK number"),
                                        ("one-digit", "+1", "the shortest E.164 form: + and one digit"),
                                        ("fifteen-digits", "+123456789012345", "the longest E.164 form: 15 digits")] {
            try b.output("valid/\(name)", "phone_id", comment + ": SHA-256(\"pixie-phone-id-v1\" || 00 || ASCII)",
                         input: .object([("e164", .text(number))])) {
                $0["phone_id"] == .bytes(SHA256.hash(Array("pixie-phone-id-v1".utf8) + [0] + Array(number.utf8)).bytes)
            }
        }
        for (name, number, comment) in [("no-plus", "15555550100", "no leading +"), ("leading-zero", "+05555550100", "the first digit is 0"),
                                        ("sixteen-digits", "+1234567890123456", "16 digits"), ("space", "+1 5555550100", "a space inside"),
                                        ("plus-only", "+", "no digits"), ("empty", "", "the empty string"),
                                        ("fullwidth-digit", "+１5555550100", "a fullwidth digit (U+FF11) is not an ASCII digit")] {
            try b.error("invalid/\(name)", "phone_id", "not E.164: \(comment)", input: .object([("e164", .text(number))]), .inputBadValue)
        }
    }

    // MARK: PhoneOwnershipCert

    static func certFields(_ c: PhoneOwnershipCert) -> [(String, CBOR)] {
        [("phone_id", .bytes(c.phoneID)), ("issued_at_s", .unsigned(c.issuedAt)), ("expires_at_s", .unsigned(c.expiresAt))]
    }

    static func verifyInput(_ cert: [UInt8], pinned: [UInt8]?, now: UInt64) -> CBOR {
        .object([("cert", .bytes(cert)), ("pinned_key", pinned.map { .bytes($0) } ?? .null), ("now_s", .unsigned(now))])
    }

    static func certCases(_ b: inout Builder, _ f: SignInFixtures) throws {
        let signer = CBOR.object([("ed25519_seed", .bytes(SignInFixtures.seed("pixie.vectors.signin.phone-verify.ed25519"))),
                                  ("mldsa_seed", .bytes(SignInFixtures.seed("pixie.vectors.signin.phone-verify.mldsa65")))])
        for (name, cert, comment) in [("request-cert", f.requestCert, "the requester's certificate"),
                                      ("own-cert", f.ownCert, "the sibling's own certificate")] {
            try b.output("valid/\(name)", "cert_issue", "\(comment), minted by the vectors' phone-verify key",
                         input: .object([("signer", signer)] + certFields(cert))) {
                $0["cert"] == .bytes(cert.encoded) && $0["public_key"] == .bytes(f.pinned) && $0["signed_message"] == .bytes(cert.signedMessage)
            }
        }
        try b.error("invalid/seed-31-bytes", "cert_issue", "an Ed25519 seed of 31 bytes",
                    input: .object([("signer", .object([("ed25519_seed", .bytes(Array(repeating: 7, count: 31))), ("mldsa_seed", .bytes(Array(repeating: 7, count: 32)))]))] + certFields(f.requestCert)),
                    .inputBadLength)
        try b.error("invalid/phone-id-31-bytes", "cert_issue", "a phone_id of 31 bytes",
                    input: .object([("signer", signer), ("phone_id", .bytes(Array(f.ownPhoneID.dropLast()))), ("issued_at_s", .unsigned(1)), ("expires_at_s", .unsigned(2))]),
                    .signinBadLength)

        // cert_encode
        let c = f.requestCert
        try b.output("valid/request-cert", "cert_encode", "the request certificate from its fields: keys sorted sig, phone_id, issued_at_s, expires_at_s",
                     input: .object(certFields(c) + [("sig", .bytes(c.signature))])) { $0["cert"] == .bytes(c.encoded) }
        let huge = try PhoneOwnershipCert(phoneID: c.phoneID, issuedAt: 0, expiresAt: UInt64.max, signature: c.signature)
        try b.output("valid/extreme-times", "cert_encode", "issued_at_s 0 and expires_at_s 2^64-1 (a decimal string in JSON): one-byte and nine-byte heads",
                     input: .object(certFields(huge) + [("sig", .bytes(c.signature))])) { $0["signed_message"] == .bytes(huge.signedMessage) }
        try b.error("invalid/phone-id-33-bytes", "cert_encode", "a phone_id of 33 bytes",
                    input: .object([("phone_id", .bytes(c.phoneID + [0])), ("issued_at_s", .unsigned(c.issuedAt)), ("expires_at_s", .unsigned(c.expiresAt)), ("sig", .bytes(c.signature))]),
                    .signinBadLength)
        try b.error("invalid/sig-3372-bytes", "cert_encode", "a signature one byte short of 3,373",
                    input: .object(certFields(c) + [("sig", .bytes(Array(c.signature.dropLast())))]), .signinBadLength)
        try b.error("invalid/expires-negative", "cert_encode", "expires_at_s -1 in the input",
                    input: .object([("phone_id", .bytes(c.phoneID)), ("issued_at_s", .unsigned(c.issuedAt)), ("expires_at_s", .int(-1)), ("sig", .bytes(c.signature))]),
                    .inputBadType)
        try b.error("invalid/sig-missing", "cert_encode", "no sig in the input", input: .object(certFields(c)), .inputMissingField)

        // cert_decode
        for (name, cert, comment) in [("request-cert", f.requestCert, "the requester's certificate"), ("extreme-times", huge, "issued_at_s 0, expires_at_s 2^64-1")] {
            try b.output("valid/\(name)", "cert_decode", comment, input: .object([("cert", .bytes(cert.encoded))])) { $0 == cert.tree }
        }
        try malformed(&b, op: "cert_decode", field: "cert",
                      MalformedEncodings(tree: c.tree, tag: nil, members: [("phone_id", .bytes(32)), ("issued_at_s", .unsigned), ("expires_at_s", .unsigned),
                                                                           ("sig", .bytes(HybridSignature.byteCount))]))

        // cert_verify
        let now = f.now
        func verifyOK(_ id: String, _ comment: String, _ cert: [UInt8], pinned: [UInt8]? = f.pinned, now: UInt64) throws {
            try b.output(id, "cert_verify", comment, input: verifyInput(cert, pinned: pinned, now: now)) { $0["phone_id"] != nil }
        }
        func verifyFail(_ id: String, _ comment: String, _ cert: [UInt8], pinned: [UInt8]? = f.pinned, now: UInt64, _ code: ErrorCode) throws {
            try b.error(id, "cert_verify", comment, input: verifyInput(cert, pinned: pinned, now: now), code)
        }
        try verifyOK("valid/request-cert", "both halves verify under the pinned key; not expired", c.encoded, now: now)
        try verifyOK("valid/one-second-before-expiry", "now = expires_at_s - 1: still valid", c.encoded, now: c.expiresAt - 1)
        try verifyOK("valid/own-cert", "the sibling's own certificate", f.ownCert.encoded, now: now)
        try verifyFail("expiry/at-expiry", "now = expires_at_s: expired (valid only while now < expires_at_s)", c.encoded, now: c.expiresAt, .signinCertExpired)
        try verifyFail("expiry/one-second-after", "now = expires_at_s + 1", c.encoded, now: c.expiresAt + 1, .signinCertExpired)
        try verifyFail("expiry/long-expired", "a certificate that expired 35 days ago", f.ownCertExpired.encoded, now: now, .signinCertExpired)
        try verifyFail("key/none-pinned", "no phone-verify key pinned: a valid certificate is still refused", c.encoded, pinned: nil, now: now, .signinNoPinnedKey)
        try verifyFail("key/none-pinned-and-malformed", "no key pinned and the certificate truncated: the missing key is reported first",
                       Array(c.encoded.prefix(100)), pinned: nil, now: now, .signinNoPinnedKey)
        try b.error("key/pinned-wrong-length", "cert_verify", "a pinned key of 1,983 bytes is not a phone-verify key",
                    input: verifyInput(c.encoded, pinned: Array(f.pinned.dropLast()), now: now), .inputBadLength)
        for (id, comment, cert, pinned, code) in try signatureFailures(f) {
            try verifyFail("signature/\(id)", comment, cert, pinned: pinned, now: now, code)
        }
        try verifyFail("signature/expired-and-mldsa-broken", "expired and the ML-DSA half broken: the signature is checked before expiry",
                       try f.requestCert(signature: SignInFixtures.flip(c.signature, at: 64 + 1_000)).encoded, now: c.expiresAt, .signinCertMLDSAInvalid)
        try verifyFail("malformed/truncated", "the certificate cut in half", Array(c.encoded.prefix(c.encoded.count / 2)), now: now, .signinCertMalformed)
        try verifyFail("malformed/empty", "zero bytes", [], now: now, .signinCertMalformed)
        try verifyFail("malformed/sig-short", "a signature of 3,372 bytes inside an otherwise canonical certificate",
                       CBORWriter.encode(MalformedEncodings(tree: c.tree, tag: nil, members: []).replacing("sig", with: .bytes(Array(c.signature.dropLast())))),
                       now: now, .signinCertMalformed)
    }

    /// The rung-2 signature failures shared by `cert_verify` and `ladder`: (name, comment, cert bytes, pinned key, code).
    static func signatureFailures(_ f: SignInFixtures) throws -> [(String, String, [UInt8], [UInt8], ErrorCode)] {
        let c = f.requestCert
        var noPoint = f.pinned
        noPoint.replaceSubrange(0..<32, with: Ed25519EdgeGenerator.notAPoint)  // y = 2: no x satisfies the curve equation
        var phoneSwapped = c
        phoneSwapped.phoneID = f.otherPhoneID
        return [
            ("ed25519-half-bit-flipped", "one bit of the Ed25519 half flipped (byte 10); the ML-DSA half is valid",
             try f.requestCert(signature: SignInFixtures.flip(c.signature, at: 10)).encoded, f.pinned, .signinCertEd25519Invalid),
            ("mldsa-half-bit-flipped", "one bit of the ML-DSA half flipped (byte 64 + 1,000); the Ed25519 half is valid",
             try f.requestCert(signature: SignInFixtures.flip(c.signature, at: 64 + 1_000)).encoded, f.pinned, .signinCertMLDSAInvalid),
            ("mldsa-half-from-other-key", "a valid Ed25519 half, and an ML-DSA half that is valid under another key (what an attacker who broke only Ed25519 could send)",
             try f.requestCert(signature: SignInFixtures.splice(ed: c.signature, mldsa: f.otherSignature)).encoded, f.pinned, .signinCertMLDSAInvalid),
            ("ed25519-half-from-other-key", "a valid ML-DSA half, and an Ed25519 half valid under another key",
             try f.requestCert(signature: SignInFixtures.splice(ed: f.otherSignature, mldsa: c.signature)).encoded, f.pinned, .signinCertEd25519Invalid),
            ("last-byte-of-mldsa-half", "the last byte of the signature (inside the ML-DSA hint encoding) flipped",
             try f.requestCert(signature: SignInFixtures.flip(c.signature, at: HybridSignature.byteCount - 1)).encoded, f.pinned, .signinCertMLDSAInvalid),
            ("signed-by-other-key", "both halves valid under another key, not the pinned one", try f.requestCert(signature: f.otherSignature).encoded, f.pinned, .signinCertBothInvalid),
            ("pinned-other-key", "a genuine certificate checked against a different pinned key", c.encoded, f.otherPinned, .signinCertBothInvalid),
            ("pinned-mldsa-half-other", "the pinned key's ML-DSA half belongs to another key; its Ed25519 half is right",
             c.encoded, Array(f.pinned.prefix(32)) + Array(f.otherPinned.dropFirst(32)), .signinCertMLDSAInvalid),
            ("pinned-ed25519-not-a-point", "the pinned key's Ed25519 half is 02 00…00 (y = 2 is not on the curve), so no Ed25519 signature verifies under it",
             c.encoded, noPoint, .signinCertEd25519Invalid),
            ("phone-id-changed-after-signing", "the phone_id replaced by another number's after signing: neither half covers it", phoneSwapped.encoded, f.pinned, .signinCertBothInvalid),
            ("signed-without-domain", "both halves over CBOR(fields) without the \"pixie-phone-ownership-cert-v1\" 00 prefix",
             try f.requestCert(signature: f.noDomainSignature).encoded, f.pinned, .signinCertBothInvalid),
            ("zero-signature", "a signature of 3,373 zero bytes", try f.requestCert(signature: Array(repeating: 0, count: HybridSignature.byteCount)).encoded, f.pinned, .signinCertBothInvalid),
        ]
    }

    // MARK: discovery lookup

    static func lookupCases(_ b: inout Builder, _ f: SignInFixtures) throws {
        let l = try DiscoveryLookupResponse(inbox: f.inbox, xwingPublicKey: f.xwing)
        try b.output("valid/typical", "lookup_encode", "a 32-byte inbox and a 1,216-byte X-Wing key", input: l.tree) { $0["encoded"] == .bytes(l.encoded) }
        try b.error("invalid/inbox-31-bytes", "lookup_encode", "an inbox of 31 bytes", input: .object([("discovery_inbox", .bytes(Array(f.inbox.dropLast()))), ("discovery_xwing_pubkey", .bytes(f.xwing))]), .signinBadLength)
        try b.error("invalid/xwing-1217-bytes", "lookup_encode", "an X-Wing key of 1,217 bytes", input: .object([("discovery_inbox", .bytes(f.inbox)), ("discovery_xwing_pubkey", .bytes(f.xwing + [0]))]), .signinBadLength)
        try b.error("invalid/inbox-missing", "lookup_encode", "no discovery_inbox in the input", input: .object([("discovery_xwing_pubkey", .bytes(f.xwing))]), .inputMissingField)
        try b.output("valid/typical", "lookup_decode", "the typical response", input: .object([("encoded", .bytes(l.encoded))])) { $0 == l.tree }
        try malformed(&b, op: "lookup_decode", MalformedEncodings(tree: l.tree, tag: nil, members: [("discovery_inbox", .bytes(32)), ("discovery_xwing_pubkey", .bytes(1216))]))
    }

    // MARK: signin_request

    static func requestInput(_ r: SignInRequest) -> CBOR { SignInOutput.request(r) }

    static func requestCases(_ b: inout Builder, _ f: SignInFixtures) throws {
        let r = try f.request(cert: f.requestCert.encoded, timestamp: f.now)
        try b.output("valid/typical", "request_encode", "device model, reply subject, X-Wing key, timestamp, certificate",
                     input: requestInput(r)) { $0["encoded"] == .bytes(r.encoded) }
        var variants: [(String, String, SignInRequest)] = []
        var u = r; u.deviceModel = "Pixel 9 Pro — Zoë"
        variants.append(("unicode-model", "a device model with non-ASCII characters: UTF-8 as given, no normalisation", u))
        var m64 = r; m64.deviceModel = String(repeating: "M", count: 64)
        variants.append(("model-64-bytes", "a device model of exactly 64 UTF-8 bytes, the limit", m64))
        var m1 = r; m1.deviceModel = "X"
        variants.append(("model-1-byte", "a one-byte device model", m1))
        var t0 = r; t0.timestamp = 0
        variants.append(("timestamp-zero", "timestamp_s 0", t0))
        var tmax = r; tmax.timestamp = UInt64.max
        variants.append(("timestamp-max", "timestamp_s 2^64-1 (a decimal string in JSON)", tmax))
        var opaque = r; opaque.cert = [0xde, 0xad]
        variants.append(("cert-opaque", "a cert of two arbitrary bytes: the request does not look inside it", opaque))
        for (name, comment, v) in variants {
            try b.output("valid/\(name)", "request_encode", comment, input: requestInput(v)) { $0["encoded"] == .bytes(v.encoded) }
        }
        func bad(_ name: String, _ comment: String, _ field: String, _ v: CBOR?, _ code: ErrorCode) throws {
            try b.error("invalid/\(name)", "request_encode", comment, input: MalformedEncodings.replacing(requestInput(r), field, with: v), code)
        }
        try bad("model-65-bytes", "a device model of 65 UTF-8 bytes", "device_model", .text(String(repeating: "M", count: 65)), .signinBadLength)
        try bad("model-empty", "an empty device model", "device_model", .text(""), .signinBadLength)
        try bad("model-63-chars-65-bytes", "63 characters but 65 UTF-8 bytes (two of them are é): the limit counts bytes",
                "device_model", .text("éé" + String(repeating: "M", count: 61)), .signinBadLength)
        try bad("reply-subject-31-bytes", "a reply subject of 31 bytes", "reply_subject", .bytes(Array(f.replySubject.dropLast())), .signinBadLength)
        try bad("xwing-1215-bytes", "an X-Wing key of 1,215 bytes", "xwing_pubkey", .bytes(Array(f.xwing.dropLast())), .signinBadLength)
        try bad("timestamp-string-not-digits", "timestamp_s as the string \"soon\"", "timestamp_s", .text("soon"), .inputBadType)
        try bad("cert-missing", "no cert in the input", "cert", nil, .inputMissingField)
        // Two problems each: an encoder reads every input member before it applies the message
        // rules (§8.9), so an input_* problem reported anywhere beats a signin_* one earlier.
        try b.error("order/input-before-rule", "request_encode", "a device model of 65 bytes (a message rule) and no cert (an input problem, later in the table): input_missing_field, not signin_bad_length",
                    flags: ["order"],
                    input: MalformedEncodings.replacing(MalformedEncodings.replacing(requestInput(r), "device_model", with: .text(String(repeating: "M", count: 65))), "cert", with: nil),
                    .inputMissingField)

        for (name, comment, v) in [("typical", "the typical request", r)] + variants {
            try b.output("valid/\(name)", "request_decode", comment, input: .object([("encoded", .bytes(v.encoded))])) { $0 == SignInOutput.request(v) }
        }
        try malformed(&b, op: "request_decode", requestMalformations(r))
    }

    static func requestMalformations(_ r: SignInRequest) -> MalformedEncodings {
        MalformedEncodings(tree: r.tree, tag: .signinRequest,
                           members: [("device_model", .text(SignInRequest.deviceModelUTF8Length)), ("reply_subject", .bytes(32)),
                                     ("xwing_pubkey", .bytes(1216)), ("timestamp_s", .unsigned), ("cert", .blob)])
    }

    // MARK: the ladder

    static func ladderCases(_ b: inout Builder, _ f: SignInFixtures) throws {
        let now = f.now
        let own = f.ownCert.encoded
        let good = try f.request(cert: f.requestCert.encoded, timestamp: now).encoded
        func req(_ cert: PhoneOwnershipCert, at ts: UInt64) throws -> [UInt8] { try f.request(cert: cert.encoded, timestamp: ts).encoded }
        func reqBytes(_ cert: [UInt8], at ts: UInt64) throws -> [UInt8] { try f.request(cert: cert, timestamp: ts).encoded }

        // Accepts.
        try b.ladder("accept/typical", "every rung passes: a genuine certificate for this device's own number, made now", request: good, pinned: f.pinned, own: own, now: now, drop: nil)
        try b.ladder("accept/timestamp-minus-120", "timestamp_s = now - 120: the window is inclusive", request: try req(f.requestCert, at: now - 120), pinned: f.pinned, own: own, now: now, drop: nil)
        try b.ladder("accept/timestamp-plus-120", "timestamp_s = now + 120: the window is inclusive", request: try req(f.requestCert, at: now + 120), pinned: f.pinned, own: own, now: now, drop: nil)
        let last = f.requestCert.expiresAt - 1
        try b.ladder("accept/cert-one-second-before-expiry", "now = the request certificate's expires_at_s - 1",
                     request: try req(f.requestCert, at: last), pinned: f.pinned, own: own, now: last, drop: nil)
        try b.ladder("accept/own-cert-expired", "this device's own cached certificate has expired: rung 3 only needs it to decode, rung 4 reads its phone_id",
                     request: good, pinned: f.pinned, own: f.ownCertExpired.encoded, now: now, drop: nil)
        try b.ladder("accept/own-cert-is-the-request-cert", "the sibling's own cert is byte-identical to the requester's: nothing forbids it",
                     request: good, pinned: f.pinned, own: f.requestCert.encoded, now: now, drop: nil)

        // Rung 1: does not decode as a signin_request; everything else would pass.
        let rung1Names: Set<String> = ["truncated-at-0", "truncated-at-1", "truncated-at-\(good.count / 2)", "truncated-at-\(good.count - 1)", "trailing-zero-byte",
                                       "map-head-not-shortest", "keys-unsorted", "key-repeated", "timestamp_s-head-not-shortest", "device_model-invalid-utf8",
                                       "top-level-array", "unknown-member", "type-missing", "type-signin_ack", "type-signin_approval", "type-sync-request",
                                       "cert-missing", "cert-as-map", "reply_subject-31-bytes", "xwing_pubkey-1217-bytes", "timestamp_s-negative", "device_model-65-bytes"]
        let m = requestMalformations(try SignInRequest.decode(good))
        var seen = 0
        for v in m.variants where rung1Names.contains(v.name) {
            seen += 1
            try b.ladder("rung1/\(v.name)", "does not decode as a signin_request: \(v.comment); the certificate inside is genuine",
                         request: v.bytes, pinned: f.pinned, own: own, now: now, drop: (1, v.code))
        }
        try check(seen == rung1Names.count, "every named rung-1 malformation exists (\(seen) of \(rung1Names.count))")
        let ack = try SignInAck(deviceFamily: "iPhone").encoded
        try b.ladder("rung1/an-ack", "a whole signin_ack payload posted to the inbox", request: ack, pinned: f.pinned, own: own, now: now, drop: (1, .signinWrongPayloadType))

        // Rung 2: the certificate.
        try b.ladder("rung2/no-pinned-key", "no phone-verify key pinned; the request would pass every other rung",
                     request: good, pinned: nil, own: own, now: now, drop: (2, .signinNoPinnedKey))
        for (id, comment, cert, pinned, code) in try signatureFailures(f) {
            try b.ladder("rung2/\(id)", comment + "; phone_id, own cert and timestamp would pass",
                         request: try reqBytes(cert, at: now), pinned: pinned, own: own, now: now, drop: (2, code))
        }
        let exp = f.requestCert.expiresAt
        try b.ladder("rung2/expired-at-expiry", "now = expires_at_s: expired; the timestamp equals now",
                     request: try req(f.requestCert, at: exp), pinned: f.pinned, own: own, now: exp, drop: (2, .signinCertExpired))
        try b.ladder("rung2/expired-one-second-after", "now = expires_at_s + 1", request: try req(f.requestCert, at: exp + 1), pinned: f.pinned, own: own, now: exp + 1,
                     drop: (2, .signinCertExpired))
        try b.ladder("rung2/expired-long-ago", "a request certificate that expired 35 days ago", request: try req(f.ownCertExpired, at: now), pinned: f.pinned, own: own, now: now,
                     drop: (2, .signinCertExpired))
        try b.ladder("rung2/expired-and-mldsa-broken", "expired and the ML-DSA half broken: the signature is checked first",
                     request: try reqBytes(try f.requestCert(signature: SignInFixtures.flip(f.requestCert.signature, at: 2_000)).encoded, at: exp),
                     pinned: f.pinned, own: own, now: exp, drop: (2, .signinCertMLDSAInvalid))
        try b.ladder("rung2/cert-truncated", "the embedded certificate cut to 100 bytes", request: try reqBytes(Array(f.requestCert.encoded.prefix(100)), at: now),
                     pinned: f.pinned, own: own, now: now, drop: (2, .signinCertMalformed))
        try b.ladder("rung2/cert-empty", "an empty certificate", request: try reqBytes([], at: now), pinned: f.pinned, own: own, now: now, drop: (2, .signinCertMalformed))
        try b.ladder("rung2/cert-trailing-byte", "a genuine certificate followed by one 00 byte", request: try reqBytes(f.requestCert.encoded + [0], at: now),
                     pinned: f.pinned, own: own, now: now, drop: (2, .signinCertMalformed))
        try b.ladder("rung2/no-pinned-key-and-cert-malformed", "no key pinned and the certificate empty: the missing key is reported first",
                     request: try reqBytes([], at: now), pinned: nil, own: own, now: now, drop: (2, .signinNoPinnedKey))
        try b.ladder("rung2/mldsa-broken-and-phone-mismatch", "ML-DSA half broken and a different number: rung 2 comes first",
                     request: try reqBytes(try PhoneOwnershipCert(phoneID: f.requestCertOtherNumber.phoneID, issuedAt: f.requestCertOtherNumber.issuedAt,
                                                                  expiresAt: f.requestCertOtherNumber.expiresAt,
                                                                  signature: SignInFixtures.flip(f.requestCertOtherNumber.signature, at: 3_000)).encoded, at: now),
                     pinned: f.pinned, own: own, now: now, drop: (2, .signinCertMLDSAInvalid))

        // Rung 3: this device's own certificate.
        try b.ladder("rung3/no-own-cert", "this device has no cached certificate of its own; the request is otherwise perfect",
                     request: good, pinned: f.pinned, own: nil, now: now, drop: (3, .signinNoOwnCert))
        try b.ladder("rung3/own-cert-truncated", "this device's cached certificate does not decode", request: good, pinned: f.pinned,
                     own: Array(own.prefix(own.count - 1)), now: now, drop: (3, .signinOwnCertMalformed))
        try b.ladder("rung3/own-cert-empty", "this device's cached certificate is zero bytes", request: good, pinned: f.pinned, own: [], now: now, drop: (3, .signinOwnCertMalformed))
        try b.ladder("rung3/no-own-cert-and-timestamp-out", "no own certificate and the timestamp 121 s old: rung 3 comes first",
                     request: try req(f.requestCert, at: now - 121), pinned: f.pinned, own: nil, now: now, drop: (3, .signinNoOwnCert))

        // Rung 4: phone ids.
        try b.ladder("rung4/phone-id-last-byte", "a genuine certificate for a phone_id differing in its last byte; timestamp in window",
                     request: try req(f.requestCertLastByte, at: now), pinned: f.pinned, own: own, now: now, drop: (4, .signinPhoneIDMismatch))
        try b.ladder("rung4/phone-id-first-byte", "a genuine certificate for a phone_id differing in the top bit of its first byte",
                     request: try req(f.requestCertFirstByte, at: now), pinned: f.pinned, own: own, now: now, drop: (4, .signinPhoneIDMismatch))
        try b.ladder("rung4/other-number", "a genuine certificate for another number (+15555550199): someone who resolved the inbox",
                     request: try req(f.requestCertOtherNumber, at: now), pinned: f.pinned, own: own, now: now, drop: (4, .signinPhoneIDMismatch))
        try b.ladder("rung4/own-cert-other-number", "the roles reversed: this device's own certificate is for the other number",
                     request: good, pinned: f.pinned, own: f.requestCertOtherNumber.encoded, now: now, drop: (4, .signinPhoneIDMismatch))
        try b.ladder("rung4/mismatch-and-timestamp-out", "a different number and a timestamp 121 s in the future: rung 4 comes first",
                     request: try req(f.requestCertOtherNumber, at: now + 121), pinned: f.pinned, own: own, now: now, drop: (4, .signinPhoneIDMismatch))

        // Rung 5: the clock.
        try b.ladder("rung5/timestamp-minus-121", "timestamp_s = now - 121", request: try req(f.requestCert, at: now - 121), pinned: f.pinned, own: own, now: now,
                     drop: (5, .signinTimestampTooOld))
        try b.ladder("rung5/timestamp-plus-121", "timestamp_s = now + 121", request: try req(f.requestCert, at: now + 121), pinned: f.pinned, own: own, now: now,
                     drop: (5, .signinTimestampTooNew))
        try b.ladder("rung5/timestamp-zero", "timestamp_s = 0 (a replayed or clockless request)", request: try req(f.requestCert, at: 0), pinned: f.pinned, own: own, now: now,
                     drop: (5, .signinTimestampTooOld))
        try b.ladder("rung5/timestamp-max", "timestamp_s = 2^64-1: the difference must be computed without overflow",
                     request: try req(f.requestCert, at: UInt64.max), pinned: f.pinned, own: own, now: now, drop: (5, .signinTimestampTooNew))
        try b.ladder("rung5/timestamp-one-day-old", "a request captured a day ago and replayed", request: try req(f.requestCert, at: now - SignInFixtures.day),
                     pinned: f.pinned, own: own, now: now, drop: (5, .signinTimestampTooOld))

        // Input errors (not drops): the op cannot run.
        try b.error("input/pinned-key-wrong-length", "ladder", "a pinned key of 1,985 bytes",
                    input: .object([("request", .bytes(good)), ("pinned_key", .bytes(f.pinned + [0])), ("own_cert", .bytes(own)), ("now_s", .unsigned(now))]), .inputBadLength)
        try b.error("input/own-cert-missing-member", "ladder", "own_cert absent from the input (none is written null)",
                    input: .object([("request", .bytes(good)), ("pinned_key", .bytes(f.pinned)), ("now_s", .unsigned(now))]), .inputMissingField)
        try b.error("input/now-negative", "ladder", "now_s -1",
                    input: .object([("request", .bytes(good)), ("pinned_key", .bytes(f.pinned)), ("own_cert", .bytes(own)), ("now_s", .int(-1))]), .inputBadType)
    }

    // MARK: signin_ack

    static func ackCases(_ b: inout Builder) throws {
        for (name, family) in [("iphone", "iPhone"), ("mac", "Mac"), ("max-32-bytes", String(repeating: "F", count: 32)), ("unicode", "Pixel — Zoë")] {
            let a = try SignInAck(deviceFamily: family)
            try b.output("valid/\(name)", "ack_encode", "device family \(family)", input: SignInOutput.ack(a)) { $0["encoded"] == .bytes(a.encoded) }
            try b.output("valid/\(name)", "ack_decode", "device family \(family)", input: .object([("encoded", .bytes(a.encoded))])) { $0 == SignInOutput.ack(a) }
        }
        try b.error("invalid/family-33-bytes", "ack_encode", "a device family of 33 bytes", input: .object([("device_family", .text(String(repeating: "F", count: 33)))]), .signinBadLength)
        try b.error("invalid/family-empty", "ack_encode", "an empty device family", input: .object([("device_family", .text(""))]), .signinBadLength)
        try b.error("invalid/family-number", "ack_encode", "device_family as a number", input: .object([("device_family", .unsigned(1))]), .inputBadType)
        try malformed(&b, op: "ack_decode", MalformedEncodings(tree: try SignInAck(deviceFamily: "iPhone").tree, tag: .signinAck,
                                                               members: [("device_family", .text(SignInAck.deviceFamilyUTF8Length))]))
    }

    // MARK: signin_approval

    static func approvalCases(_ b: inout Builder) throws {
        var g = SeededGenerator(seed: 0x5167_0002)
        let mintedAt = SignInFixtures.base + 700
        let grant = try DeviceGrant.minted(token: g.bytes(32), at: mintedAt)
        try check(grant.expiresAt == mintedAt + 180, "three-minute grant")
        let approve = SignInApproval(approved: try .init(grant: grant, accountSeed: g.bytes(32), ktHandle: g.bytes(32)))
        let reject = SignInApproval(approved: nil)

        try b.output("valid/approve", "approval_encode", "Approve: the grant (expires_at_s = minting + 180), the account signing seed and the KT handle",
                     input: SignInOutput.approval(approve)) { $0["encoded"] == .bytes(approve.encoded) }
        try b.output("valid/reject", "approval_encode", "Reject: only the payload tag; no grant, no seed, no KT handle",
                     input: SignInOutput.approval(reject)) { $0["encoded"] == .bytes(CBORWriter.encode(.object([("type", .text("signin_approval"))]))) }
        guard case .map(let full) = SignInOutput.approval(approve) else { return }
        func partial(_ keep: Set<String>) -> CBOR {
            .map(full.map { e in
                guard case .text(let k) = e.key, !keep.contains(k) else { return e }
                return CBORMapEntry(key: e.key, value: .null)
            })
        }
        try b.error("invalid/grant-only", "approval_encode", "a grant without seed or KT handle", input: partial(["grant"]), .signinApprovalPartial)
        try b.error("invalid/seed-without-grant", "approval_encode", "a seed and KT handle without a grant", input: partial(["account_seed", "kt_handle"]), .signinApprovalPartial)
        guard case .map(var withShortSeed) = SignInOutput.approval(approve) else { return }
        withShortSeed[1].value = .bytes(Array(repeating: 1, count: 31))
        try b.error("invalid/seed-31-bytes", "approval_encode", "an account seed of 31 bytes", input: .map(withShortSeed), .signinBadLength)
        // §8.9: an encoder reads every input member before it applies the message rules.
        guard case .map(var shortTokenNoHandle) = SignInOutput.approval(approve) else { return }
        shortTokenNoHandle[0].value = .object([("token", .bytes(Array(repeating: 1, count: 31))), ("expires_at_s", .unsigned(grant.expiresAt))])
        shortTokenNoHandle.removeAll { $0.key == .text("kt_handle") }
        try b.error("order/input-before-rule", "approval_encode", "a grant token of 31 bytes (a message rule) and no kt_handle member at all (an input problem, later in the table): input_missing_field, not signin_bad_length",
                    flags: ["order"], input: .map(shortTokenNoHandle), .inputMissingField)

        for (name, a, comment) in [("approve", approve, "an approval with its grant"), ("reject", reject, "a rejection: grant, account_seed and kt_handle are null")] {
            try b.output("valid/\(name)", "approval_decode", comment, input: .object([("encoded", .bytes(a.encoded))])) { $0 == SignInOutput.approval(a) }
        }
        let m = MalformedEncodings(tree: approve.tree, tag: .signinApproval,
                                   members: [("grant", .map), ("account_seed", .bytes(32)), ("kt_handle", .bytes(32))])
        // Removing one of the three leaves the other two: partial, not a missing member.
        try malformed(&b, op: "approval_decode", m, override: ["grant-missing": .signinApprovalPartial, "account_seed-missing": .signinApprovalPartial,
                                                              "kt_handle-missing": .signinApprovalPartial])
        let gm = MalformedEncodings(tree: grant.tree, tag: nil, members: [])
        let nested: [(String, String, CBOR, ErrorCode)] = [
            ("grant-token-missing", "the grant has no token", gm.replacing("token", with: nil), .signinMissingField),
            ("grant-expires-missing", "the grant has no expires_at_s", gm.replacing("expires_at_s", with: nil), .signinMissingField),
            ("grant-token-31-bytes", "a grant token of 31 bytes", gm.replacing("token", with: .bytes(Array(grant.token.dropLast()))), .signinBadLength),
            ("grant-expires-negative", "grant expires_at_s -1", gm.replacing("expires_at_s", with: .negative(0)), .signinBadType),
            ("grant-unknown-member", "the grant carries an extra member", gm.replacing("issued_at_s", with: .unsigned(mintedAt)), .signinUnknownField),
            ("grant-integer-key", "a grant map keyed by integers", .map([(CBOR.unsigned(0), CBOR.bytes(grant.token)), (CBOR.unsigned(1), CBOR.unsigned(grant.expiresAt))]), .signinBadType),
        ]
        for (name, comment, g2, code) in nested {
            try b.error("malformed/\(name)", "approval_decode", comment, flags: ["malformed"],
                        input: .object([("encoded", .bytes(CBORWriter.encode(m.replacing("grant", with: g2))))]), code)
        }
        try b.error("malformed/reject-with-seed", "approval_decode", "a rejection that still carries the account seed (no grant, no KT handle)",
                    flags: ["malformed"], input: .object([("encoded", .bytes(CBORWriter.encode(.object([("type", .text("signin_approval")), ("account_seed", .bytes(approve.approved!.accountSeed))]))))]),
                    .signinApprovalPartial)
        // Two problems each: which code is reported is decided by the order §8.8 states.
        // The grant's inner checks belong to member 1, so they come before account_seed's type.
        try b.error("order/grant-inner-before-seed", "approval_decode", "a grant without its token beside an account seed given as text: the grant is checked first (signin_missing_field, not signin_bad_type)",
                    flags: ["malformed", "order"],
                    input: .object([("encoded", .bytes(CBORWriter.encode(MalformedEncodings.replacing(m.replacing("grant", with: gm.replacing("token", with: nil)),
                                                                                                     "account_seed", with: .text("x")))))]),
                    .signinMissingField)
        // §8.2 step 4 (unknown members) runs before the three-member count.
        try b.error("order/unknown-before-partial", "approval_decode", "a grant alone (no seed, no KT handle) plus a member zz this version does not define: step 4 reports the unknown member before the partial count",
                    flags: ["malformed", "order"],
                    input: .object([("encoded", .bytes(CBORWriter.encode(MalformedEncodings.replacing(MalformedEncodings.replacing(m.replacing("account_seed", with: nil), "kt_handle", with: nil),
                                                                                                     "zz", with: .unsigned(1)))))]),
                    .signinUnknownField)

        // approval_admits
        func admits(_ id: String, _ comment: String, _ a: SignInApproval, now: UInt64, _ reason: ErrorCode?) throws {
            try b.output(id, "approval_admits", comment, input: .object([("approval", .bytes(a.encoded)), ("now_s", .unsigned(now))])) { $0 == SignInOutput.admits(reason) }
        }
        try admits("approve/at-minting", "the grant at the second it was minted", approve, now: mintedAt, nil)
        try admits("approve/179-seconds", "179 s after minting: one second left", approve, now: mintedAt + 179, nil)
        try admits("approve/180-seconds", "180 s after minting = expires_at_s: expired", approve, now: mintedAt + 180, .signinGrantExpired)
        try admits("approve/181-seconds", "181 s after minting", approve, now: mintedAt + 181, .signinGrantExpired)
        try admits("approve/before-minting", "a device clock behind the server's: still admits (only expiry is checked)", approve, now: mintedAt - 3_600, nil)
        try admits("reject/at-once", "a rejection never admits", reject, now: mintedAt, .signinApprovalRejected)
        try admits("reject/much-later", "a rejection never admits, at any time", reject, now: mintedAt + 1_000_000, .signinApprovalRejected)
        try admits("reject/at-zero", "a rejection never admits, even at time 0", reject, now: 0, .signinApprovalRejected)
        try b.error("malformed/grant-null", "approval_admits", "grant null beside a seed and KT handle: does not decode, so never admits",
                    input: .object([("approval", .bytes(CBORWriter.encode(m.replacing("grant", with: .null)))), ("now_s", .unsigned(mintedAt))]), .signinBadType)
        try b.error("malformed/grant-only", "approval_admits", "a grant without the seed and KT handle: does not decode, so never admits",
                    input: .object([("approval", .bytes(CBORWriter.encode(MalformedEncodings.replacing(m.replacing("account_seed", with: nil), "kt_handle", with: nil)))), ("now_s", .unsigned(mintedAt))]),
                    .signinApprovalPartial)
        // §8.9: approval_admits decodes approval as soon as it reads it, before it reads now_s.
        try b.error("order/decode-before-now", "approval_admits", "a grant-only approval (signin_approval_partial) and no now_s (input_missing_field): the approval is decoded first",
                    flags: ["order"],
                    input: .object([("approval", .bytes(CBORWriter.encode(MalformedEncodings.replacing(m.replacing("account_seed", with: nil), "kt_handle", with: nil))))]),
                    .signinApprovalPartial)
        try b.error("malformed/an-ack", "approval_admits", "a signin_ack where an approval is expected",
                    input: .object([("approval", .bytes(try SignInAck(deviceFamily: "iPhone").encoded)), ("now_s", .unsigned(mintedAt))]), .signinWrongPayloadType)
    }
}

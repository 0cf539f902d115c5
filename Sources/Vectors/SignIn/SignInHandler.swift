import Primitives

/// The reference `signin` format as the runner drives it (SPEC.md §8.9).
public struct SignInHandler: FormatHandler {
    public init() {}

    public var format: String { "signin" }
    public var ops: [String] {
        ["phone_id", "cert_issue", "cert_encode", "cert_decode", "cert_verify", "lookup_encode", "lookup_decode",
         "request_encode", "request_decode", "ladder", "ack_encode", "ack_decode", "approval_encode", "approval_decode",
         "approval_admits"]
    }

    public func generate() throws -> VectorFile { try SignInVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        try output(op: op, input: input).json
    }

    func output(op: String, input: JSONValue) throws(WireError) -> CBOR {
        switch op {
        case "phone_id":
            return SignInOutput.phoneID(try PhoneID.derive(e164: try SignInInput.text(input, "e164")))
        case "cert_issue":
            let s = try Input.member(input, "signer", path: "")
            let signer = try PhoneVerifyKey.Signer(ed25519Seed: try SignInInput.hex(try Input.member(s, "ed25519_seed", path: "signer"), path: "signer.ed25519_seed"),
                                                   mldsaSeed: try SignInInput.hex(try Input.member(s, "mldsa_seed", path: "signer"), path: "signer.mldsa_seed"))
            let cert = try PhoneOwnershipCert.issue(phoneID: try bytes(input, "phone_id"), issuedAt: try SignInInput.unsigned(input, "issued_at_s"),
                                                    expiresAt: try SignInInput.unsigned(input, "expires_at_s"), signer: signer)
            return SignInOutput.issued(cert, publicKey: signer.publicKeyBytes)
        case "cert_encode":
            let cert = try PhoneOwnershipCert(phoneID: try bytes(input, "phone_id"), issuedAt: try SignInInput.unsigned(input, "issued_at_s"),
                                              expiresAt: try SignInInput.unsigned(input, "expires_at_s"), signature: try bytes(input, "sig"))
            return SignInOutput.certEncoded(cert)
        case "cert_decode":
            return SignInOutput.cert(try PhoneOwnershipCert.decode(try bytes(input, "cert")))
        case "cert_verify":
            // R8.9-3: in the table's order, cert first (the input-order cases found pinned_key read first).
            let certBytes = try bytes(input, "cert")
            let key = try SignInInput.pinnedKey(input)
            let cert = try PhoneOwnershipCert.verify(certBytes, pinnedKey: key, now: try SignInInput.unsigned(input, "now_s"))
            return SignInOutput.verified(cert)
        case "lookup_encode":
            return SignInOutput.encoded(try DiscoveryLookupResponse(inbox: try bytes(input, "discovery_inbox"),
                                                                    xwingPublicKey: try bytes(input, "discovery_xwing_pubkey")).encoded)
        case "lookup_decode":
            return SignInOutput.lookup(try DiscoveryLookupResponse.decode(try bytes(input, "encoded")))
        case "request_encode":
            let r = try SignInRequest(deviceModel: try SignInInput.text(input, "device_model"),
                                      replySubject: try bytes(input, "reply_subject"), xwingPublicKey: try bytes(input, "xwing_pubkey"),
                                      timestamp: try SignInInput.unsigned(input, "timestamp_s"), cert: try bytes(input, "cert"))
            return SignInOutput.encoded(r.encoded)
        case "request_decode":
            return SignInOutput.request(try SignInRequest.decode(try bytes(input, "encoded")))
        case "ladder":
            let request = try bytes(input, "request")
            let key = try SignInInput.pinnedKey(input)
            let own = try SignInInput.nullableBytes(input, "own_cert")
            return SignInOutput.verdict(SignInLadder.run(request: request, pinnedKey: key, ownCert: own, now: try SignInInput.unsigned(input, "now_s")))
        case "ack_encode":
            return SignInOutput.encoded(try SignInAck(deviceFamily: try SignInInput.text(input, "device_family")).encoded)
        case "ack_decode":
            return SignInOutput.ack(try SignInAck.decode(try bytes(input, "encoded")))
        case "approval_encode":
            return SignInOutput.encoded(try SignInInput.approval(input).encoded)
        case "approval_decode":
            return SignInOutput.approval(try SignInApproval.decode(try bytes(input, "encoded")))
        case "approval_admits":
            let approval = try SignInApproval.decode(try bytes(input, "approval"))
            return SignInOutput.admits(approval.admits(now: try SignInInput.unsigned(input, "now_s")))
        default:
            throw WireError(.unknownOp, "signin has no op \(op)", field: "op")
        }
    }

    func bytes(_ input: JSONValue, _ name: String) throws(WireError) -> [UInt8] {
        try SignInInput.hex(try Input.member(input, name, path: ""), path: name)
    }
}

/// JSON input readers particular to `signin` (§8.9): unsigned seconds, nullable byte strings.
enum SignInInput {
    /// A time or other unsigned member (§8.9, §2.2 rule 3): a JSON integer or a canonical decimal
    /// string, 0 … 2^64 − 1, else `input_bad_type`.
    static func unsigned(_ input: JSONValue, _ name: String, path: String = "") throws(WireError) -> UInt64 {
        let v = try Input.member(input, name, path: path)
        if Mutant.on(.signinLenientIntegers), let n = lenientUnsigned(v) { return n }
        return try Input.uint64(v, path: Input.join(path, name))
    }

    /// What a lenient JSON library reads as a number (mutant only): `1.0`, `"05"`, `"+5"`, `" 5"`, `true`.
    static func lenientUnsigned(_ v: JSONValue) -> UInt64? {
        switch v {
        case .number(let literal): return Double(literal).flatMap { $0 >= 0 && $0 < 18446744073709551616.0 && $0.rounded() == $0 ? UInt64(exactly: $0) : nil }
        case .string(let s): return UInt64(s.trimmingCharacters(in: .whitespaces).drop(while: { $0 == "+" }))
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    /// A byte-string member in hex of either case (§2.2 rule 4).
    static func hex(_ v: JSONValue, path: String) throws(WireError) -> [UInt8] {
        if Mutant.on(.signinHexLowercaseOnly), let s = v.stringValue, s.contains(where: { ("A"..."F").contains($0) }) {
            throw WireError(.inputBadValue, "uppercase hex", field: path)
        }
        return try Input.bytes(v, path: path)
    }

    /// A text member, as given (§2.2 rule 5).
    static func text(_ input: JSONValue, _ name: String) throws(WireError) -> String {
        let s = try Input.text(try Input.member(input, name, path: ""), path: name)
        return Mutant.on(.signinModelNFC) && name == "device_model" ? s.precomposedStringWithCanonicalMapping : s
    }

    /// A member that must be present: `null` (none) or lowercase hex.
    static func nullableBytes(_ input: JSONValue, _ name: String) throws(WireError) -> [UInt8]? {
        guard let v = try Input.nullableMember(input, name, path: "") else { return nil }
        return try hex(v, path: name)
    }

    static func pinnedKey(_ input: JSONValue) throws(WireError) -> PhoneVerifyKey.PublicKey? {
        guard let b = try nullableBytes(input, "pinned_key") else { return nil }
        return try PhoneVerifyKey.PublicKey(bytes: b)
    }

    static func approval(_ input: JSONValue) throws(WireError) -> SignInApproval {
        // R8.9-3: every member read completely (the grant's own members included) before §8.8's
        // all-or-none rule (R8.9-9) or any message rule runs. (Until issue 23's input-before-rules
        // cases, the grant's type was judged after the all-or-none check; the Python
        // implementation, written from SPEC.md alone, read it first.)
        var grantFields: (token: [UInt8], expiresAt: UInt64)?
        if let g = try Input.nullableMember(input, "grant", path: "") {
            _ = try Input.object(g, path: "grant")
            grantFields = (try hex(try Input.member(g, "token", path: "grant"), path: "grant.token"), try unsigned(g, "expires_at_s", path: "grant"))
        }
        let seed = try nullableBytes(input, "account_seed")
        let kt = try nullableBytes(input, "kt_handle")
        let present = [grantFields != nil, seed != nil, kt != nil]
        if present == [false, false, false] { return SignInApproval(approved: nil) }
        guard let seed, let kt, let grantFields else {
            throw WireError(.signinApprovalPartial, "grant, account_seed and kt_handle are all given or all null", field: "grant")
        }
        let grant = try DeviceGrant(token: grantFields.token, expiresAt: grantFields.expiresAt)
        return SignInApproval(approved: try .init(grant: grant, accountSeed: seed, ktHandle: kt))
    }
}

/// Output shapes shared by the handler and the generator.
enum SignInOutput {
    static func phoneID(_ id: [UInt8]) -> CBOR { .object([("phone_id", .bytes(id))]) }

    static func encoded(_ b: [UInt8]) -> CBOR { .object([("encoded", .bytes(b))]) }

    static func issued(_ c: PhoneOwnershipCert, publicKey: [UInt8]) -> CBOR {
        .object([("public_key", .bytes(publicKey)), ("signed_message", .bytes(c.signedMessage)), ("cert", .bytes(c.encoded))])
    }

    static func certEncoded(_ c: PhoneOwnershipCert) -> CBOR {
        .object([("signed_message", .bytes(c.signedMessage)), ("cert", .bytes(c.encoded))])
    }

    static func cert(_ c: PhoneOwnershipCert) -> CBOR { c.tree }

    static func verified(_ c: PhoneOwnershipCert) -> CBOR {
        .object([("phone_id", .bytes(c.phoneID)), ("issued_at_s", .unsigned(c.issuedAt)), ("expires_at_s", .unsigned(c.expiresAt))])
    }

    static func lookup(_ l: DiscoveryLookupResponse) -> CBOR { l.tree }

    static func request(_ r: SignInRequest) -> CBOR {
        .object([("device_model", .text(r.deviceModel)), ("reply_subject", .bytes(r.replySubject)),
                 ("xwing_pubkey", .bytes(r.xwingPublicKey)), ("timestamp_s", .unsigned(r.timestamp)), ("cert", .bytes(r.cert))])
    }

    static func verdict(_ v: SignInLadder.Verdict) -> CBOR {
        switch v {
        case .accept(let r, let phoneID):
            return .object([("verdict", .text("accept")), ("phone_id", .bytes(phoneID)), ("device_model", .text(r.deviceModel)),
                            ("reply_subject", .bytes(r.replySubject))])
        case .drop(let rung, let reason):
            return .object([("verdict", .text("drop")), ("rung", .unsigned(UInt64(rung))), ("reason", .text(reason.rawValue))])
        }
    }

    static func ack(_ a: SignInAck) -> CBOR { .object([("device_family", .text(a.deviceFamily))]) }

    static func approval(_ a: SignInApproval) -> CBOR {
        guard let x = a.approved else { return .object([("grant", .null), ("account_seed", .null), ("kt_handle", .null)]) }
        return .object([("grant", x.grant.tree), ("account_seed", .bytes(x.accountSeed)), ("kt_handle", .bytes(x.ktHandle))])
    }

    static func admits(_ reason: ErrorCode?) -> CBOR {
        guard let reason else { return .object([("admits", .bool(true))]) }
        return .object([("admits", .bool(false)), ("reason", .text(reason.rawValue))])
    }
}

import Primitives

/// The `envelope` golden cases (SPEC.md §14.11). Every expected output is the reference's answer
/// to the case's own input, read through the handler as a testee reads it, and every claim a case
/// makes (this box opens, this code is reported) is checked while generating.
enum EnvelopeVectors {
    struct Builder {
        var cases: [VectorCase] = []
        let handler = EnvelopeHandler()
        /// The eseeds and other random bytes of the cases, in generation order.
        var rng = SeededGenerator(seed: 0xE17E_1095_0000_0001)

        static func flags(_ rules: [String], _ extra: [String]) -> [String] { extra + rules.map { "rule:R\($0)" } }

        mutating func eseed() -> [UInt8] { rng.bytes(64) }
        mutating func bytes(_ n: Int) -> [UInt8] { rng.bytes(n) }

        /// The eseed of a case added after the first release: from its own label, so drawing it
        /// leaves the shared stream, and with it every earlier case's bytes, unchanged (§2.1).
        static func eseed(labelled label: String) -> [UInt8] {
            EnvelopeFixtures.seed("pixie.vectors.envelope.eseed.\(label).0") + EnvelopeFixtures.seed("pixie.vectors.envelope.eseed.\(label).1")
        }

        /// A positive case; `expect` must hold of the reference's output.
        @discardableResult
        mutating func ok(_ op: String, _ name: String, _ comment: String, rules: [String], flags: [String] = [], input: CBOR,
                         expect: (CBOR) -> Bool = { _ in true }) throws -> CBOR {
            let r = Result { () throws(WireError) -> CBOR in try handler.tree(op: op, input: input.json) }
            guard case .success(let out) = r else {
                throw StateDigestVectors.GeneratorCheckFailed(description: "envelope/\(op)/\(name): reference rejected: \(r)")
            }
            try EnvelopeVectors.check(expect(out), "\(op)/\(name): the output does not bear out the claim: \(CBORDiagnostic.render(out).prefix(400))")
            cases.append(VectorCase(id: "envelope/\(op)/\(name)", op: op, comment: comment, flags: Self.flags(rules, flags), input: input,
                                    expected: .output(out)))
            return out
        }

        /// A case the reference must reject with exactly `code`.
        mutating func reject(_ op: String, _ name: String, _ comment: String, rules: [String], flags: [String] = [], input: CBOR,
                             _ code: ErrorCode) throws {
            let r = Result { () throws(WireError) -> CBOR in try handler.tree(op: op, input: input.json) }
            switch r {
            case .success: try EnvelopeVectors.check(false, "\(op)/\(name): expected \(code.rawValue), the reference accepted")
            case .failure(let e): try EnvelopeVectors.check(e.code == code, "\(op)/\(name): expected \(code.rawValue), got \(e)")
            }
            cases.append(VectorCase(id: "envelope/\(op)/\(name)", op: op, comment: comment, flags: Self.flags(rules, ["negative"] + flags),
                                    input: input, expected: .error(code)))
        }
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "envelope generator check failed: \(what)") }
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        let f = try EnvelopeFixtures()
        try channelKeyCases(&b, f)
        try boxCases(&b, f)
        try kemCases(&b, f)
        try signInCases(&b, f)
        try certCases(&b, f)
        try envelopeSealCases(&b, f)
        try envelopeOpenCases(&b, f)
        try syncCases(&b, f)
        try inputCases(&b, f)
        try signatureEdgeCases(&b, f)
        let cases = b.cases + (try EnvelopeFacets.cases(f))
        try TwoFaultModels.check(try twoFaultModels(f, cases: cases), in: cases, handler: b.handler)
        return VectorFile(format: "envelope",
                          description: "The envelope layer (SPEC.md §14): HPKE with X-Wing, the DiscoveryBox, sealed sign-in, the sibling channel key, SenderCert, the sealed-sender envelope and its MAC, wake classes, sealed snapshot sync",
                          cases: cases, withdrawn: Issue23Withdrawals.entries("envelope"))
    }

    // MARK: - Shared builders

    static let envelopeInfo = Array(SealedSenderEnvelope.domain.utf8)

    /// An envelope around any inner plaintext, sealed correctly under any header.
    static func rawEnvelope(inner: [UInt8], header: [UInt8], to pk: [UInt8], eseed: [UInt8]) throws -> [UInt8] {
        let s = try HPKESeal.seal(recipient: pk, info: envelopeInfo, aad: header, plaintext: inner, eseed: eseed)
        return header + s.enc + s.ciphertext
    }

    static func envelopeHeader(wake: UInt8) -> [UInt8] { [SealedSenderEnvelope.kind, wake, 0x04, 0x60] }

    /// An inner plaintext tree; `macKey` nil leaves the MAC out, `mac` overrides its value.
    static func innerTree(type: String, payload: [UInt8], cert: [UInt8], macKey: [UInt8]?, mac: CBOR? = nil) -> CBOR {
        var members: [(String, CBOR)] = [("payload_type", .text(type)), ("payload", .bytes(payload)), ("sender_cert", .bytes(cert))]
        if let mac {
            members.append(("mac", mac))
        } else if let macKey {
            members.append(("mac", .bytes(EnvelopeInner.mac(key: macKey, payloadType: type, payload: payload, senderCert: cert))))
        }
        return .object(members)
    }

    /// A box (kind 01) around `plaintext` whose AEAD is sealed under the key the *recipient*
    /// derives from `enc`, whatever `enc` is: how a box with a dishonest KEM ciphertext that still
    /// opens is made (implicit rejection, small-order X25519 points).
    static func boxWithEnc(_ enc: [UInt8], recipientSeed: [UInt8], direction: DiscoveryBox.Direction, plaintext: [UInt8]) throws -> [UInt8] {
        let ss = try EnvelopeKEM.decapsulate(seed: recipientSeed, ciphertext: enc)
        let ctx = HPKE.keySchedule(suiteID: HPKESeal.suiteID, sharedSecret: ss, info: DiscoveryBox.info(direction))
        let sealed = try AES256GCM.seal(plaintext, key: ctx.key, nonce: ctx.baseNonce, authenticating: DiscoveryBox.header)
        return DiscoveryBox.header + enc + sealed.ciphertext + sealed.tag
    }

    static func receiveInput(_ env: [UInt8], seed: [UInt8], key: [UInt8], now: CBOR, own: [UInt8]?, accountSeed: [UInt8]?,
                             contacts: [(hash: [UInt8], key: [UInt8])]? = nil, extra: [(String, CBOR)] = []) -> CBOR {
        var m: [(String, CBOR)] = [("envelope", .bytes(env)), ("recipient_seed", .bytes(seed)), ("credential_key", .bytes(key)), ("now_s", now),
                                   ("own_user_id_hash", own.map { .bytes($0) } ?? .null), ("account_seed", accountSeed.map { .bytes($0) } ?? .null)]
        if let contacts {
            m.append(("contacts", .array(contacts.map { .object([("user_id_hash", .bytes($0.hash)), ("channel_key", .bytes($0.key))]) })))
        }
        return .object(m + extra)
    }

    static func sealInput(pk: [UInt8], recipient: [UInt8], type: String, payload: [UInt8], cert: [UInt8], own: [UInt8]?, accountSeed: [UInt8]?,
                          contacts: [(hash: [UInt8], key: [UInt8])]? = nil, eseed: [UInt8]) -> CBOR {
        var m: [(String, CBOR)] = [("recipient_pubkey", .bytes(pk)), ("recipient_user_id_hash", .bytes(recipient)), ("payload_type", .text(type)),
                                   ("payload", .bytes(payload)), ("sender_cert", .bytes(cert)), ("own_user_id_hash", own.map { .bytes($0) } ?? .null),
                                   ("account_seed", accountSeed.map { .bytes($0) } ?? .null)]
        if let contacts {
            m.append(("contacts", .array(contacts.map { .object([("user_id_hash", .bytes($0.hash)), ("channel_key", .bytes($0.key))]) })))
        }
        m.append(("eseed", .bytes(eseed)))
        return .object(m)
    }
}

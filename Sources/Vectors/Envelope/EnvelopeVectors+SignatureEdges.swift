import Primitives

/// The signature edge classes of SPEC.md §9.5 inside the SenderCert (§14.6 [R14.6-7]):
/// `sender_cert_verify/sig-edge/<class>` for every class, `sender_cert_verify/pinned-key/…` for a
/// genuine certificate under weak or aliased pinned keys, and `envelope_open/sig-edge/<class>` for
/// the classes where a stock verifier answers otherwise, through the whole open path (§14.7 step
/// 4). Each expects exactly the §14.6 code for the half that fails (or success), so a team that
/// verifies the SenderCert with its platform's stock Ed25519 learns which class it answers
/// differently. A class that brings its own Ed25519 key (A) pins it as the credential key's first
/// 32 bytes; the ML-DSA-65 half of the credential key is always credential-svc's.
extension EnvelopeVectors {
    static func edgeName(_ e: HybridEdge) -> String {
        e.name.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "+", with: "-and-")
    }

    /// §14.6's code for a hybrid failure; a sig of the wrong length does not decode.
    static func senderCertCode(_ f: HybridSignature.Failure) -> ErrorCode {
        switch f {
        case .wrongLength: return .envelopeSenderCertMalformed
        case .ed25519Invalid: return .envelopeSenderCertEd25519Invalid
        case .mldsaInvalid: return .envelopeSenderCertMLDSAInvalid
        case .bothInvalid: return .envelopeSenderCertBothInvalid
        }
    }

    /// The classes also carried through `envelope_open`: the control, and for each verifier of §9.1
    /// and §9.2 that answers any class otherwise than the suite, at least one such class.
    static let openPathClasses: Set<String> = [
        "ed25519/control", "ed25519/s-plus-l", "ed25519/s-plus-2l", "ed25519/small-order-a", "ed25519/mixed-order-a",
        "ed25519/cofactored-only-mixed-r", "ed25519/non-canonical-a-y", "mldsa/hint-unsorted", "mldsa/hint-padding", "mldsa/z-out-of-range",
    ]

    static func signatureEdgeCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let c = f.siblingCert
        let edges = try HybridEdges.all(ed25519Seed: EnvelopeFixtures.seed("pixie.vectors.envelope.credential.ed25519"),
                                        mldsa: f.credential.key.mldsa, message: { _ in c.signedMessage })
        let mldsaKey = Array(f.credentialKey.dropFirst(Ed25519.publicKeyByteCount))
        try check(edges.allSatisfy { !$0.ownKey || $0.ed25519PublicKey != Array(f.credentialKey.prefix(Ed25519.publicKeyByteCount)) },
                  "an edge class's own key is not the credential key")
        var opened: Set<String> = []
        for e in edges {
            let key = e.ed25519PublicKey + mldsaKey
            let cert: [UInt8] = e.signature.count == HybridSignature.byteCount
                ? try f.siblingCert(signature: e.signature).encoded
                : CBORWriter.encode(c.tree.replacingMember("sig", .bytes(e.signature)))
            let rules = e.rules.map { String($0.dropFirst()) } + ["14.6-5", "14.6-7"]
                + (e.failure == .wrongLength ? ["14.6-4"] : [])
            let flags = ["sig-edge"] + e.stockFlags
            let keyNote = e.ownKey ? "; the credential key's Ed25519 half is this A" : ""
            let name = edgeName(e)
            let input = CBOR.object([("cert", .bytes(cert)), ("credential_key", .bytes(key)), ("now_s", .unsigned(f.now))])
            if let failure = e.failure {
                let code = senderCertCode(failure)
                try b.reject("sender_cert_verify", "sig-edge/\(name)", "\(e.summary)\(keyNote): \(code.rawValue)", rules: rules, flags: flags,
                             input: input, code)
            } else {
                try b.ok("sender_cert_verify", "sig-edge/\(name)", "\(e.summary)\(keyNote): both halves verify under §9", rules: rules, flags: flags,
                         input: input) { $0["user_id_hash"] == .bytes(c.userIDHash) && $0["device_id"] == .bytes(c.deviceID) }
            }

            // The same certificate inside a sibling's envelope, MAC'd under the sibling key and
            // opened by the new device: step 4 reports what sender_cert_verify does.
            guard openPathClasses.contains(e.name) else { continue }
            opened.insert(e.name)
            let payload = Array("sig-edge \(e.name)".utf8)
            let env = try rawEnvelope(inner: CBORWriter.encode(innerTree(type: "message", payload: payload, cert: cert, macKey: f.siblingKey)),
                                      header: envelopeHeader(wake: 0), to: f.newDevice.pub, eseed: b.eseed())
            let openInput = receiveInput(env, seed: f.newDevice.seed, key: key, now: .unsigned(f.now), own: f.hashA, accountSeed: f.accountSeed,
                                         contacts: [(hash: f.hashB, key: f.contactKeyB)])
            let openRules = rules + ["14.7-4"]
            if let failure = e.failure {
                let code = senderCertCode(failure)
                try b.reject("envelope_open", "sig-edge/\(name)", "a sibling's envelope whose SenderCert has \(e.summary)\(keyNote): \(code.rawValue)",
                             rules: openRules, flags: flags, input: openInput, code)
            } else {
                try b.ok("envelope_open", "sig-edge/\(name)", "a sibling's envelope whose SenderCert has \(e.summary)\(keyNote): it opens",
                         rules: openRules + ["14.7-8"], flags: flags, input: openInput) {
                    $0["sender"]?["user_id_hash"] == .bytes(f.hashA) && $0["sender"]?["device_id"] == .bytes(f.sibling.id)
                        && $0["payload"] == .bytes(payload) && $0["channel"] == .text("sibling")
                }
            }
        }
        try check(opened == openPathClasses, "every open-path class exists: \(openPathClasses.subtracting(opened))")

        // A genuine certificate against credential keys whose Ed25519 half is weak or an alias:
        // the key is read (§14.6 [R14.6-3]), and the real key's signature does not verify under it.
        let pinnedHalves: [(String, [UInt8], String)] = [
            ("ed25519-identity", Ed25519EdgeGenerator.identity, "the identity (small order)"),
            ("ed25519-order-8", Ed25519EdgeGenerator.orderEight, "a point of order 8"),
            ("ed25519-alias-y-p", Ed25519EdgeGenerator.orderFourAlias, "ed ff…ff 7f, an alias (y = p) of a point of order 4"),
            ("ed25519-alias-minus-zero", Ed25519EdgeGenerator.identityMinusZero, "01 00…00 80, the identity with the sign bit set"),
            ("ed25519-alias-y-large-order", [UInt8](repeating: 0xff, count: 31) + [0x7f], "ff…ff 7f: y = 2^255 − 1 ≥ p, an alias of the large-order point y = 18"),
            ("ed25519-mixed-order", Ed25519EdgeGenerator.mixedKey, "a point with an order-8 component"),
        ]
        for (name, half, what) in pinnedHalves {
            try b.reject("sender_cert_verify", "pinned-key/\(name)",
                         "a genuine certificate, and a credential key whose Ed25519 half is \(what): that half fails",
                         rules: ["14.6-3", "14.6-5", "14.6-7", "9.1-3"], flags: ["sig-edge"],
                         input: .object([("cert", .bytes(c.encoded)), ("credential_key", .bytes(half + mldsaKey)), ("now_s", .unsigned(f.now))]),
                         .envelopeSenderCertEd25519Invalid)
        }
    }
}

import Primitives

/// The signature edge classes of SPEC.md §9 inside the certificate (`cert_verify/sig-edge/…`) and
/// the ladder's rung 2 (`ladder/sig-edge/…`): one case per class, each expecting exactly what
/// §8.5 reports for it, so a testee on a stock library learns which class it answers differently.
/// Classes that bring their own Ed25519 key pin it as the pinned key's first 32 bytes; the
/// ML-DSA-65 half of the pinned key is always the phone-verify key's.
extension SignInVectors {
    /// The case name of an edge item: `ed25519/small-order-a` → `ed25519-small-order-a`.
    static func edgeName(_ e: HybridEdge) -> String {
        e.name.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "+", with: "-and-")
    }

    /// §8.5's rung-2 code for a hybrid failure (`hybrid_wrong_length` cannot be a decodable cert).
    static func rung2Code(_ f: HybridSignature.Failure) -> ErrorCode {
        switch f {
        case .wrongLength: return .signinCertMalformed
        case .ed25519Invalid: return .signinCertEd25519Invalid
        case .mldsaInvalid: return .signinCertMLDSAInvalid
        case .bothInvalid: return .signinCertBothInvalid
        }
    }

    static func signatureEdgeCases(_ b: inout Builder, _ f: SignInFixtures) throws {
        let c = f.requestCert
        let edges = try HybridEdges.all(ed25519Seed: SignInFixtures.seed("pixie.vectors.signin.phone-verify.ed25519"),
                                        mldsa: f.phoneVerify.key.mldsa, message: { _ in c.signedMessage })
        let mldsaKey = Array(f.pinned.dropFirst(Ed25519.publicKeyByteCount))
        let own = f.ownCert.encoded
        for e in edges {
            let pinned = e.ed25519PublicKey + mldsaKey
            let cert: [UInt8] = e.signature.count == HybridSignature.byteCount
                ? try f.requestCert(signature: e.signature).encoded
                : CBORWriter.encode(MalformedEncodings.replacing(c.tree, "sig", with: .bytes(e.signature)))
            let rules = e.rules.map { "rule:\($0)" }
            let flags = ["sig-edge"] + rules + e.stockFlags
            let key = e.ownKey ? "; the pinned key's Ed25519 half is this A" : ""
            let name = edgeName(e)
            if let failure = e.failure {
                let code = rung2Code(failure)
                let extra = failure == .wrongLength ? ["rule:R8.5-2"] : ["rule:R8.5-3"]
                try b.error("sig-edge/\(name)", "cert_verify", "\(e.summary)\(key): \(code.rawValue)", flags: flags + extra,
                            input: verifyInput(cert, pinned: pinned, now: f.now), code)
                try b.ladder("sig-edge/\(name)", "\(e.summary)\(key): dropped at rung 2 as \(code.rawValue)",
                             request: try f.request(cert: cert, timestamp: f.now).encoded, pinned: pinned, own: own, now: f.now,
                             drop: (2, code), flags: flags + extra)
            } else {
                try b.output("sig-edge/\(name)", "cert_verify", "\(e.summary)\(key): both halves verify under §9",
                             flags: flags + ["rule:R8.5-3"], input: verifyInput(cert, pinned: pinned, now: f.now)) { $0["phone_id"] == .bytes(c.phoneID) }
                try b.ladder("sig-edge/\(name)", "\(e.summary)\(key): rung 2 passes, the request is accepted",
                             request: try f.request(cert: cert, timestamp: f.now).encoded, pinned: pinned, own: own, now: f.now,
                             drop: nil, flags: flags + ["rule:R8.5-3"])
            }
        }

        // A genuine certificate against pinned keys whose Ed25519 half is weak or an alias: the
        // key is read (§8.1), and the real key's signature does not verify under it.
        let pinnedHalves: [(String, [UInt8], String)] = [
            ("ed25519-identity", Ed25519EdgeGenerator.identity, "the identity (small order)"),
            ("ed25519-order-8", Ed25519EdgeGenerator.orderEight, "a point of order 8"),
            ("ed25519-alias-y-p", Ed25519EdgeGenerator.orderFourAlias, "ed ff…ff 7f, an alias (y = p) of a point of order 4"),
            ("ed25519-alias-minus-zero", Ed25519EdgeGenerator.identityMinusZero, "01 00…00 80, the identity with the sign bit set"),
            ("ed25519-alias-y-large-order", [UInt8](repeating: 0xff, count: 31) + [0x7f], "ff…ff 7f: y = 2^255 − 1 ≥ p, an alias of the large-order point y = 18"),
            ("ed25519-mixed-order", Ed25519EdgeGenerator.mixedKey, "a point with an order-8 component"),
        ]
        for (name, half, what) in pinnedHalves {
            try b.error("pinned-key/\(name)", "cert_verify", "a genuine certificate, and a pinned key whose Ed25519 half is \(what): that half fails",
                        flags: ["sig-edge", "rule:R8.1-5", "rule:R9.1-3", "rule:R8.5-3"],
                        input: verifyInput(c.encoded, pinned: half + mldsaKey, now: f.now), .signinCertEd25519Invalid)
        }
    }
}

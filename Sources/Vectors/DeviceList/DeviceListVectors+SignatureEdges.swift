import Primitives

/// The signature edge classes of SPEC.md §9 inside a DeviceCredential and a DeviceList
/// (`credential_verify/sig-edge/…`, `list_verify/sig-edge/…`): one case per class, each expecting
/// exactly the §10.1 code for the half that fails. A class that brings its own Ed25519 key makes
/// it the account id and the pinned bundle's first 32 bytes (the account-id check then passes, so
/// the signature check is what is tested); the rest of the pinned bundle is account A's.
extension DeviceListVectors {
    static func edgeName(_ e: HybridEdge) -> String {
        e.name.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: "+", with: "-and-")
    }

    /// §10.1's code for a hybrid failure, in Haven's order ([R10.1-6]): a failing Ed25519 half
    /// is reported alone, so two failing halves name the Ed25519 one.
    static func signatureCode(_ f: HybridSignature.Failure) -> ErrorCode {
        switch f {
        case .wrongLength: return .deviceListSigWrongLength
        case .ed25519Invalid, .bothInvalid: return .deviceListSigEd25519Invalid
        case .mldsaInvalid: return .deviceListSigMLDSAInvalid
        }
    }

    static func signatureEdgeCases(_ b: inout Builder, _ ids: Identities) throws {
        let account = ids.a
        let handler = DeviceListHandler()
        func pinnedBundle(_ ed: [UInt8]) -> [UInt8] {
            var p = account.bundle.bytes
            p.replaceSubrange(PublicBundle.ed25519Range, with: ed)
            return p
        }
        /// Adds one case, with the expected result computed by the reference handler and
        /// compared with what the edge item claims.
        func add(_ op: String, _ e: HybridEdge, wire: [UInt8], pinned: [UInt8], success: CBOR) throws {
            let input = CBOR.object([("wire", .bytes(wire)), ("pinned", .bytes(pinned))])
            let flags = ["sig-edge", "rule:R10.1-6"] + e.rules.map { "rule:\($0)" } + e.stockFlags
            let key = e.ownKey ? "; the account id and the pinned bundle's Ed25519 key are this A" : ""
            let got = Result { () throws(WireError) -> JSONValue in try handler.run(op: op, input: input.json) }
            if let failure = e.failure {
                let code = signatureCode(failure)
                guard case .failure(let err) = got, err.code == code else {
                    throw StateDigestVectors.GeneratorCheckFailed(description: "device_list \(op) sig-edge \(e.name): expected \(code.rawValue), got \(got)")
                }
                b.add("sig-edge/\(edgeName(e))", op, "\(e.summary)\(key): \(code.rawValue)", flags: ["negative"] + flags,
                      input: input, expected: .error(code))
            } else {
                guard case .success(let out) = got, out == success.json else {
                    throw StateDigestVectors.GeneratorCheckFailed(description: "device_list \(op) sig-edge \(e.name): expected success, got \(got)")
                }
                b.add("sig-edge/\(edgeName(e))", op, "\(e.summary)\(key): both halves verify under §9", flags: flags,
                      input: input, expected: .output(success))
            }
        }

        // credential_verify: account A (or the class's own key) vouches for device D1.
        let device = ids.d1.bundle
        let name = "edge"
        for e in try HybridEdges.all(ed25519Seed: account.ed25519Seed, mldsa: account.signingKey.mldsa, message: { a in
            DeviceCredential.signingBytes(accountID: DeviceID(unchecked: a), createdAt: base, name: name, device: device)
        }) {
            let cred = DeviceCredential(accountID: DeviceID(unchecked: e.ed25519PublicKey), createdAt: base, name: name, device: device,
                                        signature: e.signature)
            try add("credential_verify", e, wire: cred.wire, pinned: pinnedBundle(e.ed25519PublicKey),
                    success: DeviceListOutput.credentialVerified(cred))
        }

        // list_verify: a two-device list with one revocation at version 7.
        let devices = [ids.d1.nodeID, ids.d2.nodeID], revoked = [ids.d3.nodeID]
        func list(_ a: [UInt8], _ sig: [UInt8] = []) -> DeviceList {
            DeviceList(accountID: DeviceID(unchecked: a), version: 7, updatedAt: base, devices: devices, revoked: revoked,
                       accountLeafRetired: false, signature: sig)
        }
        for e in try HybridEdges.all(ed25519Seed: account.ed25519Seed, mldsa: account.signingKey.mldsa, message: { list($0).signingBytes }) {
            let l = list(e.ed25519PublicKey, e.signature)
            try add("list_verify", e, wire: l.wire, pinned: pinnedBundle(e.ed25519PublicKey), success: DeviceListOutput.listVerified(l))
        }

        // Bundle parsing (§10.1) reads the Ed25519 key under [R9.1-3]: aliases are keys.
        for (label, half, what) in [("alias-y-large-order", [UInt8](repeating: 0xff, count: 31) + [0x7f], "ff…ff 7f (y = 2^255 − 1 ≥ p, read as y = 18)"),
                                    ("alias-minus-zero", Ed25519EdgeGenerator.identityMinusZero, "01 00…00 80 (the identity with -0)")] {
            var bundle = ids.d2.bundle.bytes
            bundle.replaceSubrange(PublicBundle.ed25519Range, with: half)
            let parsed = try PublicBundle(bundle)
            let cred = try DeviceCredential.issue(account: account, device: parsed, name: "alias", createdAt: base)
            let input = CBOR.object([("account_seed", .bytes(account.seed)), ("device_bundle", .bytes(bundle)),
                                     ("name", .text("alias")), ("created_at", .unsigned(base))])
            let out = DeviceListOutput.issued(cred)
            try check((try? handler.run(op: "credential_issue", input: input.json)) == out.json, "alias bundle \(label) issues")
            b.add("sig-edge/bundle-ed25519-\(label)", "credential_issue",
                  "a device bundle whose Ed25519 key is \(what): it decodes under §9.1, so the credential is issued (a strict decoder says device_list_bad_bundle)",
                  flags: ["sig-edge", "rule:R9.1-3"], input: input, expected: .output(out))
        }
    }
}

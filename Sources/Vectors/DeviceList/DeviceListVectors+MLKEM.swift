import Primitives

/// The `mlkem` cases (SPEC.md §10.1 [R10.1-7]): bundles whose ML-KEM-768 key is spelled with
/// coefficients ≥ q on purpose, and what Haven's `ml-kem` round trip makes of them. Every other
/// bundle in the file holds a real, canonical key, so Haven's round trip is the identity on it.
extension DeviceListVectors {
    /// `bundle` with every coefficient c that can also be spelled c + q in 12 bits (c ≤ 766)
    /// spelled so: the same key for Haven (it reduces mod q), different bytes for anyone who keeps
    /// them as given. ρ is untouched.
    static func nonCanonicalSpelling(_ bundle: [UInt8]) -> [UInt8] {
        var out = bundle
        let start = PublicBundle.mlkemRange.lowerBound
        for i in stride(from: start, to: start + MLKEMKeyReencoding.tHatByteCount, by: 3) {
            var c0 = UInt16(out[i]) | (UInt16(out[i + 1]) & 0x0f) << 8
            var c1 = UInt16(out[i + 1]) >> 4 | UInt16(out[i + 2]) << 4
            if c0 <= 4095 - MLKEMKeyReencoding.q { c0 += MLKEMKeyReencoding.q }
            if c1 <= 4095 - MLKEMKeyReencoding.q { c1 += MLKEMKeyReencoding.q }
            out[i] = UInt8(c0 & 0xff)
            out[i + 1] = UInt8(c0 >> 8 | (c1 & 0x0f) << 4)
            out[i + 2] = UInt8(c1 >> 4)
        }
        return out
    }

    /// A credential wire, written field by field with `bundle` exactly as given (the reference's
    /// own writer would re-encode it).
    static func rawCredentialWire(account: DeviceID, createdAt: UInt64, name: String, bundle: [UInt8], signature: [UInt8]) -> [UInt8] {
        var v = account.bytes
        v.appendLE(createdAt)
        v.appendLE(UInt32(name.utf8.count))
        v += Array(name.utf8)
        v.appendLE(UInt32(bundle.count))
        return v + bundle + signature
    }

    static func mlkemCases(_ b: inout Builder, _ ids: Identities) throws {
        let name = "Blaine's iPhone", at = base
        let iphone = try DeviceCredential.issue(account: ids.a, device: ids.d1.bundle, name: name, createdAt: at)
        let canonical = ids.d1.bundle.bytes
        let spelled = nonCanonicalSpelling(canonical)
        let kem = PublicBundle.mlkemRange.lowerBound
        let raised = stride(from: kem, to: kem + MLKEMKeyReencoding.tHatByteCount, by: 3).filter { spelled[$0..<$0 + 3] != canonical[$0..<$0 + 3] }.count
        try check(spelled != canonical && MLKEMKeyReencoding.reencoded(spelled[PublicBundle.mlkemRange]) == Array(canonical[PublicBundle.mlkemRange]),
                  "the non-canonical spelling reduces to device 1's key")
        try check(raised > 100, "the non-canonical spelling raises coefficients in many of the 384 byte triples (\(raised))")

        // Issue: Haven signs and writes the bundle as it re-encodes it, so this is credential iphone.
        let issued = try DeviceCredential.issue(account: ids.a, device: try PublicBundle(spelled, field: "device_bundle"), name: name, createdAt: at)
        try check(issued == iphone, "issuing over the non-canonical spelling gives credential iphone")
        b.add("mlkem/non-canonical-device", "credential_issue",
              "device 1's bundle with every ML-KEM coefficient ≤ 766 spelled + q (≥ q): Haven re-encodes it mod q before signing, so the signing bytes, signature and wire are credential iphone's",
              flags: ["mlkem-non-canonical"],
              input: .object([("account_seed", .bytes(ids.a.seed)), ("device_bundle", .bytes(spelled)), ("name", .text(name)), ("created_at", .unsigned(at))]),
              expected: .output(DeviceListOutput.issued(issued)))

        // Decode and verify: a wire carrying the spelling, with credential iphone's signature.
        let spelledWire = rawCredentialWire(account: ids.a.nodeID, createdAt: at, name: name, bundle: spelled, signature: iphone.signature)
        let decoded = try DeviceCredential.decode(spelledWire)
        try check(decoded == iphone && decoded.wire != spelledWire, "the spelled wire decodes to credential iphone")
        b.add("mlkem/non-canonical-bundle", "credential_decode",
              "credential iphone's wire with its bundle's ML-KEM key spelled with coefficients ≥ q: device_bundle comes back re-encoded (device 1's real bundle), not as given",
              flags: ["mlkem-non-canonical"], input: .object([("wire", .bytes(spelledWire))]), expected: .output(DeviceListOutput.credential(decoded)))
        var allOnes = iphone.wire
        let kemAt = 44 + name.utf8.count + 4 + PublicBundle.mlkemRange.lowerBound
        allOnes.replaceSubrange(kemAt..<kemAt + MLKEMKeyReencoding.tHatByteCount, with: [UInt8](repeating: 0xff, count: MLKEMKeyReencoding.tHatByteCount))
        let ones = try DeviceCredential.decode(allOnes)
        try check(ones.device.bytes[PublicBundle.mlkemRange].prefix(3) == [0xfe, 0xe2, 0x2f], "4095 mod q = 766 = 0x2fe, re-encoded")
        b.add("mlkem/all-coefficients-4095", "credential_decode",
              "the bundle's t̂ bytes all ff (every coefficient 4,095): each is taken mod q (766), so device_bundle holds fe e2 2f repeated, then ρ as given",
              flags: ["mlkem-non-canonical"], input: .object([("wire", .bytes(allOnes))]), expected: .output(DeviceListOutput.credential(ones)))

        let pa = ids.a.bundle.bytes
        try iphone.verify(pinned: ids.a.bundle)
        b.add("mlkem/non-canonical-bundle-verifies", "credential_verify",
              "the same wire under account A: the signature covers the re-encoded bundle, so it verifies (two wires, one credential: compare decoded credentials, not wire bytes)",
              flags: ["mlkem-non-canonical"], input: .object([("wire", .bytes(spelledWire)), ("pinned", .bytes(pa))]),
              expected: .output(DeviceListOutput.credentialVerified(decoded)))

        // An issuer that signed the spelling as given: Haven rebuilds the signing bytes from the
        // re-encoded bundle, so the Ed25519 half fails.
        var asGiven = DeviceCredential.domain + ids.a.nodeID.bytes
        asGiven.appendLE(at)
        asGiven.appendLE(UInt32(name.utf8.count))
        asGiven += Array(name.utf8) + spelled
        let asGivenWire = rawCredentialWire(account: ids.a.nodeID, createdAt: at, name: name, bundle: spelled, signature: ids.a.sign(asGiven))
        let asGivenInput = CBOR.object([("wire", .bytes(asGivenWire)), ("pinned", .bytes(pa))])
        try b.reject("mlkem/signed-as-given", "credential_verify",
                     "account A signed the non-canonical spelling as given: Haven verifies over the re-encoded bundle, so the Ed25519 half fails (an issuer must sign what Haven re-encodes)",
                     flags: ["mlkem-non-canonical"], input: asGivenInput, .deviceListSigEd25519Invalid) { () throws(WireError) in
            _ = try DeviceListHandler().run(op: "credential_verify", input: asGivenInput.json)
        }

        // The pinned bundle's ML-KEM key is parsed and never used: a spelling changes nothing.
        let pinnedSpelled = nonCanonicalSpelling(pa)
        try check(try PublicBundle(pinnedSpelled) == ids.a.bundle, "account A's spelled bundle parses to account A's")
        b.add("mlkem/non-canonical-pinned", "credential_verify",
              "credential iphone under account A's bundle with its ML-KEM key spelled with coefficients ≥ q: verification uses bytes 0–31 and 1248–3199 only, so it verifies",
              flags: ["mlkem-non-canonical"], input: .object([("wire", .bytes(iphone.wire)), ("pinned", .bytes(pinnedSpelled))]),
              expected: .output(DeviceListOutput.credentialVerified(iphone)))
        let list = DeviceList(accountID: ids.a.nodeID, version: 1, updatedAt: base, devices: [ids.a.nodeID, ids.d1.nodeID], revoked: [], accountLeafRetired: false).signed(by: ids.a)
        try list.verify(pinned: try PublicBundle(pinnedSpelled))
        b.add("mlkem/non-canonical-pinned", "list_verify",
              "list two-devices under account A's bundle with its ML-KEM key spelled with coefficients ≥ q: verifies (the pinned KEM key is never used)",
              flags: ["mlkem-non-canonical"], input: .object([("wire", .bytes(list.wire)), ("pinned", .bytes(pinnedSpelled))]),
              expected: .output(DeviceListOutput.listVerified(list)))
    }
}

import Primitives

/// The `device_list` golden cases. Like the other generators, every claim a case makes (this
/// tamper fails with that code, this merge re-authorizes that device, a replay changes nothing)
/// is checked while generating, so a case can never claim what the reference does not do.
///
/// Signatures are the expensive part (ML-DSA-65): identities are derived once per run and the
/// signed lists are reused by the decode / verify / tamper cases, so the file holds a few dozen.
enum DeviceListVectors {
    static let base: UInt64 = 1_767_225_600  // 2026-01-01T00:00:00Z, the suite's clock, in seconds

    struct Builder {
        var cases: [VectorCase] = []
        mutating func add(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR, expected: VectorCase.Expected) {
            cases.append(VectorCase(id: "device_list/\(op)/\(id)", op: op, comment: comment, flags: flags, input: input, expected: expected))
        }

        /// A negative case whose code is first obtained from the reference and compared with the claim.
        mutating func reject(_ id: String, _ op: String, _ comment: String, flags: [String] = [], input: CBOR, _ code: ErrorCode,
                             _ body: () throws(WireError) -> Void) throws {
            do {
                try body()
                throw StateDigestVectors.GeneratorCheckFailed(description: "device_list \(id): expected \(code.rawValue), reference accepted")
            } catch let e as WireError {
                try check(e.code == code, "\(id): expected \(code.rawValue), got \(e.code.rawValue)")
            }
            add(id, op, comment, flags: ["negative"] + flags, input: input, expected: .error(code))
        }
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "device_list generator check failed: \(what)") }
    }

    /// The fixed master seeds: SplitMix64 (SeededGenerator) from a label, 32 bytes.
    static func seed(_ label: UInt64) -> [UInt8] {
        var g = SeededGenerator(seed: 0xD1CE_0000_0000_0000 | label)
        return g.bytes(32)
    }

    /// An opaque 32-byte id for lists that need more devices than there are identities.
    static func syntheticID(_ i: UInt8) -> DeviceID {
        DeviceID(unchecked: SHA256.hash(Array("pixie.vectors.device_list.id".utf8) + [0, i]).bytes)
    }

    /// Derived once per generation: key generation is the slow step.
    struct Identities {
        let a, b, d1, d2, d3: HavenIdentity
        init() throws {
            a = try HavenIdentity(seed: DeviceListVectors.seed(0xA))
            b = try HavenIdentity(seed: DeviceListVectors.seed(0xB))
            d1 = try HavenIdentity(seed: DeviceListVectors.seed(0xD1))
            d2 = try HavenIdentity(seed: DeviceListVectors.seed(0xD2))
            d3 = try HavenIdentity(seed: DeviceListVectors.seed(0xD3))
        }
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        let ids = try Identities()
        try identityCases(&b, ids)
        try credentialCases(&b, ids)
        let signed = try listSignCases(&b, ids)
        try listDecodeCases(&b, ids, signed)
        try listVerifyCases(&b, ids, signed)
        try signatureEdgeCases(&b, ids)
        try authorizationCases(&b, ids)
        try adoptCases(&b, ids)
        try mergeCases(&b, ids)
        try selfAddAndRetireCases(&b, ids)
        try contactCases(&b, ids)
        try credentialEdgeCases(&b, ids)
        try listEdgeCases(&b, ids)
        try inputEdgeCases(&b, ids)
        try versionEdgeCases(&b, ids)
        try contactEdgeCases(&b, ids)
        try advertisementCases(&b, ids)
        try mlkemCases(&b, ids)
        try finish(&b)
        let withdrawn = try replaceKEMPlaceholderCases(&b)
        let cases = b.cases + (try DeviceListFacets.cases(ids, signed))
        try TwoFaultModels.check(try twoFaultModels(ids), in: cases, handler: DeviceListHandler())
        return VectorFile(format: "device_list",
                          description: "Haven DeviceCredential and signed, versioned DeviceList (identity derivation, wire layouts, hybrid verification in Haven's order, merge and rollback rules) and Pixie's device advertisement and contact side (SPEC.md §10)",
                          cases: cases, withdrawn: withdrawn + Issue23Withdrawals.entries("device_list"))
    }

    // MARK: helpers

    static func flip(_ bytes: [UInt8], at i: Int, _ mask: UInt8 = 0x01) -> [UInt8] {
        var out = bytes
        out[i] ^= mask
        return out
    }

    static func le32(_ v: UInt32) -> [UInt8] { var o: [UInt8] = []; o.appendLE(v); return o }

    static func idsTree(_ ids: [DeviceID]) -> CBOR { DeviceListOutput.ids(ids) }

    // MARK: identity (§10.1)

    static func identityCases(_ b: inout Builder, _ ids: Identities) throws {
        let named: [(String, [UInt8], String)] = [
            ("zero", [UInt8](repeating: 0, count: 32), "the all-zero master seed"),
            ("ff", [UInt8](repeating: 0xff, count: 32), "the all-0xff master seed"),
            ("account-a", ids.a.seed, "account A of every other case"),
            ("account-b", ids.b.seed, "account B (the wrong account of the negative cases)"),
            ("device-1", ids.d1.seed, "device 1 (its bundle is credential iphone's device)"),
        ]
        for (name, seed, comment) in named {
            let i = try HavenIdentity(seed: seed)
            try check(i.bundle.bytes.count == 3200 && i.nodeID.bytes == i.signingKey.publicKey.ed25519.rawRepresentation, "identity \(name)")
            try check(Array(i.bundle.bytes[PublicBundle.mldsaRange]) == i.signingKey.publicKey.mldsa.rawRepresentation, "identity \(name) ML-DSA part")
            b.add("seed/\(name)", "derive_identity", "\(comment): HKDF sub-seeds, node id and the 3,200-byte bundle",
                  input: .object([("seed", .bytes(seed))]), expected: .output(DeviceListOutput.identity(i)))
        }
        let short = [UInt8](repeating: 7, count: 31)
        try b.reject("seed/31-bytes", "derive_identity", "a master seed is exactly 32 bytes",
                     input: .object([("seed", .bytes(short))]), .inputBadLength) { () throws(WireError) in _ = try HavenIdentity(seed: short) }
    }

    // MARK: credentials (§10.2)

    /// Account A vouches for device 1: the credential of credential_verify/valid/iphone and of its
    /// tampered copies (and of their two-fault models).
    static func iphoneCredential(_ ids: Identities) throws -> DeviceCredential {
        try DeviceCredential.issue(account: ids.a, device: ids.d1.bundle, name: "Blaine's iPhone", createdAt: base)
    }

    static func credentialCases(_ b: inout Builder, _ ids: Identities) throws {
        let iphone = try iphoneCredential(ids)
        let empty = try DeviceCredential.issue(account: ids.a, device: ids.d2.bundle, name: "", createdAt: base + 60)
        let unicode = try DeviceCredential.issue(account: ids.a, device: ids.d3.bundle, name: "Mac Studio \u{1F5A5}\u{FE0F} Zo\u{0065}\u{0301}", createdAt: base + 3600)
        let issued = [("iphone", iphone, "a typical credential"), ("empty-name", empty, "an empty name: name_len 0"),
                      ("unicode-name", unicode, "a name with an emoji, a variation selector and a combining accent: UTF-8 as given, no normalisation")]
        for (name, c, comment) in issued {
            try check(c.signingBytes.count == 20 + 32 + 8 + 4 + c.name.utf8.count + 3200, "credential signing bytes length")
            try check(c.wire.count == 32 + 8 + 4 + c.name.utf8.count + 4 + 3200 + 3373, "credential wire length")
            try c.verify(pinned: ids.a.bundle)
            b.add("issue/\(name)", "credential_issue", "\(comment); account A vouches for the device",
                  input: .object([("account_seed", .bytes(ids.a.seed)), ("device_bundle", .bytes(c.device.bytes)),
                                  ("name", .text(c.name)), ("created_at", .unsigned(c.createdAt))]),
                  expected: .output(DeviceListOutput.issued(c)))
        }
        let badLength = Array(ids.d1.bundle.bytes.prefix(3199))
        try b.reject("issue/bundle-3199-bytes", "credential_issue", "a device bundle is exactly 3,200 bytes",
                     input: .object([("account_seed", .bytes(ids.a.seed)), ("device_bundle", .bytes(badLength)), ("name", .text("x")), ("created_at", .unsigned(base))]),
                     .deviceListBadBundle) { () throws(WireError) in _ = try PublicBundle(badLength) }
        var badPoint = ids.d1.bundle.bytes
        badPoint.replaceSubrange(0..<32, with: [2] + [UInt8](repeating: 0, count: 31))  // y = 2: not on the curve
        try b.reject("issue/bundle-ed25519-not-a-point", "credential_issue", "the bundle's Ed25519 key must decode (02 00…00: y = 2 is not on the curve)",
                     input: .object([("account_seed", .bytes(ids.a.seed)), ("device_bundle", .bytes(badPoint)), ("name", .text("x")), ("created_at", .unsigned(base))]),
                     .deviceListBadBundle) { () throws(WireError) in _ = try PublicBundle(badPoint) }

        // decode
        for (name, c, comment) in issued {
            let d = try DeviceCredential.decode(c.wire)
            try check(d == c && d.deviceID == c.device.nodeID, "credential round trip \(name)")
            b.add("wire/\(name)", "credential_decode", "\(comment): every field back, device_id = the bundle's first 32 bytes",
                  input: .object([("wire", .bytes(c.wire))]), expected: .output(DeviceListOutput.credential(d)))
        }
        let w = iphone.wire
        let nameLen = iphone.name.utf8.count
        let bundleLenAt = 44 + nameLen, bundleAt = bundleLenAt + 4, sigAt = bundleAt + 3200
        let cuts: [(String, Int, ErrorCode, String)] = [
            ("empty", 0, .deviceListTruncated, "no bytes at all"),
            ("in-account-id", 20, .deviceListTruncated, "ends inside account_id"),
            ("in-created-at", 36, .deviceListTruncated, "ends inside created_at"),
            ("in-name-len", 42, .deviceListTruncated, "ends inside name_len"),
            ("in-name", 44 + 5, .deviceListTruncated, "ends inside the name: name_len exceeds the bytes left"),
            ("in-bundle-len", bundleLenAt + 2, .deviceListTruncated, "ends inside bundle_len"),
            ("in-bundle", bundleAt + 1000, .deviceListTruncated, "ends inside the bundle: bundle_len exceeds the bytes left"),
            ("no-signature", sigAt, .deviceListMissingSignature, "ends right after the bundle: the signature is empty"),
        ]
        for (name, n, code, comment) in cuts {
            let cut = Array(w.prefix(n))
            try b.reject("truncated/\(name)", "credential_decode", "\(comment) (\(n) of \(w.count) bytes)", flags: ["truncated"],
                         input: .object([("wire", .bytes(cut))]), code) { () throws(WireError) in _ = try DeviceCredential.decode(cut) }
        }
        var hugeName = w
        hugeName.replaceSubrange(40..<44, with: le32(.max))
        try b.reject("count/name-len-max", "credential_decode", "name_len 2^32 − 1: rejected as truncated before anything is allocated",
                     input: .object([("wire", .bytes(hugeName))]), .deviceListTruncated) { () throws(WireError) in _ = try DeviceCredential.decode(hugeName) }
        var hugeBundle = w
        hugeBundle.replaceSubrange(bundleLenAt..<bundleLenAt + 4, with: le32(.max))
        try b.reject("count/bundle-len-max", "credential_decode", "bundle_len 2^32 − 1: rejected as truncated before anything is allocated",
                     input: .object([("wire", .bytes(hugeBundle))]), .deviceListTruncated) { () throws(WireError) in _ = try DeviceCredential.decode(hugeBundle) }
        var shortBundle = w
        shortBundle.replaceSubrange(bundleLenAt..<bundleLenAt + 4, with: le32(3199))
        try b.reject("bundle/len-3199", "credential_decode", "bundle_len 3,199 with the bytes present: not a bundle",
                     input: .object([("wire", .bytes(shortBundle))]), .deviceListBadBundle) { () throws(WireError) in _ = try DeviceCredential.decode(shortBundle) }
        var badName = w
        badName[44] = 0xc3; badName[45] = 0x28  // a lead byte followed by a non-continuation
        try b.reject("name/invalid-utf8", "credential_decode", "a name that is not UTF-8 (c3 28)",
                     input: .object([("wire", .bytes(badName))]), .deviceListBadName) { () throws(WireError) in _ = try DeviceCredential.decode(badName) }
        let oneByteSig = Array(w.prefix(sigAt + 1))
        let decodedShort = try DeviceCredential.decode(oneByteSig)
        try check(decodedShort.signature.count == 1, "one-byte signature decodes")
        b.add("wire/one-byte-signature", "credential_decode", "the signature is whatever follows the bundle: one byte still decodes (verify judges its length)",
              input: .object([("wire", .bytes(oneByteSig))]), expected: .output(DeviceListOutput.credential(decodedShort)))

        // verify
        for (name, c, comment) in issued {
            b.add("valid/\(name)", "credential_verify", "\(comment): verifies under account A's bundle",
                  input: .object([("wire", .bytes(c.wire)), ("pinned", .bytes(ids.a.bundle.bytes))]),
                  expected: .output(DeviceListOutput.credentialVerified(c)))
        }
        func verifyReject(_ id: String, _ comment: String, _ wire: [UInt8], pinned: [UInt8], _ code: ErrorCode, flags: [String] = []) throws {
            let input = CBOR.object([("wire", .bytes(wire)), ("pinned", .bytes(pinned))])
            try b.reject(id, "credential_verify", comment, flags: flags, input: input, code) { () throws(WireError) in
                _ = try DeviceListHandler().run(op: "credential_verify", input: input.json)
            }
        }
        let pa = ids.a.bundle.bytes
        try verifyReject("tamper/account-id", "account_id changed: it no longer names the pinned account", flip(w, at: 0), pinned: pa, .deviceListAccountMismatch, flags: ["tamper"])
        // tamper/account-id's flip lowers the id; an account compared by order (`<` for `!=`)
        // refuses only that direction (a cosmic-ray survivor of pixie, issue 25).
        try verifyReject("tamper/account-id-above", "account_id all ff, above the pinned account's: it no longer names the pinned account",
                         [UInt8](repeating: 0xff, count: 32) + Array(w[32...]), pinned: pa, .deviceListAccountMismatch, flags: ["tamper"])
        try verifyReject("tamper/created-at", "created_at + 1: the Ed25519 half fails first and alone (Haven's order; a both-halves verifier says both_invalid)", flip(w, at: 32), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("tamper/name", "one name byte changed (l → n): the Ed25519 half fails, reported alone", flip(w, at: 44 + 1, 0x02), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("tamper/bundle-x25519", "a byte of the device's X25519 key changed: the bundle is signed whole (Ed25519 half fails first)", flip(w, at: bundleAt + 40), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        // The first bit flip from bundle byte 600 on that keeps the key canonical: the tamper is the
        // change of a real key, not a non-canonical spelling (those are the mlkem cases).
        let kemRange = (bundleAt + PublicBundle.mlkemRange.lowerBound)..<(bundleAt + PublicBundle.mlkemRange.upperBound)
        guard let kemFlip = (bundleAt + 600..<kemRange.upperBound).first(where: { MLKEMKeyReencoding.isCanonical(flip(w, at: $0)[kemRange]) }) else {
            throw StateDigestVectors.GeneratorCheckFailed(description: "device_list: no canonical one-bit change of device 1's ML-KEM key")
        }
        try verifyReject("tamper/bundle-mlkem", "a bit of the device's ML-KEM key changed (still a canonical key): signed whole, Ed25519 half fails first", flip(w, at: kemFlip), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("tamper/bundle-mldsa", "a byte of the device's ML-DSA key changed: signed whole, Ed25519 half fails first", flip(w, at: bundleAt + 2000), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("account/wrong-pinned", "verified against account B: the ids differ, reported before any signature check (a verifier that checks the signature first says ed25519_invalid)", w, pinned: ids.b.bundle.bytes, .deviceListAccountMismatch)
        try verifyReject("signature/ed25519-half", "one bit of the Ed25519 half flipped: only that half fails", flip(w, at: sigAt + 10), pinned: pa, .deviceListSigEd25519Invalid, flags: ["signature"])
        try verifyReject("signature/mldsa-half", "one bit inside the ML-DSA-65 half flipped: only that half fails", flip(w, at: sigAt + 64 + 100), pinned: pa, .deviceListSigMLDSAInvalid, flags: ["signature"])
        try verifyReject("signature/both-halves", "a bit flipped in each half: Haven stops at the Ed25519 half, so ed25519_invalid, never both_invalid", flip(flip(w, at: sigAt + 10), at: sigAt + 64 + 100), pinned: pa, .deviceListSigEd25519Invalid, flags: ["signature"])
        try verifyReject("signature/one-byte-short", "3,372 signature bytes, the Ed25519 half intact: the ML-DSA-65 part's length is wrong", Array(w.dropLast()), pinned: pa, .deviceListSigWrongLength, flags: ["signature"])
        try verifyReject("signature/one-byte-long", "3,374 signature bytes, the Ed25519 half intact: the ML-DSA-65 part's length is wrong", w + [0], pinned: pa, .deviceListSigWrongLength, flags: ["signature"])
        try verifyReject("signature/ed25519-only", "only the 64-byte Ed25519 half: 64 bytes or fewer is a wrong length before any half is checked (a classical-only signature is not a hybrid one)", Array(w.prefix(sigAt + 64)), pinned: pa, .deviceListSigWrongLength, flags: ["signature"])
        try verifyReject("pinned/not-a-bundle", "a pinned key of 3,199 bytes", w, pinned: Array(pa.prefix(3199)), .deviceListBadBundle)
        try verifyReject("truncated/in-bundle", "decoding fails before verification", Array(w.prefix(bundleAt + 10)), pinned: pa, .deviceListTruncated)
        // Two problems: Haven's FFI parses the pinned bundle before it decodes the wire (§10.2).
        try verifyReject("order/truncated-wire-bad-pinned", "a truncated wire and a 3,199-byte pinned key: the pinned bundle is parsed first (Haven's verify_device_credential), so device_list_bad_bundle, not the wire's truncation",
                         Array(w.prefix(bundleAt + 10)), pinned: Array(pa.prefix(3199)), .deviceListBadBundle, flags: ["order"])
    }

    // MARK: lists (§10.3)

    struct SignedLists {
        let twoDevices, empty, withRevoked, retired, extremes: DeviceList

        /// Account A's signed lists, the bases of the list cases (and of their two-fault models).
        init(_ ids: Identities) {
            let a = ids.a
            func make(_ version: UInt64, _ updatedAt: UInt64, _ devices: [DeviceID], _ revoked: [DeviceID], retired: Bool = false) -> DeviceList {
                DeviceList(accountID: a.nodeID, version: version, updatedAt: updatedAt, devices: devices, revoked: revoked, accountLeafRetired: retired).signed(by: a)
            }
            twoDevices = make(1, base, [a.nodeID, ids.d1.nodeID], [])
            empty = make(0, base, [], [])
            withRevoked = make(5, base + 86_400, [ids.d2.nodeID, a.nodeID, ids.d1.nodeID], [ids.d3.nodeID])
            retired = make(6, base + 90_000, [ids.d2.nodeID, a.nodeID, ids.d1.nodeID], [ids.d3.nodeID], retired: true)
            extremes = make(.max, 1 << 63, [syntheticID(1)], [syntheticID(2), syntheticID(3)])
        }
    }

    static func listSignCases(_ b: inout Builder, _ ids: Identities) throws -> SignedLists {
        let a = ids.a
        let s = SignedLists(ids)
        let named: [(String, DeviceList, String)] = [
            ("two-devices", s.twoDevices, "version 1: the account leaf and one device"),
            ("empty", s.empty, "version 0, no devices, no revoked ids"),
            ("with-revoked", s.withRevoked, "three devices in signer's order (not sorted: the order is signed as given), one revoked"),
            ("retired", s.retired, "the same roster at version 6 with the account leaf retired: the retired tail in the signed bytes, HVNLEAF1 on the wire"),
            ("extremes", s.extremes, "version 2^64 − 1 and updated_at 2^63 (decimal strings in JSON); ids need not be devices' keys"),
        ]
        for (name, l, comment) in named {
            try l.verify(pinned: a.bundle)
            let expectedSigning = 20 + 32 + 8 + 8 + 8 + 32 * l.devices.count + 8 + 32 * l.revoked.count + (l.accountLeafRetired ? 38 : 0)
            try check(l.signingBytes.count == expectedSigning, "list signing bytes length \(name)")
            try check(l.wire.count == 32 + 8 + 8 + 4 + 32 * l.devices.count + 4 + 32 * l.revoked.count + 3373 + (l.accountLeafRetired ? 8 : 0), "list wire length \(name)")
            b.add("sign/\(name)", "list_sign", comment, input: DeviceListOutput.signInput(seed: a.seed, l), expected: .output(DeviceListOutput.signedList(l)))
        }
        // The retired tail is the only difference between a retired and a non-retired preimage.
        var unretired = s.retired; unretired.accountLeafRetired = false
        try check(s.retired.signingBytes == unretired.signingBytes + DeviceList.retiredDomain, "retired tail appended only")
        let badSeed = [UInt8](repeating: 1, count: 16)
        try b.reject("sign/seed-16-bytes", "list_sign", "the signer's master seed is 32 bytes",
                     input: DeviceListOutput.signInput(seed: badSeed, s.empty), .inputBadLength) { () throws(WireError) in _ = try HavenIdentity(seed: badSeed) }
        return s
    }

    static func listDecodeCases(_ b: inout Builder, _ ids: Identities, _ s: SignedLists) throws {
        for (name, l) in [("two-devices", s.twoDevices), ("empty", s.empty), ("with-revoked", s.withRevoked), ("retired", s.retired), ("extremes", s.extremes)] {
            let d = try DeviceList.decode(l.wire)
            try check(d == l, "list round trip \(name)")
            b.add("wire/\(name)", "list_decode", "the signed list \(name) back from its wire bytes" + (l.accountLeafRetired ? ": HVNLEAF1 stripped off the tail first, retired = true" : ""),
                  input: .object([("wire", .bytes(l.wire))]), expected: .output(DeviceListOutput.decodedList(d)))
        }
        // A non-retired list whose last 8 signature bytes are forced to HVNLEAF1.
        var forced = s.withRevoked.wire
        forced.replaceSubrange(forced.count - 8..<forced.count, with: DeviceList.retiredWireSuffix)
        let fd = try DeviceList.decode(forced)
        try check(fd.accountLeafRetired && fd.signature.count == 3365, "forced HVNLEAF1 tail read as the flag")
        b.add("hvnleaf1/forced-tail", "list_decode", "a non-retired list whose signature's last 8 bytes were replaced by HVNLEAF1: the decoder takes them as the flag (retired, 3,365-byte signature)",
              flags: ["hvnleaf1"], input: .object([("wire", .bytes(forced))]), expected: .output(DeviceListOutput.decodedList(fd)))

        let w = s.withRevoked.wire  // 3 devices, 1 revoked
        let nrevAt = 52 + 96, sigAt = nrevAt + 4 + 32
        let cuts: [(String, Int, ErrorCode, String)] = [
            ("empty", 0, .deviceListTruncated, "no bytes at all"),
            ("in-account-id", 31, .deviceListTruncated, "ends inside account_id"),
            ("in-version", 39, .deviceListTruncated, "ends inside version"),
            ("in-updated-at", 47, .deviceListTruncated, "ends inside updated_at"),
            ("in-device-count", 50, .deviceListTruncated, "ends inside the device count"),
            ("in-device-ids", 52 + 40, .deviceListTruncated, "3 devices announced, 40 bytes left: the count exceeds what remains"),
            ("in-revoked-count", nrevAt + 3, .deviceListTruncated, "ends inside the revoked count"),
            ("in-revoked-ids", nrevAt + 4 + 31, .deviceListTruncated, "ends one byte short of the revoked id"),
            ("no-signature", sigAt, .deviceListMissingSignature, "ends right after the revoked ids: the signature is empty"),
        ]
        for (name, n, code, comment) in cuts {
            let cut = Array(w.prefix(n))
            try b.reject("truncated/\(name)", "list_decode", "\(comment) (\(n) of \(w.count) bytes)", flags: ["truncated"],
                         input: .object([("wire", .bytes(cut))]), code) { () throws(WireError) in _ = try DeviceList.decode(cut) }
        }
        let onlySuffix = DeviceList.retiredWireSuffix
        try b.reject("truncated/only-suffix", "list_decode", "just HVNLEAF1: stripped as the flag, then nothing is left for account_id", flags: ["truncated", "hvnleaf1"],
                     input: .object([("wire", .bytes(onlySuffix))]), .deviceListTruncated) { () throws(WireError) in _ = try DeviceList.decode(onlySuffix) }
        let retiredNoSig = Array(w.prefix(sigAt)) + onlySuffix
        try b.reject("truncated/retired-no-signature", "list_decode", "a complete body then HVNLEAF1 and nothing between: the signature is empty once the flag is stripped",
                     flags: ["hvnleaf1"], input: .object([("wire", .bytes(retiredNoSig))]), .deviceListMissingSignature) { () throws(WireError) in _ = try DeviceList.decode(retiredNoSig) }
        var hugeDevices = w
        hugeDevices.replaceSubrange(48..<52, with: le32(.max))
        try b.reject("count/devices-max", "list_decode", "device count 2^32 − 1: rejected as truncated before anything is allocated",
                     input: .object([("wire", .bytes(hugeDevices))]), .deviceListTruncated) { () throws(WireError) in _ = try DeviceList.decode(hugeDevices) }
        var hugeRevoked = w
        hugeRevoked.replaceSubrange(nrevAt..<nrevAt + 4, with: le32(.max))
        try b.reject("count/revoked-max", "list_decode", "revoked count 2^32 − 1: rejected as truncated before anything is allocated",
                     input: .object([("wire", .bytes(hugeRevoked))]), .deviceListTruncated) { () throws(WireError) in _ = try DeviceList.decode(hugeRevoked) }
        // A count that fits the remaining bytes but eats the signature: decodes, then fails verify.
        var greedy = w
        greedy.replaceSubrange(nrevAt..<nrevAt + 4, with: le32(100))
        let gd = try DeviceList.decode(greedy)
        try check(gd.revoked.count == 100 && gd.signature.count == 32 + 3373 - 100 * 32, "greedy count reads signature bytes as ids")
        b.add("count/revoked-eats-signature", "list_decode", "revoked count 100 where 1 was signed: 99 ids are read out of the signature, 205 bytes remain as the signature",
              input: .object([("wire", .bytes(greedy))]), expected: .output(DeviceListOutput.decodedList(gd)))
    }

    static func listVerifyCases(_ b: inout Builder, _ ids: Identities, _ s: SignedLists) throws {
        let pa = ids.a.bundle.bytes
        for (name, l) in [("two-devices", s.twoDevices), ("empty", s.empty), ("with-revoked", s.withRevoked), ("retired", s.retired), ("extremes", s.extremes)] {
            b.add("valid/\(name)", "list_verify", "the signed list \(name) verifies under account A; authorized = devices minus revoked" + (l.accountLeafRetired ? " minus the retired account leaf" : ""),
                  input: .object([("wire", .bytes(l.wire)), ("pinned", .bytes(pa))]), expected: .output(DeviceListOutput.listVerified(l)))
        }
        try check(!s.retired.authorized.contains(ids.a.nodeID) && s.withRevoked.authorized.contains(ids.a.nodeID), "retirement drops the account leaf")
        func verifyReject(_ id: String, _ comment: String, _ wire: [UInt8], pinned: [UInt8], _ code: ErrorCode, flags: [String] = []) throws {
            let input = CBOR.object([("wire", .bytes(wire)), ("pinned", .bytes(pinned))])
            try b.reject(id, "list_verify", comment, flags: flags, input: input, code) { () throws(WireError) in
                _ = try DeviceListHandler().run(op: "list_verify", input: input.json)
            }
        }
        let w = s.withRevoked.wire
        let nrevAt = 52 + 96, sigAt = nrevAt + 4 + 32
        try verifyReject("tamper/account-id", "account_id changed: it no longer names the pinned account", flip(w, at: 5), pinned: pa, .deviceListAccountMismatch, flags: ["tamper"])
        try verifyReject("tamper/account-id-above", "account_id all ff, above the pinned account's: it no longer names the pinned account",
                         [UInt8](repeating: 0xff, count: 32) + Array(w[32...]), pinned: pa, .deviceListAccountMismatch, flags: ["tamper"])
        try verifyReject("tamper/version", "version 5 → 4 (a rollback attempt without the key): the Ed25519 half fails, reported alone", flip(w, at: 32), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("tamper/updated-at", "updated_at changed: signed, so the Ed25519 half fails", flip(w, at: 40), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("tamper/device-id", "one bit of a device id flipped (a rogue device): the Ed25519 half fails", flip(w, at: 52 + 32 + 7), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("tamper/revoked-id", "one bit of the revoked id flipped (hiding a revocation): the Ed25519 half fails", flip(w, at: nrevAt + 4 + 3), pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        var swapped = w
        swapped.replaceSubrange(52..<116, with: Array(w[84..<116]) + Array(w[52..<84]))
        try verifyReject("tamper/device-order", "the first two device ids swapped: the order is signed (a verifier that sorts before checking accepts it)", swapped, pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        // The revoked id moved into the devices (un-revoking without the key).
        let unrevoked = Array(w[0..<48]) + le32(4) + Array(w[52..<nrevAt]) + Array(w[(nrevAt + 4)..<sigAt]) + le32(0) + Array(w[sigAt...])
        try check(try DeviceList.decode(unrevoked).isAuthorized(ids.d3.nodeID), "un-revoked device decodes as authorized")
        try verifyReject("tamper/unrevoke", "the revoked id moved into devices (4 devices, 0 revoked): decodes as authorized, fails verification", unrevoked, pinned: pa, .deviceListSigEd25519Invalid, flags: ["tamper"])
        try verifyReject("account/wrong-pinned", "verified against account B", w, pinned: ids.b.bundle.bytes, .deviceListAccountMismatch)
        try verifyReject("signature/ed25519-half", "one bit of the Ed25519 half flipped", flip(w, at: sigAt + 33), pinned: pa, .deviceListSigEd25519Invalid, flags: ["signature"])
        try verifyReject("signature/mldsa-half", "one bit inside the ML-DSA-65 half flipped", flip(w, at: sigAt + 64 + 500), pinned: pa, .deviceListSigMLDSAInvalid, flags: ["signature"])
        try verifyReject("signature/one-byte-short", "3,372 signature bytes, the Ed25519 half intact: the ML-DSA-65 part's length is wrong", Array(w.dropLast()), pinned: pa, .deviceListSigWrongLength, flags: ["signature"])
        try verifyReject("retired/flag-added", "HVNLEAF1 appended to a non-retired list without re-signing: the retired preimage is checked and the Ed25519 half fails",
                         w + DeviceList.retiredWireSuffix, pinned: pa, .deviceListSigEd25519Invalid, flags: ["hvnleaf1", "tamper"])
        try verifyReject("retired/flag-stripped", "HVNLEAF1 removed from a retired list (un-retiring without the key): the Ed25519 half fails",
                         Array(s.retired.wire.dropLast(8)), pinned: pa, .deviceListSigEd25519Invalid, flags: ["hvnleaf1", "tamper"])
        var forced = w
        forced.replaceSubrange(forced.count - 8..<forced.count, with: DeviceList.retiredWireSuffix)
        try verifyReject("hvnleaf1/forced-tail", "a non-retired signature forced to end in HVNLEAF1 decodes as retired with 3,365 signature bytes and fails closed: the Ed25519 half is checked first, against the retired preimage (a length-first verifier says wrong_length)",
                         forced, pinned: pa, .deviceListSigEd25519Invalid, flags: ["hvnleaf1"])
        let padded = Array(w.dropLast(8)) + [UInt8](repeating: 0, count: 8) + DeviceList.retiredWireSuffix
        try verifyReject("hvnleaf1/forced-tail-full-length", "the last 8 signature bytes replaced by 8 zero bytes then HVNLEAF1: 3,373 bytes remain once the flag is stripped, the retired preimage is checked and the Ed25519 half fails",
                         padded, pinned: pa, .deviceListSigEd25519Invalid, flags: ["hvnleaf1"])
        try verifyReject("truncated/in-device-ids", "decoding fails before verification", Array(w.prefix(60)), pinned: pa, .deviceListTruncated)
        // Two problems: Haven's FFI parses the pinned bundle before it decodes the wire (§10.3).
        try verifyReject("order/truncated-wire-bad-pinned", "a truncated wire and a 3,199-byte pinned key: the pinned bundle is parsed first (Haven's verify_device_list), so device_list_bad_bundle, not the wire's truncation",
                         Array(w.prefix(60)), pinned: Array(pa.prefix(3199)), .deviceListBadBundle, flags: ["order"])
    }

    // MARK: is_authorized, adopt_if_newer (§10.3)

    static func plain(_ ids: Identities, _ version: UInt64, _ devices: [DeviceID], _ revoked: [DeviceID] = [], retired: Bool = false, updatedAt: UInt64? = nil) -> DeviceList {
        DeviceList(accountID: ids.a.nodeID, version: version, updatedAt: updatedAt ?? base + min(version, 1_000_000) * 60, devices: devices, revoked: revoked, accountLeafRetired: retired)
    }

    static func authorizationCases(_ b: inout Builder, _ ids: Identities) throws {
        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID, d3 = ids.d3.nodeID
        let live = plain(ids, 4, [a, d1, d2], [d2])
        let retired = plain(ids, 5, [a, d1, d2], [d2], retired: true)
        let noLeaf = plain(ids, 3, [d1], [])
        let cases: [(String, DeviceList, DeviceID, Bool, String)] = [
            ("listed", live, d1, true, "in devices, not revoked"),
            ("listed-and-revoked", live, d2, false, "in devices and in revoked: revoked wins"),
            ("not-listed", live, d3, false, "in neither set"),
            ("revoked-only", plain(ids, 4, [a, d1], [d3]), d3, false, "a tombstone for an id never listed"),
            ("account-leaf", live, a, true, "the account id listed as a device, not retired"),
            ("account-leaf-retired", retired, a, false, "the account leaf after retirement: not authorized although listed"),
            ("device-when-retired", retired, d1, true, "retirement drops only the account leaf; device leaves remain"),
            ("account-not-listed", noLeaf, a, false, "the account id is not implicitly authorized"),
        ]
        for (name, l, id, expected, comment) in cases {
            try check(l.isAuthorized(id) == expected, "is_authorized \(name)")
            b.add("rule/\(name)", "is_authorized", comment,
                  input: .object([("list", DeviceListOutput.list(l)), ("device_id", .bytes(id.bytes))]),
                  expected: .output(.object([("authorized", .bool(expected))])))
        }
        // Retirement drops the account leaf only: a device whose id sorts above the account id
        // stays authorized (a test written `>=` for `==` drops it; a cosmic-ray survivor of pixie).
        let above = DeviceID([UInt8](repeating: 0xff, count: 32))!
        try check(above > a, "ff…ff sorts above the account id")
        let retiredAbove = plain(ids, 5, [a, d1, above], [], retired: true)
        try check(retiredAbove.isAuthorized(above), "is_authorized device-above-account-when-retired")
        b.add("rule/device-above-account-when-retired", "is_authorized", "a device whose id sorts above the account id, on a retired list: authorized (only the account leaf is dropped)",
              flags: [InputBeforeRulesCases.notABase],
              input: .object([("list", DeviceListOutput.list(retiredAbove)), ("device_id", .bytes(above.bytes))]), expected: .output(.object([("authorized", .bool(true))])))
        var badID = DeviceListOutput.list(live)
        if case .map(var e) = badID { e[3].value = .array([.bytes([1, 2, 3])]); badID = .map(e) }
        try b.reject("input/short-id", "is_authorized", "a listed id of 3 bytes", input: .object([("list", badID), ("device_id", .bytes(d1.bytes))]), .inputBadLength) { () throws(WireError) in
            _ = try DeviceListInput.list(.object([("list", badID.json)]), "list")
        }
    }

    static func adoptCases(_ b: inout Builder, _ ids: Identities) throws {
        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID
        let local = plain(ids, 5, [a, d1, d2], [])
        let cases: [(String, DeviceList, DeviceList, Bool, String)] = [
            ("lower", local, plain(ids, 4, [a, d1], [d2]), false, "a replayed version 4 against local version 5: refused (rollback defence)"),
            ("equal", local, plain(ids, 5, [a, d1], [d2], updatedAt: base + 9999), false, "the same version with other content: refused, strictly higher only"),
            ("higher", local, plain(ids, 6, [a, d1], [d2]), true, "version 6 replaces version 5 wholesale (the revocation arrives)"),
            ("higher-other-account", local, DeviceList(accountID: ids.b.nodeID, version: 99, updatedAt: base, devices: [ids.b.nodeID], revoked: [], accountLeafRetired: false),
             false, "a higher version of another account's list: refused"),
            // The same with the accounts the other way round (the other id below the local one):
            // an account compared by order passes one of the two (a cosmic-ray survivor of pixie).
            ("higher-other-account-reversed", DeviceList(accountID: ids.b.nodeID, version: 5, updatedAt: base, devices: [ids.b.nodeID], revoked: [], accountLeafRetired: false),
             plain(ids, 99, [a]), false, "account B's list holding a higher version of account A's list: refused"),
            ("retirement-not-rolled-back", plain(ids, 7, [a, d1], [], retired: true), plain(ids, 6, [a, d1, d2], []), false,
             "an older non-retired list cannot un-retire a retired one"),
        ]
        for (name, l, o, expected, comment) in cases {
            var got = l
            let adopted = got.adoptIfNewer(o)
            try check(adopted == expected && got == (expected ? o : l), "adopt \(name)")
            // Added after the first release: never the base of the derived input cases (SPEC §2.3).
            b.add("version/\(name)", "adopt_if_newer", comment, flags: name == "higher-other-account-reversed" ? [InputBeforeRulesCases.notABase] : [],
                  input: .object([("local", DeviceListOutput.list(l)), ("other", DeviceListOutput.list(o))]),
                  expected: .output(DeviceListOutput.adopted(adopted, got)))
        }
    }

    // MARK: merge (§10.4)

    static func mergeInput(_ seed: [UInt8], _ l: DeviceList, _ r: DeviceList, _ updatedAt: UInt64) -> CBOR {
        .object([("account_seed", .bytes(seed)), ("local", DeviceListOutput.list(l)), ("remote", DeviceListOutput.list(r)), ("updated_at", .unsigned(updatedAt))])
    }

    /// Adds a merge case and returns the merged (signed) list, checking `expect` on it.
    @discardableResult
    static func merge(_ b: inout Builder, _ ids: Identities, _ id: String, _ comment: String, _ l: DeviceList, _ r: DeviceList,
                      flags: [String] = [], expect: (DeviceList?) -> Bool) throws -> DeviceList? {
        let at = base + 100_000
        let m = try DeviceListMerge.merge(local: l, remote: r, updatedAt: at)?.signed(by: ids.a)
        try check(expect(m), "merge \(id)")
        if let m { try m.verify(pinned: ids.a.bundle) }
        b.add(id, "merge", comment, flags: ["merge"] + flags, input: mergeInput(ids.a.seed, l, r, at), expected: .output(DeviceListOutput.change(m)))
        return m
    }

    static func mergeCases(_ b: inout Builder, _ ids: Identities) throws {
        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID, d3 = ids.d3.nodeID
        func authorized(_ m: DeviceList?, _ set: [DeviceID]) -> Bool { m.map { Set($0.authorized) == Set(set) } ?? false }

        try merge(&b, ids, "union/disjoint-devices", "each replica registered a different device: union, version max(3, 9) + 1 = 10, ids sorted",
                  plain(ids, 3, [a, d1]), plain(ids, 9, [a, d2])) { m in
            m?.version == 10 && m?.devices == [a, d1, d2].sorted() && m?.revoked == [] }
        try merge(&b, ids, "union/newer-revocation", "the newer replica revoked d2: the revocation is unioned in, d2 leaves devices",
                  plain(ids, 4, [a, d1, d2]), plain(ids, 5, [a, d1], [d2])) { m in
            m?.version == 6 && m?.revoked == [d2] && !(m?.devices.contains(d2) ?? true) }
        try merge(&b, ids, "union/older-revocation-not-readded", "d2 revoked only in the older replica and absent from the newer one's devices: the revocation is kept",
                  plain(ids, 7, [a, d1]), plain(ids, 5, [a, d1, d2], [d2])) { m in
            m?.version == 8 && m?.revoked == [d2] && m?.devices == [a, d1].sorted() }
        // A tombstone both replicas hold, then one only the remote holds: the repeat is skipped,
        // not the end of the list (a `continue` written `break` drops d3; a cosmic-ray survivor).
        try merge(&b, ids, "union/revoked-in-both-then-another", "both revoked d2 and the remote also d3: the shared tombstone is kept once and d3 is unioned in",
                  plain(ids, 4, [a, d1], [d2]), plain(ids, 5, [a, d1], [d2, d3]), flags: [InputBeforeRulesCases.notABase]) { m in m?.revoked == [d2, d3].sorted() && m?.version == 6 }
        try merge(&b, ids, "union/tombstone-of-unknown-id", "the remote revoked an id the local list never had: the tombstone is kept, devices unchanged",
                  plain(ids, 2, [a, d1]), plain(ids, 2, [a, d1], [d3])) { m in m?.revoked == [d3] && m?.version == 3 }
        try merge(&b, ids, "reauthorize/remote-newer", "d2 revoked in the older local copy, listed unrevoked in the strictly newer remote (an explicit re-authorization): d2 is authorized",
                  plain(ids, 5, [a, d1], [d2]), plain(ids, 7, [a, d1, d2])) { m in
            m?.version == 8 && m?.revoked == [] && authorized(m, [a, d1, d2]) }
        // The re-authorized device still listed in the older copy's devices: only the tombstone
        // moves. A change test comparing the revoked lists by order (`<=` for `==`) sees [] below
        // [d2] and answers no change (a cosmic-ray survivor of pixie, issue 25).
        try merge(&b, ids, "reauthorize/remote-newer-device-still-listed",
                  "d2 listed and revoked in the older local copy, listed unrevoked in the newer remote: only the tombstone goes, a change signed at version 8",
                  plain(ids, 5, [a, d1, d2], [d2]), plain(ids, 7, [a, d1, d2]), flags: [InputBeforeRulesCases.notABase]) { m in
            m?.version == 8 && m?.revoked == [] && m?.devices == [a, d1, d2].sorted() }
        try merge(&b, ids, "reauthorize/local-newer", "the local copy is the newer re-authorization: merging the older copy changes nothing, no re-sign",
                  plain(ids, 7, [a, d1, d2]), plain(ids, 5, [a, d1], [d2])) { $0 == nil }
        try merge(&b, ids, "reauthorize/newer-also-revokes", "the newer list lists d2 but also revokes it (and adds d3): no re-authorization, which needs d2 absent from the newer revoked set",
                  plain(ids, 5, [a, d1], [d2]), plain(ids, 7, [a, d1, d2, d3], [d2])) { m in m?.revoked == [d2] && m?.devices == [a, d1, d3].sorted() && m?.version == 8 }
        try merge(&b, ids, "tie/revocation-stays", "equal versions disagreeing about d2: the revocation stays",
                  plain(ids, 6, [a, d1, d2]), plain(ids, 6, [a, d1], [d2])) { m in m?.version == 7 && m?.revoked == [d2] }
        try merge(&b, ids, "tie/local-revocation-stays", "equal versions, the local copy holds the revocation: no change",
                  plain(ids, 6, [a, d1], [d2]), plain(ids, 6, [a, d1, d2])) { $0 == nil }
        try merge(&b, ids, "same/identical", "two identical copies: no change", plain(ids, 4, [a, d1, d2], [d3]), plain(ids, 4, [a, d1, d2], [d3])) { $0 == nil }
        try merge(&b, ids, "same/remote-higher-version", "the remote is newer but holds the same membership: no change (merge compares membership, not versions)",
                  plain(ids, 3, [a, d1]), plain(ids, 9, [d1, a])) { $0 == nil }
        try merge(&b, ids, "same/local-unsorted", "local ids out of order, same membership: compared sorted, no change",
                  plain(ids, 3, [d1, a].sorted(by: >)), plain(ids, 2, [a])) { $0 == nil }
        try merge(&b, ids, "same/other-account", "a remote list of another account: no change",
                  plain(ids, 3, [a, d1]), DeviceList(accountID: ids.b.nodeID, version: 50, updatedAt: base, devices: [ids.b.nodeID, d2], revoked: [], accountLeafRetired: false)) { $0 == nil }
        // The same with the accounts the other way round (the remote's id below the local's): an
        // account compared by order passes one of the two (a cosmic-ray survivor of pixie, issue 25).
        let bLocal = DeviceList(accountID: ids.b.nodeID, version: 3, updatedAt: base, devices: [ids.b.nodeID], revoked: [], accountLeafRetired: false)
        let aRemote = plain(ids, 50, [a, d2])
        try check(try DeviceListMerge.merge(local: bLocal, remote: aRemote, updatedAt: base + 100_000) == nil, "merge other-account-reversed: no change")
        b.add("same/other-account-reversed", "merge", "account B's copy meets a remote list of account A: another account's list, no change",
              flags: ["merge", InputBeforeRulesCases.notABase], input: mergeInput(ids.b.seed, bLocal, aRemote, base + 100_000), expected: .output(DeviceListOutput.change(nil)))
        // Equal versions above 256 (CPython caches ints up to 256, the JVM boxes -128…127 once):
        // a re-authorization test comparing versions by identity sees two equal versions as
        // different and re-authorizes d2 (a cosmic-ray survivor of pixie, issue 25).
        try merge(&b, ids, "reauthorize/equal-versions-above-256", "both copies at version 300, d2 revoked only in the remote: equal versions re-authorize nothing, the tombstone is unioned in",
                  plain(ids, 300, [a, d1, d2]), plain(ids, 300, [a, d1, d2], [d2]), flags: [InputBeforeRulesCases.notABase]) { m in m?.revoked == [d2] && m?.version == 301 }
        try merge(&b, ids, "same/local-duplicate", "the local list carries d1 twice: the merge deduplicates, so it differs from the local sequence and is re-signed",
                  plain(ids, 2, [a, d1, d1]), plain(ids, 2, [a, d1])) { m in m?.devices == [a, d1].sorted() && m?.version == 3 }
        try merge(&b, ids, "retired/older-remote-retired", "retirement is sticky: an older remote that retired still retires the merge",
                  plain(ids, 8, [a, d1, d2]), plain(ids, 6, [a, d1], retired: true)) { m in m?.accountLeafRetired == true && m?.version == 9 && !(m?.isAuthorized(a) ?? true) }
        try merge(&b, ids, "retired/local-retired", "a retired local copy and a newer non-retired remote with the same sets: still retired, no change",
                  plain(ids, 6, [a, d1], retired: true), plain(ids, 8, [a, d1])) { $0 == nil }

        // The flip-flop a grow-only revoked set caused: d2 revoked at 5, re-added by
        // with_self_added at 6; every stale replica at 5 used to re-revoke it.
        let v5 = plain(ids, 5, [a, d1], [d2], updatedAt: base + 500)
        guard let v6 = try DeviceListMerge.withSelfAdded(v5, id: d2, updatedAt: base + 600) else { throw StateDigestVectors.GeneratorCheckFailed(description: "self-add v6") }
        try check(v6.devices == [a, d1, d2] && v6.revoked == [] && v6.version == 6, "flip-flop setup")
        try merge(&b, ids, "flipflop/fresh-keeps-readd", "the re-authorized copy (v6) meets a stale replica (v5, d2 revoked): no change; a grow-only revoked set would re-revoke d2 here",
                  v6, v5, flags: ["flipflop"]) { $0 == nil }
        let v7 = try merge(&b, ids, "flipflop/stale-learns-readd", "the stale replica (v5) learns the re-authorization from v6: d2 authorized at version 7",
                           v5, v6, flags: ["flipflop"]) { m in m?.version == 7 && authorized(m, [a, d1, d2]) }
        guard let v7 else { return }
        try merge(&b, ids, "flipflop/converged", "v7 against v6 and v5 in turn: no change either way, the devices converge and stop re-signing",
                  v7, v6, flags: ["flipflop"]) { $0 == nil }
        try check(try DeviceListMerge.merge(local: v7, remote: v5, updatedAt: 0) == nil, "v7 vs v5 converged")
        try merge(&b, ids, "flipflop/converged-with-v5", "v7 against the stale v5: still no change", v7, v5, flags: ["flipflop"]) { $0 == nil }

        let top = plain(ids, .max, [a, d1])
        try b.reject("version/exhausted", "merge", "local version 2^64 − 1 and a change to sign: no version can follow",
                     input: mergeInput(ids.a.seed, top, plain(ids, 3, [a, d2]), base), .deviceListVersionExhausted) { () throws(WireError) in
            _ = try DeviceListMerge.merge(local: top, remote: plain(ids, 3, [a, d2]), updatedAt: base)
        }
        try b.reject("signer/wrong-seed", "merge", "the seed derives account B, the lists are account A's: only the account re-signs its roster",
                     input: mergeInput(ids.b.seed, plain(ids, 3, [a, d1]), plain(ids, 4, [a, d2]), base), .deviceListSignerMismatch) { () throws(WireError) in
            try DeviceListInput.checkSigner(ids.b, plain(ids, 3, [a, d1]))
        }
        // The seed of the account whose id sorts below the lists' account: a signer test that
        // compares ids by order refuses only wrong-seed's direction (a cosmic-ray survivor of pixie).
        let (lowSigner, highAccount) = ids.a.nodeID < ids.b.nodeID ? (ids.a, ids.b) : (ids.b, ids.a)
        let highLocal = DeviceList(accountID: highAccount.nodeID, version: 3, updatedAt: base, devices: [highAccount.nodeID], revoked: [], accountLeafRetired: false)
        let highRemote = DeviceList(accountID: highAccount.nodeID, version: 4, updatedAt: base, devices: [highAccount.nodeID, d1], revoked: [], accountLeafRetired: false)
        try b.reject("signer/seed-of-a-lower-account", "merge", "the seed derives the account whose id sorts below the lists' account: only the account re-signs its roster",
                     flags: [InputBeforeRulesCases.notABase], input: mergeInput(lowSigner.seed, highLocal, highRemote, base), .deviceListSignerMismatch) { () throws(WireError) in
            try DeviceListInput.checkSigner(lowSigner, highLocal)
        }
        // Two problems: the signer check runs before step 1's account compare (§10.4).
        let otherAccount = DeviceList(accountID: ids.b.nodeID, version: 50, updatedAt: base, devices: [ids.b.nodeID, d2], revoked: [], accountLeafRetired: false)
        let signerFirst = mergeInput(ids.b.seed, plain(ids, 3, [a, d1]), otherAccount, base)
        try b.reject("order/signer-before-other-account", "merge", "account B's seed merging account B's list into account A's: the signer mismatch is reported, not \"no change\" for another account's list",
                     flags: ["order"], input: signerFirst, .deviceListSignerMismatch) { () throws(WireError) in
            _ = try DeviceListHandler().run(op: "merge", input: signerFirst.json)
        }
    }

    // MARK: with_self_added, with_account_leaf_retired (§10.4)

    static func selfAddAndRetireCases(_ b: inout Builder, _ ids: Identities) throws {
        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID, d3 = ids.d3.nodeID
        let at = base + 200_000
        func selfAdd(_ id: String, _ comment: String, _ l: DeviceList, _ dev: DeviceID, flags: [String] = [], expect: (DeviceList?) -> Bool) throws {
            let m = try DeviceListMerge.withSelfAdded(l, id: dev, updatedAt: at)?.signed(by: ids.a)
            try check(expect(m), "self-add \(id)")
            b.add(id, "with_self_added", comment, flags: flags,
                  input: .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(l)), ("device_id", .bytes(dev.bytes)), ("updated_at", .unsigned(at))]),
                  expected: .output(DeviceListOutput.change(m)))
        }
        try selfAdd("add/new-device", "a device not yet listed is appended (not sorted), version + 1", plain(ids, 4, [d1, a]), d3) { m in
            m?.devices == [d1, a, d3] && m?.version == 5 }
        try selfAdd("add/already-present", "already listed and not revoked: no change, no version bump", plain(ids, 4, [a, d1]), d1) { $0 == nil }
        try selfAdd("add/readd-revoked", "listed but revoked: the tombstone is cleared (explicit re-authorization), the flag kept retired", plain(ids, 4, [a, d1, d2], [d3, d2], retired: true), d2) { m in
            m?.devices == [a, d1, d2] && m?.revoked == [d3] && m?.accountLeafRetired == true && m?.version == 5 }
        // Re-adding a device whose id sorts below another tombstone: that tombstone stays (a filter
        // written `<` for `!=` keeps only the lower ones; a cosmic-ray survivor of pixie).
        let (lower, higher) = d2 < d3 ? (d2, d3) : (d3, d2)
        try selfAdd("add/readd-revoked-keeps-a-higher-tombstone", "the re-added device's id sorts below the other tombstone: only its own tombstone is cleared",
                    plain(ids, 4, [a, d1, lower], [higher, lower]), lower, flags: [InputBeforeRulesCases.notABase]) { m in m?.revoked == [higher] && m?.version == 5 }
        try selfAdd("add/revoked-not-listed", "revoked but not listed: appended and its tombstone cleared", plain(ids, 2, [a], [d1]), d1) { m in
            m?.devices == [a, d1] && m?.revoked == [] }

        let top = plain(ids, .max, [a])
        try b.reject("version/exhausted", "with_self_added", "version 2^64 − 1: no version can follow",
                     input: .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(top)), ("device_id", .bytes(d1.bytes)), ("updated_at", .unsigned(at))]),
                     .deviceListVersionExhausted) { () throws(WireError) in _ = try DeviceListMerge.withSelfAdded(top, id: d1, updatedAt: at) }
        try b.reject("signer/wrong-seed", "with_self_added", "the seed derives account B",
                     input: .object([("account_seed", .bytes(ids.b.seed)), ("list", DeviceListOutput.list(plain(ids, 1, [a]))), ("device_id", .bytes(d1.bytes)), ("updated_at", .unsigned(at))]),
                     .deviceListSignerMismatch) { () throws(WireError) in try DeviceListInput.checkSigner(ids.b, plain(ids, 1, [a])) }
        // Version 2^64 − 1 with nothing to change: "no change" is answered, exhaustion never arises (§10.4).
        func noChange(_ id: String, _ op: String, _ comment: String, _ input: CBOR) throws {
            let got = try DeviceListHandler().run(op: op, input: input.json)
            try check(got == DeviceListOutput.change(nil).json, "\(op) \(id): no change")
            b.add(id, op, comment, flags: ["version"], input: input, expected: .output(DeviceListOutput.change(nil)))
        }
        try noChange("version/max-already-present", "with_self_added", "version 2^64 − 1 and the device already listed: no change (nothing is signed, so no version is needed)",
                     .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(plain(ids, .max, [a, d1]))), ("device_id", .bytes(d1.bytes)), ("updated_at", .unsigned(at))]))
        // Two problems: the signer check runs before the exhaustion check.
        let wrongSignerAtMax = CBOR.object([("account_seed", .bytes(ids.b.seed)), ("list", DeviceListOutput.list(top)), ("device_id", .bytes(d1.bytes)), ("updated_at", .unsigned(at))])
        try b.reject("order/signer-before-exhausted", "with_self_added", "account B's seed adding a device to account A's list at version 2^64 − 1: the signer mismatch is reported, not exhaustion",
                     flags: ["order"], input: wrongSignerAtMax, .deviceListSignerMismatch) { () throws(WireError) in
            _ = try DeviceListHandler().run(op: "with_self_added", input: wrongSignerAtMax.json)
        }

        func retire(_ id: String, _ comment: String, _ l: DeviceList, expect: (DeviceList?) -> Bool) throws {
            let m = try DeviceListMerge.withAccountLeafRetired(l, updatedAt: at)?.signed(by: ids.a)
            try check(expect(m), "retire \(id)")
            b.add(id, "with_account_leaf_retired", comment,
                  input: .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(l)), ("updated_at", .unsigned(at))]),
                  expected: .output(DeviceListOutput.change(m)))
        }
        try retire("retire/first-time", "sets the flag, same sets in the same order, version + 1; the account leaf stops being authorized", plain(ids, 9, [a, d2, d1], [d3])) { m in
            m?.accountLeafRetired == true && m?.devices == [a, d2, d1] && m?.version == 10 && m?.isAuthorized(a) == false && m?.isAuthorized(d1) == true }
        try retire("retire/already", "already retired: no change (the flag is sticky, re-retiring bumps nothing)", plain(ids, 9, [a, d1], retired: true)) { $0 == nil }
        try b.reject("version/exhausted", "with_account_leaf_retired", "version 2^64 − 1: no version can follow",
                     input: .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(top)), ("updated_at", .unsigned(at))]),
                     .deviceListVersionExhausted) { () throws(WireError) in _ = try DeviceListMerge.withAccountLeafRetired(top, updatedAt: at) }
        try noChange("version/max-already-retired", "with_account_leaf_retired", "version 2^64 − 1 and already retired: no change (nothing is signed, so no version is needed)",
                     .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(plain(ids, .max, [a, d1], retired: true))), ("updated_at", .unsigned(at))]))
        // Two problems: the signer check runs before the exhaustion check.
        let wrongRetirerAtMax = CBOR.object([("account_seed", .bytes(ids.b.seed)), ("list", DeviceListOutput.list(top)), ("updated_at", .unsigned(at))])
        try b.reject("order/signer-before-exhausted", "with_account_leaf_retired", "account B's seed retiring account A's leaf at version 2^64 − 1: the signer mismatch is reported, not exhaustion",
                     flags: ["order"], input: wrongRetirerAtMax, .deviceListSignerMismatch) { () throws(WireError) in
            _ = try DeviceListHandler().run(op: "with_account_leaf_retired", input: wrongRetirerAtMax.json)
        }
    }

    // MARK: contact side (§10.5)

    static func contactCases(_ b: inout Builder, _ ids: Identities) throws {
        // The contact's view of account A: the primary is the device it first handshook.
        let p = ids.d1.nodeID, d2 = ids.d2.nodeID, d3 = ids.d3.nodeID, x = syntheticID(9)
        typealias R = ContactDeviceSet.Record
        func apply(_ id: String, _ comment: String, known: [R], advertised: [DeviceID], flags: [String] = [], expect: (ContactDeviceSet) -> Bool) throws {
            var set = try ContactDeviceSet(primary: p, records: known)
            try set.apply(advertised: advertised)
            try check(expect(set), "contact_apply \(id)")
            b.add(id, "contact_apply", comment, flags: flags, input: contactInput(p, known, advertised), expected: .output(DeviceListOutput.contactSet(set)))
        }
        func state(_ s: ContactDeviceSet, _ d: DeviceID) -> Bool? { s.records.first { $0.device == d }?.revoked }
        try apply("apply/first", "nothing known yet: every advertised device is inserted live", known: [], advertised: [p, d2]) { s in
            s.fanout == [p, d2].sorted() }
        try apply("apply/new-device", "a newly linked device is upserted", known: [R(device: p, revoked: false)], advertised: [p, d3]) { s in
            state(s, d3) == false && s.records.count == 2 }
        try apply("apply/dropped-device", "a device the advertisement drops is tombstoned (revoked = true), so fan-out stops", known: [R(device: p, revoked: false), R(device: d2, revoked: false), R(device: d3, revoked: false)], advertised: [p, d3]) { s in
            state(s, d2) == true && s.fanout == [p, d3].sorted() }
        // A dropped device whose id sorts above the primary's: tombstoned too (a test written
        // `<` for `!=` against the primary spares it; a cosmic-ray survivor of pixie).
        let abovePrimary = DeviceID([UInt8](repeating: 0xff, count: 32))!
        try check(abovePrimary > p, "ff…ff sorts above the primary")
        try apply("apply/dropped-device-above-primary", "a dropped device whose id sorts above the primary's is tombstoned like any other",
                  known: [R(device: p, revoked: false), R(device: abovePrimary, revoked: false)], advertised: [p],
                  flags: [InputBeforeRulesCases.notABase]) { s in state(s, abovePrimary) == true && state(s, p) == false }
        try apply("apply/primary-never-tombstoned", "the advertisement drops the primary: it stays live (the threading anchor), the gap the chain filter closes", known: [R(device: p, revoked: false), R(device: d2, revoked: false)], advertised: [d2]) { s in
            state(s, p) == false && s.fanout.contains(p) }
        try apply("apply/primary-keeps-tombstone", "a primary already tombstoned and not advertised keeps its state: apply never changes the primary except by advertising it", known: [R(device: p, revoked: true), R(device: d2, revoked: false)], advertised: [d2]) { s in
            state(s, p) == true }
        try apply("apply/readvertised", "a tombstoned device advertised again is live again (upsert)", known: [R(device: p, revoked: false), R(device: d2, revoked: true)], advertised: [p, d2]) { s in
            state(s, d2) == false }
        try apply("apply/duplicate-advertised", "an id advertised twice counts once", known: [R(device: p, revoked: false)], advertised: [x, p, x]) { s in
            s.records.count == 2 }
        try b.reject("apply/empty-advertisement", "contact_apply", "an empty advertisement would tombstone everything but the primary on no evidence: refused",
                     input: contactInput(p, [R(device: p, revoked: false), R(device: d2, revoked: false)], []), .deviceListEmptyAdvertisement) { () throws(WireError) in
            var s = try ContactDeviceSet(primary: p, records: [R(device: p, revoked: false), R(device: d2, revoked: false)])
            try s.apply(advertised: [])
        }
        try b.reject("apply/duplicate-known", "contact_apply", "two records for one device",
                     input: contactInput(p, [R(device: d2, revoked: false), R(device: d2, revoked: true)], [p]), .duplicateKey) { () throws(WireError) in
            _ = try ContactDeviceSet(primary: p, records: [R(device: d2, revoked: false), R(device: d2, revoked: true)])
        }
        // Two problems: duplicate known records are checked before the empty advertisement (§10.5 step 1).
        let dupAndEmpty = contactInput(p, [R(device: p, revoked: false), R(device: d2, revoked: false), R(device: d2, revoked: true)], [])
        try b.reject("order/duplicate-known-before-empty", "contact_apply", "two records for d2 and an empty advertisement: duplicate_key, not device_list_empty_advertisement",
                     flags: ["order"], input: dupAndEmpty, .duplicateKey) { () throws(WireError) in
            _ = try DeviceListHandler().run(op: "contact_apply", input: dupAndEmpty.json)
        }

        // The chain-authorized filter.
        let a = ids.a.nodeID
        func filter(_ id: String, _ comment: String, _ fanout: [DeviceID], _ chain: DeviceList?, expect: [DeviceID]) throws {
            let r = ContactDeviceSet.chainAuthorizedFilter(fanout, chain: chain)
            try check(r == expect.sorted(), "fanout_filter \(id)")
            b.add(id, "fanout_filter", comment,
                  input: .object([("fanout", idsTree(fanout)), ("chain", chain.map(DeviceListOutput.list) ?? .null)]),
                  expected: .output(DeviceListOutput.recipients(r)))
        }
        let chain = plain(ids, 8, [a, d2, d3], [p])
        try filter("filter/no-chain", "no bound chain (first contact, legacy peer, publish not landed): the full set, primary included", [p, d2], nil, expect: [p, d2])
        try filter("filter/intersect-drops-primary", "a bound chain that revoked the primary: the primary the apply rule kept is dropped here", [p, d2], chain, expect: [d2])
        try filter("filter/empty-intersection", "nothing in the fan-out set is authorized: empty, no rescue to the primary", [p], chain, expect: [])
        try filter("filter/not-in-fanout", "the chain authorizes d3 but the fan-out set lacks it: the filter only removes, never adds", [p, d2], chain, expect: [d2])
        try filter("filter/retired-account-leaf", "the account id in the fan-out set, chain retired: dropped", [a, d2],
                   plain(ids, 9, [a, d2], retired: true), expect: [d2])
        try filter("filter/duplicates", "duplicates in the fan-out set count once; the result is ascending", [d3, d2, d3], chain, expect: [d2, d3])
    }

    static func contactInput(_ primary: DeviceID, _ known: [ContactDeviceSet.Record], _ advertised: [DeviceID]) -> CBOR {
        .object([("primary", .bytes(primary.bytes)),
                 ("known", .array(known.map { .object([("device", .bytes($0.device.bytes)), ("revoked", .bool($0.revoked))]) })),
                 ("advertised", idsTree(advertised))])
    }
}

import Primitives

/// Edge-class cases for the Haven ops (SPEC.md §10.1–§10.4, §10.6), designed from how
/// implementations go wrong rather than from the reference: integers at their edges and in the
/// wrong JSON type, length and count fields at their limits and with the high bit set, names that
/// stock Unicode handling changes, hex case and length, missing / null / extra members, id lists
/// with duplicates, and two faults at once where an order is stated. Each comment names the bug.
extension DeviceListVectors {
    /// A copy of an object tree with one member replaced (or removed when `value` is nil).
    static func setting(_ tree: CBOR, _ name: String, _ value: CBOR?) -> CBOR {
        guard case .map(let entries) = tree else { return tree }
        var out: [CBORMapEntry] = []
        for e in entries {
            if e.key == .text(name) {
                if let value { out.append(CBORMapEntry(key: e.key, value: value)) }
            } else {
                out.append(e)
            }
        }
        return .map(out)
    }

    // MARK: credentials

    static func credentialEdgeCases(_ b: inout Builder, _ ids: Identities) throws {
        let acct = ids.a, dev = ids.d1.bundle
        func issue(_ id: String, _ comment: String, name: String, createdAt: CBOR, _ createdValue: UInt64) throws -> DeviceCredential {
            let c = try DeviceCredential.issue(account: acct, device: dev, name: name, createdAt: createdValue)
            try c.verify(pinned: acct.bundle)
            b.add(id, "credential_issue", comment,
                  input: .object([("account_seed", .bytes(acct.seed)), ("device_bundle", .bytes(dev.bytes)), ("name", .text(name)), ("created_at", createdAt)]),
                  expected: .output(DeviceListOutput.issued(c)))
            return c
        }
        let nfc = try issue("issue/name-nfc", "name \"Café\" with U+00E9 (NFC): its 5 UTF-8 bytes are signed", name: "Caf\u{E9}", createdAt: .unsigned(base), base)
        let nfd = try issue("issue/name-nfd", "name \"Café\" as e + U+0301 (NFD): 6 bytes signed as given; a signer that normalises to NFC produces the NFC case's bytes",
                            name: "Cafe\u{301}", createdAt: .unsigned(base), base)
        try check(nfc.signingBytes != nfd.signingBytes && nfd.name.utf8.count == 6, "NFC and NFD sign differently")
        let nul = try issue("issue/name-nul", "a U+0000 inside the name: signed as the byte 00 (a C-string API cuts the name there)", name: "i\u{0}Pad", createdAt: .unsigned(base), base)
        try check(Array(nul.name.utf8) == [0x69, 0, 0x50, 0x61, 0x64], "NUL kept")
        _ = try issue("issue/name-256-bytes", "a 256-byte name: name_len 00 01 00 00 (a one-byte length field writes 0)",
                      name: String(repeating: "n", count: 256), createdAt: .unsigned(base), base)
        _ = try issue("issue/created-at-max", "created_at 2^64 − 1 as a decimal string: ff…ff in the signed bytes (a signed 64-bit reader refuses it)",
                      name: "max", createdAt: .text(String(UInt64.max)), .max)
        _ = try issue("issue/created-at-2-53-plus-1", "created_at 2^53 + 1 as a decimal string: 01 00 00 00 00 00 20 00 signed (a reader going through a double signs 2^53)",
                      name: "exact", createdAt: .text(String((UInt64(1) << 53) + 1)), (1 << 53) + 1)

        // Bundles: the §10.1 Ed25519 rule at its edges.
        func badBundle(_ id: String, _ comment: String, _ bytes: [UInt8]) throws {
            let input = CBOR.object([("account_seed", .bytes(acct.seed)), ("device_bundle", .bytes(bytes)), ("name", .text("x")), ("created_at", .unsigned(base))])
            try b.reject(id, "credential_issue", comment, input: input, .deviceListBadBundle) { () throws(WireError) in
                _ = try DeviceListHandler().run(op: "credential_issue", input: input.json)
            }
        }
        var offCurve = dev.bytes
        offCurve.replaceSubrange(0..<32, with: [2] + [UInt8](repeating: 0, count: 31))
        try badBundle("issue/bundle-ed25519-off-curve", "bytes 0–31 encode y = 2, which is on no point of the curve: every decoder rejects it", offCurve)
        // A large y too: y = 2 is on no point under some wrong curve equations as well (pixie's
        // with d·y >> y where d·y·y is meant, under cosmic-ray: every large y becomes a point).
        var largeY: [UInt8] = [0xec] + [UInt8](repeating: 0xff, count: 30) + [0x7f]   // p − 1, little-endian
        while (try? Ed25519.PublicKey(rawRepresentation: largeY[...])) != nil { largeY[0] -= 1 }
        var offCurveLarge = dev.bytes
        offCurveLarge.replaceSubrange(0..<32, with: largeY)
        try badBundle("issue/bundle-ed25519-off-curve-large-y", "bytes 0–31 encode y = p − \(0xed - Int(largeY[0])), the largest y below p on no point of the curve: every decoder rejects it", offCurveLarge)
        try badBundle("issue/bundle-empty", "device_bundle \"\" (0 bytes): a bundle is wire data, so device_list_bad_bundle, not input_bad_length (§10.6)", [])
        try badBundle("issue/bundle-3201-bytes", "one byte more than a bundle", dev.bytes + [0])

        // Decoding.
        for (name, c, comment) in [("name-nfd", nfd, "the NFD name comes back as its 6 bytes, not recomposed (a decoder that normalises answers the NFC name)"),
                                   ("name-nul", nul, "a name with U+0000 inside comes back whole (JSON \\u0000)")] {
            b.add("wire/\(name)", "credential_decode", comment, input: .object([("wire", .bytes(c.wire))]),
                  expected: .output(DeviceListOutput.credential(try DeviceCredential.decode(c.wire))))
        }
        let long = try DeviceCredential.issue(account: acct, device: ids.d2.bundle, name: String(repeating: "L", count: 65_536), createdAt: base)
        b.add("wire/name-65536-bytes", "credential_decode", "a 65,536-byte name: name_len 00 00 01 00 (a two-byte length field reads 0)",
              input: .object([("wire", .bytes(long.wire))]), expected: .output(DeviceListOutput.credential(try DeviceCredential.decode(long.wire))))

        let w = nfc.wire
        let nameAt = 44, nameLen = 5
        func decodeReject(_ id: String, _ comment: String, _ wire: [UInt8], _ code: ErrorCode, flags: [String] = []) throws {
            try b.reject(id, "credential_decode", comment, flags: flags, input: .object([("wire", .bytes(wire))]), code) { () throws(WireError) in
                _ = try DeviceCredential.decode(wire)
            }
        }
        func withName(_ bytes: [UInt8]) -> [UInt8] {
            Array(w[0..<40]) + le32(UInt32(bytes.count)) + bytes + Array(w[(nameAt + nameLen)...])
        }
        try decodeReject("name/overlong-nul", "the name c0 80 (an overlong U+0000, Java's modified UTF-8): not UTF-8", withName([0x43, 0xc0, 0x80]), .deviceListBadName)
        try decodeReject("name/surrogate", "the name ed a0 80 (a UTF-16 surrogate encoded as UTF-8, CESU-8): not UTF-8", withName([0x43, 0xed, 0xa0, 0x80]), .deviceListBadName)
        try decodeReject("name/above-10ffff", "the name f4 90 80 80 (U+110000): not UTF-8", withName([0xf4, 0x90, 0x80, 0x80]), .deviceListBadName)
        try decodeReject("name/lone-continuation", "the name 80: a lossy decoder turns it into U+FFFD instead of refusing", withName([0x80]), .deviceListBadName)
        try decodeReject("name/truncated-sequence", "the name ends inside a 3-byte sequence (e2 82)", withName([0x41, 0xe2, 0x82]), .deviceListBadName)

        // Lengths at their limits.
        let tail = Array(w[(nameAt + nameLen)...])  // bundle_len, bundle, signature
        let head = Array(w[0..<40])
        try decodeReject("count/name-len-2-31", "name_len 2^31 followed by a well-formed bundle_len, bundle and signature: truncated (a signed 32-bit length is negative, reads no name and decodes the rest)",
                         head + le32(1 << 31) + tail, .deviceListTruncated)
        try decodeReject("count/bundle-len-2-31", "bundle_len 2^31 with a 3,200-byte bundle and a signature after it: truncated (a signed 32-bit length reads an empty bundle: bad_bundle)",
                         head + le32(0) + le32(1 << 31) + Array(w[(nameAt + nameLen + 4)...]), .deviceListTruncated)
        let letters = [UInt8](repeating: 0x61, count: 100)
        try decodeReject("count/name-len-exact", "name_len 100 and exactly 100 bytes left, the last one 80: the name fits and is read, so bad_name (a bound that wants one byte more says truncated)",
                         head + le32(100) + letters.dropLast() + [0x80], .deviceListBadName)
        try decodeReject("count/name-len-one-more", "name_len 101 with 100 bytes left: truncated", head + le32(101) + letters, .deviceListTruncated)
        let bundleLenAt = nameAt + nameLen
        var zeroBundle = w
        zeroBundle.replaceSubrange(bundleLenAt..<bundleLenAt + 4, with: le32(0))
        try decodeReject("bundle/len-0", "bundle_len 0: an empty bundle is not a bundle", zeroBundle, .deviceListBadBundle)
        var bigBundle = w
        bigBundle.replaceSubrange(bundleLenAt..<bundleLenAt + 4, with: le32(3201))
        try decodeReject("bundle/len-3201", "bundle_len 3,201 with the bytes present (the signature's first byte taken into the bundle): not a bundle", bigBundle, .deviceListBadBundle)

        // Two faults in one credential: the first in byte order is reported (§10.2).
        let badNameShortBundle = Array(withName([0x80]).prefix(nameAt + 1 + 4 + 100))
        try decodeReject("order/bad-name-before-truncated-bundle", "a non-UTF-8 name and a bundle cut short: the name comes first, so bad_name (a decoder that validates text last says truncated)",
                         badNameShortBundle, .deviceListBadName, flags: ["order"])
        let badBundleNoSig = Array(zeroBundle.prefix(bundleLenAt + 4))
        try decodeReject("order/bad-bundle-before-missing-signature", "bundle_len 0 and nothing after it: the bundle is judged before the signature, so bad_bundle",
                         badBundleNoSig, .deviceListBadBundle, flags: ["order"])

        // Verification edges (Haven's order, §10.1).
        let sigAt = w.count - HybridSignature.byteCount
        let pa = acct.bundle.bytes
        func verifyReject(_ id: String, _ comment: String, _ input: CBOR, _ code: ErrorCode, flags: [String] = []) throws {
            try b.reject(id, "credential_verify", comment, flags: flags, input: input, code) { () throws(WireError) in
                _ = try DeviceListHandler().run(op: "credential_verify", input: input.json)
            }
        }
        func vin(_ wire: [UInt8], _ pinned: [UInt8]) -> CBOR { .object([("wire", .bytes(wire)), ("pinned", .bytes(pinned))]) }
        try verifyReject("signature/short-and-ed25519-bad", "3,372 signature bytes and a flipped Ed25519 bit: the Ed25519 half is judged first, so ed25519_invalid (a length-first verifier says wrong_length)",
                         vin(flip(Array(w.dropLast()), at: sigAt + 3), pa), .deviceListSigEd25519Invalid, flags: ["order"])
        try verifyReject("signature/65-bytes", "the Ed25519 half and one more byte: the Ed25519 half verifies, then the 1-byte ML-DSA-65 part is a wrong length",
                         vin(Array(w.prefix(sigAt + 65)), pa), .deviceListSigWrongLength)
        try verifyReject("signature/64-bytes-ed25519-bad", "64 bytes with a flipped bit: 64 bytes or fewer is a wrong length before the Ed25519 half is looked at",
                         vin(flip(Array(w.prefix(sigAt + 64)), at: sigAt + 1), pa), .deviceListSigWrongLength, flags: ["order"])
        try verifyReject("signature/one-byte", "a one-byte signature (it decodes): a wrong length", vin(Array(w.prefix(sigAt + 1)), pa), .deviceListSigWrongLength)
        let oddWire = CBOR.object([("wire", .text(Hex.encode(w) + "0")), ("pinned", .bytes(Array(pa.prefix(3199))))])
        try verifyReject("order/wire-hex-before-pinned", "wire with an odd number of hex digits and a 3,199-byte pinned key: both members are read as hex first, so input_bad_value (a reader that parses pinned as it reads it says bad_bundle)",
                         oddWire, .inputBadValue, flags: ["order"])
        let upper = CBOR.object([("wire", .text(Hex.encode(w).uppercased())), ("pinned", .text(Hex.encode(pa).uppercased()))])
        b.add("valid/uppercase-hex", "credential_verify", "wire and pinned in uppercase hex: the same bytes, verified (§2.2: either case in op inputs)",
              input: upper, expected: .output(DeviceListOutput.credentialVerified(nfc)))
        // The two signature cases above with both faults taken out: the byte audit of two-fault
        // cases (`conformance coverage`) splits each against it into the bit flip and the length,
        // where the nearest other accepted case (uppercase-hex) differs in two whole members.
        // Not a base: derived input cases keep the bases they had.
        let twoFaultCases = ["signature/short-and-ed25519-bad", "signature/64-bytes-ed25519-bad"]
        b.add("valid/name-nfc", "credential_verify", "the credential issue/name-nfc, in lowercase hex: verified under account A",
              flags: [InputBeforeRulesCases.notABase] + twoFaultCases.map { "neighbour-of:device_list/credential_verify/\($0)\(realKEMSuffix)" },
              input: vin(w, pa), expected: .output(DeviceListOutput.credentialVerified(nfc)))
    }

    // MARK: lists

    /// d1 listed twice and revoked once, unsigned: the list of list_verify/valid/duplicate-ids and
    /// of order/account-before-signature (and of its two-fault model).
    static func duplicateIDsList(_ ids: Identities) -> DeviceList {
        DeviceList(accountID: ids.a.nodeID, version: 3, updatedAt: base, devices: [ids.d1.nodeID, ids.a.nodeID, ids.d1.nodeID], revoked: [ids.d2.nodeID], accountLeafRetired: false)
    }

    static func listEdgeCases(_ b: inout Builder, _ ids: Identities) throws {
        let a = ids.a, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID
        func sign(_ id: String, _ comment: String, _ l: DeviceList, version: CBOR) throws -> DeviceList {
            let s = l.signed(by: a)
            try s.verify(pinned: a.bundle)
            b.add(id, "list_sign", comment, input: setting(DeviceListOutput.signInput(seed: a.seed, s), "version", version),
                  expected: .output(DeviceListOutput.signedList(s)))
            return s
        }
        func plainList(_ v: UInt64, _ devices: [DeviceID], _ revoked: [DeviceID] = []) -> DeviceList {
            DeviceList(accountID: a.nodeID, version: v, updatedAt: base, devices: devices, revoked: revoked, accountLeafRetired: false)
        }
        let dup = try sign("sign/duplicate-ids", "d1 listed twice and revoked once: signed as given, duplicates and order kept (a signer that dedups or sorts signs other bytes)",
                           duplicateIDsList(ids), version: .unsigned(3))
        _ = try sign("sign/version-2-53", "version 2^53, the largest integer written as a JSON number", plainList(1 << 53, [d1]), version: .unsigned(1 << 53))
        _ = try sign("sign/version-2-53-plus-1", "version 2^53 + 1, a decimal string: 01 00 00 00 00 00 20 00 in the signed bytes (a reader going through a double signs 2^53)",
                     plainList((1 << 53) + 1, [d1]), version: .text(String((UInt64(1) << 53) + 1)))
        _ = try sign("sign/version-2-63", "version 2^63 as a decimal string (a signed 64-bit reader refuses it)", plainList(1 << 63, [d1]), version: .text(String(UInt64(1) << 63)))
        let dd = try DeviceList.decode(dup.wire)
        try check(dd.devices == [d1, a.nodeID, d1], "duplicates kept on decode")
        b.add("wire/duplicate-ids", "list_decode", "a wire listing d1 twice: both kept, in wire order (a decoder into a set loses one)",
              input: .object([("wire", .bytes(dup.wire))]), expected: .output(DeviceListOutput.decodedList(dd)))
        b.add("valid/duplicate-ids", "list_verify", "the signed list with d1 twice verifies; its authorized set names d1 once (d1 listed, not revoked)",
              input: .object([("wire", .bytes(dup.wire)), ("pinned", .bytes(a.bundle.bytes))]), expected: .output(DeviceListOutput.listVerified(dup)))

        // Counts at their limits, on a body with no devices and no revoked ids.
        let header = Array(dup.wire[0..<48])
        func decodeReject(_ id: String, _ comment: String, _ wire: [UInt8], _ code: ErrorCode, flags: [String] = []) throws {
            try b.reject(id, "list_decode", comment, flags: flags, input: .object([("wire", .bytes(wire))]), code) { () throws(WireError) in
                _ = try DeviceList.decode(wire)
            }
        }
        let threeIDs = d1.bytes + d2.bytes + a.nodeID.bytes
        try decodeReject("count/revoked-exact", "0 devices, then a revoked count of exactly (bytes left) / 32 = 3: every id is read and the signature is empty, so missing_signature (a bound of n·32 < left says truncated)",
                         header + le32(0) + le32(3) + threeIDs, .deviceListMissingSignature)
        try decodeReject("count/revoked-one-more", "revoked count 4 with 96 bytes left: one id more than the bytes hold, truncated", header + le32(0) + le32(4) + threeIDs, .deviceListTruncated)
        try decodeReject("count/devices-one-more", "device count 4 with 100 bytes left (96 of ids, 4 of revoked count): ⌊100 / 32⌋ = 3, truncated",
                         header + le32(4) + threeIDs + le32(0), .deviceListTruncated)
        try decodeReject("count/devices-2-31", "device count 2^31, then a revoked count 0 and a signature byte: truncated (a signed 32-bit count is negative, reads no ids and decodes the rest)",
                         header + le32(1 << 31) + le32(0) + [0x55], .deviceListTruncated)
        try decodeReject("count/revoked-2-31", "revoked count 2^31 then one signature byte: truncated (a signed 32-bit count reads no ids and decodes)",
                         header + le32(0) + le32(1 << 31) + [0x55], .deviceListTruncated)
        try decodeReject("order/count-before-missing-signature", "a device count of 5 and nothing after it: the count is judged first (truncated), not the missing signature",
                         header + le32(5), .deviceListTruncated, flags: ["order"])
        let oneByteSig = header + le32(0) + le32(0) + [0x55]
        let ob = try DeviceList.decode(oneByteSig)
        b.add("count/zero-zero", "list_decode", "0 devices, 0 revoked, a one-byte signature: decodes (a decoder that demands a device, or a full-length signature, refuses it; verify judges the signature)",
              input: .object([("wire", .bytes(oneByteSig))]), expected: .output(DeviceListOutput.decodedList(ob)))

        // Verify: two faults where the account compare comes first.
        let w = dup.wire
        try b.reject("order/account-before-signature", "list_verify", "account_id changed (which also breaks the signature): account_mismatch, reported before the signature is checked",
                     flags: ["order"], input: .object([("wire", .bytes(flip(w, at: 0))), ("pinned", .bytes(a.bundle.bytes))]), .deviceListAccountMismatch) { () throws(WireError) in
            _ = try DeviceListHandler().run(op: "list_verify", input: CBOR.object([("wire", .bytes(flip(w, at: 0))), ("pinned", .bytes(a.bundle.bytes))]).json)
        }
    }

    // MARK: op inputs (§2.2, §10.6) on the cheap ops

    static func inputEdgeCases(_ b: inout Builder, _ ids: Identities) throws {
        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID
        let list = plain(ids, 4, [a, d1], [d2])
        let listTree = DeviceListOutput.list(list)
        func authorized(_ id: String, _ comment: String, list tree: CBOR, device: CBOR = .bytes(ids.d1.nodeID.bytes), expect: Bool) {
            b.add(id, "is_authorized", comment, input: .object([("list", tree), ("device_id", device)]),
                  expected: .output(.object([("authorized", .bool(expect))])))
        }
        func refused(_ id: String, _ comment: String, _ input: CBOR, _ code: ErrorCode, flags: [String] = []) throws {
            try b.reject(id, "is_authorized", comment, flags: flags, input: input, code) { () throws(WireError) in
                _ = try DeviceListHandler().run(op: "is_authorized", input: input.json)
            }
        }
        func withVersion(_ v: CBOR?) -> CBOR { .object([("list", setting(listTree, "version", v)), ("device_id", .bytes(d1.bytes))]) }

        // Integers accepted (§2.2 rule 3, §10.6 item 3).
        let accepted: [(String, CBOR, String)] = [
            ("version-0", .unsigned(0), "version 0"),
            ("version-2-53-minus-1", .unsigned((1 << 53) - 1), "version 2^53 − 1 as a JSON number"),
            ("version-2-53", .unsigned(1 << 53), "version 2^53 as a JSON number"),
            ("version-2-53-plus-1-string", .text(String((UInt64(1) << 53) + 1)), "version 2^53 + 1 as a decimal string"),
            ("version-2-63-minus-1-string", .text(String(Int64.max)), "version 2^63 − 1 as a decimal string"),
            ("version-2-63-string", .text(String(UInt64(1) << 63)), "version 2^63 as a decimal string (a signed 64-bit reader refuses it)"),
            ("version-2-64-minus-1-string", .text(String(UInt64.max)), "version 2^64 − 1 as a decimal string"),
            ("version-small-string", .text("5"), "version \"5\": a canonical decimal string is an integer at any magnitude, not only beyond 2^53"),
            ("version-2-53-plus-1-number", .jsonNumber("9007199254740993"), "version 2^53 + 1 as a JSON number: an integer at any magnitude (a reader through a double still accepts it, see adopt_if_newer)"),
            ("version-2-64-minus-1-number", .jsonNumber("18446744073709551615"), "version 2^64 − 1 as a JSON number (a reader that parses numbers as doubles or int64 refuses it)"),
            ("version-minus-0", .jsonNumber("-0"), "version -0 as a JSON number: reads as 0"),
        ]
        for (name, v, comment) in accepted {
            authorized("integer/\(name)", "\(comment): accepted, d1 is authorized", list: setting(listTree, "version", v), expect: true)
        }
        // Integers refused: input_bad_type.
        let refusedInts: [(String, CBOR, String)] = [
            ("version-minus-1", .negative(0), "version -1 as a JSON number (a reader that wraps negatives takes 2^64 − 1)"),
            ("version-minus-1-string", .text("-1"), "version \"-1\""),
            ("version-2-64-string", .text("18446744073709551616"), "version 2^64 as a decimal string: above 2^64 − 1, input_bad_type (not bad_value, not wrapped to 0)"),
            ("version-true", .bool(true), "version true (a loosely typed reader takes 1)"),
            ("version-false", .bool(false), "version false (a loosely typed reader takes 0)"),
            ("version-1.0", .float(1.0), "version 1.0: a fraction is not an integer even when whole (JavaScript and Python json read it as 1)"),
            ("version-1e0", .jsonNumber("1e0"), "version 1e0: exponent form is not an integer"),
            ("version-1E0", .jsonNumber("1E0"), "version 1E0"),
            ("version-2-64-number", .jsonNumber("18446744073709551616"), "version 2^64 as a JSON number: above 2^64 − 1, input_bad_type (a double reader rounds it to 2^64 and may clamp or wrap it)"),
            ("version-1.5", .float(1.5), "version 1.5"),
            ("version-string-1.0", .text("1.0"), "version \"1.0\": not a canonical decimal string"),
            ("version-leading-zero", .text("01"), "version \"01\": a leading zero is not canonical"),
            ("version-plus", .text("+1"), "version \"+1\""),
            ("version-space", .text(" 1"), "version \" 1\" (a reader that trims accepts it)"),
            ("version-empty-string", .text(""), "version \"\""),
            ("version-hex-string", .text("0x10"), "version \"0x10\""),
            ("version-null", .null, "version null: null is not absence and not 0"),
            ("version-array", .array([.unsigned(1)]), "version [1]"),
        ]
        for (name, v, comment) in refusedInts {
            try refused("integer/\(name)", comment, withVersion(v), .inputBadType)
        }
        try refused("member/version-missing", "the list without version: input_missing_field", withVersion(nil), .inputMissingField)
        try refused("member/list-null", "list null: input_bad_type", .object([("list", .null), ("device_id", .bytes(d1.bytes))]), .inputBadType)
        try refused("member/list-missing", "no list member", .object([("device_id", .bytes(d1.bytes))]), .inputMissingField)
        try refused("member/device-id-missing", "no device_id member", .object([("list", listTree)]), .inputMissingField)
        try refused("member/devices-object", "devices given as an object, not an array", .object([("list", setting(listTree, "devices", .object([("0", .bytes(d1.bytes))]))), ("device_id", .bytes(d1.bytes))]), .inputBadType)
        try refused("member/retired-1", "account_leaf_retired 1: booleans are true and false only", .object([("list", setting(listTree, "account_leaf_retired", .unsigned(1))), ("device_id", .bytes(d1.bytes))]), .inputBadType)
        try refused("member/retired-string", "account_leaf_retired \"false\"", .object([("list", setting(listTree, "account_leaf_retired", .text("false"))), ("device_id", .bytes(d1.bytes))]), .inputBadType)
        authorized("member/extra-members-ignored", "the list carries signature and an unknown member: both ignored (a strict reader refuses the list_decode output as input)",
                   list: .map({ () -> [CBORMapEntry] in
                       guard case .map(let e) = listTree else { return [] }
                       return e + [CBORMapEntry(key: .text("signature"), value: .bytes([1, 2, 3])), CBORMapEntry(key: .text("x-extra"), value: .text("ignored"))]
                   }()), expect: true)
        // Hex (§2.2 rule 4).
        authorized("hex/device-id-uppercase", "device_id in uppercase hex: the same id (a case-sensitive string compare says unauthorized)", list: listTree, device: .text(d1.hex.uppercased()), expect: true)
        authorized("hex/listed-id-uppercase", "the listed id in uppercase, the asked id in lowercase: ids compare as bytes",
                   list: setting(listTree, "devices", .array([.bytes(a.bytes), .text(d1.hex.uppercased())])), expect: true)
        try refused("hex/device-id-odd", "device_id with 63 hex digits: input_bad_value", .object([("list", listTree), ("device_id", .text(String(d1.hex.dropLast())))]), .inputBadValue)
        try refused("hex/device-id-non-hex", "device_id with a 'g': input_bad_value", .object([("list", listTree), ("device_id", .text("g" + String(d1.hex.dropFirst())))]), .inputBadValue)
        try refused("hex/device-id-33-bytes", "device_id of 33 bytes: input_bad_length", .object([("list", listTree), ("device_id", .bytes(d1.bytes + [0]))]), .inputBadLength)
        try refused("hex/device-id-0x", "device_id written 0x…: not hex digits, input_bad_value", .object([("list", listTree), ("device_id", .text("0x" + d1.hex))]), .inputBadValue)
        // Member order (§10.6 item 1).
        let twoBad = CBOR.object([("list", setting(setting(listTree, "version", .bool(true)), "devices", .array([.bytes([1, 2])]))), ("device_id", .bytes(d1.bytes))])
        try refused("order/version-before-devices", "version true and a 2-byte listed id: version is read first, so input_bad_type (a reader in another member order says bad_length)", twoBad, .inputBadType, flags: ["order"])
        let listThenID = CBOR.object([("list", setting(listTree, "updated_at", nil)), ("device_id", .text("zz"))])
        try refused("order/list-before-device-id", "the list lacks updated_at and device_id is not hex: the list is read first, so input_missing_field", listThenID, .inputMissingField, flags: ["order"])
        // Id lists.
        authorized("ids/empty-lists", "no devices and no revoked ids: nobody is authorized", list: setting(setting(listTree, "devices", .array([])), "revoked", .array([])), expect: false)
        authorized("ids/duplicate-listed", "d1 listed twice, not revoked: authorized", list: setting(listTree, "devices", .array([.bytes(d1.bytes), .bytes(d1.bytes)])), expect: true)
        authorized("ids/duplicate-revoked", "d1 listed once and revoked twice: not authorized",
                   list: setting(setting(listTree, "devices", .array([.bytes(d1.bytes)])), "revoked", .array([.bytes(d1.bytes), .bytes(d1.bytes)])), expect: false)

        // adopt_if_newer at the integer edges: exact comparison of uint64 versions.
        func adopt(_ id: String, _ comment: String, local: UInt64, other: UInt64) throws {
            var l = plain(ids, local, [a, d1], updatedAt: base)
            let o = plain(ids, other, [a, d2], updatedAt: base + 1)
            let before = l
            let adopted = l.adoptIfNewer(o)
            try check(adopted == (other > local), "adopt \(id)")
            b.add(id, "adopt_if_newer", comment, input: .object([("local", DeviceListOutput.list(before)), ("other", DeviceListOutput.list(o))]),
                  expected: .output(DeviceListOutput.adopted(adopted, l)))
        }
        let p53: UInt64 = 1 << 53, p63: UInt64 = 1 << 63
        try adopt("version/2-53-then-2-53-plus-1", "local 2^53, other 2^53 + 1: adopted (through a double both are 2^53 and the newer list is refused)", local: p53, other: p53 + 1)
        // The same with the newer version written as a JSON number, not a string.
        var l53 = plain(ids, p53, [a, d1], updatedAt: base)
        let o53 = plain(ids, p53 + 1, [a, d2], updatedAt: base + 1)
        let before53 = l53
        try check(l53.adoptIfNewer(o53), "adopt 2^53 + 1 number")
        b.add("version/2-53-plus-1-as-number", "adopt_if_newer", "local 2^53, other.version the JSON number 9007199254740993: read exactly, adopted (a JSON library that parses numbers as doubles reads 2^53 and refuses)",
              input: .object([("local", DeviceListOutput.list(before53)), ("other", setting(DeviceListOutput.list(o53), "version", .jsonNumber("9007199254740993")))]),
              expected: .output(DeviceListOutput.adopted(true, l53)))
        try adopt("version/2-53-plus-1-then-2-53-plus-2", "local 2^53 + 1, other 2^53 + 2: adopted (a double rounds both to 2^53 + 2)", local: p53 + 1, other: p53 + 2)
        try adopt("version/2-63-minus-1-then-2-63", "local 2^63 − 1, other 2^63: adopted (a signed 64-bit reader refuses or wraps 2^63)", local: p63 - 1, other: p63)
        try adopt("version/max-minus-1-then-max", "local 2^64 − 2, other 2^64 − 1: adopted", local: .max - 1, other: .max)
        try adopt("version/max-then-max", "both at 2^64 − 1: refused (equal)", local: .max, other: .max)
        try adopt("version/0-then-1", "local 0, other 1: adopted", local: 0, other: 1)
        // A small decimal string in an input (Part C item 4).
        var l7 = plain(ids, 6, [a, d1], updatedAt: base)
        let o7 = plain(ids, 7, [a, d2], updatedAt: base)
        let before7 = l7
        try check(l7.adoptIfNewer(o7), "adopt small string")
        b.add("version/small-decimal-string", "adopt_if_newer", "other.version given as the string \"7\" against local 6: an integer, adopted (a reader that takes strings only beyond 2^53 refuses it)",
              input: .object([("local", DeviceListOutput.list(before7)), ("other", setting(DeviceListOutput.list(o7), "version", .text("7")))]),
              expected: .output(DeviceListOutput.adopted(true, l7)))
    }

    // MARK: account-side version limits

    static func versionEdgeCases(_ b: inout Builder, _ ids: Identities) throws {
        let a = ids.a.nodeID, d1 = ids.d1.nodeID, d2 = ids.d2.nodeID
        let at = base + 300_000
        // merge at the last version.
        let last = try DeviceListMerge.merge(local: plain(ids, .max - 1, [a, d1]), remote: plain(ids, 3, [a, d2]), updatedAt: at)?.signed(by: ids.a)
        try check(last?.version == .max, "merge reaches 2^64 − 1")
        b.add("version/last", "merge", "local version 2^64 − 2 and a change: the merged list is version 2^64 − 1 (limit − 1 still signs)", flags: ["merge"],
              input: mergeInput(ids.a.seed, plain(ids, .max - 1, [a, d1]), plain(ids, 3, [a, d2]), at), expected: .output(DeviceListOutput.change(last)))
        let remoteTop = mergeInput(ids.a.seed, plain(ids, 5, [a, d1]), plain(ids, .max, [a, d2]), at)
        try b.reject("version/exhausted-remote", "merge", "the remote is at 2^64 − 1 and brings a change: max(5, 2^64 − 1) + 1 does not exist (a merge that bumps the local version signs 6 and loses to the remote forever)",
                     input: remoteTop, .deviceListVersionExhausted) { () throws(WireError) in _ = try DeviceListHandler().run(op: "merge", input: remoteTop.json) }
        let topSame = mergeInput(ids.a.seed, plain(ids, .max, [a, d1]), plain(ids, 9, [d1, a]), at)
        let noChange = try DeviceListHandler().run(op: "merge", input: topSame.json)
        try check(noChange == DeviceListOutput.change(nil).json, "merge at max with no change")
        b.add("version/max-no-change", "merge", "local at 2^64 − 1, the remote brings nothing new: no change, not exhaustion (nothing is signed)", flags: ["merge", "version", "order"],
              input: topSame, expected: .output(DeviceListOutput.change(nil)))
        let wrongAtMax = mergeInput(ids.b.seed, plain(ids, .max, [a, d1]), plain(ids, 3, [a, d2]), at)
        try b.reject("order/signer-before-exhausted", "merge", "account B's seed and a change at 2^64 − 1: the signer mismatch is reported, not exhaustion",
                     flags: ["order"], input: wrongAtMax, .deviceListSignerMismatch) { () throws(WireError) in _ = try DeviceListHandler().run(op: "merge", input: wrongAtMax.json) }

        let selfLast = try DeviceListMerge.withSelfAdded(plain(ids, .max - 1, [a]), id: d1, updatedAt: at)?.signed(by: ids.a)
        try check(selfLast?.version == .max, "self-add reaches 2^64 − 1")
        b.add("version/last", "with_self_added", "version 2^64 − 2: the self-added list is version 2^64 − 1 (limit − 1 still signs)",
              input: .object([("account_seed", .bytes(ids.a.seed)), ("list", DeviceListOutput.list(plain(ids, .max - 1, [a]))), ("device_id", .bytes(d1.bytes)), ("updated_at", .unsigned(at))]),
              expected: .output(DeviceListOutput.change(selfLast)))
    }

    // MARK: contact side inputs

    static func contactEdgeCases(_ b: inout Builder, _ ids: Identities) throws {
        let p = ids.d1.nodeID, d2 = ids.d2.nodeID
        let upper = CBOR.object([("primary", .bytes(p.bytes)), ("known", .array([])), ("advertised", .array([.text(d2.hex.uppercased()), .bytes(p.bytes)]))])
        var set = try ContactDeviceSet(primary: p, records: [])
        try set.apply(advertised: [d2, p])
        b.add("input/advertised-uppercase", "contact_apply", "an advertised id in uppercase hex (§2.2): the same device, inserted once with the lowercase one",
              input: upper, expected: .output(DeviceListOutput.contactSet(set)))
        let missingRevoked = CBOR.object([("primary", .bytes(p.bytes)), ("known", .array([.object([("device", .bytes(d2.bytes))])])), ("advertised", .array([.bytes(p.bytes)]))])
        b.add("input/record-missing-revoked", "contact_apply", "a known record without revoked: input_missing_field (not read as live)",
              flags: ["negative"], input: missingRevoked, expected: .error(.inputMissingField))
        let revokedNull = CBOR.object([("primary", .bytes(p.bytes)), ("known", .array([.object([("device", .bytes(d2.bytes)), ("revoked", .null)])])), ("advertised", .array([.bytes(p.bytes)]))])
        b.add("input/record-revoked-null", "contact_apply", "revoked: null in a known record: input_bad_type (null is not false)",
              flags: ["negative"], input: revokedNull, expected: .error(.inputBadType))
        b.add("input/chain-missing", "fanout_filter", "no chain member: input_missing_field (chain is nullable, not optional; null means no bound chain)",
              flags: ["negative"], input: .object([("fanout", idsTree([p]))]), expected: .error(.inputMissingField))
        b.add("filter/empty-fanout", "fanout_filter", "an empty fan-out set with no chain: empty (the primary is never added back)",
              input: .object([("fanout", .array([])), ("chain", .null)]), expected: .output(DeviceListOutput.recipients([])))
    }
}

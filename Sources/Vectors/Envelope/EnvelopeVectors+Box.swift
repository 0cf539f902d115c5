import Primitives

/// `channel_key` (SPEC.md §14.5), `box_seal` and `box_open` (§14.2, §14.3): the seal, the
/// DiscoveryBox layout, every layout failure at its boundary, tampering at each part, the KEM's
/// edge classes.
extension EnvelopeVectors {
    static func channelKeyCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let seeds: [(String, [UInt8], String)] = [
            ("account-seed", f.accountSeed, "the fixture account seed: HKDF-SHA256(seed, no salt, info pixie-sibling-channel-key-v1)"),
            ("zero-seed", [UInt8](repeating: 0, count: 32), "the all-zero seed (a library that treats zero bytes as 'no key' differs)"),
            ("other-account-seed", f.otherAccountSeed, "another account's seed gives another key"),
        ]
        for (name, seed, comment) in seeds {
            try b.ok("channel_key", "valid/\(name)", comment, rules: ["14.5-1"], input: .object([("account_seed", .bytes(seed))])) {
                $0["channel_key"] == .bytes(ChannelKeys.siblingChannelKey(accountSeed: seed))
                    && $0["channel_key"] != .bytes((try? HKDFSHA256.deriveKey(inputKeyMaterial: seed, salt: [], info: [], outputByteCount: 32)) ?? [])
            }
        }
        try b.reject("channel_key", "input/seed-31-bytes", "an account seed is exactly 32 bytes", rules: ["14.10-2", "2.2-4"],
                     input: .object([("account_seed", .bytes(Array(f.accountSeed.dropLast())))]), .inputBadLength)
    }

    static func boxSealInput(_ pk: [UInt8], _ d: String, _ p: [UInt8], _ e: [UInt8]) -> CBOR {
        .object([("recipient_pubkey", .bytes(pk)), ("direction", .text(d)), ("plaintext", .bytes(p)), ("eseed", .bytes(e))])
    }

    static func boxOpenInput(_ seed: [UInt8], _ d: String, _ box: [UInt8]) -> CBOR {
        .object([("recipient_seed", .bytes(seed)), ("direction", .text(d)), ("box", .bytes(box))])
    }

    static func boxCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        // Round trips: each sealed box opens to its plaintext under the right key and direction.
        let shapes: [(String, EnvelopeFixtures.Device, DiscoveryBox.Direction, [UInt8], String)] = [
            ("request-empty", f.discovery, .request, [], "an empty plaintext to the discovery key: the 1,139-byte minimum"),
            ("request-one-byte", f.discovery, .request, [0x00], "a one-byte plaintext"),
            ("request-300-bytes", f.discovery, .request, b.bytes(300), "a 300-byte plaintext, the size of a sign-in request without its certificate"),
            ("reply-16-bytes", f.newDevice, .reply, b.bytes(16), "a plaintext of exactly one AES block, in the reply direction"),
            ("reply-17-bytes", f.newDevice, .reply, b.bytes(17), "one byte past a block boundary"),
        ]
        for (name, dev, dir, plain, comment) in shapes {
            let eseed = b.eseed()
            let out = try b.ok("box_seal", "valid/\(name)", comment + ": header 010460, enc, then AES-256-GCM(key, base_nonce, aad = header)",
                               rules: ["14.2-1", "14.3-1", "14.3-2"], input: boxSealInput(dev.pub, dir.rawValue, plain, eseed)) { o in
                guard case .bytes(let box)? = o["box"], case .bytes(let enc)? = o["kem_ciphertext"] else { return false }
                return box.count == plain.count + DiscoveryBox.overhead && Array(box.prefix(3)) == [1, 4, 0x60] && Array(box[3..<1123]) == enc
            }
            guard case .bytes(let box)? = out["box"] else { continue }
            try b.ok("box_open", "valid/\(name)", "opens the box of box_seal/valid/\(name)", rules: ["14.2-2", "14.3-1", "14.3-2"],
                     input: boxOpenInput(dev.seed, dir.rawValue, box)) { $0["plaintext"] == .bytes(plain) }
        }

        // One eseed and one plaintext in both directions: the info alone separates key and nonce.
        let shared = b.eseed(), plain = Array("same bytes, two directions".utf8)
        let req = try b.ok("box_seal", "valid/direction-request-same-eseed", "the request direction with the eseed also used for …/direction-reply-same-eseed",
                           rules: ["14.3-2"], input: boxSealInput(f.newDevice.pub, "request", plain, shared))
        try b.ok("box_seal", "valid/direction-reply-same-eseed", "the same eseed and plaintext in the reply direction: same enc and shared secret, another key and nonce",
                 rules: ["14.3-2"], input: boxSealInput(f.newDevice.pub, "reply", plain, shared)) {
            $0["kem_ciphertext"] == req["kem_ciphertext"] && $0["shared_secret"] == req["shared_secret"] && $0["key"] != req["key"] && $0["nonce"] != req["nonce"]
        }

        // The sealed boxes the failure cases start from.
        let plain40 = b.bytes(40)
        let good = try DiscoveryBox.seal(plain40, to: f.discovery.pub, direction: .request, eseed: b.eseed()).box
        let empty = try DiscoveryBox.seal([], to: f.discovery.pub, direction: .request, eseed: b.eseed()).box
        func open(_ name: String, _ comment: String, _ box: [UInt8], seed: [UInt8]? = nil, direction: String = "request", rules: [String],
                  flags: [String] = [], _ code: ErrorCode) throws {
            try b.reject("box_open", name, comment, rules: rules, flags: flags, input: boxOpenInput(seed ?? f.discovery.seed, direction, box), code)
        }
        try b.ok("box_open", "valid/tamper-baseline", "the 40-byte plaintext box every tamper/ case alters: it opens",
                 rules: ["14.2-2"], input: boxOpenInput(f.discovery.seed, "request", good)) { $0["plaintext"] == .bytes(plain40) }

        // tamper/: every part of the box, and the wrong key or direction.
        try open("tamper/wrong-recipient", "opened with another X-Wing key: decapsulation gives another key, the tag fails", good, seed: f.stranger.seed,
                 rules: ["14.3-5", "14.2-3"], .envelopeOpenFailed)
        try open("tamper/wrong-direction", "a request box opened as a reply: another info, another key", good, direction: "reply", rules: ["14.3-2", "14.3-5"],
                 .envelopeOpenFailed)
        let parts: [(String, Int, String)] = [
            ("enc-first-byte", 3, "the first byte of the ML-KEM ciphertext (implicit rejection gives a pseudo-random key)"),
            ("enc-mlkem-last-byte", 3 + 1087, "the last byte of the ML-KEM ciphertext"),
            ("enc-x25519-first-byte", 3 + 1088, "the first byte of the X25519 ephemeral key"),
            ("enc-x25519-high-bit", 3 + 1119, "the top bit of the X25519 ephemeral key (RFC 7748 masks it when decoding: ss_X is unchanged, but ct_X is hashed into the combiner)"),
            ("ciphertext-first-byte", 1123, "the first ciphertext byte"),
            ("ciphertext-last-byte", 1123 + 39, "the last ciphertext byte"),
            ("tag-first-byte", 1123 + 40, "the first tag byte"),
            ("tag-last-byte", good.count - 1, "the last tag byte"),
        ]
        for (name, at, comment) in parts {
            let mask: UInt8 = name == "enc-x25519-high-bit" ? 0x80 : 0x01
            try open("tamper/\(name)", "one bit flipped in \(comment)", EnvelopeFixtures.flip(good, at: at, mask), rules: ["14.3-5", "14.2-3"], .envelopeOpenFailed)
        }
        try open("tamper/byte-appended", "one byte appended: the tag is taken from the last 16 bytes and fails", good + [0], rules: ["14.3-5"], .envelopeOpenFailed)
        try open("tamper/last-byte-dropped", "the last byte dropped from a box that stays ≥ 1,139 bytes: the tag fails, not the layout",
                 Array(good.dropLast()), rules: ["14.3-5"], .envelopeOpenFailed)

        // layout/: byte order, each boundary.
        try open("layout/empty", "no bytes", [], rules: ["14.3-3"], .envelopeTruncated)
        try open("layout/kind-00", "kind byte 00", [0x00] + Array(good.dropFirst()), rules: ["14.3-3"], .envelopeWrongKind)
        try open("layout/kind-02-envelope", "a sealed-sender envelope's kind byte (02) on a box", [0x02] + Array(good.dropFirst()), rules: ["14.3-3"], .envelopeWrongKind)
        try open("layout/kind-only", "the kind byte alone", [0x01], rules: ["14.3-3"], .envelopeTruncated)
        try open("layout/half-length-field", "the kind byte and one byte of the length", [0x01, 0x04], rules: ["14.3-3"], .envelopeTruncated)
        try open("layout/header-only", "the three header bytes", DiscoveryBox.header, rules: ["14.3-3"], .envelopeTruncated)
        // Three bytes are enough to read the length field: a wrong one is named at exactly three
        // (a reader whose `< 3` is `<= 3` calls it truncated; a cosmic-ray boundary survivor).
        try open("layout/header-only-wrong-length", "three bytes 01 0440: the length field is all there and wrong, envelope_kem_ciphertext_length",
                 [0x01, 0x04, 0x40], rules: ["14.3-3", "14.3-4"], flags: [InputBeforeRulesCases.notABase], .envelopeKEMCiphertextLength)
        try open("layout/header-and-enc", "header and enc, no tag", Array(good.prefix(1123)), rules: ["14.3-3"], .envelopeTruncated)
        try open("layout/one-short-of-minimum", "1,138 bytes: the empty-plaintext box without its last byte", Array(empty.dropLast()), rules: ["14.3-3"],
                 .envelopeTruncated)
        try b.ok("box_open", "layout/minimum", "the 1,139-byte empty-plaintext box opens to nothing", rules: ["14.3-1", "14.3-3"],
                 input: boxOpenInput(f.discovery.seed, "request", empty)) { $0["plaintext"] == .bytes([]) }
        // A sender that forgot the X25519 half: 01 0440, the 1,088-byte ML-KEM ciphertext, then its AEAD output.
        let mlkemOnly = [0x01, 0x04, 0x40] + Array(good[3..<(3 + 1088)]) + Array(good[1123...])
        try open("layout/enc-length-1088-mlkem-only", "a box made with the ML-KEM ciphertext alone (length field 0440): named, not a forgery",
                 mlkemOnly, rules: ["14.3-4", "14.3-3"], .envelopeKEMCiphertextLength)
        for (name, field) in [("0461", [UInt8]([0x04, 0x61])), ("0000", [0, 0]), ("ffff", [0xff, 0xff]), ("6004-little-endian", [0x60, 0x04])] {
            try open("layout/enc-length-\(name)", "length field \(name): not 1,120 big-endian", [0x01] + field + Array(good[3...]),
                     rules: ["14.3-4", "14.3-3"], .envelopeKEMCiphertextLength)
        }

        // order/: two faults, the first in byte order wins.
        try open("order/kind-before-truncation", "one byte 02: wrong kind and truncated; the kind is read first", [0x02], rules: ["14.3-3"],
                 flags: ["two-faults"], .envelopeWrongKind)
        try open("order/kind-before-length", "kind 02 and length 0440: the kind is read first", [0x02, 0x04, 0x40] + Array(good[3...]), rules: ["14.3-3"],
                 flags: ["two-faults"], .envelopeWrongKind)
        try open("order/length-before-truncation", "length 0440 and only 10 more bytes: the length field is read before the rest is counted",
                 [0x01, 0x04, 0x40] + [UInt8](repeating: 0, count: 10), rules: ["14.3-3", "14.3-4"], flags: ["two-faults"], .envelopeKEMCiphertextLength)
        try open("order/layout-before-key", "a truncated box opened with the wrong key: the layout fails before any decapsulation",
                 Array(good.prefix(1000)), seed: f.stranger.seed, rules: ["14.3-3"], flags: ["two-faults"], .envelopeTruncated)
    }

    /// An X-Wing public key with ML-KEM coefficient `index` (of 768) set to `value`.
    static func keyWithCoefficient(_ pk: [UInt8], index: Int, value: UInt16) -> [UInt8] {
        var k = pk
        let at = (index / 2) * 3
        if index % 2 == 0 {
            k[at] = UInt8(value & 0xff)
            k[at + 1] = (k[at + 1] & 0xf0) | UInt8(value >> 8)
        } else {
            k[at + 1] = (k[at + 1] & 0x0f) | UInt8((value & 0x0f) << 4)
            k[at + 2] = UInt8(value >> 4)
        }
        return k
    }

    static func kemCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let plain = Array("opens only if decapsulation never fails".utf8)
        let honest = try DiscoveryBox.seal(plain, to: f.discovery.pub, direction: .request, eseed: b.eseed())
        let enc = honest.hpke.enc
        // Implicit rejection: an ML-KEM ciphertext that does not re-encrypt, with the AEAD made under J(z ‖ c).
        for (name, at) in [("first-byte", 0), ("last-byte", 1087)] {
            let bad = EnvelopeFixtures.flip(enc, at: at)
            let box = try boxWithEnc(bad, recipientSeed: f.discovery.seed, direction: .request, plaintext: plain)
            let name2 = at == 0 ? "implicit-rejection-key-opens" : "implicit-rejection-key-opens-\(name)"
            try b.ok("box_open", "kem/\(name2)", "ML-KEM ciphertext \(name) flipped, AEAD sealed under the implicit-rejection key J(z ‖ c): it opens (an ML-KEM that raises an error fails it)",
                     rules: ["14.2-3"], input: boxOpenInput(f.discovery.seed, "request", box)) { $0["plaintext"] == .bytes(plain) }
        }
        try b.reject("box_open", "kem/rejected-ciphertext-honest-key", "ML-KEM ciphertext altered, AEAD under the honest key: the implicit-rejection key differs, the tag fails",
                     rules: ["14.2-3", "14.3-5"], input: boxOpenInput(f.discovery.seed, "request", DiscoveryBox.header + EnvelopeFixtures.flip(enc, at: 5) + honest.hpke.ciphertext),
                     .envelopeOpenFailed)
        // Small-order X25519 ephemeral keys: ss_X is all zero and X-Wing uses it unchecked.
        // Beyond u = 0 and u = 1, every other encoding of a small-order point that libsodium's and
        // Wycheproof's lists hold: the two points of order 8, p − 1, and the non-canonical p and
        // p + 1 (read mod p), then the same with bit 255 set (masked, RFC 7748 §5). With 0 and 1
        // alone a ladder whose arithmetic is wrong still gives 0 (cosmic-ray survivors of pixie's
        // fallback ladder, issue 25).
        func hex(_ h: String) -> [UInt8] { stride(from: 0, to: h.count, by: 2).map { UInt8(h.dropFirst($0).prefix(2), radix: 16)! } }
        let points: [(String, [UInt8], String)] = [
            ("zero", [UInt8](repeating: 0, count: 32), "u = 0"),
            ("one", [1] + [UInt8](repeating: 0, count: 31), "u = 1 (order 4)"),
            ("order-8-a", hex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"), "a point of order 8"),
            ("order-8-b", hex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"), "the other point of order 8"),
            ("p-minus-1", hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"), "u = p − 1 (order 2)"),
            ("p", hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"), "u = p, non-canonical 0"),
            ("p-plus-1", hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"), "u = p + 1, non-canonical 1"),
            ("order-8-a-bit-255", hex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b880"), "a point of order 8 with bit 255 set"),
            ("order-8-b-bit-255", hex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f11d7"), "the other point of order 8 with bit 255 set"),
            ("p-minus-1-bit-255", hex("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), "u = p − 1 with bit 255 set"),
            ("p-bit-255", hex("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), "u = p with bit 255 set"),
            ("p-plus-1-bit-255", hex("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"), "u = p + 1 with bit 255 set"),
        ]
        for (name, u, what) in points {
            try check((try? X25519.scalarMult(scalar: f.discovery.seed, u: u)) == [UInt8](repeating: 0, count: 32), "\(what) gives an all-zero X25519 output")
            let box = try boxWithEnc(Array(enc[0..<1088]) + u, recipientSeed: f.discovery.seed, direction: .request, plaintext: plain)
            try b.ok("box_open", "kem/x25519-\(name)-output-opens", "ct_X is the small-order point \(what): ss_X = 0, hashed unchecked with ct_X and pk_X; the box opens (an X25519 API with the RFC 7748 §6.1 check refuses it)",
                     rules: ["14.2-3"], input: boxOpenInput(f.discovery.seed, "request", box)) { $0["plaintext"] == .bytes(plain) }
        }
        let zeroX = Array(f.newDevice.pub[0..<1184]) + [UInt8](repeating: 0, count: 32)
        try b.ok("box_seal", "kem/recipient-x25519-zero", "a recipient key whose X25519 part is u = 0: sealing succeeds, ss_X = 0 (X-Wing performs no check)",
                 rules: ["14.2-3", "14.2-4"], input: boxSealInput(zeroX, "reply", plain, b.eseed()))
        // ML-KEM key modulus check (FIPS 203 §7.2).
        let coeffs: [(String, Int, UInt16, ErrorCode?)] = [
            ("coefficient-0-is-3328", 0, 3328, nil), ("coefficient-0-is-3329", 0, 3329, .envelopeBadRecipientKey),
            ("coefficient-0-is-4095", 0, 4095, .envelopeBadRecipientKey), ("coefficient-767-is-3329", 767, 3329, .envelopeBadRecipientKey),
            ("coefficient-1-is-3329", 1, 3329, .envelopeBadRecipientKey),
        ]
        for (name, i, v, code) in coeffs {
            let pk = keyWithCoefficient(f.newDevice.pub, index: i, value: v)
            let input = boxSealInput(pk, "reply", plain, b.eseed())
            if let code {
                try b.reject("box_seal", "kem/recipient-mlkem-\(name)", "an ML-KEM key coefficient of \(v) ≥ q: the modulus check refuses the key (a reader that reduces mod q seals anyway)",
                             rules: ["14.2-4"], input: input, code)
            } else {
                try b.ok("box_seal", "kem/recipient-mlkem-\(name)", "coefficient q − 1 = 3328: a valid key (the check's boundary)", rules: ["14.2-4"], input: input)
            }
        }
        // The odd coefficient of a 3-byte group at its edges too (its 12 bits are the middle byte's
        // high nibble and the last byte): 3328 beside an even neighbour of 3328, whose high nibble
        // fills the rest of the middle byte, so a decoder that shifts or masks the middle byte
        // wrongly reads 3329 or more; and 4095, which a test for exactly 3329 lets through (pixie's
        // modulus check under cosmic-ray, issue 25). Each with its own eseed (added after the first
        // release: the shared stream is left as it was).
        let odd: [(String, [(Int, UInt16)], ErrorCode?)] = [
            ("coefficients-0-and-1-are-3328", [(0, 3328), (1, 3328)], nil),
            ("coefficient-1-is-4095", [(1, 4095)], .envelopeBadRecipientKey),
        ]
        for (name, set, code) in odd {
            let pk = set.reduce(f.newDevice.pub) { keyWithCoefficient($0, index: $1.0, value: $1.1) }
            let input = boxSealInput(pk, "reply", plain, Builder.eseed(labelled: "recipient-mlkem-\(name)"))
            if let code {
                try b.reject("box_seal", "kem/recipient-mlkem-\(name)", "an odd ML-KEM key coefficient of 4095 ≥ q: the modulus check refuses the key (a check for exactly 3329 seals)",
                             rules: ["14.2-4"], input: input, code)
            } else {
                try b.ok("box_seal", "kem/recipient-mlkem-\(name)", "coefficients 0 and 1 both q − 1 = 3328, sharing their middle byte d0: a valid key (a decoder that reads bit 3 of that byte into coefficient 1 refuses it)",
                         rules: ["14.2-4"], input: input)
            }
        }
    }
}

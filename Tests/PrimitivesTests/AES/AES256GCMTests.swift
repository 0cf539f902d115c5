import Primitives
import Testing

/// AES-256-GCM against the NIST CAVP GCM files (every record, valid and FAIL), plus tampering,
/// length and round-trip tests.
struct AES256GCMTests {
    struct EncryptCase: CustomTestStringConvertible, Sendable {
        let name: String
        let key: [UInt8], iv: [UInt8], plaintext: [UInt8], aad: [UInt8]
        let ciphertext: String, tag: String
        let section: [String: String]
        var testDescription: String { name }
    }

    struct DecryptCase: CustomTestStringConvertible, Sendable {
        let name: String
        let key: [UInt8], iv: [UInt8], ciphertext: [UInt8], aad: [UInt8], tag: [UInt8]
        /// nil for a record marked `FAIL`.
        let plaintext: [UInt8]?
        let section: [String: String]
        var testDescription: String { name }
    }

    static let encryptFile = "aes-gcm/gcmEncryptExtIV256.subset.rsp"
    static let decryptFile = "aes-gcm/gcmDecrypt256.subset.rsp"

    static func sectionName(_ s: [String: String]) -> String {
        ["IVlen", "PTlen", "AADlen", "Taglen"].map { "\($0)=\(s[$0] ?? "?")" }.joined(separator: " ")
    }

    /// Consecutive `[Name = value]` headers accumulate into the record's section (RSP.parse), so
    /// each record carries Keylen, IVlen, PTlen, AADlen and Taglen of its block of the file.
    static let encryptCases: [EncryptCase] = {
        guard let text = try? KATFile.text(encryptFile) else { return [] }
        return RSP.parse(text).compactMap { r in
            let f = r.fields
            guard let count = f["Count"], let key = f["Key"].flatMap(Hex.decode), let iv = f["IV"].flatMap(Hex.decode),
                  let pt = f["PT"].flatMap(Hex.decode), let aad = f["AAD"].flatMap(Hex.decode),
                  let ct = f["CT"], let tag = f["Tag"]
            else { return nil }
            return EncryptCase(name: "\(encryptFile) [\(sectionName(r.section))] Count=\(count)", key: key, iv: iv,
                               plaintext: pt, aad: aad, ciphertext: ct, tag: tag, section: r.section)
        }
    }()

    static let decryptCases: [DecryptCase] = {
        guard let text = try? KATFile.text(decryptFile) else { return [] }
        return RSP.parse(text).compactMap { r in
            let f = r.fields
            guard let count = f["Count"], let key = f["Key"].flatMap(Hex.decode), let iv = f["IV"].flatMap(Hex.decode),
                  let ct = f["CT"].flatMap(Hex.decode), let aad = f["AAD"].flatMap(Hex.decode),
                  let tag = f["Tag"].flatMap(Hex.decode)
            else { return nil }
            let fail = f["FAIL"] != nil
            let pt = f["PT"].flatMap(Hex.decode)
            // Exactly one of PT and FAIL; otherwise drop the record and let the count test fail.
            guard fail != (pt != nil) else { return nil }
            return DecryptCase(name: "\(decryptFile) [\(sectionName(r.section))] Count=\(count)\(fail ? " FAIL" : "")",
                               key: key, iv: iv, ciphertext: ct, aad: aad, tag: tag, plaintext: pt, section: r.section)
        }
    }()

    // MARK: Counts and file structure

    @Test func filesAreNotEmpty() {
        #expect(Self.encryptCases.count == 400)
        #expect(Self.decryptCases.count == 444)
        #expect(Self.decryptCases.filter { $0.plaintext == nil }.count == 245)
        // Section coverage as stated in the provenance: IVlen 96 with every tag length, and 1024.
        #expect(Set(Self.encryptCases.compactMap { $0.section["Taglen"] }) == ["32", "64", "96", "104", "112", "120", "128"])
        #expect(Set(Self.encryptCases.compactMap { $0.section["IVlen"] }) == ["96", "1024"])
        #expect(Self.encryptCases.filter { $0.section["IVlen"] == "1024" }.count == 50)
    }

    /// Every record's section header agrees with its own field lengths, proving the headers were
    /// attached to the right records.
    @Test func sectionsMatchRecords() {
        for c in Self.encryptCases {
            #expect(c.section["Keylen"] == "256" && c.key.count == 32, "\(c.name)")
            #expect(c.section["IVlen"] == String(c.iv.count * 8), "\(c.name)")
            #expect(c.section["PTlen"] == String(c.plaintext.count * 8), "\(c.name)")
            #expect(c.section["AADlen"] == String(c.aad.count * 8), "\(c.name)")
            #expect(c.section["Taglen"] == String(c.tag.count * 4), "\(c.name)")
        }
        for c in Self.decryptCases {
            #expect(c.section["Keylen"] == "256" && c.key.count == 32, "\(c.name)")
            #expect(c.section["IVlen"] == String(c.iv.count * 8), "\(c.name)")
            #expect(c.section["PTlen"] == String(c.ciphertext.count * 8), "\(c.name)")
            #expect(c.section["AADlen"] == String(c.aad.count * 8), "\(c.name)")
            #expect(c.section["Taglen"] == String(c.tag.count * 8), "\(c.name)")
        }
    }

    // MARK: Known answers

    @Test(arguments: encryptCases)
    func encryptKnownAnswer(_ c: EncryptCase) throws {
        let tagBytes = c.tag.utf8.count / 2
        let r = try AES256GCM.seal(c.plaintext, key: c.key, iv: c.iv, aad: c.aad, tagByteCount: tagBytes)
        #expect(Hex.encode(r.ciphertext) == c.ciphertext)
        #expect(Hex.encode(r.tag) == c.tag)
        // And back again through open.
        #expect(try AES256GCM.open(ciphertext: r.ciphertext, tag: r.tag, key: c.key, iv: c.iv, aad: c.aad) == c.plaintext)
        // The public API gives the same answer for the protocol's parameters.
        if c.iv.count == 12 && tagBytes == 16 {
            let p = try AES256GCM.seal(c.plaintext, key: c.key, nonce: c.iv, authenticating: c.aad)
            #expect(Hex.encode(p.ciphertext) == c.ciphertext && Hex.encode(p.tag) == c.tag)
        }
    }

    @Test(arguments: decryptCases)
    func decryptKnownAnswer(_ c: DecryptCase) throws {
        if let pt = c.plaintext {
            #expect(try AES256GCM.open(ciphertext: c.ciphertext, tag: c.tag, key: c.key, iv: c.iv, aad: c.aad) == pt)
        } else {
            #expect(throws: CryptoError(.authenticationFailure, "")) {
                try AES256GCM.open(ciphertext: c.ciphertext, tag: c.tag, key: c.key, iv: c.iv, aad: c.aad)
            }
        }
    }

    /// FIPS 197 Appendix C.3 (AES-256 example vector), checking the block cipher on its own.
    @Test func aes256BlockFIPS197() throws {
        let aes = try AES256(key: Array(0..<32))
        let ct = try aes.encrypt(block: Hex.decode("00112233445566778899aabbccddeeff")!)
        #expect(Hex.encode(ct) == "8ea2b7ca516745bfeafc49904b496089")
        #expect(throws: CryptoError(.invalidLength, "")) { try AES256(key: Array(0..<16)) }
        #expect(throws: CryptoError(.invalidLength, "")) { try aes.encrypt(block: [1, 2, 3]) }
    }

    // MARK: Tampering

    struct Sealed {
        let key: [UInt8], nonce: [UInt8], aad: [UInt8], plaintext: [UInt8], ciphertext: [UInt8], tag: [UInt8]
    }

    static func sample(ptCount: Int = 37, aadCount: Int = 21, seed: UInt64) throws -> Sealed {
        var rng = SplitMix64(seed: seed)
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        let key = bytes(32), nonce = bytes(12), aad = bytes(aadCount), pt = bytes(ptCount)
        let r = try AES256GCM.seal(pt, key: key, nonce: nonce, authenticating: aad)
        return Sealed(key: key, nonce: nonce, aad: aad, plaintext: pt, ciphertext: r.ciphertext, tag: r.tag)
    }

    static func expectAuthFailure(_ s: Sealed, ciphertext: [UInt8]? = nil, tag: [UInt8]? = nil, key: [UInt8]? = nil,
                                  nonce: [UInt8]? = nil, aad: [UInt8]? = nil, _ what: String) {
        #expect(throws: CryptoError(.authenticationFailure, ""), "\(what)") {
            try AES256GCM.open(ciphertext: ciphertext ?? s.ciphertext, tag: tag ?? s.tag, key: key ?? s.key,
                               nonce: nonce ?? s.nonce, authenticating: aad ?? s.aad)
        }
    }

    static func flipped(_ b: [UInt8], _ bit: Int) -> [UInt8] {
        var b = b
        b[bit / 8] ^= 1 << (bit % 8)
        return b
    }

    /// Every single-bit change of the tag, ciphertext, AAD, key or nonce is rejected.
    @Test func everyFlippedBitIsRejected() throws {
        let s = try Self.sample(seed: 0x6763_6d01)
        #expect(try AES256GCM.open(ciphertext: s.ciphertext, tag: s.tag, key: s.key, nonce: s.nonce, authenticating: s.aad) == s.plaintext)
        for bit in 0..<128 { Self.expectAuthFailure(s, tag: Self.flipped(s.tag, bit), "tag bit \(bit)") }
        for bit in 0..<(s.ciphertext.count * 8) { Self.expectAuthFailure(s, ciphertext: Self.flipped(s.ciphertext, bit), "ciphertext bit \(bit)") }
        for bit in 0..<(s.aad.count * 8) { Self.expectAuthFailure(s, aad: Self.flipped(s.aad, bit), "aad bit \(bit)") }
        for bit in 0..<256 { Self.expectAuthFailure(s, key: Self.flipped(s.key, bit), "key bit \(bit)") }
        for bit in 0..<96 { Self.expectAuthFailure(s, nonce: Self.flipped(s.nonce, bit), "nonce bit \(bit)") }
    }

    /// Removing, adding or moving bytes between ciphertext and AAD is rejected.
    @Test func structuralTamperingIsRejected() throws {
        let s = try Self.sample(seed: 0x6763_6d02)
        Self.expectAuthFailure(s, ciphertext: Array(s.ciphertext.dropLast()), "ciphertext truncated")
        Self.expectAuthFailure(s, ciphertext: s.ciphertext + [0], "ciphertext extended")
        Self.expectAuthFailure(s, aad: [], "aad removed")
        Self.expectAuthFailure(s, aad: s.aad + [0], "aad extended")
        Self.expectAuthFailure(s, ciphertext: s.aad + s.ciphertext, aad: [], "aad moved into ciphertext")
        // Empty plaintext and AAD: the tag alone still authenticates key and nonce.
        let e = try Self.sample(ptCount: 0, aadCount: 0, seed: 0x6763_6d03)
        #expect(e.ciphertext.isEmpty)
        for bit in 0..<128 { Self.expectAuthFailure(e, tag: Self.flipped(e.tag, bit), "empty: tag bit \(bit)") }
        Self.expectAuthFailure(e, nonce: Self.flipped(e.nonce, 0), "empty: nonce")
    }

    /// Truncated tags (package API): the given prefix is checked in full, and a flipped bit fails.
    @Test func truncatedTags() throws {
        let s = try Self.sample(seed: 0x6763_6d04)
        for n in 4...16 {
            let r = try AES256GCM.seal(s.plaintext, key: s.key, iv: s.nonce, aad: s.aad, tagByteCount: n)
            #expect(r.tag == Array(s.tag.prefix(n)))
            #expect(try AES256GCM.open(ciphertext: r.ciphertext, tag: r.tag, key: s.key, iv: s.nonce, aad: s.aad) == s.plaintext)
            for bit in 0..<(n * 8) {
                #expect(throws: CryptoError(.authenticationFailure, ""), "tag \(n) bit \(bit)") {
                    try AES256GCM.open(ciphertext: r.ciphertext, tag: Self.flipped(r.tag, bit), key: s.key, iv: s.nonce, aad: s.aad)
                }
            }
        }
    }

    // MARK: Lengths

    @Test func wrongLengthsAreRejected() throws {
        let s = try Self.sample(seed: 0x6763_6d05)
        let bad = CryptoError(.invalidLength, "")
        for k in [0, 16, 24, 31, 33, 64] {
            #expect(throws: bad, "key \(k)") { try AES256GCM.seal(s.plaintext, key: Array(repeating: 1, count: k), nonce: s.nonce) }
            #expect(throws: bad, "key \(k)") {
                try AES256GCM.open(ciphertext: s.ciphertext, tag: s.tag, key: Array(repeating: 1, count: k), nonce: s.nonce)
            }
        }
        for n in [0, 8, 11, 13, 16] {
            #expect(throws: bad, "nonce \(n)") { try AES256GCM.seal(s.plaintext, key: s.key, nonce: Array(repeating: 1, count: n)) }
            #expect(throws: bad, "nonce \(n)") {
                try AES256GCM.open(ciphertext: s.ciphertext, tag: s.tag, key: s.key, nonce: Array(repeating: 1, count: n))
            }
        }
        for t in [0, 4, 12, 15, 17] {
            #expect(throws: bad, "tag \(t)") {
                try AES256GCM.open(ciphertext: s.ciphertext, tag: Array(s.tag.prefix(t)) + Array(repeating: 0, count: max(0, t - 16)),
                                   key: s.key, nonce: s.nonce, authenticating: s.aad)
            }
        }
        // Package API: IV of at least one byte, tags of 4...16 bytes.
        #expect(throws: bad) { try AES256GCM.seal(s.plaintext, key: s.key, iv: [], aad: [], tagByteCount: 16) }
        #expect(throws: bad) { try AES256GCM.open(ciphertext: s.ciphertext, tag: s.tag, key: s.key, iv: [], aad: s.aad) }
        for t in [0, 3, 17] {
            #expect(throws: bad) { try AES256GCM.seal(s.plaintext, key: s.key, iv: s.nonce, aad: [], tagByteCount: t) }
        }
        for t in [0, 3] {
            #expect(throws: bad) { try AES256GCM.open(ciphertext: s.ciphertext, tag: Array(s.tag.prefix(t)), key: s.key, iv: s.nonce, aad: s.aad) }
        }
        #expect(throws: bad) { try AES256GCM.open(ciphertext: s.ciphertext, tag: s.tag + [0], key: s.key, iv: s.nonce, aad: s.aad) }
    }

    // MARK: Round trips

    /// seal/open round trip for every plaintext length 0...100 with seeded random key, nonce,
    /// AAD (0...40 bytes) and data; also with odd-length IVs through the package API.
    @Test func roundTripLengths0to100() throws {
        var rng = SplitMix64(seed: 0x6763_6d72_7274)
        print("roundTripLengths0to100 seed 0x67636d727274")
        func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }
        for n in 0...100 {
            let key = bytes(32), nonce = bytes(12), aad = bytes(Int(rng.next() % 41)), pt = bytes(n)
            let r = try AES256GCM.seal(pt, key: key, nonce: nonce, authenticating: aad)
            #expect(r.ciphertext.count == n && r.tag.count == 16, "len \(n)")
            #expect(try AES256GCM.open(ciphertext: r.ciphertext, tag: r.tag, key: key, nonce: nonce, authenticating: aad) == pt, "len \(n)")
            if n > 0 { #expect(r.ciphertext != pt, "len \(n)") }
            let iv = bytes(Int(rng.next() % 40) + 1)
            let q = try AES256GCM.seal(pt, key: key, iv: iv, aad: aad, tagByteCount: 16)
            #expect(try AES256GCM.open(ciphertext: q.ciphertext, tag: q.tag, key: key, iv: iv, aad: aad) == pt, "len \(n) iv \(iv.count)")
        }
    }

    /// Seal is deterministic and the keystream does not depend on the AAD.
    @Test func aadOnlyChangesTheTag() throws {
        let s = try Self.sample(seed: 0x6763_6d06)
        let r = try AES256GCM.seal(s.plaintext, key: s.key, nonce: s.nonce, authenticating: [])
        #expect(r.ciphertext == s.ciphertext)
        #expect(r.tag != s.tag)
        let again = try AES256GCM.seal(s.plaintext, key: s.key, nonce: s.nonce, authenticating: s.aad)
        #expect(again.ciphertext == s.ciphertext && again.tag == s.tag)
    }
}

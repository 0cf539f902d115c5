import Foundation
import Primitives
import Testing

/// X-Wing (draft-connolly-cfrg-xwing-kem-10) against both forms of the draft's test vectors:
/// `spec/test-vectors.json` and the appendix text `spec/test-vectors.txt`.
struct XWingKATTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let seed: [UInt8], sk: [UInt8], pk: [UInt8], eseed: [UInt8], ct: [UInt8], ss: [UInt8]
        var testDescription: String { name }
    }

    static func make(_ name: String, _ f: [String: String]) -> Case? {
        func b(_ k: String) -> [UInt8]? { f[k].flatMap(Hex.decode) }
        guard let seed = b("seed"), let sk = b("sk"), let pk = b("pk"), let eseed = b("eseed"),
              let ct = b("ct"), let ss = b("ss") else { return nil }
        return Case(name: name, seed: seed, sk: sk, pk: pk, eseed: eseed, ct: ct, ss: ss)
    }

    static let jsonCases: [Case] = {
        guard let data = try? KATFile.data("xwing/test-vectors.json"),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: String]] else { return [] }
        return list.enumerated().compactMap { make("test-vectors.json vector \($0.offset)", $0.element) }
    }()

    /// The appendix form: `name   hex` lines, long values continued on indented lines, vectors
    /// separated by blank lines.
    static let textCases: [Case] = {
        guard let text = try? KATFile.text("xwing/test-vectors.txt") else { return [] }
        var records: [[String: String]] = [[:]]
        var key: String?
        for raw in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let line = String(raw)
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !records[records.count - 1].isEmpty { records.append([:]) }
                key = nil
            } else if line.first == " " {
                guard let k = key else { return [] }
                records[records.count - 1][k, default: ""] += line.trimmingCharacters(in: .whitespaces)
            } else {
                let parts = line.split(separator: " ", omittingEmptySubsequences: true)
                key = String(parts[0])
                guard records[records.count - 1][key!] == nil else { return [] }  // malformed
                records[records.count - 1][key!] = parts.count > 1 ? String(parts[1]) : ""
            }
        }
        return records.filter { !$0.isEmpty }.enumerated().compactMap { make("test-vectors.txt vector \($0.offset)", $0.element) }
    }()

    @Test func filesAreNotEmpty() {
        #expect(Self.jsonCases.count == 3)
        #expect(Self.textCases.count == 3)
        // The two files are two renderings of the same three vectors.
        #expect(Self.jsonCases.map(\.ss) == Self.textCases.map(\.ss))
        #expect(Self.jsonCases.map(\.ct) == Self.textCases.map(\.ct))
    }

    @Test(arguments: jsonCases + textCases)
    func knownAnswer(_ c: Case) throws {
        #expect(c.pk.count == XWing.publicKeyByteCount)
        #expect(c.ct.count == XWing.ciphertextByteCount)
        let key = try XWing.PrivateKey(seed: c.seed)
        #expect(key.seedRepresentation == c.sk)
        #expect(key.publicKey.rawRepresentation == c.pk)
        let pk = try XWing.PublicKey(rawRepresentation: c.pk)
        #expect(pk == key.publicKey)
        let result = try pk.encapsulate(seed: c.eseed)
        #expect(result.ciphertext == c.ct)
        #expect(result.sharedSecret == c.ss)
        #expect(try key.decapsulate(c.ct) == c.ss)
        #expect(try XWing.PrivateKey(seed: c.sk).decapsulate(c.ct) == c.ss)
    }
}

/// What the three draft vectors do not pin: the construction rebuilt from its parts with the
/// public ML-KEM and X25519 APIs, implicit rejection through the hybrid, unchecked X25519
/// outputs, the label, and typed errors for wrong lengths and a bad ML-KEM key.
struct XWingNegativeTests {
    static func key() throws -> XWing.PrivateKey {
        try XWing.PrivateKey(seed: SHAKE128.hash(Array("xwing-negative".utf8), outputByteCount: 32))
    }

    static let eseed = SHAKE128.hash(Array("xwing-eseed".utf8), outputByteCount: 64)

    /// The draft's label is the ASCII of "\./" then "/^\".
    @Test func labelIsTheDraftsAsciiArt() {
        #expect(XWing.label == Array("\\./".utf8) + Array("/^\\".utf8))
        #expect(Hex.encode(XWing.label) == "5c2e2f2f5e5c")
    }

    /// The draft's pseudocode run on the component primitives: expandDecapsulationKey by
    /// SHAKE256(sk, 96), EncapsulateDerand, Decapsulate and the SHA3-256 combiner.
    static func fromComponents(sk: [UInt8], ct: [UInt8]) throws -> (pk: [UInt8], ss: [UInt8]) {
        let expanded = SHAKE256.hash(sk, outputByteCount: 96)
        let m = try MLKEM768.PrivateKey(seed: expanded[0..<64])
        let x = try X25519.PrivateKey(rawRepresentation: expanded[64..<96])
        let ctX = Array(ct[1088...])
        let ssM = try m.decapsulate(ct[0..<1088])
        let ssX = try X25519.scalarMult(scalar: Array(expanded[64..<96]), u: ctX)
        var h = SHA3_256()
        h.update(ssM + ssX + ctX + x.publicKey.rawRepresentation + [0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c])
        return (m.publicKey.rawRepresentation + x.publicKey.rawRepresentation, h.finalize())
    }

    /// Flipping a bit of ct_M gives ML-KEM's implicit-rejection secret inside the combiner;
    /// flipping a bit of ct_X gives another ss_X. Neither throws, and both match the components.
    @Test(arguments: [0, 500, 1087, 1088, 1119])
    func tamperedCiphertextDecapsulatesToTheComponentValue(_ offset: Int) throws {
        let key = try Self.key()
        let result = try key.publicKey.encapsulate(seed: Self.eseed)
        var tampered = result.ciphertext
        tampered[offset] ^= 0x02
        let ss = try key.decapsulate(tampered)
        #expect(ss != result.sharedSecret)
        let expected = try Self.fromComponents(sk: key.seedRepresentation, ct: tampered)
        #expect(expected.pk == key.publicKey.rawRepresentation)
        #expect(ss == expected.ss)
    }

    /// A small-order ct_X (u = 0 or 1) makes ss_X all zeros: X-Wing hashes it on, no error.
    @Test(arguments: [0, 1])
    func smallOrderX25519CiphertextIsNotAnError(_ u: UInt8) throws {
        let key = try Self.key()
        var ct = try key.publicKey.encapsulate(seed: Self.eseed).ciphertext
        for i in 1088..<1120 { ct[i] = 0 }
        ct[1088] = u
        let ss = try key.decapsulate(ct)
        #expect(ss == (try Self.fromComponents(sk: key.seedRepresentation, ct: ct)).ss)
        let ssM = try MLKEM768.PrivateKey(seed: SHAKE256.hash(key.seedRepresentation, outputByteCount: 96)[0..<64])
            .decapsulate(ct[0..<1088])
        #expect(ss == XWing.combine(ssM: ssM, ssX: [UInt8](repeating: 0, count: 32), ctX: Array(ct[1088...]),
                                    pkX: key.publicKey.x25519PublicKey.rawRepresentation))
    }

    /// A public key whose X25519 half is a small-order point (u = 0) still encapsulates: the
    /// ciphertext is the one for the real key (it depends on pk_M and eseed only) and ss_X = 0.
    @Test func smallOrderX25519PublicKeyIsNotAnError() throws {
        let key = try Self.key()
        var pk = key.publicKey.rawRepresentation
        for i in 1184..<1216 { pk[i] = 0 }
        let result = try XWing.PublicKey(rawRepresentation: pk).encapsulate(seed: Self.eseed)
        let reference = try key.publicKey.encapsulate(seed: Self.eseed)
        #expect(result.ciphertext == reference.ciphertext)
        let ssM = try MLKEM768.PrivateKey(seed: SHAKE256.hash(key.seedRepresentation, outputByteCount: 96)[0..<64])
            .decapsulate(result.ciphertext[0..<1088])
        #expect(result.sharedSecret == XWing.combine(ssM: ssM, ssX: [UInt8](repeating: 0, count: 32),
                                                     ctX: Array(result.ciphertext[1088...]), pkX: [UInt8](repeating: 0, count: 32)))
    }

    @Test func wrongLengthsThrowInvalidLength() throws {
        let key = try Self.key()
        let pk = key.publicKey.rawRepresentation
        let ct = try key.publicKey.encapsulate(seed: Self.eseed).ciphertext
        let invalidLength = CryptoError(.invalidLength, "")
        for n in [0, 31, 33, 64] {
            #expect(throws: invalidLength) { try XWing.PrivateKey(seed: [UInt8](repeating: 1, count: n)) }
        }
        for n in [1215, 1217, 1184] {
            #expect(throws: invalidLength) { try XWing.PublicKey(rawRepresentation: Array(pk.prefix(n)) + [UInt8](repeating: 0, count: max(0, n - pk.count))) }
        }
        for n in [0, 1088, 1119, 1121] {
            #expect(throws: invalidLength) { try key.decapsulate(Array(ct.prefix(n)) + [UInt8](repeating: 0, count: max(0, n - ct.count))) }
        }
        for n in [0, 32, 63, 65] {
            #expect(throws: invalidLength) { try key.publicKey.encapsulate(seed: [UInt8](repeating: 1, count: n)) }
        }
    }

    /// pk_M failing the FIPS 203 §7.2 modulus check makes the X-Wing public key invalid.
    @Test func mlkemModulusFailureRejectsThePublicKey() throws {
        var pk = try Self.key().publicKey.rawRepresentation
        pk[0] = 0xff
        pk[1] |= 0x0f  // first 12-bit field = 4095 ≥ q
        #expect(throws: CryptoError(.invalidEncoding, "")) { try XWing.PublicKey(rawRepresentation: pk) }
    }

    @Test func randomKeysRoundTrip() throws {
        let key = XWing.PrivateKey()
        let result = key.publicKey.encapsulate()
        #expect(try key.decapsulate(result.ciphertext) == result.sharedSecret)
        #expect(try XWing.PrivateKey(seed: key.seedRepresentation).publicKey == key.publicKey)
    }
}

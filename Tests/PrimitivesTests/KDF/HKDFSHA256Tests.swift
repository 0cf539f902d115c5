import Primitives
import Testing

/// HKDF-SHA256 against RFC 5869 Appendix A.1–A.3 (PRK and OKM both checked), plus the
/// length limits of RFC 5869 §2.3.
struct HKDFSHA256Tests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let ikm: [UInt8], salt: [UInt8], info: [UInt8]
        let length: Int
        let prk: String, okm: String
        var testDescription: String { name }
    }

    static let file = "hkdf/rfc-5869-HKDF-SHA256.txt"

    /// The file puts a blank line between `L` and `PRK` in some cases, so records are grouped by
    /// `COUNT` here rather than by blank lines (RSP.parse would split one case in two).
    static let cases: [Case] = {
        guard let text = try? KATFile.text(file) else { return [] }
        var groups: [[String: String]] = []
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            let k = line[..<eq].trimmingCharacters(in: .whitespaces)
            let v = line[line.index(after: eq)...].trimmingCharacters(in: .whitespaces)
            if k == "COUNT" { groups.append([:]) }
            if !groups.isEmpty { groups[groups.count - 1][k] = v }
        }
        return groups.compactMap { g in
            guard g["Hash"] == "SHA-256", let count = g["COUNT"],
                  let ikm = g["IKM"].flatMap(Hex.decode), let salt = g["salt"].flatMap(Hex.decode),
                  let info = g["info"].flatMap(Hex.decode), let len = g["L"].flatMap(Int.init),
                  let prk = g["PRK"], let okm = g["OKM"]
            else { return nil }
            return Case(name: "\(file) COUNT=\(count) (L=\(len))", ikm: ikm, salt: salt, info: info,
                        length: len, prk: prk, okm: okm)
        }
    }()

    @Test func fileIsNotEmpty() {
        #expect(Self.cases.count == 3)
    }

    @Test(arguments: cases)
    func knownAnswer(_ c: Case) throws {
        let prk = HKDFSHA256.extract(salt: c.salt, inputKeyMaterial: c.ikm)
        #expect(Hex.encode(prk) == c.prk)
        let okm = try HKDFSHA256.expand(pseudoRandomKey: prk, info: c.info, outputByteCount: c.length)
        #expect(Hex.encode(okm) == c.okm)
        #expect(okm.count == c.length)
        let derived = try HKDFSHA256.deriveKey(inputKeyMaterial: c.ikm, salt: c.salt, info: c.info, outputByteCount: c.length)
        #expect(Hex.encode(derived) == c.okm)
    }

    /// RFC 5869 §2.2: an absent salt is HashLen zero bytes; the empty salt gives the same PRK.
    @Test func emptySaltEqualsZeroSalt() {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        #expect(HKDFSHA256.extract(salt: [], inputKeyMaterial: ikm)
            == HKDFSHA256.extract(salt: [UInt8](repeating: 0, count: 32), inputKeyMaterial: ikm))
    }

    /// RFC 5869 §2.3 limits: PRK ≥ HashLen, L ≤ 255 · HashLen; shorter outputs are prefixes.
    @Test func lengthLimits() throws {
        let prk = [UInt8](repeating: 7, count: 32)
        #expect(throws: CryptoError(.invalidLength, "")) {
            try HKDFSHA256.expand(pseudoRandomKey: Array(prk.prefix(31)), info: [], outputByteCount: 32)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try HKDFSHA256.expand(pseudoRandomKey: prk, info: [], outputByteCount: 255 * 32 + 1)
        }
        #expect(throws: CryptoError(.invalidParameter, "")) {
            try HKDFSHA256.expand(pseudoRandomKey: prk, info: [], outputByteCount: -1)
        }
        #expect(try HKDFSHA256.expand(pseudoRandomKey: prk, info: [], outputByteCount: 0).isEmpty)
        let longest = try HKDFSHA256.expand(pseudoRandomKey: prk, info: [1], outputByteCount: 255 * 32)
        #expect(longest.count == 255 * 32)
        for n in [1, 31, 32, 33, 64, 100] {
            #expect(try HKDFSHA256.expand(pseudoRandomKey: prk, info: [1], outputByteCount: n) == Array(longest.prefix(n)))
        }
        // A longer PRK is allowed (§2.3 says "at least HashLen").
        #expect(try HKDFSHA256.expand(pseudoRandomKey: prk + [1], info: [], outputByteCount: 16).count == 16)
    }
}

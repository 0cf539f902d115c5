import Foundation
import Primitives
import Testing
@testable import Vectors

/// The RFC 8949 Appendix A examples against the strict reader and the deterministic writer.
///
/// Entries marked `roundtrip: true` are already in deterministic form: the reader must accept them,
/// their value must match `decoded` / `diagnostic`, and the writer must reproduce the bytes.
/// Entries marked `roundtrip: false` (indefinite lengths, non-shortest floats) must be rejected by
/// the strict reader with the matching code, and re-encoding their value must give other bytes.
struct AppendixATests {
    struct Example: CustomTestStringConvertible, Sendable {
        let hex: String
        let roundtrip: Bool
        let decoded: JSONValue?
        let diagnostic: String?
        var testDescription: String { hex }
    }

    static let examples: [Example] = {
        guard let text = try? Fixtures.kat("cbor/appendix_a.json"), let json = try? JSONValue.parse(text), let items = json.arrayValue else { return [] }
        return items.map { e in
            Example(hex: e["hex"]!.stringValue!, roundtrip: e["roundtrip"]!.boolValue!, decoded: e["decoded"], diagnostic: e["diagnostic"]?.stringValue)
        }
    }()

    @Test func fileIsComplete() {
        #expect(Self.examples.count == 82)
        #expect(Self.examples.filter(\.roundtrip).count == 65)
    }

    /// RFC 7049 listed `f818` as simple(24); RFC 8949 §3.3 made a two-byte simple value below 32
    /// not well-formed, so the strict reader rejects it. The only example where the two RFCs differ.
    static let rfc7049Only: Set<String> = ["f818"]

    @Test func rfc7049OnlySimpleIsRejected() {
        do {
            _ = try CBORReader.decode(Hex.decode("f818")!)
            Issue.record("f818 accepted")
        } catch {
            #expect(error.code == .cborInvalidSimple)
        }
    }

    @Test(arguments: examples.filter { $0.roundtrip && !rfc7049Only.contains($0.hex) })
    func deterministicExample(_ e: Example) throws {
        let bytes = Hex.decode(e.hex)!
        let item = try CBORReader.decode(bytes)
        #expect(CBORWriter.encode(item) == bytes, "writer must reproduce \(e.hex)")
        if let d = e.diagnostic {
            #expect(CBORDiagnostic.render(item) == d)
        } else if let decoded = e.decoded {
            #expect(Self.matches(item, decoded), "\(CBORDiagnostic.render(item)) vs \(decoded.compact)")
        } else {
            Issue.record("example has neither decoded nor diagnostic")
        }
    }

    @Test(arguments: examples.filter { !$0.roundtrip })
    func nonDeterministicExampleIsRejected(_ e: Example) {
        let bytes = Hex.decode(e.hex)!
        #expect {
            _ = try CBORReader.decode(bytes)
        } throws: { error in
            guard let w = error as? WireError else { return false }
            // Indefinite-length items start with 0x5f/0x7f/0x9f/0xbf somewhere; the float
            // examples are non-shortest encodings of Infinity and NaN.
            return e.hex.hasPrefix("f") ? w.code == .cborNonCanonical : w.code == .cborIndefiniteLength
        }
    }

    /// Compares a decoded item with the JSON `decoded` value of the example file.
    static func matches(_ item: CBOR, _ json: JSONValue) -> Bool {
        switch (item, json) {
        case (.unsigned(let v), .number(let n)): return String(v) == n
        case (.negative(let v), .number(let n)): return (v == UInt64.max ? "-18446744073709551616" : "-" + String(v + 1)) == n
        case (.tagged(2, .bytes(let b)), .number(let n)): return bigDecimal(b) == n
        case (.tagged(3, .bytes(let b)), .number(let n)): return "-" + bigDecimal(b, plusOne: true) == n
        case (.float(let d), .number(let n)): return Double(n) == d
        case (.text(let s), .string(let t)): return s == t
        case (.bool(let b), .bool(let c)): return b == c
        case (.null, .null): return true
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.map(let entries), .object(let members)):
            return entries.count == members.count && zip(entries, members).allSatisfy { e, m in e.key == .text(m.0) && matches(e.value, m.1) }
        default: return false
        }
    }

    /// Decimal text of a big-endian unsigned integer (optionally plus one, for negative bignums).
    static func bigDecimal(_ bytes: [UInt8], plusOne: Bool = false) -> String {
        var digits: [UInt8] = [0]  // little-endian base 10
        func mulAdd(_ m: Int, _ a: Int) {
            var carry = a
            for i in digits.indices {
                let v = Int(digits[i]) * m + carry
                digits[i] = UInt8(v % 10)
                carry = v / 10
            }
            while carry > 0 { digits.append(UInt8(carry % 10)); carry /= 10 }
        }
        for b in bytes { mulAdd(256, Int(b)) }
        if plusOne { mulAdd(1, 1) }
        while digits.count > 1 && digits.last == 0 { digits.removeLast() }
        return String(digits.reversed().map { Character(String($0)) })
    }
}

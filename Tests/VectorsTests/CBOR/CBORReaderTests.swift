import Primitives
import Testing
@testable import Vectors

/// Each strictness rule of SPEC.md §1 with the exact code and byte offset it reports.
struct CBORReaderTests {
    struct Bad: CustomTestStringConvertible, Sendable {
        let hex: String
        let code: ErrorCode
        let offset: Int
        var testDescription: String { "\(hex) → \(code.rawValue)@\(offset)" }
    }

    static let bad: [Bad] = [
        Bad(hex: "1817", code: .cborNonCanonical, offset: 0),            // 23 in two bytes
        Bad(hex: "190017", code: .cborNonCanonical, offset: 0),          // 23 in three bytes
        Bad(hex: "1a0000ffff", code: .cborNonCanonical, offset: 0),      // fits in 2 bytes
        Bad(hex: "1b00000000ffffffff", code: .cborNonCanonical, offset: 0),
        Bad(hex: "5f4100ff", code: .cborIndefiniteLength, offset: 0),
        Bad(hex: "9fff", code: .cborIndefiniteLength, offset: 0),
        Bad(hex: "bfff", code: .cborIndefiniteLength, offset: 0),
        Bad(hex: "1c", code: .cborReservedInfo, offset: 0),
        Bad(hex: "1f", code: .cborReservedInfo, offset: 0),               // 31 in major type 0: a stray break, not an indefinite length
        Bad(hex: "3f", code: .cborReservedInfo, offset: 0),               // … in major type 1
        Bad(hex: "df00", code: .cborReservedInfo, offset: 0),             // … in major type 6
        Bad(hex: "a3616101616202616103", code: .cborUnsortedMapKeys, offset: 7),   // a, b, a: compared with b only (SPEC §1 [R1-20])
        Bad(hex: "84181700", code: .cborTruncated, offset: 0), // 4 items, 3 bytes left: at the head, before 1817 ([R1-18])
        Bad(hex: "ff", code: .cborReservedInfo, offset: 0),
        Bad(hex: "f800", code: .cborInvalidSimple, offset: 0),
        Bad(hex: "f81f", code: .cborInvalidSimple, offset: 0),
        Bad(hex: "a2616101616102", code: .cborDuplicateMapKey, offset: 4),
        Bad(hex: "a2616201616102", code: .cborUnsortedMapKeys, offset: 4),
        Bad(hex: "a2626161016162", code: .cborUnsortedMapKeys, offset: 5),   // "aa" before "b": longer key first is unsorted
        Bad(hex: "62c328", code: .cborInvalidUTF8, offset: 0),
        Bad(hex: "63eda080", code: .cborInvalidUTF8, offset: 0),           // a UTF-16 surrogate
        Bad(hex: "0000", code: .cborTrailingBytes, offset: 1),
        Bad(hex: "", code: .cborTruncated, offset: 0),
        Bad(hex: "18", code: .cborTruncated, offset: 0),
        Bad(hex: "4401", code: .cborTruncated, offset: 0),
        Bad(hex: "830102", code: .cborTruncated, offset: 0),  // the declared 3 items cannot fit in 2 bytes
        Bad(hex: "8201a1", code: .cborTruncated, offset: 2),                // a one-entry map with no bytes left
        Bad(hex: "5b ffffffffffffffff".replacingOccurrences(of: " ", with: ""), code: .cborTruncated, offset: 0),
        Bad(hex: "bb7fffffffffffffff", code: .cborTruncated, offset: 0),
        Bad(hex: "fa3fc00000", code: .cborNonCanonical, offset: 0),          // 1.5 as single: half suffices
        Bad(hex: "fb3ff8000000000000", code: .cborNonCanonical, offset: 0),  // 1.5 as double
        Bad(hex: "f97e01", code: .cborNonCanonical, offset: 0),              // NaN with payload
        Bad(hex: "c24101", code: .cborNonCanonical, offset: 0),              // bignum that fits
        Bad(hex: "c249000100000000000000", code: .cborNonCanonical, offset: 0), // leading zero
    ]

    @Test(arguments: bad)
    func rejects(_ b: Bad) {
        do {
            let item = try CBORReader.decode(Hex.decode(b.hex)!)
            Issue.record("accepted \(b.hex) as \(CBORDiagnostic.render(item))")
        } catch {
            #expect(error.code == b.code)
            #expect(error.offset == b.offset)
        }
    }

    @Test func depthLimit() throws {
        let deep32 = [UInt8](repeating: 0x81, count: 31) + [0x00]
        #expect(throws: Never.self) { try CBORReader.decode(deep32) }
        let deep33 = [UInt8](repeating: 0x81, count: 32) + [0x00]
        do {
            _ = try CBORReader.decode(deep33)
            Issue.record("33 levels accepted")
        } catch {
            #expect(error.code == .cborDepthExceeded)
            #expect(error.offset == 32)
        }
    }

    /// The writer sorts map keys by encoded bytes whatever order they are given in.
    @Test func writerSortsMapKeys() {
        let m = CBOR.map([(.text("bb"), .unsigned(1)), (.unsigned(10), .unsigned(2)), (.text("a"), .unsigned(3)), (.negative(0), .unsigned(4))])
        #expect(Hex.encode(CBORWriter.encode(m)) == "a40a02200461610362626201")
    }

    /// Every prefix of a valid item is rejected as truncated, never a trap; random bytes never trap.
    @Test func prefixesAndNoise() {
        let valid = Hex.decode("a3616183010203616282f5f6616363e6b0b4")!
        _ = try? CBORReader.decode(valid)
        for n in 0..<valid.count {
            do {
                _ = try CBORReader.decode(Array(valid.prefix(n)))
                Issue.record("prefix \(n) accepted")
            } catch {
                #expect(error.code == .cborTruncated)
            }
        }
        var g = SeededGenerator(seed: 0xc0b0)
        print("prefixesAndNoise seed 0xc0b0")
        for _ in 0..<20_000 {
            let bytes = g.bytes(Int(g.next() % 24))
            if let item = try? CBORReader.decode(bytes) {
                #expect(CBORWriter.encode(item) == bytes, "accepted non-canonical \(Hex.encode(bytes))")
            }
        }
    }
}

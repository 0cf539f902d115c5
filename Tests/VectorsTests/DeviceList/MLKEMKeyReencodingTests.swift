import Primitives
import Testing
@testable import Vectors

/// `MLKEMKeyReencoding` (Haven's `ml-kem` round trip, SPEC.md §10.1 R10.1-7) against the suite's
/// own FIPS 203 code: a key it leaves unchanged is exactly a key `MLKEM768.PublicKey` accepts
/// (the §7.2 modulus check), a real key comes back byte for byte, and the re-encoding is idempotent.
struct MLKEMKeyReencodingTests {
    /// Random keys with a few coefficients forced to q … 4095, so both outcomes occur.
    static func keys(seed: UInt64, count: Int) -> [[UInt8]] {
        print("MLKEMKeyReencodingTests seed \(seed)")
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            var k = g.bytes(MLKEMKeyReencoding.keyByteCount)
            // Half the keys: every coefficient masked below 2^11 < q (canonical); then maybe one raised.
            if i % 2 == 0 {
                for j in stride(from: 0, to: MLKEMKeyReencoding.tHatByteCount, by: 3) { k[j + 1] &= 0x77; k[j + 2] &= 0x7f }
            }
            if i % 3 == 0 {
                let at = Int(g.next() % 384) * 3
                let c = 3329 + UInt16(g.next() % 767)   // q … 4095
                k[at] = UInt8(c & 0xff); k[at + 1] = (k[at + 1] & 0xf0) | UInt8(c >> 8)
            }
            return k
        }
    }

    @Test func unchangedExactlyWhenTheModulusCheckPasses() {
        let keys = Self.keys(seed: 0x26_4B45_4D, count: 60)
        var canonical = 0
        for (i, k) in keys.enumerated() {
            let accepted = (try? MLKEM768.PublicKey(rawRepresentation: k)) != nil
            #expect(MLKEMKeyReencoding.isCanonical(k) == accepted, "key \(i)")
            let once = MLKEMKeyReencoding.reencoded(k)
            #expect(MLKEMKeyReencoding.reencoded(once) == once && MLKEMKeyReencoding.isCanonical(once), "key \(i)")
            #expect(once[MLKEMKeyReencoding.tHatByteCount...] == k[MLKEMKeyReencoding.tHatByteCount...], "ρ kept, key \(i)")
            if accepted { canonical += 1 }
        }
        // Both kinds were drawn (a generator bug making all keys one kind would pass the loop).
        #expect(canonical > 5 && canonical < keys.count - 5, "canonical keys: \(canonical) of \(keys.count)")
    }

    @Test func aRealKeyComesBackByteForByte() throws {
        let ek = try MLKEM768.PrivateKey(seed: [UInt8](repeating: 0x26, count: 64)).publicKey.rawRepresentation
        #expect(MLKEMKeyReencoding.reencoded(ek) == ek)
    }

    @Test func oneCoefficientReduced() {
        // c0 = 3329 (q) → 0, c1 = 4095 → 766 (0x2fe): bytes 01 fd ff → 00 e0 2f.
        var k = [UInt8](repeating: 0, count: MLKEMKeyReencoding.keyByteCount)
        k[0] = 0x01; k[1] = 0xfd; k[2] = 0xff
        let out = MLKEMKeyReencoding.reencoded(k)
        #expect(Array(out[0..<3]) == [0x00, 0xe0, 0x2f])
        #expect(out[3...] == k[3...])
    }
}

import Primitives
import Testing

/// HMAC-SHA-256 against RFC 4231 §4 (the pyca copy of test cases 1–4, 6, 7, and case 5 added by
/// hand from the RFC text), plus incremental-update and verification checks.
struct HMACSHA256Tests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let key: [UInt8]
        let message: [UInt8]
        let mac: String
        var testDescription: String { name }
    }

    static let file = "hmac/rfc-4231-sha256.txt"

    static let cases: [Case] = {
        guard let text = try? KATFile.text(file) else { return [] }
        return RSP.parse(text).enumerated().compactMap { i, r in
            guard let len = r.fields["Len"].flatMap(Int.init), let key = r.fields["Key"].flatMap(Hex.decode),
                  let msg = r.fields["Msg"].flatMap(Hex.decode), let md = r.fields["MD"],
                  len == msg.count * 8  // `Len` is in bits; a mismatch means a misparsed record (count test fails)
            else { return nil }
            return Case(name: "\(file) record \(i + 1) (Len=\(len), key \(key.count) B)", key: key, message: msg, mac: md)
        }
    }()

    @Test func fileIsNotEmpty() {
        // RFC 4231 test cases 1, 2, 3, 4, 6, 7 (the file omits case 5).
        #expect(Self.cases.count == 6)
    }

    @Test(arguments: cases)
    func knownAnswer(_ c: Case) {
        #expect(Hex.encode(HMACSHA256.authenticationCode(for: c.message, key: c.key)) == c.mac)
        #expect(HMACSHA256.isValidAuthenticationCode(Hex.decode(c.mac)!, for: c.message, key: c.key))
    }

    /// RFC 4231 §4.6, Test Case 5: key = 0x0c × 20, data = "Test With Truncation"; the RFC gives
    /// only the leftmost 128 bits of the output (truncation per RFC 2104 §5).
    @Test func rfc4231TestCase5Truncation() {
        let key = [UInt8](repeating: 0x0c, count: 20)
        let data = Array("Test With Truncation".utf8)
        #expect(Hex.encode(data) == "546573742057697468205472756e636174696f6e")
        let mac = HMACSHA256.authenticationCode(for: data, key: key)
        #expect(mac.count == 32)
        #expect(Hex.encode(mac.prefix(16)) == "a3b6167473100ee06e0c796c2955552b")
        // A truncated MAC is not accepted by the full-length verifier.
        #expect(!HMACSHA256.isValidAuthenticationCode(Array(mac.prefix(16)), for: data, key: key))
    }

    /// Messages absorbed in pieces split at seeded random points give the one-shot MAC.
    @Test func splitUpdatesMatchOneShot() {
        var rng = SplitMix64(seed: 0x4d41_4331)
        for c in Self.cases {
            var mac = HMACSHA256(key: c.key)
            var rest = c.message[...]
            while !rest.isEmpty {
                let n = Int(rng.next() % UInt64(min(rest.count, 70))) + 1
                mac.update(rest.prefix(n))
                rest = rest.dropFirst(n)
            }
            #expect(Hex.encode(mac.finalize()) == c.mac, "\(c.name)")
        }
    }

    /// Keys of 64 bytes (used as is) and 65 bytes (hashed first) behave per RFC 2104 §3:
    /// a 65-byte key K equals the 32-byte key SHA-256(K).
    @Test func keyLengthBoundaries() {
        let msg = Array("boundary".utf8)
        let k65 = [UInt8](repeating: 0x5a, count: 65)
        #expect(HMACSHA256.authenticationCode(for: msg, key: k65)
            == HMACSHA256.authenticationCode(for: msg, key: SHA256.hash(k65).bytes))
        let k64 = [UInt8](repeating: 0x5a, count: 64)
        #expect(HMACSHA256.authenticationCode(for: msg, key: k64)
            != HMACSHA256.authenticationCode(for: msg, key: SHA256.hash(k64).bytes))
        // A key and the same key with trailing zeros up to the block size are the same HMAC key.
        #expect(HMACSHA256.authenticationCode(for: msg, key: [1, 2, 3])
            == HMACSHA256.authenticationCode(for: msg, key: [1, 2, 3, 0, 0]))
    }

    /// Any flipped bit in the MAC, the message or the key is rejected.
    @Test func flippedBitsAreRejected() {
        let c = Self.cases[1]
        let mac = Hex.decode(c.mac)!
        for bit in 0..<(mac.count * 8) {
            var bad = mac
            bad[bit / 8] ^= 1 << (bit % 8)
            #expect(!HMACSHA256.isValidAuthenticationCode(bad, for: c.message, key: c.key), "mac bit \(bit)")
        }
        for bit in 0..<(c.message.count * 8) {
            var bad = c.message
            bad[bit / 8] ^= 1 << (bit % 8)
            #expect(!HMACSHA256.isValidAuthenticationCode(mac, for: bad, key: c.key), "message bit \(bit)")
        }
        for bit in 0..<(c.key.count * 8) {
            var bad = c.key
            bad[bit / 8] ^= 1 << (bit % 8)
            #expect(!HMACSHA256.isValidAuthenticationCode(mac, for: c.message, key: bad), "key bit \(bit)")
        }
        #expect(!HMACSHA256.isValidAuthenticationCode([], for: c.message, key: c.key))
        #expect(!HMACSHA256.isValidAuthenticationCode(mac + [0], for: c.message, key: c.key))
    }
}

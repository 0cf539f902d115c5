import Foundation
import Primitives
import Testing

/// Ed25519 (RFC 8032 §5.1) against the five §7.1 test vectors, plus rejection tests for the
/// verification rules the suite relies on (64-byte R || S, S < L, R and A decode, cofactorless
/// comparison of encodings).
struct Ed25519Tests {
    struct Case: CustomTestStringConvertible, Sendable, Decodable {
        let name: String
        let secretKey: String
        let publicKey: String
        let message: String
        let signature: String
        var testDescription: String { "rfc8032-7.1-ed25519.json TEST \(name)" }

        var seedBytes: [UInt8] { Hex.decode(secretKey)! }
        var publicKeyBytes: [UInt8] { Hex.decode(publicKey)! }
        var messageBytes: [UInt8] { Hex.decode(message)! }
        var signatureBytes: [UInt8] { Hex.decode(signature)! }
    }

    struct File: Decodable { let tests: [Case] }

    static let cases: [Case] = {
        guard let data = try? KATFile.data("ed25519/rfc8032-7.1-ed25519.json"),
              let file = try? JSONDecoder().decode(File.self, from: data) else { return [] }
        return file.tests
    }()

    /// L = 2^252 + 27742317777372353535851937790883648493, little-endian.
    static let orderBytes: [UInt8] = Hex.decode(
        "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")!

    @Test func fileHasAllFiveVectors() {
        #expect(Self.cases.count == 5)
        #expect(Self.cases.map(\.name) == ["1", "2", "3", "1024", "SHA(abc)"])
    }

    /// Public key from seed, signature bytes exactly, and verification — per vector.
    @Test(arguments: cases)
    func knownAnswer(_ c: Case) throws {
        let key = try Ed25519.PrivateKey(seed: c.seedBytes)
        #expect(key.seed == c.seedBytes)
        #expect(Hex.encode(key.publicKey.rawRepresentation) == c.publicKey)
        let sig = key.signature(for: c.messageBytes)
        #expect(Hex.encode(sig) == c.signature)
        let pk = try Ed25519.PublicKey(rawRepresentation: c.publicKeyBytes)
        #expect(pk == key.publicKey)
        #expect(pk.rawRepresentation == c.publicKeyBytes)
        #expect(pk.isValidSignature(c.signatureBytes, for: c.messageBytes))
        // Non-contiguous collections take the copying path and agree.
        #expect(pk.isValidSignature(c.signatureBytes.lazy.map { $0 }, for: c.messageBytes.lazy.map { $0 }))
        #expect(key.signature(for: c.messageBytes.lazy.map { $0 }) == sig)
    }

    /// Every one of the 512 single-bit flips of the signature is rejected.
    @Test(arguments: cases)
    func signatureBitFlipsRejected(_ c: Case) throws {
        let pk = try Ed25519.PublicKey(rawRepresentation: c.publicKeyBytes)
        let msg = c.messageBytes
        var accepted: [Int] = []
        for bit in 0..<512 {
            var sig = c.signatureBytes
            sig[bit / 8] ^= 1 << (bit % 8)
            if pk.isValidSignature(sig, for: msg) { accepted.append(bit) }
        }
        #expect(accepted.isEmpty, "flipped signature bits accepted: \(accepted)")
    }

    /// Flipping any bit of the message is rejected (every bit for short messages, the first and
    /// last 256 bits plus a seeded sample for the 1023-byte one); appending or dropping a byte too.
    @Test(arguments: cases)
    func messageBitFlipsRejected(_ c: Case) throws {
        let pk = try Ed25519.PublicKey(rawRepresentation: c.publicKeyBytes)
        let sig = c.signatureBytes
        let msg = c.messageBytes
        var bits = Array(0..<min(msg.count * 8, 256)) + Array(max(0, msg.count * 8 - 256)..<msg.count * 8)
        var rng = SplitMix64(seed: 0x5eed_d255)
        if msg.count * 8 > 512 { for _ in 0..<256 { bits.append(Int(rng.next() % UInt64(msg.count * 8))) } }
        var accepted: [Int] = []
        for bit in Set(bits).sorted() {
            var m = msg
            m[bit / 8] ^= 1 << (bit % 8)
            if pk.isValidSignature(sig, for: m) { accepted.append(bit) }
        }
        #expect(accepted.isEmpty, "flipped message bits accepted: \(accepted)")
        #expect(!pk.isValidSignature(sig, for: msg + [0]))
        if !msg.isEmpty { #expect(!pk.isValidSignature(sig, for: msg.dropLast())) }
    }

    /// Flipping any of the 256 bits of the public key either fails to decode (`.invalidEncoding`)
    /// or gives a key that rejects the signature.
    @Test(arguments: cases)
    func publicKeyBitFlipsRejected(_ c: Case) throws {
        var accepted: [Int] = []
        var undecodable = 0
        for bit in 0..<256 {
            var raw = c.publicKeyBytes
            raw[bit / 8] ^= 1 << (bit % 8)
            do {
                let pk = try Ed25519.PublicKey(rawRepresentation: raw)
                if pk.isValidSignature(c.signatureBytes, for: c.messageBytes) { accepted.append(bit) }
            } catch let e as CryptoError {
                #expect(e.code == .invalidEncoding)
                undecodable += 1
            }
        }
        #expect(accepted.isEmpty, "flipped public-key bits accepted: \(accepted)")
        // About half of all y values are not on the curve; an all-decodable run would mean decoding
        // accepts everything.
        #expect(undecodable > 0)
    }

    /// S + L is the same value mod L but not canonical: RFC 8032 §5.1.7 requires rejecting it.
    @Test(arguments: cases)
    func nonCanonicalSRejected(_ c: Case) throws {
        let pk = try Ed25519.PublicKey(rawRepresentation: c.publicKeyBytes)
        var sig = c.signatureBytes
        var carry = 0
        for i in 0..<32 {
            let v = Int(sig[32 + i]) + Int(Self.orderBytes[i]) + carry
            sig[32 + i] = UInt8(v & 0xff)
            carry = v >> 8
        }
        #expect(carry == 0)  // S + L < 2^256 for S < L (L < 2^253)
        #expect(!pk.isValidSignature(sig, for: c.messageBytes))
        // S = L exactly (≡ 0) is rejected as well.
        var sigL = c.signatureBytes
        sigL.replaceSubrange(32..<64, with: Self.orderBytes)
        #expect(!pk.isValidSignature(sigL, for: c.messageBytes))
    }

    /// SPEC.md §9.1 [R9.1-3]: y is read mod p, so y ≥ p is an alias that decodes when y - p is
    /// the y of a point (y = p + 1 is the identity's, y = 2^255 - 1 = p + 18 a large-order
    /// point's); it is flagged non-canonical. y = p + 2 (2 is not a y of the curve) still throws.
    @Test func publicKeyWithYAtLeastPIsAnAlias() throws {
        for (low, top, decodes) in [(0xed, 0x7f, true), (0xee, 0x7f, true), (0xee, 0xff, true), (0xef, 0x7f, false), (0xff, 0x7f, true)] as [(UInt8, UInt8, Bool)] {
            var raw = [UInt8](repeating: 0xff, count: 32)
            raw[0] = low
            raw[31] = top
            if decodes {
                let key = try Ed25519.PublicKey(rawRepresentation: raw)
                #expect(!key.isCanonicalEncoding)
                #expect(key.rawRepresentation == raw)
            } else {
                #expect(throws: CryptoError(.invalidEncoding, "")) { try Ed25519.PublicKey(rawRepresentation: raw) }
            }
        }
        // The canonical encodings of y = 1 (identity, x = 0) and y = p - 1 (x = 0) decode as canonical.
        var one = [UInt8](repeating: 0, count: 32); one[0] = 1
        #expect(try Ed25519.PublicKey(rawRepresentation: one).isCanonicalEncoding)
        var minusOne = [UInt8](repeating: 0xff, count: 32); minusOne[0] = 0xec; minusOne[31] = 0x7f
        #expect(try Ed25519.PublicKey(rawRepresentation: minusOne).isCanonicalEncoding)
    }

    /// x = 0 with the sign bit set ("-0") is an alias read as x = 0 (flagged non-canonical); a y
    /// whose x² = (y² - 1)/(d·y² + 1) is not a square (y = 2 is one) is not a point and throws.
    @Test func publicKeyMinusZeroIsAnAliasAndNonSquaresThrow() throws {
        var minusZero = [UInt8](repeating: 0, count: 32); minusZero[0] = 1; minusZero[31] = 0x80
        let key = try Ed25519.PublicKey(rawRepresentation: minusZero)
        #expect(!key.isCanonicalEncoding)
        #expect(key.isSmallOrder)
        var two = [UInt8](repeating: 0, count: 32); two[0] = 2
        #expect(throws: CryptoError(.invalidEncoding, "")) { try Ed25519.PublicKey(rawRepresentation: two) }
    }

    /// An R that does not decode (y ≥ p, or not on the curve) makes verification fail.
    @Test(arguments: cases)
    func undecodableRRejected(_ c: Case) throws {
        let pk = try Ed25519.PublicKey(rawRepresentation: c.publicKeyBytes)
        var sig = c.signatureBytes
        sig.replaceSubrange(0..<32, with: [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f])
        #expect(!pk.isValidSignature(sig, for: c.messageBytes))
        sig.replaceSubrange(0..<32, with: [2] + [UInt8](repeating: 0, count: 31))
        #expect(!pk.isValidSignature(sig, for: c.messageBytes))
    }

    /// Wrong lengths: seeds and public keys throw `.invalidLength`, signatures return false.
    @Test func wrongLengths() throws {
        for n in [0, 1, 31, 33, 64] {
            #expect(throws: CryptoError(.invalidLength, "")) {
                try Ed25519.PrivateKey(seed: [UInt8](repeating: 1, count: n))
            }
            #expect(throws: CryptoError(.invalidLength, "")) {
                try Ed25519.PublicKey(rawRepresentation: [UInt8](repeating: 1, count: n))
            }
        }
        let c = try #require(Self.cases.first)
        let pk = try Ed25519.PublicKey(rawRepresentation: c.publicKeyBytes)
        let sig = c.signatureBytes
        #expect(!pk.isValidSignature(sig.dropLast(), for: c.messageBytes))
        #expect(!pk.isValidSignature(sig + [0], for: c.messageBytes))
        #expect(!pk.isValidSignature([UInt8](), for: c.messageBytes))
    }

    /// Sign/verify round trips for seeded random seeds and messages (0…300 bytes), and a
    /// signature never verifies under a different key.
    @Test func randomRoundTrips() throws {
        var rng = SplitMix64(seed: 0x5eed_e255)
        print("randomRoundTrips seed 0x5eede255")
        var previous: Ed25519.PublicKey?
        for i in 0..<64 {
            let seed = (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let msg = (0..<(i * 5)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let key = try Ed25519.PrivateKey(seed: seed)
            let sig = key.signature(for: msg)
            #expect(sig.count == 64)
            #expect(key.publicKey.isValidSignature(sig, for: msg))
            let decoded = try Ed25519.PublicKey(rawRepresentation: key.publicKey.rawRepresentation)
            #expect(decoded.isValidSignature(sig, for: msg))
            if let other = previous { #expect(!other.isValidSignature(sig, for: msg)) }
            previous = key.publicKey
        }
    }
}

import Foundation
import Primitives
import Testing

/// Rejection of modified signatures, messages, contexts and keys, malformed hint encodings,
/// wrong lengths and parameters; plus round trips of the public API.
struct MLDSA65NegativeTests {
    /// Signature layout (FIPS 204 Algorithm 26): c̃ (48) || z (5 × 640) || h (ω + k = 61).
    static let zStart = 48, hintStart = 48 + 5 * 640, omega = 55, k = 6

    struct Fixture: Sendable {
        let key: MLDSA65.PrivateKey
        let message: [UInt8]
        let context: [UInt8]
        let signature: [UInt8]
    }

    /// A fixed key and a deterministic signature whose hint has at least one 1 in some polynomial
    /// (so position corruption is meaningful); derived from a seeded stream.
    static let fixture: Fixture = {
        var rng = SplitMix64(seed: 0x5eed_d5a6)
        let seed = (0..<32).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let key = try! MLDSA65.PrivateKey(seed: seed)
        let context = Array("negative tests".utf8)
        var counter: UInt8 = 0
        while true {
            let message = Array("message \(counter)".utf8)
            let signature = try! key.deterministicSignature(for: message, context: context)
            // Need ≥ 2 hint ones in polynomial 0 for the ordering tests.
            if signature[hintStart + omega] >= 2 {
                return Fixture(key: key, message: message, context: context, signature: signature)
            }
            counter &+= 1
        }
    }()

    @Test func fixtureVerifies() {
        let f = Self.fixture
        #expect(f.signature.count == MLDSA65.signatureByteCount)
        #expect(f.key.publicKey.isValidSignature(f.signature, for: f.message, context: f.context))
    }

    struct BitFlip: CustomTestStringConvertible, Sendable {
        let byte: Int, bit: Int
        var region: String {
            byte < zStart ? "c~" : byte < hintStart ? "z" : byte < hintStart + omega ? "hint positions" : "hint counts"
        }
        var testDescription: String { "flip byte \(byte) bit \(bit) (\(region))" }
    }

    /// Every byte of c̃ and of the hint, and a seeded sample of 200 bytes of z, one bit each
    /// (bit chosen by the seeded stream; seed printed by `flippedSignatureBits`).
    static let flips: [BitFlip] = {
        var rng = SplitMix64(seed: 0x5eed_f11b)
        var out: [BitFlip] = []
        for byte in 0..<zStart { out.append(BitFlip(byte: byte, bit: Int(rng.next() % 8))) }
        for _ in 0..<200 {
            out.append(BitFlip(byte: zStart + Int(rng.next() % UInt64(hintStart - zStart)), bit: Int(rng.next() % 8)))
        }
        for byte in hintStart..<MLDSA65.signatureByteCount { out.append(BitFlip(byte: byte, bit: Int(rng.next() % 8))) }
        return out
    }()

    @Test func flipListCoversAllRegions() {
        #expect(Self.flips.count == 48 + 200 + 61)
        print("flippedSignatureBits positions from SplitMix64 seed 0x5eedf11b")
    }

    @Test(arguments: flips)
    func flippedSignatureBits(_ flip: BitFlip) {
        let f = Self.fixture
        var signature = f.signature
        signature[flip.byte] ^= UInt8(1 << flip.bit)
        #expect(!f.key.publicKey.isValidSignature(signature, for: f.message, context: f.context))
    }

    /// Targeted HintBitUnpack (FIPS 204 Algorithm 21) violations: each must be rejected, not trap.
    @Test func malformedHintEncodings() {
        let f = Self.fixture
        let pk = f.key.publicKey
        let base = f.signature
        let counts = (0..<Self.k).map { Int(base[Self.hintStart + Self.omega + $0]) }
        let total = counts[Self.k - 1]
        var cases: [(String, [UInt8])] = []

        // A count above ω.
        var s = base; s[Self.hintStart + Self.omega + Self.k - 1] = UInt8(Self.omega + 1); cases.append(("count > omega", s))
        // Counts decreasing.
        s = base; s[Self.hintStart + Self.omega] = UInt8(total + 1)
        if total + 1 <= Self.omega { cases.append(("first count above the next", s)) }
        // A non-zero byte in the unused tail of the position list.
        if total < Self.omega {
            s = base; s[Self.hintStart + Self.omega - 1] = 1; cases.append(("non-zero unused position", s))
        }
        // Positions within polynomial 0 not strictly increasing: duplicate, then swapped.
        s = base; s[Self.hintStart + 1] = s[Self.hintStart]; cases.append(("duplicate position", s))
        s = base; s.swapAt(Self.hintStart, Self.hintStart + 1); cases.append(("decreasing positions", s))
        // All counts 0xFF.
        s = base; for i in 0..<Self.k { s[Self.hintStart + Self.omega + i] = 0xFF }; cases.append(("counts 0xFF", s))
        // Moving one hint between polynomials keeps the encoding well formed but changes h.
        if counts[0] >= 1 {
            s = base; s[Self.hintStart + Self.omega] = UInt8(counts[0] - 1); cases.append(("hint moved to next polynomial", s))
        }
        #expect(cases.count >= 6)
        for (name, sig) in cases {
            #expect(!pk.isValidSignature(sig, for: f.message, context: f.context), "\(name)")
        }
    }

    /// ||z||∞ ≥ γ1 - β must be rejected: set z[0] to the encoding of γ1 - β (packed value β).
    @Test func zAtNormBoundRejected() {
        let f = Self.fixture
        var s = f.signature
        // z[0] occupies the low 20 bits of bytes 48..<51 (packed as γ1 - z).
        let packed = UInt32(196)  // γ1 - (γ1 - β)
        s[48] = UInt8(packed & 0xFF); s[49] = UInt8((packed >> 8) & 0xFF)
        s[50] = (s[50] & 0xF0) | UInt8((packed >> 16) & 0x0F)
        #expect(!f.key.publicKey.isValidSignature(s, for: f.message, context: f.context))
    }

    @Test func modifiedMessageContextAndKeyRejected() throws {
        let f = Self.fixture
        let pk = f.key.publicKey
        for i in [0, f.message.count / 2, f.message.count - 1] {
            var m = f.message; m[i] ^= 0x01
            #expect(!pk.isValidSignature(f.signature, for: m, context: f.context), "message byte \(i)")
        }
        #expect(!pk.isValidSignature(f.signature, for: f.message + [0], context: f.context))
        #expect(!pk.isValidSignature(f.signature, for: f.message.dropLast(), context: f.context))
        var ctx = f.context; ctx[0] ^= 0x80
        #expect(!pk.isValidSignature(f.signature, for: f.message, context: ctx))
        #expect(!pk.isValidSignature(f.signature, for: f.message))  // empty context
        #expect(!pk.isValidSignature(f.signature, for: f.message, context: f.context + [0]))
        // Public key: bits in ρ and in t1 of several polynomials.
        var rng = SplitMix64(seed: 0x5eed_0b1c)
        for byte in [0, 17, 31, 32, 100, 32 + 320 * 3 + 5, MLDSA65.publicKeyByteCount - 1] {
            var raw = pk.rawRepresentation
            raw[byte] ^= UInt8(1 << (rng.next() % 8))
            let other = try MLDSA65.PublicKey(rawRepresentation: raw)
            #expect(!other.isValidSignature(f.signature, for: f.message, context: f.context), "pk byte \(byte)")
        }
        // Another key's public key.
        let otherKey = try MLDSA65.PrivateKey(seed: [UInt8](repeating: 7, count: 32))
        #expect(!otherKey.publicKey.isValidSignature(f.signature, for: f.message, context: f.context))
    }

    @Test func wrongLengthsAndParameters() throws {
        let f = Self.fixture
        let pk = f.key.publicKey
        #expect(!pk.isValidSignature(f.signature.dropLast(), for: f.message, context: f.context))
        #expect(!pk.isValidSignature(f.signature + [0], for: f.message, context: f.context))
        #expect(!pk.isValidSignature([UInt8](), for: f.message, context: f.context))
        #expect(!pk.isValidSignatureInternal(f.signature, mu: [UInt8](repeating: 0, count: 63)))
        let longContext = [UInt8](repeating: 1, count: 256)
        #expect(!pk.isValidSignature(f.signature, for: f.message, context: longContext))
        #expect(throws: CryptoError(.invalidParameter, "")) { try f.key.signature(for: f.message, context: longContext) }
        #expect(throws: CryptoError(.invalidParameter, "")) { try f.key.deterministicSignature(for: f.message, context: longContext) }
        #expect(throws: CryptoError(.invalidLength, "")) { try MLDSA65.PrivateKey(seed: [UInt8](repeating: 0, count: 31)) }
        #expect(throws: CryptoError(.invalidLength, "")) { try MLDSA65.PrivateKey(seed: [UInt8](repeating: 0, count: 33)) }
        #expect(throws: CryptoError(.invalidLength, "")) { try MLDSA65.PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 1951)) }
        #expect(throws: CryptoError(.invalidLength, "")) { try MLDSA65.PublicKey(rawRepresentation: [UInt8](repeating: 0, count: 1953)) }
        #expect(throws: CryptoError(.invalidLength, "")) {
            try f.key.signature(for: f.message, context: [], randomness: [UInt8](repeating: 0, count: 31))
        }
        // A 255-byte context is the maximum and works.
        let maxContext = [UInt8](repeating: 2, count: 255)
        let signature = try f.key.signature(for: f.message, context: maxContext)
        #expect(pk.isValidSignature(signature, for: f.message, context: maxContext))
    }

    /// Corrupted expanded private keys: wrong length, s1 coefficient out of [-η, η], and t0 / tr
    /// not matching ρ, s1, s2.
    @Test func malformedExpandedPrivateKey() throws {
        let sk = Self.fixture.key.encoded
        #expect(throws: CryptoError(.invalidLength, "")) { try MLDSA65.PrivateKey(expandedRepresentation: sk.dropLast()) }
        var bad = sk; bad[128] = 0xFF   // s1[0] = η - 15
        #expect(throws: CryptoError(.invalidEncoding, "")) { try MLDSA65.PrivateKey(expandedRepresentation: bad) }
        bad = sk; bad[64] ^= 1          // tr
        #expect(throws: CryptoError(.invalidEncoding, "")) { try MLDSA65.PrivateKey(expandedRepresentation: bad) }
        bad = sk; bad[sk.count - 1] ^= 1  // t0
        #expect(throws: CryptoError(.invalidEncoding, "")) { try MLDSA65.PrivateKey(expandedRepresentation: bad) }
        let decoded = try MLDSA65.PrivateKey(expandedRepresentation: sk)
        #expect(decoded.seedRepresentation.isEmpty)
        #expect(try decoded.deterministicSignature(for: [1, 2, 3] as [UInt8]) ==
                Self.fixture.key.deterministicSignature(for: [1, 2, 3] as [UInt8]))
    }

    @Test func roundTripsAndHedging() throws {
        let f = Self.fixture
        let pk = try MLDSA65.PublicKey(rawRepresentation: f.key.publicKey.rawRepresentation)
        #expect(pk == f.key.publicKey)
        #expect(Set([pk, f.key.publicKey]).count == 1)
        let again = try MLDSA65.PrivateKey(seed: f.key.seedRepresentation)
        #expect(again.publicKey == f.key.publicKey)
        // Hedged signatures differ from each other and from the deterministic one, and all verify.
        let a = try f.key.signature(for: f.message, context: f.context)
        let b = try f.key.signature(for: f.message, context: f.context)
        #expect(a != b && a != f.signature)
        #expect(pk.isValidSignature(a, for: f.message, context: f.context))
        #expect(pk.isValidSignature(b, for: f.message, context: f.context))
        // Non-contiguous collections are accepted for message and signature.
        let lazyMessage = f.message.lazy.map { $0 }
        #expect(pk.isValidSignature(f.signature.lazy.map { $0 }, for: lazyMessage, context: f.context))
        #expect(try f.key.deterministicSignature(for: lazyMessage, context: f.context) == f.signature)
        // A random key works end to end.
        let random = MLDSA65.PrivateKey()
        let s = try random.signature(for: f.message)
        #expect(random.publicKey.isValidSignature(s, for: f.message))
    }
}

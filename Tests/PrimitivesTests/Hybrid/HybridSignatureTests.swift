import Primitives
import Testing

/// The hybrid layout and the distinct failure for each kind of tampering.
struct HybridSignatureTests {
    static func key(_ n: UInt8) throws -> HybridSignature.PrivateKey {
        try HybridSignature.PrivateKey(ed25519Seed: [UInt8](repeating: n, count: 32), mldsaSeed: [UInt8](repeating: n &+ 1, count: 32))
    }

    @Test func layoutIsEd25519ThenDeterministicMLDSA() throws {
        let k = try Self.key(7)
        let msg = Array("device list v3".utf8)
        let sig = k.signature(for: msg)
        #expect(sig.count == 3_373)
        #expect(Array(sig[0..<64]) == k.ed25519.signature(for: msg))
        #expect(Array(sig[64...]) == (try k.mldsa.deterministicSignature(for: msg, context: [])))
        #expect(throws: Never.self) { try k.publicKey.verify(sig, for: msg) }
        // Deterministic: signing twice gives the same bytes.
        #expect(k.signature(for: msg) == sig)
    }

    @Test func eachTamperingHasItsOwnFailure() throws {
        let k = try Self.key(9)
        let msg = Array("payload".utf8)
        let sig = k.signature(for: msg)
        var ed = sig; ed[10] ^= 0x01
        var pq = sig; pq[64 + 100] ^= 0x80
        var both = ed; both[64 + 100] ^= 0x80
        #expect(throws: HybridSignature.Failure.ed25519Invalid) { try k.publicKey.verify(ed, for: msg) }
        #expect(throws: HybridSignature.Failure.mldsaInvalid) { try k.publicKey.verify(pq, for: msg) }
        #expect(throws: HybridSignature.Failure.bothInvalid) { try k.publicKey.verify(both, for: msg) }
        #expect(throws: HybridSignature.Failure.wrongLength) { try k.publicKey.verify(sig.dropLast(), for: msg) }
        #expect(throws: HybridSignature.Failure.wrongLength) { try k.publicKey.verify(sig + [0], for: msg) }
        #expect(throws: HybridSignature.Failure.bothInvalid) { try k.publicKey.verify(sig, for: msg + [0]) }
        // A key pair whose halves come from different keys fails on the half that differs.
        let other = try Self.key(11)
        let mixed = HybridSignature.PublicKey(ed25519: other.ed25519.publicKey, mldsa: k.mldsa.publicKey)
        #expect(throws: HybridSignature.Failure.ed25519Invalid) { try mixed.verify(sig, for: msg) }
    }

    /// Every bit of the Ed25519 half and a seeded sample across the ML-DSA half.
    @Test func flippedBitsAreRejectedByTheRightHalf() throws {
        let k = try Self.key(3)
        let msg = Array("flip".utf8)
        let sig = k.signature(for: msg)
        for bit in 0..<(64 * 8) {
            var s = sig; s[bit / 8] ^= UInt8(1 << (bit % 8))
            #expect(throws: HybridSignature.Failure.ed25519Invalid) { try k.publicKey.verify(s, for: msg) }
        }
        var g = SplitMix64(seed: 0x4b1d)
        print("flippedBitsAreRejectedByTheRightHalf seed 0x4b1d")
        for _ in 0..<64 {
            let bit = 64 * 8 + Int(g.next() % UInt64(3_309 * 8))
            var s = sig; s[bit / 8] ^= UInt8(1 << (bit % 8))
            #expect(throws: HybridSignature.Failure.mldsaInvalid) { try k.publicKey.verify(s, for: msg) }
        }
    }
}

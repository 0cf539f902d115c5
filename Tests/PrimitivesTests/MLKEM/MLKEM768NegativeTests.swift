import Foundation
import Primitives
import Testing

/// What the known-answer files do not pin: implicit rejection of tampered ciphertexts at every
/// part of c, typed errors for every wrong length, the §7.2 modulus check at its boundary, the
/// §7.3 hash check, and the field helpers checked exhaustively against exact rational rounding.
struct MLKEM768NegativeTests {
    static let q: UInt32 = 3329

    /// A fixed key from a SHAKE128 stream (seed: "mlkem-negative"), so failures reproduce.
    static func key() throws -> MLKEM768.PrivateKey {
        try MLKEM768.PrivateKey(seed: SHAKE128.hash(Array("mlkem-negative".utf8), outputByteCount: 64))
    }

    /// Byte offsets to flip: the first byte, inside c1 (u), the c1/c2 boundary, inside c2 (v), the last.
    @Test(arguments: [0, 1, 500, 959, 960, 1000, 1087])
    func tamperedCiphertextGivesTheImplicitRejectionKey(_ offset: Int) throws {
        let key = try Self.key()
        let result = try key.publicKey.encapsulate(randomness: [UInt8](repeating: 7, count: 32))
        #expect(try key.decapsulate(result.ciphertext) == result.sharedSecret)
        var tampered = result.ciphertext
        tampered[offset] ^= 0x01
        let k = try key.decapsulate(tampered)  // no error: implicit rejection
        #expect(k != result.sharedSecret)
        let z = Array(key.expandedRepresentation[2368..<2400])
        #expect(k == SHAKE256.hash(z + tampered, outputByteCount: 32))
    }

    @Test func wrongLengthsThrowInvalidLength() throws {
        let key = try Self.key()
        let pk = key.publicKey.rawRepresentation
        let dk = key.expandedRepresentation
        let ct = try key.publicKey.encapsulate(randomness: [UInt8](repeating: 1, count: 32)).ciphertext
        let invalidLength = CryptoError(.invalidLength, "")
        for n in [0, 32, 63, 65] {
            #expect(throws: invalidLength) { try MLKEM768.PrivateKey(seed: [UInt8](repeating: 0, count: n)) }
        }
        for delta in [-1, 1] {
            #expect(throws: invalidLength) { try MLKEM768.PublicKey(rawRepresentation: Array(pk.prefix(pk.count + delta)) + (delta > 0 ? [0] : [])) }
            #expect(throws: invalidLength) { try MLKEM768.PrivateKey(expandedRepresentation: Array(dk.prefix(dk.count + delta)) + (delta > 0 ? [0] : [])) }
            #expect(throws: invalidLength) { try key.decapsulate(Array(ct.prefix(ct.count + delta)) + (delta > 0 ? [0] : [])) }
            #expect(throws: invalidLength) { try key.publicKey.encapsulate(randomness: [UInt8](repeating: 1, count: 32 + delta)) }
        }
        #expect(throws: invalidLength) { try key.decapsulate([UInt8]()) }
    }

    /// Sets the 12-bit field `index` of ek's t̂ encoding to `value`.
    static func withField(_ ek: [UInt8], _ index: Int, _ value: UInt16) -> [UInt8] {
        var out = ek
        let byte = index / 2 * 3
        if index % 2 == 0 {
            out[byte] = UInt8(value & 0xff)
            out[byte + 1] = (out[byte + 1] & 0xf0) | UInt8(value >> 8)
        } else {
            out[byte + 1] = (out[byte + 1] & 0x0f) | UInt8((value & 0x0f) << 4)
            out[byte + 2] = UInt8(value >> 4)
        }
        return out
    }

    /// §7.2: a field equal to q - 1 passes; q, q + 1 and 4095 fail, in any of the k polynomials.
    @Test(arguments: [0, 1, 255, 256, 511, 767])
    func modulusCheckBoundary(_ index: Int) throws {
        let ek = try Self.key().publicKey.rawRepresentation
        let edge = Self.withField(ek, index, UInt16(Self.q - 1))
        #expect(try MLKEM768.PublicKey(rawRepresentation: edge).rawRepresentation == edge)
        for bad in [Self.q, Self.q + 1, 4095] {
            #expect(throws: CryptoError(.invalidEncoding, "")) {
                try MLKEM768.PublicKey(rawRepresentation: Self.withField(ek, index, UInt16(bad)))
            }
        }
    }

    /// §7.3: changing H(ek) or the ek inside dk fails the hash check; changing z does not (it only
    /// changes the implicit-rejection key).
    @Test func hashCheckOnTheDecapsulationKey() throws {
        let key = try Self.key()
        let dk = key.expandedRepresentation
        for offset in [1152, 2335, 2336, 2367] {  // ek's first and last byte, H(ek)'s first and last
            var bad = dk
            bad[offset] ^= 0x80
            #expect(throws: CryptoError(.invalidEncoding, "")) { try MLKEM768.PrivateKey(expandedRepresentation: bad) }
        }
        var otherZ = dk
        otherZ[2399] ^= 1
        let other = try MLKEM768.PrivateKey(expandedRepresentation: otherZ)
        let garbage = SHAKE128.hash([1], outputByteCount: MLKEM768.ciphertextByteCount)
        #expect(try other.decapsulate(garbage) != key.decapsulate(garbage))
        let good = try key.publicKey.encapsulate(randomness: [UInt8](repeating: 3, count: 32))
        #expect(try other.decapsulate(good.ciphertext) == good.sharedSecret)
    }

    /// Keys from a fixed SHAKE128 stream: encapsulate/decapsulate agree, keys round-trip.
    @Test func roundTrips() throws {
        var stream = SHAKE128()
        stream.update(Array("mlkem-roundtrip".utf8))
        for _ in 0..<8 {
            let key = try MLKEM768.PrivateKey(seed: stream.squeeze(64))
            let result = key.publicKey.encapsulate()
            #expect(result.ciphertext.count == MLKEM768.ciphertextByteCount)
            #expect(try key.decapsulate(result.ciphertext) == result.sharedSecret)
            #expect(try MLKEM768.PrivateKey(seed: key.seedRepresentation).expandedRepresentation == key.expandedRepresentation)
            #expect(try MLKEM768.PublicKey(rawRepresentation: key.publicKey.rawRepresentation) == key.publicKey)
        }
        let fresh = MLKEM768.PrivateKey()
        #expect(fresh.seedRepresentation.count == 64)
        #expect(fresh.expandedRepresentation.count == MLKEM768.expandedPrivateKeyByteCount)
    }

    /// Compress_d (FIPS 203 (4.7)) for every x in [0, q): ⌈2^d·x/q⌋ mod 2^d, computed here as
    /// ⌊(2^(d+1)·x + q) / 2q⌋; Decompress_d ((4.8)) for every y < 2^d: ⌊(2q·y + 2^d) / 2^(d+1)⌋.
    @Test(arguments: [1, 4, 5, 10, 11])
    func compressAndDecompressMatchExactRounding(_ d: Int) {
        var wrong = 0
        for x in 0..<Self.q {
            let exact = ((UInt64(x) << (d + 1)) + UInt64(Self.q)) / (2 * UInt64(Self.q)) % (1 << UInt64(d))
            if MLKEM768.compressForTesting(x, bits: d) != UInt32(exact) { wrong += 1 }
        }
        for y in 0..<(UInt32(1) << d) {
            let exact = (2 * UInt64(Self.q) * UInt64(y) + (1 << UInt64(d))) / (1 << UInt64(d + 1))
            if MLKEM768.decompressForTesting(y, bits: d) != UInt32(exact) { wrong += 1 }
        }
        #expect(wrong == 0)
    }

    /// Barrett reduction of 32-bit values: every value below 2^24 (every product of two reduced
    /// values), the top of the range, and a stride through the rest.
    @Test func reductionMatchesRemainder() {
        var wrong = 0
        var probes: [UInt32] = Array(0..<(1 << 24))
        probes += (0..<65_536).map { UInt32.max - $0 }
        probes += stride(from: UInt32(1 << 24), to: UInt32.max - 65_536, by: 65_521).map { $0 }
        for x in probes where MLKEM768.reduceForTesting(x) != x % Self.q { wrong += 1 }
        #expect(wrong == 0)
    }
}

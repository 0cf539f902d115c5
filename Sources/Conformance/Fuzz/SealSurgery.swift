import Primitives
import Vectors

/// Re-sealing a DiscoveryBox or sealed-sender envelope the reference sealed (SPEC §14.3, §14.7),
/// as a sender that gets one thing wrong: the fuzzer holds the recipient's X-Wing seed, so it can
/// open the HPKE layer, change the header, the inner plaintext or the KEM ciphertext, and seal
/// again so that the AEAD still verifies and the receiver's later checks decide. Built on the
/// public primitives (X-Wing, the HPKE key schedule, AES-256-GCM), not on the reference's sealer.
/// Each call decapsulates once or twice: generators use it on a share of their invalid cases only.
enum SealSurgery {
    /// The parts of an opened box or envelope.
    struct Opened {
        /// The header (the AAD): kind (‖ wake) ‖ enc length.
        var header: [UInt8]
        var enc: [UInt8]
        var plaintext: [UInt8]
    }

    static var envelopeInfo: [UInt8] { Array(SealedSenderEnvelope.domain.utf8) }

    static func boxInfo(_ direction: String) -> [UInt8] { Array(DiscoveryBox.domain.utf8) + [0] + Array(direction.utf8) }

    /// The key and nonce a recipient with `seed` derives from `enc` (implicit rejection included).
    static func context(seed: [UInt8], enc: [UInt8], info: [UInt8]) -> (key: [UInt8], nonce: [UInt8])? {
        guard let ss = try? XWing.PrivateKey(seed: seed).decapsulate(enc) else { return nil }
        let ctx = HPKE.keySchedule(suiteID: HPKE.xwingAES256GCM, sharedSecret: ss, info: info)
        return (ctx.key, HPKE.nonce(ctx, sequence: 0))
    }

    /// Opens `sealed` whose header is `headerLength` bytes (3 for a box, 4 for an envelope).
    static func open(_ sealed: [UInt8], headerLength: Int, seed: [UInt8], info: [UInt8]) -> Opened? {
        let encEnd = headerLength + XWing.ciphertextByteCount
        guard sealed.count >= encEnd + AES256GCM.tagByteCount else { return nil }
        let header = Array(sealed[..<headerLength]), enc = Array(sealed[headerLength..<encEnd])
        guard let c = context(seed: seed, enc: enc, info: info) else { return nil }
        let split = sealed.count - AES256GCM.tagByteCount
        guard let plain = try? AES256GCM.open(ciphertext: Array(sealed[encEnd..<split]), tag: Array(sealed[split...]), key: c.key, nonce: c.nonce,
                                              authenticating: header) else { return nil }
        return Opened(header: header, enc: enc, plaintext: plain)
    }

    /// Seals `o` again under the key its `enc` gives the holder of `seed`.
    static func seal(_ o: Opened, seed: [UInt8], info: [UInt8]) -> [UInt8]? {
        guard let c = context(seed: seed, enc: o.enc, info: info),
              let s = try? AES256GCM.seal(o.plaintext, key: c.key, nonce: c.nonce, authenticating: o.header) else { return nil }
        return o.header + o.enc + s.ciphertext + s.tag
    }

    /// `sealed` opened, changed by `change`, and sealed again; nil when it does not open.
    static func reseal(_ sealed: [UInt8], headerLength: Int, seed: [UInt8], info: [UInt8], _ change: (inout Opened) -> Void) -> [UInt8]? {
        guard var o = open(sealed, headerLength: headerLength, seed: seed, info: info) else { return nil }
        change(&o)
        return seal(o, seed: seed, info: info)
    }

    /// The u-coordinates of small order on Curve25519 (0, 1, the two points of order 8, p − 1, p,
    /// p + 1), little-endian: X25519 with any clamped scalar gives the all-zero output.
    static let lowOrderX25519: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        Hex.decode("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800")!,
        Hex.decode("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157")!,
        [0xec] + [UInt8](repeating: 0xff, count: 30) + [0x7f],
        [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f],
        [0xee] + [UInt8](repeating: 0xff, count: 30) + [0x7f],
    ]

    /// The X25519 half of `enc` replaced by a point of small order: the recipient's X25519 output
    /// is all zero and X-Wing uses it as it is, so a conforming receiver opens the box. Targets
    /// X25519 APIs that refuse an all-zero output (RFC 7748 §6.1 lets them; SPEC §14.2: X-Wing
    /// does not check).
    static func lowOrderX25519Ciphertext(_ o: inout Opened, _ rng: inout FuzzRNG) {
        o.enc = Array(o.enc.prefix(MLKEM768.ciphertextByteCount)) + rng.pick(lowOrderX25519)
    }

    /// An ML-KEM ciphertext the recipient's decapsulation rejects (random bytes fail the
    /// re-encryption check), with the X25519 half kept: the recipient's shared secret is then the
    /// implicit-rejection value K̄ = J(z ‖ c), and the payload is sealed under it, so a conforming
    /// receiver opens the box. Targets ML-KEM libraries that raise an error on rejection instead of
    /// returning K̄ (FIPS 203 §6.3, SPEC §14.2: decapsulation never fails on content).
    static func rejectedKEMCiphertext(_ o: inout Opened, _ rng: inout FuzzRNG) {
        let mlkem = MLKEM768.ciphertextByteCount
        o.enc = rng.bytes(mlkem) + Array(o.enc[mlkem...])
    }
}

/// The AES-256 block cipher, encryption direction only (FIPS 197): the key schedule of §5.2
/// with Nk = 8, Nr = 14, and the cipher of §5.1 in its 32-bit "T-table" form (FIPS 197 §5.2 note
/// and the Daemen–Rijmen reference `rijndael-alg-fst`), where SubBytes, ShiftRows and MixColumns of
/// one round collapse into four table look-ups per output word.
///
/// Why encryption only: GCM (NIST SP 800-38D) uses the forward cipher for the counter keystream,
/// for the hash subkey H = E(K, 0¹²⁸) and for the tag mask, in both directions.
///
/// SECURITY NOTE — table look-ups indexed by secret data: the T-tables and S-box are read at
/// addresses that depend on key and state bytes, which leaks through cache timing to an attacker
/// sharing the machine. That is acceptable for this suite, which *generates and checks test
/// vectors* rather than protecting live keys; do not reuse this type to protect real secrets on
/// shared hardware (use a bitsliced or AES-NI implementation there).
package struct AES256: Sendable {
    package static let keyByteCount = 32
    package static let blockByteCount = 16
    /// Nr for a 256-bit key (FIPS 197 §5, Table 4).
    package static let rounds = 14

    /// The expanded key w[0..<60] (FIPS 197 §5.2), one word per column, big-endian byte order.
    /// One allocation per key, never per block.
    let roundKeys: [UInt32]

    /// Expands a 32-byte key. Throws `.invalidLength` for any other size.
    package init(key: [UInt8]) throws {
        guard key.count == AES256.keyByteCount else {
            throw CryptoError(.invalidLength, "AES-256 key must be 32 bytes, got \(key.count)")
        }
        roundKeys = AES256.expand(key)
    }

    /// KeyExpansion (FIPS 197 §5.2, Figure 11) for Nk = 8: every 8th word is
    /// SubWord(RotWord(w[i-1])) ⊕ Rcon[i/8], and the word half-way through each group of 8 gets
    /// SubWord alone (the extra step that only 256-bit keys have).
    private static func expand(_ key: [UInt8]) -> [UInt32] {
        let sbox = AES256.tables
        func subWord(_ w: UInt32) -> UInt32 {
            (sbox[sBoxOffset + Int(w >> 24)] << 24) | (sbox[sBoxOffset + Int((w >> 16) & 0xff)] << 16)
                | (sbox[sBoxOffset + Int((w >> 8) & 0xff)] << 8) | sbox[sBoxOffset + Int(w & 0xff)]
        }
        var w = [UInt32](repeating: 0, count: 4 * (rounds + 1))
        for i in 0..<8 {
            w[i] = UInt32(key[4 * i]) << 24 | UInt32(key[4 * i + 1]) << 16 | UInt32(key[4 * i + 2]) << 8 | UInt32(key[4 * i + 3])
        }
        var rcon: UInt32 = 0x01
        for i in 8..<w.count {
            var temp = w[i - 1]
            if i % 8 == 0 {
                temp = subWord((temp << 8) | (temp >> 24)) ^ (rcon << 24)
                rcon = xtime(rcon)
            } else if i % 8 == 4 {
                temp = subWord(temp)
            }
            w[i] = w[i - 8] ^ temp
        }
        return w
    }

    /// Multiplication by x in GF(2⁸) modulo x⁸ + x⁴ + x³ + x + 1 (FIPS 197 §4.2.1), on the low byte.
    @inline(__always) private static func xtime(_ b: UInt32) -> UInt32 {
        ((b << 1) ^ ((b >> 7) & 1) * 0x1b) & 0xff
    }

    /// Offsets of the five tables inside `tables`.
    static let sBoxOffset = 1024

    /// Te0…Te3 (1024 words) followed by the S-box widened to words (256 words).
    ///
    /// The S-box is computed rather than typed in, from its definition (FIPS 197 §5.1.1):
    /// the multiplicative inverse in GF(2⁸) followed by the affine map with constant 0x63. The
    /// inverse is walked with the generator 3: p runs over 3ⁱ and q over 3⁻ⁱ, so q = p⁻¹ at every
    /// step. Te0[x] = (2·S[x], S[x], S[x], 3·S[x]) is one MixColumns column; Te1…Te3 are its
    /// byte rotations. Built once (Swift's lazy static initialisation is thread-safe), immutable.
    static let tables: [UInt32] = {
        var sbox = [UInt8](repeating: 0, count: 256)
        var p: UInt8 = 1, q: UInt8 = 1
        repeat {
            p = p ^ (p << 1) ^ ((p & 0x80) != 0 ? 0x1b : 0)          // p · 3
            q ^= q << 1; q ^= q << 2; q ^= q << 4                       // q / 3
            if q & 0x80 != 0 { q ^= 0x09 }
            let rot = { (v: UInt8, n: UInt8) -> UInt8 in (v << n) | (v >> (8 - n)) }
            sbox[Int(p)] = q ^ rot(q, 1) ^ rot(q, 2) ^ rot(q, 3) ^ rot(q, 4) ^ 0x63
        } while p != 1
        sbox[0] = 0x63  // 0 has no inverse; FIPS 197 maps it to 0 before the affine step
        var t = [UInt32](repeating: 0, count: 1280)
        for x in 0..<256 {
            let s = UInt32(sbox[x])
            let s2 = xtime(s), s3 = s2 ^ s
            let te0 = s2 << 24 | s << 16 | s << 8 | s3
            t[x] = te0
            t[256 + x] = (te0 >> 8) | (te0 << 24)
            t[512 + x] = (te0 >> 16) | (te0 << 16)
            t[768 + x] = (te0 >> 24) | (te0 << 8)
            t[sBoxOffset + x] = s
        }
        return t
    }()

    /// Encrypts one 16-byte block (convenience for tests and one-off uses; allocates the result).
    /// Throws `.invalidLength` unless `block` has 16 bytes.
    package func encrypt(block: [UInt8]) throws -> [UInt8] {
        guard block.count == AES256.blockByteCount else {
            throw CryptoError(.invalidLength, "AES block must be 16 bytes, got \(block.count)")
        }
        return withEncryptor { e in
            block.withUnsafeBytes { src in
                let o = e.encrypt(Block(loading: src.baseAddress!))
                return [UInt8](unsafeUninitializedCapacity: 16) { buf, n in
                    o.store(to: UnsafeMutableRawPointer(buf.baseAddress!))
                    n = 16
                }
            }
        }
    }

    /// Runs `body` with an encryptor that reads the round keys and tables through raw pointers,
    /// so the per-block path has no bounds checks, no retain/release and no lazy-init checks.
    /// The encryptor must not escape `body`.
    package func withEncryptor<R>(_ body: (Encryptor) throws -> R) rethrows -> R {
        try roundKeys.withUnsafeBufferPointer { rk in
            try AES256.tables.withUnsafeBufferPointer { t in
                try body(Encryptor(rk: rk.baseAddress!, t: t.baseAddress!))
            }
        }
    }

    /// One AES state as four big-endian column words (FIPS 197 §3.4, column-major).
    package struct Block: Sendable {
        package var w0: UInt32, w1: UInt32, w2: UInt32, w3: UInt32

        @inline(__always)
        package init(_ w0: UInt32, _ w1: UInt32, _ w2: UInt32, _ w3: UInt32) {
            self.w0 = w0; self.w1 = w1; self.w2 = w2; self.w3 = w3
        }

        /// Reads 16 bytes at `p` (any alignment).
        @inline(__always)
        package init(loading p: UnsafeRawPointer) {
            w0 = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            w1 = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
            w2 = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
            w3 = UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        }

        /// Writes the 16 bytes at `p` (any alignment).
        @inline(__always)
        package func store(to p: UnsafeMutableRawPointer) {
            p.storeBytes(of: w0.bigEndian, toByteOffset: 0, as: UInt32.self)
            p.storeBytes(of: w1.bigEndian, toByteOffset: 4, as: UInt32.self)
            p.storeBytes(of: w2.bigEndian, toByteOffset: 8, as: UInt32.self)
            p.storeBytes(of: w3.bigEndian, toByteOffset: 12, as: UInt32.self)
        }

        /// The high and low 64 bits, as GHASH reads a block (NIST SP 800-38D §6.3).
        var high: UInt64 { UInt64(w0) << 32 | UInt64(w1) }
        var low: UInt64 { UInt64(w2) << 32 | UInt64(w3) }
    }

    /// The forward cipher bound to one key schedule; valid only inside `withEncryptor`.
    package struct Encryptor {
        let rk: UnsafePointer<UInt32>
        let t: UnsafePointer<UInt32>

        init(rk: UnsafePointer<UInt32>, t: UnsafePointer<UInt32>) {
            self.rk = rk; self.t = t
        }

        /// Cipher(in, w) (FIPS 197 §5.1, Figure 5): AddRoundKey, 13 full rounds as T-table
        /// look-ups, and a final round without MixColumns done with the plain S-box.
        @inline(__always)
        package func encrypt(_ b: Block) -> Block {
            var s0 = b.w0 ^ rk[0], s1 = b.w1 ^ rk[1], s2 = b.w2 ^ rk[2], s3 = b.w3 ^ rk[3]
            var k = 4
            for _ in 1..<AES256.rounds {
                let t0 = t[Int(s0 >> 24)] ^ t[256 + Int((s1 >> 16) & 0xff)]
                    ^ t[512 + Int((s2 >> 8) & 0xff)] ^ t[768 + Int(s3 & 0xff)] ^ rk[k]
                let t1 = t[Int(s1 >> 24)] ^ t[256 + Int((s2 >> 16) & 0xff)]
                    ^ t[512 + Int((s3 >> 8) & 0xff)] ^ t[768 + Int(s0 & 0xff)] ^ rk[k + 1]
                let t2 = t[Int(s2 >> 24)] ^ t[256 + Int((s3 >> 16) & 0xff)]
                    ^ t[512 + Int((s0 >> 8) & 0xff)] ^ t[768 + Int(s1 & 0xff)] ^ rk[k + 2]
                let t3 = t[Int(s3 >> 24)] ^ t[256 + Int((s0 >> 16) & 0xff)]
                    ^ t[512 + Int((s1 >> 8) & 0xff)] ^ t[768 + Int(s2 & 0xff)] ^ rk[k + 3]
                s0 = t0; s1 = t1; s2 = t2; s3 = t3
                k += 4
            }
            let s = t + AES256.sBoxOffset
            return Block(
                (s[Int(s0 >> 24)] << 24 | s[Int((s1 >> 16) & 0xff)] << 16 | s[Int((s2 >> 8) & 0xff)] << 8 | s[Int(s3 & 0xff)]) ^ rk[k],
                (s[Int(s1 >> 24)] << 24 | s[Int((s2 >> 16) & 0xff)] << 16 | s[Int((s3 >> 8) & 0xff)] << 8 | s[Int(s0 & 0xff)]) ^ rk[k + 1],
                (s[Int(s2 >> 24)] << 24 | s[Int((s3 >> 16) & 0xff)] << 16 | s[Int((s0 >> 8) & 0xff)] << 8 | s[Int(s1 & 0xff)]) ^ rk[k + 2],
                (s[Int(s3 >> 24)] << 24 | s[Int((s0 >> 16) & 0xff)] << 16 | s[Int((s1 >> 8) & 0xff)] << 8 | s[Int(s2 & 0xff)]) ^ rk[k + 3])
        }
    }
}

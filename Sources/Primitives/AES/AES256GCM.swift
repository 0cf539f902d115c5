/// AES-256 in Galois/Counter Mode (NIST SP 800-38D), the suite's AEAD.
///
/// Public entry points fix the parameters the protocol uses — 32-byte key, 96-bit nonce, full
/// 128-bit tag — and reject anything else with `.invalidLength`. The `package` entry points take
/// any IV of at least one byte (J0 derived through GHASH, SP 800-38D §7.1 step 2) and tags of
/// 4…16 bytes, so the NIST CAVP files can be run in full.
///
/// Open computes the tag over the ciphertext first and only decrypts after a constant-time
/// comparison of the tag succeeded (SP 800-38D §7.2, steps 6–8): on failure no plaintext is
/// produced at all, not even into a buffer that is later discarded.
///
/// The AES core uses table look-ups indexed by secret data; see the security note on `AES256`.
public enum AES256GCM {
    public static let keyByteCount = 32
    public static let nonceByteCount = 12
    public static let tagByteCount = 16

    /// len(P) ≤ 2³⁹ − 256 bits (SP 800-38D §5.2.1.1), i.e. 2³⁶ − 32 bytes: past that the 32-bit
    /// counter would wrap into reused keystream.
    static let maximumTextByteCount = (1 << 36) - 32
    /// len(A) and len(IV) ≤ 2⁶⁴ − 1 bits (§5.2.1.1); bounded here so the bit counts fit in 64 bits.
    static let maximumAADByteCount = (1 << 61) - 1

    // MARK: Public API (the protocol's parameters)

    /// Encrypts and authenticates. Returns the ciphertext (same length as the plaintext) and the
    /// 16-byte tag. Throws `.invalidLength` for a key other than 32 bytes or a nonce other than 12.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], authenticating aad: [UInt8] = [])
        throws -> (ciphertext: [UInt8], tag: [UInt8])
    {
        guard nonce.count == nonceByteCount else {
            throw CryptoError(.invalidLength, "AES-256-GCM nonce must be 12 bytes, got \(nonce.count)")
        }
        return try seal(plaintext, key: key, iv: nonce, aad: aad, tagByteCount: tagByteCount)
    }

    /// Verifies the 16-byte tag, then decrypts. Throws `.authenticationFailure` (releasing
    /// nothing) when the tag does not match, `.invalidLength` for a wrong key, nonce or tag size.
    public static func open(ciphertext: [UInt8], tag: [UInt8], key: [UInt8], nonce: [UInt8], authenticating aad: [UInt8] = [])
        throws -> [UInt8]
    {
        guard nonce.count == nonceByteCount else {
            throw CryptoError(.invalidLength, "AES-256-GCM nonce must be 12 bytes, got \(nonce.count)")
        }
        guard tag.count == tagByteCount else {
            throw CryptoError(.invalidLength, "AES-256-GCM tag must be 16 bytes, got \(tag.count)")
        }
        return try open(ciphertext: ciphertext, tag: tag, key: key, iv: nonce, aad: aad)
    }

    // MARK: Package API (the whole of SP 800-38D, for the CAVP files)

    /// GCM-AE_K(IV, P, A) (SP 800-38D §7.1, Algorithm 4) with any IV of ≥ 1 byte and a tag
    /// truncated to `tagByteCount` ∈ 4…16 bytes (MSB_t, §7.1 step 7; §5.2.1.2 lists the lengths).
    package static func seal(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], aad: [UInt8], tagByteCount: Int)
        throws -> (ciphertext: [UInt8], tag: [UInt8])
    {
        guard (4...16).contains(tagByteCount) else {
            throw CryptoError(.invalidLength, "GCM tag length must be 4...16 bytes, got \(tagByteCount)")
        }
        try checkLengths(textCount: plaintext.count, iv: iv, aad: aad)
        let aes = try AES256(key: key)
        return aes.withEncryptor { e in
            var state = Setup(e, iv: iv, aad: aad)
            let ciphertext = [UInt8](unsafeUninitializedCapacity: plaintext.count) { out, initialized in
                plaintext.withUnsafeBytes { input in
                    if let src = input.baseAddress, let dst = out.baseAddress {
                        ctr(e, counter: &state.counter, input: src, output: UnsafeMutableRawPointer(dst),
                            count: input.count, ghash: &state.ghash, hashCiphertext: true)
                    }
                }
                initialized = plaintext.count
            }
            let full = state.tag(textCount: plaintext.count)
            return (ciphertext, Array(full.prefix(tagByteCount)))
        }
    }

    /// GCM-AD_K(IV, C, A, T) (SP 800-38D §7.2, Algorithm 5) with any IV of ≥ 1 byte and a tag
    /// of 4…16 bytes, compared in full and in constant time before any decryption.
    package static func open(ciphertext: [UInt8], tag: [UInt8], key: [UInt8], iv: [UInt8], aad: [UInt8]) throws -> [UInt8] {
        guard (4...16).contains(tag.count) else {
            throw CryptoError(.invalidLength, "GCM tag length must be 4...16 bytes, got \(tag.count)")
        }
        try checkLengths(textCount: ciphertext.count, iv: iv, aad: aad)
        let aes = try AES256(key: key)
        return try aes.withEncryptor { e in
            var state = Setup(e, iv: iv, aad: aad)
            // §7.2 steps 5–8: S = GHASH(A ‖ 0^v ‖ C ‖ 0^u ‖ len(A) ‖ len(C)), T' = MSB_t(E(K, J0) ⊕ S).
            ciphertext.withUnsafeBytes { state.ghash.update($0) }
            let expected = state.tag(textCount: ciphertext.count)
            guard ConstantTime.equal(expected.prefix(tag.count), tag) else {
                throw CryptoError(.authenticationFailure, "AES-256-GCM tag mismatch")
            }
            // Only now: P = GCTR_K(inc32(J0), C) (§7.2 step 3, done last on purpose).
            var unused = state.ghash  // ctr's GHASH slot; not fed when hashCiphertext is false
            return [UInt8](unsafeUninitializedCapacity: ciphertext.count) { out, initialized in
                ciphertext.withUnsafeBytes { input in
                    if let src = input.baseAddress, let dst = out.baseAddress {
                        ctr(e, counter: &state.counter, input: src, output: UnsafeMutableRawPointer(dst),
                            count: input.count, ghash: &unused, hashCiphertext: false)
                    }
                }
                initialized = ciphertext.count
            }
        }
    }

    // MARK: Internals

    private static func checkLengths(textCount: Int, iv: [UInt8], aad: [UInt8]) throws {
        guard !iv.isEmpty else {
            throw CryptoError(.invalidLength, "GCM IV must be at least 1 byte")
        }
        guard iv.count <= maximumAADByteCount else {
            throw CryptoError(.invalidLength, "GCM IV longer than 2^64-1 bits")
        }
        guard textCount <= maximumTextByteCount else {
            throw CryptoError(.invalidParameter, "GCM text longer than 2^39-256 bits")
        }
        guard aad.count <= maximumAADByteCount else {
            throw CryptoError(.invalidParameter, "GCM AAD longer than 2^64-1 bits")
        }
    }

    /// GCTR_K(ICB, X) (SP 800-38D §6.5, Algorithm 3) from `counter` on, XOR-ing the keystream into
    /// `count` bytes; with `hashCiphertext` the output blocks are also fed to GHASH as they are
    /// made (sealing: one pass over the data). 16 bytes per step through 64-bit loads; the last
    /// partial block goes byte by byte through a stack tuple. No allocation.
    @inline(__always)
    private static func ctr(
        _ e: AES256.Encryptor, counter: inout AES256.Block,
        input: UnsafeRawPointer, output: UnsafeMutableRawPointer, count: Int,
        ghash: inout GHASH, hashCiphertext: Bool
    ) {
        var offset = 0
        while count - offset >= 16 {
            let k = e.encrypt(counter)
            counter.w3 &+= 1
            let c0 = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ k.high
            let c1 = UInt64(bigEndian: input.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) ^ k.low
            output.storeBytes(of: c0.bigEndian, toByteOffset: offset, as: UInt64.self)
            output.storeBytes(of: c1.bigEndian, toByteOffset: offset + 8, as: UInt64.self)
            if hashCiphertext { ghash.absorb(high: c0, low: c1) }
            offset += 16
        }
        let tail = count - offset
        if tail > 0 {
            let k = e.encrypt(counter)
            counter.w3 &+= 1
            var ks: (UInt64, UInt64) = (k.high.bigEndian, k.low.bigEndian)
            var last: (UInt64, UInt64) = (0, 0)
            withUnsafeMutableBytes(of: &last) { lb in
                withUnsafeBytes(of: &ks) { kb in
                    for i in 0..<tail {
                        let c = input.load(fromByteOffset: offset + i, as: UInt8.self) ^ kb[i]
                        output.storeBytes(of: c, toByteOffset: offset + i, as: UInt8.self)
                        lb[i] = c
                    }
                }
            }
            // The zero bytes after `tail` are GHASH's C ‖ 0^u padding.
            if hashCiphertext { ghash.absorb(high: UInt64(bigEndian: last.0), low: UInt64(bigEndian: last.1)) }
        }
    }

    /// What both directions compute before touching the text: H, J0, E(K, J0), and GHASH over A.
    private struct Setup {
        var ghash: GHASH
        /// inc32(J0), the first keystream counter block (§7.1 step 3).
        var counter: AES256.Block
        /// E(K, J0), the tag mask (§7.1 step 7).
        let tagMask: AES256.Block
        let aadCount: Int

        init(_ e: AES256.Encryptor, iv: [UInt8], aad: [UInt8]) {
            // §7.1 step 1: H = CIPH_K(0¹²⁸).
            let h = e.encrypt(AES256.Block(0, 0, 0, 0))
            let j0: AES256.Block
            if iv.count == 12 {
                // §7.1 step 2, len(IV) = 96: J0 = IV ‖ 0³¹ ‖ 1.
                j0 = iv.withUnsafeBytes { p in
                    AES256.Block(
                        UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 0, as: UInt32.self)),
                        UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 4, as: UInt32.self)),
                        UInt32(bigEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt32.self)),
                        1)
                }
            } else {
                // §7.1 step 2, otherwise: J0 = GHASH_H(IV ‖ 0^(s+64) ‖ [len(IV)]₆₄).
                var g = GHASH(hHigh: h.high, hLow: h.low)
                iv.withUnsafeBytes { g.update($0) }
                g.absorb(high: 0, low: UInt64(iv.count) &* 8)
                let v = g.value
                j0 = AES256.Block(UInt32(truncatingIfNeeded: v.high >> 32), UInt32(truncatingIfNeeded: v.high),
                                  UInt32(truncatingIfNeeded: v.low >> 32), UInt32(truncatingIfNeeded: v.low))
            }
            tagMask = e.encrypt(j0)
            counter = j0
            counter.w3 &+= 1  // inc32: only the last 32 bits count, modulo 2³² (§6.2)
            var g = GHASH(hHigh: h.high, hLow: h.low)
            aad.withUnsafeBytes { g.update($0) }
            ghash = g
            aadCount = aad.count
        }

        /// Finishes S with [len(A)]₆₄ ‖ [len(C)]₆₄ and returns E(K, J0) ⊕ S as 16 bytes.
        mutating func tag(textCount: Int) -> [UInt8] {
            ghash.absorb(high: UInt64(aadCount) &* 8, low: UInt64(textCount) &* 8)
            let s = ghash.value
            let hi = s.high ^ tagMask.high, lo = s.low ^ tagMask.low
            return [UInt8](unsafeUninitializedCapacity: 16) { buf, n in
                let p = UnsafeMutableRawPointer(buf.baseAddress!)
                p.storeBytes(of: hi.bigEndian, toByteOffset: 0, as: UInt64.self)
                p.storeBytes(of: lo.bigEndian, toByteOffset: 8, as: UInt64.self)
                n = 16
            }
        }
    }
}

/// SHA-512 (FIPS 180-4 §6.4), incremental, with all state held inline.
///
/// Why it looks like this: it has the same shape as `SHA256` — the partial block lives in a tuple,
/// the message schedule in a stack buffer, so hashing never allocates per block. Ed25519 (RFC 8032)
/// hashes with it three times per signature and once per verification, and uses the
/// allocation-free `finalize(into:)` so the 64-byte digest never becomes an `Array` there.
public struct SHA512: Sendable {
    public static let byteCount = 64
    public static let blockByteCount = 128

    @usableFromInline var h: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    @usableFromInline var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    @usableFromInline var pendingCount: Int
    /// Message length in bytes. FIPS 180-4 allows 2^128 - 1 bits; a 64-bit byte counter covers every
    /// message this process can hold, and the high 64 bits of the length field are written from it.
    @usableFromInline var totalBytes: UInt64

    /// The FIPS 180-4 §5.3.5 initial hash value.
    public init() {
        h = (0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
             0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179)
        pending = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        pendingCount = 0
        totalBytes = 0
    }

    /// Starts from another initial hash value: SHA-384, SHA-512/224 and SHA-512/256 (FIPS 180-4
    /// §5.3.4, §5.3.6) are SHA-512 with their own IV, truncated. Used by HashML-DSA's pre-hashes.
    package init(initialHashValue iv: [UInt64]) {
        self.init()
        precondition(iv.count == 8)
        h = (iv[0], iv[1], iv[2], iv[3], iv[4], iv[5], iv[6], iv[7])
    }

    /// Absorbs bytes.
    public mutating func update(_ input: UnsafeRawBufferPointer) {
        guard var p = input.baseAddress, input.count > 0 else { return }
        var remaining = input.count
        totalBytes &+= UInt64(remaining)
        if pendingCount > 0 {
            let take = min(128 - pendingCount, remaining)
            let fill = pendingCount
            withUnsafeMutableBytes(of: &pending) { buf in
                (buf.baseAddress! + fill).copyMemory(from: p, byteCount: take)
            }
            pendingCount += take
            p += take
            remaining -= take
            if pendingCount == 128 {
                var tmp = pending
                withUnsafeBytes(of: &tmp) { SHA512.compress(&h, $0.baseAddress!, blocks: 1) }
                pendingCount = 0
            }
        }
        let whole = remaining / 128
        if whole > 0 {
            SHA512.compress(&h, p, blocks: whole)
            p += whole * 128
            remaining -= whole * 128
        }
        if remaining > 0 {
            withUnsafeMutableBytes(of: &pending) { buf in
                buf.baseAddress!.copyMemory(from: p, byteCount: remaining)
            }
            pendingCount = remaining
        }
    }

    /// Absorbs any byte collection (contiguous storage is used directly when available).
    public mutating func update<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        if let done: Void = bytes.withContiguousStorageIfAvailable({ update(UnsafeRawBufferPointer($0)) }) {
            return done
        }
        let copy = Array(bytes)
        copy.withUnsafeBytes { update($0) }
    }

    /// Finishes the hash and writes the 64-byte digest at `out` (FIPS 180-4 §5.1.2 padding: a 1 bit,
    /// zeros, then the 128-bit big-endian bit length). The hasher should not be used afterwards.
    public mutating func finalize(into out: UnsafeMutableRawPointer) {
        let bitLengthLow = totalBytes &<< 3
        let bitLengthHigh = totalBytes >> 61
        var pad: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
             0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let fill = pendingCount
        let padLength = fill < 112 ? 128 : 256
        withUnsafeMutableBytes(of: &pad) { buf in
            withUnsafeBytes(of: &pending) { src in
                buf.baseAddress!.copyMemory(from: src.baseAddress!, byteCount: fill)
            }
            buf[fill] = 0x80
            buf.storeBytes(of: bitLengthHigh.bigEndian, toByteOffset: padLength - 16, as: UInt64.self)
            buf.storeBytes(of: bitLengthLow.bigEndian, toByteOffset: padLength - 8, as: UInt64.self)
            SHA512.compress(&h, UnsafeRawPointer(buf.baseAddress!), blocks: padLength / 128)
        }
        out.storeBytes(of: h.0.bigEndian, toByteOffset: 0, as: UInt64.self)
        out.storeBytes(of: h.1.bigEndian, toByteOffset: 8, as: UInt64.self)
        out.storeBytes(of: h.2.bigEndian, toByteOffset: 16, as: UInt64.self)
        out.storeBytes(of: h.3.bigEndian, toByteOffset: 24, as: UInt64.self)
        out.storeBytes(of: h.4.bigEndian, toByteOffset: 32, as: UInt64.self)
        out.storeBytes(of: h.5.bigEndian, toByteOffset: 40, as: UInt64.self)
        out.storeBytes(of: h.6.bigEndian, toByteOffset: 48, as: UInt64.self)
        out.storeBytes(of: h.7.bigEndian, toByteOffset: 56, as: UInt64.self)
    }

    /// Finishes the hash and returns the 64-byte digest (the hasher should not be used afterwards).
    public mutating func finalize() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 64) { buf, count in
            finalize(into: UnsafeMutableRawPointer(buf.baseAddress!))
            count = 64
        }
    }

    /// One-shot hash of a byte collection.
    public static func hash<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        var hasher = SHA512()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// One-shot hash of raw bytes.
    public static func hash(_ raw: UnsafeRawBufferPointer) -> [UInt8] {
        var hasher = SHA512()
        hasher.update(raw)
        return hasher.finalize()
    }

    /// FIPS 180-4 §4.2.3: the first 64 bits of the fractional parts of the cube roots of the
    /// first eighty primes.
    @usableFromInline static let k: [UInt64] = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc,
        0x3956c25bf348b538, 0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118,
        0xd807aa98a3030242, 0x12835b0145706fbe, 0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2,
        0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235, 0xc19bf174cf692694,
        0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
        0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5,
        0x983e5152ee66dfab, 0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4,
        0xc6e00bf33da88fc2, 0xd5a79147930aa725, 0x06ca6351e003826f, 0x142929670a0e6e70,
        0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed, 0x53380d139d95b3df,
        0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
        0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30,
        0xd192e819d6ef5218, 0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8,
        0x19a4c116b8d2d0c8, 0x1e376c085141ab53, 0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8,
        0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373, 0x682e6ff3d6b2b8a3,
        0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b,
        0xca273eceea26619c, 0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178,
        0x06f067aa72176fba, 0x0a637dc5a2c898a6, 0x113f9804bef90dae, 0x1b710b35131c471b,
        0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc, 0x431d67c49c100d4c,
        0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]

    @inline(__always) static func rotr(_ x: UInt64, _ n: UInt64) -> UInt64 { (x >> n) | (x << (64 &- n)) }

    /// One SHA-512 round: T1 = h + Σ1(e) + Ch(e,f,g) + K_t + W_t, T2 = Σ0(a) + Maj(a,b,c);
    /// d += T1 and h = T1 + T2 (the caller renames the eight variables for the next round).
    @inline(__always)
    static func round(
        _ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: inout UInt64,
        _ e: UInt64, _ f: UInt64, _ g: UInt64, _ h: inout UInt64, _ kw: UInt64
    ) {
        let t1 = h &+ (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) &+ (g ^ (e & (f ^ g))) &+ kw
        let t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) &+ ((a & b) | (c & (a | b)))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// The compression function (FIPS 180-4 §6.4.2) over `blocks` consecutive 128-byte blocks at `p`.
    @usableFromInline
    static func compress(
        _ state: inout (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64),
        _ p: UnsafeRawPointer, blocks: Int
    ) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 80) { w in
            k.withUnsafeBufferPointer { kp in
                var (a0, b0, c0, d0, e0, f0, g0, h0) = state
                for blk in 0..<blocks {
                    let base = p + blk * 128
                    for i in 0..<16 {
                        w[i] = UInt64(bigEndian: base.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                    }
                    for i in 16..<80 {
                        let x = w[i - 15], y = w[i - 2]
                        let s0 = rotr(x, 1) ^ rotr(x, 8) ^ (x >> 7)
                        let s1 = rotr(y, 19) ^ rotr(y, 61) ^ (y >> 6)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, h = h0
                    // Eight rounds per iteration with the variables renamed instead of shifted
                    // (the FIPS 180-4 "T1/T2" round, written so no register moves are needed).
                    var i = 0
                    while i < 80 {
                        round(a, b, c, &d, e, f, g, &h, kp[i] &+ w[i])
                        round(h, a, b, &c, d, e, f, &g, kp[i + 1] &+ w[i + 1])
                        round(g, h, a, &b, c, d, e, &f, kp[i + 2] &+ w[i + 2])
                        round(f, g, h, &a, b, c, d, &e, kp[i + 3] &+ w[i + 3])
                        round(e, f, g, &h, a, b, c, &d, kp[i + 4] &+ w[i + 4])
                        round(d, e, f, &g, h, a, b, &c, kp[i + 5] &+ w[i + 5])
                        round(c, d, e, &f, g, h, a, &b, kp[i + 6] &+ w[i + 6])
                        round(b, c, d, &e, f, g, h, &a, kp[i + 7] &+ w[i + 7])
                        i += 8
                    }
                    a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
                    e0 = e0 &+ e; f0 = f0 &+ f; g0 = g0 &+ g; h0 = h0 &+ h
                }
                state = (a0, b0, c0, d0, e0, f0, g0, h0)
            }
        }
    }
}

/// SHA-256 (FIPS 180-4), incremental, with all state held inline.
///
/// Why it looks like this: the hot loop of every digest and Merkle fold in this suite is SHA-256
/// over one to four blocks, so the hasher never allocates. The partial block lives in a tuple, the
/// message schedule in a stack buffer, and a digest is a 32-byte value type (`SHA256Digest`) rather
/// than an `Array`. Measured on this machine (see `conformance bench digest`).
public struct SHA256: Sendable {
    public static let byteCount = 32
    public static let blockByteCount = 64

    @usableFromInline var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    @usableFromInline var pending: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)
    @usableFromInline var pendingCount: Int
    @usableFromInline var totalBytes: UInt64

    public init() {
        h = (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        pending = (0, 0, 0, 0, 0, 0, 0, 0)
        pendingCount = 0
        totalBytes = 0
    }

    /// Absorbs bytes.
    public mutating func update(_ input: UnsafeRawBufferPointer) {
        guard var p = input.baseAddress, input.count > 0 else { return }
        var remaining = input.count
        totalBytes &+= UInt64(remaining)
        if pendingCount > 0 {
            let take = min(64 - pendingCount, remaining)
            let fill = pendingCount
            withUnsafeMutableBytes(of: &pending) { buf in
                (buf.baseAddress! + fill).copyMemory(from: p, byteCount: take)
            }
            pendingCount += take
            p += take
            remaining -= take
            if pendingCount == 64 {
                var tmp = pending
                withUnsafeBytes(of: &tmp) { SHA256.compress(&h, $0.baseAddress!, blocks: 1) }
                pendingCount = 0
            }
        }
        let whole = remaining / 64
        if whole > 0 {
            SHA256.compress(&h, p, blocks: whole)
            p += whole * 64
            remaining -= whole * 64
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

    /// Finishes the hash (the hasher should not be used afterwards).
    public mutating func finalize() -> SHA256Digest {
        let bitLength = totalBytes &* 8
        var pad: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                  UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let fill = pendingCount
        let padLength = fill < 56 ? 64 : 128
        withUnsafeMutableBytes(of: &pad) { buf in
            withUnsafeBytes(of: &pending) { src in
                buf.baseAddress!.copyMemory(from: src.baseAddress!, byteCount: fill)
            }
            buf[fill] = 0x80
            for i in 0..<8 { buf[padLength - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i))) }
            SHA256.compress(&h, UnsafeRawPointer(buf.baseAddress!), blocks: padLength / 64)
        }
        return SHA256Digest(
            UInt64(h.0) << 32 | UInt64(h.1), UInt64(h.2) << 32 | UInt64(h.3),
            UInt64(h.4) << 32 | UInt64(h.5), UInt64(h.6) << 32 | UInt64(h.7))
    }

    /// One-shot hash of a byte collection.
    public static func hash<C: Collection>(_ bytes: C) -> SHA256Digest where C.Element == UInt8 {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// One-shot hash of raw bytes.
    public static func hash(_ raw: UnsafeRawBufferPointer) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(raw)
        return hasher.finalize()
    }

    @inline(__always) static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }
    @inline(__always) static func sigma0(_ x: UInt32) -> UInt32 { rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3) }
    @inline(__always) static func sigma1(_ x: UInt32) -> UInt32 { rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10) }

    /// One round with the working variables passed in rotated order, so no round moves eight
    /// values: only `d` and `h` change.
    @inline(__always)
    static func round(_ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32,
                      _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32, _ k: UInt32, _ w: UInt32) {
        let t1 = h &+ (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) &+ ((e & f) ^ (~e & g)) &+ k &+ w
        let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
        d = d &+ t1
        h = t1 &+ t2
    }

    /// The compression function over `blocks` consecutive 64-byte blocks at `p` (FIPS 180-4
    /// §6.2.2), fully unrolled: the 64 rounds and their constants are written out and the message
    /// schedule lives in sixteen locals, which is what lets the optimiser keep everything in
    /// registers (a 64-entry schedule buffer and a constants array cost about a third).
    @usableFromInline
    static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        _ p: UnsafeRawPointer, blocks: Int
    ) {
        var (a0, b0, c0, d0, e0, f0, g0, h0) = state
        for blk in 0..<blocks {
            let base = p + blk * 64
            @inline(__always) func word(_ i: Int) -> UInt32 {
                UInt32(bigEndian: base.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
            }
            var w0 = word(0), w1 = word(1), w2 = word(2), w3 = word(3), w4 = word(4), w5 = word(5), w6 = word(6), w7 = word(7)
            var w8 = word(8), w9 = word(9), w10 = word(10), w11 = word(11), w12 = word(12), w13 = word(13), w14 = word(14), w15 = word(15)
            var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, h = h0
            round(a, b, c, &d, e, f, g, &h, 0x428a2f98, w0)
            round(h, a, b, &c, d, e, f, &g, 0x71374491, w1)
            round(g, h, a, &b, c, d, e, &f, 0xb5c0fbcf, w2)
            round(f, g, h, &a, b, c, d, &e, 0xe9b5dba5, w3)
            round(e, f, g, &h, a, b, c, &d, 0x3956c25b, w4)
            round(d, e, f, &g, h, a, b, &c, 0x59f111f1, w5)
            round(c, d, e, &f, g, h, a, &b, 0x923f82a4, w6)
            round(b, c, d, &e, f, g, h, &a, 0xab1c5ed5, w7)
            round(a, b, c, &d, e, f, g, &h, 0xd807aa98, w8)
            round(h, a, b, &c, d, e, f, &g, 0x12835b01, w9)
            round(g, h, a, &b, c, d, e, &f, 0x243185be, w10)
            round(f, g, h, &a, b, c, d, &e, 0x550c7dc3, w11)
            round(e, f, g, &h, a, b, c, &d, 0x72be5d74, w12)
            round(d, e, f, &g, h, a, b, &c, 0x80deb1fe, w13)
            round(c, d, e, &f, g, h, a, &b, 0x9bdc06a7, w14)
            round(b, c, d, &e, f, g, h, &a, 0xc19bf174, w15)
            w0 = w0 &+ sigma0(w1) &+ w9 &+ sigma1(w14)
            round(a, b, c, &d, e, f, g, &h, 0xe49b69c1, w0)
            w1 = w1 &+ sigma0(w2) &+ w10 &+ sigma1(w15)
            round(h, a, b, &c, d, e, f, &g, 0xefbe4786, w1)
            w2 = w2 &+ sigma0(w3) &+ w11 &+ sigma1(w0)
            round(g, h, a, &b, c, d, e, &f, 0x0fc19dc6, w2)
            w3 = w3 &+ sigma0(w4) &+ w12 &+ sigma1(w1)
            round(f, g, h, &a, b, c, d, &e, 0x240ca1cc, w3)
            w4 = w4 &+ sigma0(w5) &+ w13 &+ sigma1(w2)
            round(e, f, g, &h, a, b, c, &d, 0x2de92c6f, w4)
            w5 = w5 &+ sigma0(w6) &+ w14 &+ sigma1(w3)
            round(d, e, f, &g, h, a, b, &c, 0x4a7484aa, w5)
            w6 = w6 &+ sigma0(w7) &+ w15 &+ sigma1(w4)
            round(c, d, e, &f, g, h, a, &b, 0x5cb0a9dc, w6)
            w7 = w7 &+ sigma0(w8) &+ w0 &+ sigma1(w5)
            round(b, c, d, &e, f, g, h, &a, 0x76f988da, w7)
            w8 = w8 &+ sigma0(w9) &+ w1 &+ sigma1(w6)
            round(a, b, c, &d, e, f, g, &h, 0x983e5152, w8)
            w9 = w9 &+ sigma0(w10) &+ w2 &+ sigma1(w7)
            round(h, a, b, &c, d, e, f, &g, 0xa831c66d, w9)
            w10 = w10 &+ sigma0(w11) &+ w3 &+ sigma1(w8)
            round(g, h, a, &b, c, d, e, &f, 0xb00327c8, w10)
            w11 = w11 &+ sigma0(w12) &+ w4 &+ sigma1(w9)
            round(f, g, h, &a, b, c, d, &e, 0xbf597fc7, w11)
            w12 = w12 &+ sigma0(w13) &+ w5 &+ sigma1(w10)
            round(e, f, g, &h, a, b, c, &d, 0xc6e00bf3, w12)
            w13 = w13 &+ sigma0(w14) &+ w6 &+ sigma1(w11)
            round(d, e, f, &g, h, a, b, &c, 0xd5a79147, w13)
            w14 = w14 &+ sigma0(w15) &+ w7 &+ sigma1(w12)
            round(c, d, e, &f, g, h, a, &b, 0x06ca6351, w14)
            w15 = w15 &+ sigma0(w0) &+ w8 &+ sigma1(w13)
            round(b, c, d, &e, f, g, h, &a, 0x14292967, w15)
            w0 = w0 &+ sigma0(w1) &+ w9 &+ sigma1(w14)
            round(a, b, c, &d, e, f, g, &h, 0x27b70a85, w0)
            w1 = w1 &+ sigma0(w2) &+ w10 &+ sigma1(w15)
            round(h, a, b, &c, d, e, f, &g, 0x2e1b2138, w1)
            w2 = w2 &+ sigma0(w3) &+ w11 &+ sigma1(w0)
            round(g, h, a, &b, c, d, e, &f, 0x4d2c6dfc, w2)
            w3 = w3 &+ sigma0(w4) &+ w12 &+ sigma1(w1)
            round(f, g, h, &a, b, c, d, &e, 0x53380d13, w3)
            w4 = w4 &+ sigma0(w5) &+ w13 &+ sigma1(w2)
            round(e, f, g, &h, a, b, c, &d, 0x650a7354, w4)
            w5 = w5 &+ sigma0(w6) &+ w14 &+ sigma1(w3)
            round(d, e, f, &g, h, a, b, &c, 0x766a0abb, w5)
            w6 = w6 &+ sigma0(w7) &+ w15 &+ sigma1(w4)
            round(c, d, e, &f, g, h, a, &b, 0x81c2c92e, w6)
            w7 = w7 &+ sigma0(w8) &+ w0 &+ sigma1(w5)
            round(b, c, d, &e, f, g, h, &a, 0x92722c85, w7)
            w8 = w8 &+ sigma0(w9) &+ w1 &+ sigma1(w6)
            round(a, b, c, &d, e, f, g, &h, 0xa2bfe8a1, w8)
            w9 = w9 &+ sigma0(w10) &+ w2 &+ sigma1(w7)
            round(h, a, b, &c, d, e, f, &g, 0xa81a664b, w9)
            w10 = w10 &+ sigma0(w11) &+ w3 &+ sigma1(w8)
            round(g, h, a, &b, c, d, e, &f, 0xc24b8b70, w10)
            w11 = w11 &+ sigma0(w12) &+ w4 &+ sigma1(w9)
            round(f, g, h, &a, b, c, d, &e, 0xc76c51a3, w11)
            w12 = w12 &+ sigma0(w13) &+ w5 &+ sigma1(w10)
            round(e, f, g, &h, a, b, c, &d, 0xd192e819, w12)
            w13 = w13 &+ sigma0(w14) &+ w6 &+ sigma1(w11)
            round(d, e, f, &g, h, a, b, &c, 0xd6990624, w13)
            w14 = w14 &+ sigma0(w15) &+ w7 &+ sigma1(w12)
            round(c, d, e, &f, g, h, a, &b, 0xf40e3585, w14)
            w15 = w15 &+ sigma0(w0) &+ w8 &+ sigma1(w13)
            round(b, c, d, &e, f, g, h, &a, 0x106aa070, w15)
            w0 = w0 &+ sigma0(w1) &+ w9 &+ sigma1(w14)
            round(a, b, c, &d, e, f, g, &h, 0x19a4c116, w0)
            w1 = w1 &+ sigma0(w2) &+ w10 &+ sigma1(w15)
            round(h, a, b, &c, d, e, f, &g, 0x1e376c08, w1)
            w2 = w2 &+ sigma0(w3) &+ w11 &+ sigma1(w0)
            round(g, h, a, &b, c, d, e, &f, 0x2748774c, w2)
            w3 = w3 &+ sigma0(w4) &+ w12 &+ sigma1(w1)
            round(f, g, h, &a, b, c, d, &e, 0x34b0bcb5, w3)
            w4 = w4 &+ sigma0(w5) &+ w13 &+ sigma1(w2)
            round(e, f, g, &h, a, b, c, &d, 0x391c0cb3, w4)
            w5 = w5 &+ sigma0(w6) &+ w14 &+ sigma1(w3)
            round(d, e, f, &g, h, a, b, &c, 0x4ed8aa4a, w5)
            w6 = w6 &+ sigma0(w7) &+ w15 &+ sigma1(w4)
            round(c, d, e, &f, g, h, a, &b, 0x5b9cca4f, w6)
            w7 = w7 &+ sigma0(w8) &+ w0 &+ sigma1(w5)
            round(b, c, d, &e, f, g, h, &a, 0x682e6ff3, w7)
            w8 = w8 &+ sigma0(w9) &+ w1 &+ sigma1(w6)
            round(a, b, c, &d, e, f, g, &h, 0x748f82ee, w8)
            w9 = w9 &+ sigma0(w10) &+ w2 &+ sigma1(w7)
            round(h, a, b, &c, d, e, f, &g, 0x78a5636f, w9)
            w10 = w10 &+ sigma0(w11) &+ w3 &+ sigma1(w8)
            round(g, h, a, &b, c, d, e, &f, 0x84c87814, w10)
            w11 = w11 &+ sigma0(w12) &+ w4 &+ sigma1(w9)
            round(f, g, h, &a, b, c, d, &e, 0x8cc70208, w11)
            w12 = w12 &+ sigma0(w13) &+ w5 &+ sigma1(w10)
            round(e, f, g, &h, a, b, c, &d, 0x90befffa, w12)
            w13 = w13 &+ sigma0(w14) &+ w6 &+ sigma1(w11)
            round(d, e, f, &g, h, a, b, &c, 0xa4506ceb, w13)
            w14 = w14 &+ sigma0(w15) &+ w7 &+ sigma1(w12)
            round(c, d, e, &f, g, h, a, &b, 0xbef9a3f7, w14)
            w15 = w15 &+ sigma0(w0) &+ w8 &+ sigma1(w13)
            round(b, c, d, &e, f, g, h, &a, 0xc67178f2, w15)
            a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
            e0 = e0 &+ e; f0 = f0 &+ f; g0 = g0 &+ g; h0 = h0 &+ h
        }
        state = (a0, b0, c0, d0, e0, f0, g0, h0)
    }
}

/// A 32-byte digest held inline (four big-endian 64-bit words), so arrays of leaves are one
/// contiguous allocation and comparing two roots costs four integer compares.
public struct SHA256Digest: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    public init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        self.w0 = w0; self.w1 = w1; self.w2 = w2; self.w3 = w3
    }

    /// Builds a digest from exactly 32 bytes; nil for any other length. Inlinable, so it is
    /// specialized in the caller: the unspecialized generic walk cost more than the hash.
    @inlinable
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 32 else { return nil }
        var w0: UInt64 = 0, w1: UInt64 = 0, w2: UInt64 = 0, w3: UInt64 = 0
        var i = 0
        for b in bytes {
            let v = UInt64(b)
            switch i >> 3 {
            case 0: w0 = w0 << 8 | v
            case 1: w1 = w1 << 8 | v
            case 2: w2 = w2 << 8 | v
            default: w3 = w3 << 8 | v
            }
            i += 1
        }
        self.init(w0, w1, w2, w3)
    }

    /// The digest as bytes, in the order SHA-256 defines.
    public var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { write(to: $0.baseAddress!) }
        return out
    }

    /// Writes the 32 bytes at `p` (used by Merkle folds to avoid an intermediate array).
    @inlinable
    public func write(to p: UnsafeMutableRawPointer) {
        p.storeBytes(of: w0.bigEndian, toByteOffset: 0, as: UInt64.self)
        p.storeBytes(of: w1.bigEndian, toByteOffset: 8, as: UInt64.self)
        p.storeBytes(of: w2.bigEndian, toByteOffset: 16, as: UInt64.self)
        p.storeBytes(of: w3.bigEndian, toByteOffset: 24, as: UInt64.self)
    }

    public var hex: String { Hex.encode(bytes) }
    public var description: String { hex }

    /// Byte-wise lexicographic order (equal to the order of the hex strings).
    public static func < (a: SHA256Digest, b: SHA256Digest) -> Bool {
        (a.w0, a.w1, a.w2, a.w3) < (b.w0, b.w1, b.w2, b.w3)
    }
}

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

    @usableFromInline static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    @inline(__always) static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 &- n)) }

    /// The compression function over `blocks` consecutive 64-byte blocks at `p`.
    @usableFromInline
    static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        _ p: UnsafeRawPointer, blocks: Int
    ) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            k.withUnsafeBufferPointer { kp in
                var (a0, b0, c0, d0, e0, f0, g0, h0) = state
                for blk in 0..<blocks {
                    let base = p + blk * 64
                    for i in 0..<16 {
                        w[i] = UInt32(bigEndian: base.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                    }
                    for i in 16..<64 {
                        let x = w[i - 15], y = w[i - 2]
                        let s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3)
                        let s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >> 10)
                        w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
                    }
                    var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, h = h0
                    for i in 0..<64 {
                        let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let ch = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ ch &+ kp[i] &+ w[i]
                        let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let maj = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ maj
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ t2
                    }
                    a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
                    e0 = e0 &+ e; f0 = f0 &+ f; g0 = g0 &+ g; h0 = h0 &+ h
                }
                state = (a0, b0, c0, d0, e0, f0, g0, h0)
            }
        }
    }
}

/// A 32-byte digest held inline (four big-endian 64-bit words), so arrays of leaves are one
/// contiguous allocation and comparing two roots costs four integer compares.
public struct SHA256Digest: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var w0: UInt64, w1: UInt64, w2: UInt64, w3: UInt64

    public init(_ w0: UInt64, _ w1: UInt64, _ w2: UInt64, _ w3: UInt64) {
        self.w0 = w0; self.w1 = w1; self.w2 = w2; self.w3 = w3
    }

    /// Builds a digest from exactly 32 bytes; nil for any other length.
    public init?<C: Collection>(bytes: C) where C.Element == UInt8 {
        guard bytes.count == 32 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (i, b) in bytes.enumerated() { words[i / 8] = words[i / 8] << 8 | UInt64(b) }
        self.init(words[0], words[1], words[2], words[3])
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

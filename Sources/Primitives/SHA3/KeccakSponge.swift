#if _endian(big)
#error("KeccakSponge maps lanes onto bytes in little-endian order (FIPS 202 §B.1); big-endian hosts are not supported")
#endif

/// The Keccak sponge (FIPS 202 §4) over Keccak-f[1600] (FIPS 202 §3), shared by SHA3-256/512 and
/// SHAKE128/256 and used directly by ML-DSA's samplers.
///
/// Why it looks like this: the 25 lanes live inline in a tuple and the permutation works on 25
/// local variables, so absorbing and squeezing never allocate (an `Array` state cost 2.4x here).
/// Lanes are kept in memory in little-endian byte order, which is exactly the byte order of the
/// sponge's rate (FIPS 202 §B.1), so bytes are XORed into and read out of the state in place and
/// a sampler can parse a squeezed block without copying it.
struct KeccakSponge: Sendable {
    typealias Lanes = (UInt64, UInt64, UInt64, UInt64, UInt64,
                       UInt64, UInt64, UInt64, UInt64, UInt64,
                       UInt64, UInt64, UInt64, UInt64, UInt64,
                       UInt64, UInt64, UInt64, UInt64, UInt64,
                       UInt64, UInt64, UInt64, UInt64, UInt64)

    var lanes: Lanes = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    /// Rate r in bytes (168 for SHAKE128, 136 for SHA3-256/SHAKE256, 72 for SHA3-512).
    let rate: Int
    /// The domain-separation bits plus the first bit of pad10*1, as one byte: 0x06 for SHA-3
    /// (suffix 01), 0x1F for SHAKE (suffix 1111) — FIPS 202 §6.1, §6.2 and §B.2.
    let domain: UInt8
    /// Absorbing: bytes already XORed into the current block. Squeezing: bytes of the current
    /// block already handed out (== rate means the next read needs a permutation).
    var offset: Int = 0
    var squeezing: Bool = false

    init(rate: Int, domain: UInt8) {
        precondition(rate > 0 && rate < 200 && rate % 8 == 0)
        self.rate = rate
        self.domain = domain
    }

    /// XORs `input` into the state, permuting after each full block (FIPS 202 Algorithm 8, step 6).
    mutating func absorb(_ input: UnsafeRawBufferPointer) {
        precondition(!squeezing, "Keccak: absorbing after squeezing has started")
        guard var p = input.baseAddress, input.count > 0 else { return }
        var remaining = input.count
        let rate = self.rate
        var off = offset
        withUnsafeMutableBytes(of: &lanes) { st in
            let base = st.baseAddress!
            // Finish a partial block byte by byte.
            if off > 0 {
                let take = min(rate - off, remaining)
                for i in 0..<take {
                    st[off + i] ^= p.load(fromByteOffset: i, as: UInt8.self)
                }
                off += take; p += take; remaining -= take
                if off == rate {
                    KeccakSponge.permute(base)
                    off = 0
                }
            }
            // Whole blocks, one 64-bit lane at a time.
            while remaining >= rate {
                var i = 0
                while i < rate {
                    let lane = base.load(fromByteOffset: i, as: UInt64.self)
                        ^ UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt64.self))
                    base.storeBytes(of: lane, toByteOffset: i, as: UInt64.self)
                    i &+= 8
                }
                KeccakSponge.permute(base)
                p += rate; remaining -= rate
            }
            for i in 0..<remaining {
                st[off + i] ^= p.load(fromByteOffset: i, as: UInt8.self)
            }
            off += remaining
        }
        offset = off
    }

    /// Pads (domain bits then pad10*1, FIPS 202 §5.1) and switches to squeezing; idempotent.
    mutating func finishAbsorbing() {
        if squeezing { return }
        let off = offset, rate = self.rate, domain = self.domain
        withUnsafeMutableBytes(of: &lanes) { st in
            st[off] ^= domain
            st[rate - 1] ^= 0x80
            KeccakSponge.permute(st.baseAddress!)
        }
        offset = 0
        squeezing = true
    }

    /// Writes the next `out.count` bytes of the output stream (FIPS 202 Algorithm 8, steps 7-10).
    mutating func squeeze(into out: UnsafeMutableRawBufferPointer) {
        finishAbsorbing()
        guard var dst = out.baseAddress, out.count > 0 else { return }
        var remaining = out.count
        let rate = self.rate
        var off = offset
        withUnsafeMutableBytes(of: &lanes) { st in
            let base = st.baseAddress!
            while remaining > 0 {
                if off == rate {
                    KeccakSponge.permute(base)
                    off = 0
                }
                let take = min(rate - off, remaining)
                dst.copyMemory(from: base + off, byteCount: take)
                dst += take; off += take; remaining -= take
            }
        }
        offset = off
    }

    /// Hands the next whole output block to `body` in place (no copy), for rejection samplers
    /// that consume the XOF a block at a time (FIPS 204 Algorithms 29-31). Unread bytes of a
    /// partly squeezed block are skipped, so mix this only with whole-block reads.
    @inline(__always)
    mutating func withNextBlock<R>(_ body: (UnsafeRawPointer) -> R) -> R {
        finishAbsorbing()
        let needsPermutation = offset != 0
        offset = rate
        return withUnsafeMutableBytes(of: &lanes) { st in
            if needsPermutation { KeccakSponge.permute(st.baseAddress!) }
            return body(UnsafeRawPointer(st.baseAddress!))
        }
    }

    @inline(__always)
    static func rotl(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &<< n) | (x &>> (64 &- n)) }

    /// ι round constants RC[i] (FIPS 202 Algorithm 5/6), precomputed.
    static let roundConstants: [UInt64] = [
        0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
        0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
        0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
        0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
        0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
        0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
    ]

    /// Keccak-f[1600] in place on the 200 state bytes at `p` (FIPS 202 Algorithm 7: 24 rounds of
    /// θ, ρ, π, χ, ι).
    static func permute(_ p: UnsafeMutableRawPointer) {
        permute(&p.assumingMemoryBound(to: Lanes.self).pointee)
    }

    /// One round is written out over 25 locals (machine-generated, then checked by the KATs) so the state stays
    /// in registers / the stack frame; a[x][y] is lane x + 5y.
    static func permute(_ s: inout Lanes) {
        var a00 = s.0
        var a10 = s.1
        var a20 = s.2
        var a30 = s.3
        var a40 = s.4
        var a01 = s.5
        var a11 = s.6
        var a21 = s.7
        var a31 = s.8
        var a41 = s.9
        var a02 = s.10
        var a12 = s.11
        var a22 = s.12
        var a32 = s.13
        var a42 = s.14
        var a03 = s.15
        var a13 = s.16
        var a23 = s.17
        var a33 = s.18
        var a43 = s.19
        var a04 = s.20
        var a14 = s.21
        var a24 = s.22
        var a34 = s.23
        var a44 = s.24
        roundConstants.withUnsafeBufferPointer { rcs in
            for round in 0..<24 {
                let rc = rcs[round]
                let c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04
                let c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14
                let c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24
                let c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34
                let c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44
                let d0 = c4 ^ KeccakSponge.rotl(c1, 1)
                let d1 = c0 ^ KeccakSponge.rotl(c2, 1)
                let d2 = c1 ^ KeccakSponge.rotl(c3, 1)
                let d3 = c2 ^ KeccakSponge.rotl(c4, 1)
                let d4 = c3 ^ KeccakSponge.rotl(c0, 1)
                let b00 = a00 ^ d0
                let b13 = KeccakSponge.rotl(a01 ^ d0, 36)
                let b21 = KeccakSponge.rotl(a02 ^ d0, 3)
                let b34 = KeccakSponge.rotl(a03 ^ d0, 41)
                let b42 = KeccakSponge.rotl(a04 ^ d0, 18)
                let b02 = KeccakSponge.rotl(a10 ^ d1, 1)
                let b10 = KeccakSponge.rotl(a11 ^ d1, 44)
                let b23 = KeccakSponge.rotl(a12 ^ d1, 10)
                let b31 = KeccakSponge.rotl(a13 ^ d1, 45)
                let b44 = KeccakSponge.rotl(a14 ^ d1, 2)
                let b04 = KeccakSponge.rotl(a20 ^ d2, 62)
                let b12 = KeccakSponge.rotl(a21 ^ d2, 6)
                let b20 = KeccakSponge.rotl(a22 ^ d2, 43)
                let b33 = KeccakSponge.rotl(a23 ^ d2, 15)
                let b41 = KeccakSponge.rotl(a24 ^ d2, 61)
                let b01 = KeccakSponge.rotl(a30 ^ d3, 28)
                let b14 = KeccakSponge.rotl(a31 ^ d3, 55)
                let b22 = KeccakSponge.rotl(a32 ^ d3, 25)
                let b30 = KeccakSponge.rotl(a33 ^ d3, 21)
                let b43 = KeccakSponge.rotl(a34 ^ d3, 56)
                let b03 = KeccakSponge.rotl(a40 ^ d4, 27)
                let b11 = KeccakSponge.rotl(a41 ^ d4, 20)
                let b24 = KeccakSponge.rotl(a42 ^ d4, 39)
                let b32 = KeccakSponge.rotl(a43 ^ d4, 8)
                let b40 = KeccakSponge.rotl(a44 ^ d4, 14)
                a00 = b00 ^ (~b10 & b20)
                a10 = b10 ^ (~b20 & b30)
                a20 = b20 ^ (~b30 & b40)
                a30 = b30 ^ (~b40 & b00)
                a40 = b40 ^ (~b00 & b10)
                a01 = b01 ^ (~b11 & b21)
                a11 = b11 ^ (~b21 & b31)
                a21 = b21 ^ (~b31 & b41)
                a31 = b31 ^ (~b41 & b01)
                a41 = b41 ^ (~b01 & b11)
                a02 = b02 ^ (~b12 & b22)
                a12 = b12 ^ (~b22 & b32)
                a22 = b22 ^ (~b32 & b42)
                a32 = b32 ^ (~b42 & b02)
                a42 = b42 ^ (~b02 & b12)
                a03 = b03 ^ (~b13 & b23)
                a13 = b13 ^ (~b23 & b33)
                a23 = b23 ^ (~b33 & b43)
                a33 = b33 ^ (~b43 & b03)
                a43 = b43 ^ (~b03 & b13)
                a04 = b04 ^ (~b14 & b24)
                a14 = b14 ^ (~b24 & b34)
                a24 = b24 ^ (~b34 & b44)
                a34 = b34 ^ (~b44 & b04)
                a44 = b44 ^ (~b04 & b14)
                a00 ^= rc
            }
        }
        s = (a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22, a32, a42, a03, a13, a23, a33, a43, a04, a14, a24, a34, a44)
    }
}

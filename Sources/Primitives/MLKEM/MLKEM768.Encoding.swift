extension MLKEM768 {
    /// ByteEncode_d and ByteDecode_d (FIPS 203 Algorithms 5 and 6): 256 d-bit integers packed
    /// least-significant bit first into 32·d bytes. Fixed loop counts; no data-dependent branch.
    enum Encoding {
        /// ByteEncode_d (Algorithm 5) of 256 values below 2^d, d in 1...12, into 32·d bytes.
        static func encode(_ f: UnsafePointer<UInt16>, bits d: Int, into out: UnsafeMutablePointer<UInt8>) {
            var acc: UInt64 = 0
            var filled = 0
            var o = 0
            for i in 0..<256 {
                acc |= UInt64(f[i]) << UInt64(filled)
                filled &+= d
                while filled >= 8 {
                    out[o] = UInt8(truncatingIfNeeded: acc)
                    acc >>= 8
                    filled &-= 8
                    o &+= 1
                }
            }
        }

        /// ByteDecode_d (Algorithm 6) for d < 12: 256 values in [0, 2^d) from 32·d bytes.
        /// For d = 12 it returns the raw 12-bit fields (in [0, 4096)); callers reduce them mod q
        /// as Algorithm 6 specifies, or compare them with q for the modulus check of §7.2.
        static func decode(_ bytes: UnsafePointer<UInt8>, bits d: Int, into f: UnsafeMutablePointer<UInt16>) {
            let mask: UInt64 = (1 << UInt64(d)) &- 1
            var acc: UInt64 = 0
            var filled = 0
            var o = 0
            for i in 0..<256 {
                while filled < d {
                    acc |= UInt64(bytes[o]) << UInt64(filled)
                    filled &+= 8
                    o &+= 1
                }
                f[i] = UInt16(truncatingIfNeeded: acc & mask)
                acc >>= UInt64(d)
                filled &-= d
            }
        }

        /// ByteDecode_12 of k polynomials with the reduction mod q of Algorithm 6 (line 6: for
        /// d = 12, m = q). Returns an all-ones mask when every field was already below q, zero
        /// otherwise: the modulus check of FIPS 203 §7.2, ByteEncode12(ByteDecode12(ek)) = ek,
        /// holds exactly when no field is ≥ q.
        @discardableResult
        static func decode12Reducing(_ bytes: UnsafePointer<UInt8>, polys: Int, into f: UnsafeMutablePointer<UInt16>) -> UInt32 {
            var bad: UInt32 = 0
            for p in 0..<polys {
                decode(bytes + p &* polyBytes12, bits: 12, into: f + p &* n)
            }
            for j in 0..<(polys &* n) {
                let v = UInt32(f[j])
                let s = v &- q                 // top bit set iff v < q
                bad |= ~s >> 31                // 1 iff v ≥ q
                f[j] = UInt16(truncatingIfNeeded: Field.csubq(v))  // v < 4096 < 2q
            }
            return bad &- 1                    // all ones iff no field was ≥ q
        }
    }
}

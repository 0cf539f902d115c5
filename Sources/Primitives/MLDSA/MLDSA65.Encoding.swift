extension MLDSA65 {
    /// Bit packing of FIPS 204 §7.1-7.2 (Algorithms 16-28): little-endian bit strings, 256
    /// coefficients per polynomial, so every polynomial fills a whole number of bytes.
    enum Encoding {
        /// SimpleBitPack / BitPack (FIPS 204 Algorithms 16-17) of `count` coefficients.
        /// With `bias` nil each coefficient must already lie in [0, 2^bits); with a bias b the
        /// packed value is b - w (BitPack(w, a, b), whose values lie in [0, a + b]).
        static func pack(_ src: UnsafePointer<Int32>, count: Int, bits: Int, bias: Int32?,
                         into dst: UnsafeMutableRawPointer) {
            var acc: UInt64 = 0
            var accBits = 0
            var o = 0
            let mask = (UInt64(1) << UInt64(bits)) &- 1
            for i in 0..<count {
                let v = bias.map { $0 &- src[i] } ?? src[i]
                acc |= (UInt64(UInt32(bitPattern: v)) & mask) << UInt64(accBits)
                accBits &+= bits
                while accBits >= 8 {
                    dst.storeBytes(of: UInt8(truncatingIfNeeded: acc), toByteOffset: o, as: UInt8.self)
                    acc >>= 8
                    accBits &-= 8
                    o &+= 1
                }
            }
        }

        /// SimpleBitUnpack / BitUnpack (FIPS 204 Algorithms 18-19): the inverse of `pack`. With a
        /// bias b each coefficient is b - v for the packed v in [0, 2^bits).
        static func unpack(_ src: UnsafeRawPointer, count: Int, bits: Int, bias: Int32?,
                           into dst: UnsafeMutablePointer<Int32>) {
            var acc: UInt64 = 0
            var accBits = 0
            var o = 0
            let mask = (UInt64(1) << UInt64(bits)) &- 1
            for i in 0..<count {
                while accBits < bits {
                    acc |= UInt64(src.load(fromByteOffset: o, as: UInt8.self)) << UInt64(accBits)
                    accBits &+= 8
                    o &+= 1
                }
                let v = Int32(truncatingIfNeeded: acc & mask)
                acc >>= UInt64(bits)
                accBits &-= bits
                dst[i] = bias.map { $0 &- v } ?? v
            }
        }

        /// HintBitPack (FIPS 204 Algorithm 20): for each of the k polynomials the positions of its
        /// 1s, then the running counts in the last k bytes. `h` holds k·256 coefficients in {0, 1}
        /// with at most ω ones in total (the signer checks this first).
        static func hintPack(_ h: UnsafePointer<Int32>, into y: UnsafeMutableRawPointer) {
            for i in 0..<(omega + k) { y.storeBytes(of: 0, toByteOffset: i, as: UInt8.self) }
            var index = 0
            for i in 0..<k {
                for j in 0..<n where h[i * n + j] != 0 {
                    y.storeBytes(of: UInt8(j), toByteOffset: index, as: UInt8.self)
                    index += 1
                }
                y.storeBytes(of: UInt8(index), toByteOffset: omega + i, as: UInt8.self)
            }
        }

        /// HintBitUnpack (FIPS 204 Algorithm 21) with all its malformed-input checks: counts must
        /// be non-decreasing and at most ω, positions within a polynomial strictly increasing, and
        /// unused position bytes zero. Returns false (⊥) instead of trapping on bad input; `h`
        /// receives k·256 coefficients in {0, 1}. A `rule` other than `.fips204` drops the checks
        /// it names (mutants only); a count it does not check gives its polynomial no positions, so
        /// every read stays inside the ω + k hint bytes.
        static func hintUnpack(_ y: UnsafeRawPointer, into h: UnsafeMutablePointer<Int32>,
                               rule: VerificationRule = .fips204) -> Bool {
            h.update(repeating: 0, count: k * n)
            var index = 0
            for i in 0..<k {
                let end = Int(y.load(fromByteOffset: omega + i, as: UInt8.self))
                if end > omega {
                    if rule.checkHintCountBound { return false }
                    continue  // lenient: a count above ω gives this polynomial no positions
                }
                if end < index {
                    if rule.checkHintCountOrder { return false }
                    continue  // lenient: a count below the previous one gives this polynomial no positions
                }
                let first = index
                while index < end {
                    let position = Int(y.load(fromByteOffset: index, as: UInt8.self))
                    if rule.checkHintOrder && index > first
                        && Int(y.load(fromByteOffset: index - 1, as: UInt8.self)) >= position {
                        return false
                    }
                    h[i * n + position] = 1
                    index += 1
                }
            }
            guard rule.checkHintPadding else { return true }
            while index < omega {
                if y.load(fromByteOffset: index, as: UInt8.self) != 0 { return false }
                index += 1
            }
            return true
        }
    }
}

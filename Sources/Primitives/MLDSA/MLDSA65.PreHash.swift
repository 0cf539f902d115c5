extension MLDSA65 {
    /// HashML-DSA (FIPS 204 §5.4, Algorithms 4 and 5), package-only: the product signs pure
    /// ML-DSA; this exists so the ACVP "preHash" groups can be checked.
    ///
    /// M' = IntegerToBytes(1, 1) || IntegerToBytes(|ctx|, 1) || ctx || OID || PH(M), with the
    /// DER OID 2.16.840.1.101.3.4.2.x of the hash (Algorithm 4 lines 10-22). The hashes the
    /// project lacks (SHA-224, SHA-384, SHA-512, SHA-512/224, SHA-512/256, SHA3-224, SHA3-384)
    /// are small local helpers here: SHA-224 reuses `SHA256.compress` with its own IV
    /// (FIPS 180-4 §5.3.2), the SHA-512 family is a one-shot implementation below, and
    /// SHA3-224/384 are the Keccak sponge at rates 144/104.
    package enum PreHash: String, CaseIterable, Sendable {
        case sha2_224 = "SHA2-224"
        case sha2_256 = "SHA2-256"
        case sha2_384 = "SHA2-384"
        case sha2_512 = "SHA2-512"
        case sha2_512_224 = "SHA2-512/224"
        case sha2_512_256 = "SHA2-512/256"
        case sha3_224 = "SHA3-224"
        case sha3_256 = "SHA3-256"
        case sha3_384 = "SHA3-384"
        case sha3_512 = "SHA3-512"
        case shake128 = "SHAKE-128"
        case shake256 = "SHAKE-256"

        /// Last arc of the NIST hash OID 2.16.840.1.101.3.4.2.x.
        var oidArc: UInt8 {
            switch self {
            case .sha2_256: 1
            case .sha2_384: 2
            case .sha2_512: 3
            case .sha2_224: 4
            case .sha2_512_224: 5
            case .sha2_512_256: 6
            case .sha3_224: 7
            case .sha3_256: 8
            case .sha3_384: 9
            case .sha3_512: 10
            case .shake128: 11
            case .shake256: 12
            }
        }

        /// DER encoding of the OID (tag 06, length 09, 60 86 48 01 65 03 04 02 x).
        var oid: [UInt8] { [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, oidArc] }

        /// PH(M): the digest, or 256 / 512 bits of SHAKE128 / SHAKE256 output (Algorithm 4).
        package func digest(_ message: [UInt8]) -> [UInt8] {
            switch self {
            case .sha2_224: return SHA224Core.hash(message)
            case .sha2_256: return SHA256.hash(message).bytes
            case .sha2_384: return SHA512Core.hash(message, iv: SHA512Core.iv384, outputBytes: 48)
            case .sha2_512: return SHA512Core.hash(message, iv: SHA512Core.iv512, outputBytes: 64)
            case .sha2_512_224: return SHA512Core.hash(message, iv: SHA512Core.iv512_224, outputBytes: 28)
            case .sha2_512_256: return SHA512Core.hash(message, iv: SHA512Core.iv512_256, outputBytes: 32)
            case .sha3_224: return keccak(message, rate: 144, domain: 0x06, outputBytes: 28)
            case .sha3_256: return SHA3_256.hash(message)
            case .sha3_384: return keccak(message, rate: 104, domain: 0x06, outputBytes: 48)
            case .sha3_512: return SHA3_512.hash(message)
            case .shake128: return SHAKE128.hash(message, outputByteCount: 32)
            case .shake256: return SHAKE256.hash(message, outputByteCount: 64)
            }
        }

        private func keccak(_ message: [UInt8], rate: Int, domain: UInt8, outputBytes: Int) -> [UInt8] {
            var sponge = KeccakSponge(rate: rate, domain: domain)
            message.withUnsafeBytes { sponge.absorb($0) }
            return Algorithms.squeeze(&sponge, outputBytes)
        }

        /// M' for HashML-DSA.Sign / Verify (Algorithm 4 line 23, Algorithm 5 line 21).
        func messagePrime(_ message: [UInt8], context: [UInt8]) -> [UInt8] {
            [1, UInt8(truncatingIfNeeded: context.count)] + context + oid + digest(message)
        }
    }
}

extension MLDSA65.PrivateKey {
    /// HashML-DSA.Sign (FIPS 204 Algorithm 4) with the given rnd (32 bytes; use 32 zero bytes for
    /// the deterministic variant). Throws `.invalidParameter` for a context over 255 bytes.
    package func preHashSignature(for message: [UInt8], context: [UInt8], hash: MLDSA65.PreHash,
                                  randomness: [UInt8]) throws -> [UInt8] {
        guard context.count <= MLDSA65.maxContextBytes else {
            throw CryptoError(.invalidParameter, "ML-DSA context must be at most 255 bytes, got \(context.count)")
        }
        guard randomness.count == MLDSA65.rndBytes else {
            throw CryptoError(.invalidLength, "ML-DSA rnd must be 32 bytes, got \(randomness.count)")
        }
        return signatureInternal(messagePrime: hash.messagePrime(message, context: context), randomness: randomness)
    }
}

extension MLDSA65.PublicKey {
    /// HashML-DSA.Verify (FIPS 204 Algorithm 5); false for a context over 255 bytes.
    package func isValidPreHashSignature(_ signature: [UInt8], for message: [UInt8], context: [UInt8],
                                         hash: MLDSA65.PreHash) -> Bool {
        guard context.count <= MLDSA65.maxContextBytes else { return false }
        return isValidSignatureInternal(signature, messagePrime: hash.messagePrime(message, context: context))
    }
}

extension MLDSA65.PreHash {
    /// SHA-224 (FIPS 180-4 §6.3): SHA-256's compression with the SHA-224 IV, truncated to 28 bytes.
    fileprivate enum SHA224Core {
        static func hash(_ message: [UInt8]) -> [UInt8] {
            var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
                (0xc105_9ed8, 0x367c_d507, 0x3070_dd17, 0xf70e_5939, 0xffc0_0b31, 0x6858_1511, 0x64f9_8fa7, 0xbefa_4fa4)
            var padded = message
            padded.append(0x80)
            while padded.count % 64 != 56 { padded.append(0) }
            let bits = UInt64(message.count) &* 8
            for i in (0..<8).reversed() { padded.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i)))) }
            padded.withUnsafeBytes { SHA256.compress(&h, $0.baseAddress!, blocks: padded.count / 64) }
            let words = [h.0, h.1, h.2, h.3, h.4, h.5, h.6]
            return words.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: w >> (24 - 8 * UInt32($0))) } }
        }
    }

    /// SHA-512 and its truncated variants (FIPS 180-4 §6.4-6.7), one-shot, for pre-hashing only.
    fileprivate enum SHA512Core {
        static let iv512: [UInt64] = [
            0x6a09_e667_f3bc_c908, 0xbb67_ae85_84ca_a73b, 0x3c6e_f372_fe94_f82b, 0xa54f_f53a_5f1d_36f1,
            0x510e_527f_ade6_82d1, 0x9b05_688c_2b3e_6c1f, 0x1f83_d9ab_fb41_bd6b, 0x5be0_cd19_137e_2179,
        ]
        static let iv384: [UInt64] = [
            0xcbbb_9d5d_c105_9ed8, 0x629a_292a_367c_d507, 0x9159_015a_3070_dd17, 0x152f_ecd8_f70e_5939,
            0x6733_2667_ffc0_0b31, 0x8eb4_4a87_6858_1511, 0xdb0c_2e0d_64f9_8fa7, 0x47b5_481d_befa_4fa4,
        ]
        static let iv512_224: [UInt64] = [
            0x8c3d_37c8_1954_4da2, 0x73e1_9966_89dc_d4d6, 0x1dfa_b7ae_32ff_9c82, 0x679d_d514_582f_9fcf,
            0x0f6d_2b69_7bd4_4da8, 0x77e3_6f73_04c4_8942, 0x3f9d_85a8_6a1d_36c8, 0x1112_e6ad_91d6_92a1,
        ]
        static let iv512_256: [UInt64] = [
            0x2231_2194_fc2b_f72c, 0x9f55_5fa3_c84c_64c2, 0x2393_b86b_6f53_b151, 0x9638_7719_5940_eabd,
            0x9628_3ee2_a88e_ffe3, 0xbe5e_1e25_5386_3992, 0x2b01_99fc_2c85_b8aa, 0x0eb7_2ddc_81c5_2ca2,
        ]
        /// First 64 bits of the fractional parts of the cube roots of the first 80 primes.
        static let k: [UInt64] = [
            0x428a_2f98_d728_ae22, 0x7137_4491_23ef_65cd, 0xb5c0_fbcf_ec4d_3b2f, 0xe9b5_dba5_8189_dbbc,
            0x3956_c25b_f348_b538, 0x59f1_11f1_b605_d019, 0x923f_82a4_af19_4f9b, 0xab1c_5ed5_da6d_8118,
            0xd807_aa98_a303_0242, 0x1283_5b01_4570_6fbe, 0x2431_85be_4ee4_b28c, 0x550c_7dc3_d5ff_b4e2,
            0x72be_5d74_f27b_896f, 0x80de_b1fe_3b16_96b1, 0x9bdc_06a7_25c7_1235, 0xc19b_f174_cf69_2694,
            0xe49b_69c1_9ef1_4ad2, 0xefbe_4786_384f_25e3, 0x0fc1_9dc6_8b8c_d5b5, 0x240c_a1cc_77ac_9c65,
            0x2de9_2c6f_592b_0275, 0x4a74_84aa_6ea6_e483, 0x5cb0_a9dc_bd41_fbd4, 0x76f9_88da_8311_53b5,
            0x983e_5152_ee66_dfab, 0xa831_c66d_2db4_3210, 0xb003_27c8_98fb_213f, 0xbf59_7fc7_beef_0ee4,
            0xc6e0_0bf3_3da8_8fc2, 0xd5a7_9147_930a_a725, 0x06ca_6351_e003_826f, 0x1429_2967_0a0e_6e70,
            0x27b7_0a85_46d2_2ffc, 0x2e1b_2138_5c26_c926, 0x4d2c_6dfc_5ac4_2aed, 0x5338_0d13_9d95_b3df,
            0x650a_7354_8baf_63de, 0x766a_0abb_3c77_b2a8, 0x81c2_c92e_47ed_aee6, 0x9272_2c85_1482_353b,
            0xa2bf_e8a1_4cf1_0364, 0xa81a_664b_bc42_3001, 0xc24b_8b70_d0f8_9791, 0xc76c_51a3_0654_be30,
            0xd192_e819_d6ef_5218, 0xd699_0624_5565_a910, 0xf40e_3585_5771_202a, 0x106a_a070_32bb_d1b8,
            0x19a4_c116_b8d2_d0c8, 0x1e37_6c08_5141_ab53, 0x2748_774c_df8e_eb99, 0x34b0_bcb5_e19b_48a8,
            0x391c_0cb3_c5c9_5a63, 0x4ed8_aa4a_e341_8acb, 0x5b9c_ca4f_7763_e373, 0x682e_6ff3_d6b2_b8a3,
            0x748f_82ee_5def_b2fc, 0x78a5_636f_4317_2f60, 0x84c8_7814_a1f0_ab72, 0x8cc7_0208_1a64_39ec,
            0x90be_fffa_2363_1e28, 0xa450_6ceb_de82_bde9, 0xbef9_a3f7_b2c6_7915, 0xc671_78f2_e372_532b,
            0xca27_3ece_ea26_619c, 0xd186_b8c7_21c0_c207, 0xeada_7dd6_cde0_eb1e, 0xf57d_4f7f_ee6e_d178,
            0x06f0_67aa_7217_6fba, 0x0a63_7dc5_a2c8_98a6, 0x113f_9804_bef9_0dae, 0x1b71_0b35_131c_471b,
            0x28db_77f5_2304_7d84, 0x32ca_ab7b_40c7_2493, 0x3c9e_be0a_15c9_bebc, 0x431d_67c4_9c10_0d4c,
            0x4cc5_d4be_cb3e_42b6, 0x597f_299c_fc65_7e2a, 0x5fcb_6fab_3ad6_faec, 0x6c44_198c_4a47_5817,
        ]

        @inline(__always) static func rotr(_ x: UInt64, _ n: UInt64) -> UInt64 { (x &>> n) | (x &<< (64 &- n)) }

        static func hash(_ message: [UInt8], iv: [UInt64], outputBytes: Int) -> [UInt8] {
            var h = iv
            var padded = message
            padded.append(0x80)
            while padded.count % 128 != 112 { padded.append(0) }
            let bits = UInt64(message.count) &* 8
            padded += [UInt8](repeating: 0, count: 8)   // high 64 bits of the 128-bit length
            for i in (0..<8).reversed() { padded.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i)))) }
            var w = [UInt64](repeating: 0, count: 80)
            for block in stride(from: 0, to: padded.count, by: 128) {
                for t in 0..<16 {
                    var v: UInt64 = 0
                    for b in 0..<8 { v = v << 8 | UInt64(padded[block + 8 * t + b]) }
                    w[t] = v
                }
                for t in 16..<80 {
                    let s0 = rotr(w[t - 15], 1) ^ rotr(w[t - 15], 8) ^ (w[t - 15] >> 7)
                    let s1 = rotr(w[t - 2], 19) ^ rotr(w[t - 2], 61) ^ (w[t - 2] >> 6)
                    w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                }
                var a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7]
                for t in 0..<80 {
                    let t1 = hh &+ (rotr(e, 14) ^ rotr(e, 18) ^ rotr(e, 41)) &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                    let t2 = (rotr(a, 28) ^ rotr(a, 34) ^ rotr(a, 39)) &+ ((a & b) ^ (a & c) ^ (b & c))
                    hh = g; g = f; f = e; e = d &+ t1
                    d = c; c = b; b = a; a = t1 &+ t2
                }
                h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
                h[4] &+= e; h[5] &+= f; h[6] &+= g; h[7] &+= hh
            }
            let bytes = h.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64($0))) } }
            return Array(bytes.prefix(outputBytes))
        }
    }
}

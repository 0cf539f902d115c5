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
        static func hash(_ message: [UInt8], iv: [UInt64], outputBytes: Int) -> [UInt8] {
            var hasher = SHA512(initialHashValue: iv)
            hasher.update(message)
            return Array(hasher.finalize().prefix(outputBytes))
        }
    }
}

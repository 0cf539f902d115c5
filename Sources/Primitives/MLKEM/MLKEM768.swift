/// ML-KEM-768 (FIPS 203, final, August 2024): the module-lattice key-encapsulation mechanism at
/// NIST security category 3 (k = 3, η1 = η2 = 2, du = 10, dv = 4; FIPS 203 Table 2).
///
/// Layout of this folder: `MLKEM768.swift` (parameters, Tables 2 and 3), `MLKEM768.Field.swift`
/// (arithmetic mod q, Compress/Decompress of §4.2.1), `MLKEM768.NTT.swift` (Algorithms 9-12),
/// `MLKEM768.Encoding.swift` (Algorithms 5-6, ByteEncode/ByteDecode), `MLKEM768.Sampling.swift`
/// (Algorithms 7-8 and the functions PRF, H, J, G, XOF of §4.1), `MLKEM768.KPKE.swift`
/// (K-PKE, Algorithms 13-15) and `MLKEM768.PublicKey.swift` / `MLKEM768.PrivateKey.swift`
/// (ML-KEM, Algorithms 16-21, with the input checks of §7.2 and §7.3).
///
/// Why it looks like this: coefficients are kept fully reduced in [0, q) as `UInt16` and worked
/// on as `UInt32` with Barrett reduction, so every operation is straight-line and no value ever
/// needs a "which representative" argument. Working polynomials live in stack scratch
/// (`withUnsafeTemporaryAllocation`), never in per-call heap arrays. Keys cache what every
/// operation would otherwise recompute: the public key its decoded t̂, the matrix Â
/// (SampleNTT is most of an encapsulation) and H(ek); the private key its decoded ŝ.
///
/// Timing: secret data (s, e, m, r, the decrypted message, the re-encryption comparison and the
/// implicit-rejection selection) only meets fixed-time arithmetic, masked selection and
/// full-length comparisons. SampleNTT's rejection loop depends on ρ alone, which is public.
public enum MLKEM768 {
    /// Encapsulation key ek: 384k + 32 bytes (FIPS 203 Table 3).
    public static let publicKeyByteCount = 1184
    /// Decapsulation key dk = dk_PKE ‖ ek ‖ H(ek) ‖ z: 768k + 96 bytes (Table 3).
    public static let expandedPrivateKeyByteCount = 2400
    /// The key-generation seed d ‖ z (Algorithm 16 inputs; the seed format of FIPS 203 §7.1).
    public static let seedByteCount = 64
    /// Ciphertext c: 32(du·k + dv) bytes (Table 3).
    public static let ciphertextByteCount = 1088
    public static let sharedSecretByteCount = 32
    /// The encapsulation randomness m of Algorithm 17.
    public static let encapsulationRandomnessByteCount = 32

    // FIPS 203 Table 2, the ML-KEM-768 column, and §2.4.
    static let n = 256
    static let q: UInt32 = 3329
    static let k = 3
    static let du = 10
    static let dv = 4
    /// η1 = η2 = 2: PRF outputs 64·η = 128 bytes.
    static let prfByteCount = 128

    /// ByteEncode12 of one polynomial.
    static let polyBytes12 = 384
    /// ByteEncode12 of a k-vector (t̂ in ek, ŝ in dk_PKE).
    static let vectorBytes12 = 1152
    /// c1 = ByteEncode_du(Compress_du(u)): 32·du·k bytes.
    static let c1Bytes = 960
}

/// The result of a key encapsulation: the shared secret and the ciphertext that carries it.
public struct KEMEncapsulationResult: Sendable, Hashable {
    /// The 32-byte shared secret K.
    public let sharedSecret: [UInt8]
    /// The ciphertext to send to the holder of the decapsulation key.
    public let ciphertext: [UInt8]

    public init(sharedSecret: [UInt8], ciphertext: [UInt8]) {
        self.sharedSecret = sharedSecret
        self.ciphertext = ciphertext
    }
}

/// ML-DSA-65 (FIPS 204, final, August 2024): module-lattice signatures at NIST security category 3.
///
/// Layout of this folder: `MLDSA65.swift` (parameters, Table 1 and 2), `MLDSA65.Field.swift`
/// (mod-q arithmetic, Power2Round/Decompose/hints), `MLDSA65.NTT.swift` (Algorithms 41-42),
/// `MLDSA65.Encoding.swift` (Algorithms 16-28), `MLDSA65.Sampling.swift` (Algorithms 29-34),
/// `MLDSA65.Algorithms.swift` (Algorithms 6-8, the internal key generation / signing /
/// verification), `MLDSA65.PrivateKey.swift` and `MLDSA65.PublicKey.swift` (Algorithms 1-3, the
/// public API) and `MLDSA65.PreHash.swift` (HashML-DSA, Algorithms 4-5, package-only).
///
/// Why it looks like this: polynomials are 256 `Int32` coefficients in flat buffers, one buffer
/// per vector or matrix, worked on through unsafe pointers so the hot loops (NTT, matrix
/// products, rejection sampling straight out of the SHAKE state) never allocate. Keys cache
/// their NTT-domain forms, including the expanded matrix Â, because ExpandA is most of the
/// cost of a verification.
public enum MLDSA65 {
    public static let publicKeyByteCount = 1952
    public static let privateKeyByteCount = 4032
    public static let signatureByteCount = 3309
    public static let seedByteCount = 32

    // FIPS 204 Table 1, the ML-DSA-65 column.
    /// The modulus q = 2^23 - 2^13 + 1.
    static let q: Int32 = 8_380_417
    /// Coefficients per polynomial.
    static let n = 256
    /// Bits dropped from t (Power2Round).
    static let d = 13
    /// Number of ±1 coefficients of the challenge c.
    static let tau = 49
    /// Collision strength λ of c̃; c̃ is λ/4 = 48 bytes.
    static let lambda = 192
    static let cTildeByteCount = 48
    /// Range of the masking vector y.
    static let gamma1: Int32 = 1 << 19
    /// Low-order rounding range, (q - 1) / 32.
    static let gamma2: Int32 = 261_888
    /// Rows (k) and columns (l) of A.
    static let k = 6
    static let l = 5
    /// Secret coefficient range.
    static let eta: Int32 = 4
    /// β = τ·η.
    static let beta: Int32 = 196
    /// Maximum number of 1s in the hint h.
    static let omega = 55

    // Derived byte sizes (FIPS 204 Table 2 and §7.2).
    /// A t1 polynomial: 10 bits per coefficient.
    static let t1PolyBytes = 320
    /// An s1/s2 polynomial: 4 bits per coefficient (η = 4).
    static let etaPolyBytes = 128
    /// A t0 polynomial: 13 bits per coefficient.
    static let t0PolyBytes = 416
    /// A z polynomial: 20 bits per coefficient (γ1 = 2^19).
    static let zPolyBytes = 640
    /// A w1 polynomial: 4 bits per coefficient ((q-1)/(2γ2) - 1 = 15).
    static let w1PolyBytes = 128
    /// tr = H(pk) is 64 bytes; ρ, K are 32; ρ' and μ are 64.
    static let trBytes = 64
    static let muBytes = 64
    static let rndBytes = 32

    /// Largest context string (FIPS 204 Algorithms 2-5, step 1).
    static let maxContextBytes = 255
}

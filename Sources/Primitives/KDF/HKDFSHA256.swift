/// HKDF with HMAC-SHA-256 (RFC 5869): extract-then-expand key derivation.
public enum HKDFSHA256 {
    /// HashLen of SHA-256 in bytes.
    public static let hashByteCount = 32
    /// The most output expand can produce: 255 · HashLen (RFC 5869 §2.3, "L <= 255*HashLen").
    public static let maximumOutputByteCount = 255 * 32

    /// HKDF-Extract (RFC 5869 §2.2): PRK = HMAC-Hash(salt, IKM).
    ///
    /// An empty salt stands for "not provided"; RFC 5869 then uses HashLen zero bytes, which HMAC
    /// zero-pads to the same block as the empty key, so no special case is needed.
    public static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(for: inputKeyMaterial, key: salt)
    }

    /// HKDF-Expand (RFC 5869 §2.3): T(i) = HMAC-Hash(PRK, T(i-1) ‖ info ‖ i), OKM = first L bytes
    /// of T(1) ‖ T(2) ‖ …
    ///
    /// Throws `.invalidLength` when the PRK is shorter than HashLen (§2.3 requires "at least HashLen
    /// octets") and `.invalidParameter` when `outputByteCount` is negative or above 255 · HashLen.
    /// The HMAC is keyed once and copied per block, since the PRK never changes.
    public static func expand(pseudoRandomKey: [UInt8], info: [UInt8], outputByteCount: Int) throws -> [UInt8] {
        guard pseudoRandomKey.count >= hashByteCount else {
            throw CryptoError(.invalidLength, "HKDF-Expand PRK must be at least 32 bytes, got \(pseudoRandomKey.count)")
        }
        guard outputByteCount >= 0, outputByteCount <= maximumOutputByteCount else {
            throw CryptoError(.invalidParameter, "HKDF-SHA256 output length must be 0...\(maximumOutputByteCount), got \(outputByteCount)")
        }
        let keyed = HMACSHA256(key: pseudoRandomKey)
        var okm = [UInt8]()
        okm.reserveCapacity(outputByteCount)
        var previous = [UInt8]()
        var counter: UInt8 = 1
        while okm.count < outputByteCount {
            var mac = keyed
            mac.update(previous)
            mac.update(info)
            mac.update(CollectionOfOne(counter))
            previous = mac.finalize()
            okm.append(contentsOf: previous.prefix(outputByteCount - okm.count))
            counter &+= 1  // at most 255 blocks are made, so the wrap after the last is never used
        }
        return okm
    }

    /// Extract then expand (RFC 5869 §2): the usual one-call form.
    public static func deriveKey(inputKeyMaterial: [UInt8], salt: [UInt8], info: [UInt8], outputByteCount: Int) throws -> [UInt8] {
        try expand(pseudoRandomKey: extract(salt: salt, inputKeyMaterial: inputKeyMaterial),
                   info: info, outputByteCount: outputByteCount)
    }
}

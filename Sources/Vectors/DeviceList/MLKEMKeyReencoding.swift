/// What Haven does to the ML-KEM-768 encapsulation key of a bundle it parses (SPEC.md §10.1,
/// [R10.1-7]): `HavenId::from_bytes` hands bytes 64–1247 to the `ml-kem` crate (0.2.3), whose
/// `EncapsulationKey::from_bytes` runs ByteDecode12 (FIPS 203 Algorithm 6), which reduces every
/// 12-bit coefficient mod q, and `HavenId::to_bytes` writes the key back with ByteEncode12
/// (Algorithm 5). Every byte Haven signs, writes or hands back as a bundle is therefore the key
/// with each coefficient taken mod q; ρ (the last 32 bytes) is copied unchanged.
///
/// Why here and not in `Primitives`: `MLKEM768.PublicKey` refuses a key that fails FIPS 203's
/// modulus check, as an encapsulator must; Haven neither refuses nor keeps such a key, it
/// rewrites it, and that rewrite is a property of Haven's bundle format, not of ML-KEM.
enum MLKEMKeyReencoding {
    static let q: UInt16 = 3329
    /// t̂: k = 3 polynomials of 256 coefficients, 12 bits each, 384 bytes per polynomial.
    static let tHatByteCount = 1152
    /// ek = ByteEncode12(t̂) ‖ ρ.
    static let keyByteCount = 1184

    /// The key as Haven writes it back: ByteEncode12(ByteDecode12(t̂ bytes)) ‖ ρ. Two coefficients
    /// share three bytes, little-endian: c0 = b0 | (b1 & 0x0f) << 8, c1 = b1 >> 4 | b2 << 4.
    /// A key whose coefficients are all below q comes back byte for byte.
    static func reencoded<C: Collection>(_ key: C) -> [UInt8] where C.Element == UInt8 {
        var out = Array(key)
        // Callers pass the 1,184-byte part of a bundle already checked to be 3,200 bytes; the bound
        // keeps any other length from trapping (only whole 3-byte groups of t̂ are rewritten).
        for i in stride(from: 0, to: min(out.count, tHatByteCount) / 3 * 3, by: 3) {
            let b0 = UInt16(out[i]), b1 = UInt16(out[i + 1]), b2 = UInt16(out[i + 2])
            let c0 = (b0 | (b1 & 0x0f) << 8) % q
            let c1 = (b1 >> 4 | b2 << 4) % q
            out[i] = UInt8(c0 & 0xff)
            out[i + 1] = UInt8(c0 >> 8 | (c1 & 0x0f) << 4)
            out[i + 2] = UInt8(c1 >> 4)
        }
        return out
    }

    /// Whether every coefficient is below q (FIPS 203 §7.2's modulus check), i.e. Haven's round
    /// trip leaves the key unchanged.
    static func isCanonical<C: Collection>(_ key: C) -> Bool where C.Element == UInt8 {
        reencoded(key).elementsEqual(key)
    }
}

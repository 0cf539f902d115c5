import Primitives

/// The `phone_id` a PhoneOwnershipCert binds (SPEC.md §8.1): 32 bytes,
/// `SHA-256("pixie-phone-id-v1" || 0x00 || E.164 number in ASCII)`.
///
/// Why a fixed-length hash rather than the number: the sibling's rung 4 and identity-svc's
/// directory key both compare it byte for byte, and a hash taken once, by phone-verify-svc, from
/// the normalised E.164 form leaves no second place where "+1 555…" and "1555…" could be
/// normalised differently. It is not a privacy measure — phone numbers are enumerable.
public enum PhoneID {
    public static let byteCount = 32
    public static let domain = "pixie-phone-id-v1"

    /// Derives the id from an E.164 number: `+`, then 1–15 ASCII digits, the first not `0`.
    public static func derive(e164: String) throws(WireError) -> [UInt8] {
        let u = Array(e164.utf8)
        guard u.count >= 2, u.count <= 16, u[0] == UInt8(ascii: "+"), u[1] != UInt8(ascii: "0"),
              u.dropFirst().allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            throw WireError(.inputBadValue, "\(e164) is not an E.164 number (+, then 1–15 digits, the first not 0)", field: "e164")
        }
        return SHA256.hash(Array(domain.utf8) + [0] + u).bytes
    }
}

import Primitives

/// The byte layout shared by the DiscoveryBox and the sealed-sender envelope (SPEC.md §14.3,
/// §14.7): a header, then the X-Wing ciphertext `enc`, then AES-256-GCM ciphertext ‖ tag.
///
///     kind (1) [‖ wake (1), envelope only] ‖ enc_len (2, big-endian, 1120) ‖ enc ‖ ct ‖ tag (16)
///
/// The header is the AAD. Reading goes in byte order and stops at the first problem.
struct BoxLayout {
    static let encLengthField: [UInt8] = [0x04, 0x60]  // 1120
    static let encByteCount = 1120

    var header: [UInt8]
    /// The wake byte (envelope only).
    var wake: UInt8?
    var enc: [UInt8]
    /// ciphertext ‖ tag, at least 16 bytes.
    var ciphertext: [UInt8]

    /// R14.3-3 and R14.7-5 (order): kind, (wake,) enc length, then the length of the rest.
    static func parse(_ b: [UInt8], kind: UInt8, hasWake: Bool) throws(WireError) -> BoxLayout {
        var at = 0
        guard b.count > at else { throw WireError(.envelopeTruncated, "empty", offset: 0) }
        guard b[at] == kind else {
            throw WireError(.envelopeWrongKind, "kind byte \(b[at]), expected \(kind)", offset: 0)
        }
        at += 1
        var wake: UInt8?
        if hasWake {
            guard b.count > at else { throw WireError(.envelopeTruncated, "no wake byte", offset: at) }
            guard b[at] <= 1 else { throw WireError(.envelopeBadWakeClass, "wake byte \(b[at]) is neither 00 nor 01", offset: at) }
            wake = b[at]
            at += 1
        }
        guard b.count >= at + 2 else { throw WireError(.envelopeTruncated, "no enc length", offset: at) }
        let encLen = Int(b[at]) << 8 | Int(b[at + 1])
        if encLen != encByteCount && !Mutant.on(.envelopeKEMLengthNotChecked) {
            throw WireError(.envelopeKEMCiphertextLength, "enc length \(encLen), X-Wing's is \(encByteCount)", offset: at)
        }
        at += 2
        let header = Array(b[0..<at])
        guard b.count >= at + encByteCount + AES256GCM.tagByteCount else {
            throw WireError(.envelopeTruncated, "\(b.count) bytes: the header, a 1120-byte enc and a 16-byte tag need \(at + encByteCount + 16)", offset: b.count)
        }
        return BoxLayout(header: header, wake: wake, enc: Array(b[at..<(at + encByteCount)]), ciphertext: Array(b[(at + encByteCount)...]))
    }
}

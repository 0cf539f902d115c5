import Primitives

/// The DiscoveryBox (SPEC.md §14.3): an HPKE single-shot seal to an X-Wing public key that needs
/// no account key, no channel key and no session. A new device seals its signin_request to the
/// account's discovery key; a sibling seals the signin_ack and signin_approval back to the new
/// device's own ephemeral key — the one channel that does not depend on the account seed it
/// carries (seed 000 §5).
///
///     box = 01 ‖ 04 60 ‖ enc (1120) ‖ AES-256-GCM(key, base_nonce, aad = 01 04 60, plaintext) ‖ tag
public enum DiscoveryBox {
    public static let kind: UInt8 = 0x01
    public static let header: [UInt8] = [kind] + BoxLayout.encLengthField
    public static let domain = "pixie-discovery-box-v1"
    /// The smallest box: header, enc and tag around an empty plaintext.
    public static let overhead = header.count + BoxLayout.encByteCount + AES256GCM.tagByteCount  // 1139

    /// Who seals to whom: `request` to the account's discovery key, `reply` to the requester's key.
    public enum Direction: String, Sendable, CaseIterable {
        case request
        case reply
    }

    /// info = "pixie-discovery-box-v1" ‖ 00 ‖ direction (ASCII).
    static func info(_ d: Direction) -> [UInt8] {
        if Mutant.on(.envelopeBoxInfoEmpty) { return [] }
        let dir = Mutant.on(.envelopeReplyUsesRequestInfo) ? Direction.request : d
        return Array(domain.utf8) + [0] + Array(dir.rawValue.utf8)
    }

    struct Sealed {
        var box: [UInt8]
        var hpke: HPKESeal.Sealed
    }

    static func seal(_ plaintext: [UInt8], to pk: [UInt8], direction: Direction, eseed: [UInt8]) throws(WireError) -> Sealed {
        let s = try HPKESeal.seal(recipient: pk, info: info(direction), aad: header, plaintext: plaintext, eseed: eseed)
        return Sealed(box: header + s.enc + s.ciphertext, hpke: s)
    }

    /// The box bytes alone (for callers outside this module, e.g. the benchmark).
    public static func sealedBytes(_ plaintext: [UInt8], to pk: [UInt8], direction: Direction, eseed: [UInt8]) throws(WireError) -> [UInt8] {
        try seal(plaintext, to: pk, direction: direction, eseed: eseed).box
    }

    /// The layout (byte order), then the AEAD: `envelope_open_failed` when the tag does not verify.
    public static func open(_ box: [UInt8], seed: [UInt8], direction: Direction) throws(WireError) -> [UInt8] {
        let l = try BoxLayout.parse(box, kind: kind, hasWake: false)
        guard let p = try HPKESeal.open(seed: seed, enc: l.enc, info: info(direction), aad: l.header, ciphertext: l.ciphertext) else {
            throw WireError(.envelopeOpenFailed, "the AES-256-GCM tag does not verify")
        }
        return p
    }
}

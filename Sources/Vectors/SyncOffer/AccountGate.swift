import Primitives

/// `isSameAccount` (SPEC.md §7.3): the one line that carries the trust,
/// `guard isSameAccount(senderUserIDHash) else { return }`, opening both the sibling's request
/// handler and the requester's offer handler.
///
/// The sender hash comes from the verified SenderCert, never from the payload. A device that does
/// not yet know its own hash refuses everything: an offer accepted from a stranger would install
/// attacker-chosen keys for every contact, dressed as a routine restore.
public enum AccountGate {
    public static let userIDHashByteCount = 32

    /// True only when the own hash is present and 32 bytes, and the sender's equals it.
    public static func isSameAccount(own: [UInt8]?, sender: [UInt8]) -> Bool {
        if Mutant.on(.syncGateAnyLength) { return own.map { ConstantTime.equal($0, sender) } ?? false }
        guard let own, own.count == userIDHashByteCount, sender.count == userIDHashByteCount else { return false }
        return ConstantTime.equal(own, sender)
    }
}

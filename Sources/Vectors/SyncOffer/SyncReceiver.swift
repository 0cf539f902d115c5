import Primitives

/// What the requester does with an offer and the bytes it downloaded (SPEC.md §7.6): a pure
/// function, so every ordering decision is a vector.
public enum SyncReceiver {
    public enum Result: String, Sendable {
        /// Imported; acked `ok: true`.
        case accepted
        /// Refused; acked `ok: false`.
        case refused
        /// Dropped without an answer (the account gate).
        case dropped
    }

    public struct Outcome: Sendable, Equatable {
        public var result: Result
        /// Nil when accepted.
        public var reason: ErrorCode?
        /// The ack the receiver sends; nil when dropped.
        public var ack: SyncAck?
        /// The decoded snapshot; only when accepted.
        public var snapshot: SyncSnapshot?
    }

    /// The steps of SPEC.md §7.6, in order. The offer is decoded only after the gate, so nothing a
    /// stranger sends is parsed; a same-account offer that does not decode throws its code.
    public static func receive(offer offerBytes: [UInt8], requestID: [UInt8], blob: [UInt8],
                               ownUserIDHash: [UInt8]?, senderUserIDHash: [UInt8],
                               maxBlobBytes: UInt64 = SyncBlob.syncMaxBlobBytes) throws(WireError) -> Outcome {
        // 1. Account gate: silent.
        guard Mutant.on(.syncSkipOfferGate) || AccountGate.isSameAccount(own: ownUserIDHash, sender: senderUserIDHash) else {
            return Outcome(result: .dropped, reason: .syncNotSameAccount, ack: nil, snapshot: nil)
        }
        // 2. The offer itself.
        let offer = try SyncOffer.decode(offerBytes)
        func refuse(_ code: ErrorCode) -> Outcome {
            Outcome(result: .refused, reason: code, ack: SyncAck(requestID: requestID, ok: false), snapshot: nil)
        }
        // 3–6. Lengths, before a byte is hashed: the promise, what arrived, the two against each
        // other, and room for a tag.
        if !Mutant.on(.syncNoCap) {
            if offer.sizeBytes > maxBlobBytes { return refuse(.syncBlobOverCap) }
            if UInt64(blob.count) > maxBlobBytes { return refuse(.syncBlobOverCap) }
        }
        if !Mutant.on(.syncIgnoreSizeBytes), UInt64(blob.count) != offer.sizeBytes { return refuse(.syncSizeMismatch) }
        if blob.count < AES256GCM.tagByteCount { return refuse(.syncBlobTooShort) }
        if Mutant.on(.syncDecryptBeforeHash), SyncBlob.open(blob, key: offer.key, nonce: offer.nonce) == nil { return refuse(.syncAuthFailed) }
        // 7. The hash that came by the authenticated road, before any decryption.
        if SHA256.hash(blob).bytes != offer.sha256 { return refuse(.syncHashMismatch) }
        // 8. Open.
        guard let plaintext = SyncBlob.open(blob, key: offer.key, nonce: offer.nonce) else { return refuse(.syncAuthFailed) }
        // 9. Decode.
        guard let snapshot = try? SyncSnapshot.decode(plaintext) else { return refuse(.syncPayloadInvalid) }
        return Outcome(result: .accepted, reason: nil, ack: SyncAck(requestID: requestID, ok: true), snapshot: snapshot)
    }
}

/// The snapshot-sync payloads of §7 in sealed-sender envelopes (SPEC.md §14.9): open the envelope
/// (§14.7), check it carries the payload type this handler takes, then run §7's handler with the
/// sender's user-id hash from the SenderCert — the only place identity comes from.
enum SealedSync {
    static func open(_ env: [UInt8], expecting type: SyncPayloadType, seed: [UInt8], credentialKey: CredentialKey, now: UInt64,
                     holder: ChannelKeys.Holder) throws(WireError) -> SealedSenderEnvelope.Opened {
        let o = try SealedSenderEnvelope.open(env, seed: seed, credentialKey: credentialKey, now: now, holder: holder)
        guard Array(o.payloadType.utf8) == Array(type.rawValue.utf8) else {
            throw WireError(.envelopeUnexpectedPayloadType, "this handler takes \(type.rawValue), the envelope carries \(o.payloadType)")
        }
        return o
    }

    /// The sibling's `handleRequest`: §7.3's gate on the SenderCert's hash, then the request.
    static func receiveRequest(_ o: SealedSenderEnvelope.Opened, holder: ChannelKeys.Holder) throws(WireError)
        -> (result: SiblingRequestHandler.Result, request: SyncRequest?) {
        try SiblingRequestHandler.handle(request: o.payload, ownUserIDHash: holder.ownUserIDHash, senderUserIDHash: o.senderUserIDHash)
    }

    /// The new device's `handleOffer`: §7.6 with the SenderCert's hash as the sender.
    static func receiveOffer(_ o: SealedSenderEnvelope.Opened, holder: ChannelKeys.Holder, requestID: [UInt8], blob: [UInt8],
                             maxBlobBytes: UInt64) throws(WireError) -> SyncReceiver.Outcome {
        try SyncReceiver.receive(offer: o.payload, requestID: requestID, blob: blob, ownUserIDHash: holder.ownUserIDHash,
                                 senderUserIDHash: o.senderUserIDHash, maxBlobBytes: maxBlobBytes)
    }

    /// The sibling's `handleAck`: informational, no gate (seed 000 §8 names the request and offer
    /// handlers only); the ack is decoded.
    static func receiveAck(_ o: SealedSenderEnvelope.Opened) throws(WireError) -> SyncAck {
        try SyncAck.decode(o.payload)
    }
}

import Primitives

/// The sealed-sender envelope every frame between devices travels in (SPEC.md §14.7). The outside
/// carries no sender: only the kind, the wake class the relay acts on, and the HPKE ciphertext.
/// Who sent it comes out of the SenderCert inside, verified against the pinned credential-service
/// key, and the MAC under the channel key proves the sender holds that channel's key.
///
///     envelope = 02 ‖ wake (00 silent | 01 sync) ‖ 04 60 ‖ enc (1120) ‖ AES-256-GCM(aad = the 4 header bytes) ‖ tag
public enum SealedSenderEnvelope {
    public static let kind: UInt8 = 0x02
    public static let domain = "pixie-sealed-sender-v1"
    public static let overhead = 4 + BoxLayout.encByteCount + AES256GCM.tagByteCount  // 1140

    static var info: [UInt8] { Mutant.on(.envelopeBoxInfoEmpty) ? [] : Array(domain.utf8) }

    static func header(_ wake: ResendSchedule.WakeClass) -> [UInt8] { [kind, PayloadWakeClass.byte(wake)] + BoxLayout.encLengthField }

    struct Sealed {
        var envelope: [UInt8]
        var wake: ResendSchedule.WakeClass
        var channel: ChannelKeys.Channel?
        var channelKey: [UInt8]?
        var inner: EnvelopeInner
        var hpke: HPKESeal.Sealed
    }

    /// R14.7-3 (order): the channel key for the recipient's account (none: `envelope_no_channel_key`
    /// or `envelope_unknown_account`, nothing is sealed), the payload type's length, then the
    /// recipient key (`envelope_bad_recipient_key`).
    static func seal(payloadType: String, payload: [UInt8], senderCert: [UInt8], to pk: [UInt8], recipientUserIDHash: [UInt8],
                     holder: ChannelKeys.Holder, eseed: [UInt8]) throws(WireError) -> Sealed {
        var resolved: (ChannelKeys.Channel, [UInt8])?
        do throws(WireError) { resolved = try ChannelKeys.resolve(recipientUserIDHash, holder: holder) } catch {
            if !Mutant.on(.envelopeMACSkippedWithoutKey) { throw error }
        }
        guard EnvelopeInner.payloadTypeUTF8Length.contains(payloadType.utf8.count) else {
            throw WireError(.envelopeBadLength, "payload_type must be 1–64 UTF-8 bytes", field: "payload_type")
        }
        let mac = resolved.map { EnvelopeInner.mac(key: $0.1, payloadType: payloadType, payload: payload, senderCert: senderCert) }
        let inner = EnvelopeInner(payloadType: payloadType, payload: payload, senderCert: senderCert, mac: mac)
        let wake = PayloadWakeClass.of(payloadType)
        let h = header(wake)
        let s = try HPKESeal.seal(recipient: pk, info: info, aad: h, plaintext: inner.encoded, eseed: eseed)
        return Sealed(envelope: h + s.enc + s.ciphertext, wake: wake, channel: resolved?.0, channelKey: resolved?.1, inner: inner, hpke: s)
    }

    public struct Opened: Sendable {
        public var sender: SenderCert
        /// Whose account the receiver takes the sender to be: the SenderCert's user-id hash.
        public var senderUserIDHash: [UInt8]
        public var channel: ChannelKeys.Channel
        public var payloadType: String
        public var payload: [UInt8]
        public var wake: ResendSchedule.WakeClass
    }

    /// R14.7-4 (order): layout, AEAD, inner plaintext, SenderCert, channel key, MAC, wake class.
    public static func open(_ env: [UInt8], seed: [UInt8], credentialKey: CredentialKey, now: UInt64,
                            holder: ChannelKeys.Holder) throws(WireError) -> Opened {
        let l = try BoxLayout.parse(env, kind: kind, hasWake: true)
        guard let plain = try HPKESeal.open(seed: seed, enc: l.enc, info: info, aad: l.header, ciphertext: l.ciphertext) else {
            throw WireError(.envelopeOpenFailed, "the AES-256-GCM tag does not verify")
        }
        let inner = try EnvelopeInner.decode(plain)
        let cert = try SenderCert.verify(inner.senderCert, key: credentialKey, now: now)
        let identity = Mutant.on(.envelopeIdentityFromAddressing) ? (holder.ownUserIDHash ?? cert.userIDHash) : cert.userIDHash
        var channel = ChannelKeys.Channel.sibling
        do throws(WireError) {
            let (c, key) = try ChannelKeys.resolve(cert.userIDHash, holder: holder, assumeSameAccount: Mutant.on(.envelopeIdentityFromAddressing))
            channel = c
            let expected = EnvelopeInner.mac(key: key, payloadType: inner.payloadType, payload: inner.payload, senderCert: inner.senderCert)
            if inner.mac == nil { throw WireError(.envelopeMACMissing, "the inner plaintext carries no mac", field: "mac") }
            guard inner.macMatches(expected) else { throw WireError(.envelopeMACInvalid, "the MAC does not verify under the \(c.rawValue) channel key") }
        } catch {
            guard Mutant.on(.envelopeMACSkippedWithoutKey), error.code == .envelopeNoChannelKey || error.code == .envelopeUnknownAccount else { throw error }
        }
        let wake = PayloadWakeClass.from(byte: l.wake ?? 0)
        if !Mutant.on(.envelopeWakeNotChecked), wake != PayloadWakeClass.of(inner.payloadType) {
            throw WireError(.envelopeWrongWakeClass, "the header says \(wake.rawValue), \(inner.payloadType) is \(PayloadWakeClass.of(inner.payloadType).rawValue)")
        }
        return Opened(sender: cert, senderUserIDHash: identity, channel: channel, payloadType: inner.payloadType, payload: inner.payload, wake: wake)
    }
}

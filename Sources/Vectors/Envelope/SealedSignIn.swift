import Primitives

/// The sign-in messages of §8 in DiscoveryBoxes (SPEC.md §14.4): the request sealed to the
/// account's discovery key, the ack and the approval sealed back to the requester's own X-Wing
/// key, and what each side decides from the sealed bytes.
enum SealedSignIn {
    /// The new device: the §8.4 encoding, sealed in the request direction.
    static func sealRequest(_ r: SignInRequest, to discoveryKey: [UInt8], eseed: [UInt8]) throws(WireError) -> DiscoveryBox.Sealed {
        try DiscoveryBox.seal(r.encoded, to: discoveryKey, direction: .request, eseed: eseed)
    }

    /// The sibling: open with the discovery key, then the §8.6 ladder on the plaintext. A box
    /// that does not open is rejected with its §14.3 code before any rung runs.
    static func openRequest(_ box: [UInt8], discoverySeed: [UInt8], pinnedKey: PhoneVerifyKey.PublicKey?, ownCert: [UInt8]?,
                            now: UInt64) throws(WireError) -> SignInLadder.Verdict {
        let plain = try DiscoveryBox.open(box, seed: discoverySeed, direction: .request)
        return SignInLadder.run(request: plain, pinnedKey: pinnedKey, ownCert: ownCert, now: now)
    }

    /// The sibling: an ack or an approval encoding, sealed in the reply direction to the
    /// request's `xwing_pubkey`.
    static func sealReply(_ encoded: [UInt8], to requesterKey: [UInt8], eseed: [UInt8]) throws(WireError) -> DiscoveryBox.Sealed {
        try DiscoveryBox.seal(encoded, to: requesterKey, direction: .reply, eseed: eseed)
    }

    enum Reply {
        case ack(SignInAck)
        /// `admits` nil when it admits; then the device adopts the seed and derives its sibling
        /// channel key before it surfaces the grant.
        case approval(SignInApproval, refusal: ErrorCode?, channelKey: [UInt8]?)
    }

    /// The new device: open with its ephemeral key; a plaintext whose `type` is `signin_ack` is
    /// an ack (§8.7), anything else is decoded as an approval (§8.8) and judged at `now`.
    static func openReply(_ box: [UInt8], requesterSeed: [UInt8], now: UInt64) throws(WireError) -> Reply {
        let plain = try DiscoveryBox.open(box, seed: requesterSeed, direction: .reply)
        if case .map(let entries)? = try? CBORReader.decode(plain),
           entries.contains(where: { $0.key == .text("type") && $0.value == .text(SignInPayloadType.signinAck.rawValue) }) {
            return .ack(try SignInAck.decode(plain))
        }
        let approval = try SignInApproval.decode(plain)
        let refusal = approval.admits(now: now)
        let key = refusal == nil ? approval.approved.map { ChannelKeys.siblingChannelKey(accountSeed: $0.accountSeed) } : nil
        return .approval(approval, refusal: refusal, channelKey: key)
    }
}

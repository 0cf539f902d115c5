import Primitives

/// The sign-in messages of §8 sealed and opened (SPEC.md §14.4): from the new device's sealed
/// request to the sibling's ladder verdict, and from the sibling's sealed ack and approval to the
/// new device's admission, seed adoption and sibling channel key.
extension EnvelopeVectors {
    static func requestTree(_ r: SignInRequest) -> CBOR {
        .object([("device_model", .text(r.deviceModel)), ("reply_subject", .bytes(r.replySubject)), ("xwing_pubkey", .bytes(r.xwingPublicKey)),
                 ("timestamp_s", .unsigned(r.timestamp)), ("cert", .bytes(r.cert))])
    }

    static func signInCases(_ b: inout Builder, _ f: EnvelopeFixtures) throws {
        let s = f.signIn
        // The new device's request carries its real ephemeral X-Wing key, so the replies can be opened.
        func request(cert: [UInt8], timestamp: UInt64) throws -> SignInRequest {
            try SignInRequest(deviceModel: s.deviceModel, replySubject: s.replySubject, xwingPublicKey: f.newDevice.pub, timestamp: timestamp, cert: cert)
        }
        func sealRequest(_ name: String, _ comment: String, _ r: SignInRequest, to pk: [UInt8]? = nil, rules: [String] = ["14.4-1", "14.3-1"]) throws -> [UInt8] {
            let out = try b.ok("signin_request_seal", name, comment, rules: rules,
                               input: .object([("discovery_pubkey", .bytes(pk ?? f.discovery.pub)), ("request", requestTree(r)), ("eseed", .bytes(b.eseed()))])) {
                $0["encoded"] == .bytes(r.encoded)
            }
            guard case .bytes(let box)? = out["box"] else { throw StateDigestVectors.GeneratorCheckFailed(description: "no box") }
            return box
        }
        func openInput(_ box: [UInt8], seed: [UInt8]? = nil, pinned: [UInt8]? = nil, own: [UInt8]?? = nil, now: UInt64? = nil) -> CBOR {
            let ownCert: [UInt8]? = own ?? s.ownCert.encoded
            return .object([("box", .bytes(box)), ("discovery_seed", .bytes(seed ?? f.discovery.seed)), ("pinned_key", .bytes(pinned ?? s.pinned)),
                            ("own_cert", ownCert.map { .bytes($0) } ?? .null), ("now_s", .unsigned(now ?? s.now))])
        }
        func verdict(_ v: SignInLadder.Verdict) -> CBOR { SignInOutput.verdict(v) }

        let good = try request(cert: s.requestCert.encoded, timestamp: s.now)
        let box = try sealRequest("pipeline/valid", "the new device's request, sealed to the discovery key (§8.4 encoding in a request-direction box)", good)
        try b.ok("signin_request_open", "pipeline/accept", "the sibling opens the box and every rung passes", rules: ["14.4-2", "14.3-2"], input: openInput(box)) {
            $0 == verdict(.accept(good, phoneID: s.ownPhoneID))
        }
        // Rungs reached through the sealed bytes.
        let drops: [(String, SignInRequest, String, Int, ErrorCode)] = [
            ("rung2-other-key", try request(cert: try s.requestCert(signature: s.otherSignature).encoded, timestamp: s.now),
             "a certificate signed by another key, sealed correctly", 2, .signinCertBothInvalid),
            ("rung4-other-number", try request(cert: s.requestCertOtherNumber.encoded, timestamp: s.now),
             "a genuine certificate for another number: the prompt a stranger must not raise", 4, .signinPhoneIDMismatch),
            ("rung5-121-seconds-old", try request(cert: s.requestCert.encoded, timestamp: s.now - 121), "a request 121 s old", 5, .signinTimestampTooOld),
        ]
        for (name, r, comment, rung, reason) in drops {
            let bx = try sealRequest("pipeline/\(name)", comment + ": sealed", r)
            try b.ok("signin_request_open", "pipeline/\(name)", comment + ": opened, then dropped at rung \(rung)", rules: ["14.4-2"], input: openInput(bx)) {
                $0 == verdict(.drop(rung: rung, reason: reason))
            }
        }
        // A sealed payload that is not a signin_request: rung 1 reports the decoder's code.
        let ackBytes = try SignInAck(deviceFamily: "iPhone").encoded
        let ackInRequestBox = try DiscoveryBox.seal(ackBytes, to: f.discovery.pub, direction: .request, eseed: b.eseed()).box
        try b.ok("signin_request_open", "pipeline/rung1-ack-in-request-box", "a signin_ack sealed in a request box opens, and rung 1 drops it as the wrong payload type",
                 rules: ["14.4-2"], input: openInput(ackInRequestBox)) { $0 == verdict(.drop(rung: 1, reason: .signinWrongPayloadType)) }
        // Boxes that never reach the ladder.
        try b.reject("signin_request_open", "pipeline/sealed-to-another-key", "a request sealed to a stranger's key: the discovery key cannot open it",
                     rules: ["14.4-2", "14.3-5"], input: openInput(try sealRequest("pipeline/to-stranger", "a request sealed to a stranger's X-Wing key", good, to: f.stranger.pub)),
                     .envelopeOpenFailed)
        let replyDir = try DiscoveryBox.seal(good.encoded, to: f.discovery.pub, direction: .reply, eseed: b.eseed()).box
        try b.reject("signin_request_open", "pipeline/reply-direction-box", "the request sealed in the reply direction: the request direction's info does not open it",
                     rules: ["14.4-2", "14.3-2"], input: openInput(replyDir), .envelopeOpenFailed)
        try b.reject("signin_request_open", "pipeline/truncated-box", "the sealed request cut to 1,000 bytes", rules: ["14.4-2", "14.3-3"],
                     input: openInput(Array(box.prefix(1000))), .envelopeTruncated)
        try b.reject("signin_request_open", "order/box-before-pinned-key", "a box that does not open, and no pinned key: the box is judged first (rung 2 never runs)",
                     rules: ["14.4-2"], flags: ["two-faults"],
                     input: .object([("box", .bytes(replyDir)), ("discovery_seed", .bytes(f.discovery.seed)), ("pinned_key", .null),
                                     ("own_cert", .bytes(s.ownCert.encoded)), ("now_s", .unsigned(s.now))]), .envelopeOpenFailed)

        // The replies, sealed to the request's xwing_pubkey and opened by the new device.
        func replyOpen(_ bx: [UInt8], seed: [UInt8]? = nil, now: UInt64) -> CBOR {
            .object([("box", .bytes(bx)), ("requester_seed", .bytes(seed ?? f.newDevice.seed)), ("now_s", .unsigned(now))])
        }
        let ackOut = try b.ok("signin_ack_seal", "pipeline/iphone", "the sibling's ack (device family iPhone), sealed to the requester's key in the reply direction",
                              rules: ["14.4-3", "14.3-2"],
                              input: .object([("requester_pubkey", .bytes(f.newDevice.pub)), ("device_family", .text("iPhone")), ("eseed", .bytes(b.eseed()))])) {
            $0["encoded"] == .bytes(ackBytes)
        }
        guard case .bytes(let ackBox)? = ackOut["box"] else { return }
        try b.ok("signin_reply_open", "pipeline/ack", "the new device opens the ack: it can now show Approve on your iPhone", rules: ["14.4-4"],
                 input: replyOpen(ackBox, now: s.now)) { $0["type"] == .text("signin_ack") && $0["device_family"] == .text("iPhone") }
        try b.reject("signin_reply_open", "pipeline/ack-opened-with-discovery-key", "the reply opened with the discovery key instead of the requester's",
                     rules: ["14.4-3", "14.3-5"], input: replyOpen(ackBox, seed: f.discovery.seed, now: s.now), .envelopeOpenFailed)

        let token = b.bytes(32)
        let minted = s.now
        let approve = CBOR.object([("requester_pubkey", .bytes(f.newDevice.pub)),
                                   ("grant", .object([("token", .bytes(token)), ("expires_at_s", .unsigned(minted + 180))])),
                                   ("account_seed", .bytes(f.accountSeed)), ("kt_handle", .bytes(f.hashA)), ("eseed", .bytes(b.eseed()))])
        let apOut = try b.ok("signin_approval_seal", "pipeline/approve", "Approve: grant, account seed and KT handle sealed to the requester's ephemeral key",
                             rules: ["14.4-3", "14.10-3"], input: approve)
        guard case .bytes(let apBox)? = apOut["box"] else { return }
        try b.ok("signin_reply_open", "pipeline/approve-admits", "the approval admits at the minting second; the seed is adopted and the sibling channel key derived before the grant surfaces",
                 rules: ["14.4-4", "14.4-5", "14.5-1"], input: replyOpen(apBox, now: minted)) {
            $0["admits"] == .bool(true) && $0["account_seed"] == .bytes(f.accountSeed) && $0["channel_key"] == .bytes(f.siblingKey) && $0["reason"] == .null
        }
        try b.ok("signin_reply_open", "pipeline/approve-last-second", "179 s after minting: still admits", rules: ["14.4-4", "14.4-5"],
                 input: replyOpen(apBox, now: minted + 179)) { $0["admits"] == .bool(true) }
        try b.ok("signin_reply_open", "pipeline/approve-expired", "at the grant's expiry: no admission, no seed, no channel key", rules: ["14.4-4", "14.4-5"],
                 input: replyOpen(apBox, now: minted + 180)) {
            $0["admits"] == .bool(false) && $0["reason"] == .text(ErrorCode.signinGrantExpired.rawValue) && $0["channel_key"] == .null && $0["account_seed"] == .null
        }
        let reject = CBOR.object([("requester_pubkey", .bytes(f.newDevice.pub)), ("grant", .null), ("account_seed", .null), ("kt_handle", .null),
                                  ("eseed", .bytes(b.eseed()))])
        let rjOut = try b.ok("signin_approval_seal", "pipeline/reject", "Reject: an approval with no grant, sealed back all the same", rules: ["14.4-3"], input: reject) {
            $0["encoded"] == .bytes(SignInApproval(approved: nil).encoded)
        }
        guard case .bytes(let rjBox)? = rjOut["box"] else { return }
        try b.ok("signin_reply_open", "pipeline/reject-never-admits", "the refusal opens and never admits: no seed, no channel key", rules: ["14.4-4", "14.4-5"],
                 input: replyOpen(rjBox, now: minted)) {
            $0["admits"] == .bool(false) && $0["reason"] == .text(ErrorCode.signinApprovalRejected.rawValue) && $0["channel_key"] == .null
        }
        try b.reject("signin_approval_seal", "input/partial", "a grant and a seed without a KT handle: §8.8's all-or-none rule, before sealing",
                     rules: ["14.10-3"], input: .object([("requester_pubkey", .bytes(f.newDevice.pub)),
                                                         ("grant", .object([("token", .bytes(token)), ("expires_at_s", .unsigned(minted + 180))])),
                                                         ("account_seed", .bytes(f.accountSeed)), ("kt_handle", .null), ("eseed", .bytes(b.eseed()))]),
                     .signinApprovalPartial)
        try b.reject("signin_ack_seal", "input/empty-family", "an empty device family: §8.7's length rule, before sealing", rules: ["14.10-3"],
                     input: .object([("requester_pubkey", .bytes(f.newDevice.pub)), ("device_family", .text("")), ("eseed", .bytes(b.eseed()))]),
                     .signinBadLength)
        try b.reject("signin_request_seal", "input/reply-subject-31-bytes", "a 31-byte reply subject: §8.4's rule, before sealing", rules: ["14.10-3"],
                     input: .object([("discovery_pubkey", .bytes(f.discovery.pub)),
                                     ("request", requestTree(try SignInRequest(deviceModel: s.deviceModel, replySubject: s.replySubject, xwingPublicKey: f.newDevice.pub,
                                                                               timestamp: s.now, cert: s.requestCert.encoded))
                                        .replacingMember("reply_subject", .bytes(Array(s.replySubject.dropLast())))),
                                     ("eseed", .bytes(b.eseed()))]), .signinBadLength)
        // A reply plaintext that is neither: decoded as an approval, so its code is the approval's.
        let requestInReply = try DiscoveryBox.seal(good.encoded, to: f.newDevice.pub, direction: .reply, eseed: b.eseed()).box
        try b.reject("signin_reply_open", "pipeline/request-in-reply-box", "a signin_request sealed in a reply box: decoded as an approval, signin_wrong_payload_type",
                     rules: ["14.4-4"], input: replyOpen(requestInReply, now: s.now), .signinWrongPayloadType)
        let garbage = try DiscoveryBox.seal([0xff], to: f.newDevice.pub, direction: .reply, eseed: b.eseed()).box
        try b.reject("signin_reply_open", "pipeline/garbage-in-reply-box", "one byte ff sealed in a reply box: not CBOR", rules: ["14.4-4"],
                     input: replyOpen(garbage, now: s.now), .cborReservedInfo)
        // An approval box sealed to the requester's key but in the request direction.
        let apWrongDir = try DiscoveryBox.seal(SignInApproval(approved: nil).encoded, to: f.newDevice.pub, direction: .request, eseed: b.eseed()).box
        try b.reject("signin_reply_open", "pipeline/approval-in-request-direction", "an approval sealed with the request direction's info: the reply direction does not open it",
                     rules: ["14.3-2", "14.4-3"], input: replyOpen(apWrongDir, now: s.now), .envelopeOpenFailed)

        // Added after the first release: each draws its eseed from its own label, not from the
        // shared stream, so every earlier case keeps its bytes (SPEC §2.1).
        // R14.10-3: a member inside the §8 message an op encodes is §8's to judge, fixed length or not:
        // a 1,215-byte request.xwing_pubkey or a 31-byte approval account_seed is signin_bad_length, not
        // the input_bad_length R14.10-2 gives the op's own keys and seeds (requester_pubkey, eseed).
        let request = requestTree(try SignInRequest(deviceModel: s.deviceModel, replySubject: s.replySubject, xwingPublicKey: f.newDevice.pub,
                                                    timestamp: s.now, cert: s.requestCert.encoded))
        try b.reject("signin_request_seal", "input/request-xwing-pubkey-1215-bytes",
                     "a 1,215-byte request.xwing_pubkey: §8.4's signin_bad_length (a message member), not input_bad_length",
                     rules: ["14.10-3", "14.10-2"],
                     input: .object([("discovery_pubkey", .bytes(f.discovery.pub)),
                                     ("request", request.replacingMember("xwing_pubkey", .bytes(Array(f.newDevice.pub.dropLast())))),
                                     ("eseed", .bytes(Builder.eseed(labelled: "request-seal-input")))]), .signinBadLength)
        try b.reject("signin_request_seal", "input/request-device-model-65-bytes", "a 65-byte request.device_model: §8.4's signin_bad_length",
                     rules: ["14.10-3"],
                     input: .object([("discovery_pubkey", .bytes(f.discovery.pub)),
                                     ("request", request.replacingMember("device_model", .text(String(repeating: "m", count: 65)))),
                                     ("eseed", .bytes(Builder.eseed(labelled: "request-seal-input")))]), .signinBadLength)
        let approval: (CBOR, CBOR) -> CBOR = { seed, kt in
            .object([("requester_pubkey", .bytes(f.newDevice.pub)),
                     ("grant", .object([("token", .bytes(token)), ("expires_at_s", .unsigned(minted + 180))])),
                     ("account_seed", seed), ("kt_handle", kt), ("eseed", .bytes(Builder.eseed(labelled: "approval-seal-input")))])
        }
        try b.reject("signin_approval_seal", "input/account-seed-31-bytes",
                     "a 31-byte account_seed in the approval: §8.8's signin_bad_length (a message member), not input_bad_length",
                     rules: ["14.10-3", "14.10-2"], input: approval(.bytes(Array(f.accountSeed.dropLast())), .bytes(f.hashA)), .signinBadLength)
        try b.reject("signin_approval_seal", "input/kt-handle-33-bytes", "a 33-byte kt_handle in the approval: §8.8's signin_bad_length",
                     rules: ["14.10-3"], input: approval(.bytes(f.accountSeed), .bytes(f.hashA + [0])), .signinBadLength)
        // §14.4's dispatch reads the `type` member only: an ack-tagged map §8.7 rejects keeps §8.7's
        // code (a reader that falls back to the approval decoder answers signin_wrong_payload_type),
        // and a `type` that is not text is not the tag (a reader that compares bytes opens an ack).
        let ackTag: (String, CBOR) = ("type", .text(SignInPayloadType.signinAck.rawValue))
        let dispatch: [(String, String, CBOR, ErrorCode)] = [
            ("ack-with-unknown-member", "an ack-tagged map with a third member: §8.7's signin_unknown_field, not an approval's wrong type",
             .object([ackTag, ("device_family", .text("iPhone")), ("color", .text("red"))]), .signinUnknownField),
            ("ack-without-device-family", "an ack-tagged map with no device_family: §8.7's signin_missing_field, not an approval's wrong type",
             .object([ackTag]), .signinMissingField),
            ("ack-device-family-33-bytes", "an ack whose device_family is 33 bytes: §8.7's signin_bad_length",
             .object([ackTag, ("device_family", .text(String(repeating: "i", count: 33)))]), .signinBadLength),
            ("type-bytes-signin-ack", "type is the byte string signin_ack, not the text: decoded as an approval, signin_bad_type",
             .object([("type", .bytes(Array(SignInPayloadType.signinAck.rawValue.utf8))), ("device_family", .text("iPhone"))]), .signinBadType),
        ]
        for (name, comment, tree, code) in dispatch {
            let box = try DiscoveryBox.seal(CBORWriter.encode(tree), to: f.newDevice.pub, direction: .reply, eseed: Builder.eseed(labelled: "reply-dispatch-" + name)).box
            try b.reject("signin_reply_open", "dispatch/\(name)", comment, rules: ["14.4-4"], input: replyOpen(box, now: s.now), code)
        }
    }
}

extension CBOR {
    /// The map with member `name` set to `value`.
    func replacingMember(_ name: String, _ value: CBOR?) -> CBOR { MalformedEncodings.replacing(self, name, with: value) }
}

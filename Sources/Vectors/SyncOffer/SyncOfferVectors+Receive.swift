import Primitives

/// `seal`, `receive` and `handle_request`: the blob of SPEC.md §7.5, the receiver procedure of
/// §7.6 (every neighbouring pair of steps pinned by an input that fails both), the gate of §7.3,
/// and their op inputs (§7.9).
extension SyncOfferVectors {
    /// Receive's two-fault cases and the accepted case each is with its faults taken out.
    static let twoFaultNeighbours: [(case: String, neighbour: String)] = [
        // The wrong key and a sealed non-snapshot: valid/empty-snapshot is the right key and a
        // sealed snapshot of the same size, so the key byte and the blob split into the two faults.
        ("sync_offer/receive/order/open-before-payload", "sync_offer/receive/valid/empty-snapshot"),
    ]

    // MARK: seal

    static func sealInput(_ s: SyncSnapshot, key: CBOR, nonce: CBOR, blobID: CBOR) -> CBOR {
        .object([("snapshot", s.tree), ("key", key), ("nonce", nonce), ("blob_id", blobID)])
    }

    static func sealCases(_ b: inout Builder, _ f: Fixture) throws {
        func sealed(_ s: SyncSnapshot) throws -> CBOR {
            let blob = try SyncBlob.seal(s.encoded, key: f.key, nonce: f.nonce)
            return SyncOfferOutput.sealed(plaintext: s.encoded, blob: blob, offer: SyncBlob.offer(for: blob, blobID: f.blobID, key: f.key, nonce: f.nonce))
        }
        try check(f.blob.count == f.plaintext.count + 16, "ciphertext || tag layout")
        try check(SyncBlob.open(f.blob, key: f.key, nonce: f.nonce) == f.plaintext, "seal/open")
        let key = CBOR.bytes(f.key), nonce = CBOR.bytes(f.nonce), blobID = CBOR.bytes(f.blobID)
        try b.add("valid/typical", "seal", "the typical snapshot under a seeded key and nonce: blob = ciphertext || tag, offer names its hash and size",
                  rules: ["R7.5-1", "R7.5-2", "R9.4-1"], input: sealInput(f.snapshot, key: key, nonce: nonce, blobID: blobID), expected: .output(try sealed(f.snapshot)))
        let empty = try SyncSnapshot([:])
        try b.add("valid/empty", "seal", "the empty snapshot (22 bytes of plaintext, 38 of blob)",
                  rules: ["R7.5-1", "R7.5-2"], input: sealInput(empty, key: key, nonce: nonce, blobID: blobID), expected: .output(try sealed(empty)))
        try b.add("seed/full", "seal", "the seed-shaped snapshot (contact keys, provider keys, per-device fields): sealed whole, as the sibling exported it",
                  rules: ["R7.5-1", "R7.5-2", "R7.4-3"], input: sealInput(f.seedSnapshot, key: key, nonce: nonce, blobID: blobID), expected: .output(try sealed(f.seedSnapshot)))
        try b.add("hex/key-uppercase", "seal", "key, nonce and blob_id in uppercase hex: the same blob and offer (the offer's hex is lowercase)",
                  rules: ["R7.9-4", "R2.2-4", "R2-2"], input: sealInput(f.snapshot, key: upperHex(f.key), nonce: upperHex(f.nonce), blobID: upperHex(f.blobID)),
                  expected: .output(try sealed(f.snapshot)))
        try b.error("input/key-31-bytes", "seal", "a key of 31 bytes", rules: ["R7.9-4"],
                    input: sealInput(f.snapshot, key: .bytes(Array(f.key.prefix(31))), nonce: nonce, blobID: blobID), .inputBadLength)
        try b.error("input/nonce-16-bytes", "seal", "a 16-byte nonce: GCM here uses exactly 12", rules: ["R7.9-4"],
                    input: sealInput(f.snapshot, key: key, nonce: .bytes(f.nonce + [0, 0, 0, 0]), blobID: blobID), .inputBadLength)
        try b.error("input/nonce-11-bytes", "seal", "an 11-byte nonce", rules: ["R7.9-4"],
                    input: sealInput(f.snapshot, key: key, nonce: .bytes(Array(f.nonce.prefix(11))), blobID: blobID), .inputBadLength)
        try b.error("input/blob-id-31-bytes", "seal", "a blob_id of 31 bytes", rules: ["R7.9-4"],
                    input: sealInput(f.snapshot, key: key, nonce: nonce, blobID: .bytes(Array(f.blobID.prefix(31)))), .inputBadLength)
        try b.error("input/blob-id-missing", "seal", "no blob_id: the offer cannot name the blob", rules: ["R7.9-1", "R2.2-1"],
                    input: setting(sealInput(f.snapshot, key: key, nonce: nonce, blobID: blobID), "blob_id", nil), .inputMissingField)
        try b.error("order/snapshot-before-key", "seal", "a snapshot naming namespace calendar and a key of 31 bytes: snapshot is first in the table",
                    rules: ["R7.9-2"], twoFaults: true,
                    input: sealInput(f.snapshot, key: .bytes(Array(f.key.prefix(31))), nonce: nonce, blobID: blobID).replacing("snapshot", with: .object([("namespaces", .object([("calendar", .array([]))]))])),
                    .unknownNamespace)
    }

    // MARK: receive

    static func receiveInput(offer: [UInt8], requestID: [UInt8], blob: [UInt8], own: [UInt8]?, sender: [UInt8], cap: UInt64?) -> CBOR {
        var m: [(String, CBOR)] = [("offer", .bytes(offer)), ("request_id", .bytes(requestID)), ("blob", .bytes(blob))]
        if let own { m.append(("own_user_id_hash", .bytes(own))) }
        m.append(("sender_user_id_hash", .bytes(sender)))
        if let cap { m.append(("max_blob_bytes", .unsigned(cap))) }
        return .object(m)
    }

    static func receiveCases(_ b: inout Builder, _ f: Fixture) throws {
        @discardableResult
        func receive(_ id: String, _ comment: String, offer: SyncOffer? = nil, offerBytes: [UInt8]? = nil, blob: [UInt8]? = nil,
                     own: [UInt8]?? = .none, sender: [UInt8]? = nil, cap: UInt64? = nil,
                     expect: SyncReceiver.Result, reason: ErrorCode?, rules: [String], flags: [String] = [], twoFaults: Bool = false) throws -> SyncReceiver.Outcome {
            let ob = offerBytes ?? (offer ?? f.offer).encoded
            let bl = blob ?? f.blob
            let ownHash: [UInt8]? = own ?? f.ownHash
            let sh = sender ?? f.ownHash
            let o = try SyncReceiver.receive(offer: ob, requestID: f.requestID, blob: bl, ownUserIDHash: ownHash, senderUserIDHash: sh,
                                             maxBlobBytes: cap ?? SyncBlob.syncMaxBlobBytes)
            try check(o.result == expect && o.reason == reason, "receive \(id): got \(o.result) \(String(describing: o.reason))")
            try check((o.ack == nil) == (expect == .dropped) && (o.ack?.ok ?? false) == (expect == .accepted), "receive \(id) ack")
            try b.add(id, "receive", comment, rules: rules + ["R7.9-13"], flags: [expect.rawValue] + flags, twoFaults: twoFaults,
                      input: receiveInput(offer: ob, requestID: f.requestID, blob: bl, own: ownHash, sender: sh, cap: cap),
                      expected: .output(SyncOfferOutput.received(o)))
            return o
        }
        func flipped(_ b: [UInt8], bit: Int) -> [UInt8] { var c = b; c[bit / 8] ^= UInt8(1 << (bit % 8)); return c }
        func offerFor(_ blob: [UInt8], key: [UInt8]? = nil, nonce: [UInt8]? = nil) -> SyncOffer {
            SyncBlob.offer(for: blob, blobID: f.blobID, key: key ?? f.key, nonce: nonce ?? f.nonce)
        }
        let n = UInt64(f.blob.count)

        // Accepted.
        let ok = try receive("valid/end-to-end", "the typical blob and its offer from a sibling of this account: imported, ok true",
                             expect: .accepted, reason: nil, rules: ["R7.6-9", "R7.6-10", "R7.5-1", "R7.5-2"])
        try check(ok.snapshot == f.snapshot, "end to end returns the snapshot")
        try receive("valid/at-cap", "a blob exactly max_blob_bytes long is within the cap", cap: n, expect: .accepted, reason: nil, rules: ["R7.6-3", "R7.6-4"], flags: ["cap"])
        try receive("valid/cap-plus-one", "max_blob_bytes one more than the blob: accepted", cap: n + 1, expect: .accepted, reason: nil, rules: ["R7.6-3", "R7.6-4"], flags: ["cap"])
        let empty = try SyncSnapshot([:])
        let eb = try SyncBlob.seal(empty.encoded, key: f.key, nonce: f.nonce)
        try receive("valid/empty-snapshot", "a sibling with an empty store: accepted, nothing to import", offer: offerFor(eb), blob: eb, expect: .accepted, reason: nil, rules: ["R7.6-9", "R7.6-10"])
        let seedBlob = try SyncBlob.seal(f.seedSnapshot.encoded, key: f.key, nonce: f.nonce)
        let seed = try receive("seed/end-to-end", "a snapshot shaped as seed 000 describes (contact keys, provider keys, per-device fields): accepted, returned as it came",
                               offer: offerFor(seedBlob), blob: seedBlob, expect: .accepted, reason: nil, rules: ["R7.6-9", "R7.4-3", "R7.4-1"])
        try check(seed.snapshot == f.seedSnapshot, "the seed snapshot comes back whole")

        // The account gate: silent, before anything is parsed.
        let gate = ["R7.6-1", "R7.3-1"]
        try receive("dropped/other-account", "a valid offer and blob from another account: dropped, no ack", sender: f.strangerHash, expect: .dropped, reason: .syncNotSameAccount, rules: gate, flags: ["gate"])
        try receive("dropped/own-hash-absent", "this device does not know its own account yet: refuses everything, no ack", own: .some(nil), expect: .dropped, reason: .syncNotSameAccount, rules: gate, flags: ["gate"])
        try receive("dropped/own-hash-31-bytes", "own hash of 31 bytes (a prefix of the sender's): not an account hash", own: .some(Array(f.ownHash.prefix(31))), expect: .dropped, reason: .syncNotSameAccount, rules: gate, flags: ["gate"])
        try receive("dropped/own-hash-empty", "own hash empty", own: .some([]), expect: .dropped, reason: .syncNotSameAccount, rules: gate, flags: ["gate"])
        try receive("dropped/sender-hash-31-bytes", "own hash 32 bytes, the sender's its 31-byte prefix", sender: Array(f.ownHash.prefix(31)), expect: .dropped, reason: .syncNotSameAccount, rules: gate, flags: ["gate"])
        try receive("dropped/both-hashes-33-bytes", "both hashes the same 33 bytes: equal but not account hashes", own: .some(f.ownHash + [0]), sender: f.ownHash + [0], expect: .dropped, reason: .syncNotSameAccount, rules: gate, flags: ["gate"])
        try receive("dropped/other-account-malformed-offer", "a stranger's offer that is not even CBOR: dropped by the gate before it is parsed",
                    offerBytes: [0xff, 0x00], sender: f.strangerHash, expect: .dropped, reason: .syncNotSameAccount, rules: ["R7.6-11", "R7.3-2"], flags: ["gate", "order"], twoFaults: true)

        // Lengths.
        var plusOne = f.offer; plusOne.sizeBytes = n + 1
        try check(SyncBlob.open(f.blob, key: f.key, nonce: f.nonce) != nil, "size-only case would otherwise import")
        try receive("refused/size-bytes-plus-one", "size_bytes one more than the blob; hash, key and nonce all right: a receiver that ignores size_bytes would import",
                    offer: plusOne, expect: .refused, reason: .syncSizeMismatch, rules: ["R7.6-5"], flags: ["size"])
        var minusOne = f.offer; minusOne.sizeBytes = n - 1
        try receive("refused/size-bytes-minus-one", "size_bytes one less than the blob, everything else right", offer: minusOne, expect: .refused, reason: .syncSizeMismatch, rules: ["R7.6-5"], flags: ["size"])
        try receive("refused/over-cap-offer", "the offer promises one byte more than max_blob_bytes: refused before any download",
                    cap: n - 1, expect: .refused, reason: .syncBlobOverCap, rules: ["R7.6-3", "R7.6-4"], flags: ["cap"])
        var atDefault = f.offer; atDefault.sizeBytes = SyncBlob.syncMaxBlobBytes + 1
        try receive("refused/over-default-cap", "size_bytes 268435457 with the default cap (no max_blob_bytes given): over syncMaxBlobBytes",
                    offer: atDefault, expect: .refused, reason: .syncBlobOverCap, rules: ["R7.5-3", "R7.6-3"], flags: ["cap"])
        var exactlyDefault = f.offer; exactlyDefault.sizeBytes = SyncBlob.syncMaxBlobBytes
        try receive("refused/at-default-cap-size-differs", "size_bytes 268435456 is within the default cap, so the size comparison is what refuses",
                    offer: exactlyDefault, expect: .refused, reason: .syncSizeMismatch, rules: ["R7.5-3", "R7.6-5"], flags: ["cap", "size"])
        var belowDefault = f.offer; belowDefault.sizeBytes = SyncBlob.syncMaxBlobBytes - 1
        try receive("refused/below-default-cap-size-differs", "size_bytes 268435455, one below the default cap: the size comparison refuses",
                    offer: belowDefault, expect: .refused, reason: .syncSizeMismatch, rules: ["R7.5-3", "R7.6-5"], flags: ["cap", "size"])
        var sizeMax = f.offer; sizeMax.sizeBytes = UInt64.max
        try receive("refused/size-bytes-2p64-minus-1", "size_bytes 2^64-1 with the default cap: over the cap (a receiver that adds to it, or casts to Int64, misjudges)",
                    offer: sizeMax, expect: .refused, reason: .syncBlobOverCap, rules: ["R7.6-3"], flags: ["cap"])
        let longer = f.blob + [0x00]
        var promisedSmall = offerFor(longer); promisedSmall.sizeBytes = n
        try receive("refused/over-cap-download", "the offer promises n = max_blob_bytes, the server sends n + 1: over the cap (checked before the size comparison)",
                    offer: promisedSmall, blob: longer, cap: n, expect: .refused, reason: .syncBlobOverCap, rules: ["R7.6-4", "R7.6-13"], flags: ["cap", "order"], twoFaults: true)
        var hashWrongToo = f.offer; hashWrongToo.sizeBytes = n + 1; hashWrongToo.sha256 = flipped(f.offer.sha256, bit: 0)
        try receive("refused/size-before-hash", "size_bytes and sha256 both wrong: the size is reported (lengths come first)",
                    offer: hashWrongToo, expect: .refused, reason: .syncSizeMismatch, rules: ["R7.6-15", "R7.6-5"], flags: ["order"], twoFaults: true)
        let short15 = Array(f.blob.prefix(15))
        try receive("refused/blob-15-bytes", "a 15-byte blob whose offer matches it: shorter than the tag", offer: offerFor(short15), blob: short15, expect: .refused, reason: .syncBlobTooShort, rules: ["R7.6-6"])
        try receive("refused/blob-empty", "an empty blob whose offer matches it", offer: offerFor([]), blob: [], expect: .refused, reason: .syncBlobTooShort, rules: ["R7.6-6"])
        let tag16 = Array(f.blob.suffix(16))
        try receive("refused/blob-tag-only", "16 bytes: an empty ciphertext and a tag that does not verify under this key", offer: offerFor(tag16), blob: tag16, expect: .refused, reason: .syncAuthFailed, rules: ["R7.6-6", "R7.6-8"])

        // Hash before decryption.
        let flippedCT = flipped(f.blob, bit: 8 * 10 + 3)
        try check(SyncBlob.open(flippedCT, key: f.key, nonce: f.nonce) == nil, "flipped ciphertext fails authentication")
        try receive("refused/bit-flipped-hash-stale", "one ciphertext bit flipped, the offer still names the original hash: hash mismatch, never auth failure (the blob would also fail authentication, so a receiver that decrypts first reports the wrong code)",
                    blob: flippedCT, expect: .refused, reason: .syncHashMismatch, rules: ["R7.6-16", "R7.6-7"], flags: ["order", "hash-before-decrypt"], twoFaults: true)
        try receive("refused/bit-flipped-hash-matches", "one ciphertext bit flipped and the offer's hash recomputed over it: passes the hash, fails authentication",
                    offer: offerFor(flippedCT), blob: flippedCT, expect: .refused, reason: .syncAuthFailed, rules: ["R7.6-8", "R9.4-2"], flags: ["auth"])
        let flippedTag = flipped(f.blob, bit: 8 * (f.blob.count - 1))
        try receive("refused/tag-bit-flipped-hash-matches", "one tag bit flipped, hash recomputed: fails authentication",
                    offer: offerFor(flippedTag), blob: flippedTag, expect: .refused, reason: .syncAuthFailed, rules: ["R7.6-8", "R9.4-2"], flags: ["auth"])
        try receive("refused/tag-bit-flipped-hash-stale", "one tag bit flipped in transit, the offer names the original hash: hash mismatch (authentication would fail too)",
                    blob: flippedTag, expect: .refused, reason: .syncHashMismatch, rules: ["R7.6-16", "R7.6-7"], flags: ["order", "hash-before-decrypt"], twoFaults: true)
        var wrongHash = f.offer; wrongHash.sha256 = flipped(f.offer.sha256, bit: 255)
        try receive("refused/hash-wrong-blob-intact", "the blob is intact but the offer's hash is not its hash: refused (a receiver that skips the hash would import)",
                    offer: wrongHash, expect: .refused, reason: .syncHashMismatch, rules: ["R7.6-7"], flags: ["hash"])
        let truncated = Array(f.blob.dropLast())
        try receive("refused/tag-truncated", "the last tag byte cut off, offer size and hash describing the truncated blob: the last 16 bytes are no tag, authentication fails",
                    offer: offerFor(truncated), blob: truncated, expect: .refused, reason: .syncAuthFailed, rules: ["R7.6-8", "R9.4-2"], flags: ["auth"])
        try receive("refused/tag-truncated-stale-offer", "the last tag byte cut off in transit, the original offer: size mismatch",
                    blob: truncated, expect: .refused, reason: .syncSizeMismatch, rules: ["R7.6-5"], flags: ["size"])

        // Wrong secrets.
        var wrongKey = f.offer; wrongKey.key = flipped(f.key, bit: 0)
        try receive("refused/wrong-key", "the offer's key differs by one bit; hash and size right: authentication fails", offer: wrongKey, expect: .refused, reason: .syncAuthFailed, rules: ["R7.6-8", "R9.4-2"], flags: ["auth"])
        var wrongNonce = f.offer; wrongNonce.nonce = flipped(f.nonce, bit: 95)
        try receive("refused/wrong-nonce", "the offer's nonce differs by one bit: authentication fails", offer: wrongNonce, expect: .refused, reason: .syncAuthFailed, rules: ["R7.6-8", "R9.4-2"], flags: ["auth"])

        // The payload.
        let notSnapshot = try SyncBlob.seal(enc(.text("not a snapshot")), key: f.key, nonce: f.nonce)
        try receive("refused/payload-not-snapshot", "a blob that opens to a CBOR text string: payload invalid, ok false",
                    offer: offerFor(notSnapshot), blob: notSnapshot, expect: .refused, reason: .syncPayloadInvalid, rules: ["R7.6-9"], flags: ["payload"])
        let v2 = try SyncBlob.seal(enc(.object([("version", .unsigned(2)), ("namespaces", .object([]))])), key: f.key, nonce: f.nonce)
        try receive("refused/payload-version-2", "a snapshot of version 2: payload invalid", offer: offerFor(v2), blob: v2, expect: .refused, reason: .syncPayloadInvalid, rules: ["R7.6-9"], flags: ["payload"])
        let trailing = try SyncBlob.seal(f.plaintext + [0], key: f.key, nonce: f.nonce)
        try receive("refused/payload-trailing-byte", "the typical snapshot plus one byte, sealed: payload invalid",
                    offer: offerFor(trailing), blob: trailing, expect: .refused, reason: .syncPayloadInvalid, rules: ["R7.6-9"], flags: ["payload"])

        // Neighbouring steps, two faults at once.
        var capAndSize = f.offer; capAndSize.sizeBytes = n + 5
        try receive("order/cap-before-size", "size_bytes over max_blob_bytes and not the blob's length: over the cap (step 3) before the size comparison",
                    offer: capAndSize, cap: n + 4, expect: .refused, reason: .syncBlobOverCap, rules: ["R7.6-13", "R7.6-3"], twoFaults: true)
        var sixteen = offerFor(short15); sixteen.sizeBytes = 16
        try receive("order/size-before-too-short", "a 15-byte blob whose offer says 16 bytes: the size comparison (step 5) before the tag-length check",
                    offer: sixteen, blob: short15, expect: .refused, reason: .syncSizeMismatch, rules: ["R7.6-14", "R7.6-5"], twoFaults: true)
        var staleShort = offerFor(short15); staleShort.sha256 = f.offer.sha256
        try receive("order/too-short-before-hash", "a 15-byte blob matching size_bytes but not sha256: shorter than a tag (step 6) before the hash",
                    offer: staleShort, blob: short15, expect: .refused, reason: .syncBlobTooShort, rules: ["R7.6-15", "R7.6-6"], twoFaults: true)
        let otherKey = flipped(f.key, bit: 7)
        try receive("order/open-before-payload", "a blob sealing a non-snapshot, opened with the wrong key: authentication (step 8) fails before the payload is read",
                    offer: offerFor(notSnapshot, key: otherKey), blob: notSnapshot, expect: .refused, reason: .syncAuthFailed, rules: ["R7.6-17", "R7.6-8"], twoFaults: true)

        // A same-account offer that does not decode: the decoder's code.
        let bad: [(String, String, [UInt8], ErrorCode, [String])] = [
            ("offer-truncated", "the offer's last byte cut off", Array(f.offer.encoded.dropLast()), .cborTruncated, ["R7.6-2", "R1-6"]),
            ("offer-is-request", "a sync_request where the offer belongs", f.request.encoded, .syncWrongPayloadType, ["R7.6-2", "R7.2-4"]),
            ("offer-key-31-bytes", "an offer whose key is 31 bytes", enc(.object(wireMembers(f.offer.tree).map { $0.0 == "key" ? ($0.0, .bytes(Array(f.key.prefix(31)))) : $0 })), .syncBadLength, ["R7.6-2", "R7.2-6"]),
        ]
        for (name, comment, ob, code, rules) in bad {
            try b.error("malformed/\(name)", "receive", comment, rules: rules,
                        input: receiveInput(offer: ob, requestID: f.requestID, blob: f.blob, own: f.ownHash, sender: f.ownHash, cap: nil), code)
        }
        var unknownOverCap = wireMembers(f.offer.tree)
        unknownOverCap = unknownOverCap.map { $0.0 == "size_bytes" ? ($0.0, .unsigned(SyncBlob.syncMaxBlobBytes + 1)) : $0 } + [("aad", .bytes([1]))]
        try b.error("order/decode-before-cap", "receive", "an offer with an unknown member aad that also promises more than the cap: the offer is decoded (step 2, sync_unknown_field) before any length is compared",
                    rules: ["R7.6-12", "R7.6-2"], twoFaults: true,
                    input: receiveInput(offer: enc(.object(unknownOverCap)), requestID: f.requestID, blob: f.blob, own: f.ownHash, sender: f.ownHash, cap: nil), .syncUnknownField)

        // Op inputs.
        let base = receiveInput(offer: f.offer.encoded, requestID: f.requestID, blob: f.blob, own: f.ownHash, sender: f.ownHash, cap: nil)
        try b.error("input/request-id-15-bytes", "receive", "the receiver's own request_id must be 16 bytes", rules: ["R7.9-4"],
                    input: base.replacing("request_id", with: .bytes(Array(f.requestID.prefix(15)))), .inputBadLength)
        try b.error("input/request-id-17-bytes", "receive", "a request_id of 17 bytes", rules: ["R7.9-4"], input: base.replacing("request_id", with: .bytes(f.requestID + [0])), .inputBadLength)
        try b.error("order/input-before-gate", "receive", "a request_id of 15 bytes on an offer from another account: input_bad_length, not dropped",
                    rules: ["R7.9-6"], flags: ["order"], twoFaults: true,
                    input: receiveInput(offer: f.offer.encoded, requestID: Array(f.requestID.prefix(15)), blob: f.blob, own: f.ownHash, sender: f.strangerHash, cap: nil), .inputBadLength)
        try b.error("input/sender-missing", "receive", "sender_user_id_hash is required (the envelope always has one)", rules: ["R7.9-1", "R2.2-1"],
                    input: .object([("offer", .bytes(f.offer.encoded)), ("request_id", .bytes(f.requestID)), ("blob", .bytes(f.blob)), ("own_user_id_hash", .bytes(f.ownHash))]), .inputMissingField)
        try b.error("input/own-hash-null", "receive", "own_user_id_hash null: an optional member given as null is input_bad_type, not \"no account\" (which would drop)",
                    rules: ["R7.9-5", "R2.2-1"], input: base.replacing("own_user_id_hash", with: .null), .inputBadType)
        try b.error("input/sender-null", "receive", "sender_user_id_hash null", rules: ["R7.9-5", "R2.2-1"], input: base.replacing("sender_user_id_hash", with: .null), .inputBadType)
        try b.error("input/max-blob-bytes-null", "receive", "max_blob_bytes null: not the default cap", rules: ["R7.9-5", "R2.2-1"], input: base.setting("max_blob_bytes", .null), .inputBadType)
        try b.error("input/max-blob-bytes-negative", "receive", "max_blob_bytes -1", rules: ["R7.9-3"], input: base.setting("max_blob_bytes", .int(-1)), .inputBadType)
        try b.error("input/max-blob-bytes-2p64", "receive", "max_blob_bytes 2^64", rules: ["R7.9-3"], input: base.setting("max_blob_bytes", .text("18446744073709551616")), .inputBadType)
        try b.error("input/max-blob-bytes-float", "receive", "max_blob_bytes 1e9: an exponent", rules: ["R7.9-3"], input: base.setting("max_blob_bytes", .jsonNumber("1e9")), .inputBadType)
        try b.error("input/own-hash-odd-hex", "receive", "own_user_id_hash with an odd number of hex digits", rules: ["R7.9-4"], input: base.replacing("own_user_id_hash", with: .text("abc")), .inputBadValue)
        try b.error("order/request-id-before-blob", "receive", "request_id of 15 bytes and blob not hex: request_id comes before blob in the table",
                    rules: ["R7.9-2"], twoFaults: true, input: base.replacing("request_id", with: .bytes(Array(f.requestID.prefix(15)))).replacing("blob", with: .text("zz")), .inputBadLength)
        try b.error("order/offer-before-request-id", "receive", "offer given as a number and request_id missing: offer first", rules: ["R7.9-2"], twoFaults: true,
                    input: base.replacing("offer", with: .unsigned(1)).setting("request_id", nil), .inputBadType)
        let accepted = SyncOfferOutput.received(ok)
        try b.add("hex/uppercase-inputs", "receive", "offer, request_id, blob and both hashes in uppercase hex: the same outcome, the ack written in lowercase",
                  rules: ["R7.9-4", "R2.2-4", "R2-2"], flags: ["accepted"],
                  input: .object([("offer", upperHex(f.offer.encoded)), ("request_id", upperHex(f.requestID)), ("blob", upperHex(f.blob)),
                                  ("own_user_id_hash", upperHex(f.ownHash)), ("sender_user_id_hash", upperHex(f.ownHash))]), expected: .output(accepted))
        try b.add("input/extra-member-ignored", "receive", "an input member receive does not define: ignored", rules: ["R7.9-1", "R2.2-2"], flags: ["accepted"],
                  input: base.setting("transport", .text("relay")), expected: .output(accepted))
        try b.add("int/max-blob-bytes-2p64-minus-1", "receive", "max_blob_bytes 2^64-1 as a decimal string: accepted", rules: ["R7.9-3", "R7.6-3"], flags: ["accepted"],
                  input: base.setting("max_blob_bytes", .text("18446744073709551615")), expected: .output(accepted))
        try b.add("int/max-blob-bytes-decimal-string", "receive", "max_blob_bytes \"\(n)\" as a string: exactly the blob's length, accepted", rules: ["R7.9-3", "R7.6-4"], flags: ["accepted"],
                  input: base.setting("max_blob_bytes", .text(String(n))), expected: .output(accepted))
        let zero = try SyncReceiver.receive(offer: f.offer.encoded, requestID: f.requestID, blob: f.blob, ownUserIDHash: f.ownHash, senderUserIDHash: f.ownHash, maxBlobBytes: 0)
        try b.add("int/max-blob-bytes-zero", "receive", "max_blob_bytes 0: every non-empty blob is over the cap", rules: ["R7.9-3", "R7.6-3"], flags: ["refused"],
                  input: base.setting("max_blob_bytes", .unsigned(0)), expected: .output(SyncOfferOutput.received(zero)))
    }

    // MARK: handle_request

    static func handleRequestCases(_ b: inout Builder, _ f: Fixture) throws {
        func input(_ req: [UInt8], own: [UInt8]?, sender: [UInt8]) -> CBOR {
            var m: [(String, CBOR)] = [("request", .bytes(req))]
            if let own { m.append(("own_user_id_hash", .bytes(own))) }
            m.append(("sender_user_id_hash", .bytes(sender)))
            return .object(m)
        }
        func handled(_ id: String, _ comment: String, _ req: [UInt8], own: [UInt8]?, sender: [UInt8], expect: SiblingRequestHandler.Result,
                     rules: [String], twoFaults: Bool = false, flags: [String] = []) throws {
            let r = try SiblingRequestHandler.handle(request: req, ownUserIDHash: own, senderUserIDHash: sender)
            try check(r.result == expect, "handle_request \(id)")
            try b.add(id, "handle_request", comment, rules: rules, flags: (expect == .dropped ? ["gate"] : []) + flags, twoFaults: twoFaults,
                      input: input(req, own: own, sender: sender), expected: .output(SyncOfferOutput.handled(r.result, r.request)))
        }
        let req = f.request.encoded
        let gate = ["R7.3-1", "R7.3-3"]
        try handled("accepted/same-account", "a request from a sibling of this account: accepted (export, seal, upload, offer follow)", req, own: f.ownHash, sender: f.ownHash, expect: .accepted, rules: gate)
        try handled("dropped/other-account", "a valid request from another account: dropped, this device exports nothing", req, own: f.ownHash, sender: f.strangerHash, expect: .dropped, rules: gate)
        try handled("dropped/own-hash-absent", "this device does not know its own account: drops every request", req, own: nil, sender: f.ownHash, expect: .dropped, rules: gate)
        try handled("dropped/own-hash-31-bytes", "own hash of 31 bytes", req, own: Array(f.ownHash.prefix(31)), sender: Array(f.ownHash.prefix(31)), expect: .dropped, rules: gate)
        try handled("dropped/sender-hash-33-bytes", "the sender's hash is the own hash plus one byte", req, own: f.ownHash, sender: f.ownHash + [0], expect: .dropped, rules: gate)
        try handled("dropped/other-account-malformed", "a stranger's request that is not CBOR: dropped by the gate before it is parsed", [0x1c], own: f.ownHash, sender: f.strangerHash,
                    expect: .dropped, rules: ["R7.3-2"], twoFaults: true)
        try b.error("order/input-before-gate", "handle_request", "a request that is not hex (\"zz\") from another account: input_bad_value, not dropped",
                    rules: ["R7.9-6"], flags: ["order"], twoFaults: true,
                    input: .object([("request", .text("zz")), ("own_user_id_hash", .bytes(f.ownHash)), ("sender_user_id_hash", .bytes(f.strangerHash))]), .inputBadValue)
        try b.error("malformed/truncated", "handle_request", "a same-account request cut short: the decoder's code", rules: ["R7.3-3", "R1-6"],
                    input: input(Array(req.dropLast()), own: f.ownHash, sender: f.ownHash), .cborTruncated)
        try b.error("malformed/is-ack", "handle_request", "a sync_ack where a request belongs", rules: ["R7.3-3", "R7.2-4"],
                    input: input(f.ack.encoded, own: f.ownHash, sender: f.ownHash), .syncWrongPayloadType)
        try b.error("malformed/empty", "handle_request", "an empty request from this account: cbor_truncated (the gate passed, so it is parsed)", rules: ["R7.3-3", "R1-6"],
                    input: input([], own: f.ownHash, sender: f.ownHash), .cborTruncated)
        let base = input(req, own: f.ownHash, sender: f.ownHash)
        try b.error("input/own-hash-null", "handle_request", "own_user_id_hash null: input_bad_type, not \"no account\"", rules: ["R7.9-5"], input: base.replacing("own_user_id_hash", with: .null), .inputBadType)
        try b.error("input/sender-missing", "handle_request", "no sender_user_id_hash", rules: ["R7.9-1", "R2.2-1"], input: base.setting("sender_user_id_hash", nil), .inputMissingField)
        try b.error("order/request-before-sender", "handle_request", "request not hex and no sender_user_id_hash: request first in the table", rules: ["R7.9-2"], twoFaults: true,
                    input: base.replacing("request", with: .text("zz")).setting("sender_user_id_hash", nil), .inputBadValue)
        let acc = try SiblingRequestHandler.handle(request: req, ownUserIDHash: f.ownHash, senderUserIDHash: f.ownHash)
        try b.add("hex/uppercase-request", "handle_request", "the request and hashes in uppercase hex: accepted, the request written back in lowercase", rules: ["R7.9-4", "R2-2"],
                  input: .object([("request", upperHex(req)), ("own_user_id_hash", upperHex(f.ownHash)), ("sender_user_id_hash", upperHex(f.ownHash))]),
                  expected: .output(SyncOfferOutput.handled(acc.result, acc.request)))
    }
}

extension CBOR {
    /// The same text-keyed object with one member's value replaced in place.
    func replacing(_ name: String, with v: CBOR) -> CBOR { SyncOfferVectors.setting(self, name, v) }
    /// The same object with a member replaced, added at the end, or (nil) removed.
    func setting(_ name: String, _ v: CBOR?) -> CBOR { SyncOfferVectors.setting(self, name, v) }
}

import Primitives

/// The models of sync_offer's two-fault cases whose faults the byte comparison cannot split
/// (issue 23, item 4): both faults live in one offer, so putting back one changes the offer's
/// hash, size or encoding together. Each model builds the case's input from the set of faults
/// switched on; `TwoFaultModel.audit` proves it is the committed case and that only the earlier
/// check's fault decides it.
extension SyncOfferVectors {
    static func twoFaultModels(_ f: Fixture) throws -> [TwoFaultModel] {
        let (blob, key, nonce, blobID) = (f.blob, f.key, f.nonce, f.blobID)
        let (requestID, own, sha) = (f.requestID, f.ownHash, f.offer.sha256)
        let n = UInt64(blob.count)
        let offerTree = f.offer.tree
        @Sendable func flipped(_ b: [UInt8], bit: Int) -> [UInt8] { var c = b; c[bit / 8] ^= UInt8(1 << (bit % 8)); return c }
        /// A same-account receive of `blob` under an offer that names it, then `edit`ed.
        @Sendable func receive(_ blob: [UInt8], cap: UInt64? = nil, _ edit: (inout SyncOffer) -> Void = { _ in }) -> CBOR {
            var o = SyncBlob.offer(for: blob, blobID: blobID, key: key, nonce: nonce)
            edit(&o)
            return receiveInput(offer: o.encoded, requestID: requestID, blob: blob, own: own, sender: own, cap: cap)
        }

        /// A blob changed in transit with the offer still naming the original hash: the stale
        /// hash is the first fault, the changed bytes (which fail authentication) the second.
        /// Without the change, the stale hash is the original's with one bit flipped.
        func staleHash(_ id: String, flipping bit: Int) -> TwoFaultModel {
            TwoFaultModel("sync_offer/receive/refused/\(id)", op: "receive", first: "hash", second: "auth") { s in
                let sent = s.has("auth") ? flipped(blob, bit: bit) : blob
                return receive(sent) { o in
                    if s.has("hash") { o.sha256 = s.has("auth") ? sha : flipped(sha, bit: 255) }
                }
            }
        }
        return [
            staleHash("bit-flipped-hash-stale", flipping: 8 * 10 + 3),
            staleHash("tag-bit-flipped-hash-stale", flipping: 8 * (blob.count - 1)),
            // size_bytes n + 5 against the blob's n, and a cap one below size_bytes: without the
            // size fault the offer is right and the cap n - 1; without the cap fault the cap is
            // size_bytes itself.
            TwoFaultModel("sync_offer/receive/order/cap-before-size", op: "receive", first: "cap", second: "size") { s in
                let size = s.has("size") ? n + 5 : n
                return receive(blob, cap: s.has("cap") ? size - 1 : size) { $0.sizeBytes = size }
            },
            // A 15-byte blob (its offer's size right) whose offer names the typical blob's hash;
            // without the short blob, the typical blob under a flipped hash.
            TwoFaultModel("sync_offer/receive/order/too-short-before-hash", op: "receive", first: "short", second: "hash") { s in
                let sent = s.has("short") ? Array(blob.prefix(15)) : blob
                return receive(sent) { o in
                    if s.has("hash") { o.sha256 = s.has("short") ? sha : flipped(sha, bit: 255) }
                }
            },
            // An unknown member aad and size_bytes over the default cap, in one offer.
            TwoFaultModel("sync_offer/receive/order/decode-before-cap", op: "receive", first: "unknown", second: "cap") { s in
                var members = wireMembers(offerTree)
                if s.has("cap") { members = members.map { $0.0 == "size_bytes" ? ($0.0, .unsigned(SyncBlob.syncMaxBlobBytes + 1)) : $0 } }
                if s.has("unknown") { members.append(("aad", .bytes([1]))) }
                return receiveInput(offer: enc(.object(members)), requestID: requestID, blob: blob, own: own, sender: own, cap: nil)
            },
            // The tag of another payload and an unknown member aad, in one offer: the tag is
            // checked before the member names (R7.2-7).
            TwoFaultModel("sync_offer/decode_offer/order/type-before-unknown-member", op: "decode_offer", first: "type", second: "unknown") { s in
                var t = CBOR.object(wireMembers(offerTree))
                if s.has("type") { t = setting(t, "type", .text("sync_delta")) }
                if s.has("unknown") { t = setting(t, "aad", .bytes([1])) }
                return cborInput(enc(t))
            },
            // R1-15 before R1-19: a tag at depth 32 (the limit) whose content, at depth 33, is
            // missing. The depth fault alone: the content is there (depth 33, cbor_depth_exceeded);
            // the end of input alone: the tag one level up, at 31, with its content missing
            // (cbor_truncated). Both sit in an unknown member that sorts last, which the CBOR
            // layer never reaches; with neither fault, the offer without it.
            TwoFaultModel("sync_offer/decode_offer/cbor/depth-33-input-ends", op: "decode_offer", first: "depth", second: "end") { s in
                let pairs = sortedPairs(wireMembers(offerTree))
                guard s.has("depth") || s.has("end") else { return cborInput(rawMap(pairs)) }
                let arrays = s.has("depth") ? 30 : 29
                let tail: [UInt8] = s.has("end") ? [0xc1] : [0xc1, 0x00]
                return cborInput(rawMap(pairs + [(enc(.text("zzzzzzzzzzz")), [UInt8](repeating: 0x81, count: arrays) + tail)]))
            },
        ]
    }
}

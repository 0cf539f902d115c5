/// The sync messages and the snapshot under the fuzzer: each is deterministic CBOR (§1, §7), so
/// each decode op's answer must encode back, through its encode op, to the bytes it decoded.
/// The first input byte picks the message.
enum SyncOfferFuzzSurfaces {
    static let all: [FuzzSurface] = [
        .decodeOps("sync_messages", "decode_request/offer/ack/snapshot: what decodes re-encodes to the same deterministic CBOR",
                   handler: SyncOfferHandler(), [
                       FuzzDecodeOp("decode_request", .hex("cbor"), reencode: FuzzReencode(op: "encode_request", member: "cbor")),
                       FuzzDecodeOp("decode_offer", .hex("cbor"), reencode: FuzzReencode(op: "encode_offer", member: "cbor")),
                       FuzzDecodeOp("decode_ack", .hex("cbor"), reencode: FuzzReencode(op: "encode_ack", member: "cbor")),
                       FuzzDecodeOp("decode_snapshot", .hex("cbor"), reencode: FuzzReencode(op: "encode_snapshot", member: "cbor")),
                   ]),
    ]
}

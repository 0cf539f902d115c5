/// The state digest under the fuzzer: §4.4's fixed layout (a version byte, then one 32-byte root
/// per namespace in §4.1 order) has exactly one encoding per value, so whatever decodes must
/// encode back to the same bytes.
enum StateDigestFuzzSurfaces {
    static let all: [FuzzSurface] = [
        .decodeOps("state_digest", "digest_decode: a §4.4 digest decodes only if digest_encode gives its bytes back",
                   handler: StateDigestHandler(),
                   [FuzzDecodeOp("digest_decode", .hex("encoded"), reencode: FuzzReencode(op: "digest_encode", member: "encoded", input: FuzzReencode.keeping(["roots"])))]),
    ]
}

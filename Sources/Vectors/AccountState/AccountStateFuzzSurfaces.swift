/// The account state under the fuzzer: the §12 plaintext is deterministic CBOR, so what decodes
/// must encode back to the same bytes; the HSS1 blob's header and epoch are read before any key is
/// used (peek_epoch, and open with the vectors' fixture keys), so their layout checks are reachable
/// by bytes no one could seal.
enum AccountStateFuzzSurfaces {
    /// The keys of the vectors' `open/v0/seed-key` case (a seed key and one accepted epoch key).
    static let openContext: [(String, JSONValue)] = [
        ("seed_key", .string("aaeea8aaae3bd182b35de0eaddbda8ba3b8590002efc482e12a2478783d47018")),
        ("accepted", .array([.object([("epoch", .int(2)), ("key", .string(String(repeating: "16", count: 32)))])])),
    ]

    static let all: [FuzzSurface] = [
        .decodeOps("account_state_plaintext", "decode: a §12 plaintext decodes only if encode gives its bytes back",
                   handler: AccountStateHandler(),
                   [FuzzDecodeOp("decode", .hex("plaintext"), reencode: FuzzReencode(op: "encode", member: "plaintext"))]),
        .decodeOps("account_state_blob", "peek_epoch/open: the HSS1 blob's layout is refused with §12 codes before and after the key",
                   handler: AccountStateHandler(), [
                       FuzzDecodeOp("peek_epoch", .hex("blob")),
                       FuzzDecodeOp("open", .hex("blob"), context: openContext),
                   ]),
    ]
}

/// The sign-in messages and the phone-ownership certificate under the fuzzer: all deterministic
/// CBOR (§8), so each decode op's answer must encode back to the bytes it decoded. The first
/// input byte picks the message.
enum SignInFuzzSurfaces {
    static let all: [FuzzSurface] = [
        .decodeOps("signin_messages", "cert/lookup/request/ack/approval decode: what decodes re-encodes to the same deterministic CBOR",
                   handler: SignInHandler(), [
                       FuzzDecodeOp("cert_decode", .hex("cert"), reencode: FuzzReencode(op: "cert_encode", member: "cert")),
                       FuzzDecodeOp("lookup_decode", .hex("encoded"), reencode: FuzzReencode(op: "lookup_encode", member: "encoded")),
                       FuzzDecodeOp("request_decode", .hex("encoded"), reencode: FuzzReencode(op: "request_encode", member: "encoded")),
                       FuzzDecodeOp("ack_decode", .hex("encoded"), reencode: FuzzReencode(op: "ack_encode", member: "encoded")),
                       FuzzDecodeOp("approval_decode", .hex("encoded"), reencode: FuzzReencode(op: "approval_encode", member: "encoded")),
                   ]),
    ]
}

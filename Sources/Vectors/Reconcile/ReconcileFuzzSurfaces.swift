/// Reconcile frames under the fuzzer: a frame is JSON text on the wire (§5), decoded by
/// decode_frame and written by encode_frame. The reader is tolerant by rule (unknown members are
/// ignored, any JSON spelling is read), so the text need not come back; what must hold is that
/// the frame encode_frame writes for a decoded value decodes to that same value. Rows inside a
/// response are read as §4.3 rows with the op-input codes (SPEC [R5.3-8], [R5.3-16]), so those
/// codes are the frame's own here; a frame-structure fault still carries a `frame_*` code.
enum ReconcileFuzzSurfaces {
    static let all: [FuzzSurface] = [
        .decodeOps("reconcile_frame", "decode_frame: a decoded §5 frame, written by encode_frame, decodes to the same value",
                   handler: ReconcileHandler(),
                   [FuzzDecodeOp("decode_frame", .text("json"), reencode: FuzzReencode(op: "encode_frame", member: "json", exact: false),
                                  allowedInputCodes: [.inputBadType, .inputBadValue, .inputBadLength, .inputMissingField, .unknownField])]),
    ]
}

import Primitives

/// §1's rule table at its edges, derived from the table rather than one case at a time.
///
/// `cborProfileCases` gives each rule of §1 a case; a reader can pass all of them and still be
/// wrong one step from an edge. pixie's reader under cosmic-ray (issue 25) showed each class: a
/// shortest-form test off by one (`n < 23`), additional information 28–30 of a string, array or
/// map read as an indefinite length, a map's count compared with all the bytes left instead of
/// half of them, a key or a tag's content counted one level off, a map keyed by a map handed to a
/// hash table that cannot take it. So, for every edge the table states:
///
/// - R1-1/R1-7, for each argument width (1, 2, 4, 8 bytes): the largest value the next shorter
///   form holds, in that width (refused), and the smallest that needs it (accepted); and the 1-byte
///   edge (23 in `xx 17`) in every major type that has an argument;
/// - R1-8/R1-9: every initial byte with additional information 28–31, in all eight major types;
/// - R1-6: an array declaring exactly the bytes left, a map declaring exactly half of them and one
///   entry more (each followed by a fault, so a count compared otherwise answers that fault);
/// - R1-5/R1-7: bignums of 0 and 1 bytes, below the 8-byte case;
/// - R1-10: the two-byte simple value 31, the last one refused, and 255, the last one accepted;
/// - R1-4: each float width read at an even and an odd byte offset;
/// - R1-15: a key at depth 32 (of the top-level map and of a nested one), and a tag at an odd
///   depth whose content reaches depth 32 and 33;
/// - R1-16: a map keyed by a map, and one keyed by an array: valid CBOR inside an unknown member.
extension SyncOfferVectors {
    static func cborEdgeCases(_ b: inout Builder, _ f: Fixture, _ ms: [Message]) throws {
        let (off, ack) = (ms[1], ms[2])
        func bad(_ m: Message, _ id: String, _ comment: String, _ bytes: [UInt8], _ code: ErrorCode, rules: [String], twoFaults: Bool = false) throws {
            try b.error("cbor/\(id)", "decode_\(m.name)", comment, rules: rules, twoFaults: twoFaults, input: cborInput(bytes), code)
        }
        func sizeRaw(_ raw: [UInt8]) -> [UInt8] { withRaw(off.wire, "size_bytes", raw) }
        // An unknown member that sorts after every known one, so its value ends the input.
        let lastKey = enc(.text("zzzzzzzzzzz"))
        func last(_ raw: [UInt8]) -> [UInt8] { rawMap(sortedPairs(off.wire) + [(lastKey, raw)]) }
        func bigEndian(_ v: UInt64, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }

        // R1-1 / R1-7: each argument width against the one below it.
        let widths: [(ai: UInt8, bytes: Int, floor: UInt64)] = [(24, 1, 24), (25, 2, 256), (26, 4, 65_536), (27, 8, 1 << 32)]
        for w in widths {
            let below = w.floor - 1
            // 255 in two bytes is `size-bytes-255-head-long` (cborProfileCases).
            if w.bytes != 2 {
                try bad(off, "size-bytes-\(below)-in-\(w.bytes)-byte\(w.bytes == 1 ? "" : "s")",
                        "size_bytes \(below) with a \(w.bytes)-byte argument (\(Hex.encode([w.ai] + bigEndian(below, w.bytes)))): a shorter form holds it",
                        sizeRaw([w.ai] + bigEndian(below, w.bytes)), .cborNonCanonical, rules: ["R1-1", "R1-7"])
            }
        }
        var o = f.offer
        for v: UInt64 in [23, 24, 256] {
            o.sizeBytes = v
            try b.add("int/size-bytes-\(v)", "decode_offer", "size_bytes \(v), the \(v == 23 ? "largest with no argument bytes" : "smallest in its argument width")",
                      rules: ["R1-1", "R7.2-6"], input: cborInput(o.encoded), expected: .output(SyncOfferOutput.offer(o)))
        }
        // The 1-byte edge in the other major types with an argument (7 is R1-10's, below), each a
        // complete item behind its over-long head, so the head is the only fault.
        let items: [(name: String, major: UInt8, content: [UInt8])] = [
            ("negative", 1, []), ("bytes", 2, [UInt8](repeating: 0x00, count: 23)), ("text", 3, [UInt8](repeating: 0x61, count: 23)),
            ("array", 4, [UInt8](repeating: 0x00, count: 23)), ("map", 5, (0..<23).flatMap { [UInt8($0), 0x00] }), ("tag", 6, [0x00]),
        ]
        for it in items {
            let head: [UInt8] = [it.major << 5 | 24, 23]
            try bad(off, "\(it.name)-23-in-1-byte", "an unknown member's \(it.name == "tag" ? "tag 23" : it.name == "negative" ? "−24" : "\(it.name) of 23") with a 1-byte argument (\(Hex.encode(head))): a shorter form holds it",
                    last(head + it.content), .cborNonCanonical, rules: ["R1-1", "R1-7"])
        }

        // R1-8 / R1-9: additional information 28–31 in every major type.
        let covered: Set<UInt8> = [0x1c, 0x1f, 0x3f, 0xdf, 0xff]  // size-bytes-ai-28, -ai-31, -negative-ai-31, -tag-ai-31, -break
        for major: UInt8 in 0...7 {
            for ai: UInt8 in 28...31 where !covered.contains(major << 5 | ai) {
                let ib = major << 5 | ai
                let indefinite = ai == 31 && (2...5).contains(major)
                try bad(off, "size-bytes-initial-byte-\(Hex.encode([ib]))",
                        "size_bytes written \(Hex.encode([ib])): additional information \(ai) in major type \(major), \(indefinite ? "an indefinite length" : "reserved")",
                        sizeRaw([ib]), indefinite ? .cborIndefiniteLength : .cborReservedInfo, rules: [indefinite ? "R1-8" : "R1-9"])
            }
        }

        // R1-6: counts against the bytes left, at the edge, each followed by a text string that
        // is not UTF-8 (61 ff): within the limit that string is the first fault.
        try bad(off, "array-count-bytes-left", "an unknown member's array declares 2 items with exactly 2 bytes left (82 61ff): not truncated at the head, so its first item's UTF-8 decides",
                last([0x82, 0x61, 0xff]), .cborInvalidUTF8, rules: ["R1-6", "R1-13"])
        try bad(off, "map-count-half-bytes-left", "an unknown member's map declares 2 entries with exactly 4 bytes left (a2 61ff 0000): not truncated at the head, so its first key's UTF-8 decides",
                last([0xa2, 0x61, 0xff, 0x00, 0x00]), .cborInvalidUTF8, rules: ["R1-6", "R1-13"])
        try bad(off, "map-count-over-half-bytes-left", "an unknown member's map declares 2 entries with 3 bytes left (a2 61ff 00): cbor_truncated at the head, not the key's UTF-8 (a count compared with all the bytes left reads on)",
                last([0xa2, 0x61, 0xff, 0x00]), .cborTruncated, rules: ["R1-6", "R1-18"], twoFaults: true)

        // R1-10: the last simple value the two-byte form may not carry.
        try bad(ack, "ok-simple-31-two-byte", "ok written f8 1f (simple value 31 in the two-byte form): below 32, so refused", withRaw(ack.wire, "ok", [0xf8, 0x1f]), .cborInvalidSimple, rules: ["R1-10"])

        // R1-15: a key is as deep as a value; a tag's content is one level below the tag.
        try bad(off, "key-depth-32", "a last member whose key is 30 nested arrays around a scalar, at depth 32: within the limit, so the key's type decides (sync_bad_type)",
                rawMap(sortedPairs(off.wire) + [([UInt8](repeating: 0x81, count: 30) + [0x00], [0x00])]), .syncBadType, rules: ["R1-15", "R7.2-3"])
        try bad(off, "tag-depth-30-content-32", "an unknown member nesting a tag at depth 30 around an array holding a scalar at depth 32: within the limit",
                last([UInt8](repeating: 0x81, count: 28) + [0xc1, 0x81, 0x00]), .syncUnknownField, rules: ["R1-15", "R7.2-5"])
        try bad(off, "tag-depth-31-content-33", "an unknown member nesting a tag at depth 31 around an array holding a scalar at depth 33: cbor_depth_exceeded (a reader that counts a tag's content at its own depth, or two below, passes the cases at even depths)",
                last([UInt8](repeating: 0x81, count: 29) + [0xc1, 0x81, 0x00]), .cborDepthExceeded, rules: ["R1-15"])

        try bad(off, "nested-map-key-depth-32", "an unknown member's map (depth 2) keyed by 29 nested arrays around a scalar, at depth 32: within the limit (a reader that doubles a map's depth for its keys passes the top-level cases)",
                last([0xa1] + [UInt8](repeating: 0x81, count: 29) + [0x00, 0x00]), .syncUnknownField, rules: ["R1-15", "R7.2-5"])

        // R1-7: a bignum's content "8 bytes or shorter", below the 8 of `size-bytes-bignum-fits`.
        for (tag, content) in [(UInt8(0xc2), [UInt8]()), (0xc2, [0x01]), (0xc3, [0x01])] {
            let raw = [tag, 0x40 | UInt8(content.count)] + content
            try bad(off, "size-bytes-\(tag == 0xc3 ? "negative-" : "")bignum-\(content.count)-byte\(content.count == 1 ? "" : "s")",
                    "size_bytes as a tag-\(tag & 0x1f) bignum of \(content.count) byte\(content.count == 1 ? "" : "s") (\(Hex.encode(raw))): a bignum is longer than 8 bytes",
                    sizeRaw(raw), .cborNonCanonical, rules: ["R1-5", "R1-7"])
        }

        // R1-10 / R1-16: the top of the two-byte simple values is valid CBOR, the wrong type.
        try bad(ack, "ok-simple-255", "ok as simple value 255 (f8 ff): valid CBOR, not a boolean (a reader that takes only 32 in the two-byte form refuses it)", withRaw(ack.wire, "ok", [0xf8, 0xff]), .syncBadType, rules: ["R1-16", "R7.2-6"])

        // Floats read at an even and an odd byte offset: a float's bytes are found from its head's
        // position, which no case above puts at an odd one.
        let floats: [(String, [UInt8])] = [("half", [0xf9, 0x3c, 0x00]), ("single", [0xfa, 0x47, 0xc3, 0x50, 0x00]), ("double", [0xfb, 0x3f, 0xe6, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66])]
        for (kind, float) in floats {
            var parities = Set<Int>()
            for prefix: [UInt8] in [[], [0x81]] {
                let bytes = last(prefix + float)
                let offset = bytes.count - float.count
                parities.insert(offset % 2)
                try bad(off, "unknown-member-\(kind)-float-at-\(offset % 2 == 0 ? "even" : "odd")-offset",
                        "an unknown member holding the \(kind) float \(Hex.encode(float))\(prefix.isEmpty ? "" : " in an array"), its head at byte \(offset): valid CBOR, so sync_unknown_field",
                        bytes, .syncUnknownField, rules: ["R1-4", "R7.2-5"])
            }
            try check(parities.count == 2, "the \(kind) float cases take both parities of offset")
        }

        // R1-16: any key type is valid CBOR; the format refuses the member, not the reader.
        try bad(off, "map-keyed-by-map", "an unknown member whose value is a map keyed by an empty map (a1 a0 00): valid CBOR (a decoder whose maps are hash tables of unhashable maps fails here)",
                last([0xa1, 0xa0, 0x00]), .syncUnknownField, rules: ["R1-16", "R7.2-5"])
        try bad(off, "map-keyed-by-array", "an unknown member whose value is a map keyed by an array (a1 8100 00): valid CBOR",
                last([0xa1, 0x81, 0x00, 0x00]), .syncUnknownField, rules: ["R1-16", "R7.2-5"])
    }
}

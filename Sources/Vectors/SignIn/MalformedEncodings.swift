/// Systematic malformations of one valid sign-in message (SPEC.md §8.10): truncations, trailing
/// bytes, every CBOR-profile violation a map can carry, and per member a removal, a wrong type and
/// wrong lengths. Each variant names the code SPEC.md predicts; the generator checks the reference
/// reports exactly that code before the case is written.
struct MalformedEncodings {
    enum Kind {
        case bytes(Int)
        /// An opaque byte string of any length (the embedded certificate).
        case blob
        case text(ClosedRange<Int>)
        case unsigned
        /// A nested map (the grant).
        case map
    }

    struct Variant {
        var name: String
        var comment: String
        var bytes: [UInt8]
        var code: ErrorCode
    }

    /// The message's canonical map (with its `type` member when tagged).
    let tree: CBOR
    let tag: SignInPayloadType?
    /// Members in the order decoding reads them (SPEC.md tables).
    let members: [(name: String, kind: Kind)]

    var encoded: [UInt8] { CBORWriter.encode(tree) }

    /// (key bytes, value bytes) in canonical order.
    var entries: [(key: [UInt8], value: [UInt8])] {
        guard case .map(let es) = tree else { return [] }
        return es.map { (CBORWriter.encode($0.key), CBORWriter.encode($0.value)) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }

    /// A map written exactly as given: no sorting, any header.
    static func raw(_ entries: [(key: [UInt8], value: [UInt8])], header: [UInt8]? = nil) -> [UInt8] {
        var w = CBORWriter()
        w.writeMapHeader(entries.count)
        var out = header ?? w.bytes
        for e in entries { out += e.key + e.value }
        return out
    }

    func replacing(_ name: String, with value: CBOR?) -> CBOR { Self.replacing(tree, name, with: value) }

    /// `tree` with member `name` set to `value` (added if absent), or removed when `value` is nil.
    static func replacing(_ tree: CBOR, _ name: String, with value: CBOR?) -> CBOR {
        guard case .map(var es) = tree else { return tree }
        if let i = es.firstIndex(where: { $0.key == .text(name) }) {
            if let value { es[i].value = value } else { es.remove(at: i) }
        } else if let value {
            es.append(CBORMapEntry(key: .text(name), value: value))
        }
        return .map(es)
    }

    func value(_ name: String) -> CBOR? { tree[name] }

    /// The head of `v`'s encoding rewritten one size longer than shortest (§1 rule 1).
    static func longHead(_ encoded: [UInt8]) -> [UInt8] {
        let major = encoded[0] & 0xe0, ai = encoded[0] & 0x1f
        switch ai {
        case 0..<24: return [major | 24, ai] + encoded.dropFirst()
        case 24: return [major | 25, 0] + encoded.dropFirst()
        case 25: return [major | 26, 0, 0] + encoded.dropFirst()
        case 26: return [major | 27, 0, 0, 0, 0] + encoded.dropFirst()
        default: return encoded
        }
    }

    var variants: [Variant] {
        var out: [Variant] = []
        let enc = encoded
        let n = enc.count
        var cuts: [Int] = []
        for c in [0, 1, 2, n / 4, n / 2, n - 1] where c < n && !cuts.contains(c) { cuts.append(c) }
        for c in cuts {
            out.append(Variant(name: "truncated-at-\(c)", comment: "the \(n)-byte encoding cut to its first \(c) byte(s)", bytes: Array(enc.prefix(c)), code: .cborTruncated))
        }
        out.append(Variant(name: "trailing-zero-byte", comment: "one 00 byte after the map", bytes: enc + [0], code: .cborTrailingBytes))
        out.append(Variant(name: "twice", comment: "the encoding twice in a row: bytes after the single top-level item", bytes: enc + enc, code: .cborTrailingBytes))
        let es = entries
        out.append(Variant(name: "map-head-not-shortest", comment: "the map head written with a one-byte count argument (b8 0n) instead of in the initial byte",
                           bytes: Self.longHead(enc), code: .cborNonCanonical))
        out.append(Variant(name: "indefinite-length-map", comment: "the same entries in an indefinite-length map (bf … ff)",
                           bytes: Self.raw(es, header: [0xbf]) + [0xff], code: .cborIndefiniteLength))
        if es.count >= 2 {
            var swapped = es
            swapped.swapAt(0, 1)
            out.append(Variant(name: "keys-unsorted", comment: "the first two map keys in the wrong order", bytes: Self.raw(swapped), code: .cborUnsortedMapKeys))
        }
        out.append(Variant(name: "key-repeated", comment: "the first member written twice", bytes: Self.raw([es[0]] + es), code: .cborDuplicateMapKey))
        // A member whose value head is not shortest: the first unsigned member, else the first byte or text string.
        if let m = members.first(where: { if case .unsigned = $0.kind { return true }; return false }) ?? members.first,
           let i = es.firstIndex(where: { $0.key == CBORWriter.encode(.text(m.name)) }) {
            let name = m.name
            var long = es
            long[i].value = Self.longHead(es[i].value)
            out.append(Variant(name: "\(name)-head-not-shortest", comment: "\(name)'s head one size longer than its shortest form",
                               bytes: Self.raw(long), code: .cborNonCanonical))
        }
        if let m = members.first(where: { if case .text = $0.kind { return true }; return false }),
           let i = es.firstIndex(where: { $0.key == CBORWriter.encode(.text(m.name)) }) {
            let name = m.name
            var bad = es
            bad[i].value = [0x62, 0xff, 0xfe]
            out.append(Variant(name: "\(name)-invalid-utf8", comment: "\(name) is a text string of the bytes ff fe, not UTF-8",
                               bytes: Self.raw(bad), code: .cborInvalidUTF8))
        }
        out.append(Variant(name: "top-level-array", comment: "the member values in an array instead of a map",
                           bytes: CBORWriter.encode(.array(es.map { (try? CBORReader.decode($0.value)) ?? .null })), code: .signinBadType))
        out.append(Variant(name: "top-level-bytes", comment: "a byte string holding the canonical encoding", bytes: CBORWriter.encode(.bytes(enc)), code: .signinBadType))
        out.append(Variant(name: "integer-key", comment: "an extra member keyed by the integer 0 (sorts first): keys must be text",
                           bytes: Self.raw([(CBORWriter.encode(.unsigned(0)), CBORWriter.encode(.unsigned(0)))] + es), code: .signinBadType))
        out.append(Variant(name: "unknown-member", comment: "an extra member `zz` this version does not define",
                           bytes: CBORWriter.encode(replacing("zz", with: .unsigned(1))), code: .signinUnknownField))
        if let tag {
            out.append(Variant(name: "type-missing", comment: "no type member", bytes: CBORWriter.encode(replacing("type", with: nil)), code: .signinMissingField))
            out.append(Variant(name: "type-as-bytes", comment: "type given as a byte string", bytes: CBORWriter.encode(replacing("type", with: .bytes(Array(tag.rawValue.utf8)))),
                               code: .signinBadType))
            for other in SignInPayloadType.allCases where other != tag {
                out.append(Variant(name: "type-\(other.rawValue)", comment: "the payload tag \(other.rawValue) where \(tag.rawValue) is expected",
                                   bytes: CBORWriter.encode(replacing("type", with: .text(other.rawValue))), code: .signinWrongPayloadType))
            }
            out.append(Variant(name: "type-sync-request", comment: "the payload tag sync_request (another format's message) where \(tag.rawValue) is expected",
                               bytes: CBORWriter.encode(replacing("type", with: .text("sync_request"))), code: .signinWrongPayloadType))
        }
        for (name, kind) in members {
            out.append(Variant(name: "\(name)-missing", comment: "no \(name) member", bytes: CBORWriter.encode(replacing(name, with: nil)), code: .signinMissingField))
            let current = value(name) ?? .null
            switch kind {
            case .bytes(let len):
                out.append(Variant(name: "\(name)-as-text", comment: "\(name) as a text string", bytes: CBORWriter.encode(replacing(name, with: .text("x"))), code: .signinBadType))
                guard case .bytes(let b) = current else { break }
                out.append(Variant(name: "\(name)-\(len - 1)-bytes", comment: "\(name) one byte short (\(len - 1) bytes)",
                                   bytes: CBORWriter.encode(replacing(name, with: .bytes(Array(b.dropLast())))), code: .signinBadLength))
                out.append(Variant(name: "\(name)-\(len + 1)-bytes", comment: "\(name) one byte long (\(len + 1) bytes)",
                                   bytes: CBORWriter.encode(replacing(name, with: .bytes(b + [0]))), code: .signinBadLength))
                out.append(Variant(name: "\(name)-empty", comment: "\(name) empty", bytes: CBORWriter.encode(replacing(name, with: .bytes([]))), code: .signinBadLength))
            case .blob:
                out.append(Variant(name: "\(name)-as-map", comment: "\(name) as a map instead of a byte string",
                                   bytes: CBORWriter.encode(replacing(name, with: .map([(CBOR.text("a"), CBOR.unsigned(1))]))), code: .signinBadType))
            case .text(let range):
                out.append(Variant(name: "\(name)-as-bytes", comment: "\(name) as a byte string", bytes: CBORWriter.encode(replacing(name, with: .bytes([0x41]))), code: .signinBadType))
                out.append(Variant(name: "\(name)-\(range.upperBound + 1)-bytes", comment: "\(name) of \(range.upperBound + 1) UTF-8 bytes (at most \(range.upperBound))",
                                   bytes: CBORWriter.encode(replacing(name, with: .text(String(repeating: "a", count: range.upperBound + 1)))), code: .signinBadLength))
                if range.lowerBound > 0 {
                    out.append(Variant(name: "\(name)-empty", comment: "\(name) empty (at least \(range.lowerBound) byte)",
                                       bytes: CBORWriter.encode(replacing(name, with: .text(""))), code: .signinBadLength))
                }
            case .unsigned:
                out.append(Variant(name: "\(name)-negative", comment: "\(name) as the negative integer -1", bytes: CBORWriter.encode(replacing(name, with: .negative(0))), code: .signinBadType))
                out.append(Variant(name: "\(name)-as-text", comment: "\(name) as a decimal text string", bytes: CBORWriter.encode(replacing(name, with: .text("1767226200"))), code: .signinBadType))
                out.append(Variant(name: "\(name)-as-float", comment: "\(name) as the float 1.5", bytes: CBORWriter.encode(replacing(name, with: .float(1.5))), code: .signinBadType))
                out.append(Variant(name: "\(name)-as-float-one", comment: "\(name) as the float 1.0 (integral, still not major type 0)",
                                   bytes: CBORWriter.encode(replacing(name, with: .float(1.0))), code: .signinBadType))
                out.append(Variant(name: "\(name)-as-true", comment: "\(name) as true", bytes: CBORWriter.encode(replacing(name, with: .bool(true))), code: .signinBadType))
            case .map:
                out.append(Variant(name: "\(name)-as-bytes", comment: "\(name) as a byte string instead of a map", bytes: CBORWriter.encode(replacing(name, with: .bytes([1]))), code: .signinBadType))
                out.append(Variant(name: "\(name)-null", comment: "\(name) as null", bytes: CBORWriter.encode(replacing(name, with: .null)), code: .signinBadType))
            }
        }
        return out
    }
}

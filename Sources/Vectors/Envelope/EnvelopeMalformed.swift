/// Systematic malformations of one valid SenderCert or inner plaintext (SPEC.md §14.6, §14.7 step
/// 3): truncations, trailing bytes, the §1 profile violations a map can carry, a wrong top-level
/// type, a non-text key, an unknown member, and per member a removal, a wrong CBOR type and wrong
/// lengths. Each variant names the code SPEC.md predicts; the generator checks the reference agrees.
struct EnvelopeMalformed {
    enum Kind {
        case bytes(Int?)
        case text(ClosedRange<Int>)
        case unsigned
    }

    struct Variant {
        var name: String
        var comment: String
        var bytes: [UInt8]
        var code: ErrorCode
    }

    let tree: CBOR
    /// Members in decoding order; `missingCode` overrides `envelope_missing_field` (the MAC).
    let members: [(name: String, kind: Kind, missingCode: ErrorCode)]

    var encoded: [UInt8] { CBORWriter.encode(tree) }

    var variants: [Variant] {
        var out: [Variant] = []
        let enc = encoded, n = enc.count
        var cuts: [Int] = []
        for c in [0, 1, n / 2, n - 1] where c < n && !cuts.contains(c) { cuts.append(c) }
        for c in cuts {
            out.append(Variant(name: "truncated-at-\(c)", comment: "the \(n)-byte encoding cut to \(c) byte(s)", bytes: Array(enc.prefix(c)), code: .cborTruncated))
        }
        out.append(Variant(name: "trailing-zero-byte", comment: "one 00 byte after the map", bytes: enc + [0], code: .cborTrailingBytes))
        let es: [(key: [UInt8], value: [UInt8])] = {
            guard case .map(let m) = tree else { return [] }
            return m.map { (CBORWriter.encode($0.key), CBORWriter.encode($0.value)) }.sorted { $0.key.lexicographicallyPrecedes($1.key) }
        }()
        out.append(Variant(name: "map-head-not-shortest", comment: "the map head with a one-byte count argument (b8 04)", bytes: MalformedEncodings.longHead(enc),
                           code: .cborNonCanonical))
        out.append(Variant(name: "indefinite-length-map", comment: "the same entries in an indefinite-length map (bf … ff)",
                           bytes: MalformedEncodings.raw(es, header: [0xbf]) + [0xff], code: .cborIndefiniteLength))
        var swapped = es
        swapped.swapAt(0, 1)
        out.append(Variant(name: "keys-unsorted", comment: "the first two keys in the wrong order", bytes: MalformedEncodings.raw(swapped), code: .cborUnsortedMapKeys))
        out.append(Variant(name: "key-repeated", comment: "the first member written twice", bytes: MalformedEncodings.raw([es[0]] + es), code: .cborDuplicateMapKey))
        out.append(Variant(name: "top-level-array", comment: "the member values in an array instead of a map",
                           bytes: CBORWriter.encode(.array(es.map { (try? CBORReader.decode($0.value)) ?? .null })), code: .envelopeBadType))
        out.append(Variant(name: "top-level-bytes", comment: "a byte string holding the encoding", bytes: CBORWriter.encode(.bytes(enc)), code: .envelopeBadType))
        out.append(Variant(name: "integer-key", comment: "an extra member keyed by the integer 0: keys must be text",
                           bytes: MalformedEncodings.raw([(CBORWriter.encode(.unsigned(0)), CBORWriter.encode(.unsigned(0)))] + es), code: .envelopeBadType))
        out.append(Variant(name: "unknown-member", comment: "an extra member zz this version does not define (a lenient decoder ignores it)",
                           bytes: CBORWriter.encode(tree.replacingMember("zz", .unsigned(1))), code: .envelopeUnknownField))
        for m in members {
            out.append(Variant(name: "\(m.name)-missing", comment: "no \(m.name) member", bytes: CBORWriter.encode(tree.replacingMember(m.name, nil)), code: m.missingCode))
            let wrong: CBOR
            switch m.kind {
            case .bytes: wrong = .text("00")
            case .text: wrong = .bytes(Array("sync_request".utf8))
            case .unsigned: wrong = .negative(0)
            }
            out.append(Variant(name: "\(m.name)-wrong-type", comment: "\(m.name) as \(CBORDiagnostic.render(wrong))", bytes: CBORWriter.encode(tree.replacingMember(m.name, wrong)),
                               code: .envelopeBadType))
            if case .bytes(let len?) = m.kind, case .bytes(let v)? = tree[m.name] {
                out.append(Variant(name: "\(m.name)-one-short", comment: "\(m.name) of \(len - 1) bytes", bytes: CBORWriter.encode(tree.replacingMember(m.name, .bytes(Array(v.dropLast())))),
                                   code: .envelopeBadLength))
                out.append(Variant(name: "\(m.name)-one-long", comment: "\(m.name) of \(len + 1) bytes", bytes: CBORWriter.encode(tree.replacingMember(m.name, .bytes(v + [0]))),
                                   code: .envelopeBadLength))
                out.append(Variant(name: "\(m.name)-empty", comment: "\(m.name) empty", bytes: CBORWriter.encode(tree.replacingMember(m.name, .bytes([]))),
                                   code: .envelopeBadLength))
            }
            if case .text(let r) = m.kind {
                out.append(Variant(name: "\(m.name)-empty", comment: "\(m.name) of 0 UTF-8 bytes", bytes: CBORWriter.encode(tree.replacingMember(m.name, .text(""))),
                                   code: r.lowerBound > 0 ? .envelopeBadLength : .envelopeBadType))
                out.append(Variant(name: "\(m.name)-over-long", comment: "\(m.name) of \(r.upperBound + 1) UTF-8 bytes",
                                   bytes: CBORWriter.encode(tree.replacingMember(m.name, .text(String(repeating: "a", count: r.upperBound + 1)))), code: .envelopeBadLength))
            }
        }
        return out
    }
}

import Primitives

/// The strict member reader for the two CBOR maps of this layer, the SenderCert (SPEC.md §14.6)
/// and the envelope's inner plaintext (§14.7): the §1 profile, a map with text keys, no member
/// outside the table (in encoding order), then members one by one. Member names are compared by
/// their UTF-8 bytes, never as Swift `String`s (which would make canonically equivalent keys one).
struct EnvelopeMapReader {
    private var entries: [(name: [UInt8], value: CBOR)] = []

    init(_ bytes: [UInt8], allowed: [String]) throws(WireError) {
        let item = try CBORReader.decode(bytes)
        guard case .map(let es) = item else { throw WireError(.envelopeBadType, "expected a CBOR map") }
        for e in es {
            guard case .text(let k) = e.key else { throw WireError(.envelopeBadType, "map keys must be text strings") }
            entries.append((Array(k.utf8), e.value))
        }
        if !Mutant.on(.envelopeUnknownMembersIgnored) {
            let known = allowed.map { Array($0.utf8) }
            for e in entries where !known.contains(e.name) {
                throw WireError(.envelopeUnknownField, "no member \(String(decoding: e.name, as: UTF8.self)) in this map")
            }
        }
    }

    func value(_ name: String) -> CBOR? {
        let n = Array(name.utf8)
        return entries.first { $0.name == n }?.value
    }

    func required(_ name: String) throws(WireError) -> CBOR {
        guard let v = value(name) else { throw WireError(.envelopeMissingField, "missing \(name)", field: name) }
        return v
    }

    /// A byte string, of exactly `length` bytes when given.
    func bytes(_ name: String, length: Int? = nil) throws(WireError) -> [UInt8] {
        try Self.bytes(try required(name), name, length: length)
    }

    static func bytes(_ v: CBOR, _ name: String, length: Int?) throws(WireError) -> [UInt8] {
        guard case .bytes(let b) = v else { throw WireError(.envelopeBadType, "\(name) must be a byte string", field: name) }
        if let length, b.count != length {
            throw WireError(.envelopeBadLength, "\(name) must be \(length) bytes, got \(b.count)", field: name)
        }
        return b
    }

    /// A text string of `utf8Length` UTF-8 bytes.
    func text(_ name: String, utf8Length: ClosedRange<Int>) throws(WireError) -> String {
        guard case .text(let s) = try required(name) else { throw WireError(.envelopeBadType, "\(name) must be a text string", field: name) }
        guard utf8Length.contains(s.utf8.count) else {
            throw WireError(.envelopeBadLength, "\(name) must be \(utf8Length.lowerBound)–\(utf8Length.upperBound) UTF-8 bytes", field: name)
        }
        return s
    }

    /// An unsigned integer: major type 0 only.
    func unsigned(_ name: String) throws(WireError) -> UInt64 {
        guard case .unsigned(let v) = try required(name) else { throw WireError(.envelopeBadType, "\(name) must be an unsigned integer", field: name) }
        return v
    }
}

import Primitives

/// The strict member reader every sign-in message uses (SPEC.md §8.2, decoding steps 1–5).
///
/// Strict on purpose: these messages decide whether a lock-screen prompt appears and carry the
/// account seed, so a member this version does not know is rejected rather than skipped; messages
/// evolve by new payload tags, not by new members. Nothing here traps: every failure is a
/// `WireError` naming the member.
struct SignInMapReader {
    private(set) var members: [String: CBOR] = [:]
    let path: String

    /// Steps 1–4 over bytes: the CBOR profile of §1, then the map checks of `init(item:)`.
    init(_ bytes: [UInt8], tag: SignInPayloadType?, allowed: [String]) throws(WireError) {
        try self.init(item: try CBORReader.decode(bytes), tag: tag, allowed: allowed, path: "")
    }

    /// Steps 2–4: a map whose keys are all text, the `type` tag (when `tag` is given), then no
    /// member outside `allowed` (checked in encoding order).
    init(item: CBOR, tag: SignInPayloadType?, allowed: [String], path: String) throws(WireError) {
        self.path = path
        let here = path.isEmpty ? "(top level)" : path
        guard case .map(let entries) = item else {
            throw WireError(.signinBadType, "expected a CBOR map", field: here)
        }
        var names: [String] = []
        for e in entries {
            guard case .text(let k) = e.key else {
                throw WireError(.signinBadType, "map keys must be text strings", field: here)
            }
            names.append(k)
            members[k] = e.value
        }
        if let tag {
            guard case .text(let s) = try required("type") else {
                throw WireError(.signinBadType, "type must be a text string", field: field("type"))
            }
            guard s == tag.rawValue else {
                throw WireError(.signinWrongPayloadType, "expected \(tag.rawValue), got \(s)", field: field("type"))
            }
        }
        let known = Set(allowed + (tag == nil ? [] : ["type"]))
        for n in names where !known.contains(n) {
            throw WireError(.signinUnknownField, "no member \(n) in this message", field: field(n))
        }
    }

    func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    func has(_ name: String) -> Bool { members[name] != nil }

    func required(_ name: String) throws(WireError) -> CBOR {
        guard let v = members[name] else { throw WireError(.signinMissingField, "missing \(name)", field: field(name)) }
        return v
    }

    /// A byte string of exactly `length` bytes.
    func bytes(_ name: String, length: Int) throws(WireError) -> [UInt8] {
        guard case .bytes(let b) = try required(name) else {
            throw WireError(.signinBadType, "\(name) must be a byte string", field: field(name))
        }
        guard b.count == length else {
            throw WireError(.signinBadLength, "\(name) must be \(length) bytes, got \(b.count)", field: field(name))
        }
        return b
    }

    /// A byte string of any length (an opaque blob such as the embedded certificate).
    func bytes(_ name: String) throws(WireError) -> [UInt8] {
        guard case .bytes(let b) = try required(name) else {
            throw WireError(.signinBadType, "\(name) must be a byte string", field: field(name))
        }
        return b
    }

    /// A text string whose UTF-8 length lies in `utf8Length`.
    func text(_ name: String, utf8Length: ClosedRange<Int>) throws(WireError) -> String {
        guard case .text(let s) = try required(name) else {
            throw WireError(.signinBadType, "\(name) must be a text string", field: field(name))
        }
        let n = s.utf8.count
        guard utf8Length.contains(n) else {
            throw WireError(.signinBadLength, "\(name) must be \(utf8Length.lowerBound)–\(utf8Length.upperBound) UTF-8 bytes, got \(n)",
                            field: field(name))
        }
        return s
    }

    /// An unsigned integer (major type 0 only: a negative integer is the wrong type).
    func unsigned(_ name: String) throws(WireError) -> UInt64 {
        guard case .unsigned(let v) = try required(name) else {
            throw WireError(.signinBadType, "\(name) must be an unsigned integer", field: field(name))
        }
        return v
    }

    /// A nested map member, read with the same rules.
    func map(_ name: String, allowed: [String]) throws(WireError) -> SignInMapReader {
        try SignInMapReader(item: try required(name), tag: nil, allowed: allowed, path: field(name))
    }
}

import Primitives

/// The strict member reader shared by the three messages and the snapshot (SPEC.md §7.2,
/// decoding steps 1–5).
///
/// Strict on purpose: an offer carries key material, and a member this version does not know
/// (a future `aad`, say) could change what the key means, so it is rejected rather than skipped.
/// Messages evolve by new payload tags, not by new members.
struct SyncMapReader {
    private(set) var members: [String: CBOR] = [:]
    let path: String

    /// Steps 1–4: the deterministic CBOR profile, a map with text keys, the `type` tag (when
    /// `tag` is given), then no member outside `allowed` (checked in encoding order).
    init(_ bytes: [UInt8], tag: SyncPayloadType?, allowed: [String], path: String = "") throws(WireError) {
        try self.init(item: try CBORReader.decode(bytes), tag: tag, allowed: allowed, path: path)
    }

    init(item: CBOR, tag: SyncPayloadType?, allowed: [String], path: String) throws(WireError) {
        self.path = path
        guard case .map(let entries) = item else {
            throw WireError(.syncBadType, "expected a CBOR map", field: path.isEmpty ? "(top level)" : path)
        }
        var names: [String] = []
        for e in entries {
            guard case .text(let k) = e.key else {
                throw WireError(.syncBadType, "map keys must be text strings", field: path.isEmpty ? "(top level)" : path)
            }
            names.append(k)
            members[k] = e.value
        }
        if let tag {
            let t = try required("type")
            guard case .text(let s) = t else { throw WireError(.syncBadType, "type must be a text string", field: field("type")) }
            guard s == tag.rawValue else {
                throw WireError(.syncWrongPayloadType, "expected \(tag.rawValue), got \(s)", field: field("type"))
            }
        }
        let known = Set(allowed + (tag == nil ? [] : ["type"]))
        for n in names where !known.contains(n) && !Mutant.on(.syncTolerateUnknownMembers) {
            throw WireError(.syncUnknownField, "no member \(n) in this message", field: field(n))
        }
    }

    func field(_ name: String) -> String { path.isEmpty ? name : "\(path).\(name)" }

    func required(_ name: String) throws(WireError) -> CBOR {
        guard let v = members[name] else { throw WireError(.syncMissingField, "missing \(name)", field: field(name)) }
        return v
    }

    /// A byte string of exactly `length` bytes (any length when nil).
    func bytes(_ name: String, length: Int?) throws(WireError) -> [UInt8] {
        guard case .bytes(let b) = try required(name) else {
            throw WireError(.syncBadType, "\(name) must be a byte string", field: field(name))
        }
        if let length, b.count != length {
            throw WireError(.syncBadLength, "\(name) must be \(length) bytes, got \(b.count)", field: field(name))
        }
        return b
    }

    /// An unsigned integer (major type 0 only: a negative integer is the wrong type).
    func unsigned(_ name: String) throws(WireError) -> UInt64 {
        guard case .unsigned(let v) = try required(name) else {
            throw WireError(.syncBadType, "\(name) must be an unsigned integer", field: field(name))
        }
        return v
    }

    func bool(_ name: String) throws(WireError) -> Bool {
        guard case .bool(let b) = try required(name) else {
            throw WireError(.syncBadType, "\(name) must be true or false", field: field(name))
        }
        return b
    }
}

import Primitives

/// The CBOR type a payload member must have (SPEC.md §7.2 tables).
enum PayloadShape: Sendable, Equatable {
    /// A byte string of exactly this many bytes.
    case bytes(Int)
    /// Major type 0.
    case uint
    /// `f5` / `f4`.
    case bool
}

/// The strict reader shared by the three messages (SPEC.md §7.2, decoding steps 1–5).
///
/// Strict on purpose: an offer carries key material, and a member this version does not know
/// (a future `aad`, say) could change what the key means, so it is rejected rather than skipped.
/// Messages evolve by new payload tags, not by new members.
struct SyncMapReader {
    private(set) var members: [String: CBOR] = [:]

    /// Steps 1–5: the §1 profile, a map with text keys, the `type` tag, no member outside
    /// `fields`, then every member of `fields` in table order ([R7.2-8]) checked for presence,
    /// CBOR type and length.
    init(_ bytes: [UInt8], tag: SyncPayloadType, fields: [(String, PayloadShape)]) throws(WireError) {
        let item = try CBORReader.decode(bytes)
        guard case .map(let entries) = item else { throw WireError(.syncBadType, "expected a CBOR map", field: "(top level)") }
        var names: [String] = []
        for e in entries {
            guard case .text(let k) = e.key else { throw WireError(.syncBadType, "map keys must be text strings", field: "(top level)") }
            names.append(k)
            members[k] = e.value
        }
        // A stock decoder that folds a null member into "absent".
        if Mutant.on(.syncNullMemberAbsent) { members = members.filter { $0.value != .null } }
        // Step 3: the tag, byte for byte.
        guard let t = members["type"] else { throw WireError(.syncMissingField, "missing type", field: "type") }
        guard case .text(let s) = t else { throw WireError(.syncBadType, "type must be a text string", field: "type") }
        let same = Mutant.on(.syncTypeCaseInsensitive) ? s.lowercased() == tag.rawValue : Array(s.utf8) == Array(tag.rawValue.utf8)
        guard same else { throw WireError(.syncWrongPayloadType, "expected \(tag.rawValue), got \(s)", field: "type") }
        // Step 4: no member outside the table.
        let known = Set(fields.map(\.0) + ["type"])
        for n in names where !known.contains(n) && !Mutant.on(.syncTolerateUnknownMembers) {
            throw WireError(.syncUnknownField, "no member \(n) in this message", field: n)
        }
        // Step 5: table order; a hurried reader walks the map in encoding order instead.
        var order = fields
        if Mutant.on(.syncMembersEncodingOrder) {
            order = names.compactMap { n in fields.first { $0.0 == n } } + fields.filter { f in !names.contains(f.0) }
        }
        for (name, shape) in order { try Self.check(members[name], name: name, shape: shape) }
    }

    static func check(_ v: CBOR?, name: String, shape: PayloadShape) throws(WireError) {
        guard let v else { throw WireError(.syncMissingField, "missing \(name)", field: name) }
        switch (shape, v) {
        case (.bytes(let n), .bytes(let b)):
            if b.count != n { throw WireError(.syncBadLength, "\(name) must be \(n) bytes, got \(b.count)", field: name) }
        case (.uint, .unsigned): break
        case (.uint, .float(let d)) where Mutant.on(.syncFloatAsInteger) && d >= 0 && d == d.rounded() && d < 0x1p64: break
        case (.bool, .bool): break
        default:
            throw WireError(.syncBadType, "\(name) has the wrong CBOR type", field: name)
        }
    }

    func bytes(_ name: String) -> [UInt8] {
        if case .bytes(let b)? = members[name] { return b }
        return []
    }

    func unsigned(_ name: String) -> UInt64 {
        switch members[name] {
        case .unsigned(let v)?: return v
        case .float(let d)?: return UInt64(d)
        default: return 0
        }
    }

    func bool(_ name: String) -> Bool {
        if case .bool(let b)? = members[name] { return b }
        return false
    }
}

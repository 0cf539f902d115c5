import Foundation
import Primitives

/// The fields a snapshot row carries beyond its §4.4 schema (SPEC.md §7.4 [R7.4-3]): contact key
/// material the seed's import writes ("pubkey, userIDHash, accountSigningPubkey, channelKey"),
/// never hashed into a leaf.
enum SnapshotFields {
    static let contacts: [FieldSpec] = [
        FieldSpec(name: "pubkey", kind: .bytes(length: nil), optional: true, role: .excluded(reason: "snapshot field")),
        FieldSpec(name: "accountSigningPubkey", kind: .bytes(length: nil), optional: true, role: .excluded(reason: "snapshot field")),
        FieldSpec(name: "channelKey", kind: .bytes(length: 32), optional: true, role: .excluded(reason: "snapshot field")),
    ]

    /// The snapshot fields of a namespace, in §7.4 table order.
    static func all(for ns: Namespace) -> [FieldSpec] { ns == .contacts ? contacts : [] }

    /// The ones a reader recognises (all of them, unless a mutant models a reader that only knows §4.4).
    static func known(for ns: Namespace) -> [FieldSpec] { Mutant.on(.syncSnapshotFieldsUnknown) ? [] : all(for: ns) }
}

/// A row of a snapshot: a §4 row plus its snapshot fields.
public struct SnapshotRow: Sendable, Hashable {
    public var row: Row
    /// Values of `SnapshotFields.all(for: namespace)`, nil when absent.
    public var extras: [FieldValue?]

    public init(_ row: Row, extras: [FieldValue?]? = nil) {
        self.row = row
        self.extras = extras ?? Array(repeating: nil, count: SnapshotFields.all(for: row.namespace).count)
    }

    public var namespace: Namespace { row.namespace }
    public var keyBytes: [UInt8] { row.keyBytes }

    /// A §4.4 field or a snapshot field by name.
    public subscript(name: String) -> FieldValue? {
        get {
            if row.schema.index(of: name) != nil { return row[name] }
            return SnapshotFields.all(for: namespace).firstIndex { $0.name == name }.flatMap { extras[$0] }
        }
        set {
            if row.schema.index(of: name) != nil { row[name] = newValue; return }
            guard let i = SnapshotFields.all(for: namespace).firstIndex(where: { $0.name == name }) else { preconditionFailure("no field \(name)") }
            extras[i] = newValue
        }
    }
}

/// A snapshot row as one CBOR map (SPEC.md §7.4): the same field names and types as vector input,
/// byte strings as CBOR byte strings, dates as integer milliseconds.
///
/// Reading checks CBOR major types, not JSON spellings: a text string where a byte field belongs
/// is `sync_bad_type` even if it happens to look like hex.
enum SnapshotRowCodec {
    /// The row's present fields: §4.4 fields in table order, then its snapshot fields in §7.4
    /// order, text sets sorted by UTF-8 bytes without duplicates (one store, one encoding).
    static func tree(_ r: SnapshotRow, wire: Bool = false) -> CBOR {
        let schema = r.row.schema
        var pairs: [(String, CBOR)] = schema.fields.indices.compactMap { i in
            r.row.values[i].map { (schema.fields[i].name, value($0, wire: wire)) }
        }
        let extra = SnapshotFields.all(for: r.namespace)
        for (i, f) in extra.enumerated() { if let v = r.extras[i] { pairs.append((f.name, value(v, wire: wire))) } }
        return .object(pairs)
    }

    static func value(_ v: FieldValue, wire: Bool) -> CBOR {
        let t = canonical(v).tree
        // A writer that normalises text to NFC (a platform string API's default): wrong, §7.4.
        if wire, Mutant.on(.syncTextNFC) { return nfc(t) }
        return t
    }

    static func nfc(_ t: CBOR) -> CBOR {
        switch t {
        case .text(let s): return .text(s.precomposedStringWithCanonicalMapping)
        case .array(let a): return .array(a.map(nfc))
        default: return t
        }
    }

    static func canonical(_ v: FieldValue) -> FieldValue {
        if case .textSet(let s) = v { return .textSet(normalisedSet(s)) }
        if case .reactions(let r) = v { return .reactions(Array(Set(r)).sorted(by: Reaction.precedes)) }
        return v
    }

    /// How text orders in sets and keys: UTF-8 bytes (SPEC.md §2.2 rule 5, §7.4).
    static func precedes(_ a: String, _ b: String) -> Bool {
        if Mutant.on(.syncTextSetUTF16Order) { return Array(a.utf16).lexicographicallyPrecedes(Array(b.utf16)) }
        return Array(a.utf8).lexicographicallyPrecedes(Array(b.utf8))
    }

    /// Sorted, duplicates removed, both by UTF-8 bytes: NFC and NFD spellings are two elements.
    static func normalisedSet(_ s: [String]) -> [String] {
        var seen = Set<[UInt8]>()
        return s.filter { seen.insert(Array($0.utf8)).inserted }.sorted(by: precedes)
    }

    static func canonical(_ r: SnapshotRow) -> SnapshotRow {
        var c = r
        c.row.values = c.row.values.map { $0.map(canonical) }
        return c
    }

    /// Step 7 of SPEC.md §7.4 for one row: members in encoding order ([R7.4-17]), then required
    /// fields ([R7.4-18]).
    static func decode(_ item: CBOR, namespace ns: Namespace, path: String) throws(WireError) -> SnapshotRow {
        guard case .map(var entries) = item else { throw WireError(.syncBadType, "a row is a CBOR map", field: path) }
        if Mutant.on(.syncNullMemberAbsent) { entries.removeAll { $0.value == .null } }
        let schema = LeafSchema.schema(for: ns)
        let extra = SnapshotFields.known(for: ns)
        var values = [FieldValue?](repeating: nil, count: schema.fields.count)
        var extras = [FieldValue?](repeating: nil, count: SnapshotFields.all(for: ns).count)

        func member(_ name: String, _ v: CBOR) throws(WireError) {
            if let i = schema.index(of: name) {
                values[i] = try value(v, kind: schema.fields[i].kind, path: "\(path).\(name)")
            } else if let i = extra.firstIndex(where: { $0.name == name }) {
                extras[i] = try value(v, kind: extra[i].kind, path: "\(path).\(name)")
            } else {
                throw WireError(.syncUnknownField, "\(ns.rawValue) rows have no field \(name)", field: "\(path).\(name)")
            }
        }
        var named: [(String, CBOR)] = []
        for e in entries {
            guard case .text(let name) = e.key else { throw WireError(.syncBadType, "row keys are text strings", field: path) }
            named.append((name, e.value))
        }
        if Mutant.on(.syncRowFieldsSchemaOrder) {
            // A reader that walks the schema, then complains about whatever is left.
            for f in schema.fields + extra { if let v = named.first(where: { $0.0 == f.name }) { try member(v.0, v.1) } }
            for (name, v) in named where schema.index(of: name) == nil && !extra.contains(where: { $0.name == name }) { try member(name, v) }
        } else {
            for (name, v) in named { try member(name, v) }
        }
        for (i, f) in schema.fields.enumerated() where values[i] == nil && f.isRequired {
            throw WireError(.syncMissingField, "\(ns.rawValue) rows need \(f.name)", field: "\(path).\(f.name)")
        }
        return SnapshotRow(Row(namespace: ns, values: values), extras: extras)
    }

    static func value(_ v: CBOR, kind: FieldKind, path: String) throws(WireError) -> FieldValue {
        func bad(_ what: String) -> WireError { WireError(.syncBadType, "expected \(what)", field: path) }
        switch kind {
        case .bytes(let length):
            guard case .bytes(let b) = v else { throw bad("a byte string") }
            if let length, b.count != length { throw WireError(.syncBadLength, "expected \(length) bytes, got \(b.count)", field: path) }
            return .bytes(b)
        case .normalizedHash:
            guard case .bytes(let b) = v else { throw bad("a byte string") }
            guard b.isEmpty || b.count == 32 else { throw WireError(.syncBadLength, "a user-id hash is 32 bytes or empty", field: path) }
            return .bytes(b)
        case .text, .noteBody:
            guard case .text(let s) = v else { throw bad("a text string") }
            return .text(s)
        case .uint:
            if case .float(let d) = v, Mutant.on(.syncFloatAsInteger), d >= 0, d == d.rounded(), d < 0x1p64 { return .uint(UInt64(d)) }
            guard case .unsigned(let n) = v else { throw bad("an unsigned integer") }
            return .uint(n)
        case .int, .date:
            let n: Int64
            switch v {
            case .unsigned(let u):
                guard u <= UInt64(Int64.max) else { throw WireError(.syncBadValue, "integer beyond 2^63-1", field: path) }
                n = Int64(u)
            case .negative(let u):
                guard u <= UInt64(Int64.max) else { throw WireError(.syncBadValue, "integer below -2^63", field: path) }
                n = -1 - Int64(u)
            default: throw bad("an integer")
            }
            return kind == .date ? .date(n) : .int(n)
        case .bool:
            guard case .bool(let b) = v else { throw bad("true or false") }
            return .bool(b)
        case .textSet:
            guard case .array(let items) = v else { throw bad("an array of text strings") }
            var out: [String] = []
            for item in items {
                guard case .text(let s) = item else { throw bad("an array of text strings") }
                if let last = out.last, !precedes(last, s) {
                    throw WireError(.syncBadValue, "a text set is written sorted by UTF-8 bytes without duplicates", field: path)
                }
                out.append(s)
            }
            return .textSet(out)
        case .reactionSet:
            // SPEC §7.4: an array of {reactor, emoji} maps, strictly increasing in the §4.2 order.
            guard case .array(let items) = v else { throw bad("an array of reactions") }
            var out: [Reaction] = []
            for item in items {
                guard case .map(let members) = item else { throw bad("a reaction map") }
                var reactor: [UInt8]?, emoji: String?
                for m in members {
                    switch m.key {
                    case .text("reactor"):
                        guard case .bytes(let b) = m.value else { throw bad("a byte string") }
                        guard b.count == 32 else { throw WireError(.syncBadLength, "a reactor is 32 bytes", field: path) }
                        reactor = b
                    case .text("emoji"):
                        guard case .text(let e) = m.value else { throw bad("a text string") }
                        emoji = e
                    case .text: throw WireError(.syncUnknownField, "a reaction has only reactor and emoji", field: path)
                    default: throw bad("text keys")
                    }
                }
                guard let reactor, let emoji else { throw WireError(.syncMissingField, "a reaction needs reactor and emoji", field: path) }
                let r = Reaction(reactor: reactor, emoji: emoji)
                if let last = out.last, !Reaction.precedes(last, r) {
                    throw WireError(.syncBadValue, "a reaction set is written sorted without duplicates", field: path)
                }
                out.append(r)
            }
            return .reactions(out)
        case .versionVector:
            guard case .map(let entries) = v else { throw bad("a map of text to unsigned integers") }
            var out: [TextKey: UInt64] = [:]
            for e in entries {
                guard case .text(let k) = e.key, case .unsigned(let c) = e.value else { throw bad("a map of text to unsigned integers") }
                out[TextKey(k)] = c
            }
            return .versionVector(out)
        }
    }

    // MARK: vector input

    /// A row of a `SNAPSHOT` input (SPEC.md §7.9 [R7.9-7]): the snapshot fields taken out, the
    /// rest read as a §4 row (§4.3's rules and order), then the snapshot fields in §7.4 order.
    static func parse(_ json: JSONValue, namespace ns: Namespace, path: String) throws(WireError) -> SnapshotRow {
        InputRecorder.note(path, .object, json)
        guard let members = json.objectValue else { throw WireError(.inputBadType, "a row must be an object", field: path) }
        let extra = SnapshotFields.known(for: ns)
        let rest = members.filter { m in !extra.contains { $0.name == m.0 } }
        let row = try Row.parse(.object(rest), namespace: ns, path: path)
        var extras = [FieldValue?](repeating: nil, count: SnapshotFields.all(for: ns).count)
        for (i, f) in extra.enumerated() {
            guard let v = json[f.name] else { continue }
            extras[i] = try Row.parseValue(v, kind: f.kind, path: "\(path).\(f.name)")
        }
        return SnapshotRow(row, extras: extras)
    }
}

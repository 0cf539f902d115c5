import Primitives

/// A §4 row as one CBOR map inside a snapshot (SPEC.md §7.4): the same field names and types as
/// vector input, with byte strings as CBOR byte strings and dates as integer milliseconds.
///
/// Reading checks CBOR major types, not JSON spellings: a text string where a byte field belongs
/// is `sync_bad_type` even if it happens to look like hex.
enum SnapshotRowCodec {
    /// The canonical tree: present fields only, text sets sorted by UTF-8 bytes without duplicates
    /// (one store, one encoding), version-vector keys sorted.
    static func tree(_ row: Row) -> CBOR {
        let schema = row.schema
        return .object(schema.fields.indices.compactMap { i in
            row.values[i].map { (schema.fields[i].name, canonical($0).tree) }
        })
    }

    static func canonical(_ v: FieldValue) -> FieldValue {
        if case .textSet(let s) = v { return .textSet(normalisedSet(s)) }
        if case .reactions(let r) = v { return .reactions(Array(Set(r)).sorted(by: Reaction.precedes)) }
        return v
    }

    static func normalisedSet(_ s: [String]) -> [String] {
        var seen = Set<String>()
        return s.filter { seen.insert($0).inserted }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// A row with text sets normalised, so rows built from JSON input compare equal to decoded ones.
    static func canonical(_ row: Row) -> Row {
        var r = row
        r.values = r.values.map { $0.map(canonical) }
        return r
    }

    static func decode(_ item: CBOR, namespace ns: Namespace, path: String) throws(WireError) -> Row {
        guard case .map(let entries) = item else { throw WireError(.syncBadType, "a row is a CBOR map", field: path) }
        let schema = LeafSchema.schema(for: ns)
        var values = [FieldValue?](repeating: nil, count: schema.fields.count)
        for e in entries {
            guard case .text(let name) = e.key else { throw WireError(.syncBadType, "row keys are text strings", field: path) }
            guard let i = schema.index(of: name) else {
                throw WireError(.syncUnknownField, "\(ns.rawValue) rows have no field \(name)", field: "\(path).\(name)")
            }
            values[i] = try value(e.value, kind: schema.fields[i].kind, path: "\(path).\(name)")
        }
        for (i, f) in schema.fields.enumerated() where values[i] == nil && f.isRequired {
            throw WireError(.syncMissingField, "\(ns.rawValue) rows need \(f.name)", field: "\(path).\(f.name)")
        }
        return Row(namespace: ns, values: values)
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
                if let last = out.last, !Array(last.utf8).lexicographicallyPrecedes(Array(s.utf8)) {
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
}

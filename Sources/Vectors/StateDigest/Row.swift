import Primitives

/// One row of a namespace, its values indexed like `LeafSchema.fields` (nil = absent).
public struct Row: Sendable, Hashable {
    public let namespace: Namespace
    public var values: [FieldValue?]

    public init(_ namespace: Namespace, _ pairs: KeyValuePairs<String, FieldValue>) {
        self.init(namespace, Array(pairs.map { ($0.key, $0.value) }))
    }

    public init(_ namespace: Namespace, _ pairs: [(String, FieldValue)]) {
        self.namespace = namespace
        let schema = LeafSchema.schema(for: namespace)
        var values = [FieldValue?](repeating: nil, count: schema.fields.count)
        for (name, value) in pairs {
            guard let i = schema.index(of: name) else { preconditionFailure("no field \(name) in \(namespace)") }
            values[i] = value
        }
        self.values = values
    }

    public var schema: LeafSchema { LeafSchema.schema(for: namespace) }

    public subscript(name: String) -> FieldValue? {
        get { schema.index(of: name).flatMap { values[$0] } }
        set {
            guard let i = schema.index(of: name) else { preconditionFailure("no field \(name) in \(namespace)") }
            values[i] = newValue
        }
    }

    /// The row's sort key bytes (a text key sorts by its UTF-8 bytes).
    public var keyBytes: [UInt8] {
        switch values[LeafSchema.keyIndices[namespace.rawValueIndex]] {
        case .bytes(let b)?: return b
        case .text(let s)?: return Array(s.utf8)
        default: return []
        }
    }

    /// The row as vector data: present fields in schema order.
    public var tree: CBOR {
        let schema = self.schema
        return .object(schema.fields.indices.compactMap { i in values[i].map { (schema.fields[i].name, $0.tree) } })
    }

    /// Parses a row object (SPEC.md §4.3): not an object is `input_bad_type`; then any member the
    /// schema does not define is `input_unknown_field`, before any value is read; then the schema's
    /// fields in table order, each completely (absent required → `input_missing_field`, present →
    /// read by its type). The answer never depends on the order the JSON lists the members in.
    /// `wire` marks a row inside a frame, whose hex is lowercase only (§5.3).
    public static func parse(_ json: JSONValue, namespace: Namespace, path: String, wire: Bool = false) throws(WireError) -> Row {
        InputRecorder.note(path, .object, json)
        guard let members = json.objectValue else {
            throw WireError(.inputBadType, "a row must be an object", field: path)
        }
        let schema = LeafSchema.schema(for: namespace)
        let rules = RowReading.current
        var given = [JSONValue?](repeating: nil, count: schema.fields.count)
        var values = [FieldValue?](repeating: nil, count: schema.fields.count)
        func unknown(_ name: String) -> WireError {
            WireError(.unknownField, "\(namespace.rawValue) rows have no field \(name)", field: "\(path).\(name)")
        }
        if rules.memberOrder {
            // The mutant: one pass in member order, unknown fields met along the way.
            for (name, value) in members {
                guard let i = schema.index(of: name) else { throw unknown(name) }
                values[i] = try readField(value, schema.fields[i], path: "\(path).\(name)", rules: rules, wire: wire)
            }
            for (i, f) in schema.fields.enumerated() where values[i] == nil && f.isRequired {
                throw WireError(.inputMissingField, "\(namespace.rawValue) rows need \(f.name)", field: "\(path).\(f.name)")
            }
            return Row(namespace: namespace, values: values)
        }
        for (name, value) in members {
            guard let i = schema.index(of: name) else { throw unknown(name) }
            guard given[i] == nil else {
                // Unreachable from vectors (a frame's JSON text with a repeated name is already
                // frame_invalid_json); kept so a direct caller never silently loses a value.
                throw WireError(.inputBadValue, "field \(name) given twice", field: "\(path).\(name)")
            }
            given[i] = value
        }
        for (i, f) in schema.fields.enumerated() {
            guard let value = given[i] else {
                if f.isRequired { throw WireError(.inputMissingField, "\(namespace.rawValue) rows need \(f.name)", field: "\(path).\(f.name)") }
                continue
            }
            values[i] = try readField(value, f, path: "\(path).\(f.name)", rules: rules, wire: wire)
        }
        return Row(namespace: namespace, values: values)
    }

    /// One present field; nil only when a mutant reads it as absent.
    static func readField(_ v: JSONValue, _ f: FieldSpec, path: String, rules: RowReading, wire: Bool) throws(WireError) -> FieldValue? {
        if rules.nullAsAbsent && v == .null { return nil }
        if rules.excludedUnchecked && !f.isCommitted && f.name != "bodyOffloaded" && f.name != "contentHash" && f.name != "tombstoned" {
            return nil
        }
        return try parseValue(v, kind: f.kind, path: path, rules: rules, wire: wire)
    }

    init(namespace: Namespace, values: [FieldValue?]) {
        self.namespace = namespace
        self.values = values
    }

    static func parseValue(_ v: JSONValue, kind: FieldKind, path: String, rules: RowReading = .strict, wire: Bool = false) throws(WireError) -> FieldValue {
        switch kind {
        case .bytes(let length):
            InputRecorder.note(path, .hex, v, length: length)
            let b = try rules.bytes(v, path: path, wire: wire)
            if let length, b.count != length {
                throw WireError(.inputBadLength, "expected \(length) bytes, got \(b.count)", field: path)
            }
            return .bytes(b)
        case .normalizedHash:
            let b = try rules.bytes(v, path: path, wire: wire)
            guard b.isEmpty || b.count == 32 else {
                throw WireError(.inputBadLength, "a user-id hash is 32 bytes or empty, got \(b.count)", field: path)
            }
            return .bytes(b)
        case .text, .noteBody:
            return .text(try Input.text(v, path: path))
        case .uint:
            return .uint(try rules.uint64(v, path: path))
        case .int:
            return .int(try rules.int64(v, path: path))
        case .date:
            return .date(try rules.int64(v, path: path))
        case .bool:
            return .bool(try rules.bool(v, path: path))
        case .textSet:
            InputRecorder.note(path, .array, v)
            guard let items = v.arrayValue else { throw WireError(.inputBadType, "expected an array of strings", field: path) }
            var out: [String] = []
            for (i, item) in items.enumerated() { out.append(try Input.text(item, path: "\(path)[\(i)]")) }
            return .textSet(out)
        case .reactionSet:
            InputRecorder.note(path, .array, v)
            guard let items = v.arrayValue else { throw WireError(.inputBadType, "expected an array of reactions", field: path) }
            var out: [Reaction] = []
            for (i, item) in items.enumerated() { out.append(try reaction(item, path: "\(path)[\(i)]", rules: rules, wire: wire)) }
            return .reactions(out)
        case .versionVector:
            InputRecorder.note(path, .object, v)
            InputRecorder.noteMap(path)
            guard let members = v.objectValue else { throw WireError(.inputBadType, "expected an object of counters", field: path) }
            var out: [TextKey: UInt64] = [:]
            for (k, c) in DataKeyOrder.checkingOrder(members) {
                out[TextKey(k)] = try rules.uint64(c, path: "\(path).\(k)")
            }
            return .versionVector(out)
        }
    }

    /// A reaction object (SPEC §4.2): unknown members first, then reactor, then emoji.
    static func reaction(_ v: JSONValue, path: String, rules: RowReading, wire: Bool) throws(WireError) -> Reaction {
        InputRecorder.note(path, .object, v)
        guard let members = v.objectValue else { throw WireError(.inputBadType, "a reaction is an object", field: path) }
        if let extra = members.first(where: { $0.0 != "reactor" && $0.0 != "emoji" }) {
            throw WireError(.unknownField, "a reaction has no member \(extra.0)", field: "\(path).\(extra.0)")
        }
        guard let r = v["reactor"] else { throw WireError(.inputMissingField, "a reaction needs reactor", field: "\(path).reactor") }
        InputRecorder.note("\(path).reactor", .hex, r, length: 32)
        let reactor = try rules.bytes(r, path: "\(path).reactor", wire: wire)
        guard reactor.count == 32 else { throw WireError(.inputBadLength, "reactor is a 32-byte user-id hash, got \(reactor.count)", field: "\(path).reactor") }
        guard let e = v["emoji"] else { throw WireError(.inputMissingField, "a reaction needs emoji", field: "\(path).emoji") }
        return Reaction(reactor: reactor, emoji: try Input.text(e, path: "\(path).emoji"))
    }
}

extension Input {
    public static func namespace(_ v: JSONValue, path: String) throws(WireError) -> Namespace {
        let s = try text(v, path: path)
        // Namespace(rawValue:) compares with Swift ==, canonical equivalence included; the names are
        // ASCII, so an exact byte match is the same test and the one SPEC §4.1 states.
        guard let ns = Namespace(rawValue: s) else { throw WireError(.unknownNamespace, "no namespace \(s)", field: path) }
        return ns
    }

    public static func digest(_ v: JSONValue, path: String) throws(WireError) -> SHA256Digest {
        InputRecorder.note(path, .hex, v, length: 32)
        let b = try bytes(v, path: path)
        guard let d = SHA256Digest(bytes: b) else { throw WireError(.inputBadLength, "expected 32 bytes, got \(b.count)", field: path) }
        return d
    }
}

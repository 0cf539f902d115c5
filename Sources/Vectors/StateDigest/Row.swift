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

    /// Parses a row object of vector input. Strict: an unknown field, a value of the wrong type or
    /// length, or a missing required field is a typed error naming the field.
    public static func parse(_ json: JSONValue, namespace: Namespace, path: String) throws(WireError) -> Row {
        guard let members = json.objectValue else {
            throw WireError(.inputBadType, "a row must be an object", field: path)
        }
        let schema = LeafSchema.schema(for: namespace)
        var values = [FieldValue?](repeating: nil, count: schema.fields.count)
        for (name, value) in members {
            guard let i = schema.index(of: name) else {
                throw WireError(.unknownField, "\(namespace.rawValue) rows have no field \(name)", field: "\(path).\(name)")
            }
            guard values[i] == nil else {
                throw WireError(.inputBadValue, "field \(name) given twice", field: "\(path).\(name)")
            }
            values[i] = try parseValue(value, kind: schema.fields[i].kind, path: "\(path).\(name)")
        }
        for (i, f) in schema.fields.enumerated() where values[i] == nil && !f.optional && f.kind != .normalizedHash {
            throw WireError(.inputMissingField, "\(namespace.rawValue) rows need \(f.name)", field: "\(path).\(f.name)")
        }
        return Row(namespace: namespace, values: values)
    }

    init(namespace: Namespace, values: [FieldValue?]) {
        self.namespace = namespace
        self.values = values
    }

    static func parseValue(_ v: JSONValue, kind: FieldKind, path: String) throws(WireError) -> FieldValue {
        switch kind {
        case .bytes(let length):
            let b = try Input.bytes(v, path: path)
            if let length, b.count != length {
                throw WireError(.inputBadLength, "expected \(length) bytes, got \(b.count)", field: path)
            }
            return .bytes(b)
        case .normalizedHash:
            let b = try Input.bytes(v, path: path)
            guard b.isEmpty || b.count == 32 else {
                throw WireError(.inputBadLength, "a user-id hash is 32 bytes or empty, got \(b.count)", field: path)
            }
            return .bytes(b)
        case .text, .noteBody:
            return .text(try Input.text(v, path: path))
        case .uint:
            guard let n = v.uint64Value else { throw WireError(.inputBadType, "expected an unsigned integer", field: path) }
            return .uint(n)
        case .int:
            guard let n = v.int64Value else { throw WireError(.inputBadType, "expected a signed 64-bit integer", field: path) }
            return .int(n)
        case .date:
            guard let n = v.int64Value else { throw WireError(.inputBadType, "expected integer milliseconds since the Unix epoch", field: path) }
            return .date(n)
        case .bool:
            guard let b = v.boolValue else { throw WireError(.inputBadType, "expected true or false", field: path) }
            return .bool(b)
        case .textSet:
            guard let items = v.arrayValue else { throw WireError(.inputBadType, "expected an array of strings", field: path) }
            var out: [String] = []
            for (i, item) in items.enumerated() { out.append(try Input.text(item, path: "\(path)[\(i)]")) }
            return .textSet(out)
        case .versionVector:
            guard let members = v.objectValue else { throw WireError(.inputBadType, "expected an object of counters", field: path) }
            var out: [String: UInt64] = [:]
            for (k, c) in members {
                guard let n = c.uint64Value else { throw WireError(.inputBadType, "expected an unsigned counter", field: "\(path).\(k)") }
                out[k] = n
            }
            return .versionVector(out)
        }
    }
}

extension Input {
    public static func namespace(_ v: JSONValue, path: String) throws(WireError) -> Namespace {
        let s = try text(v, path: path)
        guard let ns = Namespace(rawValue: s) else { throw WireError(.unknownNamespace, "no namespace \(s)", field: path) }
        return ns
    }

    public static func digest(_ v: JSONValue, path: String) throws(WireError) -> SHA256Digest {
        let b = try bytes(v, path: path)
        guard let d = SHA256Digest(bytes: b) else { throw WireError(.inputBadLength, "expected 32 bytes, got \(b.count)", field: path) }
        return d
    }
}

import Primitives

/// Turns a row into its leaf: the CBOR preimage (an array of the committed fields in schema
/// order) and `SHA-256(separator || 0x00 || preimage)`.
///
/// One encoder is reused across rows so the hot path allocates nothing per leaf beyond what the
/// row itself holds.
public struct LeafEncoder: Sendable {
    private var writer = CBORWriter(capacity: 512)

    public init() {}

    /// Whether the namespace's drop rule removes this row from the leaf set entirely.
    public static func isDropped(_ row: Row) -> Bool {
        switch row.schema.dropRule {
        case .none: return false
        case .calendarSource:
            if case .text("calendar")? = row["source"] { return true }
            return false
        case .tombstoned:
            if case .bool(true)? = row["tombstoned"] { return true }
            return false
        }
    }

    /// The CBOR preimage of a row's leaf.
    public mutating func preimage(_ row: Row) throws(WireError) -> [UInt8] {
        try encode(row)
        return writer.bytes
    }

    /// The leaf hash of a row.
    public mutating func leaf(_ row: Row) throws(WireError) -> SHA256Digest {
        try encode(row)
        var h = SHA256()
        h.update(row.namespace.separatorBytes)
        writer.bytes.withUnsafeBytes { h.update($0) }
        return h.finalize()
    }

    private mutating func encode(_ row: Row) throws(WireError) {
        writer.reset()
        let schema = row.schema
        var count = 0
        for (i, f) in schema.fields.enumerated() where f.isCommitted {
            count += (f.optional && row.values[i] != nil) ? 2 : 1
        }
        writer.writeArrayHeader(count)
        for (i, f) in schema.fields.enumerated() where f.isCommitted {
            let value = row.values[i]
            if f.optional {
                guard let value else { writer.writeUnsigned(0); continue }
                writer.writeUnsigned(1)
                try write(value, kind: f.kind, field: f.name, row: row)
            } else if let value {
                try write(value, kind: f.kind, field: f.name, row: row)
            } else if f.kind == .normalizedHash {
                writer.writeBytes(EmptyCollection<UInt8>())
            } else {
                throw WireError(.inputMissingField, "\(schema.namespace.rawValue) rows need \(f.name)", field: f.name)
            }
        }
    }

    private mutating func write(_ value: FieldValue, kind: FieldKind, field: String, row: Row) throws(WireError) {
        switch (kind, value) {
        case (.bytes, .bytes(let b)), (.normalizedHash, .bytes(let b)): writer.writeBytes(b)
        case (.text, .text(let s)): writer.writeText(s)
        case (.uint, .uint(let v)): writer.writeUnsigned(v)
        case (.int, .int(let v)): writer.writeInt(v)
        case (.bool, .bool(let b)): writer.writeBool(b)
        case (.date, .date(let ms)): writer.writeInt(FieldValue.seconds(fromMillis: ms))
        case (.textSet, .textSet(let items)):
            let sorted = Set(items).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
            writer.writeArrayHeader(sorted.count)
            for s in sorted { writer.writeText(s) }
        case (.noteBody, _):
            let d = try NotebookBody.contribution(row)
            var buf = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            withUnsafeMutableBytes(of: &buf) { raw in
                d.write(to: raw.baseAddress!)
                writer.writeBytes(UnsafeRawBufferPointer(raw))
            }
        default:
            throw WireError(.inputBadType, "field \(field) holds a value of the wrong kind (\(kind.name))", field: field)
        }
    }
}

extension Namespace {
    /// The separator followed by its 0x00 terminator, as the leaf hash absorbs it.
    var separatorBytes: [UInt8] { Array(separator.utf8) + [0] }
}

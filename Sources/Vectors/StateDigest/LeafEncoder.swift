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
            if Mutant.on(.calendarEventsHashed) { return false }
            guard case .text(let source)? = row["source"] else { return false }
            if Mutant.on(.calendarCaseInsensitive) { return source.lowercased() == "calendar" }
            return TextKey(source) == "calendar"  // exact bytes: "Calendar" is hashed
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
        // The task-local mutant is read once per row, not once per field: the digest of a million
        // rows passes through here.
        let mutant = Mutant.active
        let schema = LeafSchema.all[row.namespace.rawValueIndex]
        let mutantExtra = mutant == nil ? [] : Self.mutantCommittedExtras(schema)
        let absentAsEmpty = mutant == .absentEqualsEmpty
        func included(_ f: FieldSpec) -> Bool {
            if mutant == .reactionsNotHashed && f.kind == .reactionSet { return false }
            return f.isCommitted || mutantExtra.contains(f.name)
        }
        func marked(_ f: FieldSpec) -> Bool { f.optional || (mutant == .reactionsAbsentMarker && f.kind == .reactionSet) }
        var count = 0
        for (i, f) in schema.fields.enumerated() where included(f) {
            count += (marked(f) && (row.values[i] != nil || absentAsEmpty)) ? 2 : 1
        }
        writer.writeArrayHeader(count)
        for (i, f) in schema.fields.enumerated() where included(f) {
            let value = row.values[i]
            if marked(f) {
                guard let value else {
                    if absentAsEmpty {
                        writer.writeUnsigned(1)
                        try write(Self.emptyValue(f.kind), kind: f.kind, field: f.name, row: row, mutant: mutant)
                    } else {
                        writer.writeUnsigned(0)
                    }
                    continue
                }
                writer.writeUnsigned(1)
                try write(value, kind: f.kind, field: f.name, row: row, mutant: mutant)
            } else if let value {
                try write(value, kind: f.kind, field: f.name, row: row, mutant: mutant)
            } else if f.kind == .normalizedHash {
                if mutant == .peerHashNotNormalized { writer.writeNull(); continue }
                writer.writeBytes(EmptyCollection<UInt8>())
            } else if f.kind == .reactionSet {
                writer.writeArrayHeader(0)
            } else {
                throw WireError(.inputMissingField, "\(schema.namespace.rawValue) rows need \(f.name)", field: f.name)
            }
        }
    }

    private mutating func write(_ value: FieldValue, kind: FieldKind, field: String, row: Row, mutant: Mutant?) throws(WireError) {
        switch (kind, value) {
        case (.bytes, .bytes(let b)), (.normalizedHash, .bytes(let b)): writer.writeBytes(b)
        case (.text, .text(let s)): writer.writeText(mutant == .textNFC ? MutantText.nfc(s) : s)
        case (.uint, .uint(let v)): writer.writeUnsigned(v)
        case (.int, .int(let v)): writer.writeInt(v)
        case (.bool, .bool(let b)): writer.writeBool(b)
        case (.date, .date(let ms)):
            switch mutant {
            case .datesInMilliseconds?: writer.writeInt(ms)
            case .datesTruncateTowardZero?: writer.writeInt(ms / 1000)
            case .datesThroughDouble?: writer.writeInt(Int64(exactly: (Double(ms) / 1000).rounded(.down)) ?? .max)
            default: writer.writeInt(FieldValue.seconds(fromMillis: ms))
            }
        case (.textSet, .textSet(let items)) where mutant == .textSetUnsorted:
            writer.writeArrayHeader(items.count)
            for s in items { writer.writeText(s) }
        case (.textSet, .textSet(let items)):
            // Distinct and sorted by UTF-8 bytes (SPEC §4.2): a Swift Set<String> would merge NFC
            // and NFD spellings, which are two elements here.
            var set: [String]
            switch mutant {
            case .textSetSwiftSet?: set = Array(Set(items)).sorted { TextKey($0) < TextKey($1) }
            case .textSetUTF16Order?: set = Array(Set(items.map({ TextKey($0) }))).map(\.text).sorted(by: MutantText.utf16Precedes)
            case .textNFC?: set = Array(Set(items.map { TextKey(MutantText.nfc($0)) })).sorted().map(\.text)
            case .textSetPrefixLast?: set = Array(Set(items.map({ TextKey($0) }))).map(\.text).sorted { ByteOrder.prefixLastPrecedes(Array($0.utf8), Array($1.utf8)) }
            default: set = Array(Set(items.map({ TextKey($0) }))).sorted().map(\.text)
            }
            writer.writeArrayHeader(set.count)
            for s in set { writer.writeText(s) }
        case (.reactionSet, .reactions(let items)):
            var set = Array(Set(items))
            if mutant == .reactionsUTF16Order {
                set.sort { $0.reactor != $1.reactor ? ByteOrder.precedes($0.reactor, $1.reactor) : MutantText.utf16Precedes($0.emoji, $1.emoji) }
            } else if mutant == .reactionsEmojiFirst {
                set.sort { $0.emoji != $1.emoji ? TextKey($0.emoji) < TextKey($1.emoji) : ByteOrder.precedes($0.reactor, $1.reactor) }
            } else {
                set.sort(by: Reaction.precedes)
            }
            writer.writeArrayHeader(set.count)
            for r in set {
                writer.writeArrayHeader(2)
                writer.writeBytes(r.reactor)
                writer.writeText(r.emoji)
            }
        case (.noteBody, _):
            let d = try NotebookBody.contribution(row)
            var buf = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
            withUnsafeMutableBytes(of: &buf) { raw in
                d.write(to: raw.baseAddress!)
                writer.writeBytes(UnsafeRawBufferPointer(raw))
            }
        case (.versionVector, .versionVector(let vv)):
            writer.write(FieldValue.versionVector(vv).tree)
        default:
            throw WireError(.inputBadType, "field \(field) holds a value of the wrong kind (\(kind.name))", field: field)
        }
    }

    /// Excluded fields a mutant wrongly commits.
    static func mutantCommittedExtras(_ schema: LeafSchema) -> Set<String> {
        switch (Mutant.active, schema.namespace) {
        case (.hashObservedAt?, .messages): return ["observedAt"]
        case (.hashPeerPubkey?, .messages): return ["peerPubkey"]
        case (.hashResidencyFlag?, .notebook): return ["bodyOffloaded"]
        case (.hashOffloadHolder?, .notebook): return ["offloadHolderPubkey"]
        default: return []
        }
    }

    /// The "empty" value of a kind, as the absent-equals-empty mutant writes it.
    static func emptyValue(_ kind: FieldKind) -> FieldValue {
        switch kind {
        case .bytes, .normalizedHash: return .bytes([])
        case .text, .noteBody: return .text("")
        case .uint: return .uint(0)
        case .int: return .int(0)
        case .bool: return .bool(false)
        case .date: return .date(0)
        case .textSet: return .textSet([])
        case .reactionSet: return .reactions([])
        case .versionVector: return .versionVector([:])
        }
    }
}

extension Namespace {
    /// The separator followed by its 0x00 terminator, as the leaf hash absorbs it.
    var separatorBytes: [UInt8] { Namespace.separatorTable[rawValueIndex] }

    /// Built once: the per-leaf path must not build strings.
    static let separatorTable: [[UInt8]] = allCases.map { Array($0.separator.utf8) + [0] }
}

import Primitives

/// `reconcile_resp`: the responder's rows and tombstones in the mismatched ranges, with per-row
/// version vectors. For settings: the whole synced dictionary, per-key vectors and tombstoned keys.
///
/// Text keys are `TextKey`s (compared by UTF-8 bytes): an NFC and an NFD settings key are two keys.
public struct ReconcileResponse: Sendable, Hashable {
    public static let kind = "reconcile_resp"

    public var namespace: Namespace
    /// Rows as held (non-settings); written in key order.
    public var rows: [Row]
    /// Deleted keys as held (non-settings); written in key order.
    public var tombstones: [[UInt8]]
    /// Version vectors by the lowercase hex of a row's or tombstone's key (non-settings), or by
    /// settings key.
    public var vectors: [TextKey: [TextKey: UInt64]]
    /// settings only: the live dictionary and the tombstoned keys.
    public var entries: [TextKey: String]
    public var settingsTombstones: [String]

    public init(namespace: Namespace, rows: [Row] = [], tombstones: [[UInt8]] = [], vectors: [TextKey: [TextKey: UInt64]] = [:],
                entries: [TextKey: String] = [:], settingsTombstones: [String] = []) {
        self.namespace = namespace
        self.rows = rows
        self.tombstones = tombstones
        self.vectors = vectors
        self.entries = entries
        self.settingsTombstones = settingsTombstones
    }

    static func vectorTree(_ vv: [TextKey: UInt64]) -> CBOR { FieldValue.versionVectorTree(vv) }

    /// The frame with rows and tombstones in the order they are held (a non-canonical input, for
    /// vectors that show the encoder sorting them).
    var treeAsGiven: CBOR {
        guard case .map(var entries) = tree else { return tree }
        for i in entries.indices {
            if entries[i].key == .text("rows") { entries[i].value = .array(rows.map(\.tree)) }
            if entries[i].key == .text("tombstones") {
                entries[i].value = namespace == .settings ? .array(settingsTombstones.map { .text($0) }) : .array(tombstones.map { .bytes($0) })
            }
        }
        return .map(entries)
    }

    /// The canonical frame (SPEC §5.3, R5.3-2): members in canonical order; rows and tombstones
    /// in key order; data keys in the order of their UTF-8 bytes.
    public var tree: CBOR {
        var members: [(String, CBOR)] = [("kind", .text(Self.kind)), ("namespace", .text(namespace.rawValue))]
        let vectorsTree = CBOR.object(DataKeyOrder.sorted(Array(vectors.keys)).map { ($0.text, Self.vectorTree(vectors[$0]!)) })
        if namespace == .settings {
            members.append(("entries", .object(DataKeyOrder.sorted(Array(entries.keys)).map { ($0.text, CBOR.text(entries[$0]!)) })))
            members.append(("vectors", vectorsTree))
            members.append(("tombstones", .array(DataKeyOrder.sorted(settingsTombstones).map { .text($0) })))
        } else {
            let sortedRows = rows.sorted { ByteOrder.precedes($0.keyBytes, $1.keyBytes) }
            members.append(("rows", .array(sortedRows.map(\.tree))))
            members.append(("vectors", vectorsTree))
            members.append(("tombstones", .array(tombstones.sorted { ByteOrder.precedes($0, $1) }.map { .bytes($0) })))
        }
        return .object(members)
    }
}

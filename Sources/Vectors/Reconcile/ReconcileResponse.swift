import Primitives

/// `reconcile_resp`: the responder's rows and tombstones in the mismatched ranges, with per-row
/// version vectors. For settings: the whole synced dictionary, per-key vectors and tombstoned keys.
public struct ReconcileResponse: Sendable, Hashable {
    public static let kind = "reconcile_resp"

    public var namespace: Namespace
    /// Rows in key order (non-settings).
    public var rows: [Row]
    /// Deleted keys in key order (non-settings).
    public var tombstones: [[UInt8]]
    /// Version vectors by the hex of a row's or tombstone's key (non-settings), or by settings key.
    public var vectors: [String: [String: UInt64]]
    /// settings only: the live dictionary and the tombstoned keys.
    public var entries: [String: String]
    public var settingsTombstones: [String]

    public init(namespace: Namespace, rows: [Row] = [], tombstones: [[UInt8]] = [], vectors: [String: [String: UInt64]] = [:],
                entries: [String: String] = [:], settingsTombstones: [String] = []) {
        self.namespace = namespace
        self.rows = rows
        self.tombstones = tombstones
        self.vectors = vectors
        self.entries = entries
        self.settingsTombstones = settingsTombstones
    }

    static func sortedUTF8(_ keys: some Sequence<String>) -> [String] {
        keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func vectorTree(_ vv: [String: UInt64]) -> CBOR {
        .object(sortedUTF8(vv.keys).map { ($0, CBOR.unsigned(vv[$0]!)) })
    }

    /// The frame with rows and tombstones in the order they are held (a non-canonical input, for
    /// vectors that show the encoder sorting them).
    var treeAsGiven: CBOR {
        guard case .map(var entries) = tree else { return tree }
        for i in entries.indices {
            if entries[i].key == .text("rows") { entries[i].value = .array(rows.map(\.tree)) }
            if entries[i].key == .text("tombstones") { entries[i].value = .array(tombstones.map { .bytes($0) }) }
        }
        return .map(entries)
    }

    /// The frame as vector data, members in canonical JSON order; object keys sorted by UTF-8.
    public var tree: CBOR {
        var members: [(String, CBOR)] = [("kind", .text(Self.kind)), ("namespace", .text(namespace.rawValue))]
        if namespace == .settings {
            members.append(("entries", .object(Self.sortedUTF8(entries.keys).map { ($0, CBOR.text(entries[$0]!)) })))
            members.append(("vectors", .object(Self.sortedUTF8(vectors.keys).map { ($0, Self.vectorTree(vectors[$0]!)) })))
            members.append(("tombstones", .array(Self.sortedUTF8(settingsTombstones).map { .text($0) })))
        } else {
            let sortedRows = rows.sorted { $0.keyBytes.lexicographicallyPrecedes($1.keyBytes) }
            members.append(("rows", .array(sortedRows.map(\.tree))))
            members.append(("vectors", .object(vectors.keys.sorted().map { ($0, Self.vectorTree(vectors[$0]!)) })))
            members.append(("tombstones", .array(tombstones.sorted { $0.lexicographicallyPrecedes($1) }.map { .bytes($0) })))
        }
        return .object(members)
    }
}

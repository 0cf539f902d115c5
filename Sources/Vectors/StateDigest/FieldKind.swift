/// How a row field is given in vector input and how it is written into a leaf.
///
/// SPEC.md §StateDigest.Types is the normative table; the comments here say why each exists.
public enum FieldKind: Sendable, Hashable {
    /// A byte string; `length` fixes its size when set (ids are 16 bytes, hashes 32).
    case bytes(length: Int?)
    case text
    case uint
    case int
    case bool
    /// A point in time: given as signed integer milliseconds since the Unix epoch, committed as
    /// whole seconds rounded toward negative infinity, because a timestamp that round-trips the
    /// sync channel as a float can come back a hair off.
    case date
    /// An unordered set of strings: committed sorted by UTF-8 bytes with duplicates removed, so
    /// two devices that learned the same tags in another order agree.
    case textSet
    /// A user-id hash where "absent" and "empty" mean the same thing (backfill not done yet):
    /// always committed as a byte string, the empty one when absent. No presence marker.
    case normalizedHash
    /// A message's reactions: a set of (reactor user-id hash, emoji) pairs, committed distinct and
    /// sorted (reactor bytes, then emoji UTF-8 bytes). Absent and empty are the same set.
    case reactionSet
    /// The notebook body: committed as its content digest, never as text (see `NotebookBody`).
    case noteBody
    /// A per-key version vector `{deviceID: counter}`: merge metadata, only ever excluded.
    case versionVector

    /// The third presence kind of SPEC §4.3: no presence marker, absent written as the empty value.
    public var absentIsEmpty: Bool { self == .normalizedHash || self == .reactionSet }

    public var name: String {
        switch self {
        case .bytes(let n): return n.map { "bytes[\($0)]" } ?? "bytes"
        case .text: return "text"
        case .uint: return "uint"
        case .int: return "int"
        case .bool: return "bool"
        case .date: return "date"
        case .textSet: return "text_set"
        case .normalizedHash: return "normalized_hash"
        case .reactionSet: return "reaction_set"
        case .noteBody: return "note_body"
        case .versionVector: return "version_vector"
        }
    }
}

/// One field of a namespace's rows.
public struct FieldSpec: Sendable, Hashable {
    public enum Role: Sendable, Hashable {
        /// Written into the leaf, in schema order.
        case committed
        /// Present in rows, never hashed; the reason is printed in SPEC.md.
        case excluded(reason: String)
    }

    public var name: String
    public var kind: FieldKind
    /// Optional fields may be absent; a committed optional carries a presence marker. An
    /// absent-is-empty field (`kind.absentIsEmpty`) is not optional but may still be absent.
    public var optional: Bool
    public var role: Role

    public var isCommitted: Bool { role == .committed }
    /// Whether a row without this field is incomplete (`input_missing_field`).
    public var isRequired: Bool { !optional && !kind.absentIsEmpty }
}

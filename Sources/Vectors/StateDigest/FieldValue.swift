/// One reaction on a message: who reacted (a 32-byte user-id hash) and with what.
public struct Reaction: Sendable, Hashable {
    public var reactor: [UInt8]
    public var emoji: String

    public init(reactor: [UInt8], emoji: String) {
        self.reactor = reactor
        self.emoji = emoji
    }

    // By bytes: two emoji spellings that Swift calls canonically equivalent are two reactions.
    public static func == (a: Reaction, b: Reaction) -> Bool { a.reactor == b.reactor && TextKey(a.emoji) == TextKey(b.emoji) }
    public func hash(into hasher: inout Hasher) { hasher.combine(reactor); hasher.combine(TextKey(emoji)) }

    /// The leaf order of SPEC §4.2: reactor bytes, then emoji UTF-8 bytes.
    public static func precedes(_ a: Reaction, _ b: Reaction) -> Bool {
        if a.reactor != b.reactor { return ByteOrder.precedes(a.reactor, b.reactor) }
        return TextKey(a.emoji) < TextKey(b.emoji)
    }

    var tree: CBOR { .object([("reactor", .bytes(reactor)), ("emoji", .text(emoji))]) }
}

/// A typed value of a row field.
public enum FieldValue: Sendable, Hashable {
    case bytes([UInt8])
    case text(String)
    case uint(UInt64)
    case int(Int64)
    case bool(Bool)
    /// Milliseconds since the Unix epoch.
    case date(Int64)
    /// As held (not normalised): the leaf encoder sorts and de-duplicates.
    case textSet([String])
    /// As held (not normalised): the leaf encoder sorts and de-duplicates.
    case reactions([Reaction])
    case versionVector([TextKey: UInt64])

    // Text compares by UTF-8 bytes, never by canonical equivalence (SPEC §2.2 rule 5).
    public static func == (a: FieldValue, b: FieldValue) -> Bool {
        switch (a, b) {
        case (.bytes(let x), .bytes(let y)): return x == y
        case (.text(let x), .text(let y)): return TextKey(x) == TextKey(y)
        case (.uint(let x), .uint(let y)): return x == y
        case (.int(let x), .int(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.textSet(let x), .textSet(let y)): return x.map { TextKey($0) } == y.map { TextKey($0) }
        case (.reactions(let x), .reactions(let y)): return x == y
        case (.versionVector(let x), .versionVector(let y)): return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .bytes(let b): hasher.combine(0); hasher.combine(b)
        case .text(let s): hasher.combine(1); hasher.combine(TextKey(s))
        case .uint(let v): hasher.combine(2); hasher.combine(v)
        case .int(let v): hasher.combine(3); hasher.combine(v)
        case .bool(let v): hasher.combine(4); hasher.combine(v)
        case .date(let v): hasher.combine(5); hasher.combine(v)
        case .textSet(let s): hasher.combine(6); hasher.combine(s.map({ TextKey($0) }))
        case .reactions(let r): hasher.combine(7); hasher.combine(r)
        case .versionVector(let v): hasher.combine(8); hasher.combine(v)
        }
    }

    /// The vector-data (JSON/CBOR) form of the value, as held.
    public var tree: CBOR {
        switch self {
        case .bytes(let b): return .bytes(b)
        case .text(let s): return .text(s)
        case .uint(let v): return .unsigned(v)
        case .int(let v): return .int(v)
        case .bool(let b): return .bool(b)
        case .date(let ms): return .int(ms)
        case .textSet(let s): return .array(s.map { .text($0) })
        case .reactions(let r): return .array(r.map(\.tree))
        case .versionVector(let vv): return FieldValue.versionVectorTree(vv)
        }
    }

    /// A version vector as data: devices in the order of their UTF-8 bytes.
    static func versionVectorTree(_ vv: [TextKey: UInt64]) -> CBOR {
        .object(DataKeyOrder.sorted(Array(vv.keys)).map { ($0.text, CBOR.unsigned(vv[$0]!)) })
    }

    /// Whole seconds, rounded toward negative infinity (floor division), in integers.
    public static func seconds(fromMillis ms: Int64) -> Int64 {
        let q = ms / 1000
        return (ms % 1000 != 0 && ms < 0) ? q - 1 : q
    }
}

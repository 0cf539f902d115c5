/// A typed value of a row field.
public enum FieldValue: Sendable, Hashable {
    case bytes([UInt8])
    case text(String)
    case uint(UInt64)
    case int(Int64)
    case bool(Bool)
    /// Milliseconds since the Unix epoch.
    case date(Int64)
    case textSet([String])
    case versionVector([String: UInt64])

    /// The vector-data (JSON/CBOR) form of the value.
    public var tree: CBOR {
        switch self {
        case .bytes(let b): return .bytes(b)
        case .text(let s): return .text(s)
        case .uint(let v): return .unsigned(v)
        case .int(let v): return .int(v)
        case .bool(let b): return .bool(b)
        case .date(let ms): return .int(ms)
        case .textSet(let s): return .array(s.map { .text($0) })
        case .versionVector(let vv):
            return .object(vv.sorted { $0.key < $1.key }.map { ($0.key, CBOR.unsigned($0.value)) })
        }
    }

    /// Whole seconds, rounded toward negative infinity (floor division).
    public static func seconds(fromMillis ms: Int64) -> Int64 {
        let q = ms / 1000
        return (ms % 1000 != 0 && ms < 0) ? q - 1 : q
    }
}

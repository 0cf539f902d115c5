/// A CBOR data item (RFC 8949 §3). Maps keep their entries as a list so the reader can report
/// order and duplicates; the writer sorts them (§4.2.1) whatever order they are given in.
public indirect enum CBOR: Hashable, Sendable {
    case unsigned(UInt64)
    /// Major type 1: the value is `-1 - n`.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([CBORMapEntry])
    case tagged(UInt64, CBOR)
    /// Simple values other than false, true, null and undefined (RFC 8949 §3.3).
    case simple(UInt8)
    case bool(Bool)
    case null
    case undefined
    case float(Double)

    /// A signed integer as the right major type.
    public static func int(_ v: Int64) -> CBOR {
        v >= 0 ? .unsigned(UInt64(v)) : .negative(UInt64(-(v + 1)))
    }

    /// A map from (key, value) pairs in any order.
    public static func map(_ pairs: [(CBOR, CBOR)]) -> CBOR {
        .map(pairs.map { CBORMapEntry(key: $0.0, value: $0.1) })
    }
}

public struct CBORMapEntry: Hashable, Sendable {
    public var key: CBOR
    public var value: CBOR
    public init(key: CBOR, value: CBOR) {
        self.key = key
        self.value = value
    }
}

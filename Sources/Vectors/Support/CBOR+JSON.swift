/// The vector data model is `CBOR`: the same tree renders to a vector file's JSON (bytes as
/// lowercase hex, integers beyond 2^53 as decimal strings, map order as built) and to its CBOR twin
/// (deterministic, map keys sorted). Only text-keyed maps appear in vectors.
extension CBOR {
    /// The largest integer magnitude JSON carries as a number (2^53); beyond it, a decimal string.
    public static let jsonSafeInteger: UInt64 = 1 << 53

    public var json: JSONValue { json(bigIntegersAsStrings: true) }

    /// The JSON form; vector files write integers beyond 2^53 as strings (§2), while wire frames
    /// (§5.3) always write JSON numbers.
    public func json(bigIntegersAsStrings big: Bool) -> JSONValue {
        switch self {
        case .unsigned(let v):
            return v <= CBOR.jsonSafeInteger || !big ? .number(String(v)) : .string(String(v))
        case .negative(let n):
            // value = -1 - n
            let text = n == UInt64.max ? "-18446744073709551616" : "-" + String(n + 1)
            return n < CBOR.jsonSafeInteger || !big ? .number(text) : .string(text)
        case .bytes(let b): return .string(Hex.encode(b))
        case .text(let s): return .string(s)
        case .array(let items): return .array(items.map { $0.json(bigIntegersAsStrings: big) })
        case .map(let entries):
            return .object(entries.map { e in
                let key: String
                switch e.key {
                case .text(let s): key = s
                default: key = CBORDiagnostic.render(e.key)
                }
                return (key, e.value.json(bigIntegersAsStrings: big))
            })
        case .tagged(CBOR.embeddedJSONTag, .bytes(let literal)):
            // A JSON number literal the tree cannot hold otherwise (SPEC.md §2): written as given.
            return .number(String(decoding: literal, as: UTF8.self))
        case .tagged(_, let inner): return inner.json(bigIntegersAsStrings: big)
        case .simple(let v): return .number(String(v))
        case .bool(let b): return .bool(b)
        case .null, .undefined: return .null
        case .float(let d): return .number(String(d))
        }
    }

    /// RFC 8949 tag 262, embedded JSON: in vector data it holds a JSON number literal as ASCII.
    public static let embeddedJSONTag: UInt64 = 262

    /// A JSON number literal exactly as written (`1.0`, `1e0`, `9007199254740993`), for inputs that
    /// test how a reader takes numbers (SPEC.md §2, §2.2 rule 3). The CBOR twin holds tag 262.
    public static func jsonNumber(_ literal: String) -> CBOR { .tagged(embeddedJSONTag, .bytes(Array(literal.utf8))) }

    /// Text-keyed map built in the given order (the order JSON shows).
    public static func object(_ pairs: KeyValuePairs<String, CBOR>) -> CBOR {
        .map(pairs.map { CBORMapEntry(key: .text($0.key), value: $0.value) })
    }

    public static func object(_ pairs: [(String, CBOR)]) -> CBOR {
        .map(pairs.map { CBORMapEntry(key: .text($0.0), value: $0.1) })
    }

    /// Member lookup on a text-keyed map.
    public subscript(key: String) -> CBOR? {
        guard case .map(let entries) = self else { return nil }
        return entries.first { $0.key == .text(key) }?.value
    }
}

import Primitives

/// RFC 8949 §8 diagnostic notation, for messages and tests (not a wire format).
public enum CBORDiagnostic {
    public static func render(_ item: CBOR) -> String {
        switch item {
        case .unsigned(let v): return String(v)
        case .negative(let n): return n == UInt64.max ? "-18446744073709551616" : "-" + String(n + 1)
        case .bytes(let b): return "h'" + Hex.encode(b) + "'"
        case .text(let s):
            var out = ""
            JSONValue.escape(s, into: &out)
            return out
        case .array(let items): return "[" + items.map(render).joined(separator: ", ") + "]"
        case .map(let entries): return "{" + entries.map { render($0.key) + ": " + render($0.value) }.joined(separator: ", ") + "}"
        case .tagged(let t, let inner): return "\(t)(" + render(inner) + ")"
        case .simple(let v): return "simple(\(v))"
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .undefined: return "undefined"
        case .float(let d):
            if d.isNaN { return "NaN" }
            if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
            return String(d)
        }
    }
}

import Primitives

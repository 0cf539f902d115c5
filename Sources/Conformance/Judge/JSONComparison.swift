import Vectors

/// Compares an expected and an actual JSON value after normalisation (SPEC.md §6.5): object
/// member order is ignored; numbers must be numbers and integers compare by value; strings compare
/// exactly, so uppercase hex is a difference (bytes are lowercase hex) with its own explanation.
public enum JSONComparison {
    /// One place where the values differ, e.g. `output.leaf: expected "3f…", got "9a…"`.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    public static func equal(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        differences(expected: expected, actual: actual, path: "", limit: 1).isEmpty
    }

    /// Up to `limit` differences, in expected-member order.
    public static func differences(expected: JSONValue, actual: JSONValue, path: String = "output", limit: Int = 10) -> [Difference] {
        var out: [Difference] = []
        walk(expected, actual, path, &out, limit)
        return out
    }

    private static func walk(_ e: JSONValue, _ a: JSONValue, _ path: String, _ out: inout [Difference], _ limit: Int) {
        guard out.count < limit else { return }
        func add(_ m: String) { out.append(Difference(path: path.isEmpty ? "(value)" : path, message: m)) }
        switch (e, a) {
        case (.object(let em), .object(let am)):
            var seen = Set<String>()
            for (k, _) in am where !seen.insert(k).inserted {
                add("member \"\(k)\" appears twice in the testee's object")
                return
            }
            for (k, ev) in em {
                let sub = path.isEmpty ? k : "\(path).\(k)"
                if let av = am.first(where: { $0.0 == k })?.1 {
                    walk(ev, av, sub, &out, limit)
                } else if out.count < limit {
                    out.append(Difference(path: sub, message: "missing (expected \(render(ev)))"))
                }
            }
            for (k, av) in am where !em.contains(where: { $0.0 == k }) && out.count < limit {
                out.append(Difference(path: path.isEmpty ? k : "\(path).\(k)", message: "unexpected member (got \(render(av)))"))
            }
        case (.array(let ea), .array(let aa)):
            for (i, (ev, av)) in zip(ea, aa).enumerated() { walk(ev, av, "\(path)[\(i)]", &out, limit) }
            if ea.count != aa.count && out.count < limit {
                add("expected \(ea.count) element(s), got \(aa.count)")
            }
        case (.number(let en), .number(let an)):
            guard let ei = integer(en), let ai = integer(an) else {
                if en != an { add("expected \(en), got \(an) (numbers must be integers)") }
                return
            }
            if ei != ai { add("expected \(en), got \(an)") }
        case (.string(let es), .string(let asv)):
            guard es != asv else { return }
            if es.lowercased() == asv.lowercased() && isLowerHex(es) {
                add("expected \(render(e)), got \(render(a)): uppercase hex; bytes are written in lowercase hex (SPEC.md conventions)")
            } else {
                add(stringDifference(es, asv))
            }
        case (.bool(let x), .bool(let y)) where x == y: return
        case (.null, .null): return
        default:
            add("expected \(kind(e)) \(render(e)), got \(kind(a)) \(render(a))")
        }
    }

    /// An integer literal's canonical digits (`-0` is `0`); nil for a fraction or exponent.
    static func integer(_ literal: String) -> String? {
        guard !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) else { return nil }
        return literal == "-0" ? "0" : literal
    }

    static func isLowerHex(_ s: String) -> Bool {
        !s.isEmpty && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func kind(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Short strings in full; long ones (hex of preimages, digests) as a window around the first
    /// differing character, so the eye lands on the drift.
    static func stringDifference(_ a: String, _ b: String) -> String {
        let x = Array(a.unicodeScalars), y = Array(b.unicodeScalars)
        guard x.count > 80 || y.count > 80 else { return "expected \(render(.string(a))), got \(render(.string(b)))" }
        var i = 0
        while i < x.count && i < y.count && x[i] == y[i] { i += 1 }
        func window(_ s: [Unicode.Scalar]) -> String {
            let lo = max(0, i - 16), hi = min(s.count, i + 48)
            var out = String(String.UnicodeScalarView(s[lo..<hi]))
            if lo > 0 { out = "…" + out }
            if hi < s.count { out += "…" }
            return "\"" + out + "\""
        }
        return "expected \(window(x)), got \(window(y)) (first difference at character \(i); lengths \(x.count) and \(y.count))"
    }

    /// Compact JSON, cut to `max` characters.
    public static func render(_ v: JSONValue, max: Int = 160) -> String {
        let s = v.compact
        return s.count > max ? String(s.prefix(max)) + "…" : s
    }
}

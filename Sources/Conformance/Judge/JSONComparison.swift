import Vectors

/// Compares an expected and an actual JSON value after normalisation (SPEC.md §6.5): object
/// member order is ignored; numbers must be numbers and integers compare by value; strings compare
/// exactly, so uppercase hex is a difference (bytes are lowercase hex) with its own explanation.
/// Strings that hold an encoding are diffed in its terms (`EncodedDiff`): CBOR by path with major
/// types, JSON text by path, hybrid signatures by half, long hex by byte offset.
public enum JSONComparison {
    /// One place where the values differ, e.g. `output.leaf: expected "3f…", got "9a…"`.
    public struct Difference: Sendable, Equatable, CustomStringConvertible {
        public var path: String
        public var message: String
        public var description: String { "\(path): \(message)" }
    }

    /// The first `limit` differences and how many there are in all (counting stops past
    /// `Collector.countCap`).
    public struct Diff: Sendable, Equatable {
        public var shown: [Difference]
        public var total: Int
        public var more: Int { total - shown.count }
        public var isEmpty: Bool { total == 0 }
    }

    /// Gathers differences: keeps the first `limit`, counts the rest.
    struct Collector {
        static let countCap = 100_000
        let limit: Int
        var shown: [Difference] = []
        var total = 0
        var full: Bool { total >= Collector.countCap }

        mutating func add(_ path: String, _ message: String) {
            total += 1
            if shown.count < limit { shown.append(Difference(path: path.isEmpty ? "(value)" : path, message: message)) }
        }
    }

    public static func equal(_ expected: JSONValue, _ actual: JSONValue) -> Bool {
        var c = Collector(limit: 1)
        walk(expected, actual, "", &c, stopAtFirst: true)
        return c.total == 0
    }

    /// Up to `limit` differences, in expected-member order.
    public static func differences(expected: JSONValue, actual: JSONValue, path: String = "output", limit: Int = 10) -> [Difference] {
        diff(expected: expected, actual: actual, path: path, limit: limit).shown
    }

    /// Every difference counted, the first `limit` kept.
    public static func diff(expected: JSONValue, actual: JSONValue, path: String = "output", limit: Int = 10) -> Diff {
        var c = Collector(limit: limit)
        walk(expected, actual, path, &c, stopAtFirst: false)
        return Diff(shown: c.shown, total: c.total)
    }

    static func walk(_ e: JSONValue, _ a: JSONValue, _ path: String, _ c: inout Collector, stopAtFirst: Bool) {
        guard !c.full, !(stopAtFirst && c.total > 0) else { return }
        switch (e, a) {
        case (.object(let em), .object(let am)):
            // Names compare by UTF-8 bytes (Swift's == would equate NFC and NFD spellings).
            if am.count > 1 {
                var seen = Set<[UInt8]>()
                for (k, _) in am where !seen.insert(Array(k.utf8)).inserted {
                    c.add(path, "member \"\(k)\" appears twice in the testee's object")
                    return
                }
            }
            for (k, ev) in em {
                let sub = path.isEmpty ? k : "\(path).\(k)"
                if let av = am.first(where: { $0.0.utf8.elementsEqual(k.utf8) })?.1 {
                    walk(ev, av, sub, &c, stopAtFirst: stopAtFirst)
                } else {
                    c.add(sub, "missing (expected \(render(ev)))")
                }
            }
            for (k, av) in am where !em.contains(where: { $0.0.utf8.elementsEqual(k.utf8) }) {
                c.add(path.isEmpty ? k : "\(path).\(k)", "unexpected member (got \(render(av)))")
            }
        case (.array(let ea), .array(let aa)):
            for (i, (ev, av)) in zip(ea, aa).enumerated() { walk(ev, av, "\(path)[\(i)]", &c, stopAtFirst: stopAtFirst) }
            if ea.count != aa.count { c.add(path, "expected \(ea.count) element(s), got \(aa.count)") }
        case (.number(let en), .number(let an)):
            guard let ei = integer(en), let ai = integer(an) else {
                if en != an { c.add(path, "expected \(en), got \(an) (numbers must be integers)") }
                return
            }
            if ei != ai { c.add(path, "expected \(en), got \(an)") }
        case (.string(let es), .string(let asv)):
            guard !es.utf8.elementsEqual(asv.utf8) else { return }
            if stopAtFirst { c.add(path, ""); return }
            if es.lowercased() == asv.lowercased() && isLowerHex(es) {
                c.add(path, "expected \(render(e)), got \(render(a)): uppercase hex; bytes are written in lowercase hex (SPEC.md conventions)")
            } else if !EncodedDiff.explain(expected: es, actual: asv, path: path, &c) {
                c.add(path, stringDifference(es, asv))
            }
        case (.bool(let x), .bool(let y)) where x == y: return
        case (.null, .null): return
        default:
            c.add(path, "expected \(kind(e)) \(render(e)), got \(kind(a)) \(render(a))")
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
        return "expected \"\(window(x, at: i, before: 16, after: 48))\", got \"\(window(y, at: i, before: 16, after: 48))\" (first difference at character \(i); lengths \(x.count) and \(y.count))"
    }

    /// `s[at - before ..< at + after]` with `…` where it was cut.
    static func window(_ s: [Unicode.Scalar], at i: Int, before: Int, after: Int) -> String {
        let lo = max(0, min(i, s.count) - before), hi = min(s.count, i + after)
        var out = lo < hi ? String(String.UnicodeScalarView(s[lo..<hi])) : ""
        if lo > 0 { out = "…" + out }
        if hi < s.count { out += "…" }
        return out
    }

    /// The expected and actual values as compact JSON, each cut to about `width` characters
    /// around their first difference (not at the start: a deep difference would be cut away).
    public static func sideBySide(_ e: JSONValue, _ a: JSONValue, width: Int = 200) -> (expected: String, actual: String) {
        let x = Array(e.compact.unicodeScalars), y = Array(a.compact.unicodeScalars)
        var i = 0
        while i < x.count && i < y.count && x[i] == y[i] { i += 1 }
        let before = width / 4
        return (window(x, at: i, before: before, after: width - before), window(y, at: i, before: before, after: width - before))
    }

    /// Compact JSON, cut to `max` characters.
    public static func render(_ v: JSONValue, max: Int = 160) -> String {
        let s = v.compact
        return s.count > max ? String(s.prefix(max)) + "…" : s
    }
}

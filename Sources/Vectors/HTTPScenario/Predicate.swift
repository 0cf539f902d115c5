/// A check on one JSON value of an answer (SPEC.md §13.1, "Predicates"): written in a scenario as
/// an object with exactly one member, so a literal can never be mistaken for a check.
public indirect enum Predicate: Sendable {
    /// Equal as JSON values: type-strict (`false` is not `"false"`, `1` is not `"1"`), strings by
    /// UTF-8 bytes, object members in any order.
    case eq(JSONValue)
    /// `string`, `integer`, `boolean`, `object`, `array` or `null`.
    case type(String)
    /// A string of exactly n characters from `0-9a-f`.
    case hex(Int)
    case prefix(String)
    case contains(String)
    /// A string that does not contain the text.
    case excludes(String)
    /// An object holding each named member, each meeting its predicate (other members allowed).
    case object([(String, Predicate)])
    /// Inside `object`: the member must not be present.
    case absent
    /// An array of exactly these elements, in order.
    case array([Predicate])
    /// An array whose every element meets the predicate (any length, empty included).
    case each(Predicate)
    case all([Predicate])

    static let typeNames: Set<String> = ["string", "integer", "boolean", "object", "array", "null"]

    /// Reads a predicate written in a scenario.
    public static func parse(_ v: JSONValue, path: String) throws(WireError) -> Predicate {
        guard let members = v.objectValue, members.count == 1 else {
            throw WireError(.inputBadValue, "a predicate is an object with exactly one member", field: path)
        }
        let (name, arg) = members[0]
        let here = "\(path).\(name)"
        switch name {
        case "eq": return .eq(arg)
        case "type":
            let t = try Input.text(arg, path: here)
            guard typeNames.contains(t) else { throw WireError(.inputBadValue, "unknown type \(t)", field: here) }
            return .type(t)
        case "hex":
            let n = try Input.uint64(arg, path: here)
            guard n > 0, n <= 1 << 20 else { throw WireError(.inputBadValue, "hex length out of range", field: here) }
            return .hex(Int(n))
        case "prefix": return .prefix(try Input.text(arg, path: here))
        case "contains": return .contains(try Input.text(arg, path: here))
        case "excludes": return .excludes(try Input.text(arg, path: here))
        case "absent":
            guard arg == .bool(true) else { throw WireError(.inputBadValue, "absent takes true", field: here) }
            return .absent
        case "object":
            var out: [(String, Predicate)] = []
            for (k, p) in try Input.object(arg, path: here) { out.append((k, try parse(p, path: "\(here).\(k)"))) }
            return .object(out)
        case "array":
            var out: [Predicate] = []
            for (i, p) in try Input.array(arg, path: here).enumerated() { out.append(try parse(p, path: "\(here)[\(i)]")) }
            return .array(out)
        case "each": return .each(try parse(arg, path: here))
        case "all":
            var out: [Predicate] = []
            for (i, p) in try Input.array(arg, path: here).enumerated() { out.append(try parse(p, path: "\(here)[\(i)]")) }
            return .all(out)
        default:
            throw WireError(.inputBadValue, "unknown predicate \(name)", field: path)
        }
    }

    /// Nil when `value` (nil: the member is absent) meets the predicate, else what differs, naming
    /// the path. `subst` replaces `${name}` in every text the predicate carries.
    public func check(_ value: JSONValue?, path: String, subst: (String) throws(WireError) -> String) throws(WireError) -> String? {
        switch self {
        case .absent:
            return value == nil ? nil : "\(path): expected no such member, got \(JSONComparisonText.render(value!))"
        default:
            break
        }
        guard let v = value else { return "\(path): missing" }
        switch self {
        case .absent:
            return nil
        case .eq(let want):
            let w = try Predicate.substitute(want, subst)
            return Predicate.jsonEqual(v, w) ? nil : "\(path): expected \(JSONComparisonText.render(w)), got \(JSONComparisonText.render(v))"
        case .type(let t):
            return Predicate.typeName(v) == t ? nil : "\(path): expected a JSON \(t), got \(JSONComparisonText.render(v))"
        case .hex(let n):
            guard let s = v.stringValue, s.utf8.count == n, s.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                return "\(path): expected \(n) lowercase hex characters, got \(JSONComparisonText.render(v))"
            }
            return nil
        case .prefix(let p):
            let want = try subst(p)
            guard let s = v.stringValue, s.utf8.starts(with: want.utf8) else { return "\(path): expected a string starting \(JSONComparisonText.render(.string(want))), got \(JSONComparisonText.render(v))" }
            return nil
        case .contains(let p):
            let want = try subst(p)
            guard let s = v.stringValue, Predicate.bytes(s.utf8, contain: want.utf8) else { return "\(path): expected a string containing \(JSONComparisonText.render(.string(want))), got \(JSONComparisonText.render(v))" }
            return nil
        case .excludes(let p):
            let want = try subst(p)
            guard let s = v.stringValue else { return "\(path): expected a string, got \(JSONComparisonText.render(v))" }
            return Predicate.bytes(s.utf8, contain: want.utf8) ? "\(path): must not contain \(JSONComparisonText.render(.string(want)))" : nil
        case .object(let members):
            guard v.objectValue != nil else { return "\(path): expected an object, got \(JSONComparisonText.render(v))" }
            for (k, p) in members {
                if let d = try p.check(v[k], path: "\(path).\(k)", subst: subst) { return d }
            }
            return nil
        case .array(let items):
            guard let a = v.arrayValue else { return "\(path): expected an array, got \(JSONComparisonText.render(v))" }
            guard a.count == items.count else { return "\(path): expected \(items.count) element(s), got \(a.count): \(JSONComparisonText.render(v))" }
            for (i, (p, e)) in zip(items, a).enumerated() {
                if let d = try p.check(e, path: "\(path)[\(i)]", subst: subst) { return d }
            }
            return nil
        case .each(let p):
            guard let a = v.arrayValue else { return "\(path): expected an array, got \(JSONComparisonText.render(v))" }
            for (i, e) in a.enumerated() {
                if let d = try p.check(e, path: "\(path)[\(i)]", subst: subst) { return d }
            }
            return nil
        case .all(let ps):
            for p in ps {
                if let d = try p.check(v, path: path, subst: subst) { return d }
            }
            return nil
        }
    }

    static func typeName(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "boolean"
        case .number: return StrictJSON.isIntegerNumber(v) ? "integer" : "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }

    /// JSON equality for judging answers: object member order ignored, integers by value.
    static func jsonEqual(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.number(let x), .number(let y)):
            if x == y { return true }
            guard StrictJSON.isIntegerNumber(a), StrictJSON.isIntegerNumber(b) else { return false }
            return canonicalInteger(x) == canonicalInteger(y)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { jsonEqual($0, $1) }
        case (.object(let x), .object(let y)):
            guard x.count == y.count else { return false }
            return x.allSatisfy { (k, v) in y.contains { $0.0.utf8.elementsEqual(k.utf8) && jsonEqual(v, $0.1) } }
        default:
            return a == b
        }
    }

    static func canonicalInteger(_ s: String) -> String {
        var neg = false
        var digits = Substring(s)
        if digits.hasPrefix("-") { neg = true; digits = digits.dropFirst() }
        let trimmed = digits.drop { $0 == "0" }
        if trimmed.isEmpty { return "0" }
        return (neg ? "-" : "") + trimmed
    }

    static func bytes<A: Collection, B: Collection>(_ hay: A, contain needle: B) -> Bool where A.Element == UInt8, B.Element == UInt8 {
        let h = Array(hay), n = Array(needle)
        if n.isEmpty { return true }
        guard h.count >= n.count else { return false }
        for i in 0...(h.count - n.count) where h[i] == n[0] && Array(h[i..<(i + n.count)]) == n { return true }
        return false
    }

    /// Replaces `${name}` in every string of a JSON value (member names untouched).
    static func substitute(_ v: JSONValue, _ subst: (String) throws(WireError) -> String) throws(WireError) -> JSONValue {
        switch v {
        case .string(let s): return .string(try subst(s))
        case .array(let a):
            var out: [JSONValue] = []
            for e in a { out.append(try substitute(e, subst)) }
            return .array(out)
        case .object(let o):
            var out: [(String, JSONValue)] = []
            for (k, e) in o { out.append((k, try substitute(e, subst))) }
            return .object(out)
        default: return v
        }
    }
}

/// Short renderings of JSON values for failure messages (long strings cut in the middle).
public enum JSONComparisonText {
    public static func render(_ v: JSONValue) -> String {
        let s = v.compact
        guard s.count > 120 else { return s }
        return String(s.prefix(80)) + "…" + String(s.suffix(30))
    }
}

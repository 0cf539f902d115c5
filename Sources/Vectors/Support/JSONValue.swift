/// A JSON value that keeps object key order and number literals exactly as written.
///
/// Why not Foundation's JSONSerialization: vector files must be byte-for-byte reproducible (key
/// order, number spelling), integers beyond 2^53 must not pass through a Double, and the runner must
/// report *where* a testee's line is malformed. This type does all three.
public indirect enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    /// The literal as written (e.g. `-12`, `1.5e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case (.bool(let x), .bool(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        // By UTF-8 bytes, not Swift's canonical equivalence: "é" (U+00E9) and "e" + U+0301 are
        // different text on the wire, and a testee that normalises must be caught (SPEC §2.2).
        case (.string(let x), .string(let y)): return x.utf8.elementsEqual(y.utf8)
        case (.array(let x), .array(let y)): return x == y
        case (.object(let x), .object(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0.utf8.elementsEqual($1.0.utf8) && $0.1 == $1.1 }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(b)
        case .number(let n): hasher.combine(n)
        case .string(let s): hasher.combine(s.utf8.count); for b in s.utf8 { hasher.combine(b) }
        case .array(let a): hasher.combine(a)
        case .object(let o):
            for (k, v) in o { hasher.combine(JSONValue.string(k)); hasher.combine(v) }
        }
    }

    public static func int(_ v: Int) -> JSONValue { .number(String(v)) }

    /// Member lookup on an object (first match); nil for other kinds.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
    public var objectValue: [(String, JSONValue)]? { if case .object(let o) = self { return o } else { return nil } }
    /// An integer in the one form SPEC.md §2.2 accepts for op inputs: a JSON number written as an
    /// integer (no fraction, no exponent), or a decimal string in canonical form (`0`, or a
    /// non-zero digit then digits, a leading `-` for negatives; no `+`, no leading zero, no
    /// spaces). Nil for anything else, including values outside Int64. Swift's `Int64("+5")` and
    /// `Int64("007")` accept what §2.2 rejects, so the text is checked here first.
    public var int64Value: Int64? {
        guard let digits = integerText else { return nil }
        return Int64(digits)
    }

    /// As `int64Value`, for UInt64: negatives (other than `-0`) are nil.
    public var uint64Value: UInt64? {
        guard let digits = integerText else { return nil }
        if digits == "-0" { return 0 }
        return UInt64(digits)
    }

    /// The integer's decimal text when this value is an integer in §2.2's form, else nil.
    public var integerText: String? {
        switch self {
        case .number(let n):
            // The parser has already checked the JSON number grammar; an integer has no `.`/`e`.
            return n.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) ? nil : n
        case .string(let s):
            return JSONValue.isCanonicalDecimal(s) ? s : nil
        default:
            return nil
        }
    }

    /// `0` or `-?[1-9][0-9]*`: the only decimal-string spelling of an integer (§2.2).
    public static func isCanonicalDecimal(_ s: String) -> Bool {
        var u = Substring(s).utf8[...]
        if u.first == UInt8(ascii: "-") { u = u.dropFirst() }
        guard let first = u.first, (0x30...0x39).contains(first) else { return false }
        if first == 0x30 { return u.count == 1 && s.utf8.count == 1 }
        return u.allSatisfy { (0x30...0x39).contains($0) }
    }
}

// MARK: - Writing

extension JSONValue {
    /// One line, no spaces: the runner protocol's framing (JSON lines).
    public var compact: String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(into: &out, indent: nil, level: 0)
        return String(decoding: out, as: UTF8.self)
    }

    /// Two-space indented, keys in stored order, a trailing newline: the vector files' layout.
    public var pretty: String {
        var out: [UInt8] = []
        write(into: &out, indent: Array("  ".utf8), level: 0)
        out.append(0x0a)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes UTF-8 bytes (not `String` appends: the fuzzer and `serve` write every message through
    /// here, and per-scalar appends to a `String` cost more than the rest of a cheap case).
    private func write(into out: inout [UInt8], indent: [UInt8]?, level: Int) {
        func newline(_ n: Int) {
            guard let indent else { return }
            out.append(0x0a)
            for _ in 0..<n { out.append(contentsOf: indent) }
        }
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let n): out.append(contentsOf: n.utf8)
        case .string(let s): JSONValue.escape(s, into: &out)
        case .array(let items):
            if items.isEmpty { out.append(contentsOf: "[]".utf8); return }
            out.append(0x5b)
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(0x2c) }
                newline(level + 1)
                item.write(into: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out.append(0x5d)
        case .object(let members):
            if members.isEmpty { out.append(contentsOf: "{}".utf8); return }
            out.append(0x7b)
            for (i, (k, v)) in members.enumerated() {
                if i > 0 { out.append(0x2c) }
                newline(level + 1)
                JSONValue.escape(k, into: &out)
                out.append(0x3a)
                if indent != nil { out.append(0x20) }
                v.write(into: &out, indent: indent, level: level + 1)
            }
            newline(level)
            out.append(0x7d)
        }
    }

    /// §2's string form: `"` and `\` escaped, `\n` `\r` `\t` short, every other control
    /// character as `\u00XX` (lowercase), everything else as its UTF-8 bytes, unescaped.
    static func escape(_ s: String, into out: inout String) {
        var bytes: [UInt8] = []
        escape(s, into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    static func escape(_ s: String, into out: inout [UInt8]) {
        out.append(0x22)
        for b in s.utf8 {
            switch b {
            case 0x22: out.append(0x5c); out.append(0x22)
            case 0x5c: out.append(0x5c); out.append(0x5c)
            case 0x0a: out.append(0x5c); out.append(0x6e)
            case 0x0d: out.append(0x5c); out.append(0x72)
            case 0x09: out.append(0x5c); out.append(0x74)
            case 0..<0x20:
                let hex: [UInt8] = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5c, 0x75, 0x30, 0x30, hex[Int(b >> 4)], hex[Int(b & 0x0f)]])
            default: out.append(b)
            }
        }
        out.append(0x22)
    }
}

// MARK: - Parsing

/// Why a JSON text failed to parse, and where (byte offset).
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    public let reason: String
    public let offset: Int
    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

extension JSONValue {
    /// Parses one JSON text (RFC 8259). Rejects trailing content, and nesting deeper than 128.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var p = JSONParser(Array(text.utf8))
        p.skipSpace()
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.pos == p.bytes.count else { throw JSONParseError(reason: "trailing characters", offset: p.pos) }
        return v
    }
}

private struct JSONParser {
    let bytes: [UInt8]
    var pos = 0
    init(_ b: [UInt8]) { bytes = b }

    mutating func skipSpace() {
        while pos < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[pos]) { pos += 1 }
    }

    func fail(_ r: String) -> JSONParseError { JSONParseError(reason: r, offset: pos) }

    mutating func literal(_ word: String, _ v: JSONValue) throws(JSONParseError) -> JSONValue {
        let w = Array(word.utf8)
        guard pos + w.count <= bytes.count, Array(bytes[pos..<pos + w.count]) == w else { throw fail("unexpected token") }
        pos += w.count
        return v
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < 128 else { throw fail("nesting too deep") }
        guard pos < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[pos] {
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "["):
            pos += 1
            var items: [JSONValue] = []
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard pos < bytes.count else { throw fail("unterminated array") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "]") { pos += 1; return .array(items) }
                throw fail("expected , or ]")
            }
        case UInt8(ascii: "{"):
            pos += 1
            var members: [(String, JSONValue)] = []
            skipSpace()
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
            while true {
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: "\"") else { throw fail("expected a member name") }
                let k = try string()
                skipSpace()
                guard pos < bytes.count, bytes[pos] == UInt8(ascii: ":") else { throw fail("expected :") }
                pos += 1
                skipSpace()
                members.append((k, try value(depth: depth + 1)))
                skipSpace()
                guard pos < bytes.count else { throw fail("unterminated object") }
                if bytes[pos] == UInt8(ascii: ",") { pos += 1; continue }
                if bytes[pos] == UInt8(ascii: "}") { pos += 1; return .object(members) }
                throw fail("expected , or }")
            }
        default:
            return try number()
        }
    }

    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = pos
        func digits() -> Int {
            let s = pos
            while pos < bytes.count, bytes[pos] >= 0x30, bytes[pos] <= 0x39 { pos += 1 }
            return pos - s
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "-") { pos += 1 }
        guard pos < bytes.count else { throw fail("unexpected end of input") }
        if bytes[pos] == UInt8(ascii: "0") { pos += 1 } else if digits() == 0 { throw fail("unexpected character") }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: ".") {
            pos += 1
            guard digits() > 0 else { throw fail("digit expected after .") }
        }
        if pos < bytes.count, bytes[pos] == UInt8(ascii: "e") || bytes[pos] == UInt8(ascii: "E") {
            pos += 1
            if pos < bytes.count, bytes[pos] == UInt8(ascii: "+") || bytes[pos] == UInt8(ascii: "-") { pos += 1 }
            guard digits() > 0 else { throw fail("digit expected in exponent") }
        }
        return .number(String(decoding: bytes[start..<pos], as: UTF8.self))
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard pos + 4 <= bytes.count else { throw fail("truncated \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[pos]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            default: throw fail("bad \\u escape")
            }
            v = v << 4 | d
            pos += 1
        }
        return v
    }

    mutating func string() throws(JSONParseError) -> String {
        pos += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard pos < bytes.count else { throw fail("unterminated string") }
            let c = bytes[pos]
            if c == UInt8(ascii: "\"") { pos += 1; break }
            if c < 0x20 { throw fail("control character in string") }
            if c != UInt8(ascii: "\\") { out.append(c); pos += 1; continue }
            pos += 1
            guard pos < bytes.count else { throw fail("unterminated escape") }
            let e = bytes[pos]
            pos += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5c)
            case UInt8(ascii: "/"): out.append(0x2f)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0c)
            case UInt8(ascii: "n"): out.append(0x0a)
            case UInt8(ascii: "r"): out.append(0x0d)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xd800..<0xdc00).contains(scalar) {
                    guard pos + 6 <= bytes.count, bytes[pos] == UInt8(ascii: "\\"), bytes[pos + 1] == UInt8(ascii: "u") else {
                        throw fail("unpaired surrogate")
                    }
                    pos += 2
                    let low = try hex4()
                    guard (0xdc00..<0xe000).contains(low) else { throw fail("unpaired surrogate") }
                    scalar = 0x10000 + ((scalar - 0xd800) << 10) + (low - 0xdc00)
                }
                guard let u = Unicode.Scalar(scalar) else { throw fail("invalid code point") }
                out.append(contentsOf: Array(String(Character(u)).utf8))
            default: throw fail("bad escape")
            }
        }
        guard let s = String(validating: out, as: UTF8.self) else { throw fail("invalid UTF-8 in string") }
        return s
    }
}

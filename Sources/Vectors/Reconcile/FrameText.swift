/// Writing a frame's JSON text (SPEC.md §5.3, R5.3-1, with §2's escaping, R2-1): compact, members
/// in the order built, strings escaped only where §2 says, integers as JSON numbers.
///
/// The style is a value so the mutants can switch in what stock JSON writers do by default
/// (`\b`/`\f` escapes, uppercase `\u001F`, `\/`, escaped DEL, ASCII-only output, escaped
/// U+2028/U+2029, HTML-safe escapes, sorted keys, numbers through a double).
struct FrameTextStyle: Sendable {
    var shortEscapes = false
    var uppercaseEscapes = false
    var escapeSolidus = false
    var escapeDEL = false
    var asciiOnly = false
    var escapeLineSeparators = false
    var escapeHTML = false
    var sortMembers = false
    var numbersThroughDouble = false

    static let spec = FrameTextStyle()

    static var current: FrameTextStyle {
        guard let m = Mutant.active else { return .spec }
        var s = FrameTextStyle()
        switch m {
        case .jsonShortEscapes: s.shortEscapes = true
        case .jsonUppercaseEscapes: s.uppercaseEscapes = true
        case .jsonEscapesSolidus: s.escapeSolidus = true
        case .jsonEscapesDEL: s.escapeDEL = true
        case .jsonASCIIOnly: s.asciiOnly = true
        case .jsonEscapesLineSeparators: s.escapeLineSeparators = true
        case .jsonEscapesHTML: s.escapeHTML = true
        case .frameMembersSorted: s.sortMembers = true
        case .countersThroughDouble: s.numbersThroughDouble = true
        default: break
        }
        return s
    }
}

enum FrameText {
    static func write(_ v: JSONValue, style: FrameTextStyle = .current) -> String {
        var out = ""
        write(v, into: &out, style)
        return out
    }

    private static func write(_ v: JSONValue, into out: inout String, _ style: FrameTextStyle) {
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += style.numbersThroughDouble ? throughDouble(n) : n
        case .string(let s): escape(s, into: &out, style)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out, style)
            }
            out += "]"
        case .object(var members):
            if style.sortMembers { members.sort { $0.0.utf16.lexicographicallyPrecedes($1.0.utf16) } }
            out += "{"
            for (i, (k, item)) in members.enumerated() {
                if i > 0 { out += "," }
                escape(k, into: &out, style)
                out += ":"
                write(item, into: &out, style)
            }
            out += "}"
        }
    }

    private static func hex4(_ v: UInt32, _ style: FrameTextStyle) -> String {
        let h = String(v, radix: 16, uppercase: style.uppercaseEscapes)
        return "\\u" + String(repeating: "0", count: 4 - h.count) + h
    }

    /// §2: `"` `\` as `\"` `\\`; newline, return, tab as `\n` `\r` `\t`; every other character
    /// below U+0020 as `\u00xx` in lowercase; everything else, `/` and non-ASCII included, as itself.
    static func escape(_ s: String, into out: inout String, _ style: FrameTextStyle) {
        out += "\""
        for u in s.unicodeScalars {
            switch u.value {
            case 0x22: out += "\\\""
            case 0x5c: out += "\\\\"
            case 0x0a: out += "\\n"
            case 0x0d: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08 where style.shortEscapes: out += "\\b"
            case 0x0c where style.shortEscapes: out += "\\f"
            case 0x00..<0x20: out += hex4(u.value, style)
            case 0x2f where style.escapeSolidus: out += "\\/"
            case 0x7f where style.escapeDEL: out += hex4(0x7f, style)
            case 0x3c, 0x3e, 0x26:
                if style.escapeHTML { out += hex4(u.value, style) } else { out.unicodeScalars.append(u) }
            case 0x2028...0x2029 where style.escapeLineSeparators: out += hex4(u.value, style)
            case 0x80...0xffff where style.asciiOnly: out += hex4(u.value, style)
            case 0x10000... where style.asciiOnly:
                let v = u.value - 0x10000
                out += hex4(0xd800 + (v >> 10), style) + hex4(0xdc00 + (v & 0x3ff), style)
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }

    /// An integer literal as a JavaScript number prints it: exact up to 2^53, then the nearest
    /// double written out in full (2^53 + 1 → 9007199254740992).
    static func throughDouble(_ literal: String) -> String {
        guard let d = Double(literal), !literal.contains("."), !literal.contains("e"), !literal.contains("E") else { return literal }
        if abs(d) < 9_007_199_254_740_992 { return literal }
        let desc = "\(abs(d))"  // e.g. 1.8446744073709552e+19
        let sign = d < 0 ? "-" : ""
        guard let e = desc.firstIndex(where: { $0 == "e" }) else {
            return sign + (desc.hasSuffix(".0") ? String(desc.dropLast(2)) : desc)
        }
        let mantissa = desc[..<e].replacingOccurrences(of: ".", with: "")
        let exponent = Int(desc[desc.index(after: e)...].replacingOccurrences(of: "+", with: ""))!
        return sign + mantissa + String(repeating: "0", count: max(0, exponent + 1 - mantissa.count))
    }
}

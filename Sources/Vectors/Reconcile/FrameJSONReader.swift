/// Reading a frame's JSON text strictly (SPEC.md §5.3 step 1, R5.3-5): RFC 8259 (no byte order
/// mark, `NaN`, `Infinity`, comments or trailing commas; every `\u` escape a Unicode scalar
/// value), no object with two members of one name, at most 32 levels of arrays and objects.
/// Anything else is `frame_invalid_json`. The mutants model the stock readers that take the last
/// duplicate, accept lone surrogates or non-finite numbers, or have no depth limit.
enum FrameJSONReader {
    static let maxDepth = 32

    static func parse(_ text: String) throws(WireError) -> JSONValue {
        var source = text
        if Mutant.on(.loneSurrogatesAccepted) { source = replacingLoneSurrogates(source) }
        if Mutant.on(.nonFiniteAccepted) { source = replacingNonFinite(source) }
        let json: JSONValue
        do { json = try JSONValue.parse(source) } catch {
            throw WireError(.frameInvalidJSON, error.reason, offset: error.offset)
        }
        if Mutant.on(.duplicateMembersLastWins) { return lastWins(json) }
        try check(json, depth: 1)
        return json
    }

    private static func check(_ v: JSONValue, depth: Int) throws(WireError) {
        switch v {
        case .array(let items):
            guard depth <= maxDepth || Mutant.on(.noDepthLimit) else { throw WireError(.frameInvalidJSON, "nesting deeper than \(maxDepth)") }
            for item in items { try check(item, depth: depth + 1) }
        case .object(let members):
            guard depth <= maxDepth || Mutant.on(.noDepthLimit) else { throw WireError(.frameInvalidJSON, "nesting deeper than \(maxDepth)") }
            var names = Set<TextKey>()
            for (k, item) in members {
                guard names.insert(TextKey(k)).inserted else {
                    throw WireError(.frameInvalidJSON, "member \(k) appears twice in one object", field: k)
                }
                try check(item, depth: depth + 1)
            }
        default: return
        }
    }

    private static func lastWins(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array(let items): return .array(items.map(lastWins))
        case .object(let members):
            var out: [(String, JSONValue)] = []
            for (k, item) in members {
                if let i = out.firstIndex(where: { TextKey($0.0) == TextKey(k) }) { out.remove(at: i) }
                out.append((k, lastWins(item)))
            }
            return .object(out)
        default: return v
        }
    }

    /// `\uD800`…`\uDFFF` escapes that do not form a pair become `\uFFFD` (what a lenient reader keeps).
    static func replacingLoneSurrogates(_ text: String) -> String {
        var chars = Array(text.utf8)
        func hexValue(at i: Int) -> UInt32? {
            guard i + 6 <= chars.count, chars[i] == UInt8(ascii: "\\"), chars[i + 1] == UInt8(ascii: "u") else { return nil }
            return UInt32(String(decoding: chars[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16)
        }
        var i = 0
        while i < chars.count {
            guard chars[i] == UInt8(ascii: "\\") else { i += 1; continue }
            guard let v = hexValue(at: i) else { i += 2; continue }
            if (0xd800..<0xdc00).contains(v), let low = hexValue(at: i + 6), (0xdc00..<0xe000).contains(low) { i += 12; continue }
            if (0xd800..<0xe000).contains(v) { chars.replaceSubrange((i + 2)..<(i + 6), with: Array("fffd".utf8)) }
            i += 6
        }
        return String(decoding: chars, as: UTF8.self)
    }

    /// `NaN`, `Infinity` and `-Infinity` outside strings become a non-integer number.
    static func replacingNonFinite(_ text: String) -> String {
        var out = ""
        var inString = false, escaped = false
        var rest = Substring(text)
        while let c = rest.first {
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
                out.append(c); rest = rest.dropFirst(); continue
            }
            if c == "\"" { inString = true }
            var replaced = false
            for token in ["-Infinity", "Infinity", "NaN"] where rest.hasPrefix(token) {
                out += "1.5"; rest = rest.dropFirst(token.count); replaced = true; break
            }
            if !replaced { out.append(c); rest = rest.dropFirst() }
        }
        return out
    }
}

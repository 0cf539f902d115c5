import Vectors

/// Reads one top-level string member (a case's `id`) from a line that may not decode as a whole
/// (SPEC.md §6.3): the top-level object's members are scanned without decoding their values, so
/// a bad escape, an invalid byte or a nesting bomb inside `input` does not hide the id. Works on
/// a prefix too (an over-long line keeps only its first bytes). No recursion, no allocation per
/// nested level.
public enum LineSalvage {
    /// The string value of the top-level member `key`, or nil when the line is not an object
    /// up to that member, the member is absent (in the bytes given) or its value is not a string
    /// that decodes cleanly.
    public static func topLevelString(_ key: String, in line: ArraySlice<UInt8>) -> String? {
        var s = Scanner(bytes: line)
        s.space()
        guard s.take(UInt8(ascii: "{")) else { return nil }
        while true {
            s.space()
            guard let name = s.stringToken() else { return nil }
            s.space()
            guard s.take(UInt8(ascii: ":")) else { return nil }
            s.space()
            if decode(name) == key {
                guard s.peek == UInt8(ascii: "\""), let value = s.stringToken() else { return nil }
                return decode(value)
            }
            guard s.skipValue() else { return nil }
            s.space()
            if s.take(UInt8(ascii: ",")) { continue }
            return nil
        }
    }

    /// A string token's bytes (quotes included) as a string, through the strict JSON parser so
    /// escapes and surrogates follow the same rules as a full decode.
    static func decode(_ token: ArraySlice<UInt8>) -> String? {
        guard let text = String(validating: token, as: UTF8.self), let v = try? JSONValue.parse(text) else { return nil }
        return v.stringValue
    }

    struct Scanner {
        let bytes: ArraySlice<UInt8>
        var pos: Int

        init(bytes: ArraySlice<UInt8>) {
            self.bytes = bytes
            pos = bytes.startIndex
        }

        var peek: UInt8? { pos < bytes.endIndex ? bytes[pos] : nil }

        mutating func space() {
            while let c = peek, c == 0x20 || c == 0x09 || c == 0x0a || c == 0x0d { pos += 1 }
        }

        mutating func take(_ c: UInt8) -> Bool {
            guard peek == c else { return false }
            pos += 1
            return true
        }

        /// A whole string token, quotes included; nil when unterminated in the bytes given.
        mutating func stringToken() -> ArraySlice<UInt8>? {
            guard peek == UInt8(ascii: "\"") else { return nil }
            let start = pos
            pos += 1
            while pos < bytes.endIndex {
                switch bytes[pos] {
                case UInt8(ascii: "\\"): pos += 2
                case UInt8(ascii: "\""):
                    pos += 1
                    return bytes[start..<pos]
                default: pos += 1
                }
            }
            return nil
        }

        /// Skips one value of any depth by counting brackets outside strings; nil when the bytes
        /// end first.
        mutating func skipValue() -> Bool {
            var depth = 0
            while let c = peek {
                switch c {
                case UInt8(ascii: "\""):
                    guard stringToken() != nil else { return false }
                    if depth == 0 { return true }
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { return true }  // end of the enclosing object: an empty value
                    depth -= 1
                    if depth == 0 { pos += 1; return true }
                case UInt8(ascii: ","):
                    if depth == 0 { return true }
                default: break
                }
                pos += 1
            }
            return false
        }
    }
}

import Primitives

/// The one list of §2.2 spellings every op-input member is sent (SPEC.md §2.2, R2.2-1 … R2.2-6):
/// per member type, the spellings stock JSON readers disagree on, each with the answer §2.2
/// requires. `InputCases` applies it to every member `InputFacets` finds; `InputCoverage` gates
/// that every (op, member, spelling) has its case.
///
/// Spellings are built from the member's value in the base case ("+" then its digits, its digits
/// in full-width form, its hex in uppercase), so a reader that tolerates the spelling reads the
/// very value the base case holds and answers as the base case does: the case then fails it.
public enum InputBattery {
    /// What §2.2 makes of a spelling.
    public enum Outcome: Sendable, Equatable {
        /// Rejected with exactly this code.
        case error(ErrorCode)
        /// The same answer as the input with this value instead (a second spelling of it).
        case sameAs(CBOR)
        /// Read as a valid value: whatever the op answers, it is not a §2.2 rejection of this member.
        case accepted
    }

    public struct Spelling: Sendable {
        /// The last part of the case id and of the `facet:input:<path>:<name>` flag.
        public var name: String
        public var value: CBOR
        public var outcome: Outcome
        /// The §2.2 rule the spelling pins (`2.2-3` …).
        public var rule: String
        public var comment: String
    }

    /// The names of every spelling a member of this type gets: the coverage gate's row.
    public static func names(kind: InputKind, fixedLength: Bool, nullable: Bool) -> [String] {
        let sample: CBOR = switch kind {
        case .uint64, .int64: .unsigned(5)
        case .hex: .bytes([0xab])
        case .text: .text("a")
        case .bool: .bool(true)
        case .array: .array([])
        case .object: .object([])
        }
        return spellings(kind: kind, base: sample, length: fixedLength ? 1 : nil, nullable: nullable).map(\.name)
    }

    /// The spellings of a member of type `kind` whose base value is `base`.
    public static func spellings(kind: InputKind, base: CBOR, length: Int?, nullable: Bool) -> [Spelling] {
        var out: [Spelling]
        switch kind {
        case .uint64: out = integers(base, min: "0", max: "18446744073709551615", below: "-1", above: "18446744073709551616", rule: "2.2-3")
        case .int64: out = integers(base, min: "-9223372036854775808", max: "9223372036854775807",
                                    below: "-9223372036854775809", above: "9223372036854775808", rule: "2.2-3")
        case .hex: out = hex(base, length: length)
        case .text: out = [
            bad("number", .unsigned(1), "a JSON number where text is expected", "2.2-5"),
            bad("bool", .bool(true), "true where text is expected", "2.2-5"),
            bad("array", .array([base]), "the text inside an array", "2.2-5"),
        ]
        case .bool: out = [
            bad("number-zero", .unsigned(0), "0 is not false", "2.2-6"),
            bad("number-one", .unsigned(1), "1 is not true", "2.2-6"),
            bad("string-true", .text("true"), "the string \"true\" is not true", "2.2-6"),
        ]
        case .array: out = [
            bad("object", .object([]), "an object where an array is expected", "2.2-1"),
            bad("string", .text(""), "a string where an array is expected", "2.2-1"),
        ]
        case .object: out = [
            bad("array", .array([]), "an array where an object is expected", "2.2-1"),
            bad("string", .text(""), "a string where an object is expected", "2.2-1"),
        ]
        }
        out.append(nullable
            ? Spelling(name: "null", value: .null, outcome: .accepted, rule: "2.2-1", comment: "null for a nullable member: none")
            : bad("null", .null, "null is not absence and not a value", "2.2-1"))
        return out
    }

    static func bad(_ name: String, _ v: CBOR, _ comment: String, _ rule: String, _ code: ErrorCode = .inputBadType) -> Spelling {
        Spelling(name: name, value: v, outcome: .error(code), rule: rule, comment: comment + ": \(code.rawValue)")
    }

    /// §2.2 rule 3. `base` is the member's value as the base case writes it.
    static func integers(_ base: CBOR, min: String, max: String, below: String, above: String, rule: String) -> [Spelling] {
        let text = integerText(base) ?? "1"
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let sign = negative ? "-" : ""
        let spaced = digits.count > 1 ? "\(digits.prefix(1)) \(digits.dropFirst())" : "\(digits) 0"
        func mapDigits(_ zero: UInt32) -> String {
            String(String.UnicodeScalarView(digits.unicodeScalars.map { Unicode.Scalar(zero + ($0.value - 0x30))! }))
        }
        return [
            Spelling(name: "decimal-string", value: .text(text), outcome: .sameAs(.jsonNumber(text)), rule: rule,
                     comment: "the value as a canonical decimal string: the same value"),
            Spelling(name: "number-minus-zero", value: .jsonNumber("-0"), outcome: .sameAs(.unsigned(0)), rule: rule,
                     comment: "the JSON number -0 reads as 0"),
            Spelling(name: "max", value: .text(max), outcome: .accepted, rule: rule, comment: "the type's maximum \(max) is in range"),
            Spelling(name: "max-number", value: .jsonNumber(max), outcome: .sameAs(.text(max)), rule: rule,
                     comment: "the type's maximum as a JSON number: the same value as its decimal string"),
            Spelling(name: "min", value: .text(min), outcome: .accepted, rule: rule, comment: "the type's minimum \(min) is in range"),
            bad("above-max", .text(above), "\(above), one above the type's range", rule),
            bad("above-max-number", .jsonNumber(above), "\(above) as a JSON number, one above the type's range", rule),
            bad("below-min", .text(below), "\(below), one below the type's range", rule),
            bad("bool-true", .bool(true), "true is not 1", rule),
            bad("bool-false", .bool(false), "false is not 0", rule),
            bad("string-minus-zero", .text("-0"), "the string \"-0\" is not canonical", rule),
            bad("string-plus", .text("+" + text), "a + sign is not canonical", rule),
            bad("string-leading-zero", .text(sign + "0" + digits), "a leading zero is not canonical", rule),
            bad("string-space-before", .text(" " + text), "a space before the digits", rule),
            bad("string-space-after", .text(text + " "), "a space after the digits", rule),
            bad("string-space-inside", .text(sign + spaced), "a space inside the digits", rule),
            bad("string-fullwidth", .text(sign + mapDigits(0xFF10)), "full-width digits (U+FF10…) are not decimal digits", rule),
            bad("string-arabic-indic", .text(sign + mapDigits(0x0660)), "Arabic-Indic digits (U+0660…) are not decimal digits", rule),
            bad("string-empty", .text(""), "the empty string", rule),
            bad("string-not-digits", .text("x"), "a string that is not digits", rule),
            bad("fraction", .jsonNumber(text + ".0"), "\(text).0 has a fraction: not an integer", rule),
            bad("exponent", .jsonNumber(text + "e0"), "\(text)e0 has an exponent: not an integer", rule),
            bad("exponent-upper", .jsonNumber(text + "E0"), "\(text)E0 has an exponent: not an integer", rule),
            bad("array", .array([base]), "the value inside an array", rule),
            bad("object", .object([]), "an object", rule),
        ]
    }

    /// §2.2 rule 4: type, then hex digits, then (for a fixed-size member) the byte count.
    static func hex(_ base: CBOR, length: Int?) -> [Spelling] {
        let h: String
        switch base {
        case .bytes(let b): h = Hex.encode(b)
        case .text(let s): h = s.lowercased()
        default: h = "00"
        }
        let mid = (h.count / 4) * 2
        let first = h.first.map(String.init) ?? "0"
        let fullwidthFirst = String(Unicode.Scalar(first.unicodeScalars.first!.value - 0x20 + 0xFF00)!)
        let bv = "2.2-4"
        var out = [
            Spelling(name: "uppercase", value: .text(h.uppercased()), outcome: .sameAs(.text(h)), rule: bv,
                     comment: "the hex in uppercase: the same bytes"),
            bad("number", .unsigned(12), "a JSON number where hex is expected", bv),
            bad("bool", .bool(true), "true where hex is expected", bv),
            bad("odd-length", .text(h + "0"), "an odd number of hex digits", bv, .inputBadValue),
            bad("space-before", .text(" " + h), "a space before the hex", bv, .inputBadValue),
            bad("space-after", .text(h + " "), "a space after the hex", bv, .inputBadValue),
            bad("space-inside", .text(String(h.prefix(mid)) + " " + String(h.dropFirst(mid))), "a space between two hex digit pairs", bv, .inputBadValue),
            bad("0x-prefix", .text("0x" + h), "a 0x prefix", bv, .inputBadValue),
            bad("fullwidth", .text(fullwidthFirst + String(h.dropFirst())), "a full-width hex digit (U+FF10…)", bv, .inputBadValue),
            bad("non-hex-letter", .text("g" + String(h.dropFirst())), "g is not a hex digit", bv, .inputBadValue),
        ]
        if length != nil {
            out.append(bad("one-byte-short", .text(String(h.dropLast(2))), "one byte short of the fixed size", bv, .inputBadLength))
            out.append(bad("one-byte-long", .text(h + "00"), "one byte over the fixed size", bv, .inputBadLength))
        }
        return out
    }

    /// The decimal text of an integer as vector data holds it (number, tag-262 literal or string).
    static func integerText(_ v: CBOR) -> String? {
        switch v.json {
        case .number(let n): return n.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? nil : n
        case .string(let s): return JSONValue.isCanonicalDecimal(s) ? s : nil
        default: return nil
        }
    }
}

/// The edges the HTTP scenario batteries cross, as small tables (SPEC.md §13.1, §13.2, §13.4):
/// spellings of a path that are no route, query strings that change nothing, methods, Bearer
/// header variants, spellings of a 64-hex value and bodies that are not a strict JSON object.
/// Both HTTP formats build their battery from these same tables (route × variant, field ×
/// spelling), so a variant added here reaches every route and field of both services.
package enum HTTPEdges {
    /// (name, what, target): spellings of `path` that match no route (R13.2-3, R13.4-14).
    /// `path` is an absolute path of ASCII segments whose last segment starts with a letter.
    package static func noRoute(_ path: String) -> [(String, String, String)] {
        let cut = path.utf8.lastIndex(of: UInt8(ascii: "/"))!
        let head = String(path[..<cut])  // "" or "/v1/sync"
        let last = String(path[path.index(after: cut)...])
        let first = last.unicodeScalars.first!
        let rest = String(last.unicodeScalars.dropFirst())
        let code = String(first.value, radix: 16)
        var out: [(String, String, String)] = [
            ("uppercase", "every letter in uppercase (no case folding)", path.uppercased()),
            ("capitalised", "the last segment capitalised", "\(head)/\(String(first).uppercased())\(rest)"),
            ("trailing-slash", "a trailing slash (no slash rewriting)", path + "/"),
            ("double-slash", "a doubled leading slash", "/" + path),
            ("dot-segment", "a ./ segment before the last (no dot-segment removal)", "\(head)/./\(last)"),
            ("percent-encoded", "the first letter of the last segment percent-encoded (no percent-decoding)", "\(head)/%\(code)\(rest)"),
            ("percent-encoded-upper", "the same escape with uppercase hex digits", "\(head)/%\(code.uppercased())\(rest)"),
        ]
        // Only inside the path: a target starting with % is not origin-form (RFC 9112 §3.2.1).
        if !head.isEmpty { out.append(("encoded-slash", "the last slash percent-encoded as %2F", "\(head)%2F\(last)")) }
        return out
    }

    /// (name, what, suffix): a query string after the path; routes ignore it (R13.2-3, R13.4-14).
    package static let queries: [(String, String, String)] = [
        ("query", "a query string", "?probe=1"),
        ("empty-query", "an empty query (a bare ?)", "?"),
        ("query-with-escapes", "a query holding escapes and a slash", "?next=%2Fstatus&x=/"),
    ]

    /// (name, method): methods no route of either service has; `get`, `post` because methods are
    /// case-sensitive (RFC 9110 §9.1).
    package static let otherMethods: [(String, String)] = [
        ("put", "PUT"), ("patch", "PATCH"), ("delete", "DELETE"), ("options", "OPTIONS"), ("lowercase-get", "get"), ("lowercase-post", "post"),
    ]

    package struct BearerVariant {
        package var name: String
        package var what: String
        /// The `Authorization` field lines, `T` standing for the right token.
        package var lines: [String]
        /// Whether the pairing service (the seed's exact prefix, R13.2-13) admits it.
        package var pairing: Bool
        /// Whether the identity service (RFC 9110 §11.1, §11.4, R13.4-15) admits it.
        package var identity: Bool
    }

    package static let bearer: [BearerVariant] = [
        .init(name: "exact", what: "Bearer, one space, the token", lines: ["Bearer T"], pairing: true, identity: true),
        .init(name: "scheme-lowercase", what: "the scheme in lowercase", lines: ["bearer T"], pairing: false, identity: true),
        .init(name: "scheme-uppercase", what: "the scheme in uppercase", lines: ["BEARER T"], pairing: false, identity: true),
        .init(name: "scheme-mixed-case", what: "the scheme in mixed case", lines: ["BeArEr T"], pairing: false, identity: true),
        .init(name: "two-spaces", what: "two spaces after the scheme", lines: ["Bearer  T"], pairing: false, identity: true),
        .init(name: "tab", what: "a tab after the scheme (not a space)", lines: ["Bearer\tT"], pairing: false, identity: false),
        .init(name: "no-space", what: "the scheme and the token with nothing between", lines: ["BearerT"], pairing: false, identity: false),
        .init(name: "missing-scheme", what: "the bare token", lines: ["T"], pairing: false, identity: false),
        .init(name: "scheme-only", what: "the scheme alone", lines: ["Bearer"], pairing: false, identity: false),
        .init(name: "empty-credential", what: "the scheme and a space, no credential (the space is not part of the value)", lines: ["Bearer "], pairing: false, identity: false),
        .init(name: "other-scheme", what: "another scheme with the token", lines: ["Basic T"], pairing: false, identity: false),
        .init(name: "trailing-space", what: "a space after the token: not part of the field value (RFC 9112 §5.1)", lines: ["Bearer T "], pairing: true, identity: true),
        .init(name: "trailing-tab", what: "a tab after the token: not part of the field value", lines: ["Bearer T\t"], pairing: true, identity: true),
        .init(name: "leading-space", what: "a space before the scheme: not part of the field value", lines: [" Bearer T"], pairing: true, identity: true),
        .init(name: "repeated-both-right", what: "two Authorization lines, both right (not a list field, RFC 9110 §5.3)", lines: ["Bearer T", "Bearer T"], pairing: false, identity: false),
        .init(name: "repeated-right-first", what: "two Authorization lines, the first right", lines: ["Bearer T", "Bearer 0"], pairing: false, identity: false),
        .init(name: "repeated-right-last", what: "two Authorization lines, the last right", lines: ["Bearer 0", "Bearer T"], pairing: false, identity: false),
        .init(name: "comma-joined", what: "the right credential twice in one line, comma-joined", lines: ["Bearer T, Bearer T"], pairing: false, identity: false),
        .init(name: "trailing-comma", what: "the token followed by a comma", lines: ["Bearer T,"], pairing: false, identity: false),
    ]

    /// (name, what, spelling, sameKey): spellings of the 64-hex value `k` in a JSON string.
    /// `sameKey` is true where the spelling names the same 32 bytes (a pubkey, R13.4-4); a
    /// pairing token is lowercase only (R13.2-8), so there every spelling but `k` is refused.
    package static func hexSpellings(_ k: String) -> [(String, String, String, Bool)] {
        let digitsFullwidth = String(String.UnicodeScalarView(k.unicodeScalars.map { $0.value <= 0x39 ? Unicode.Scalar($0.value - 0x30 + 0xFF10)! : $0 }))
        let i = k.firstIndex { $0.isLetter }!
        let oneUpper = String(k[..<i]) + k[i].uppercased() + String(k[k.index(after: i)...])
        return [
            ("63-digits", "63 hex digits", String(k.dropLast()), false),
            ("65-digits", "65 hex digits", k + "0", false),
            ("62-digits", "62 hex digits (31 bytes)", String(k.dropLast(2)), false),
            ("66-digits", "66 hex digits (33 bytes)", k + "00", false),
            ("uppercase", "in uppercase", k.uppercased(), true),
            ("one-letter-uppercase", "one letter in uppercase", oneUpper, true),
            ("leading-space", "a leading space", " " + k, false),
            ("trailing-space", "a trailing space", k + " ", false),
            ("inner-space", "a space between two bytes", String(k.prefix(32)) + " " + String(k.dropFirst(32)), false),
            ("trailing-newline", "a trailing newline", k + "\n", false),
            ("tab", "a leading tab", "\t" + k, false),
            ("fullwidth-digits", "its decimal digits full-width (U+FF10–U+FF19), the letters ASCII: a Unicode isdigit check accepts it", digitsFullwidth, false),
            ("0x-prefix", "0x then 62 digits", "0x" + String(k.dropFirst(2)), false),
            ("empty", "the empty string", "", false),
        ]
    }

    /// A 64-digit decimal number (no leading zero), to send where a 64-hex string is expected.
    package static func decimalNumber(_ k: String) -> String {
        "1" + String(k.dropFirst().map { $0.isNumber ? $0 : "7" })
    }

    /// (name, what, member JSON): a member value that is not a string at all.
    package static func nonStrings(_ k: String) -> [(String, String, String)] {
        [
            ("json-number", "a 64-digit JSON number", decimalNumber(k)),
            ("null", "null", "null"),
            ("array", "an array holding the value", "[\"\(k)\"]"),
            ("object", "an object", "{\"hex\":\"\(k)\"}"),
            ("boolean", "true", "true"),
        ]
    }

    /// (name, what, body): request bodies that are not one strict JSON object (R13.1-6), built
    /// around `good`, a well-formed object body of the route (compact JSON text).
    package static func badBodies(_ good: String) -> [(String, String, String)] {
        let inner = String(good.dropFirst().dropLast())  // the members, without the braces
        let utf16le = String(String.UnicodeScalarView(good.unicodeScalars.flatMap { [$0, Unicode.Scalar(0)] }))
        let utf16be = String(String.UnicodeScalarView(good.unicodeScalars.flatMap { [Unicode.Scalar(0), $0] }))
        return [
            ("array", "a JSON array holding the object", "[\(good)]"),
            ("empty-array", "an empty JSON array", "[]"),
            ("number", "a JSON number", "1"),
            ("long-number", "a 64-digit JSON number", "1" + String(repeating: "0", count: 63)),
            ("string", "a JSON string", "\"\(inner.replacingOccurrences(of: "\"", with: "\\\""))\""),
            ("null", "null", "null"),
            ("true", "true", "true"),
            ("nan-member", "an extra member whose value is NaN (not JSON)", "{\(inner),\"n\":NaN}"),
            ("infinity-member", "an extra member whose value is Infinity", "{\(inner),\"n\":Infinity}"),
            ("byte-order-mark", "the object after a UTF-8 byte-order mark (RFC 8259 §8.1)", "\u{FEFF}" + good),
            ("utf16le", "the object in UTF-16LE", utf16le),
            ("utf16be", "the object in UTF-16BE", utf16be),
            ("trailing-comma", "a trailing comma after the last member", "{\(inner),}"),
            ("second-value", "the object twice: two JSON texts", good + good),
            ("trailing-garbage", "the object then a stray character", good + "x"),
            ("single-quotes", "single-quoted strings", good.replacingOccurrences(of: "\"", with: "'")),
            ("comment", "a comment before the object", "/* c */" + good),
            ("lone-surrogate-member", "an extra member holding a lone surrogate escape (RFC 8259 §8.2)", "{\(inner),\"n\":\"\\ud800\"}"),
            ("empty", "an empty body", ""),
        ]
    }

    /// The largest body every service reads (SPEC [R13.1-9]).
    package static let bodyFloor = 65_536

    /// `good` grown to exactly `bodyFloor` bytes by a leading `"pad"` member, which the route ignores.
    package static func paddedBody(_ good: String) -> String {
        let shell = "{\"pad\":\"\",\(good.dropFirst())"
        return "{\"pad\":\"" + String(repeating: "p", count: bodyFloor - shell.utf8.count) + "\"," + String(good.dropFirst())
    }

    /// The control for `badBodies`: the same object with whitespace around and inside it reads.
    package static func spacedBody(_ good: String) -> String {
        " \r\n\t" + good.replacingOccurrences(of: "\":", with: "\" :\n ").replacingOccurrences(of: ",\"", with: " ,\t\"") + "\n "
    }
}

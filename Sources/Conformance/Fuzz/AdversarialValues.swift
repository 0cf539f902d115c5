import Foundation
import Primitives
import Vectors

/// The value classes a generator draws from when a member may hold anything of its kind: the
/// places where stock libraries and hurried implementations disagree (Unicode normalisation and
/// ordering, escaping, integer limits and spellings, byte lengths and hex case).
public enum AdversarialValues {
    /// Text classes: normalisation forms, astral and BMP-high characters (UTF-16 order differs from
    /// UTF-8 order between them), controls and escapes, invisible characters, case and padding.
    public static let texts: [String] = [
        "", "a", "A", "Ada", "é", "e\u{301}", "\u{1E9B}\u{323}", "\u{D55C}", "\u{1112}\u{1161}\u{11AB}",
        "\u{FF5E}", "\u{1F600}", "\u{1F600}\u{FF5E}", "\u{FB01}", "\u{212B}", "\u{00C5}",
        "\u{0}", "\u{1F}", "\u{7F}", "tab\there", "line\nbreak", "cr\r", "\"quoted\"", "back\\slash", "a/b", "</script>",
        "\u{200D}", "\u{FEFF}bom", "\u{202E}rtl", " padded ", "trailing\n", "UPPER", "MiXeD",
        "\u{10FFFF}", "\u{E000}", "\u{FFFD}", "日本語", "Ωmega", "ǅ",
        // What stock JSON writers escape and SPEC §2 writes as itself or as \u00xx: U+0008 and
        // U+000C (`\b` `\f` in most libraries), U+2028 and U+2029 (escaped by JavaScript-safe writers).
        "\u{8}", "form\u{C}feed", "\u{2028}", "para\u{2029}graph",
    ]

    /// Keys where orders and equalities disagree: pairs of equal UTF-8 length whose UTF-16 order is
    /// the reverse of their byte order (a BMP character at U+E000 or above against an astral one),
    /// and canonically equivalent NFC/NFD spellings (one key under Swift `==`, two by bytes). For
    /// maps and sets whose keys SPEC §2.2 sorts and compares by UTF-8 bytes (settings keys,
    /// version-vector devices, data keys in frames, provider keys).
    public static let orderTrapKeys: [String] = [
        "\u{FF5E}a", "\u{1F600}", "\u{E000}!", "\u{10000}", "\u{1F600}a", "\u{FF5E}ab",
        "\u{E9}", "e\u{301}", "\u{C5}", "A\u{30A}", "\u{212B}", "a", "b",
    ]

    /// `count` keys distinct by UTF-8 bytes, mostly from `orderTrapKeys` (so a pair that sorts
    /// differently by UTF-16 or collapses under canonical equivalence is likely), else any text.
    public static func trapKeys(_ rng: inout FuzzRNG, count: Int) -> [String] {
        var out: [String] = []
        for _ in 0..<count * 2 where out.count < count {
            let k = rng.percent(75) ? rng.pick(orderTrapKeys) : text(&rng)
            if !out.contains(where: { $0.utf8.elementsEqual(k.utf8) }) { out.append(k) }
            // Now and then its canonical twin right after it (NFD of an NFC key, or NFC of an NFD one).
            let twin = FuzzUnicode.nfd(k).utf8.elementsEqual(k.utf8) ? FuzzUnicode.nfc(k) : FuzzUnicode.nfd(k)
            if rng.oneIn(3), out.count < count, !out.contains(where: { $0.utf8.elementsEqual(twin.utf8) }) { out.append(twin) }
        }
        return out
    }

    /// A text drawn from the classes, sometimes repeated to a byte-length edge (multi-byte
    /// characters make character counts and UTF-8 byte counts differ).
    public static func text(_ rng: inout FuzzRNG) -> String {
        switch rng.below(10) {
        case 0, 1:
            let unit = rng.pick(["é", "e\u{301}", "\u{1F600}", "a", "日", "\u{FF5E}"])
            return String(repeating: unit, count: rng.pick([1, 2, 15, 16, 21, 22, 31, 32, 33, 63, 64, 65, 128]))
        case 2:
            return rng.pick(texts) + rng.pick(texts)
        default:
            return rng.pick(texts)
        }
    }

    /// A set of texts: duplicates, normalisation twins and order traps included.
    public static func textSet(_ rng: inout FuzzRNG, max: Int = 6) -> [String] {
        var out: [String] = []
        for _ in 0..<rng.length(max: max) {
            if !out.isEmpty && rng.oneIn(5) { out.append(rng.pick(out)) } else { out.append(text(&rng)) }
        }
        return out
    }

    /// Unsigned edges: 0, 1, the 32-, 53- and 64-bit limits and their neighbours.
    public static let unsignedEdges: [UInt64] = [
        0, 1, 2, 7, 8, 23, 24, 255, 256, 65_535, 65_536, 0x7fff_ffff, 0xffff_ffff, 0x1_0000_0000,
        1 << 53 - 1, 1 << 53, 1 << 53 + 1, UInt64(Int64.max) - 1, UInt64(Int64.max), UInt64(Int64.max) + 1, UInt64.max - 1, UInt64.max,
    ]

    /// Signed edges.
    public static let signedEdges: [Int64] = [0, 1, -1, -2, 999, -999, 1000, -1000, 1001, -1001, Int64.min, Int64.min + 1, Int64.max, Int64.max - 1,
                                              Int64(Int32.min), Int64(Int32.max), -(1 << 53), 1 << 53]

    /// An unsigned number near `near` or at an edge.
    public static func unsigned(_ rng: inout FuzzRNG, near: UInt64 = 0) -> UInt64 {
        switch rng.below(4) {
        case 0: return rng.pick(unsignedEdges)
        case 1: return near &+ UInt64(rng.below(5)) &- 2
        default: return near &+ UInt64(rng.below(1000))
        }
    }

    /// The JSON spelling of an unsigned integer in the forms SPEC §2.2 accepts: a number up to
    /// 2^53, a canonical decimal string (always allowed, sometimes chosen), a string beyond 2^53.
    public static func json(_ v: UInt64, _ rng: inout FuzzRNG) -> JSONValue {
        if v > 1 << 53 || rng.oneIn(12) { return .string(String(v)) }
        return .number(String(v))
    }

    public static func json(_ v: Int64, _ rng: inout FuzzRNG) -> JSONValue {
        if v.magnitude > 1 << 53 || rng.oneIn(12) { return .string(String(v)) }
        return .number(String(v))
    }

    /// Lowercase hex, sometimes in upper or mixed case (both are valid input, SPEC §2.2 rule 4).
    public static func hex(_ b: [UInt8], _ rng: inout FuzzRNG) -> JSONValue {
        let h = Hex.encode(b)
        switch rng.below(16) {
        case 0: return .string(h.uppercased())
        case 1:
            var i = 0
            return .string(String(h.map { c -> Character in i += 1; return i % 2 == 0 ? Character(c.uppercased()) : c }))
        default: return .string(h)
        }
    }

    /// Hex always lowercase (where a generator builds data a later step reads back).
    public static func lowerHex(_ b: [UInt8]) -> JSONValue { .string(Hex.encode(b)) }
}

/// Short constructors for building inputs.
extension JSONValue {
    static func obj(_ members: [(String, JSONValue)]) -> JSONValue { .object(members) }
    static func str(_ s: String) -> JSONValue { .string(s) }
    static func u(_ v: UInt64) -> JSONValue { v > 1 << 53 ? .string(String(v)) : .number(String(v)) }
    static func i(_ v: Int64) -> JSONValue { v.magnitude > 1 << 53 ? .string(String(v)) : .number(String(v)) }
    static func hex(_ b: [UInt8]) -> JSONValue { .string(Hex.encode(b)) }

    /// The object with member `name` set (replaced in place, or appended).
    func setting(_ name: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var m) = self else { return self }
        if let i = m.firstIndex(where: { $0.0 == name }) { m[i].1 = value } else { m.append((name, value)) }
        return .object(m)
    }

    /// The bytes of a hex string member, or nil.
    func hexBytes(_ name: String) -> [UInt8]? { self[name]?.stringValue.flatMap(Hex.decode) }
}

/// Unicode normalisation (Foundation's canonical mappings), for texts that must arrive as the
/// other form of what a generator built.
enum FuzzUnicode {
    static func nfc(_ s: String) -> String { s.precomposedStringWithCanonicalMapping }
    static func nfd(_ s: String) -> String { s.decomposedStringWithCanonicalMapping }
}

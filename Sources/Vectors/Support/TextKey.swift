/// Text used as a dictionary key, a set element or a sort key, compared, hashed and ordered by
/// its UTF-8 bytes (SPEC.md §2.2 rule 5).
///
/// Swift's `String` compares by canonical equivalence, so `"é"` (U+00E9) and `"e\u{301}"` are
/// `==`, hash alike and collapse in a `Set` or as `Dictionary` keys. On the wire they are two
/// different byte strings (two settings keys, two tags, two device names), so every place the
/// reference keys or sorts by text goes through this type instead.
public struct TextKey: Hashable, Comparable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let text: String

    public init(_ text: String) { self.text = text }
    public init(stringLiteral value: String) { self.text = value }

    public static func == (a: TextKey, b: TextKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(text.utf8.count)
        for b in text.utf8 { hasher.combine(b) }
    }

    /// Bytewise order of the UTF-8 encodings, a proper prefix first.
    public static func < (a: TextKey, b: TextKey) -> Bool { a.text.utf8.lexicographicallyPrecedes(b.text.utf8) }

    public var description: String { text }
}

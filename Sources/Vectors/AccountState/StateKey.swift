/// A register key or a cursor name of an AccountState (SPEC.md §11.2): text, held as its UTF-8
/// bytes. Two keys are the same key only when their bytes are equal (NFC and NFD spellings are two
/// keys), and keys sort by their bytes, never by UTF-16 code units or a normalised form. Swift's
/// `String` equality and ordering use canonical equivalence, so the bytes are the identity here.
public struct StateKey: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    public init(_ text: String) { bytes = Array(text.utf8) }

    /// Bytes already known to be valid UTF-8 (the decoder validates before building one).
    init(validatedUTF8 bytes: [UInt8]) { self.bytes = bytes }

    public var text: String { String(decoding: bytes, as: UTF8.self) }
    public var description: String { text }

    /// The order of keys on the wire and in every output list ([R11.2-3]): lexicographic by UTF-8
    /// bytes, a proper prefix first. This is the seam the text-order mutants replace.
    public static func precedes(_ a: StateKey, _ b: StateKey) -> Bool {
        if Mutant.on(.accountKeysUTF16Order) {
            return a.text.utf16.lexicographicallyPrecedes(b.text.utf16)
        }
        return a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    /// Whether two keys name the same register. Bytes, always; the mutant is Swift `String` `==`
    /// (canonical equivalence), what a `Dictionary<String, _>` keyed implementation does.
    static func same(_ a: StateKey, _ b: StateKey) -> Bool {
        if Mutant.on(.accountKeysCanonicallyEquivalent) { return a.text == b.text }
        return a.bytes == b.bytes
    }
}

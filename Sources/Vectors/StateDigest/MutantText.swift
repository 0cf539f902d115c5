import Foundation

/// What a stock string library does to text before it is hashed, for the mutants only: NFC
/// normalisation (Foundation, ICU, `unicodedata.normalize`) and UTF-16 code-unit order (the
/// default string comparison of Java, JavaScript and C#). The reference never calls these
/// unless a mutant is switched on.
enum MutantText {
    static func nfc(_ s: String) -> String { s.precomposedStringWithCanonicalMapping }

    static func utf16Precedes(_ a: String, _ b: String) -> Bool { a.utf16.lexicographicallyPrecedes(b.utf16) }
}

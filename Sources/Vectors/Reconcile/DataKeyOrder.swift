/// The order of keys that are data, not member names (`vectors`, version vectors, `entries`,
/// settings tombstones): written sorted by their UTF-8 bytes and checked in that same order
/// (SPEC.md §5.3 rules R5.3-2 and R5.3-18), so neither the text a sender writes nor the first
/// error a receiver reports depends on a JSON library's member order. The mutants swap in the
/// orders stock libraries default to.
enum DataKeyOrder {
    /// Keys in writing order: UTF-8 bytes (or UTF-16 code units under the mutant).
    static func sorted(_ keys: [TextKey]) -> [TextKey] {
        if Mutant.on(.dataKeysUTF16Order) { return keys.sorted { $0.text.utf16.lexicographicallyPrecedes($1.text.utf16) } }
        return keys.sorted()
    }

    static func sorted(_ keys: [String]) -> [String] { sorted(keys.map { TextKey($0) }).map(\.text) }

    /// Members in checking order: by key bytes (or as the text lists them, under the mutant).
    static func checkingOrder(_ members: [(String, JSONValue)]) -> [(String, JSONValue)] {
        if Mutant.on(.dataKeysCheckedInTextOrder) { return members }
        return members.sorted { TextKey($0.0) < TextKey($1.0) }
    }
}

import Primitives

/// The `account_state` golden cases (SPEC.md §11). Placeholder while the generator is written.
enum AccountStateVectors {
    static func file() throws -> VectorFile {
        VectorFile(format: "account_state", description: "Haven self-sync AccountState", cases: [])
    }
}

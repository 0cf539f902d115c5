enum SettleVectors {
    static func file() throws -> VectorFile {
        VectorFile(format: "settle", description: "placeholder", cases: [])
    }
}

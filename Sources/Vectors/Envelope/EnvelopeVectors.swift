import Primitives

enum EnvelopeVectors {
    static func file() throws -> VectorFile {
        VectorFile(format: "envelope", description: "", cases: [])
    }
}

import Vectors

struct SignInFuzzGenerator: FuzzGenerator {
    var format: String { "signin" }
    var ops: [String] { [] }
    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue { .obj([]) }
}

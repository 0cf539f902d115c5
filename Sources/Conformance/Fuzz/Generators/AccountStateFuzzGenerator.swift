import Vectors

struct AccountStateFuzzGenerator: FuzzGenerator {
    var format: String { "account_state" }
    var ops: [String] { [] }
    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue { .obj([]) }
}

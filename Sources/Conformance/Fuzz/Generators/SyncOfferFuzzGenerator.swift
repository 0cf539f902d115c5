import Vectors

struct SyncOfferFuzzGenerator: FuzzGenerator {
    var format: String { "sync_offer" }
    var ops: [String] { [] }
    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue { .obj([]) }
}

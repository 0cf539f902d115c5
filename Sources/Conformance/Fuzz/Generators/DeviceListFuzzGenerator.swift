import Vectors

struct DeviceListFuzzGenerator: FuzzGenerator {
    var format: String { "device_list" }
    var ops: [String] { [] }
    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue { .obj([]) }
}

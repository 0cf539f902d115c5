import Vectors

/// `pairing` (SPEC §13.3): the client's `ensure_paired` decision over a `/hello` answer. The body
/// is built as JSON text member by member, so it can hold what a lenient reader misreads: member
/// names in another case or repeated, `wire` and `paired` of other JSON types, missing members,
/// and text that is not one strict JSON object. `scenario` is played over HTTP, not fuzzed here.
struct PairingFuzzGenerator: FuzzGenerator {
    var format: String { "pairing" }
    var ops: [String] { ["ensure_paired"] }

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        let status: JSONValue = rng.percent(80) ? .int(200) : rng.pick([.null, .int(404), .int(500), .int(201), .int(204), .int(401)])
        let body: JSONValue = rng.oneIn(12) ? .null : .str(Self.helloBody(&rng))
        return .obj([("hello_status", status), ("hello_body", body), ("holds_token", .bool(rng.bool()))])
    }

    /// A `/hello` body: the five members with values mostly right, sometimes of another type,
    /// renamed, repeated or missing; sometimes not one JSON object at all.
    static func helloBody(_ rng: inout FuzzRNG) -> String {
        let wires = ["1", "1", "1", "2", "0", "\"1\"", "1.0", "1e0", "true", "-0", "null", "10", "01"]
        let paireds = ["false", "true", "false", "true", "\"false\"", "\"true\"", "0", "1", "null", "[]", "{}"]
        var members: [(String, String)] = [("app", "\"cordelia\""), ("version", "\"1.4.0\""), ("build", "\"88\""),
                                           ("wire", rng.percent(60) ? "1" : rng.pick(wires)),
                                           ("paired", rng.percent(60) ? rng.pick(["false", "true"]) : rng.pick(paireds))]
        switch rng.below(8) {
        case 0:
            // A member repeated with another value (strict JSON refuses it).
            let i = rng.pick([3, 4])
            members.insert((members[i].0, i == 3 ? rng.pick(wires) : rng.pick(paireds)), at: rng.int(i...members.count))
        case 1:
            let i = rng.pick([3, 4])
            members[i].0 = rng.pick([members[i].0.capitalized, members[i].0.uppercased(), " " + members[i].0])
        case 2:
            members.remove(at: rng.pick([3, 4]))
        case 3:
            members = rng.shuffled(members)
        default:
            break
        }
        let text = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: rng.oneIn(6) ? ", " : ",") + "}"
        switch rng.below(14) {
        case 0: return text + rng.pick([" ", "\n", "x", "{}", "]"])
        case 1: return rng.pick(["", "[]", "null", "true", "\"{}\"", "{", "{\"wire\":1,}"])
        case 2: return " " + text
        default: return text
        }
    }
}

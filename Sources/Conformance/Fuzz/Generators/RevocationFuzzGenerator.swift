import Vectors

/// `revocation` (SPEC §13.5): the device's `self_status_outcome` decision. Guards in every
/// combination, status codes around 200, and bodies built as JSON text with `registered` and
/// `revoked` of every JSON type, repeated or missing. `scenario` is played over HTTP.
struct RevocationFuzzGenerator: FuzzGenerator {
    var format: String { "revocation" }
    var ops: [String] { ["self_status_outcome"] }

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        let code: JSONValue = rng.percent(75) ? .int(200) : rng.pick([.null, .int(401), .int(404), .int(500), .int(204), .int(0)])
        let body: JSONValue = rng.oneIn(10) ? .null : .str(Self.statusBody(&rng))
        return .obj([("has_session", .bool(!rng.oneIn(4))), ("is_registered", .bool(!rng.oneIn(4))), ("status_code", code), ("status_body", body)])
    }

    static func statusBody(_ rng: inout FuzzRNG) -> String {
        let values = ["true", "false", "\"true\"", "\"false\"", "0", "1", "null", "[]", "{}", "\"\""]
        var members: [(String, String)] = [("registered", rng.percent(70) ? rng.pick(["true", "false"]) : rng.pick(values)),
                                           ("revoked", rng.percent(70) ? rng.pick(["true", "false"]) : rng.pick(values))]
        switch rng.below(8) {
        case 0: members.remove(at: rng.below(2))
        case 1: members.append((members[rng.below(2)].0, rng.pick(values)))
        case 2: members.append(("device_id", "\"d1\""))
        case 3: members.reverse()
        case 4: members[rng.below(2)].0 = rng.pick(["Revoked", "REGISTERED", "revoked "])
        default: break
        }
        let text = "{" + members.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        switch rng.below(12) {
        case 0: return text + rng.pick(["x", " ", "{}"])
        case 1: return rng.pick(["", "[]", "null", "{", "\"x\""])
        default: return text
        }
    }
}

import Vectors

/// Builds HTTP scenarios for one service (SPEC §13): a random sequence of requests over a small
/// pool of tokens, keys and accounts, so states repeat and rules meet each other (pair, then pair
/// again; register, remove, register again). It also says which parts of an answer SPEC pins, so
/// the recorder turns the reference's answer into an expectation that judges what is normative
/// and nothing else (a 400's body is the service's own; `/hello`'s `paired` is not).
public protocol HTTPFuzzGenerator: Sendable {
    /// The format, as in `vectors/<format>.json` (`pairing`, `revocation`).
    var format: String { get }
    /// The reference service, fresh (its state is reset by the scenario's hook anyway).
    func makeService() -> any HTTPService
    /// The draft of scenario `n`.
    func draft(rng: inout FuzzRNG) -> HTTPFuzzDraft
    /// The `expect` object (§13.1) for `answer`, the reference's answer to `request`. `notes` is
    /// the generator's own memory over one recording (the stored token, say), seeded empty.
    func expectation(step: HTTPFuzzDraft.Step, request: HTTPRequest, answer: HTTPResponse, notes: inout [String: String]) -> JSONValue
}

public enum HTTPFuzzGenerators {
    public static var all: [any HTTPFuzzGenerator] { [PairingHTTPFuzzGenerator(), IdentityHTTPFuzzGenerator()] }

    public static func generator(for format: String) -> (any HTTPFuzzGenerator)? {
        all.first { $0.format == format }
    }
}

/// Pieces of `expect` objects (§13.1 predicates), shared by the service generators.
enum HTTPExpect {
    static func eq(_ v: JSONValue) -> JSONValue { .object([("eq", v)]) }
    static func type(_ t: String) -> JSONValue { .object([("type", .string(t))]) }
    static func contains(_ s: String) -> JSONValue { .object([("contains", .string(s))]) }
    static func object(_ m: [(String, JSONValue)]) -> JSONValue { .object([("object", .object(m))]) }

    /// `Content-Type` of a JSON answer ([R13.1-3]).
    static var jsonContentType: (String, JSONValue) { ("content-type", .object([("prefix", .string("application/json"))])) }

    static func expect(_ status: Int, headers: [(String, JSONValue)] = [], json: JSONValue? = nil, empty: Bool = false, excludes: [String] = []) -> JSONValue {
        var m: [(String, JSONValue)] = [("status", .int(status))]
        if !headers.isEmpty { m.append(("headers", .object(headers))) }
        if let json { m.append(("json", json)) }
        if empty { m.append(("empty_body", .bool(true))) }
        if !excludes.isEmpty { m.append(("excludes", .array(excludes.map { .string($0) }))) }
        return .object(m)
    }

    /// The answer's body as a strict JSON value, if it is one.
    static func body(_ r: HTTPResponse) -> JSONValue? {
        if case .success(let v) = StrictJSON.parse(r.body) { return v }
        return nil
    }
}

/// The `pairing` format (SPEC.md §13.2, §13.3): the client decision `ensure_paired` as an ordinary
/// op, and `scenario` cases that `conformance http` plays against a pairing service over HTTP
/// (in-process here, against a fresh reference service, for generation and the mutant matrix).
public struct PairingHandler: FormatHandler {
    public init() {}

    public var format: String { "pairing" }
    public var ops: [String] { ["ensure_paired", "scenario"] }

    public func generate() throws -> VectorFile { try PairingVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        switch op {
        case "ensure_paired":
            // Members in op-table order (SPEC §2.2 rule 7).
            let status = try Input.nullableMember(input, "hello_status", path: "").map { (v) throws(WireError) in try Input.uint64(v, path: "hello_status") }
            let body = try Input.nullableMember(input, "hello_body", path: "").map { (v) throws(WireError) in try Input.text(v, path: "hello_body") }
            let holds = try Input.bool(try Input.member(input, "holds_token", path: ""), path: "holds_token")
            return EnsurePaired.decide(helloStatus: status, helloBody: body, holdsToken: holds).json
        case "scenario":
            return try InProcessScenario.run(input, service: PairingService(mutant: Mutant.active))
        default:
            throw WireError(.unknownOp, "pairing has no op \(op)", field: "op")
        }
    }
}

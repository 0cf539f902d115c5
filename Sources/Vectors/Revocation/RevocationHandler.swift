/// The `revocation` format (SPEC.md §13.4, §13.5): the device decision `self_status_outcome` as an
/// ordinary op, and `scenario` cases that `conformance http` plays against an identity service
/// (in-process here, against a fresh reference service).
public struct RevocationHandler: FormatHandler {
    public init() {}

    public var format: String { "revocation" }
    public var ops: [String] { ["self_status_outcome", "scenario"] }

    public func generate() throws -> VectorFile { try RevocationVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        switch op {
        case "self_status_outcome":
            let session = try Input.bool(try Input.member(input, "has_session", path: ""), path: "has_session")
            let registered = try Input.bool(try Input.member(input, "is_registered", path: ""), path: "is_registered")
            let code = try Input.nullableMember(input, "status_code", path: "").map { (v) throws(WireError) in try Input.uint64(v, path: "status_code") }
            let body = try Input.nullableMember(input, "status_body", path: "").map { (v) throws(WireError) in try Input.text(v, path: "status_body") }
            return SelfStatusOutcome.decide(hasSession: session, isRegistered: registered, statusCode: code, statusBody: body).json
        case "scenario":
            return try InProcessScenario.run(input, service: IdentityService(mutant: Mutant.active))
        default:
            throw WireError(.unknownOp, "revocation has no op \(op)", field: "op")
        }
    }
}

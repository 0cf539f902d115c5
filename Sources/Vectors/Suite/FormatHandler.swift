/// The reference implementation of one wire format, as the runner protocol drives it: an op name
/// and a JSON input in, a JSON output or a typed rejection out. `conformance serve` and the vector
/// self-check both go through this, so the reference is tested exactly the way a testee is.
public protocol FormatHandler: Sendable {
    /// The format name, as in `vectors/<format>.json`.
    var format: String { get }
    /// The ops this format defines, in a stable order.
    var ops: [String] { get }
    /// Runs one op. Throws `WireError` with the vocabulary code for a rejected input; an unknown op
    /// throws `.unknownOp`.
    func run(op: String, input: JSONValue) throws(WireError) -> JSONValue
    /// Builds the golden cases (deterministic: fixed seeds, fixed clock).
    func generate() throws -> VectorFile
    /// The format's wire version (SPEC.md §2.1): any change to an existing case's input or
    /// expected output must come with a bump, which `conformance drift` enforces.
    var wireVersion: UInt64 { get }
}

extension FormatHandler {
    public var wireVersion: UInt64 { 1 }
}

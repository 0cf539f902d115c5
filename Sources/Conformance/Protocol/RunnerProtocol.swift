import Vectors

/// The runner protocol's constants and the lines the runner writes (SPEC.md §6).
///
/// JSON lines on the testee's stdin/stdout. The runner speaks first so it can offer versions; the
/// testee picks one. Expected answers, comments and flags are never sent, so a testee cannot echo
/// the answer.
public enum RunnerProtocol {
    /// Protocol versions this runner speaks, newest last. Additive changes (new optional fields,
    /// new formats or ops) do not bump it; they are gated by capabilities.
    public static let versions: [Int] = [1]

    /// The longest line either side may write (16 MiB); a longer one is a `protocol_error`.
    public static let maxLineBytes = 16 << 20

    /// `{"type":"hello","protocol_versions":[1],"suite_version":"0.1.0"}`
    public static func runnerHello(versions: [Int] = versions) -> JSONValue {
        .object([
            ("type", .string("hello")),
            ("protocol_versions", .array(versions.map { .int($0) })),
            ("suite_version", .string(SuiteInfo.version)),
        ])
    }

    /// One case: id, format, op and input only.
    public static func caseMessage(id: String, format: String, op: String, input: JSONValue) -> JSONValue {
        .object([
            ("type", .string("case")),
            ("id", .string(id)),
            ("format", .string(format)),
            ("op", .string(op)),
            ("input", input),
        ])
    }

    public static let shutdown: JSONValue = .object([("type", .string("shutdown"))])
}

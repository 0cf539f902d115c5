import Vectors

/// One case as the runner loads it from a `vectors/<format>.json` file: what is sent (id, format,
/// op, input) and what is kept back for judging (expected, comment, flags).
public struct SuiteCase: Sendable, Equatable {
    public enum Expected: Sendable, Equatable {
        case output(JSONValue)
        case error(String)
    }

    public var id: String
    public var format: String
    public var op: String
    public var comment: String
    public var flags: [String]
    public var input: JSONValue
    public var expected: Expected

    public init(id: String, format: String, op: String, comment: String = "", flags: [String] = [], input: JSONValue, expected: Expected) {
        self.id = id
        self.format = format
        self.op = op
        self.comment = comment
        self.flags = flags
        self.input = input
        self.expected = expected
    }

    /// The rule ids the case pins: its `rule:<id>` flags (SPEC.md §2.3).
    public var rules: [String] { flags.compactMap { $0.hasPrefix("rule:") ? String($0.dropFirst(5)) : nil } }

    /// The line sent to the testee: never the expectation.
    public var message: JSONValue {
        RunnerProtocol.caseMessage(id: id, format: format, op: op, input: input)
    }
}

/// How a case failed. The raw values are stable: reports and expected-failure files use them.
public enum FailureKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// `ok` with an output that differs from the expected one.
    case wrongOutput = "wrong_output"
    /// `rejected` with another code than the expected one.
    case wrongError = "wrong_error"
    /// `ok` where a rejection was expected.
    case unexpectedAcceptance = "unexpected_acceptance"
    /// `rejected` where an output was expected.
    case unexpectedRejection = "unexpected_rejection"
    /// The testee answered `status: error` (an internal failure, not an answer).
    case error
    /// The testee exited or closed stdout with the case in flight.
    case crash
    /// No answer before the case deadline.
    case timeout
    /// An answer that is not a valid `result` for the case in flight.
    case protocolError = "protocol_error"

    public static func < (a: FailureKind, b: FailureKind) -> Bool { a.rawValue < b.rawValue }
}

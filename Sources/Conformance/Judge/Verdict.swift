/// The judgement of one case, before expected failures are applied.
public enum Verdict: Sendable, Equatable {
    case pass
    case fail(Failure)
    /// Not judged: the testee does not advertise the op, or answered `unsupported`.
    case skipped(reason: String)

    public var failure: Failure? { if case .fail(let f) = self { return f } else { return nil } }
}

/// A failed case: its kind, a one-line summary, and the lines that name the drift.
public struct Failure: Sendable, Equatable {
    public var kind: FailureKind
    public var summary: String
    public var details: [String]

    public init(_ kind: FailureKind, _ summary: String, details: [String] = []) {
        self.kind = kind
        self.summary = summary
        self.details = details
    }
}

/// One selected case after the run: its judgement, then its standing against the expected
/// failures, with the testee's stderr written while it was in flight.
public struct CaseRecord: Sendable, Equatable {
    public enum Outcome: Sendable, Equatable {
        case passed
        /// A failure not listed in the expected failures.
        case failed(Failure)
        case expectedFailure(Failure, ExpectedFailures.Entry)
        /// Listed as failing, but it passed: the run fails until the entry is removed.
        case unexpectedPass(ExpectedFailures.Entry)
        /// Listed with another kind than the one it now fails with.
        case changedFailure(Failure, ExpectedFailures.Entry)
        case skipped(reason: String)
        /// Never sent (restart budget exhausted, --fail-fast).
        case notRun(reason: String)
        /// Skipped, but `--require-all` or `--require` covers it: a failure.
        case requiredSkipped(reason: String)

        /// Whether this case makes the run fail (exit 1).
        public var failsRun: Bool {
            switch self {
            case .failed, .unexpectedPass, .changedFailure, .notRun, .requiredSkipped: return true
            case .passed, .expectedFailure, .skipped: return false
            }
        }

        /// The failure the testee showed, expected or not.
        public var failure: Failure? {
            switch self {
            case .failed(let f), .expectedFailure(let f, _), .changedFailure(let f, _): return f
            default: return nil
            }
        }
    }

    public var suiteCase: SuiteCase
    public var verdict: Verdict?
    public var outcome: Outcome
    public var stderrTail: String
    /// Round-trip time of the case itself (diagnostic probes excluded).
    public var nanos: UInt64

    public var id: String { suiteCase.id }

    /// Whether the testee was sent the case and gave a judged answer (pass or fail; a skip,
    /// `unsupported` included, is not execution).
    public var executed: Bool {
        switch verdict {
        case .pass?, .fail?: return true
        case .skipped?, nil: return false
        }
    }

    /// The rule ids the case pins (its `rule:` flags, SPEC.md §2.3).
    public var rules: [String] { suiteCase.rules }
}

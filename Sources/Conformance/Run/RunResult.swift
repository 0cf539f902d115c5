/// A finished run: every selected case in suite order, stale expected-failure entries, counts and
/// the exit code.
public struct RunResult: Sendable {
    public var hello: TesteeHello
    public var records: [CaseRecord]
    public var staleEntries: [ExpectedFailures.Entry]
    public var restarts: Int
    /// Why some cases were not run, if any were not.
    public var incompleteReason: String?
    public var wallNanos: UInt64
    /// Time spent waiting for the testee's answers (sum over workers).
    public var roundTripNanos: UInt64
    /// Time spent spawning and handshaking (sum over workers).
    public var spawnNanos: UInt64

    public struct Counts: Sendable, Equatable {
        public var passed = 0
        /// Unexpected failures, unexpected passes, changed failures, cases not run.
        public var failed = 0
        public var skipped = 0
        public var expectedFailures = 0
        public var notRun = 0

        public init(passed: Int = 0, failed: Int = 0, skipped: Int = 0, expectedFailures: Int = 0, notRun: Int = 0) {
            self.passed = passed
            self.failed = failed
            self.skipped = skipped
            self.expectedFailures = expectedFailures
            self.notRun = notRun
        }
    }

    public var counts: Counts {
        var c = Counts()
        for r in records {
            switch r.outcome {
            case .passed: c.passed += 1
            case .failed, .unexpectedPass, .changedFailure: c.failed += 1
            case .notRun: c.failed += 1; c.notRun += 1
            case .skipped: c.skipped += 1
            case .expectedFailure: c.expectedFailures += 1
            }
        }
        return c
    }

    /// 0 when everything selected passed or failed as expected, else 1.
    public var exitCode: Int32 {
        records.contains { $0.outcome.failsRun } || !staleEntries.isEmpty ? 1 : 0
    }

    /// The plain last line of every report: `N passed, N failed, N skipped`.
    public var summaryLine: String {
        let c = counts
        return "\(c.passed) passed, \(c.failed) failed, \(c.skipped) skipped"
    }

    /// The current failures (id → kind) of judged cases, for `--update-expected-failures`.
    public var currentFailures: [String: FailureKind] {
        var out: [String: FailureKind] = [:]
        for r in records { if let f = r.outcome.failure { out[r.id] = f.kind } }
        return out
    }
}

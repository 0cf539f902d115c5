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
    /// Formats (`name`) and ops (`format/op`) the hello advertises that the suite does not know.
    public var unknownCapabilities: [String] = []
    /// Sentences for scope that was not tested: nothing executed, a `--require` scope with no
    /// selected case. Each fails the run.
    public var scopeProblems: [String] = []

    public init(hello: TesteeHello, records: [CaseRecord], staleEntries: [ExpectedFailures.Entry], restarts: Int,
                incompleteReason: String?, wallNanos: UInt64, roundTripNanos: UInt64, spawnNanos: UInt64,
                unknownCapabilities: [String] = [], scopeProblems: [String] = []) {
        self.hello = hello
        self.records = records
        self.staleEntries = staleEntries
        self.restarts = restarts
        self.incompleteReason = incompleteReason
        self.wallNanos = wallNanos
        self.roundTripNanos = roundTripNanos
        self.spawnNanos = spawnNanos
        self.unknownCapabilities = unknownCapabilities
        self.scopeProblems = scopeProblems
    }

    public struct Counts: Sendable, Equatable {
        public var passed = 0
        /// Unexpected failures, unexpected passes, changed failures, cases not run.
        public var failed = 0
        public var skipped = 0
        public var expectedFailures = 0
        public var notRun = 0
        /// Skipped cases that `--require-all` / `--require` covers (counted in `failed` too).
        public var requiredSkipped = 0

        public init(passed: Int = 0, failed: Int = 0, skipped: Int = 0, expectedFailures: Int = 0, notRun: Int = 0, requiredSkipped: Int = 0) {
            self.passed = passed
            self.failed = failed
            self.skipped = skipped
            self.expectedFailures = expectedFailures
            self.notRun = notRun
            self.requiredSkipped = requiredSkipped
        }

        mutating func add(_ o: CaseRecord.Outcome) {
            switch o {
            case .passed: passed += 1
            case .failed, .unexpectedPass, .changedFailure: failed += 1
            case .notRun: failed += 1; notRun += 1
            case .requiredSkipped: failed += 1; requiredSkipped += 1
            case .skipped: skipped += 1
            case .expectedFailure: expectedFailures += 1
            }
        }
    }

    public var counts: Counts {
        var c = Counts()
        for r in records { c.add(r.outcome) }
        return c
    }

    /// One row of the per-format/op table.
    public struct OpRow: Sendable, Equatable {
        public var format: String
        public var op: String
        public var counts: Counts
        public var name: String { "\(format)/\(op)" }
    }

    /// Counts per format and op, in suite order (SPEC.md §6.9).
    public var opTable: [OpRow] {
        var rows: [OpRow] = []
        var index: [String: Int] = [:]
        for r in records {
            let key = "\(r.suiteCase.format)/\(r.suiteCase.op)"
            let i = index[key] ?? {
                rows.append(OpRow(format: r.suiteCase.format, op: r.suiteCase.op, counts: Counts()))
                index[key] = rows.count - 1
                return rows.count - 1
            }()
            rows[i].counts.add(r.outcome)
        }
        return rows
    }

    /// 0 when everything selected passed, failed as expected or was skipped (not required), and
    /// some case was executed; else 1.
    public var exitCode: Int32 {
        records.contains { $0.outcome.failsRun } || !staleEntries.isEmpty || !scopeProblems.isEmpty ? 1 : 0
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

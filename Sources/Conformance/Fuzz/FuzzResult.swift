import Vectors

/// A difference between the testee and the reference, shrunk.
public struct FuzzDifference: Sendable {
    /// Index of its pair in the plan's targets.
    public var target: Int
    public var format: String
    public var op: String
    /// The case as first sent, with the reference's answer and the testee's failure.
    public var original: SuiteCase
    public var originalFailure: Failure
    /// The smallest input found that still fails the same way (id: the original's), and its
    /// judgement (with the leaf diagnosis, as `run` gives it).
    public var minimal: SuiteCase
    public var failure: Failure
    public var stderrTail: String
    /// Shrink steps taken (each a smaller input that still failed) and candidates tried.
    public var shrinkSteps: Int
    public var shrinkAttempts: Int
    /// Nanoseconds from the start of the run to the first failing answer of this difference.
    public var foundAfterNanos: UInt64
    /// The id under which it was written to `<out>/<format>.json`, if it was.
    public var writtenID: String?
}

/// A finished fuzz run.
public struct FuzzResult: Sendable {
    public struct Counts: Sendable, Equatable {
        public var passed = 0
        public var failed = 0
        /// Answered `unsupported`: never passed.
        public var skipped = 0
        /// Of all the cases, how many were made invalid by a mutator.
        public var mutated = 0
        public var cases: Int { passed + failed + skipped }
        public init() {}
    }

    public var hello: TesteeHello
    public var seed: UInt64
    public var plan: FuzzPlan
    /// Per target of the plan, in its order.
    public var counts: [Counts]
    public var differences: [FuzzDifference]
    public var restarts: Int
    /// Why the run ended before its budget, if it did.
    public var stopReason: String?
    public var wallNanos: UInt64
    public var firstDifferenceNanos: UInt64?
    /// Formats and ops the hello advertises that the suite does not know.
    public var unknownCapabilities: [String]
    /// Where the minimal cases were written, per format.
    public var written: [String: String] = [:]

    public var totals: Counts {
        var t = Counts()
        for c in counts {
            t.passed += c.passed
            t.failed += c.failed
            t.skipped += c.skipped
            t.mutated += c.mutated
        }
        return t
    }

    /// A sentence when the run tested nothing (exit 1, as in `run`), else nil.
    public var nothingTested: String? {
        let t = totals
        guard t.passed + t.failed == 0 else { return nil }
        if plan.targets.isEmpty {
            if !plan.notAdvertised.isEmpty && plan.notFuzzed.isEmpty {
                return "no case was executed: the testee advertises none of the selected formats and ops (it advertises \(hello.capabilities.keys.sorted().joined(separator: ", ")))"
            }
            return "no case was executed: the selection holds no format/op the fuzzer can build inputs for"
        }
        if t.skipped > 0 { return "no case was executed: the testee answered unsupported to all \(t.skipped) case(s)" }
        return "no case was executed" + (stopReason.map { ": \($0)" } ?? "")
    }

    /// 0 no difference and something was tested; 1 a difference (or nothing tested). Exit 2 and 3
    /// are decided before a result exists.
    public var exitCode: Int32 { totals.failed > 0 || !differences.isEmpty || nothingTested != nil ? 1 : 0 }

    /// `N passed, N failed`: the last line of the console report.
    public var summaryLine: String {
        let t = totals
        return "\(t.passed) passed, \(t.failed) failed"
    }
}

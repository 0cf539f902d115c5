/// Everything `conformance run` can be told, as a value the library API takes directly.
public struct RunOptions: Sendable {
    /// The testee command and its arguments.
    public var command: [String]
    public var selection = CaseSelection()
    /// Testee processes run in parallel (each lock-step); results are reported in case order.
    public var jobs = 1
    /// Seconds per case before `timeout`, before the multiplier.
    public var caseTimeout = 10.0
    /// Seconds for spawn + hello, before the multiplier (slow runtimes start slowly).
    public var handshakeTimeout = 30.0
    /// Scales both deadlines (sanitizers, debug builds, tests).
    public var timeoutMultiplier = 1.0
    /// Respawns allowed after crash / timeout / protocol_error, over all workers together.
    public var maxRestarts = 10
    /// Stop scheduling after the first failure that is not an expected one.
    public var failFast = false
    public var expectedFailures: ExpectedFailures?
    /// Every skipped case fails the run (a release gate claiming full conformance).
    public var requireAll = false
    /// Skipped cases in these scopes fail the run; a scope with no selected case fails it too.
    public var require: [RequiredScope] = []
    /// Ask the testee for per-row leaves to name the drift of a wrong root/digest.
    public var diagnose = true
    /// Called after each judged case (done, total, id); on the worker's thread, serialised.
    public var progress: (@Sendable (Int, Int, String) -> Void)?

    public init(command: [String]) {
        self.command = command
    }

    func isRequired(_ c: SuiteCase) -> Bool { requireAll || require.contains { $0.covers(c) } }

    var effectiveCaseTimeout: Double { caseTimeout * timeoutMultiplier }
    var effectiveHandshakeTimeout: Double { handshakeTimeout * timeoutMultiplier }
}

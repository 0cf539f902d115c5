import Foundation
import Vectors

/// Everything `conformance fuzz` can be told, as a value the library API takes directly.
public struct FuzzOptions: Sendable {
    /// How long a run lasts: a number of cases (reproducible to the case) or of seconds.
    public enum Budget: Sendable, Equatable {
        case cases(Int)
        case seconds(Double)
    }

    /// The testee command and its arguments.
    public var command: [String]
    /// `--format`, `--run`, `--skip`: which format/op pairs are fuzzed (`--shard` is not used).
    public var selection = CaseSelection()
    public var seed: UInt64
    public var budget: Budget = .seconds(60)
    /// Testee processes in parallel, each lock-step.
    public var jobs = 1
    /// Where minimal cases are written (`<dir>/<format>.json`); nil writes nothing.
    public var outDirectory: URL?
    /// Distinct differences kept per format/op; past it the pair is no longer fuzzed.
    public var maxDifferencesPerTarget = 3
    /// Stop the run after this many distinct differences in all (nil: run the budget out).
    public var stopAfter: Int?
    /// Percent of cases made invalid by mutation (the rest are valid inputs with adversarial values).
    public var invalidPercent = 50
    /// Seconds spent shrinking one difference (its round trips), before the multiplier.
    public var shrinkSeconds = 20.0
    /// Shrink attempts per difference.
    public var shrinkAttempts = 2_000
    /// Seconds per case (in HTTP mode, per request), before the multiplier.
    public var caseTimeout = 10.0
    public var handshakeTimeout = 30.0
    /// HTTP mode: seconds for a started service to accept connections, before the multiplier.
    public var startTimeout = 30.0
    public var timeoutMultiplier = 1.0
    /// Respawns allowed after crash / timeout / protocol_error, over all workers together.
    public var maxRestarts = 10
    /// Ask the testee for per-row leaves to name the drift of a wrong root (as `run` does).
    public var diagnose = true
    /// Called about ten times a second from a worker thread (never concurrently).
    public var progress: (@Sendable (FuzzProgress) -> Void)?
    /// The generators and reference handlers (tests substitute them).
    public var generators: [any FuzzGenerator] = FuzzGenerators.all
    public var handlers: [any FormatHandler] = Reference.handlers
    /// HTTP mode's scenario generators (`conformance fuzz --http`).
    public var httpGenerators: [any HTTPFuzzGenerator] = HTTPFuzzGenerators.all

    public init(command: [String], seed: UInt64) {
        self.command = command
        self.seed = seed
    }

    var effectiveCaseTimeout: Double { caseTimeout * timeoutMultiplier }
    var effectiveHandshakeTimeout: Double { handshakeTimeout * timeoutMultiplier }
}

/// A snapshot for the progress line.
public struct FuzzProgress: Sendable {
    public var cases: Int
    public var differences: Int
    public var seconds: Double
    public var lastID: String
}

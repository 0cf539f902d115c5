/// Everything a simulation run depends on. Same parameters, same numbers: the only randomness is
/// a `SeededGenerator` seeded from `seed`.
public struct SimParameters: Sendable {
    public enum Scenario: String, Sendable, CaseIterable {
        /// A sibling comes back after writes on both sides while it was offline.
        case reconnect
        /// One device holds a reaction the other lacks; its own advertisement was lost.
        case reaction
        /// A committed field the merge never converges: the storm guard must trip.
        case storm
        /// One row differs among `rows`: the bytes one edit costs.
        case oneRow = "one-row"
    }

    public var scenario: Scenario = .reconnect
    public var devices = 2
    /// Message rows every device holds at the start.
    public var rows = 10_000
    /// Writes each side makes while apart (reconnect).
    public var writes = 20
    /// How many namespaces those writes touch (1–9, in `SimRow.namespaces` order).
    public var namespaces = 1
    public var seed: UInt64 = 1
    /// The settle loop every reference device runs (`.reference`, or `.legacy` for the loop before
    /// seed 002 §8's fix).
    public var rules = SettleRules.reference
    /// How requests cut leaves into buckets (a simulation parameter, not a wire change).
    public var bucketRule = BucketRule.v6
    /// One-way relay latency, its uniform jitter, and the link's throughput.
    public var latencyMicros: UInt64 = 30_000
    public var jitterMicros: UInt64 = 10_000
    public var bytesPerSecond: UInt64 = 2_500_000
    /// Device time per row for each full pass over a namespace (bucketize, respond, refold).
    public var cpuNanosPerRow: UInt64 = 400
    /// How long after the scenario's start the run may go on.
    public var limitMillis: UInt64 = 120_000
    /// An unrelated write on a rotating device every so many ms (0: none).
    public var backgroundEveryMillis: UInt64 = 0
    /// Keep a line per scheduler step and per frame in the report (`--trace`).
    public var trace = false

    public init() {}

    /// The bytes of one `state_digest` frame: `{"kind":"state_digest","digest":"<834 hex>"}`.
    /// **Provisional** until SPEC §5.7 (the `state_digest` frame, on the `digest` branch) is
    /// on main: the simulator then encodes the real frame. 417 bytes as 834 hex digits plus 35
    /// bytes of JSON framing.
    public static let provisionalDigestFrameBytes = 2 * StateDigest.encodedByteCount + 35

    public var summary: String {
        let rulesText = rules == .reference ? "reference" : rules == .legacy ? "legacy" : "custom"
        return "scenario \(scenario.rawValue) · \(devices) devices · \(rows) rows · seed \(seed) · rules \(rulesText) (debounce \(rules.debounceMs) ms"
            + (rules.immediateAfterApply ? ", immediate re-advertisement" : ", no immediate re-advertisement") + ") · buckets \(bucketRule)"
            + " · latency \(latencyMicros / 1000)+\(jitterMicros / 1000) ms · \(bytesPerSecond / 1000) kB/s · cpu \(cpuNanosPerRow) ns/row"
    }
}

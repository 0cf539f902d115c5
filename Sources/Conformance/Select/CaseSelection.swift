/// Which loaded cases a run sends: `--run`/`--skip` globs, `--format`, `--shard`. Capability
/// filtering happens later, once the testee has said what it supports.
public struct CaseSelection: Sendable, Equatable {
    public var run: [IDPattern] = []
    public var skip: [IDPattern] = []
    public var formats: [String] = []
    public var shard: Shard?

    public init(run: [IDPattern] = [], skip: [IDPattern] = [], formats: [String] = [], shard: Shard? = nil) {
        self.run = run
        self.skip = skip
        self.formats = formats
        self.shard = shard
    }

    /// True when nothing narrows the suite, so an expected-failure entry matching no selected
    /// case is certainly stale.
    public var isComplete: Bool { run.isEmpty && skip.isEmpty && formats.isEmpty && shard == nil }

    public func includes(_ c: SuiteCase) -> Bool {
        if !formats.isEmpty && !formats.contains(c.format) { return false }
        if !run.isEmpty && !run.contains(where: { $0.matches(c.id) }) { return false }
        if skip.contains(where: { $0.matches(c.id) }) { return false }
        if let shard, !shard.contains(c.id) { return false }
        return true
    }

    public func apply(_ cases: [SuiteCase]) -> [SuiteCase] { cases.filter(includes) }

    /// `--run` patterns that select no loaded case (a usage error: a typo must not pass silently).
    public func unmatchedRunPatterns(in cases: [SuiteCase]) -> [IDPattern] {
        run.filter { p in !cases.contains { p.matches($0.id) } }
    }
}

/// Which loaded cases a run sends: `--run`/`--skip` globs, `--format`, `--shard`. Capability
/// filtering happens later, once the testee has said what it supports.
public struct CaseSelection: Sendable, Equatable {
    /// `--run` patterns. A literal id (no `*`) is looked up in a set, so a list of thousands of
    /// ids (`--run-file`, a mutation judge's selection) costs one lookup per case.
    public var run: [IDPattern] = [] {
        didSet { (runIDs, runGlobs) = Self.split(run) }
    }
    private var runIDs: Set<String> = []
    private var runGlobs: [IDPattern] = []
    public var skip: [IDPattern] = []
    public var formats: [String] = []
    public var shard: Shard?

    public init(run: [IDPattern] = [], skip: [IDPattern] = [], formats: [String] = [], shard: Shard? = nil) {
        self.run = run
        (runIDs, runGlobs) = Self.split(run)
        self.skip = skip
        self.formats = formats
        self.shard = shard
    }

    /// True when nothing narrows the suite, so an expected-failure entry matching no selected
    /// case is certainly stale.
    public var isComplete: Bool { run.isEmpty && skip.isEmpty && formats.isEmpty && shard == nil }

    public func includes(_ c: SuiteCase) -> Bool {
        if !formats.isEmpty && !formats.contains(c.format) { return false }
        if !run.isEmpty && !runIDs.contains(c.id) && !runGlobs.contains(where: { $0.matches(c.id) }) { return false }
        if skip.contains(where: { $0.matches(c.id) }) { return false }
        if let shard, !shard.contains(c.id) { return false }
        return true
    }

    public func apply(_ cases: [SuiteCase]) -> [SuiteCase] { cases.filter(includes) }

    /// `--run` patterns that select no loaded case (a usage error: a typo must not pass silently).
    public func unmatchedRunPatterns(in cases: [SuiteCase]) -> [IDPattern] {
        let ids = Set(cases.map(\.id))
        return run.filter { p in p.isLiteral ? !ids.contains(p.text) : !cases.contains { p.matches($0.id) } }
    }

    private static func split(_ patterns: [IDPattern]) -> (Set<String>, [IDPattern]) {
        (Set(patterns.filter(\.isLiteral).map(\.text)), patterns.filter { !$0.isLiteral })
    }
}

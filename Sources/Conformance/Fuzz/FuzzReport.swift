import Vectors

/// The console report of a fuzz run: one block per difference (as `run` prints a failure, with the
/// minimal input), what was not fuzzed and why, a table per format/op, the testee, the seed, and
/// as its last line exactly `N passed, N failed`.
public enum FuzzReport {
    public static func render(_ r: FuzzResult, outDirectory: String?) -> String {
        var out: [String] = []
        for d in r.differences { out.append(block(d, result: r, outDirectory: outDirectory)) }
        let undetailed = r.totals.failed - r.differences.count
        if undetailed > 0 {
            out.append("(\(undetailed) more failing case(s) repeat a difference above, or came after a pair's limit of differences)")
        }
        if !r.plan.notFuzzed.isEmpty {
            out.append("NOT FUZZED " + r.plan.notFuzzed.map { "\($0.name) (\($0.reason))" }.joined(separator: "; "))
        }
        if !r.plan.notAdvertised.isEmpty {
            out.append("not advertised by the testee (skipped): " + r.plan.notAdvertised.joined(separator: ", "))
        }
        if let w = SuiteScope.warning(r.unknownCapabilities) { out.append(w) }
        if let n = r.nothingTested { out.append("NOT TESTED: \(n)") }
        out.append(table(r))
        out.append("testee: \(r.hello.name) \(r.hello.version) (\(r.hello.language)), protocol \(r.hello.protocolVersion); \(r.restarts) restart(s)")
        let secs = Double(r.wallNanos) / 1e9
        let t = r.totals
        var timing = "\(t.cases) case(s) in \(Report.seconds(secs)) (\(Int((Double(t.cases) / max(secs, 1e-9)).rounded())) cases/s), \(t.mutated) mutated"
        if let f = r.firstDifferenceNanos { timing += "; first difference after \(Report.seconds(Double(f) / 1e9))" }
        out.append(timing)
        if let s = r.stopReason { out.append("stopped: \(s)") }
        if !r.written.isEmpty, let dir = outDirectory {
            out.append("minimal cases written to \(r.written.keys.sorted().map { r.written[$0]! }.joined(separator: ", ")); replay: conformance run --vectors \(dir) -- CMD")
        }
        out.append("seed: \(FuzzSeed.text(r.seed)) (the same seed, suite version \(SuiteInfo.version) and selection give the same inputs)")
        out.append(r.summaryLine)
        return out.joined(separator: "\n") + "\n"
    }

    static func block(_ d: FuzzDifference, result r: FuzzResult, outDirectory: String?) -> String {
        let f = d.failure
        var lines = ["FAIL \(d.minimal.id) [\(f.kind.rawValue)]"]
        let before = d.original.input.compact.utf8.count
        let after = d.minimal.input.compact.utf8.count
        lines.append("    found after \(Report.seconds(Double(d.foundAfterNanos) / 1e9)); shrunk from \(before) to \(after) bytes of input in \(d.shrinkSteps) step(s) (\(d.shrinkAttempts) tried)")
        if let id = d.writtenID, let dir = outDirectory { lines.append("    written as \(id) to \(dir)/\(d.format).json") }
        lines.append("    input: \(JSONComparison.render(d.minimal.input, max: 600))")
        switch d.minimal.expected {
        case .output(let o): lines.append("    reference: ok \(JSONComparison.render(o, max: 300))")
        case .error(let e): lines.append("    reference: rejected \(e)")
        }
        lines.append("    \(f.summary)")
        for x in f.details { lines.append(Report.indent(x)) }
        if !d.stderrTail.isEmpty {
            lines.append("    --- testee stderr (tail) ---")
            lines.append(Report.indent(d.stderrTail.hasSuffix("\n") ? String(d.stderrTail.dropLast()) : d.stderrTail))
        }
        return lines.joined(separator: "\n")
    }

    /// format/op, cases, passed, failed, skipped (unsupported), differences kept.
    public static func table(_ r: FuzzResult) -> String {
        let names = r.plan.targets.map(\.name) + ["total"]
        let w = max(12, names.map(\.count).max() ?? 0)
        func pad(_ s: String, _ n: Int, right: Bool) -> String {
            let p = String(repeating: " ", count: max(0, n - s.count))
            return right ? p + s : s + p
        }
        func line(_ name: String, _ c: FuzzResult.Counts, _ diffs: Int) -> String {
            pad(name, w, right: false) + pad(String(c.cases), 9, right: true) + pad(String(c.passed), 9, right: true)
                + pad(String(c.failed), 8, right: true) + pad(String(c.skipped), 9, right: true) + pad(String(diffs), 13, right: true)
        }
        var out = [pad("format/op", w, right: false) + pad("cases", 9, right: true) + pad("passed", 9, right: true) + pad("failed", 8, right: true)
                   + pad("skipped", 9, right: true) + pad("differences", 13, right: true)]
        for (i, t) in r.plan.targets.enumerated() { out.append(line(t.name, r.counts[i], r.differences.filter { $0.target == i }.count)) }
        out.append(line("total", r.totals, r.differences.count))
        return out.joined(separator: "\n")
    }
}

/// `--report json=PATH` for a fuzz run.
public enum FuzzJSONReport {
    public static func render(_ r: FuzzResult) -> String {
        func counts(_ c: FuzzResult.Counts) -> [(String, JSONValue)] {
            [("cases", .int(c.cases)), ("passed", .int(c.passed)), ("failed", .int(c.failed)), ("skipped", .int(c.skipped)), ("mutated", .int(c.mutated))]
        }
        func expected(_ e: SuiteCase.Expected) -> JSONValue {
            switch e {
            case .output(let o): return .object([("output", o)])
            case .error(let c): return .object([("error", .string(c))])
            }
        }
        let diffs: [JSONValue] = r.differences.map { difference($0, expected: expected) }
        var ops: [JSONValue] = []
        for (i, t) in r.plan.targets.enumerated() {
            let members: [(String, JSONValue)] = [("format", .string(t.format)), ("op", .string(t.op))] + counts(r.counts[i])
            ops.append(.object(members))
        }
        let doc: JSONValue = .object([
            ("tool", .string("conformance fuzz")),
            ("suite_version", .string(SuiteInfo.version)),
            ("seed", .string(FuzzSeed.text(r.seed))),
            ("testee", r.hello.raw),
            ("wall_ms", .int(Int(r.wallNanos / 1_000_000))),
            ("first_difference_ms", r.firstDifferenceNanos.map { .int(Int($0 / 1_000_000)) } ?? .null),
            ("restarts", .int(r.restarts)),
            ("stop_reason", r.stopReason.map { .string($0) } ?? .null),
            ("totals", .object(counts(r.totals))),
            ("ops", .array(ops)),
            ("not_fuzzed", .array(r.plan.notFuzzed.map { .object([("name", .string($0.name)), ("reason", .string($0.reason))]) })),
            ("not_advertised", .array(r.plan.notAdvertised.map { .string($0) })),
            ("unknown_capabilities", .array(r.unknownCapabilities.map { .string($0) })),
            ("nothing_tested", r.nothingTested.map { .string($0) } ?? .null),
            ("differences", .array(diffs)),
            ("written", .object(r.written.keys.sorted().map { ($0, .string(r.written[$0]!)) })),
            ("summary", .string(r.summaryLine)),
        ])
        return doc.pretty
    }

    static func difference(_ d: FuzzDifference, expected: (SuiteCase.Expected) -> JSONValue) -> JSONValue {
        var m: [(String, JSONValue)] = [("id", .string(d.minimal.id)), ("format", .string(d.format)), ("op", .string(d.op))]
        m.append(("kind", .string(d.failure.kind.rawValue)))
        m.append(("summary", .string(d.failure.summary)))
        m.append(("details", .array(d.failure.details.map { .string($0) })))
        m.append(("input", d.minimal.input))
        m.append(("expected", expected(d.minimal.expected)))
        m.append(("original_input", d.original.input))
        m.append(("original_expected", expected(d.original.expected)))
        m.append(("shrink_steps", .int(d.shrinkSteps)))
        m.append(("shrink_attempts", .int(d.shrinkAttempts)))
        m.append(("found_after_ms", .int(Int(d.foundAfterNanos / 1_000_000))))
        m.append(("written_id", d.writtenID.map { .string($0) } ?? .null))
        m.append(("stderr_tail", .string(d.stderrTail)))
        return .object(m)
    }
}

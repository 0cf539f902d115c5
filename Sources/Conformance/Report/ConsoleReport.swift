/// The human report: one block per case needing attention, the warnings, the per-format/op table,
/// then the totals; the last line is exactly `N passed, N failed, N skipped`.
public enum ConsoleReport {
    public static func render(_ r: RunResult, expectedFailuresFile: String? = nil) -> String {
        var out: [String] = []
        let file = expectedFailuresFile ?? "the expected-failures file"
        var notRun: [String] = []
        var required: [CaseRecord] = []
        for rec in r.records {
            switch rec.outcome {
            case .passed, .skipped: continue
            case .failed(let f):
                out.append(block("FAIL", rec, f, note: nil))
            case .changedFailure(let f, let e):
                out.append(block("CHANGED FAILURE", rec, f, note: "listed as \(e.kind.rawValue) on line \(e.line) of \(file); now \(f.kind.rawValue)"))
            case .unexpectedPass(let e):
                out.append("UNEXPECTED PASS \(rec.id)\n    listed as \(e.kind.rawValue) on line \(e.line) of \(file) (\(e.pattern.text)); it passes now: remove or narrow the entry")
            case .expectedFailure(let f, _):
                out.append("expected failure: \(rec.id) [\(f.kind.rawValue)]")
            case .notRun:
                notRun.append(rec.id)
            case .requiredSkipped:
                required.append(rec)
            }
        }
        if !required.isEmpty { out.append(requiredBlock(required)) }
        if !notRun.isEmpty {
            var s = "NOT RUN \(notRun.count) case(s): \(r.incompleteReason ?? "not run")"
            for id in notRun.prefix(10) { s += "\n    \(id)" }
            if notRun.count > 10 { s += "\n    … and \(notRun.count - 10) more" }
            out.append(s)
        }
        for e in r.staleEntries {
            out.append("STALE ENTRY line \(e.line) of \(file): \(e.text)\n    matches no selected case: remove it")
        }
        if let w = SuiteScope.warning(r.unknownCapabilities) { out.append(w) }
        for p in r.scopeProblems { out.append("NOT TESTED: \(p)") }
        out.append(table(r.opTable))
        let c = r.counts
        out.append("testee: \(r.hello.name) \(r.hello.version) (\(r.hello.language)), protocol \(r.hello.protocolVersion); \(r.restarts) restart(s)")
        if c.expectedFailures > 0 || !r.staleEntries.isEmpty {
            out.append("(\(c.expectedFailures) expected failure(s)\(r.staleEntries.isEmpty ? "" : ", \(r.staleEntries.count) stale entr\(r.staleEntries.count == 1 ? "y" : "ies")"))")
        }
        out.append(r.summaryLine)
        return out.joined(separator: "\n") + "\n"
    }

    static func block(_ label: String, _ rec: CaseRecord, _ f: Failure, note: String?) -> String {
        var lines = ["\(label) \(rec.id) [\(f.kind.rawValue)]"]
        if !rec.suiteCase.comment.isEmpty { lines.append("    case: \(rec.suiteCase.comment)") }
        if !rec.rules.isEmpty { lines.append("    rules: \(rec.rules.joined(separator: ", "))") }
        if let note { lines.append("    \(note)") }
        lines.append("    \(f.summary)")
        for d in f.details { lines.append(Report.indent(d)) }
        if !rec.stderrTail.isEmpty {
            lines.append("    --- testee stderr (tail) ---")
            lines.append(Report.indent(rec.stderrTail.hasSuffix("\n") ? String(rec.stderrTail.dropLast()) : rec.stderrTail))
        }
        return lines.joined(separator: "\n")
    }

    /// Required but skipped cases, grouped by format/op and reason.
    static func requiredBlock(_ recs: [CaseRecord]) -> String {
        var groups: [(key: String, reason: String, count: Int)] = []
        for rec in recs {
            guard case .requiredSkipped(let reason) = rec.outcome else { continue }
            let key = "\(rec.suiteCase.format)/\(rec.suiteCase.op)"
            if let i = groups.firstIndex(where: { $0.key == key && $0.reason == reason }) { groups[i].count += 1 } else {
                groups.append((key, reason, 1))
            }
        }
        var s = "REQUIRED BUT SKIPPED \(recs.count) case(s) (--require-all / --require):"
        for g in groups { s += "\n    \(g.key): \(g.count) case(s): \(g.reason)" }
        return s
    }

    /// The per-format/op table: passed, failed, expected failures, skipped, and a total row.
    public static func table(_ rows: [RunResult.OpRow]) -> String {
        var total = RunResult.Counts()
        for r in rows {
            total.passed += r.counts.passed
            total.failed += r.counts.failed
            total.expectedFailures += r.counts.expectedFailures
            total.skipped += r.counts.skipped
        }
        let names = rows.map(\.name) + ["total"]
        let w = max(12, names.map(\.count).max() ?? 0)
        func pad(_ s: String, _ n: Int, right: Bool) -> String {
            let p = String(repeating: " ", count: max(0, n - s.count))
            return right ? p + s : s + p
        }
        func line(_ name: String, _ c: RunResult.Counts) -> String {
            pad(name, w, right: false) + pad(String(c.passed), 8, right: true) + pad(String(c.failed), 8, right: true)
                + pad(String(c.expectedFailures), 10, right: true) + pad(String(c.skipped), 9, right: true)
        }
        var out = [pad("format/op", w, right: false) + pad("passed", 8, right: true) + pad("failed", 8, right: true) + pad("expected", 10, right: true) + pad("skipped", 9, right: true)]
        out += rows.map { line($0.name, $0.counts) }
        out.append(line("total", total))
        return out.joined(separator: "\n")
    }
}

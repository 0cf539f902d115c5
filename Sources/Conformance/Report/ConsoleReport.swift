/// The human report: one block per case needing attention, then the totals; the last line is
/// exactly `N passed, N failed, N skipped`.
public enum ConsoleReport {
    public static func render(_ r: RunResult, expectedFailuresFile: String? = nil) -> String {
        var out: [String] = []
        let file = expectedFailuresFile ?? "the expected-failures file"
        var notRun: [String] = []
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
            }
        }
        if !notRun.isEmpty {
            var s = "NOT RUN \(notRun.count) case(s): \(r.incompleteReason ?? "not run")"
            for id in notRun.prefix(10) { s += "\n    \(id)" }
            if notRun.count > 10 { s += "\n    … and \(notRun.count - 10) more" }
            out.append(s)
        }
        for e in r.staleEntries {
            out.append("STALE ENTRY line \(e.line) of \(file): \(e.text)\n    matches no selected case: remove it")
        }
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
        if let note { lines.append("    \(note)") }
        lines.append("    \(f.summary)")
        for d in f.details { lines.append(Report.indent(d)) }
        if !rec.stderrTail.isEmpty {
            lines.append("    --- testee stderr (tail) ---")
            lines.append(Report.indent(rec.stderrTail.hasSuffix("\n") ? String(rec.stderrTail.dropLast()) : rec.stderrTail))
        }
        return lines.joined(separator: "\n")
    }
}

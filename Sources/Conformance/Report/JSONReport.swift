import Vectors

/// `--report json=PATH`: the whole run as one JSON document (SPEC.md §6.9). `ReportDocument`
/// reads it back (the HTML report and the comparison page are drawn from it).
public enum JSONReport {
    public static func render(_ r: RunResult) -> String { document(r).pretty }

    /// The outcome's stable name in reports.
    public static func outcomeName(_ o: CaseRecord.Outcome) -> String {
        switch o {
        case .passed: return "pass"
        case .failed: return "fail"
        case .expectedFailure: return "expected_failure"
        case .unexpectedPass: return "unexpected_pass"
        case .changedFailure: return "changed_failure"
        case .skipped: return "skipped"
        case .notRun: return "not_run"
        case .requiredSkipped: return "required_skipped"
        }
    }

    public static func document(_ r: RunResult) -> JSONValue {
        func s(_ x: String) -> JSONValue { .string(x) }
        func counts(_ c: RunResult.Counts) -> [(String, JSONValue)] {
            [("passed", .int(c.passed)), ("failed", .int(c.failed)), ("skipped", .int(c.skipped)),
             ("expected_failures", .int(c.expectedFailures)), ("not_run", .int(c.notRun)), ("required_skipped", .int(c.requiredSkipped))]
        }
        var cases: [JSONValue] = []
        for rec in r.records {
            var m: [(String, JSONValue)] = [("id", s(rec.id)), ("format", s(rec.suiteCase.format)), ("op", s(rec.suiteCase.op)),
                                            ("outcome", s(outcomeName(rec.outcome)))]
            var entry: ExpectedFailures.Entry?
            switch rec.outcome {
            case .expectedFailure(_, let e), .unexpectedPass(let e), .changedFailure(_, let e): entry = e
            case .skipped(let reason), .notRun(let reason), .requiredSkipped(let reason): m.append(("reason", s(reason)))
            case .passed, .failed: break
            }
            if !rec.suiteCase.comment.isEmpty { m.append(("comment", s(rec.suiteCase.comment))) }
            if !rec.rules.isEmpty { m.append(("rules", .array(rec.rules.map(s)))) }
            if let f = rec.outcome.failure {
                m.append(("kind", s(f.kind.rawValue)))
                m.append(("summary", s(f.summary)))
                m.append(("details", .array(f.details.map(s))))
            }
            if let entry { m.append(("expected_failure_entry", .object([("line", .int(entry.line)), ("text", s(entry.text))]))) }
            if !rec.stderrTail.isEmpty && rec.outcome != .passed { m.append(("stderr_tail", s(rec.stderrTail))) }
            m.append(("duration_ms", .number(format2(Double(rec.nanos) / 1e6))))
            cases.append(.object(m))
        }
        let table = r.opTable.map { row in JSONValue.object([("format", s(row.format)), ("op", s(row.op))] + counts(row.counts)) }
        return .object([
            ("suite_version", s(SuiteInfo.version)),
            ("protocol_version", .int(r.hello.protocolVersion)),
            ("testee", r.hello.raw),
            ("complete", .bool(r.incompleteReason == nil)),
            ("incomplete_reason", r.incompleteReason.map(s) ?? .null),
            ("restarts", .int(r.restarts)),
            ("counts", .object(counts(r.counts) + [("stale_entries", .int(r.staleEntries.count))])),
            ("summary_line", s(r.summaryLine)),
            ("unknown_capabilities", .array(r.unknownCapabilities.map(s))),
            ("scope_problems", .array(r.scopeProblems.map(s))),
            ("per_op", .array(table)),
            ("stale_entries", .array(r.staleEntries.map { .object([("line", .int($0.line)), ("text", s($0.text))]) })),
            ("exit_code", .int(Int(r.exitCode))),
            ("cases", .array(cases)),
        ])
    }

    static func format2(_ v: Double) -> String {
        let scaled = (v * 1000).rounded() / 1000
        return String(scaled)
    }
}

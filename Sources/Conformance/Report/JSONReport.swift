import Vectors

/// `--report json=PATH`: the whole run as one JSON document (SPEC.md §6.9).
public enum JSONReport {
    public static func render(_ r: RunResult) -> String {
        func s(_ x: String) -> JSONValue { .string(x) }
        var cases: [JSONValue] = []
        for rec in r.records {
            var m: [(String, JSONValue)] = [("id", s(rec.id)), ("format", s(rec.suiteCase.format)), ("op", s(rec.suiteCase.op))]
            let outcome: String
            var entry: ExpectedFailures.Entry?
            switch rec.outcome {
            case .passed: outcome = "pass"
            case .failed: outcome = "fail"
            case .expectedFailure(_, let e): outcome = "expected_failure"; entry = e
            case .unexpectedPass(let e): outcome = "unexpected_pass"; entry = e
            case .changedFailure(_, let e): outcome = "changed_failure"; entry = e
            case .skipped(let reason): outcome = "skipped"; m.append(("reason", s(reason)))
            case .notRun(let reason): outcome = "not_run"; m.append(("reason", s(reason)))
            }
            m.insert(("outcome", s(outcome)), at: 3)
            if let f = rec.outcome.failure {
                m.append(("kind", s(f.kind.rawValue)))
                m.append(("summary", s(f.summary)))
                m.append(("details", .array(f.details.map(s))))
            }
            if let entry { m.append(("expected_failure_entry", .object([("line", .int(entry.line)), ("text", s(entry.text))]))) }
            if !rec.stderrTail.isEmpty && rec.outcome != .passed { m.append(("stderr_tail", s(rec.stderrTail))) }
            m.append(("duration_ms", .number(String(format2(Double(rec.nanos) / 1e6)))))
            cases.append(.object(m))
        }
        let c = r.counts
        let doc = JSONValue.object([
            ("suite_version", s(SuiteInfo.version)),
            ("protocol_version", .int(r.hello.protocolVersion)),
            ("testee", r.hello.raw),
            ("complete", .bool(r.incompleteReason == nil)),
            ("incomplete_reason", r.incompleteReason.map(s) ?? .null),
            ("restarts", .int(r.restarts)),
            ("counts", .object([
                ("passed", .int(c.passed)), ("failed", .int(c.failed)), ("skipped", .int(c.skipped)),
                ("expected_failures", .int(c.expectedFailures)), ("not_run", .int(c.notRun)),
                ("stale_entries", .int(r.staleEntries.count)),
            ])),
            ("stale_entries", .array(r.staleEntries.map { .object([("line", .int($0.line)), ("text", s($0.text))]) })),
            ("exit_code", .int(Int(r.exitCode))),
            ("cases", .array(cases)),
        ])
        return doc.pretty
    }

    static func format2(_ v: Double) -> String {
        let scaled = (v * 1000).rounded() / 1000
        return String(scaled)
    }
}

import Vectors

/// Judges a testee's answer against a case's expectation. The runner judges; the testee never
/// sees the expectation.
public enum Judge {
    /// Sends an extra diagnostic case (not counted) to the testee under judgement; nil when the
    /// testee cannot answer (it does not advertise the op, or the session died).
    public typealias Probe = @Sendable (_ id: String, _ op: String, _ input: JSONValue) -> Exchange?

    public static func judge(_ c: SuiteCase, _ exchange: Exchange, probe: Probe? = nil) -> Verdict {
        switch exchange {
        case .crash(let status):
            return .fail(Failure(.crash, "the testee \(status) with the case in flight"))
        case .timeout(let s):
            return .fail(Failure(.timeout, "no result within \(Report.seconds(s)) (scale with --timeout-multiplier)"))
        case .protocolError(let v):
            return .fail(Failure(.protocolError, v.reason, details: ["line: \(v.line)"]))
        case .result(let r):
            return judge(c, r.status, probe: probe)
        }
    }

    static func judge(_ c: SuiteCase, _ status: TesteeResult.Status, probe: Probe?) -> Verdict {
        switch (c.expected, status) {
        case (_, .unsupported(let reason)):
            return .skipped(reason: "testee answered unsupported" + (reason.map { ": \($0)" } ?? ""))
        case (_, .error(let message)):
            return .fail(Failure(.error, "the testee reported an internal error: \(message)"))
        case (.error(let code), .rejected(let got, let message)):
            if code == got { return .pass }
            return .fail(Failure(.wrongError, "expected error \(code), got \(got)\(vocabularyNote(got))", details: message.map { ["testee message: \($0)"] } ?? []))
        case (.error(let code), .ok(let out)):
            return .fail(Failure(.unexpectedAcceptance, "expected rejection with \(code), the testee accepted the input",
                                 details: ["got output: \(JSONComparison.render(out, max: 400))"]))
        case (.output(let exp), .rejected(let got, let message)):
            var d = ["expected output: \(JSONComparison.render(exp, max: 400))"]
            if let message { d.append("testee message: \(message)") }
            return .fail(Failure(.unexpectedRejection, "expected an output, the testee rejected the input with \(got)\(vocabularyNote(got))", details: d))
        case (.output(let exp), .ok(let out)):
            if JSONComparison.equal(exp, out) { return .pass }
            let diff = JSONComparison.diff(expected: exp, actual: out)
            let (e, a) = JSONComparison.sideBySide(exp, out)
            var details = ["expected: \(e)", "actual:   \(a)"]
            details += diff.shown.map(\.description)
            if diff.more > 0 { details.append("… and \(diff.more) more difference\(diff.more == 1 ? "" : "s")") }
            if c.format == "state_digest" {
                details += StateDigestDiagnosis.explain(c, expected: exp, actual: out, probe: probe)
            }
            return .fail(Failure(.wrongOutput, summary(diff), details: details))
        }
    }

    /// `output differs at output.a, output.b and 3 more`.
    static func summary(_ d: JSONComparison.Diff) -> String {
        var paths: [String] = []
        for x in d.shown where !paths.contains(x.path) { paths.append(x.path) }
        return "output differs at \(paths.joined(separator: ", "))" + (d.more > 0 ? " and \(d.more) more" : "")
    }

    static func vocabularyNote(_ code: String) -> String {
        ErrorCode(rawValue: code) == nil ? " (not a code of the error vocabulary, SPEC.md §3)" : ""
    }
}

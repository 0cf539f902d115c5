/// `--report junit=PATH`: JUnit XML, one `<testcase>` per selected case. Failures that fail the run
/// are `<failure>`; expected failures, skipped and unsupported cases are `<skipped>`; stale
/// expected-failure entries are a synthetic failing test case.
public enum JUnitReport {
    public static func render(_ r: RunResult) -> String {
        var body: [String] = []
        var failures = 0, skipped = 0
        for rec in r.records {
            let open = "  <testcase classname=\"\(xml("\(rec.suiteCase.format).\(rec.suiteCase.op)"))\" name=\"\(xml(rec.id))\" time=\"\(Double(rec.nanos) / 1e9)\""
            switch rec.outcome {
            case .passed:
                body.append(open + "/>")
            case .failed(let f), .changedFailure(let f, _):
                failures += 1
                let head = [f.summary] + (rec.suiteCase.comment.isEmpty ? [] : ["case: \(rec.suiteCase.comment)"]) + (rec.rules.isEmpty ? [] : ["rules: \(rec.rules.joined(separator: ", "))"])
                let text = (head + f.details + (rec.stderrTail.isEmpty ? [] : ["--- testee stderr (tail) ---", rec.stderrTail])).joined(separator: "\n")
                body.append(open + ">\n    <failure type=\"\(f.kind.rawValue)\" message=\"\(xml(f.summary))\">\(xml(text))</failure>\n  </testcase>")
            case .unexpectedPass(let e):
                failures += 1
                body.append(open + ">\n    <failure type=\"unexpected_pass\" message=\"\(xml("listed as \(e.kind.rawValue) (line \(e.line)) but passes"))\"/>\n  </testcase>")
            case .notRun(let reason):
                failures += 1
                body.append(open + ">\n    <failure type=\"not_run\" message=\"\(xml(reason))\"/>\n  </testcase>")
            case .requiredSkipped(let reason):
                failures += 1
                body.append(open + ">\n    <failure type=\"required_skipped\" message=\"\(xml("required but skipped: \(reason)"))\"/>\n  </testcase>")
            case .expectedFailure(let f, _):
                skipped += 1
                body.append(open + ">\n    <skipped message=\"\(xml("expected failure: \(f.kind.rawValue)"))\"/>\n  </testcase>")
            case .skipped(let reason):
                skipped += 1
                body.append(open + ">\n    <skipped message=\"\(xml(reason))\"/>\n  </testcase>")
            }
        }
        for e in r.staleEntries {
            failures += 1
            body.append("  <testcase classname=\"expected_failures\" name=\"\(xml("stale: \(e.pattern.text)"))\">\n    <failure type=\"stale_entry\" message=\"\(xml("line \(e.line): \(e.text) matches no selected case"))\"/>\n  </testcase>")
        }
        // Scope that was not tested fails the suite in every JUnit consumer, not only in the exit code.
        for (i, p) in r.scopeProblems.enumerated() {
            failures += 1
            body.append("  <testcase classname=\"conformance.scope\" name=\"\(xml("scope \(i + 1)"))\">\n    <failure type=\"not_tested\" message=\"\(xml(p))\"/>\n  </testcase>")
        }
        var properties = r.unknownCapabilities.map { "    <property name=\"unknown_capability\" value=\"\(xml($0))\"/>" }
        properties += r.scopeProblems.map { "    <property name=\"scope_problem\" value=\"\(xml($0))\"/>" }
        let props = properties.isEmpty ? "" : "  <properties>\n\(properties.joined(separator: "\n"))\n  </properties>\n"
        let tests = r.records.count + r.staleEntries.count + r.scopeProblems.count
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <testsuites tests="\(tests)" failures="\(failures)" skipped="\(skipped)">
        <testsuite name="conformance \(xml(r.hello.name))" tests="\(tests)" failures="\(failures)" errors="0" skipped="\(skipped)" time="\(Double(r.wallNanos) / 1e9)">
        \(props)\(body.joined(separator: "\n"))
        </testsuite>
        </testsuites>

        """
    }

    /// XML text/attribute escaping; control characters XML 1.0 cannot carry become U+FFFD.
    static func xml(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(u)
            case _ where u.value < 0x20 || u.value == 0xfffe || u.value == 0xffff: out += "\u{fffd}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

import Conformance
import Foundation
import Testing
import Vectors

/// `conformance` end to end, as a subprocess: exit codes, the last line, reports.
@Suite struct CLITests {
    @Test func runAgainstServePasses() throws {
        // A debug build under a parallel test load: the deadlines are scaled as --help advises.
        // The quick formats only; every format against the release serve is .ci/run's.
        let formats = Fixtures.serveFormats.sorted().flatMap { ["--format", $0] }
        let r = try CLIRun(["run", "--timeout-multiplier", "4"] + formats + ["--", Fixtures.executable, "serve"])
        #expect(r.status == 0)
        #expect(r.lastLine == Fixtures.serveFormatsPassLine)
        #expect(r.stderr.isEmpty)
    }

    @Test func runAgainstPythonTesteeInTwoJobsPasses() throws {
        let r = try CLIRun(["run", "--jobs", "2", "--", "python3", Fixtures.pythonTestee])
        #expect(r.status == 0)
        #expect(r.lastLine == Fixtures.pythonLine)
    }

    @Test func failuresExitOneWithBlocksAndReports() throws {
        let dir = try Fixtures.makeDirectory()
        let json = dir.appendingPathComponent("r.json").path, junit = dir.appendingPathComponent("r.xml").path
        let r = try CLIRun(["run", "--vectors", dir.appendingPathComponent("toy").path, "--timeout-multiplier", "0.1",
                            "--report", "json=\(json)", "--report", "junit=\(junit)", "--"] + Fixtures.toyCommand(dir, "crash"))
        #expect(r.status == 1)
        #expect(r.lastLine == "7 passed, 1 failed, 1 skipped")
        #expect(r.stdout.contains("""
        FAIL toy/echo/b/crash [crash]
            case: the crash mode dies here
            the testee killed by signal 11 (SIGSEGV) with the case in flight
            --- testee stderr (tail) ---
            toy: about to crash on toy/echo/b/crash
        """))
        let report = String(decoding: try Data(contentsOf: URL(fileURLWithPath: json)), as: UTF8.self)
        #expect(report.contains(#""exit_code": 1"#) && report.contains(#""kind": "crash""#) && report.contains(#""restarts": 1"#))
        let xml = String(decoding: try Data(contentsOf: URL(fileURLWithPath: junit)), as: UTF8.self)
        #expect(xml.contains(#"<testsuites tests="9" failures="1" skipped="1">"#))
        #expect(xml.contains(#"<failure type="crash" message="the testee killed by signal 11 (SIGSEGV) with the case in flight">"#))
    }

    @Test func aFailingCaseShowsItsRulesInEveryReport() throws {
        let dir = try Fixtures.makeDirectory()
        let json = dir.appendingPathComponent("r.json").path, junit = dir.appendingPathComponent("r.xml").path
        let r = try CLIRun(["run", "--vectors", dir.appendingPathComponent("toy").path, "--timeout-multiplier", "0.1",
                            "--report", "json=\(json)", "--report", "junit=\(junit)", "--"] + Fixtures.toyCommand(dir, "wrong"))
        #expect(r.status == 1)
        #expect(r.stdout.contains("""
        FAIL toy/echo/c/last [wrong_output]
            case: an array
            rules: R2.2-1, R2.2-5
            output differs at output.value[0], output.value[1]
        """))
        let report = try ReportDocument.parse(String(decoding: try Data(contentsOf: URL(fileURLWithPath: json)), as: UTF8.self))
        #expect(report.cases.first { $0.id == "toy/echo/c/last" }?.rules == ["R2.2-1", "R2.2-5"])
        let xml = String(decoding: try Data(contentsOf: URL(fileURLWithPath: junit)), as: UTF8.self)
        #expect(xml.contains("output differs at output.value[0], output.value[1]\ncase: an array\nrules: R2.2-1, R2.2-5\n"))
    }

    @Test func expectedFailuresFileAndItsUpdate() throws {
        let dir = try Fixtures.makeDirectory()
        let file = dir.appendingPathComponent("expected.txt").path
        let base = ["run", "--vectors", dir.appendingPathComponent("toy").path, "--timeout-multiplier", "0.1", "--expected-failures", file]
        try Data("# toy baseline\ntoy/echo/c/last crash  # old\n".utf8).write(to: URL(fileURLWithPath: file))
        let before = try CLIRun(base + ["--"] + Fixtures.toyCommand(dir, "crash"))
        #expect(before.status == 1)
        #expect(before.stdout.contains("UNEXPECTED PASS toy/echo/c/last"))
        let update = try CLIRun(base + ["--update-expected-failures", "--"] + Fixtures.toyCommand(dir, "crash"))
        #expect(update.status == 0)
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self) == "# toy baseline\ntoy/echo/b/crash crash\n")
        let after = try CLIRun(base + ["--"] + Fixtures.toyCommand(dir, "crash"))
        #expect(after.status == 0)
        let lines = after.stdout.split(separator: "\n").suffix(2).map(String.init)
        #expect(lines == ["(1 expected failure(s))", "7 passed, 0 failed, 1 skipped"])
        #expect(after.stdout.contains("""
        format/op     passed  failed  expected  skipped
        toy/echo           7       0         1        0
        toy/other          0       0         0        1
        total              7       0         1        1
        testee: toy 1 (python), protocol 1; 1 restart(s)
        """))
    }

    @Test func testeeThatCannotRunExitsThree() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try CLIRun(["run", "--vectors", dir.appendingPathComponent("toy").path, "--"] + Fixtures.toyCommand(dir, "early"))
        #expect(r.status == 3)
        #expect(r.stderr.hasPrefix("error: testee could not be run: the testee exited with status 5 before answering hello\n--- testee stderr (tail) ---\ntoy: cannot start: missing library libtoy.so\n\n(conformance selftest -- python3 "))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLIRun(["run", "--bogus"]).status == 2)
        #expect(try CLIRun(["run", "--shard", "0/2", "--", "x"]).status == 2)
        #expect(try CLIRun(["run", "--run", "no/such/*", "--", "x"]).status == 2)
        #expect(try CLIRun(["run"]).status == 2)
        let noCommand = try CLIRun(["run", "--run", "state_digest/leaf/*"])
        #expect(noCommand.status == 2)
        #expect(noCommand.stderr.hasPrefix("error: no testee command"))
    }

    @Test func scopeOptionsAndWarningsOnTheCommandLine() throws {
        let dir = try Fixtures.makeDirectory()
        let toy = ["run", "--vectors", dir.appendingPathComponent("toy").path, "--timeout-multiplier", "0.1"]
        let all = try CLIRun(toy + ["--require-all", "--"] + Fixtures.toyCommand(dir, "good"))
        #expect(all.status == 1)
        #expect(all.lastLine == "8 passed, 1 failed, 0 skipped")
        #expect(all.stdout.contains("REQUIRED BUT SKIPPED 1 case(s) (--require-all / --require):\n    toy/other: 1 case(s): the testee does not advertise toy/other"))
        #expect(try CLIRun(toy + ["--require", "toy/echo", "--"] + Fixtures.toyCommand(dir, "good")).status == 0)
        let typo = try CLIRun(toy + ["--require", "toy/nope", "--"] + Fixtures.toyCommand(dir, "good"))
        #expect(typo.status == 2 && typo.stderr == "error: --require toy/nope: format toy has no op nope\n")
        let nothing = try CLIRun(toy + ["--"] + Fixtures.toyCommand(dir, "unsupported"))
        #expect(nothing.status == 1)
        #expect(nothing.lastLine == "0 passed, 0 failed, 9 skipped")
        #expect(nothing.stdout.contains("NOT TESTED: no case was executed: the testee answered unsupported to all 8 case(s) it was sent"))
        let warned = try CLIRun(toy + ["--"] + Fixtures.toyCommand(dir, "typo"))
        #expect(warned.status == 0)
        #expect(warned.stderr == "warning: the testee advertises formats or ops this suite does not know, so they test nothing: toy/echoo, toyy\n")
        #expect(warned.stdout.contains("warning: the testee advertises formats or ops this suite does not know, so they test nothing: toy/echoo, toyy"))
    }

    @Test func selftestCommandPassesServeAndListsItsChecks() throws {
        let list = try CLIRun(["selftest", "--list"])
        #expect(list.status == 0 && list.lastLine == "\(SelfTest.checks.count) checks")
        let r = try CLIRun(["selftest", "--check", "selftest/unknown-op", "--", Fixtures.executable, "serve"])
        #expect(r.status == 0)
        #expect(r.lastLine == "2 passed, 0 failed")  // selftest/hello always runs
        #expect(try CLIRun(["selftest", "--check", "selftest/nope", "--", "x"]).status == 2)
        #expect(try CLIRun(["selftest", "--", "/nonexistent/testee"]).status == 3)
    }

    /// --run-file: exact ids (a set lookup) and globs from a file, comments and blank lines left
    /// out; the selection is the union with --run, in suite order; a file naming an unknown id,
    /// or no case at all, is a usage error.
    @Test func runFileSelectsItsLines() throws {
        let dir = try Fixtures.makeDirectory()
        let file = dir.appendingPathComponent("ids.txt")
        try "# two exact ids and a glob\n\nstate_digest/digest/store/empty\n  state_digest/digest/store/two-rows-each  \nstate_digest/digest/store/order/*\n"
            .write(to: file, atomically: true, encoding: .utf8)
        let r = try CLIRun(["run", "--list", "--run-file", file.path, "--run", "state_digest/digest/store/namespace-null"])
        #expect(r.status == 0)
        #expect(r.stdout == [
            "state_digest/digest/store/two-rows-each",
            "state_digest/digest/store/empty",
            "state_digest/digest/store/order/spec-order-not-member-order",
            "state_digest/digest/store/order/unknown-name-before-rows",
            "state_digest/digest/store/order/namespace-rooted-before-next",
            "state_digest/digest/store/namespace-null"
        ].map { $0 + "\n" }.joined())
        try "state_digest/digest/store/empty\nstate_digest/digest/store/no-such-case\n".write(to: file, atomically: true, encoding: .utf8)
        let unknown = try CLIRun(["run", "--list", "--run-file", file.path])
        #expect(unknown.status == 2 && unknown.stderr.contains("state_digest/digest/store/no-such-case"))
        try "# nothing\n\n".write(to: file, atomically: true, encoding: .utf8)
        let empty = try CLIRun(["run", "--list", "--run-file", file.path])
        #expect(empty.status == 2 && empty.stderr == "error: --run-file: \(file.path) names no case\n")
        let missing = try CLIRun(["run", "--list", "--run-file", dir.appendingPathComponent("none.txt").path])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("error: --run-file: cannot read "))
    }

    @Test func listPrintsSelectedIDs() throws {
        let r = try CLIRun(["run", "--list", "--run", "state_digest/digest/store/*"])
        #expect(r.status == 0)
        #expect(r.stdout == [
            "state_digest/digest/store/two-rows-each",
            "state_digest/digest/store/empty",
            "state_digest/digest/store/one-contact-renamed",
            "state_digest/digest/store/members-reversed",
            "state_digest/digest/store/order/spec-order-not-member-order",
            "state_digest/digest/store/order/unknown-name-before-rows",
            "state_digest/digest/store/order/namespace-rooted-before-next",
            "state_digest/digest/store/namespace-not-array",
            "state_digest/digest/store/namespace-null",
            "state_digest/digest/store/unknown-namespace",
            "state_digest/digest/store/namespaces-missing"
        ].map { $0 + "\n" }.joined())
        let all = try CLIRun(["list"])
        #expect(all.stdout.split(separator: "\n").count == Fixtures.totalCases)
    }
}

/// The HTML report and the comparison page (SPEC.md §6.9): structure, self-containment, content.
@Suite struct HTMLReportTests {
    func count(_ s: String, _ needle: String) -> Int { s.components(separatedBy: needle).count - 1 }

    func expectWellFormed(_ page: String) {
        #expect(page.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
        #expect(page.hasSuffix("</body>\n</html>\n"))
        for tag in ["html", "head", "body", "table", "thead", "tbody", "tr", "details", "summary", "script", "style", "pre", "p", "ul", "li", "label"] {
            #expect(count(page, "<\(tag)>") + count(page, "<\(tag) ") == count(page, "</\(tag)>"), "<\(tag)> not balanced")
        }
        // Self-contained: no external asset, no network.
        for banned in ["http://", "https://", " src=", "<link", "@import", "url("] { #expect(!page.contains(banned), "\(banned)") }
    }

    @Test func runPageHasTheMatrixTheFilterAndEachFailure() throws {
        let dir = try Fixtures.makeDirectory()
        var o = Fixtures.toyOptions(Fixtures.toyCommand(dir, "wrong"))
        o.requireAll = true
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        let page = HTMLReport.render(r)
        expectWellFormed(page)
        #expect(count(page, "<table class=\"matrix\">") == 1)
        #expect(count(page, "<tr data-op=\"toy/echo\">") == 1 && count(page, "<tr data-op=\"toy/other\">") == 1)
        #expect(count(page, "class=\"sq o-") == 9 + 8)  // a square per case, plus the legend's eight
        #expect(page.contains("<input type=\"search\" id=\"filter\""))
        // Each case needing attention has its block: the wrong output with its diff and comment,
        // and the required-but-skipped case.
        #expect(count(page, "<details class=\"case ") == 2)
        #expect(page.contains("<details class=\"case o-fail\" id=\"c7\""))
        #expect(page.contains("output.value[0]: expected 1, got 2"))
        #expect(page.contains("<p>case: an array</p>"))
        #expect(page.contains("<p class=\"rules\">rules: <code>R2.2-1</code><code>R2.2-5</code></p>"))
        #expect(page.contains("<details class=\"case o-required_skipped\" id=\"c8\""))
        #expect(page.contains("<span class=\"closing bad\" id=\"closing\">7 passed, 2 failed, 0 skipped</span>"))
    }

    @Test func comparisonPageHasARowPerCaseAndAColumnPerImplementation() throws {
        let dir = try Fixtures.makeDirectory()
        let good = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "good")))
        let wrong = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "wrong")))
        let docs = try [good, wrong].map { try ReportDocument.parse(JSONReport.render($0)) }
        let page = HTMLReport.comparison(docs)
        expectWellFormed(page)
        #expect(count(page, "<tr class=\"case\"") == 9)
        #expect(count(page, "<tr class=\"case\" data-differ=\"true\"") == 1)
        #expect(page.contains("<td class=\"o o-fail\" title=\"output differs at output.value[0], output.value[1]\">wrong_output</td>"))
        #expect(count(page, "<th class=\"name\">toy 1 (python)</th>") == 4)  // two columns in two tables
        #expect(page.contains("<select id=\"rows\">"))
    }

    @Test func reportCommandMergesJSONReports() throws {
        let dir = try Fixtures.makeDirectory()
        let a = dir.appendingPathComponent("a.json").path, b = dir.appendingPathComponent("b.json").path, out = dir.appendingPathComponent("cmp.html").path
        let toy = dir.appendingPathComponent("toy").path
        _ = try CLIRun(["run", "--vectors", toy, "--timeout-multiplier", "0.1", "--report", "json=\(a)", "--"] + Fixtures.toyCommand(dir, "good"))
        _ = try CLIRun(["run", "--vectors", toy, "--timeout-multiplier", "0.1", "--report", "json=\(b)", "--"] + Fixtures.toyCommand(dir, "wrong"))
        let r = try CLIRun(["report", "--html", out, a, b])
        #expect(r.status == 0)
        #expect(r.stdout == "wrote \(out): 2 implementation(s), 9 case(s)\n")
        #expect(try CLIRun(["report", "--html", out, dir.appendingPathComponent("toy/toy.json").path]).status == 2)
    }
}

/// `conformance kat`: the long known-answer runs on the binary itself (`.ci/run` runs it on the
/// release build; here the short runs on the debug build, and a wrong target must fail).
@Suite struct KATCommandTests {
    static let katDir = Fixtures.packageRoot.appendingPathComponent("Tests/PrimitivesTests/KAT")

    @Test func quickRunsMatchThePublishedDigests() throws {
        let r = try CLIRun(["kat", "--quick", "--dir", Self.katDir.path])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("ok   ML-DSA-65 accumulated ×100"))
        #expect(r.stdout.contains("ok   ML-KEM-768 accumulated ×100"))
        #expect(r.stdout.contains("ok   X25519 iterated ×1"))
        #expect(r.lastLine == "3 passed, 0 failed")
    }

    @Test func aWrongTargetFailsAndAMissingFileExitsThree() throws {
        let dir = try Fixtures.makeDirectory()
        for f in ["accumulated/accumulated-targets.json", "x25519/rfc7748-x25519.json"] {
            let to = dir.appendingPathComponent(f)
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: Self.katDir.appendingPathComponent(f), to: to)
        }
        // The ML-KEM-768 ×100 digest with its first hex digit changed.
        let url = dir.appendingPathComponent("accumulated/accumulated-targets.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let json = try JSONValue.parse(text)
        let digest = try #require(json["ML-KEM-768"]?["digests"]?["100"]?.stringValue)
        let wrong = (digest.first == "0" ? "1" : "0") + digest.dropFirst()
        try text.replacingOccurrences(of: digest, with: wrong).write(to: url, atomically: true, encoding: .utf8)
        let r = try CLIRun(["kat", "--quick", "--dir", dir.path])
        #expect(r.status == 1)
        #expect(r.stdout.contains("FAIL ML-KEM-768 accumulated ×100: expected \(wrong), got \(digest)"))
        #expect(r.lastLine == "2 passed, 1 failed")
        let missing = try CLIRun(["kat", "--dir", dir.appendingPathComponent("nothing").path])
        #expect(missing.status == 3)
        #expect(try CLIRun(["kat", "--bogus"]).status == 2)
    }
}

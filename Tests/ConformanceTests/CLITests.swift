import Foundation
import Testing

/// `conformance` end to end, as a subprocess: exit codes, the last line, reports.
@Suite struct CLITests {
    @Test func runAgainstServePasses() throws {
        let r = try CLIRun(["run", "--", Fixtures.executable, "serve"])
        #expect(r.status == 0)
        #expect(r.lastLine == Fixtures.allPassLine)
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
    }

    @Test func testeeThatCannotRunExitsThree() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try CLIRun(["run", "--vectors", dir.appendingPathComponent("toy").path, "--"] + Fixtures.toyCommand(dir, "early"))
        #expect(r.status == 3)
        #expect(r.stderr == "error: testee could not be run: the testee exited with status 5 before answering hello\n--- testee stderr (tail) ---\ntoy: cannot start: missing library libtoy.so\n\n")
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

    @Test func listPrintsSelectedIDs() throws {
        let r = try CLIRun(["run", "--list", "--run", "state_digest/digest/*"])
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

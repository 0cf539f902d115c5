import Conformance
import Foundation
import Testing
import Vectors

/// The runner as a library, against the reference and against deliberately broken testees.
@Suite struct RunnerTests {
    func outcomes(_ r: RunResult) -> [String: String] {
        var out: [String: String] = [:]
        for rec in r.records {
            switch rec.outcome {
            case .passed: out[rec.id] = "pass"
            case .failed(let f): out[rec.id] = f.kind.rawValue
            case .skipped: out[rec.id] = "skipped"
            case .notRun: out[rec.id] = "not_run"
            case .requiredSkipped: out[rec.id] = "required_skipped"
            case .expectedFailure(let f, _): out[rec.id] = "expected:\(f.kind.rawValue)"
            case .unexpectedPass: out[rec.id] = "unexpected_pass"
            case .changedFailure(let f, _): out[rec.id] = "changed:\(f.kind.rawValue)"
            }
        }
        return out
    }

    /// All toy cases pass except `failing`, which fails with `kind`; the unadvertised op is skipped.
    func expectToy(_ r: RunResult, failing: String?, kind: String?) {
        var want: [String: String] = [:]
        for c in (try? Fixtures.toySuite()) ?? [] { want[c.id] = c.op == "other" ? "skipped" : "pass" }
        if let failing, let kind { want[failing] = kind }
        #expect(outcomes(r) == want)
    }

    /// The reference through the process boundary, on the quick formats; every format against the
    /// release `serve` is `.ci/run`'s `run --require-all` (VectorFileTests judges every case
    /// in-process).
    @Test func referenceServePassesEveryVectorOfItsFormats() throws {
        let suite = try Fixtures.suite(Fixtures.serveFormats)
        #expect(suite.count == Fixtures.manifestCounts.filter { Fixtures.serveFormats.contains($0.key) }.values.reduce(0, +))
        #expect(Fixtures.stateDigestCases > 0)
        let r = try Runner.run(suite: suite, options: Fixtures.serveOptions)
        #expect(r.counts == RunResult.Counts(passed: suite.count, failed: 0, skipped: 0, expectedFailures: 0, notRun: 0))
        #expect(r.exitCode == 0)
        #expect(r.restarts == 0)
        #expect(r.hello.name == "pixie-reference")
        #expect(Set(r.hello.capabilities.keys) == Set(Fixtures.manifestCounts.keys), "serve advertises every format")
        #expect(r.summaryLine == Fixtures.serveFormatsPassLine)
    }

    @Test func pythonTesteePassesEveryVector() throws {
        // Its own formats and one it does not implement (read from disk: the rest would only add skips).
        let suite = try Fixtures.suite(Fixtures.pythonFormats.union(["settle"]))
        let r = try Runner.run(suite: suite, options: RunOptions(command: ["python3", Fixtures.pythonTestee]))
        #expect(r.hello.language == "python")
        // It implements every state_digest and reconcile op: those cases all pass; the formats it
        // does not advertise are skipped, never counted as passed.
        #expect(Set(r.hello.capabilities.keys) == Fixtures.pythonFormats)
        let own = suite.filter { Fixtures.pythonFormats.contains($0.format) }.count
        #expect(own > 300)
        #expect(r.counts == RunResult.Counts(passed: own, failed: 0, skipped: suite.count - own, expectedFailures: 0, notRun: 0))
        #expect(suite.count - own == Fixtures.manifestCounts["settle"])
        #expect(r.exitCode == 0)
    }

    @Test func parallelJobsReportInCaseOrder() throws {
        let suite = try Fixtures.suite(Fixtures.serveFormats)
        var o = Fixtures.serveOptions
        o.jobs = 3
        let r = try Runner.run(suite: suite, options: o)
        #expect(r.records.map(\.id) == suite.map(\.id))
        #expect(r.counts.passed == suite.count)
    }

    @Test func goodToyTesteePassesAndSkipsUnadvertisedOps() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "good")))
        expectToy(r, failing: nil, kind: nil)
        #expect(r.summaryLine == "8 passed, 0 failed, 1 skipped")
        #expect(r.exitCode == 0)
    }

    @Test func crashMidRunIsACrashThenTheRunGoesOn() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "crash")))
        expectToy(r, failing: "toy/echo/b/crash", kind: "crash")
        let rec = try #require(r.records.first { $0.id == "toy/echo/b/crash" })
        #expect(rec.outcome.failure?.summary == "the testee killed by signal 11 (SIGSEGV) with the case in flight")
        #expect(rec.stderrTail == "toy: about to crash on toy/echo/b/crash\n")
        #expect(r.restarts == 1)
        #expect(r.exitCode == 1)
    }

    @Test func hangIsATimeoutAndTheWholeProcessGroupDies() throws {
        let dir = try Fixtures.makeDirectory()
        let pidFile = dir.appendingPathComponent("pid").path
        // Through `sh -c` so the python process is a grandchild: only a group kill reaches it.
        let cmd = ["sh", "-c", "python3 \(dir.appendingPathComponent("toy.py").path) hang \(pidFile); echo unreachable"]
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(cmd))
        expectToy(r, failing: "toy/echo/b/hang", kind: "timeout")
        #expect(r.restarts == 1)
        // The pid file is rewritten by the respawned process; the hung one was the first. Either
        // way, after the run no toy process of this directory may survive.
        let pid = try #require(Int32(String(decoding: try Data(contentsOf: URL(fileURLWithPath: pidFile)), as: UTF8.self)))
        #expect(kill(pid, 0) == -1 && errno == ESRCH)
    }

    @Test func nonJSONIsAProtocolError() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "garbage")))
        expectToy(r, failing: "toy/echo/b/garbage", kind: "protocol_error")
        let f = try #require(r.records.first { $0.id == "toy/echo/b/garbage" }?.outcome.failure)
        #expect(f.details == ["line: this is not json"])
        #expect(f.summary.hasPrefix("not JSON (invalid JSON at byte 0"))
    }

    /// The runner reads testee output as strictly as SPEC.md §6.6 says: each of these answers to
    /// the /garbage case is a protocol_error naming why; a CRLF line ending is tolerated.
    @Test(arguments: [
        ("surrogate", "not JSON (invalid JSON at byte 82: unpaired surrogate)"),
        ("deep", "not JSON (invalid JSON at byte 193: nesting too deep)"),
        ("long", "line longer than 16777216 bytes"),
        ("badutf8", "line is not valid UTF-8"),
        ("dupmember", "member \"status\" appears twice"),
    ])
    func malformedOutputIsAProtocolError(_ mode: String, _ reason: String) throws {
        let dir = try Fixtures.makeDirectory()
        var o = Fixtures.toyOptions(Fixtures.toyCommand(dir, mode))
        o.timeoutMultiplier = 1  // a 16 MiB line takes a while through a debug build
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        expectToy(r, failing: "toy/echo/b/garbage", kind: "protocol_error")
        let f = try #require(r.records.first { $0.id == "toy/echo/b/garbage" }?.outcome.failure)
        #expect(f.summary == reason)
        #expect(r.restarts == 1)
    }

    @Test func crlfLineEndingIsTolerated() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "crlf")))
        expectToy(r, failing: nil, kind: nil)
    }

    @Test func wrongIDIsAProtocolError() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "wrongid")))
        expectToy(r, failing: "toy/echo/b/wrongid", kind: "protocol_error")
        let f = try #require(r.records.first { $0.id == "toy/echo/b/wrongid" }?.outcome.failure)
        #expect(f.summary == "answers id \"toy/echo/a/one\" but the case in flight is \"toy/echo/b/wrongid\"")
    }

    @Test func stderrFloodNeverBlocksAndIsKeptAsABoundedTail() throws {
        let dir = try Fixtures.makeDirectory()
        var o = RunOptions(command: Fixtures.toyCommand(dir, "flood"))
        o.timeoutMultiplier = 1
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        // 8 cases × 40,000 × ~20 bytes ≈ 6 MB of stderr, far past any pipe buffer.
        expectToy(r, failing: nil, kind: nil)
        #expect(r.restarts == 0)
        // A case keeps at most the last 4 KiB its testee wrote while it was in flight, marked as cut.
        for rec in r.records where !rec.stderrTail.isEmpty {
            #expect(rec.stderrTail.hasPrefix("…"))
            #expect(rec.stderrTail.utf8.count <= 4096 + "…".utf8.count)
            #expect(rec.stderrTail.contains("flood toy/echo/"))
        }
    }

    @Test func stderrTailIsBoundedOnFailure() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "wrong")))
        expectToy(r, failing: "toy/echo/c/last", kind: "wrong_output")
        let rec = try #require(r.records.first { $0.id == "toy/echo/c/last" })
        #expect(rec.outcome.failure?.details.suffix(2) == ["output.value[0]: expected 1, got 2", "output.value[1]: expected 2, got 1"])
        #expect(rec.stderrTail.isEmpty)
    }

    @Test func exitBeforeHandshakeMeansTheTesteeCannotRun() throws {
        let dir = try Fixtures.makeDirectory()
        #expect(throws: HandshakeFailure.exited(.exited(5), stderrTail: "toy: cannot start: missing library libtoy.so\n")) {
            try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "early")))
        }
    }

    @Test func unofferedProtocolVersionIsRefused() throws {
        let dir = try Fixtures.makeDirectory()
        #expect(throws: HandshakeFailure.versionMismatch(offered: [1], chosen: 2, testee: "toy 1")) {
            try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "badversion")))
        }
    }

    @Test func missingCommandCannotSpawn() throws {
        #expect(throws: HandshakeFailure.spawn(SpawnError(command: ["/nonexistent/testee"], reason: "No such file or directory"))) {
            try Runner.run(suite: try Fixtures.toySuite(), options: RunOptions(command: ["/nonexistent/testee"]))
        }
    }

    @Test func restartBudgetExhaustedLeavesTheRestNotRun() throws {
        let dir = try Fixtures.makeDirectory()
        var o = Fixtures.toyOptions(Fixtures.toyCommand(dir, "crashall"))
        o.maxRestarts = 2
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        let got = outcomes(r)
        // Three processes (the first and two restarts) each crash on one case; the rest is not run.
        #expect(got["toy/echo/a/one"] == "crash")
        #expect(got["toy/echo/a/two"] == "crash")
        #expect(got["toy/echo/b/crash"] == "crash")
        for id in ["toy/echo/b/hang", "toy/echo/b/garbage", "toy/echo/b/wrongid", "toy/echo/c/reject", "toy/echo/c/last"] {
            #expect(got[id] == "not_run")
        }
        #expect(r.restarts == 2)
        #expect(r.incompleteReason == "restart budget exhausted (--max-restarts 2)")
        #expect(r.summaryLine == "0 passed, 8 failed, 1 skipped")
        #expect(r.exitCode == 1)
    }

    @Test func failFastStopsAfterTheFirstFailure() throws {
        let dir = try Fixtures.makeDirectory()
        var o = Fixtures.toyOptions(Fixtures.toyCommand(dir, "garbage"))
        o.failFast = true
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        let got = outcomes(r)
        #expect(got["toy/echo/b/garbage"] == "protocol_error")
        #expect(got["toy/echo/b/wrongid"] == "not_run")
        #expect(got["toy/echo/c/reject"] == "not_run")
        #expect(got["toy/echo/c/last"] == "not_run")
        #expect(r.counts.notRun == 3)
        #expect(r.incompleteReason == "--fail-fast after toy/echo/b/garbage")
    }

    // MARK: A run that cannot pass by accident (SPEC.md §6.7)

    @Test func aRunThatExecutesNothingFailsWithASentence() throws {
        let dir = try Fixtures.makeDirectory()
        var o = Fixtures.toyOptions(Fixtures.toyCommand(dir, "good"))
        o.selection.run = [IDPattern("toy/other/*")]
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        #expect(r.summaryLine == "0 passed, 0 failed, 1 skipped")
        #expect(r.scopeProblems == ["no case was executed: the testee advertises none of the formats and ops of the 1 selected case(s) (it advertises toy; the selection needs toy)"])
        #expect(r.exitCode == 1)

        let all = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "unsupported")))
        #expect(all.summaryLine == "0 passed, 0 failed, 9 skipped")
        #expect(all.scopeProblems == ["no case was executed: the testee answered unsupported to all 8 case(s) it was sent; 1 case(s) are of formats or ops it does not advertise"])
        #expect(all.exitCode == 1)
    }

    @Test func unknownCapabilitiesAreNamed() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "typo")))
        #expect(r.unknownCapabilities == ["toy/echoo", "toyy"])
        #expect(SuiteScope.warning(r.unknownCapabilities) == "warning: the testee advertises formats or ops this suite does not know, so they test nothing: toy/echoo, toyy")
        #expect(r.exitCode == 0)  // a warning, not a failure: every case it can run passed
    }

    @Test func requireAllAndRequireTurnSkipsIntoFailures() throws {
        let dir = try Fixtures.makeDirectory()
        var o = Fixtures.toyOptions(Fixtures.toyCommand(dir, "good"))
        o.requireAll = true
        let all = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        #expect(outcomes(all)["toy/other/x/one"] == "required_skipped")
        #expect(all.summaryLine == "8 passed, 1 failed, 0 skipped")
        #expect(all.exitCode == 1)

        o.requireAll = false
        o.require = [RequiredScope("toy/other")!]
        #expect(try Runner.run(suite: try Fixtures.toySuite(), options: o).exitCode == 1)
        o.require = [RequiredScope("toy/echo")!]
        let echo = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        #expect(echo.exitCode == 0 && echo.summaryLine == "8 passed, 0 failed, 1 skipped")
        // A required scope the selection leaves out entirely is not "fully run".
        o.selection.run = [IDPattern("toy/echo/a/*")]
        o.require = [RequiredScope(format: "toy", op: "other")]
        let narrowed = try Runner.run(suite: try Fixtures.toySuite(), options: o)
        #expect(narrowed.scopeProblems == ["--require toy/other: no selected case is in it (see --run, --skip, --format, --shard)"])
        #expect(narrowed.exitCode == 1)
        #expect(RequiredScope("a/b/c") == nil && RequiredScope("") == nil && RequiredScope("a/") == nil)
        #expect(RequiredScope("toy/nope")?.problem(in: SuiteScope(suite: try Fixtures.toySuite())) == "--require toy/nope: format toy has no op nope")
    }

    @Test func perFormatOpTableCountsEveryOutcome() throws {
        let dir = try Fixtures.makeDirectory()
        let r = try Runner.run(suite: try Fixtures.toySuite(), options: Fixtures.toyOptions(Fixtures.toyCommand(dir, "wrong")))
        #expect(r.opTable.map(\.name) == ["toy/echo", "toy/other"])
        #expect(r.opTable[0].counts == RunResult.Counts(passed: 7, failed: 1))
        #expect(r.opTable[1].counts == RunResult.Counts(skipped: 1))
        #expect(ConsoleReport.table(r.opTable) == """
        format/op     passed  failed  expected  skipped
        toy/echo           7       1         0        0
        toy/other          0       0         0        1
        total              7       1         0        1
        """)
    }

    @Test func flippedRuleIsNamedDownToTheLeafField() throws {
        let dir = try Fixtures.makeDirectory()
        let suite = try Fixtures.suite(["state_digest"])
        var o = RunOptions(command: ["python3", dir.appendingPathComponent("mutant.py").path] + Fixtures.serve)
        o.selection.run = [IDPattern("state_digest/*/messages/*"), IDPattern("state_digest/digest/*"), IDPattern("state_digest/leaf/memory/typical")]
        let r = try Runner.run(suite: suite, options: o)

        let leaf = try #require(r.records.first { $0.id == "state_digest/leaf/messages/typical" }?.outcome.failure)
        #expect(leaf.kind == .wrongOutput)
        #expect(leaf.details.last == "first differing leaf field: sentAt (expected 1767225600, got 1767225600123)")

        let root = try #require(r.records.first { $0.id == "state_digest/root/messages/three-rows" }?.outcome.failure)
        #expect(root.kind == .wrongOutput)
        #expect(Array(root.details.suffix(2)) == [
            "row 0 is the first whose leaf differs (diagnostic case state_digest/root/messages/three-rows#leaf/0)",
            "first differing leaf field: sentAt (expected 1767225600, got 1767225600123)",
        ])

        let digest = try #require(r.records.first { $0.id == "state_digest/digest/store/two-rows-each" }?.outcome.failure)
        #expect(digest.details.contains("namespace messages: root differs"))
        #expect(digest.details.last == "  first differing leaf field: sentAt (expected 1767225600, got 1767225600123)")

        let upper = try #require(r.records.first { $0.id == "state_digest/leaf/memory/typical" }?.outcome.failure)
        #expect(upper.kind == .wrongOutput)
        #expect(upper.details.contains { $0.hasPrefix("output.leaf: expected \"") && $0.hasSuffix("uppercase hex; bytes are written in lowercase hex (SPEC.md conventions)") })

        // A messages row whose sentAt is a whole second has nothing to flip: those cases still pass,
        // and the negative cases are rejected before any encoding.
        #expect(r.records.first { $0.id == "state_digest/leaf/messages/missing-required-body" }?.outcome == .passed)
        #expect(r.records.first { $0.id == "state_digest/root/messages/empty" }?.outcome == .passed)
    }
}

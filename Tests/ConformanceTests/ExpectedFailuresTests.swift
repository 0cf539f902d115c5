import Conformance
import Foundation
import Testing
import Vectors

@Suite struct ExpectedFailuresTests {
    @Test func parsesEntriesCommentsAndHeader() throws {
        let f = try ExpectedFailures.parse("""
        # baseline for toy 1.0

        toy/echo/b/*   crash   # issue 12
        toy/echo/c/last wrong_output
        """)
        #expect(f.header == ["# baseline for toy 1.0"])
        #expect(f.entries == [
            ExpectedFailures.Entry(pattern: IDPattern("toy/echo/b/*"), kind: .crash, comment: "issue 12", line: 3),
            ExpectedFailures.Entry(pattern: IDPattern("toy/echo/c/last"), kind: .wrongOutput, comment: nil, line: 4),
        ])
    }

    @Test func rejectsUnknownKindsAndMalformedLines() {
        #expect(throws: ExpectedFailures.ParseError.self) { try ExpectedFailures.parse("toy/x flaky") }
        #expect(throws: ExpectedFailures.ParseError.self) { try ExpectedFailures.parse("toy/x") }
    }

    func run(_ mode: String, expected: String, run patterns: [String] = []) throws -> RunResult {
        let dir = try Fixtures.makeDirectory()
        var o = Fixtures.toyOptions(Fixtures.toyCommand(dir, mode))
        o.expectedFailures = try ExpectedFailures.parse(expected)
        o.selection.run = patterns.map(IDPattern.init)
        return try Runner.run(suite: try Fixtures.toySuite(), options: o)
    }

    @Test func sameKindIsAnExpectedFailure() throws {
        let r = try run("crash", expected: "toy/echo/b/crash crash")
        #expect(r.counts == RunResult.Counts(passed: 7, failed: 0, skipped: 1, expectedFailures: 1, notRun: 0))
        #expect(r.exitCode == 0)
        #expect(r.staleEntries.isEmpty)
    }

    @Test func passingListedCaseIsAnUnexpectedPass() throws {
        let r = try run("good", expected: "toy/echo/c/last wrong_output")
        let rec = try #require(r.records.first { $0.id == "toy/echo/c/last" })
        #expect(rec.outcome == .unexpectedPass(ExpectedFailures.Entry(pattern: IDPattern("toy/echo/c/last"), kind: .wrongOutput, line: 1)))
        #expect(r.summaryLine == "7 passed, 1 failed, 1 skipped")
        #expect(r.exitCode == 1)
    }

    @Test func otherKindIsAChangedFailure() throws {
        let r = try run("crash", expected: "toy/echo/b/* timeout")
        let rec = try #require(r.records.first { $0.id == "toy/echo/b/crash" })
        guard case .changedFailure(let f, let e) = rec.outcome else { Issue.record("got \(rec.outcome)"); return }
        #expect(f.kind == .crash && e.kind == .timeout)
        // The glob also matches three cases that now pass: each an unexpected pass.
        #expect(r.records.filter { if case .unexpectedPass = $0.outcome { return true } else { return false } }.map(\.id)
            == ["toy/echo/b/hang", "toy/echo/b/garbage", "toy/echo/b/wrongid"])
        #expect(r.exitCode == 1)
    }

    @Test func entryMatchingNoSelectedCaseIsStale() throws {
        let r = try run("good", expected: "toy/echo/z/gone crash\ntoy/echo/c/* wrong_output")
        #expect(r.staleEntries.map(\.pattern.text) == ["toy/echo/z/gone"])
        #expect(r.exitCode == 1)
        // Narrowed by --run, an entry for a loaded but deselected case is not stale; one for no
        // loaded case at all still is.
        let narrowed = try run("good", expected: "toy/echo/c/last wrong_output\ntoy/echo/z/gone crash", run: ["toy/echo/a/*"])
        #expect(narrowed.staleEntries.map(\.pattern.text) == ["toy/echo/z/gone"])
    }

    @Test func rewriteKeepsSurvivingEntriesAndAddsNewFailures() throws {
        let f = try ExpectedFailures.parse("""
        # header
        toy/echo/b/* crash  # all of b crashes
        toy/echo/c/last wrong_output  # fixed since
        toy/echo/a/one timeout  # flaky box
        """)
        let judged = ["toy/echo/a/one", "toy/echo/a/two", "toy/echo/b/crash", "toy/echo/b/hang", "toy/echo/c/last"]
        let text = f.rewritten(failures: ["toy/echo/b/crash": .crash, "toy/echo/b/hang": .crash, "toy/echo/a/one": .timeout, "toy/echo/a/two": .error],
                               judged: judged)
        #expect(text == """
        # header
        toy/echo/a/one timeout  # flaky box
        toy/echo/a/two error
        toy/echo/b/* crash  # all of b crashes

        """)
        let partial = f.rewritten(failures: ["toy/echo/b/crash": .crash], judged: judged)
        #expect(partial == "# header\ntoy/echo/b/crash crash  # all of b crashes\n")
    }
}

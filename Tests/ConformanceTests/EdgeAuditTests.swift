import Foundation
import Testing
@testable import Conformance
@testable import Vectors

/// The self-audit of the hand-written edge cases (issue 23, item 4): an integer moves one step at
/// a time, and a case at a bound answers otherwise after some step.
@Suite struct EdgeAuditTests {
    @Test func integerLiteralsStepByDecimalArithmetic() {
        #expect(EdgeAudit.steps("0") == ["-1", "1"])
        #expect(EdgeAudit.steps("10") == ["9", "11"])
        #expect(EdgeAudit.steps("18446744073709551615") == ["18446744073709551614", "18446744073709551616"])
        #expect(EdgeAudit.steps("-1") == ["-2", "0"])
        #expect(EdgeAudit.steps("-100") == ["-101", "-99"])
        #expect(EdgeAudit.steps("1.0").isEmpty)
        #expect(EdgeAudit.steps("007").isEmpty)
        #expect(EdgeAudit.steps("-0").isEmpty)
        #expect(EdgeAudit.steps("1e3").isEmpty)
    }

    @Test func everyIntegerMovesOnceEachWay() {
        let input = CBOR.object([("a", .jsonNumber("5")), ("b", .array([.jsonNumber("0"), .text("x")]))])
        let moved = EdgeAudit.moves(input).map(\.json.compact)
        #expect(moved == [#"{"a":4,"b":[0,"x"]}"#, #"{"a":6,"b":[0,"x"]}"#, #"{"a":5,"b":[-1,"x"]}"#, #"{"a":5,"b":[1,"x"]}"#])
    }

    /// signin's committed edge cases: a listed case that a step decides, or an undecided case not
    /// listed, is a problem.
    @Test func thePendingListIsExact() throws {
        let file = try VectorFile.read(format: "signin", in: Fixtures.vectors)
        let pending = try InputCoverage.exemptions(at: Fixtures.packageRoot.appendingPathComponent("coverage").appendingPathComponent(EdgeAudit.pendingFile))
        let audit = EdgeAudit(files: [file], pending: pending)
        #expect(audit.problems.isEmpty)
        let line = try #require(audit.lines.first)
        #expect(line.audited > 0 && !line.undecided.isEmpty)
        #expect(line.undecided.contains("signin/ladder/rung5/timestamp-minus-119"))

        var fewer = pending
        fewer["signin/ladder/rung5/timestamp-minus-119"] = nil
        #expect(EdgeAudit(files: [file], pending: fewer).problems.count == 1)
        let decided = try #require(file.cases.first { EdgeAudit.isHandWrittenEdge($0) && !line.undecided.contains($0.id) && !EdgeAudit.moves($0.input).isEmpty })
        var more = pending
        more[decided.id] = "listed"
        #expect(EdgeAudit(files: [file], pending: more).problems == ["\(decided.id): a one-step move decides it now: remove it from \(EdgeAudit.pendingFile)"])
    }
}

import Foundation
import Testing
@testable import Conformance
import Vectors

/// The release drift gate and the mutants, end to end.
@Suite struct DriftAndMutantTests {
    /// Writes the vectors of `formats` as the reference generates them with `mutant` switched on (a
    /// stand-in for "the leaf encoding changed in this release"). Only the formats a test looks at:
    /// the gate compares file by file, and a debug-build generation of every format takes minutes.
    /// Without the derived cases (the §2.2 battery and its kin): the gate's mechanics are the same
    /// for them, and they are most of the generation time.
    static func generate(into dir: URL, mutant: Mutant?, formats: Set<String> = ["state_digest"]) throws {
        try Mutant.$active.withValue(mutant) { try VectorSuite.write(to: dir, formats: formats, derived: false) }
    }

    @Test func encodingChangeWithoutVersionBumpFailsAndNamesTheField() throws {
        let root = try Fixtures.makeDirectory()
        let baseline = root.appendingPathComponent("baseline"), current = root.appendingPathComponent("current")
        try Self.generate(into: baseline, mutant: nil, formats: ["state_digest", "reconcile"])
        try Self.generate(into: current, mutant: .datesTruncateTowardZero, formats: ["state_digest", "reconcile"])
        let report = try DriftReport.compare(baseline: baseline, current: current, explain: DriftExplainer.explain)
        #expect(report.failed)
        let sd = try #require(report.formats.first { $0.format == "state_digest" })
        let change = try #require(sd.changed.first { $0.id == "state_digest/leaf/messages/date-negative-1ms" })
        #expect(change.what == "expected")
        #expect(change.detail == "namespace messages: first differing leaf field: sentAt (was -1, now 0)")
        #expect(report.formats.first { $0.format == "reconcile" }?.violations == [])

        // The same change with the version bumped passes the gate.
        let url = current.appendingPathComponent("state_digest.json")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "\"wire_version\": 6,", with: "\"wire_version\": 7,")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let bumped = try DriftReport.compare(baseline: baseline, current: current, explain: DriftExplainer.explain)
        #expect(!bumped.failed)
        #expect(bumped.formats.first { $0.format == "state_digest" }?.changed.count == sd.changed.count)
    }

    @Test func identicalVectorsPassAndARemovedCaseMustBeWithdrawn() throws {
        let root = try Fixtures.makeDirectory()
        let a = root.appendingPathComponent("a"), b = root.appendingPathComponent("b")
        try Self.generate(into: a, mutant: nil)
        try Self.generate(into: b, mutant: nil)
        #expect(!(try DriftReport.compare(baseline: a, current: b)).failed)
        // Drop one case from the current file: a silent removal is a violation.
        let url = b.appendingPathComponent("state_digest.json")
        var json = try JSONValue.parse(try String(contentsOf: url, encoding: .utf8))
        guard case .object(var members) = json, let i = members.firstIndex(where: { $0.0 == "cases" }), case .array(var cases) = members[i].1 else {
            Issue.record("unexpected layout"); return
        }
        let removedID = cases.removeLast()["id"]!.stringValue!
        members[i].1 = .array(cases)
        json = .object(members)
        try json.pretty.write(to: url, atomically: true, encoding: .utf8)
        let r = try DriftReport.compare(baseline: a, current: b)
        #expect(r.failed)
        #expect(r.formats.first { $0.format == "state_digest" }?.removed == [removedID])
    }

    @Test func driftCommandExitCodes() throws {
        let root = try Fixtures.makeDirectory()
        let baseline = root.appendingPathComponent("baseline")
        try Self.generate(into: baseline, mutant: .nodeUsesLeafSeparator)
        let fail = try CLIRun(["drift", "--baseline", baseline.path])
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("DRIFT state_digest/fold/index/n2: expected changed under wire_version 6"))
        let same = try CLIRun(["drift", "--baseline", Fixtures.packageRoot.appendingPathComponent("vectors").path])
        #expect(same.status == 0)
        #expect(same.lastLine == "drift: no violations")
        #expect(try CLIRun(["drift"]).status == 2)
    }

    /// Two mutants through the real process boundary: the runner fails them (exit 1) and names
    /// the killing cases; the catalog's in-process kill test covers every mutant.
    @Test(arguments: [Mutant.datesInMilliseconds, .countNotCompared])
    func runnerKillsMutantServe(_ m: Mutant) throws {
        let r = try CLIRun(["run", "--format", m.format, "--", Fixtures.executable, "serve", "--mutant", m.rawValue])
        #expect(r.status == 1)
        let committed = try VectorFile.read(format: m.format, in: Fixtures.vectors)
        let killers = MutantMatrix.compute([committed], mutants: [m])[0].killedBy
        #expect(!killers.isEmpty)
        for id in killers.prefix(3) { #expect(r.stdout.contains("FAIL \(id) "), "\(id)") }
    }

    @Test func serveRejectsAnUnknownMutant() throws {
        let r = try CLIRun(["serve", "--mutant", "no.such-bug"])
        #expect(r.status == 2)
        #expect(r.stderr.hasPrefix("error: no mutant no.such-bug"))
    }
}

import Foundation
import Testing

/// Mutation testing of the second-language example (issue 12, item 5), a sample of it: the table of
/// 46 realistic bugs lives beside the testee it mutates, in `examples/python/testee_mutants.py`,
/// which applies each to a copy of `testee.py` and drives it with `conformance run --format F
/// --fail-fast`. `.ci/run` runs every entry against the release build; here the table is checked
/// against today's testee.py and two entries (one per format the testee implements) are run
/// against the debug build, so a contributor sees a broken kill or a stale snippet locally.
@Suite struct PythonTesteeMutationTests {
    static let script = Fixtures.packageRoot.appendingPathComponent("examples/python/testee_mutants.py").path

    @Test func tableAppliesToTheTesteeExactlyOnceEach() throws {
        let r = try CLIRun(["python3", Self.script, "--check-table"], executable: "/usr/bin/env")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let line = try #require(r.stdout.split(separator: "\n").last)
        // "table: 46 mutants, every edit applies exactly once": at least 30 of them.
        let count = Int(line.split(separator: " ")[1]) ?? 0
        #expect(line.hasSuffix("mutants, every edit applies exactly once") && count >= 30, "\(line)")
    }

    @Test func aSampleIsKilledByTheVectorsOfItsFormat() throws {
        let sample = ["json-escapes-b-f", "text-set-utf16-order"]
        let r = try CLIRun(["python3", Self.script, "--conformance", Fixtures.executable] + sample.flatMap { ["--only", $0] }, executable: "/usr/bin/env")
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("killed   json-escapes-b-f (reconcile) by reconcile/"))
        #expect(r.stdout.contains("killed   text-set-utf16-order (state_digest) by state_digest/"))
        #expect(r.stdout.split(separator: "\n").last == "2 passed, 0 failed")
    }

    /// A mutant that changes nothing the vectors see is reported as a survivor, exit 1: the check
    /// can fail.
    @Test func aSurvivorFailsTheCheck() throws {
        let dir = try Fixtures.makeDirectory()
        // The vectors directory holds only the toy file, so the state_digest run selects nothing:
        // the run judges nothing, which the script must count as a survivor, not as a kill.
        let r = try CLIRun(["python3", Self.script, "--conformance", Fixtures.executable,
                                "--vectors", dir.appendingPathComponent("toy").path, "--only", "text-set-utf16-order"], executable: "/usr/bin/env")
        #expect(r.status == 1)
        #expect(r.stdout.contains("SURVIVED text-set-utf16-order (state_digest)"))
        #expect(r.stdout.split(separator: "\n").last == "0 passed, 1 failed")
    }
}

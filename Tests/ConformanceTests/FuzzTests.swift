import Conformance
import Foundation
import Testing
import Vectors

/// `conformance fuzz` (issue 13): the reference against itself finds nothing, mutants are found
/// without the golden vectors, differences shrink and replay with `run`, seeds reproduce, and the
/// exit codes. Budgets are counted in cases, never in seconds, so a slow debug machine changes how
/// long a test takes, never what it asserts.
@Suite struct FuzzTests {
    static func options(_ command: [String], seed: UInt64, cases: Int, formats: [String] = [], skip: [String] = []) -> FuzzOptions {
        var o = FuzzOptions(command: command, seed: seed)
        o.budget = .cases(cases)
        o.selection = CaseSelection(skip: skip.map(IDPattern.init), formats: formats)
        o.timeoutMultiplier = 4
        o.shrinkSeconds = 30
        o.shrinkAttempts = 400
        return o
    }

    /// Every pair of every generator, a few cases each, through the process boundary: the reference
    /// answers its own inputs as the in-process reference does (JSON round trips of adversarial
    /// text and integers included). bucketize is left out: its 65,536-leaf inputs take seconds in
    /// a debug build (the dense run below covers it with small counts).
    @Test func referenceAgainstItselfFindsNothing() throws {
        let r = try Fuzzer.run(options: Self.options(Fixtures.serve, seed: 0x5eed_0013, cases: 240, skip: ["fuzz/reconcile/bucketize/*"]))
        #expect(r.differences.isEmpty, "\(FuzzReport.render(r, outDirectory: nil))")
        #expect(r.totals.failed == 0 && r.totals.skipped == 0)
        #expect(r.totals.passed == 240)
        #expect(r.totals.mutated > 0 && r.totals.mutated < 240)
        #expect(r.exitCode == 0)
        #expect(r.summaryLine == "240 passed, 0 failed")
        // Every generator's format is fuzzed, and every op the reference has except the HTTP scenarios.
        let fuzzed = Set(r.plan.targets.map(\.format))
        #expect(fuzzed == Set(Reference.handlers.map(\.format)))
        #expect(r.plan.notFuzzed.map(\.name).sorted() == ["pairing/scenario", "revocation/scenario"])
    }

    @Test func referenceAgainstItselfDenseOnDigestsInTwoJobs() throws {
        var o = Self.options(Fixtures.serve, seed: 7, cases: 400, formats: ["state_digest", "reconcile"])
        o.jobs = 2
        let r = try Fuzzer.run(options: o)
        #expect(r.differences.isEmpty)
        #expect(r.summaryLine == "400 passed, 0 failed")
    }

    /// Mutants of several formats, served in a process of their own, each found within a fixed
    /// number of cases of its format with no golden vector involved.
    static let sampleBudget: [String: Int] = [
        "state_digest.dates-in-milliseconds": 200,
        "reconcile.frame-members-alphabetical": 200,
        "sync_offer.eight-sends": 200,
        "signin.lenient-integer-inputs": 200,
        "device_list.csv-uppercase-accepted": 200,
        "account_state.subkey-ignores-salt": 200,
    ]
    static let sampleNames = sampleBudget.keys.sorted()

    @Test(arguments: FuzzTests.sampleNames)
    func mutantIsFound(_ name: String) throws {
        let m = try #require(Mutant(rawValue: name))
        var o = Self.options(Fixtures.serve + ["--mutant", m.rawValue], seed: 0x13, cases: Self.sampleBudget[name] ?? 400, formats: [m.format])
        o.stopAfter = 1
        o.shrinkSeconds = 0
        let r = try Fuzzer.run(options: o)
        #expect(r.totals.failed >= 1, "\(m.rawValue) not found in \(r.totals.cases) cases")
        #expect(r.exitCode == 1)
        #expect(r.differences.count == 1)
    }

    /// One difference end to end: shrunk to a smaller input that still fails the mutant, written
    /// as a §2 file, replayed by `run` (the mutant fails it, the reference passes it), and printed
    /// as `run` prints a failure, leaf diagnosis included.
    @Test func shrinkWriteReplay() throws {
        let dir = try Fixtures.makeDirectory()
        let out = dir.appendingPathComponent("found")
        let json = dir.appendingPathComponent("fuzz.json").path
        let mutant = ["serve", "--mutant", "state_digest.dates-in-milliseconds"]
        let r = try CLIRun(["fuzz", "--format", "state_digest", "--run", "fuzz/state_digest/leaf/*", "--seed", "7", "--cases", "50",
                            "--stop-after", "1", "--out", out.path, "--report", "json=\(json)", "--timeout-multiplier", "4", "--",
                            Fixtures.executable] + mutant)
        #expect(r.status == 1)
        #expect(r.stderr.contains("fuzz: seed 0x0000000000000007"))
        #expect(r.stdout.contains("seed: 0x0000000000000007"))
        #expect(r.lastLine.hasSuffix(" passed, 1 failed"))
        #expect(r.stdout.contains("FAIL fuzz/state_digest/leaf/"))
        #expect(r.stdout.contains("first differing leaf field: "))

        let report = try JSONValue.parse(String(decoding: try Data(contentsOf: URL(fileURLWithPath: json)), as: UTF8.self))
        let d = try #require(report["differences"]?.arrayValue?.first)
        let minimal = try #require(d["input"]), original = try #require(d["original_input"])
        #expect(minimal.compact.utf8.count < original.compact.utf8.count)
        #expect((d["shrink_steps"]?.int64Value ?? 0) > 0)
        #expect(report["summary"]?.stringValue == r.lastLine)

        // The written file: the §2 layout, the minimal input, the reference's answer.
        let file = try JSONValue.parse(String(decoding: try Data(contentsOf: out.appendingPathComponent("state_digest.json")), as: UTF8.self))
        #expect(file["format"]?.stringValue == "state_digest")
        let c = try #require(file["cases"]?.arrayValue?.first)
        #expect(c["input"] == minimal)
        #expect(c["op"]?.stringValue == "leaf")
        #expect(c["id"]?.stringValue?.hasPrefix("state_digest/leaf/fuzz/0x0000000000000007-") == true)
        let handler = try #require(Reference.handler(for: "state_digest"))
        #expect(c["expected"]?["output"] == (try handler.run(op: "leaf", input: minimal)))

        let replayMutant = try CLIRun(["run", "--vectors", out.path, "--", Fixtures.executable] + mutant)
        #expect(replayMutant.status == 1)
        #expect(replayMutant.lastLine == "0 passed, 1 failed, 0 skipped")
        let replayReference = try CLIRun(["run", "--vectors", out.path, "--", Fixtures.executable, "serve"])
        #expect(replayReference.status == 0)
        #expect(replayReference.lastLine == "1 passed, 0 failed, 0 skipped")
    }

    /// The same seed gives the same inputs (and the reference the same answers); another seed others.
    @Test func sameSeedSameCases() {
        let sel = CaseSelection(formats: ["state_digest", "reconcile", "sync_offer", "device_list", "account_state", "pairing", "revocation"])
        let a = FuzzCensus.samples(seed: 99, count: 3, selection: sel)
        let b = FuzzCensus.samples(seed: 99, count: 3, selection: sel)
        let c = FuzzCensus.samples(seed: 100, count: 3, selection: sel)
        #expect(a.count == b.count && a.count > 60)
        #expect(a.map(\.id) == b.map(\.id))
        #expect(a.map(\.input) == b.map(\.input))
        #expect(zip(a, b).allSatisfy { $0.expected == $1.expected })
        #expect(a.map(\.input) != c.map(\.input))
    }

    @Test func usageErrorsExitTwo() throws {
        for args in [["fuzz", "--bogus", "--", "x"], ["fuzz", "--format", "nope", "--", "x"], ["fuzz", "--run", "zzz/*", "--", "x"],
                     ["fuzz", "--seconds", "1"], ["fuzz", "--cases", "0", "--", "x"], ["fuzz", "--cases", "3", "--seconds", "1", "--", "x"],
                     ["fuzz", "--seed", "0xzz", "--", "x"], ["fuzz", "--report", "xml=a", "--", "x"], ["fuzz", "--jobs", "0", "--", "x"]] {
            let r = try CLIRun(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.stderr.hasPrefix("error: "), "\(args)")
        }
    }

    @Test func unrunnableTesteeExitsThree() throws {
        let missing = try CLIRun(["fuzz", "--cases", "5", "--", "/nonexistent/testee"])
        #expect(missing.status == 3)
        #expect(missing.stderr.contains("testee could not be run"))
        let silent = try CLIRun(["fuzz", "--cases", "5", "--", "/bin/true"])
        #expect(silent.status == 3)
    }

    /// Only advertised ops are fuzzed: the Python example testee implements state_digest and
    /// reconcile, so nothing else is sent to it and the closing line counts only those.
    @Test func onlyAdvertisedOpsAreFuzzed() throws {
        var o = Self.options(["python3", Fixtures.pythonTestee], seed: 3, cases: 60, skip: ["fuzz/reconcile/bucketize/*"])
        o.shrinkSeconds = 0
        let r = try Fuzzer.run(options: o)
        #expect(Set(r.plan.targets.map(\.format)) == ["state_digest", "reconcile"])
        #expect(r.plan.notAdvertised.contains("envelope/box_open"))
        #expect(r.totals.cases == 60)
    }
}

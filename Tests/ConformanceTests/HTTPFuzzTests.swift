import Conformance
import Foundation
import Testing
import Vectors

/// `conformance fuzz --http` (issue 13, SPEC §6.12): generated scenarios recorded against the
/// reference service pass against the reference service over sockets, find the service mutants
/// with no golden vector, shrink, and replay with `conformance http --vectors`. Budgets are cases.
@Suite(.serialized) struct HTTPFuzzTests {
    static func options(seed: UInt64, cases: Int) -> FuzzOptions {
        var o = FuzzOptions(command: [], seed: seed)
        o.budget = .cases(cases)
        o.timeoutMultiplier = 4
        o.shrinkSeconds = 30
        o.shrinkAttempts = 300
        return o
    }

    static func service(_ format: String, _ mutant: Mutant? = nil) -> any HTTPService {
        format == "pairing" ? PairingService(mutant: mutant) : IdentityService(mutant: mutant)
    }

    /// Over real sockets (races included), the reference's recorded answers are what the
    /// reference answers: HTTP fuzzing of the reference finds nothing.
    @Test(arguments: ["pairing", "revocation"])
    func referenceServiceAgainstItselfFindsNothing(_ format: String) throws {
        let r = try HTTPTests.withServer(.service(Self.service(format))) { port in
            try HTTPFuzzer.run(format: format, target: .url(host: "127.0.0.1", port: port), options: Self.options(seed: 0x5eed_0013, cases: 150))
        }
        #expect(r.differences.isEmpty, "\(FuzzReport.render(r, outDirectory: nil))")
        #expect(r.summaryLine == "150 passed, 0 failed")
        #expect(r.plan.targets.map(\.name) == ["\(format)/scenario"])
        #expect(r.exitCode == 0)
    }

    /// A sample of service mutants, one per fault class: each is found within 400 scenarios, and
    /// the minimal scenario still fails the mutant and passes the reference.
    @Test(arguments: ["pairing.uppercase-hex-accepted", "pairing.pair-check-then-act-race", "pairing.compare-skips-last-byte",
                      "pairing.paired-before-save", "revocation.remove-toggles-revocation", "revocation.remove-ignores-account"])
    func serviceMutantIsFound(_ name: String) throws {
        let m = try #require(Mutant(rawValue: name))
        var o = Self.options(seed: 0x5eed, cases: 400)
        o.stopAfter = 1
        let r = try HTTPTests.withServer(.service(Self.service(m.format, m))) { port in
            try HTTPFuzzer.run(format: m.format, target: .url(host: "127.0.0.1", port: port), options: o)
        }
        let d = try #require(r.differences.first, "\(name) not found in 400 scenarios")
        #expect(r.exitCode == 1)
        let minimal = try Scenario.parse(d.minimal.input)
        let original = try Scenario.parse(d.original.input)
        #expect(minimal.steps.count <= original.steps.count)
        #expect(!ScenarioInterpreter(transport: InProcessTransport(Self.service(m.format, m))).run(minimal).passed)
        #expect(ScenarioInterpreter(transport: InProcessTransport(Self.service(m.format))).run(minimal).passed)
    }

    /// The generators reach the battery's classes (issue 24 item 4): in 400 drafts each class
    /// of route spelling, Authorization shape, body shape and hook occurs, so what the scenario
    /// battery misses in combination the fuzzer can still reach.
    @Test(arguments: ["pairing", "revocation"])
    func generatorsReachTheBatteryClasses(_ format: String) throws {
        let g = try #require(HTTPFuzzGenerators.generator(for: format))
        var seen = Set<String>()
        for n in 0..<400 {
            var rng = FuzzRNG(seed: 24, format: format, op: "scenario", n: n)
            for step in g.draft(rng: &rng).steps {
                let r = step.request
                let path = r["path"]?.stringValue ?? ""
                let method = r["method"]?.stringValue ?? ""
                let auth = (r["headers"]?.arrayValue ?? []).filter { $0.arrayValue?.first?.stringValue == "Authorization" }
                let text = r["text"]?.stringValue ?? ""
                if path.contains("%") { seen.insert("percent-encoded path") }
                if path.hasSuffix("/") || path.contains("//") { seen.insert("slash") }
                if path.contains("?") { seen.insert("query") }
                if ["PUT", "PATCH", "OPTIONS", "HEAD", "get", "post"].contains(method) { seen.insert("other method") }
                if auth.count >= 2 { seen.insert("repeated Authorization") }
                if auth.contains(where: { ($0.arrayValue?.last?.stringValue ?? "").hasSuffix(" ") }) { seen.insert("trailing whitespace") }
                if auth.contains(where: { ($0.arrayValue?.last?.stringValue ?? "").hasPrefix("bearer ") }) { seen.insert("lowercase scheme") }
                if text.hasPrefix("\u{FEFF}") || text.contains("\u{FEFF}{") { seen.insert("byte-order mark") }
                if text.unicodeScalars.contains(Unicode.Scalar(0)) { seen.insert("UTF-16") }
                if text.contains("NaN") { seen.insert("NaN") }
                if text.utf8.count == HTTPEdges.bodyFloor { seen.insert("64 KiB") }
                let fullwidth = (text + (r["json"]?.compact ?? "")).unicodeScalars.contains { (0xFF10...0xFF19).contains($0.value) }
                if fullwidth { seen.insert("full-width digits") }
                if path == "/conformance/reset" { seen.insert("reset mid-scenario") }
                if format == "revocation", path == "/conformance/session", step.name.hasPrefix("step-") { seen.insert("session hook mid-scenario") }
            }
        }
        var want: Set<String> = ["percent-encoded path", "slash", "query", "other method", "repeated Authorization", "trailing whitespace",
                                 "lowercase scheme", "byte-order mark", "UTF-16", "NaN", "64 KiB", "full-width digits", "reset mid-scenario"]
        if format == "revocation" { want.insert("session hook mid-scenario") }
        #expect(want.subtracting(seen).isEmpty, "classes never drawn: \(want.subtracting(seen).sorted())")
    }

    /// The same seed gives the same scenarios (the recorder included).
    @Test func sameSeedSameScenarios() throws {
        for format in ["pairing", "revocation"] {
            let g = try #require(HTTPFuzzGenerators.generator(for: format))
            for n in [0, 7, 99] {
                let a = try #require(HTTPFuzzer.prepare(n, format: format, generator: g, seed: 42))
                let b = try #require(HTTPFuzzer.prepare(n, format: format, generator: g, seed: 42))
                let c = try #require(HTTPFuzzer.prepare(n, format: format, generator: g, seed: 43))
                #expect(a.1.input == b.1.input)
                #expect(a.1.input != c.1.input)
                #expect(a.1.id == "fuzz/\(format)/scenario/\(n)")
            }
        }
    }

    /// The command line: a service started on PORT, the minimal case written, replayed by
    /// `conformance http --vectors`, failing the mutant and passing the reference.
    @Test func cliFindsWritesAndReplays() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("httpfuzz-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let mutant = ["serve-http", "identity", "--mutant", "revocation.remove-answers-200"]
        let found = try CLIRun(["fuzz", "--http", "--format", "revocation", "--seed", "5", "--cases", "200", "--stop-after", "1",
                                "--timeout-multiplier", "4", "--out", out.path, "--", Fixtures.executable] + mutant)
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains("FAIL fuzz/revocation/scenario/"))
        #expect(found.stdout.contains("expected status 204, got 200"))
        #expect(found.stdout.contains("seed: 0x0000000000000005"))
        let file = try JSONValue.parse(String(decoding: try Data(contentsOf: out.appendingPathComponent("revocation.json")), as: UTF8.self))
        let cases = try #require(file["cases"]?.arrayValue)
        #expect(cases.count == 1)
        #expect(cases[0]["op"]?.stringValue == "scenario")
        #expect(cases[0]["id"]?.stringValue?.hasPrefix("revocation/scenario/fuzz/0x0000000000000005-") == true)

        let replayBad = try CLIRun(["http", "--vectors", out.path, "--format", "revocation", "--", Fixtures.executable] + mutant)
        #expect(replayBad.status == 1, "\(replayBad.stdout)")
        #expect(replayBad.lastLine == "0 passed, 1 failed, 0 skipped")
        let replayGood = try CLIRun(["http", "--vectors", out.path, "--format", "revocation", "--", Fixtures.executable, "serve-http", "identity"])
        #expect(replayGood.status == 0, "\(replayGood.stdout)")
        #expect(replayGood.lastLine == "1 passed, 0 failed, 0 skipped")
    }

    @Test func usageErrors() throws {
        for argv in [["fuzz", "--http", "--", "x"], ["fuzz", "--http", "--format", "signin", "--", "x"],
                     ["fuzz", "--url", "http://127.0.0.1:1", "--format", "pairing"],
                     ["fuzz", "--http", "--format", "pairing", "--run", "fuzz/pairing/*", "--", "x"],
                     ["fuzz", "--http", "--format", "pairing"]] {
            let r = try CLIRun(argv)
            #expect(r.status == 2, "\(argv): \(r.stdout)\(r.stderr)")
        }
        let dead = try CLIRun(["fuzz", "--http", "--format", "pairing", "--cases", "1", "--url", "http://127.0.0.1:1"])
        #expect(dead.status == 3, "\(dead.stdout)\(dead.stderr)")
    }
}

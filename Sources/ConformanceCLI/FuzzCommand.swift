import Conformance
import Foundation
import Vectors

/// `conformance fuzz [options] -- <command> [args...]`: differential fuzzing against the reference.
enum FuzzCommand {
    static let help = """
    OVERVIEW: Differential fuzzing: send generated inputs to a testee as ordinary cases (SPEC.md
              §6.12, ids fuzz/<format>/<op>/<n>), answer each with the reference in process,
              judge as `run` does, shrink every difference to a minimal input and write it as a
              replayable vector to <out>/<format>.json.

    USAGE: conformance fuzz [options] -- <command> [args...]
           conformance fuzz --http --format pairing|revocation [options] -- <service command>
           conformance fuzz --http --format pairing|revocation [options] --url http://127.0.0.1:PORT

    SELECTION (only ops the testee advertises are fuzzed):
      --format NAME               Only this format. Repeatable.
      --run PATTERN               Only format/op pairs whose case ids match (glob over
                                  fuzz/<format>/<op>/<n>, matched with n = 0). Repeatable.
      --run-file FILE             --run for each line of FILE. Repeatable.
      --skip PATTERN              Leave out matching pairs. Repeatable.

    BUDGET AND REPRODUCTION:
      --seed S                    Seed (decimal or 0x hex; default: random, printed). The same
                                  seed, suite version and selection give the same inputs.
      --cases N                   Send N cases in all (round robin over the pairs).
      --seconds T                 Run for T seconds (default 60).
      --jobs N                    N testee processes in parallel (default 1).
      --invalid-percent P         Percent of cases mutated into invalid inputs (default 50).
      --max-differences N         Differences kept per format/op before it is retired (default 3).
      --stop-after N              Stop the run after N differences in all.
      --shrink-seconds T          Time spent shrinking one difference (default 20).

    HTTP MODE (SPEC.md §6.12, §13):
      --http                      Fuzz the HTTP service of one format (--format pairing or
                                  revocation): each case is a generated scenario whose
                                  expectations are the reference service's answers, played as
                                  conformance http plays one. The command after -- starts the
                                  service on the port in $PORT (one service per job); replay
                                  the findings with conformance http --vectors DIR.
      --url URL                   A service already listening (forces --jobs 1).

    EXECUTION:
      --timeout-multiplier X      Scale the 10 s case and 30 s handshake deadlines.
      --max-restarts N            Respawns allowed after crash/timeout/protocol_error (default 10).
      --no-diagnose               Do not send diagnostic leaf cases for a wrong root.

    OUTPUT:
      --out DIR                   Where minimal cases are written (default: fuzz-findings),
                                  only when a difference is found. Replay them with
                                  conformance run --vectors DIR -- <command>.
      --report json=PATH          Write a JSON report.
      -h, --help                  Show help.

    EXIT CODES:
      0 no difference found (and at least one case executed); 1 a difference, or nothing
      executed; 2 usage error; 3 the testee could not be run at all.
    """

    struct Parsed {
        var selection = CaseSelection()
        var seed: UInt64?
        var cases: Int?
        var seconds: Double?
        var jobs = 1
        var invalidPercent = 50
        var maxDifferences = 3
        var stopAfter: Int?
        var shrinkSeconds = 20.0
        var multiplier = 1.0
        var maxRestarts = 10
        var diagnose = true
        var out = "fuzz-findings"
        var jsonReport: String?
        var command: [String] = []
        var http = false
        var url: String?
    }

    typealias UsageError = ArgvReader.UsageError

    static func parse(_ argv: [String]) throws(UsageError) -> Parsed {
        var p = Parsed()
        var r = ArgvReader(argv)
        while let a = r.next() {
            if try r.shared(a, selection: &p.selection, jobs: &p.jobs, multiplier: &p.multiplier, maxRestarts: &p.maxRestarts, diagnose: &p.diagnose) {
                continue
            }
            switch a {
            case "--seed":
                let v = try r.value(a)
                guard let s = FuzzSeed.parse(v) else { throw UsageError(message: "--seed: \"\(v)\" is not a 64-bit decimal or 0x hex number") }
                p.seed = s
            case "--cases":
                p.cases = try r.number(a, Int.self)
                guard p.cases! >= 1 else { throw UsageError(message: "--cases must be at least 1") }
            case "--seconds":
                p.seconds = try r.number(a, Double.self)
                guard p.seconds! > 0, p.seconds!.isFinite else { throw UsageError(message: "--seconds must be positive") }
            case "--invalid-percent":
                p.invalidPercent = try r.number(a, Int.self)
                guard (0...100).contains(p.invalidPercent) else { throw UsageError(message: "--invalid-percent takes 0 to 100") }
            case "--max-differences":
                p.maxDifferences = try r.number(a, Int.self)
                guard p.maxDifferences >= 1 else { throw UsageError(message: "--max-differences must be at least 1") }
            case "--stop-after":
                p.stopAfter = try r.number(a, Int.self)
                guard p.stopAfter! >= 1 else { throw UsageError(message: "--stop-after must be at least 1") }
            case "--shrink-seconds":
                p.shrinkSeconds = try r.number(a, Double.self)
                guard p.shrinkSeconds >= 0, p.shrinkSeconds.isFinite else { throw UsageError(message: "--shrink-seconds must be 0 or more") }
            case "--http": p.http = true
            case "--url": p.url = try r.value(a)
            case "--out": p.out = try r.value(a)
            case "--report":
                let v = try r.value(a)
                guard v.hasPrefix("json=") else { throw UsageError(message: "--report takes json=PATH, not \"\(v)\"") }
                p.jsonReport = String(v.dropFirst(5))
            default:
                throw UsageError(message: "unknown option \(a) (the testee command goes after --)")
            }
        }
        p.command = r.command
        if p.cases != nil && p.seconds != nil { throw UsageError(message: "--cases and --seconds exclude each other") }
        if p.url != nil && !p.http { throw UsageError(message: "--url is for --http (a stdin/stdout testee is a command after --)") }
        if p.http {
            guard p.selection.formats.count == 1, let f = p.selection.formats.first, HTTPRunner.services[f] != nil else {
                throw UsageError(message: "--http fuzzes one HTTP service: give --format pairing or --format revocation")
            }
            guard p.selection.run.isEmpty && p.selection.skip.isEmpty else { throw UsageError(message: "--http takes --format, not --run or --skip") }
            if p.url != nil && !p.command.isEmpty { throw UsageError(message: "give --url or a command after --, not both") }
        }
        return p
    }

    /// The options for a parsed command line (exposed for the benchmark).
    static func options(_ p: Parsed) -> FuzzOptions {
        var seed = p.seed ?? 0
        if p.seed == nil { var g = SystemRandomNumberGenerator(); seed = g.next() }
        var o = FuzzOptions(command: p.command, seed: seed)
        o.selection = p.selection
        if let n = p.cases { o.budget = .cases(n) } else { o.budget = .seconds(p.seconds ?? 60) }
        o.jobs = p.jobs
        o.invalidPercent = p.invalidPercent
        o.maxDifferencesPerTarget = p.maxDifferences
        o.stopAfter = p.stopAfter
        o.shrinkSeconds = p.shrinkSeconds
        o.timeoutMultiplier = p.multiplier
        o.maxRestarts = p.maxRestarts
        o.diagnose = p.diagnose
        return o
    }

    /// `--http`: the service of one format, started by the command or at `--url`.
    static func runHTTP(_ p: Parsed) -> Int32 {
        let format = p.selection.formats[0]
        let target: HTTPFuzzer.Target
        if let u = p.url {
            guard let (host, port) = HTTPCommand.parseURL(u) else { return CLI.fail("--url \(u): expected http://HOST:PORT with an IPv4 loopback host") }
            target = .url(host: host, port: port)
        } else {
            guard !p.command.isEmpty else {
                return CLI.fail("no service: give --url http://127.0.0.1:PORT, or the command that starts it after --, e.g. -- conformance serve-http \(HTTPRunner.services[format]!)")
            }
            target = .command(p.command)
        }
        var options = options(p)
        if isatty(1) == 1 { options.progress = progressLine }
        FileHandle.standardError.write(Data("fuzz: seed \(FuzzSeed.text(options.seed))\n".utf8))
        var result: FuzzResult
        do { result = try HTTPFuzzer.run(format: format, target: target, options: options) } catch {
            switch error {
            case .usage(let m): return CLI.fail(m)
            case .cannotStart(let m): return CLI.fail("the service could not be reached: \(m)", code: 3)
            }
        }
        return finish(&result, p)
    }

    static let progressLine: @Sendable (FuzzProgress) -> Void = { pr in
        let line = "\r\u{1b}[K[fuzz \(String(format: "%.1f", pr.seconds)) s] \(pr.cases) cases, \(pr.differences) difference(s)  \(pr.lastID)"
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    /// Writes the minimal cases and the reports; the exit code.
    static func finish(_ result: inout FuzzResult, _ p: Parsed) -> Int32 {
        if isatty(1) == 1 { FileHandle.standardOutput.write(Data("\r\u{1b}[K".utf8)) }
        var outDir: String?
        if !result.differences.isEmpty {
            do {
                _ = try FuzzWriter.write(&result, to: URL(fileURLWithPath: p.out), handlers: Reference.handlers)
                outDir = p.out
            } catch {
                FileHandle.standardError.write(Data("error: cannot write the minimal cases to \(p.out): \(error.localizedDescription)\n".utf8))
            }
        }
        if let path = p.jsonReport { RunCommand.write(FuzzJSONReport.render(result), to: path) }
        print(FuzzReport.render(result, outDirectory: outDir), terminator: "")
        return result.exitCode
    }

    static func run(_ argv: [String]) -> Int32 {
        let head = argv.firstIndex(of: "--").map { argv[..<$0] } ?? argv[...]
        if argv.isEmpty || head.contains("-h") || head.contains("--help") {
            print(help)
            return argv.isEmpty ? 2 : 0
        }
        let p: Parsed
        do { p = try parse(argv) } catch { return CLI.fail(error.message) }
        let handlers = Reference.handlers
        if let unknown = p.selection.formats.first(where: { f in !handlers.contains { $0.format == f } }) {
            return CLI.fail("--format \(unknown): no such format (formats: \(handlers.map(\.format).joined(separator: ", ")))")
        }
        let unmatched = FuzzPlan.unmatchedRunPatterns(handlers: handlers, selection: p.selection)
        guard unmatched.isEmpty else {
            return CLI.fail("--run \(unmatched.map(\.text).joined(separator: ", ")) matches no format/op (ids are fuzz/<format>/<op>/<n>)")
        }
        if p.http { return runHTTP(p) }
        guard !p.command.isEmpty else { return CLI.fail("no testee command: put it after --, e.g. conformance fuzz -- .build/debug/conformance serve") }

        var options = options(p)
        if isatty(1) == 1 { options.progress = progressLine }
        FileHandle.standardError.write(Data("fuzz: seed \(FuzzSeed.text(options.seed))\n".utf8))
        var result: FuzzResult
        do { result = try Fuzzer.run(options: options) } catch {
            return CLI.fail("testee could not be run: \(error)\n(conformance selftest -- \(p.command.joined(separator: " ")) checks the protocol step by step)", code: 3)
        }
        return finish(&result, p)
    }
}

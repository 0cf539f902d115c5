import Conformance
import Foundation
import Vectors

/// `conformance run [options] -- <command> [args...]`: drive a testee through the vectors.
enum RunCommand {
    static let help = """
    OVERVIEW: Run every selected vector against a testee speaking the runner protocol
              (SPEC.md §6) on stdin/stdout, judge each answer, and report.

    USAGE: conformance run [options] -- <command> [args...]
           conformance run --list [selection options]

    SELECTION:
      --vectors DIR               Vector directory (default: ./vectors).
      --run PATTERN               Only cases whose id matches (glob, * = any run of
                                  characters). Repeatable; a pattern matching nothing is
                                  a usage error.
      --run-file FILE             --run for each line of FILE (ids or globs; blank lines
                                  and # comments left out). Repeatable.
      --skip PATTERN              Leave out matching cases. Repeatable.
      --format NAME               Only this format. Repeatable.
      --shard K/N                 Only shard K of N (1 <= K <= N), by SHA-256 of the id.
      --list                      Print the selected case ids and exit 0.

    SCOPE (a run that executes no case always fails):
      --require-all               Every skipped case is a failure (a release gate that
                                  claims full conformance).
      --require FORMAT[/OP]       Skipped cases of this format or op are failures, and so
                                  is selecting none of them. Repeatable.

    EXECUTION:
      --jobs N                    N testee processes in parallel (default 1).
      --timeout-multiplier X      Scale the 10 s case and 30 s handshake deadlines.
      --max-restarts N            Respawns allowed after crash/timeout/protocol_error
                                  (default 10); past it, the rest is not run.
      --fail-fast                 Stop after the first unexpected failure.
      --no-diagnose               Do not send diagnostic leaf cases for wrong roots.
      --selftest                  Run `conformance selftest` first; stop (exit 1) if a
                                  protocol check fails.

    EXPECTATIONS AND REPORTS:
      --expected-failures FILE    Lines `<id-glob> <failure-kind>  # comment`.
      --update-expected-failures  Rewrite FILE with exactly the current failures.
      --report json=PATH          Write a JSON report.
      --report junit=PATH         Write a JUnit XML report.
      --report html=PATH          Write one self-contained HTML report.
      -h, --help                  Show help.

    FAILURE KINDS:
      wrong_output, wrong_error, unexpected_acceptance, unexpected_rejection, error,
      crash, timeout, protocol_error

    EXIT CODES:
      0 every selected case passed, failed as expected or was skipped (not required),
      and at least one case was executed; 1 failures (including unexpected passes,
      stale entries, cases not run, required cases skipped, nothing executed); 2 usage
      error; 3 the testee could not be run at all.
    """

    struct Parsed {
        var vectors: URL?
        var selection = CaseSelection()
        var list = false
        var jobs = 1
        var multiplier = 1.0
        var maxRestarts = 10
        var failFast = false
        var diagnose = true
        var expectedFile: String?
        var update = false
        var jsonReport: String?
        var junitReport: String?
        var htmlReport: String?
        var requireAll = false
        var require: [RequiredScope] = []
        var selftest = false
        var command: [String] = []
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
            case "--vectors": p.vectors = URL(fileURLWithPath: try r.value(a))
            case "--shard":
                let v = try r.value(a)
                guard let s = Shard(v) else { throw UsageError(message: "--shard: \"\(v)\" is not K/N with 1 <= K <= N") }
                p.selection.shard = s
            case "--list": p.list = true
            case "--fail-fast": p.failFast = true
            case "--selftest": p.selftest = true
            case "--require-all": p.requireAll = true
            case "--require":
                let v = try r.value(a)
                guard let req = RequiredScope(v) else { throw UsageError(message: "--require takes FORMAT or FORMAT/OP, not \"\(v)\"") }
                p.require.append(req)
            case "--expected-failures": p.expectedFile = try r.value(a)
            case "--update-expected-failures": p.update = true
            case "--report":
                let v = try r.value(a)
                if v.hasPrefix("json=") { p.jsonReport = String(v.dropFirst(5)) } else if v.hasPrefix("junit=") { p.junitReport = String(v.dropFirst(6)) } else if v.hasPrefix("html=") {
                    p.htmlReport = String(v.dropFirst(5))
                } else {
                    throw UsageError(message: "--report takes json=PATH, junit=PATH or html=PATH, not \"\(v)\"")
                }
            default:
                throw UsageError(message: "unknown option \(a) (the testee command goes after --)")
            }
        }
        p.command = r.command
        if p.update && p.expectedFile == nil { throw UsageError(message: "--update-expected-failures needs --expected-failures FILE") }
        return p
    }

    static func run(_ argv: [String]) -> Int32 {
        if argv.isEmpty || argv.first == "-h" || argv.first == "--help" || (argv.firstIndex(of: "--").map { argv[..<$0] } ?? argv[...]).contains(where: { $0 == "-h" || $0 == "--help" }) {
            print(help)
            return argv.isEmpty ? 2 : 0
        }
        let p: Parsed
        do { p = try parse(argv) } catch { return CLI.fail(error.message) }

        let dir = p.vectors ?? CLI.defaultVectorsDirectory()
        let suite: [SuiteCase]
        do { suite = try SuiteLoader.load(directory: dir) } catch { return CLI.fail("cannot load vectors: \(error)") }
        let unmatched = p.selection.unmatchedRunPatterns(in: suite)
        guard unmatched.isEmpty else { return CLI.fail("--run \(unmatched.map(\.text).joined(separator: ", ")) matches no case") }
        if let unknown = p.selection.formats.first(where: { f in !suite.contains { $0.format == f } }) {
            return CLI.fail("--format \(unknown): no such format in \(dir.path)")
        }
        let scope = SuiteScope(suite: suite)
        if let problem = p.require.lazy.compactMap({ $0.problem(in: scope) }).first { return CLI.fail(problem) }
        if p.list {
            for c in p.selection.apply(suite) { print(c.id) }
            return 0
        }
        guard !p.command.isEmpty else { return CLI.fail("no testee command: put it after --, e.g. conformance run -- .build/debug/conformance serve") }

        var expected: ExpectedFailures?
        if let file = p.expectedFile {
            if p.update && !FileManager.default.fileExists(atPath: file) {
                expected = ExpectedFailures(entries: [])
            } else {
                do { expected = try ExpectedFailures.load(URL(fileURLWithPath: file)) } catch { return CLI.fail("\(file): \(error)") }
            }
        }

        var options = RunOptions(command: p.command)
        options.selection = p.selection
        options.jobs = p.jobs
        options.timeoutMultiplier = p.multiplier
        options.maxRestarts = p.maxRestarts
        options.failFast = p.failFast
        options.diagnose = p.diagnose
        options.requireAll = p.requireAll
        options.require = p.require
        options.expectedFailures = p.update ? nil : expected
        let tty = isatty(1) == 1
        if tty {
            options.progress = { done, total, id in
                FileHandle.standardOutput.write(Data("\r\u{1b}[K[\(done)/\(total)] \(id)".utf8))
            }
        }

        if p.selftest {
            let st: SelfTestResult
            do { st = try SelfTest.run(command: p.command, timeoutMultiplier: p.multiplier, scope: scope) } catch {
                return CLI.fail("testee could not be run: \(error)", code: 3)
            }
            let failed = st.entries.filter { !$0.passed }
            if !failed.isEmpty {
                for e in failed { print(e.line) }
                print("selftest: \(st.summaryLine); no vector was run (see conformance selftest --help)")
                return 1
            }
        }

        let result: RunResult
        do { result = try Runner.run(suite: suite, options: options) } catch {
            return CLI.fail("testee could not be run: \(error)\n(conformance selftest -- \(p.command.joined(separator: " ")) checks the protocol step by step)", code: 3)
        }
        if tty { FileHandle.standardOutput.write(Data("\r\u{1b}[K".utf8)) }
        if let w = SuiteScope.warning(result.unknownCapabilities) { FileHandle.standardError.write(Data((w + "\n").utf8)) }

        if let path = p.jsonReport { write(JSONReport.render(result), to: path) }
        if let path = p.junitReport { write(JUnitReport.render(result), to: path) }
        if let path = p.htmlReport { write(HTMLReport.render(result), to: path) }
        if p.update, let file = p.expectedFile {
            let judged = result.records.compactMap { $0.verdict == nil ? nil : $0.id }
            let text = (expected ?? ExpectedFailures(entries: [])).rewritten(failures: result.currentFailures, judged: judged)
            write(text, to: file)
            print("updated \(file): \(result.currentFailures.count) expected failure(s)")
            print(result.summaryLine)
            return result.counts.notRun > 0 ? 1 : 0
        }
        print(ConsoleReport.render(result, expectedFailuresFile: p.expectedFile), terminator: "")
        return result.exitCode
    }

    static func write(_ text: String, to path: String) {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) } catch {
            FileHandle.standardError.write(Data("error: cannot write \(path): \(error.localizedDescription)\n".utf8))
        }
    }
}

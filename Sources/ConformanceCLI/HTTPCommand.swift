import Conformance
import Foundation
import Vectors

/// `conformance http [options] (--url URL | -- CMD...)`: play the scenario vectors against a live
/// HTTP service (SPEC.md §6.13, §13).
enum HTTPCommand {
    static let help = """
    OVERVIEW: Play the scenario cases of one HTTP format (pairing: a TOFU pairing service;
              revocation: an identity service) against a live service over HTTP/1.1,
              judge every answer, and report like 'run' (SPEC.md §6.13, §13).

    USAGE: conformance http --format NAME [options] --url http://127.0.0.1:PORT
           conformance http --format NAME [options] -- <command> [args...]
           conformance http --list [selection options]

      With -- the command starts the service: the runner picks a free port, passes it
      in the environment as PORT (and PIXIE_CONFORMANCE=1), and waits until the port
      accepts connections. Either way the service must expose the test hooks of
      SPEC.md §13.1 (POST /conformance/reset, and for identity POST /conformance/session).

    SELECTION:
      --vectors DIR               Vector directory (default: ./vectors).
      --format NAME               pairing or revocation (needed when both are selected).
      --run PATTERN               Only cases whose id matches (glob). Repeatable.
      --run-file FILE             --run for each line of FILE. Repeatable.
      --skip PATTERN              Leave out matching cases. Repeatable.
      --shard K/N                 Only shard K of N, by SHA-256 of the id.
      --list                      Print the selected scenario ids and exit 0.

    EXECUTION:
      --url URL                   A service already listening (http://HOST:PORT, loopback).
      --timeout-multiplier X      Scale the 10 s per-request and 30 s start deadlines.
      --max-restarts N            Restarts of a -- service that died or hung (default 10).
      --fail-fast                 Stop after the first unexpected failure.

    EXPECTATIONS AND REPORTS:
      --expected-failures FILE    Lines `<id-glob> <failure-kind>  # comment`.
      --update-expected-failures  Rewrite FILE with exactly the current failures.
      --report json=PATH          JSON report (with the timing figures under "http").
      --report junit=PATH         JUnit XML report.
      -h, --help                  Show help.

    FAILURE KINDS:
      wrong_output (an answer that is not the expected one), crash (refused, or the
      connection closed without a whole answer), timeout (no whole answer in time),
      protocol_error (not HTTP/1.1, or a header section or body above the caps),
      error (an unusable case)

    EXIT CODES:
      0 every selected case passed or failed as expected; 1 failures; 2 usage error;
      3 the service could not be reached or started.
    """

    static func run(_ argv: [String]) -> Int32 {
        let options = argv.firstIndex(of: "--").map { Array(argv[..<$0]) } ?? argv
        if argv.isEmpty || options.contains("-h") || options.contains("--help") {
            print(help)
            return argv.isEmpty ? 2 : 0
        }
        var rest = options
        var url: String?
        if let i = rest.firstIndex(of: "--url") {
            guard i + 1 < rest.count else { return CLI.fail("--url needs a value") }
            url = rest[i + 1]
            rest.removeSubrange(i...(i + 1))
        }
        let tail = argv.firstIndex(of: "--").map { Array(argv[$0...]) } ?? []
        let p: RunCommand.Parsed
        do { p = try RunCommand.parse(rest + tail) } catch { return CLI.fail(error.message) }
        guard p.jobs == 1 else { return CLI.fail("--jobs is not supported in HTTP mode (one service, scenarios in order)") }

        let dir = p.vectors ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("vectors")
        let suite: [SuiteCase]
        do { suite = try SuiteLoader.load(directory: dir) } catch { return CLI.fail("cannot load vectors: \(error)") }
        let httpSuite = suite.filter(HTTPRunner.isHTTPCase)
        let unmatched = p.selection.unmatchedRunPatterns(in: httpSuite)
        guard unmatched.isEmpty else { return CLI.fail("--run \(unmatched.map(\.text).joined(separator: ", ")) matches no scenario case") }
        if let unknown = p.selection.formats.first(where: { HTTPRunner.services[$0] == nil }) {
            return CLI.fail("--format \(unknown) is not an HTTP format (\(HTTPRunner.services.keys.sorted().joined(separator: ", ")))")
        }
        if p.list {
            for c in p.selection.apply(httpSuite) { print(c.id) }
            return 0
        }

        let target: HTTPRunOptions.Target
        switch (url, p.command.isEmpty) {
        case (let u?, true):
            guard let (host, port) = parseURL(u) else { return CLI.fail("--url \(u): expected http://HOST:PORT with an IPv4 loopback host") }
            target = .url(host: host, port: port)
        case (nil, false): target = .command(p.command)
        case (nil, true): return CLI.fail("no service: give --url http://127.0.0.1:PORT, or the command that starts it after --")
        case (_?, false): return CLI.fail("give --url or a command after --, not both")
        }

        var expected: ExpectedFailures?
        if let file = p.expectedFile {
            if p.update && !FileManager.default.fileExists(atPath: file) {
                expected = ExpectedFailures(entries: [])
            } else {
                do { expected = try ExpectedFailures.load(URL(fileURLWithPath: file)) } catch { return CLI.fail("\(file): \(error)") }
            }
        }
        var o = HTTPRunOptions(target: target)
        o.selection = p.selection
        o.timeoutMultiplier = p.multiplier
        o.maxRestarts = p.maxRestarts
        o.failFast = p.failFast
        o.expectedFailures = p.update ? nil : expected
        let tty = isatty(1) == 1
        if tty {
            o.progress = { done, total, id in FileHandle.standardOutput.write(Data("\r\u{1b}[K[\(done)/\(total)] \(id)".utf8)) }
        }
        let result: HTTPRunResult
        do { result = try HTTPRunner.run(suite: suite, options: o) } catch {
            switch error {
            case .usage(let m): return CLI.fail(m)
            case .cannotStart(let m): return CLI.fail("the service could not be run: \(m)", code: 3)
            }
        }
        if tty { FileHandle.standardOutput.write(Data("\r\u{1b}[K".utf8)) }
        if let path = p.jsonReport { RunCommand.write(HTTPReport.json(result), to: path) }
        if let path = p.junitReport { RunCommand.write(JUnitReport.render(result.run), to: path) }
        if p.update, let file = p.expectedFile {
            let judged = result.run.records.compactMap { $0.verdict == nil ? nil : $0.id }
            RunCommand.write((expected ?? ExpectedFailures(entries: [])).rewritten(failures: result.run.currentFailures, judged: judged), to: file)
            print("updated \(file): \(result.run.currentFailures.count) expected failure(s)")
            print(result.run.summaryLine)
            return result.run.counts.notRun > 0 ? 1 : 0
        }
        print(HTTPReport.console(result, expectedFailuresFile: p.expectedFile), terminator: "")
        return result.run.exitCode
    }

    /// `http://HOST:PORT` (an optional trailing `/`), HOST an IPv4 address or `localhost`.
    static func parseURL(_ s: String) -> (String, UInt16)? {
        guard s.hasPrefix("http://") else { return nil }
        var rest = s.dropFirst(7)
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let port = UInt16(parts[1]), port > 0, !parts[0].isEmpty else { return nil }
        return (parts[0] == "localhost" ? "127.0.0.1" : String(parts[0]), port)
    }
}

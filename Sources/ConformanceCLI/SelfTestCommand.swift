import Conformance
import Foundation
import Vectors

/// `conformance selftest [options] -- <command> [args...]`: the runner protocol checked against a
/// testee before any vector runs (SPEC.md §6.11).
enum SelfTestCommand {
    static let help = """
    OVERVIEW: Check a testee's runner-protocol behaviour (SPEC.md §6) apart from any vector:
              hello order, version choice and refusal, unknown formats and ops, lines it
              cannot decode, the 16 MiB line limit, shutdown, EOF, flushing. Each check
              starts the testee afresh and names the SPEC rules it pins.

    USAGE: conformance selftest [options] -- <command> [args...]
           conformance selftest --list

    OPTIONS:
      --check ID                  Run only this check (repeatable; selftest/hello always runs).
      --timeout-multiplier X      Scale the waits (30 s hello, 10 s per answer, 2 s exit,
                                  0.5 s of silence).
      --vectors DIR               Name advertised formats/ops that DIR's vectors lack
                                  (default: ./vectors, or the one next to the binary).
      --list                      Print the checks with their rules and exit.
      -h, --help                  Show help.

    EXIT CODES:
      0 every check passed; 1 a check failed; 2 usage error; 3 the testee could not be started.
    """

    static func run(_ argv: [String]) -> Int32 {
        let dash = argv.firstIndex(of: "--")
        let opts = dash.map { Array(argv[..<$0]) } ?? argv
        let command = dash.map { Array(argv[($0 + 1)...]) } ?? []
        if opts.contains("-h") || opts.contains("--help") { print(help); return 0 }
        if opts.contains("--list") {
            for c in SelfTest.checks {
                print("\(c.id) [\(c.rules.joined(separator: ", "))\(c.twoFaults ? "; two-faults" : "")]\n    \(c.summary)")
            }
            print("\(SelfTest.checks.count) checks")
            return 0
        }
        var multiplier = 1.0
        var only: [String] = []
        var vectors: URL?
        var i = 0
        while i < opts.count {
            let a = opts[i]
            guard i + 1 < opts.count else { return CLI.fail("\(a) needs a value (or unknown option; the testee command goes after --)") }
            switch a {
            case "--timeout-multiplier":
                guard let m = Double(opts[i + 1]), m > 0, m.isFinite else { return CLI.fail("--timeout-multiplier must be a positive number") }
                multiplier = m
            case "--check":
                guard SelfTest.checks.contains(where: { $0.id == opts[i + 1] }) else {
                    return CLI.fail("--check \(opts[i + 1]): no such check (see conformance selftest --list)")
                }
                only.append(opts[i + 1])
            case "--vectors": vectors = URL(fileURLWithPath: opts[i + 1])
            default: return CLI.fail("unknown option \(a) (the testee command goes after --)")
            }
            i += 2
        }
        guard !command.isEmpty else { return CLI.fail("no testee command: put it after --, e.g. conformance selftest -- python3 my_testee.py") }
        let scope = (try? SuiteLoader.load(directory: vectors ?? CLI.defaultVectorsDirectory())).map(SuiteScope.init(suite:))
        let result: SelfTestResult
        do {
            result = try SelfTest.run(command: command, timeoutMultiplier: multiplier, scope: scope, only: only) { entry in
                FileHandle.standardOutput.write(Data((entry.line + "\n").utf8))
            }
        } catch {
            return CLI.fail("testee could not be run: \(error)", code: 3)
        }
        if let h = result.hello {
            print("testee: \(h.name) \(h.version) (\(h.language)), protocol \(h.protocolVersion); \(h.capabilities.count) format(s) advertised")
        }
        if let w = SuiteScope.warning(result.unknownCapabilities) { print(w) }
        print(result.summaryLine)
        return result.exitCode
    }
}

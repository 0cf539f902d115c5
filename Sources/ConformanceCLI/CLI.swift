import Foundation
import Vectors

/// Subcommand dispatch, mirroring swift-argument-parser's conventions: help on stdout with exit 0,
/// diagnostics on stderr, exit 2 for a usage error.
enum CLI {
    static let overview = """
    OVERVIEW: Conformance and test-vector suite for the Pixie sync wire formats.

    USAGE: conformance <subcommand> [options]

    SUBCOMMANDS:
      generate            Rewrite vectors/ from the reference implementation (deterministic).
      verify              Regenerate in memory and fail, naming the cases, if vectors/ differs.
      run [opts] -- CMD   Run the vectors against a testee on stdin/stdout (SPEC.md §6).
      selftest -- CMD     Check a testee's runner-protocol behaviour before any vector (§6.11).
      fuzz [opts] -- CMD  Differential fuzzing of a testee against the reference (§6.12).
      serve               Be a testee: the reference implementation over the runner protocol.
      http [opts]         Play the HTTP scenario vectors against a live service (SPEC.md §6.13).
      serve-http NAME     Serve a reference HTTP service: pairing, identity, broken (§13).
      list [opts]         Print the ids of the selected cases (same as run --list).
      report --html OUT R.json...  Merge JSON reports of several implementations into one page.
      mutants             List the mutants; --matrix shows which cases kill each.
      drift --baseline D  Fail when vectors changed against release D without a wire-version bump.
      rules               List every rule SPEC.md states ([R…] tags, SPEC §2.3).
      coverage            Fail unless every rule is pinned by some case (SPEC §2.3).
      input-facets        Print every op-input member the reference reads, and its §2.2 type.
      bench <name>        Release-build benchmarks: digest, reconcile, crypto, kem, runner.
      kat                 Check this binary's crypto against the long published known answers.
      simulate [scenario] Simulate devices running the settle loop; rounds, bytes, time to converge.
      fuzz-corpus         Seeds and dictionaries of the libFuzzer targets (Fuzz/), from the vectors.

    OPTIONS:
      -h, --help          Show help.
      --version           Print the suite version.

    EXIT CODES:
      0 success, 1 verification or test failures, 2 usage error, 3 could not run.
    """

    static func main(_ args: [String]) -> Int32 {
        guard let sub = args.first else {
            print(overview)
            return 2
        }
        let rest = Array(args.dropFirst())
        switch sub {
        case "-h", "--help", "help":
            print(overview)
            return 0
        case "--version":
            print(SuiteInfo.version)
            return 0
        case "generate": return GenerateCommand.run(rest)
        case "verify": return VerifyCommand.run(rest)
        case "bench": return BenchCommand.run(rest)
        case "kat": return KATCommand.run(rest)
        case "run": return RunCommand.run(rest)
        case "fuzz": return FuzzCommand.run(rest)
        case "serve": return ServeCommand.run(rest)
        case "http": return HTTPCommand.run(rest)
        case "serve-http": return ServeHTTPCommand.run(rest)
        case "selftest": return SelfTestCommand.run(rest)
        case "report": return ReportCommand.run(rest)
        case "list": return RunCommand.run(rest + ["--list"])
        case "mutants": return MutantsCommand.run(rest)
        case "drift": return DriftCommand.run(rest)
        case "rules": return RulesCommand.rules(rest)
        case "coverage": return RulesCommand.coverage(rest)
        case "input-facets": return InputFacetsCommand.run(rest)
        case "simulate": return SimulateCommand.run(rest)
        case "fuzz-corpus": return FuzzCorpusCommand.run(rest)
        default:
            FileHandle.standardError.write(Data("error: unknown subcommand '\(sub)'\n\n\(overview)\n".utf8))
            return 2
        }
    }

    static func fail(_ message: String, code: Int32 = 2) -> Int32 {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        return code
    }

    /// `--vectors DIR` (default: `CLI.defaultVectorsDirectory()`).
    static func vectorsDirectory(_ args: inout [String]) -> URL {
        if let i = args.firstIndex(of: "--vectors"), i + 1 < args.count {
            let dir = args[i + 1]
            args.removeSubrange(i...(i + 1))
            return URL(fileURLWithPath: dir)
        }
        return defaultVectorsDirectory()
    }

    /// `./vectors` when it exists, else the `vectors` packed beside the executable (a release
    /// archive: `conformance-<version>/conformance` next to `conformance-<version>/vectors`).
    static func defaultVectorsDirectory() -> URL {
        let here = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("vectors")
        if FileManager.default.fileExists(atPath: here.path) { return here }
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let beside = exe.deletingLastPathComponent().appendingPathComponent("vectors")
        if FileManager.default.fileExists(atPath: beside.appendingPathComponent("MANIFEST.json").path) { return beside }
        return here
    }
}

enum GenerateCommand {
    static let help = """
    OVERVIEW: Rewrite vectors/ (JSON, CBOR twins, MANIFEST.json) from the reference implementation.

    USAGE: conformance generate [--vectors DIR]
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(help); return 0 }
        let dir = CLI.vectorsDirectory(&args)
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        do {
            let vfs = try VectorSuite.write(to: dir)
            for vf in vfs { print("\(vf.format): \(vf.cases.count) cases") }
            print("wrote \(2 * vfs.count + 1) files to \(dir.path)")
            return 0
        } catch {
            return CLI.fail("generation failed: \(error)", code: 1)
        }
    }
}

enum VerifyCommand {
    static let help = """
    OVERVIEW: Regenerate every vector in memory and compare with vectors/ byte for byte.
              Fails (exit 1) naming each case that differs, is missing or is new.

    USAGE: conformance verify [--vectors DIR]
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(help); return 0 }
        let dir = CLI.vectorsDirectory(&args)
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        do {
            let diffs = try VectorSuite.verify(directory: dir)
            if diffs.isEmpty {
                let (files, vfs) = try VectorSuite.generateAll()
                let total = vfs.reduce(0) { $0 + $1.cases.count }
                print("verify: \(files.count) files, \(total) cases, all identical to a fresh generation")
                return 0
            }
            for d in diffs { print("DIFF \(d)") }
            print("verify: \(diffs.count) difference(s); run 'swift run conformance generate' if the change is intended, and bump the format's wire version if an output moved")
            return 1
        } catch {
            return CLI.fail("verification could not run: \(error)", code: 3)
        }
    }
}

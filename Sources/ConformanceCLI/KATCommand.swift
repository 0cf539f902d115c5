import Foundation
import Primitives
import Vectors

/// `conformance kat`: the long known-answer runs, on the binary that runs them.
///
/// Why a subcommand and not a test: these runs take seconds in a release build and many minutes
/// in a debug one, and building the test targets in release costs CI about 12 minutes. The
/// release binary `.ci/run` packs checks its own crypto against the published digests instead;
/// `swift test` keeps the short runs (100 iterations, one ladder) of the same procedures.
enum KATCommand {
    static let help = """
    OVERVIEW: Check this binary's crypto against the published accumulated and iterated
              known answers: ML-DSA-65 and ML-KEM-768 accumulated (C2SP/CCTV) over 10,000
              iterations, X25519 iterated (RFC 7748 §5.2) 1,000 and 1,000,000 times.

    USAGE: conformance kat [--dir DIR] [--quick]

    OPTIONS:
      --dir DIR   The known-answer files (default: Tests/PrimitivesTests/KAT, the copies the
                  test suite reads, each with its provenance in PROVENANCE.md).
      --quick     The short runs only (100 iterations, one ladder), as swift test does.
      -h, --help  Show help.

    EXIT CODES:
      0 every digest matches; 1 a mismatch; 2 usage error; 3 a file cannot be read.
    """

    struct Check {
        var name: String
        var expected: String
        var compute: () throws -> [UInt8]
    }

    static func run(_ argv: [String]) -> Int32 {
        var dir = URL(fileURLWithPath: "Tests/PrimitivesTests/KAT")
        var quick = false
        var i = 0
        while i < argv.count {
            switch argv[i] {
            case "-h", "--help": print(help); return 0
            case "--quick": quick = true
            case "--dir":
                guard i + 1 < argv.count else { return CLI.fail("--dir needs a directory\n\n\(help)") }
                dir = URL(fileURLWithPath: argv[i + 1])
                i += 1
            default: return CLI.fail("unknown option \(argv[i])\n\n\(help)")
            }
            i += 1
        }
        let checks: [Check]
        do { checks = try self.checks(in: dir, quick: quick) } catch { return CLI.fail("\(error)", code: 3) }
        var passed = 0
        for c in checks {
            let start = DispatchTime.now().uptimeNanoseconds
            let got: String
            do { got = Hex.encode(try c.compute()) } catch { got = "error: \(error)" }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            if got == c.expected {
                passed += 1
                print("ok   \(c.name) (\(String(format: "%.1f", seconds)) s)")
            } else {
                print("FAIL \(c.name): expected \(c.expected), got \(got)")
            }
        }
        print("\(passed) passed, \(checks.count - passed) failed")
        return passed == checks.count ? 0 : 1
    }

    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    static func json(_ url: URL) throws -> JSONValue {
        guard let data = try? Data(contentsOf: url) else { throw ReadError(description: "cannot read \(url.path)") }
        do { return try JSONValue.parse(String(decoding: data, as: UTF8.self)) } catch {
            throw ReadError(description: "\(url.path): \(error)")
        }
    }

    static func target(_ value: JSONValue?, _ what: String) throws -> String {
        guard let hex = value?.stringValue, hex.count == 64 else { throw ReadError(description: "no 32-byte target for \(what)") }
        return hex
    }

    static func checks(in dir: URL, quick: Bool) throws -> [Check] {
        let accumulated = try json(dir.appendingPathComponent("accumulated/accumulated-targets.json"))
        let x25519 = try json(dir.appendingPathComponent("x25519/rfc7748-x25519.json"))
        let n = quick ? 100 : 10_000
        var out = [
            Check(name: "ML-DSA-65 accumulated ×\(n)",
                  expected: try target(accumulated["ML-DSA-65"]?["digests"]?[String(n)], "ML-DSA-65 ×\(n)"),
                  compute: { try KnownAnswer.mldsa65Accumulated(iterations: n) }),
            Check(name: "ML-KEM-768 accumulated ×\(n)",
                  expected: try target(accumulated["ML-KEM-768"]?["digests"]?[String(n)], "ML-KEM-768 ×\(n)"),
                  compute: { try KnownAnswer.mlkem768Accumulated(iterations: n) }),
        ]
        for ladders in quick ? [1] : [1_000, 1_000_000] {
            out.append(Check(name: "X25519 iterated ×\(ladders)",
                             expected: try target(x25519["iterated"]?["after"]?[String(ladders)], "X25519 ×\(ladders)"),
                             compute: { try KnownAnswer.x25519Iterated(ladders) }))
        }
        return out
    }
}

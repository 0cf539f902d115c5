import Foundation
import Conformance

/// The command-line mechanics `run` and `fuzz` share: a flag's value or number, the testee command
/// after `--`, and the options both take with one meaning (selection, jobs, deadlines, restarts,
/// diagnosis), so the two commands cannot drift apart in how they read them.
struct ArgvReader {
    struct UsageError: Error { let message: String }

    private let argv: [String]
    private var i = 0
    /// Everything after `--`: the testee (or service) command.
    private(set) var command: [String] = []

    init(_ argv: [String]) { self.argv = argv }

    /// The next option, or nil at the end; `--` ends the options and keeps the rest as `command`.
    mutating func next() -> String? {
        guard i < argv.count else { return nil }
        let a = argv[i]
        i += 1
        if a == "--" {
            command = Array(argv[i...])
            i = argv.count
            return nil
        }
        return a
    }

    mutating func value(_ flag: String) throws(UsageError) -> String {
        guard i < argv.count else { throw UsageError(message: "\(flag) needs a value") }
        i += 1
        return argv[i - 1]
    }

    mutating func number<T: LosslessStringConvertible>(_ flag: String, _ type: T.Type) throws(UsageError) -> T {
        let v = try value(flag)
        guard let n = T(v) else { throw UsageError(message: "\(flag): \"\(v)\" is not a number") }
        return n
    }

    /// The `--run` patterns of a file: one per line, blank lines and `#` comments left out. A
    /// file that names none is a usage error, like a pattern that matches nothing: an empty
    /// selection would otherwise run the whole suite.
    private func patterns(in path: String, flag: String) throws(UsageError) -> [IDPattern] {
        guard let data = FileManager.default.contents(atPath: path) else { throw UsageError(message: "\(flag): cannot read \(path)") }
        guard let text = String(data: data, encoding: .utf8) else { throw UsageError(message: "\(flag): \(path) is not UTF-8") }
        let out = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }.map(IDPattern.init)
        guard !out.isEmpty else { throw UsageError(message: "\(flag): \(path) names no case") }
        return out
    }

    /// Reads `flag` if it is one of the shared options; false when it is not.
    mutating func shared(_ flag: String, selection: inout CaseSelection, jobs: inout Int, multiplier: inout Double,
                         maxRestarts: inout Int, diagnose: inout Bool) throws(UsageError) -> Bool {
        switch flag {
        case "--format": selection.formats.append(try value(flag))
        case "--run": selection.run.append(IDPattern(try value(flag)))
        case "--run-file": selection.run += try patterns(in: try value(flag), flag: flag)
        case "--skip": selection.skip.append(IDPattern(try value(flag)))
        case "--jobs":
            jobs = try number(flag, Int.self)
            guard jobs >= 1 else { throw UsageError(message: "--jobs must be at least 1") }
        case "--timeout-multiplier":
            multiplier = try number(flag, Double.self)
            guard multiplier > 0, multiplier.isFinite else { throw UsageError(message: "--timeout-multiplier must be positive") }
        case "--max-restarts":
            maxRestarts = try number(flag, Int.self)
            guard maxRestarts >= 0 else { throw UsageError(message: "--max-restarts must be 0 or more") }
        case "--no-diagnose": diagnose = false
        default: return false
        }
        return true
    }
}

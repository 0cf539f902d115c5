import Foundation
import Vectors

/// `conformance mutants [--matrix] [--format NAME]`: the catalog of realistic bugs the vectors must
/// catch, and with --matrix which cases kill each (judged in-process, as `run` judges a testee).
enum MutantsCommand {
    static let help = """
    OVERVIEW: List the mutants (realistic bugs) the reference can be switched into with
              'conformance serve --mutant NAME'; with --matrix, the cases that kill each.

    USAGE: conformance mutants [--matrix] [--format NAME]

    EXIT CODES: 0 all listed mutants killed (or no --matrix), 1 a mutant survives, 2 usage error.
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(help); return 0 }
        let matrix = args.contains("--matrix")
        args.removeAll { $0 == "--matrix" }
        var format: String?
        if let i = args.firstIndex(of: "--format") {
            guard i + 1 < args.count else { return CLI.fail("--format needs a value") }
            format = args[i + 1]
            args.removeSubrange(i...(i + 1))
        }
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        let mutants = Mutant.allCases.filter { format == nil || $0.format == format }
        guard matrix else {
            for m in mutants { print("\(m.rawValue)\t\(m.summary)") }
            print("\(mutants.count) mutants")
            return 0
        }
        do {
            let files = try VectorSuite.generateAll().vectorFiles
            let rows = MutantMatrix.compute(files, mutants: mutants)
            var survivors = 0
            for r in rows {
                if r.killedBy.isEmpty { survivors += 1 }
                let shown = r.killedBy.prefix(5).joined(separator: ", ") + (r.killedBy.count > 5 ? ", … (\(r.killedBy.count) in all)" : "")
                print("\(r.killedBy.isEmpty ? "SURVIVES" : "killed  ") \(r.mutant.rawValue): \(r.killedBy.isEmpty ? "no case fails: add a vector" : shown)")
            }
            print("\(rows.count - survivors) killed, \(survivors) surviving")
            return survivors == 0 ? 0 : 1
        } catch {
            return CLI.fail("could not generate vectors: \(error)", code: 3)
        }
    }
}

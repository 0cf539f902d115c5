import Conformance
import Foundation
import Vectors

/// `conformance serve`: the reference implementation as a testee on stdin/stdout.
enum ServeCommand {
    static let help = """
    OVERVIEW: Speak the runner protocol (SPEC.md §6) on stdin/stdout with the reference
              implementation of every format. Exits 0 on shutdown or EOF.

    USAGE: conformance serve [--mutant NAME]

    OPTIONS:
      --mutant NAME       Run the reference with one realistic bug switched on (see
                          'conformance mutants'); the vectors must catch every one.
      --echo              Answer every decoded case "unsupported" (the runner benchmark's
                          raw round-trip baseline).
      -h, --help          Show help.
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(help); return 0 }
        let echo = args.contains("--echo")
        args.removeAll { $0 == "--echo" }
        var mutant: Mutant?
        if let i = args.firstIndex(of: "--mutant") {
            guard i + 1 < args.count else { return CLI.fail("--mutant needs a name (see 'conformance mutants')") }
            guard let m = Mutant(rawValue: args[i + 1]) else { return CLI.fail("no mutant \(args[i + 1]) (see 'conformance mutants')") }
            mutant = m
            args.removeSubrange(i...(i + 1))
        }
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        return Mutant.$active.withValue(mutant) { serve(ReferenceTestee(), echo: echo) }
    }

    /// The loop over the testee's own stdin (SPEC.md §6): lines read with the 16 MiB limit
    /// enforced while reading, each answered by the protocol session. Also the hook for a
    /// variant: pass other handlers.
    static func serve(_ testee: ReferenceTestee, echo: Bool = false) -> Int32 {
        var session = ReferenceTestee.Session(testee)
        session.echo = echo
        var input = InputLines(fd: 0)
        while let line = input.next() {
            switch session.handle(line) {
            case .reply(let v):
                var s = v.compact
                s.append("\n")
                // One write per line, unbuffered: the runner is waiting for it.
                FileHandle.standardOutput.write(Data(s.utf8))
            case .shutdown:
                return 0
            case .ignore(let why):
                FileHandle.standardError.write(Data("serve: \(why)\n".utf8))
            case .refuse(let why):
                FileHandle.standardError.write(Data("serve: \(why)\n".utf8))
                return 1
            }
        }
        return 0
    }
}

import Conformance
import Foundation
import Vectors

/// `conformance drift --baseline DIR`: the release gate of SPEC.md §2.1.
enum DriftCommand {
    static let help = """
    OVERVIEW: Compare vectors/ with an earlier release's vectors. Lists cases added, removed,
              withdrawn and changed per format, and fails when an existing case's input or
              expected output changed (or a case vanished) while the format's wire_version did
              not. For state_digest leaves it names the namespace and the first field whose
              encoding changed.

    USAGE: conformance drift --baseline DIR [--vectors DIR] [--report json=PATH]

    EXIT CODES: 0 no violation, 1 drift without a version bump, 2 usage error, 3 could not read.
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(help); return 0 }
        let current = CLI.vectorsDirectory(&args)
        guard let i = args.firstIndex(of: "--baseline"), i + 1 < args.count else { return CLI.fail("--baseline DIR is required\n\n\(help)") }
        let baseline = URL(fileURLWithPath: args[i + 1])
        args.removeSubrange(i...(i + 1))
        var jsonPath: String?
        if let j = args.firstIndex(of: "--report"), j + 1 < args.count, args[j + 1].hasPrefix("json=") {
            jsonPath = String(args[j + 1].dropFirst(5))
            args.removeSubrange(j...(j + 1))
        }
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        do {
            let report = try DriftReport.compare(baseline: baseline, current: current, explain: DriftExplainer.explain)
            print(report.text)
            if let jsonPath { try Data(report.json.pretty.utf8).write(to: URL(fileURLWithPath: jsonPath)) }
            return report.failed ? 1 : 0
        } catch {
            return CLI.fail("could not compare \(baseline.path) with \(current.path): \(error)", code: 3)
        }
    }
}

import Conformance
import Foundation

/// `conformance report --html OUT RUN.json...`: several implementations' JSON reports merged into
/// one comparison page (SPEC.md §6.9).
enum ReportCommand {
    static let help = """
    OVERVIEW: Merge the JSON reports of several implementations (conformance run
              --report json=PATH) into one self-contained HTML comparison page: a row per
              case, a column per implementation, per-format/op totals, and a filter for the
              rows where implementations disagree.

    USAGE: conformance report --html OUT RUN.json [RUN.json...]
    """

    static func run(_ argv: [String]) -> Int32 {
        if argv.contains("-h") || argv.contains("--help") { print(help); return 0 }
        var out: String?
        var inputs: [String] = []
        var i = 0
        while i < argv.count {
            if argv[i] == "--html" {
                guard i + 1 < argv.count else { return CLI.fail("--html needs a path") }
                out = argv[i + 1]
                i += 2
                continue
            }
            if argv[i].hasPrefix("-") { return CLI.fail("unknown option \(argv[i])") }
            inputs.append(argv[i])
            i += 1
        }
        guard let out else { return CLI.fail("conformance report needs --html OUT") }
        guard !inputs.isEmpty else { return CLI.fail("conformance report needs at least one JSON report") }
        var docs: [ReportDocument] = []
        for path in inputs {
            guard let data = FileManager.default.contents(atPath: path) else { return CLI.fail("cannot read \(path)") }
            do { docs.append(try ReportDocument.parse(String(decoding: data, as: UTF8.self))) } catch {
                return CLI.fail("\(path): \(error)")
            }
        }
        do { try Data(HTMLReport.comparison(docs).utf8).write(to: URL(fileURLWithPath: out)) } catch {
            return CLI.fail("cannot write \(out): \(error.localizedDescription)", code: 3)
        }
        print("wrote \(out): \(docs.count) implementation(s), \(Set(docs.flatMap { $0.cases.map(\.id) }).count) case(s)")
        return 0
    }
}

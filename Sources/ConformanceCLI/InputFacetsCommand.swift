import Conformance
import Foundation
import Vectors

/// `conformance input-facets`: the §2.2 facet table (every op-input member, its type, fixed
/// length, optional / nullable, and the base case the battery edits), derived by running the
/// committed cases through the reference with an `InputRecorder`.
enum InputFacetsCommand {
    static let help = """
    OVERVIEW: Print every op-input member the reference reads (SPEC.md §2.2), per format and op,
              found by running the committed cases with the input recorder on.

    USAGE: conformance input-facets [--vectors DIR] [--format F] [--derive] [--spec FILE]

    OPTIONS:
      --vectors DIR   Vector files to read (default: vectors/).
      --format F      One format only.
      --derive        Also build the battery's cases and print their count (fails like generate).
      --spec FILE     Print where the table and SPEC.md's op tables disagree instead (members,
                      types, and the order required members are read in, R2.2-7).

    EXIT CODES: 0 printed, 1 a battery case disagrees with SPEC §2.2, 2 usage error, 3 could not read.
    """

    static func run(_ argv: [String]) -> Int32 {
        var args = argv
        if args.contains("-h") || args.contains("--help") { print(help); return 0 }
        let dir = CLI.vectorsDirectory(&args)
        var only: String?
        if let i = args.firstIndex(of: "--format"), i + 1 < args.count { only = args[i + 1]; args.removeSubrange(i...(i + 1)) }
        var derive = false
        if let i = args.firstIndex(of: "--derive") { derive = true; args.remove(at: i) }
        var spec: SpecOpTables?
        if let i = args.firstIndex(of: "--spec"), i + 1 < args.count {
            guard let text = try? String(contentsOfFile: args[i + 1], encoding: .utf8) else { return CLI.fail("cannot read \(args[i + 1])", code: 3) }
            spec = SpecOpTables(spec: text)
            args.removeSubrange(i...(i + 1))
        }
        guard args.isEmpty else { return CLI.fail("unexpected arguments: \(args.joined(separator: " "))") }
        var status: Int32 = 0
        for handler in Reference.handlers where only == nil || only == handler.format {
            let file: VectorFile
            do { file = try VectorFile.read(format: handler.format, in: dir) } catch { return CLI.fail("\(error)", code: 3) }
            let facets = InputFacets.table(handler, cases: file.cases)
            if let spec {
                for d in InputFacetAudit.disagreements(facets: facets, spec: spec) { print(d) }
                for d in InputFacetAudit.orderDisagreements(handler, cases: file.cases, spec: spec) { print("order \(d)") }
                continue
            }
            for f in facets {
                let flags = [f.optional ? "optional" : nil, f.nullable ? "nullable" : nil].compactMap { $0 }.joined(separator: ",")
                print("\(f.format)\t\(f.op)\t\(f.path)\t\(f.kind.rawValue)\(f.length.map { "[\($0)]" } ?? "")\t\(flags.isEmpty ? "-" : flags)\t\(f.baseCase)")
            }
            var line = "\(handler.format): \(facets.count) members in \(Set(facets.map(\.op)).count) ops"
            if derive {
                do {
                    let own = VectorFile(format: file.format, description: file.description,
                                         cases: file.cases.filter { !$0.id.contains("/\(InputCases.group)/") }, withdrawn: file.withdrawn)
                    line += ", \(try InputCases.derive(handler, from: own).count) battery cases"
                } catch {
                    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
                    status = 1
                }
            }
            FileHandle.standardError.write(Data("\(line)\n".utf8))
        }
        return status
    }
}

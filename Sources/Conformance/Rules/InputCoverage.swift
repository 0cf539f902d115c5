import Foundation
import Vectors

/// The coverage axis "input members × battery" (SPEC.md §2.2, §2.3): for every member of every op
/// the facet table finds (by running the committed cases through the reference), every spelling
/// of `InputBattery` for its type has a case flagged `facet:input:<path>:<spelling>` under that
/// format and op, unless `coverage/inputs-exempt.tsv` exempts it with a reason. With it, the two
/// orders the input layer states: neighbouring members (R2.2-7, `InputOrderCases`), and every
/// member before any rule where a section says so (`InputBeforeRulesCases`).
public struct InputCoverage: Sendable {
    public struct FormatLine: Sendable {
        public var format: String
        public var members: Int
        public var required: Int
        public var covered: Int
        public var exempt: Int
        /// R2.2-7: pairs of required members (neighbours, and first against last) and how many of
        /// their two cases each (`InputOrderCases`) the file holds.
        public var orderPairs: Int = 0
        public var orderCovered: Int = 0
        /// R14.10-1, R7.9-6, R8.9-3 (`InputBeforeRulesCases`): (op, rule code) pairs of the
        /// ops in scope, the ones a case holds, and the ones exempt.
        public var beforeRules: Int = 0
        public var beforeRulesCovered: Int = 0
        public var beforeRulesExempt: Int = 0
    }

    public var lines: [FormatLine]
    public var problems: [String]
    public var isClean: Bool { problems.isEmpty }

    /// The exemption file's name inside the exemptions folder (`coverage/` in the repository).
    public static let exemptionFile = "inputs-exempt.tsv"

    /// `files` are the committed vector files; `exempt` maps `<format>/<op>/<path>:<spelling>`
    /// (or `<format>/<op>/<path>` for every spelling of a member) to its reason.
    public init(files: [VectorFile], exempt: [String: String]) {
        var lines: [FormatLine] = []
        var problems: [String] = []
        var used = Set<String>()
        for file in files {
            guard let handler = Reference.handler(for: file.format) else { continue }
            var have = Set<String>()
            for c in file.cases {
                for f in c.flags where f.hasPrefix("facet:input:") { have.insert("\(c.op)\u{0}\(f.dropFirst("facet:input:".count))") }
            }
            let facets = InputFacets.table(handler, cases: file.cases)
            var line = FormatLine(format: file.format, members: facets.count, required: 0, covered: 0, exempt: 0)
            for facet in facets {
                for s in facet.spellingNames {
                    line.required += 1
                    let key = "\(facet.id):\(s)"
                    if have.contains("\(facet.op)\u{0}\(facet.path):\(s)") {
                        line.covered += 1
                    } else if exempt[key] != nil || exempt[facet.id] != nil {
                        line.exempt += 1
                        used.insert(exempt[key] != nil ? key : facet.id)
                    } else {
                        problems.append("\(key) (\(facet.kind.rawValue)) has no battery case")
                    }
                }
            }
            let ids = Set(file.cases.map(\.id))
            for (pair, _) in InputOrderCases.pairs(handler, cases: file.cases) {
                line.orderPairs += 1
                for name in pair.names {
                    if ids.contains("\(file.format)/\(pair.op)/\(InputOrderCases.group)/\(name)") {
                        line.orderCovered += 1
                    } else {
                        problems.append("\(file.format)/\(pair.op): no input-order case \(name) (R2.2-7)")
                    }
                }
            }
            var flagged = Set<String>()
            for c in file.cases where c.id.contains("/\(InputBeforeRulesCases.group)/") { flagged.formUnion(c.flags) }
            for t in InputBeforeRulesCases.targets(format: file.format, cases: file.cases) {
                line.beforeRules += 1
                if flagged.contains(t.flag) {
                    line.beforeRulesCovered += 1
                } else if exempt[t.key] != nil {
                    line.beforeRulesExempt += 1
                    used.insert(t.key)
                } else {
                    problems.append("\(t.key): no case with a member mistyped as well (\(t.scope.rule))")
                }
            }
            lines.append(line)
        }
        let formats = Set(files.map(\.format))
        for id in exempt.keys.sorted() where !used.contains(id) && formats.contains(String(id.split(separator: "/").first ?? "")) {
            problems.append("\(InputCoverage.exemptionFile): \(id) exempts nothing (stale)")
        }
        self.lines = lines
        self.problems = problems
    }

    /// Reads the exemption file: one `id<TAB>reason` per line, `#` comments and blank lines
    /// ignored; a line without a reason is an error (an exemption says why).
    public static func exemptions(at url: URL) throws -> [String: String] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [:] }
        var out: [String: String] = [:]
        for (n, raw) in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "\t", maxSplits: 1)
            guard parts.count == 2, !parts[1].trimmingCharacters(in: .whitespaces).isEmpty else {
                throw WireError(.inputBadValue, "\(url.lastPathComponent):\(n + 1): expected <id><TAB><reason>", field: "exemptions")
            }
            out[String(parts[0])] = String(parts[1])
        }
        return out
    }
}

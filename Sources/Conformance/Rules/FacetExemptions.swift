import Foundation

/// An exemption file of the limit or order axis (`coverage/limits-exempt.tsv`,
/// `coverage/orders-exempt.tsv`): one entry a line, `<entry key><TAB><reason>`, where the key is
/// what the axis measures (`limit:R12.6-19/rows:below`, `order:R12.7-1:2-3`). `#` starts a
/// comment line. A reason is required: an exemption says why the edge cannot be a case, so a
/// reader can disagree with it.
public struct FacetExemptions: Sendable, Equatable {
    public var reasons: [String: String]
    /// Lines that are not `key<TAB>reason`, each naming its line.
    public var problems: [String]

    public init(reasons: [String: String] = [:], problems: [String] = []) {
        self.reasons = reasons
        self.problems = problems
    }

    public static func parse(_ text: String, file: String) -> FacetExemptions {
        var out = FacetExemptions()
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let parts = line.split(separator: "\t", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                out.problems.append("\(file):\(i + 1): not `<key><TAB><reason>`")
                continue
            }
            if out.reasons[parts[0]] != nil { out.problems.append("\(file):\(i + 1): \(parts[0]) is exempted twice") }
            out.reasons[parts[0]] = parts[1]
        }
        return out
    }

    /// A missing file is no exemption at all.
    public static func load(_ url: URL) throws -> FacetExemptions {
        guard FileManager.default.fileExists(atPath: url.path) else { return FacetExemptions() }
        return parse(try String(contentsOf: url, encoding: .utf8), file: url.lastPathComponent)
    }
}

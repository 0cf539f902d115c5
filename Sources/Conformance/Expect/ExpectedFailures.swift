import Foundation

/// An `--expected-failures` file: one entry per line, `<id-glob> <failure-kind>`, an optional
/// `# comment` after it; blank lines and lines starting with `#` are kept as the file's header.
///
/// Ratchet semantics (SPEC.md §6.8): a listed case failing the same way is an expected failure; one
/// that passes, or fails another way, fails the run; an entry matching no selected case is stale
/// and fails the run.
public struct ExpectedFailures: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var pattern: IDPattern
        public var kind: FailureKind
        public var comment: String?
        /// 1-based line in the file, for messages ("remove line 12").
        public var line: Int

        public init(pattern: IDPattern, kind: FailureKind, comment: String? = nil, line: Int = 0) {
            self.pattern = pattern
            self.kind = kind
            self.comment = comment
            self.line = line
        }

        public var text: String {
            "\(pattern.text) \(kind.rawValue)" + (comment.map { "  # \($0)" } ?? "")
        }
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let line: Int
        public let reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public var entries: [Entry]
    /// Leading comment lines, kept on rewrite.
    public var header: [String]

    public init(entries: [Entry], header: [String] = []) {
        self.entries = entries
        self.header = header
    }

    public static func parse(_ text: String) throws(ParseError) -> ExpectedFailures {
        var entries: [Entry] = []
        var header: [String] = []
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#") {
                if entries.isEmpty { header.append(String(line)) }
                continue
            }
            var body = Substring(line)
            var comment: String?
            if let hash = line.firstIndex(of: "#") {
                comment = line[line.index(after: hash)...].trimmingCharacters(in: .whitespaces)
                body = line[..<hash]
            }
            let words = body.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard words.count == 2 else {
                throw ParseError(line: n + 1, reason: "expected `<id-glob> <failure-kind>`, got \"\(line)\"")
            }
            guard let kind = FailureKind(rawValue: String(words[1])) else {
                throw ParseError(line: n + 1, reason: "unknown failure kind \"\(words[1])\" (one of \(FailureKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            entries.append(Entry(pattern: IDPattern(String(words[0])), kind: kind, comment: comment?.isEmpty == true ? nil : comment, line: n + 1))
        }
        return ExpectedFailures(entries: entries, header: header)
    }

    public static func load(_ url: URL) throws(ParseError) -> ExpectedFailures {
        guard let data = try? Data(contentsOf: url) else { throw ParseError(line: 0, reason: "cannot read \(url.path)") }
        return try parse(String(decoding: data, as: UTF8.self))
    }

    /// The first entry whose glob matches the id (file order).
    public func entry(for id: String) -> Entry? { entries.first { $0.pattern.matches(id) } }

    /// The file text listing exactly `failures` (id → kind). An existing entry survives verbatim
    /// (glob and comment) when every case it matched still fails with its kind; other failures
    /// get an exact-id line. Sorted by pattern.
    public func rewritten(failures: [String: FailureKind], judged: [String]) -> String {
        var covered = Set<String>()
        var lines: [(String, String)] = []
        for e in entries {
            let matched = judged.filter { e.pattern.matches($0) && entry(for: $0) == e }
            guard !matched.isEmpty, matched.allSatisfy({ failures[$0] == e.kind }) else { continue }
            covered.formUnion(matched)
            lines.append((e.pattern.text, e.text))
        }
        for (id, kind) in failures where !covered.contains(id) {
            let comment = entry(for: id).flatMap { $0.kind == kind ? $0.comment : nil }
            lines.append((id, Entry(pattern: IDPattern(id), kind: kind, comment: comment).text))
        }
        lines.sort { $0.0 < $1.0 }
        return (header + lines.map(\.1)).map { $0 + "\n" }.joined()
    }
}

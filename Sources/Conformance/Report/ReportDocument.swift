import Vectors

/// A JSON report (`--report json=PATH`) read back: what the HTML report and the comparison page
/// are drawn from, so one run's page and a page merging several implementations show the same
/// facts the same way.
public struct ReportDocument: Sendable {
    public struct Case: Sendable, Equatable {
        public var id: String
        public var format: String
        public var op: String
        /// `pass`, `fail`, `expected_failure`, `unexpected_pass`, `changed_failure`, `skipped`,
        /// `not_run`, `required_skipped`.
        public var outcome: String
        public var kind: String?
        public var summary: String?
        public var reason: String?
        public var details: [String]
        public var comment: String?
        public var rules: [String]
        public var stderrTail: String?

        /// Needs a reader's attention: a failure of any sort, or an expected one.
        public var isNoteworthy: Bool { !["pass", "skipped"].contains(outcome) }
    }

    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public let reason: String
        public var description: String { reason }
    }

    public var name: String
    public var version: String
    public var language: String
    public var protocolVersion: Int
    public var suiteVersion: String
    public var summaryLine: String
    public var exitCode: Int
    public var restarts: Int
    public var unknownCapabilities: [String]
    public var scopeProblems: [String]
    public var incompleteReason: String?
    public var cases: [Case]

    /// `name version (language)`: a column heading.
    public var label: String { "\(name) \(version) (\(language))" }

    public init(json v: JSONValue) throws(ReadError) {
        guard let cases = v["cases"]?.arrayValue, let testee = v["testee"] else {
            throw ReadError(reason: "not a conformance JSON report (no cases or testee member)")
        }
        func text(_ x: JSONValue?) -> String? { x?.stringValue }
        func int(_ x: JSONValue?) -> Int { x?.int64Value.map(Int.init) ?? 0 }
        func texts(_ x: JSONValue?) -> [String] { x?.arrayValue?.compactMap(\.stringValue) ?? [] }
        name = text(testee["name"]) ?? "(unnamed)"
        version = text(testee["version"]) ?? ""
        language = text(testee["language"]) ?? ""
        protocolVersion = int(v["protocol_version"])
        suiteVersion = text(v["suite_version"]) ?? ""
        exitCode = int(v["exit_code"])
        restarts = int(v["restarts"])
        unknownCapabilities = texts(v["unknown_capabilities"])
        scopeProblems = texts(v["scope_problems"])
        incompleteReason = text(v["incomplete_reason"])
        var list: [Case] = []
        for (i, c) in cases.enumerated() {
            guard let id = text(c["id"]), let format = text(c["format"]), let op = text(c["op"]), let outcome = text(c["outcome"]) else {
                throw ReadError(reason: "cases[\(i)] needs id, format, op and outcome")
            }
            list.append(Case(id: id, format: format, op: op, outcome: outcome, kind: text(c["kind"]), summary: text(c["summary"]),
                             reason: text(c["reason"]), details: texts(c["details"]), comment: text(c["comment"]),
                             rules: texts(c["rules"]), stderrTail: text(c["stderr_tail"])))
        }
        self.cases = list
        if let line = text(v["summary_line"]) {
            summaryLine = line
        } else {
            let counts = v["counts"]
            summaryLine = "\(int(counts?["passed"])) passed, \(int(counts?["failed"])) failed, \(int(counts?["skipped"])) skipped"
        }
    }

    public static func parse(_ text: String) throws(ReadError) -> ReportDocument {
        let v: JSONValue
        do { v = try JSONValue.parse(text) } catch { throw ReadError(reason: "not JSON: \(error)") }
        return try ReportDocument(json: v)
    }

    /// Per format/op counts by outcome, in case order.
    public var opRows: [(name: String, counts: [String: Int], outcomes: [(index: Int, outcome: String)])] {
        var rows: [(name: String, counts: [String: Int], outcomes: [(index: Int, outcome: String)])] = []
        var at: [String: Int] = [:]
        for (i, c) in cases.enumerated() {
            let key = "\(c.format)/\(c.op)"
            let k = at[key] ?? {
                rows.append((key, [:], []))
                at[key] = rows.count - 1
                return rows.count - 1
            }()
            rows[k].counts[c.outcome, default: 0] += 1
            rows[k].outcomes.append((i, c.outcome))
        }
        return rows
    }
}

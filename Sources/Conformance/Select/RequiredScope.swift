/// `--require FORMAT` or `--require FORMAT/OP` (SPEC.md §6.7): a skipped case in this scope fails
/// the run, and so does a scope no selected case falls in.
public struct RequiredScope: Sendable, Hashable, CustomStringConvertible {
    public let format: String
    public let op: String?

    public init(format: String, op: String? = nil) {
        self.format = format
        self.op = op
    }

    /// Parses `FORMAT` or `FORMAT/OP`; nil for an empty part or more than one slash.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty }) else { return nil }
        self.init(format: parts[0], op: parts.count == 2 ? parts[1] : nil)
    }

    public var description: String { op.map { "\(format)/\($0)" } ?? format }

    public func covers(_ c: SuiteCase) -> Bool {
        c.format == format && (op.map { Array($0.utf8) == Array(c.op.utf8) } ?? true)
    }

    /// Why the suite cannot satisfy this scope (a usage error), or nil.
    public func problem(in scope: SuiteScope) -> String? {
        guard scope.has(format: format) else { return "--require \(self): the suite has no format \(format)" }
        if let op, !scope.has(format: format, op: op) { return "--require \(self): format \(format) has no op \(op)" }
        return nil
    }
}

/// Something that pins rules: a vector case (its `rule:` flags) or a `conformance selftest` check.
public struct RuleWitness: Sendable, Equatable {
    public var id: String
    public var rules: [String]
    /// The case breaks two rules at once to pin which error wins (flag `two-faults`).
    public var twoFaults: Bool

    public init(id: String, rules: [String], twoFaults: Bool = false) {
        self.id = id
        self.rules = rules
        self.twoFaults = twoFaults
    }

    /// The rules a vector case names in its flags.
    public init(case c: SuiteCase) {
        self.init(id: c.id,
                  rules: c.flags.compactMap { $0.hasPrefix("rule:") ? String($0.dropFirst(5)) : nil },
                  twoFaults: c.flags.contains("two-faults"))
    }
}

/// One normative statement of SPEC.md, as its `[R<section>-<n>]` tag names it (SPEC §2.3).
public struct Rule: Sendable, Equatable {
    /// `R4.3-2`: the tag without brackets and without ` order`.
    public var id: String
    /// The section the id says it was written in (`4.3`).
    public var section: String
    /// True for `[R… order]`: the rule states an order between checks, so it needs a case in
    /// which both checks fail at once (flag `two-faults`).
    public var isOrder: Bool
    /// The statement, as written before its tag (one line, markdown kept).
    public var text: String
    /// 1-based line of SPEC.md holding the tag.
    public var line: Int
    /// The whole statement, not cut at 240 characters (the facet agreement test reads it).
    public var statement: String = ""

    public init(id: String, section: String, isOrder: Bool, text: String, line: Int) {
        self.id = id
        self.section = section
        self.isOrder = isOrder
        self.text = text
        self.line = line
    }

    /// The flag a case carries to say it pins this rule.
    public var flag: String { "rule:\(id)" }
}

/// A rule id that was dropped, never to be reused (SPEC §2.3 "Withdrawn rule ids").
public struct WithdrawnRule: Sendable, Equatable {
    public var id: String
    public var reason: String
}

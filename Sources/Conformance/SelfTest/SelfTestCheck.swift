/// One `conformance selftest` check (SPEC.md §6.11): a stable id, the §6 rules it pins, a one-line
/// summary, and the body that drives a fresh testee process.
public struct SelfTestCheck: Sendable {
    /// `selftest/<name>`, stable forever (like a case id).
    public let id: String
    /// The rule ids of SPEC.md §6 this check pins (`R6.3-7`).
    public let rules: [String]
    public let summary: String
    /// The check breaks two rules at once to pin which answer wins (an `order` rule's witness).
    public let twoFaults: Bool
    /// Needs a format the testee advertises (from the `selftest/hello` check).
    let needsFormat: Bool
    let body: @Sendable (SelfTestProbe, SelfTestContext) throws(SelfTestFailure) -> Void

    init(_ name: String, rules: [String], twoFaults: Bool = false, needsFormat: Bool = false, _ summary: String,
         _ body: @escaping @Sendable (SelfTestProbe, SelfTestContext) throws(SelfTestFailure) -> Void) {
        id = "selftest/\(name)"
        self.rules = rules
        self.summary = summary
        self.twoFaults = twoFaults
        self.needsFormat = needsFormat
        self.body = body
    }
}

/// What a check saw that breaks a rule: one sentence, naming the rule.
public struct SelfTestFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What the checks share: the hello of the `selftest/hello` check, whose first format (in byte
/// order) the checks that need an advertised format use.
final class SelfTestContext: @unchecked Sendable {
    var hello: TesteeHello?
    var format: String? { hello?.capabilities.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.first }
}

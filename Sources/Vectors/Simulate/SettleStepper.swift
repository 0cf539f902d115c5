/// Who runs a device's scheduler in a simulation: the reference loop, or a testee's `step` over
/// the runner protocol (Conformance's `TesteeStepper`). The simulator owns the state and hands
/// it over with every event, because the transition is pure (SPEC.md §12).
public protocol SettleStepper: AnyObject {
    /// A name for the report.
    var name: String { get }
    func step(device: Int, state: SettleState, event: SettleEvent) throws -> (state: SettleState, actions: [SettleAction])
    /// Anything the report should say about this stepper (disagreements with the reference…).
    var notes: [String] { get }
}

/// The reference loop, under the given rules.
public final class ReferenceStepper: SettleStepper {
    public let rules: SettleRules
    public init(rules: SettleRules = .reference) { self.rules = rules }
    public var name: String { "reference" }
    public var notes: [String] { [] }

    public func step(device: Int, state: SettleState, event: SettleEvent) throws -> (state: SettleState, actions: [SettleAction]) {
        var s = state
        let a = try SettleScheduler.step(&s, event, rules: rules)
        return (s, a)
    }
}

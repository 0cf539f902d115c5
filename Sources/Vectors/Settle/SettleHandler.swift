/// The reference `settle` format as the runner drives it (SPEC.md §12.7): the settle loop's
/// transition function, one event (`step`) or a whole episode (`episode`).
public struct SettleHandler: FormatHandler {
    public init() {}

    public var format: String { "settle" }
    public var ops: [String] { ["step", "episode"] }

    public func generate() throws -> VectorFile { try SettleVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        try tree(op: op, input: input).json
    }

    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR {
        let rules = SettleRules.current
        switch op {
        case "step":
            var state = try SettleInput.state(input, "state", rules)
            let event = try SettleInput.event(try Input.member(input, "event", path: ""), path: "event", rules)
            let actions = try SettleScheduler.step(&state, event, rules: rules)
            return .object([("actions", SettleOutput.actions(actions)), ("state", SettleOutput.state(state))])
        case "episode":
            var state = try SettleInput.state(input, "state", rules)
            // Each event is read, then applied, before the next is looked at (SPEC.md §12.7).
            var all: [CBOR] = []
            for (i, item) in try Input.array(try Input.member(input, "events", path: ""), path: "events").enumerated() {
                let event = try SettleInput.event(item, path: "events[\(i)]", rules)
                all.append(SettleOutput.actions(try SettleScheduler.step(&state, event, rules: rules)))
            }
            return .object([("actions", .array(all)), ("state", SettleOutput.state(state))])
        default:
            throw WireError(.unknownOp, "settle has no op \(op)", field: "op")
        }
    }
}

/// The `step` op's input and output as JSON, for drivers outside this module (the simulator's
/// testee driver): what a testee is sent and how its answer is read back into typed values.
public enum SettleCodec {
    /// The `step` input for a state and an event.
    public static func stepInput(_ state: SettleState, _ event: SettleEvent) -> JSONValue {
        CBOR.object([("state", SettleOutput.state(state)), ("event", event.tree)]).json
    }

    /// Reads a `step` output: `actions` (§12.4) and `state` (§12.2, read as an input state is).
    public static func readStepOutput(_ out: JSONValue) throws(WireError) -> (state: SettleState, actions: [SettleAction]) {
        let state = try SettleInput.state(out, "state", .reference)
        var actions: [SettleAction] = []
        for (i, a) in try Input.array(try Input.member(out, "actions", path: ""), path: "actions").enumerated() {
            actions.append(try action(a, path: "actions[\(i)]"))
        }
        return (state, actions)
    }

    static func action(_ v: JSONValue, path: String) throws(WireError) -> SettleAction {
        func member(_ name: String) throws(WireError) -> JSONValue { try Input.member(v, name, path: path) }
        func sibling(_ name: String) throws(WireError) -> SiblingID { SiblingID(try Input.bytes(try member(name), path: Input.join(path, name), length: SiblingID.byteCount)) }
        func time(_ name: String) throws(WireError) -> UInt64 { try Input.uint64(try member(name), path: Input.join(path, name)) }
        func namespace() throws(WireError) -> Namespace { try Input.namespace(try member("namespace"), path: Input.join(path, "namespace")) }
        let name = try Input.text(try member("action"), path: Input.join(path, "action"))
        switch name {
        case "arm_timer":
            let timer = try Input.text(try member("timer"), path: Input.join(path, "timer"))
            switch timer {
            case "debounce": return .armTimer(.debounce, at: try time("at"))
            case "backoff": return .armTimer(.backoff(try sibling("sibling")), at: try time("at"))
            default: throw WireError(.inputBadValue, "no timer \(timer.debugDescription)", field: Input.join(path, "timer"))
            }
        case "emit_digest":
            var to: [SiblingID] = []
            for (i, s) in try Input.array(try member("to"), path: Input.join(path, "to")).enumerated() {
                to.append(SiblingID(try Input.bytes(s, path: "\(path).to[\(i)]", length: SiblingID.byteCount)))
            }
            let reasonText = try Input.text(try member("reason"), path: Input.join(path, "reason"))
            guard let reason = SettleAction.EmitReason(rawValue: reasonText) else {
                throw WireError(.inputBadValue, "no emit reason \(reasonText.debugDescription)", field: Input.join(path, "reason"))
            }
            return .emitDigest(to: to, reason: reason)
        case "send_request": return .sendRequest(to: try sibling("to"), namespace: try namespace())
        case "send_response": return .sendResponse(to: try sibling("to"), namespace: try namespace())
        case "log_divergent":
            var nss: [Namespace] = []
            for (i, n) in try Input.array(try member("namespaces"), path: Input.join(path, "namespaces")).enumerated() {
                nss.append(try Input.namespace(n, path: "\(path).namespaces[\(i)]"))
            }
            return .logDivergent(sibling: try sibling("sibling"), namespaces: nss)
        case "back_off": return .backOff(sibling: try sibling("sibling"), until: try time("until"))
        case "dismiss_overlay": return .dismissOverlay
        case "drop_digest":
            let code = try Input.text(try member("error"), path: Input.join(path, "error"))
            guard let c = ErrorCode(rawValue: code) else { throw WireError(.inputBadValue, "no error code \(code.debugDescription)", field: Input.join(path, "error")) }
            return .dropDigest(from: try sibling("from"), error: c)
        default:
            throw WireError(.inputBadValue, "no action \(name.debugDescription)", field: Input.join(path, "action"))
        }
    }
}

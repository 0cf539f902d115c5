/// One thing the scheduler tells its device to do (SPEC.md §12.4). Emits carry no bytes: the
/// device sends its current digest (`state.digest`) in a `state_digest` frame (§5.7).
public enum SettleAction: Sendable, Hashable {
    public enum Timer: Sendable, Hashable {
        case debounce
        case backoff(SiblingID)
    }

    public enum EmitReason: String, Sendable, Hashable {
        /// The debounced emit of a write (markStateDirty).
        case debounce
        /// The targeted re-advertisement after applying a response (every round, no-op included).
        case applied
        /// The one return of a now-matching digest to a sibling this device was reconciling with.
        case matched
        /// The re-advertisement that resumes reconciling when a back-off ends.
        case backoffEnd = "backoff_end"
    }

    /// Deliver a `tick` at `at` (a later tick than needed is harmless; an earlier one does nothing).
    case armTimer(Timer, at: UInt64)
    /// Send the device's digest to these siblings (id byte order).
    case emitDigest(to: [SiblingID], reason: EmitReason)
    case sendRequest(to: SiblingID, namespace: Namespace)
    case sendResponse(to: SiblingID, namespace: Namespace)
    /// The storm guard's log line: the namespaces still divergent with the sibling.
    case logDivergent(sibling: SiblingID, namespaces: [Namespace])
    case backOff(sibling: SiblingID, until: UInt64)
    case dismissOverlay
    /// A received digest that does not decode (§4.8) is dropped, with the code that says why.
    case dropDigest(from: SiblingID, error: ErrorCode)

    public var tree: CBOR {
        switch self {
        case .armTimer(.debounce, let at):
            return .object([("action", .text("arm_timer")), ("timer", .text("debounce")), ("at", .unsigned(at))])
        case .armTimer(.backoff(let s), let at):
            return .object([("action", .text("arm_timer")), ("timer", .text("backoff")), ("sibling", .bytes(s.bytes)), ("at", .unsigned(at))])
        case .emitDigest(let to, let reason):
            return .object([("action", .text("emit_digest")), ("to", .array(to.map { .bytes($0.bytes) })), ("reason", .text(reason.rawValue))])
        case .sendRequest(let to, let ns):
            return .object([("action", .text("send_request")), ("to", .bytes(to.bytes)), ("namespace", .text(ns.rawValue))])
        case .sendResponse(let to, let ns):
            return .object([("action", .text("send_response")), ("to", .bytes(to.bytes)), ("namespace", .text(ns.rawValue))])
        case .logDivergent(let s, let nss):
            return .object([("action", .text("log_divergent")), ("sibling", .bytes(s.bytes)), ("namespaces", .array(nss.map { .text($0.rawValue) }))])
        case .backOff(let s, let until):
            return .object([("action", .text("back_off")), ("sibling", .bytes(s.bytes)), ("until", .unsigned(until))])
        case .dismissOverlay:
            return .object([("action", .text("dismiss_overlay"))])
        case .dropDigest(let from, let code):
            return .object([("action", .text("drop_digest")), ("from", .bytes(from.bytes)), ("error", .text(code.rawValue))])
        }
    }

    public var name: String {
        switch self {
        case .armTimer: return "arm_timer"
        case .emitDigest: return "emit_digest"
        case .sendRequest: return "send_request"
        case .sendResponse: return "send_response"
        case .logDivergent: return "log_divergent"
        case .backOff: return "back_off"
        case .dismissOverlay: return "dismiss_overlay"
        case .dropDigest: return "drop_digest"
        }
    }
}

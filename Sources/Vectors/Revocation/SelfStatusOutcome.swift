/// The device half of seed 001 §3: `checkSelfRevoked()` as a pure decision (SPEC.md §13.5). Given
/// the guard state and what `GET /v1/sync/self-status/:pubkey_hex` answered: whether the device
/// asked, which ordered steps run, and which local stores `resetForRecreate()` wipes and keeps.
public enum SelfStatusOutcome {
    /// Every local store the op reports on, in this order (SPEC [R13.5-7]).
    public static let stores = ["device_identity_keys", "phone_ownership_cert", "session", "registration_flags",
                                "MessageRecord", "PostRecord", "CallRecord", "OutboxItem", "LibSignalBlob", "RowVersion",
                                "Contacts", "agent_memory"]
    /// What resetForRecreate keeps: the phone-ownership cert (bound to the phone number, not the
    /// account), Contacts and agent memory.
    public static let keptByReset: Set<String> = ["phone_ownership_cert", "Contacts", "agent_memory"]
    /// The ordered steps on `revoked: true` (seed 001 §3: "three things happen in order").
    public static let resetSteps = ["reset_for_recreate", "clear_onboarded", "show_onboarding"]

    public struct Decision: Sendable, Equatable {
        public var asked: Bool
        /// `not_asked`, `unchanged` or `reset`.
        public var outcome: String
        public var reason: ErrorCode?
        public var steps: [String]
        public var wiped: [String]
        public var kept: [String]

        public var json: JSONValue {
            .object([
                ("asked", .bool(asked)), ("outcome", .string(outcome)), ("reason", reason.map { .string($0.rawValue) } ?? .null),
                ("steps", .array(steps.map { .string($0) })), ("wiped", .array(wiped.map { .string($0) })), ("kept", .array(kept.map { .string($0) })),
            ])
        }

        static func nothing(asked: Bool, outcome: String, _ reason: ErrorCode?) -> Decision {
            Decision(asked: asked, outcome: outcome, reason: reason, steps: [], wiped: [], kept: SelfStatusOutcome.stores)
        }
    }

    public static func decide(hasSession: Bool, isRegistered: Bool, statusCode: UInt64?, statusBody: String?, mutant: Mutant? = Mutant.active) -> Decision {
        // 1. The guard: currentSession != nil, then isRegistered (SPEC [R13.5-1] … [R13.5-3]).
        if mutant == .clientRegisteredGuardFirst, !isRegistered { return .nothing(asked: false, outcome: "not_asked", .revocationNotRegistered) }
        guard hasSession else { return .nothing(asked: false, outcome: "not_asked", .revocationNoSession) }
        guard isRegistered || mutant == .clientAsksUnregistered else { return .nothing(asked: false, outcome: "not_asked", .revocationNotRegistered) }
        // 2. Only a 200 answer is read; 3. a strict JSON object with two booleans (SPEC [R13.5-4], [R13.5-5]).
        guard statusCode == 200 else {
            return mutant == .clientFailedAnswerResets ? reset(mutant) : .nothing(asked: true, outcome: "unchanged", .revocationStatusFailed)
        }
        guard let revoked = readRevoked(statusBody, mutant: mutant) else {
            return mutant == .clientFailedAnswerResets ? reset(mutant) : .nothing(asked: true, outcome: "unchanged", .revocationStatusInvalid)
        }
        // 4. revoked decides alone (SPEC [R13.5-6], [R13.5-8]).
        return revoked ? reset(mutant) : .nothing(asked: true, outcome: "unchanged", nil)
    }

    /// `revoked` when the body is `{"registered": bool, "revoked": bool, …}`, else nil. The mutants
    /// read by truthiness, take `registered: false` as revoked, or keep one of a repeated name.
    static func readRevoked(_ body: String?, mutant: Mutant?) -> Bool? {
        let repeats: RepeatReading = .mutated(first: mutant == .clientDuplicateFirstWinsStatus, last: mutant == .clientDuplicateLastWinsStatus)
        guard let body, let v = repeats.object(Array(body.utf8)) else { return nil }
        if mutant == .clientRevokedTruthy {
            guard let r = v["revoked"] else { return nil }
            switch r {
            case .bool(let b): return b
            case .string(let s): return !s.isEmpty
            case .number(let n): return Double(n) != 0
            case .null: return false
            case .array(let a): return !a.isEmpty
            case .object(let o): return !o.isEmpty
            }
        }
        guard let registered = v["registered"]?.boolValue, let revoked = v["revoked"]?.boolValue else { return nil }
        if mutant == .clientUnregisteredResets, !registered { return true }
        return revoked
    }

    static func reset(_ mutant: Mutant?) -> Decision {
        var kept = keptByReset
        if mutant == .clientWipesContactsAndMemory { kept = ["phone_ownership_cert"] }
        if mutant == .clientWipesPhoneCert { kept.remove("phone_ownership_cert") }
        if mutant == .clientKeepsSession { kept.insert("session") }
        let steps = mutant == .clientFlagBeforeReset ? ["clear_onboarded", "reset_for_recreate", "show_onboarding"] : resetSteps
        return Decision(asked: true, outcome: "reset", reason: nil, steps: steps,
                        wiped: stores.filter { !kept.contains($0) }, kept: stores.filter { kept.contains($0) })
    }
}

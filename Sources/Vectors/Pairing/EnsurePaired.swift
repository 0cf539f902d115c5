/// The client half of seed 004: Oriel's `ensure_paired`, as a pure decision (SPEC.md §13.3).
/// Given what `GET /hello` answered and whether a token is held: pair (minting a token only when
/// none is held), proceed, or stop with a reason.
public enum EnsurePaired {
    public enum Action: String, Sendable { case pair, proceed, stop }

    public struct Decision: Sendable, Equatable {
        public var action: Action
        public var mintToken: Bool
        public var reason: ErrorCode?

        static func stop(_ r: ErrorCode) -> Decision { Decision(action: .stop, mintToken: false, reason: r) }

        public var json: JSONValue {
            .object([("action", .string(action.rawValue)), ("mint_token", .bool(mintToken)), ("reason", reason.map { .string($0.rawValue) } ?? .null)])
        }
    }

    /// `hello_status`: nil when no answer came; `hello_body`: nil likewise.
    public static func decide(helloStatus: UInt64?, helloBody: String?, holdsToken: Bool, mutant: Mutant? = Mutant.active) -> Decision {
        // 1. Only a 200 answer is read (SPEC [R13.3-1]).
        guard helloStatus == 200 || (mutant == .clientHelloStatusIgnored && helloStatus != nil) else { return .stop(.pairingHelloFailed) }
        // 2. A strict JSON object (SPEC [R13.3-2]).
        guard let body = helloBody, let hello = readHello(Array(body.utf8), mutant: mutant) else { return .stop(.pairingHelloInvalid) }
        let member = { (name: String) -> JSONValue? in lookup(hello, name, mutant: mutant) }
        if mutant == .clientPairedBeforeWire, let p = member("paired")?.boolValue, p, !holdsToken { return .stop(.pairingPairedElsewhere) }
        // 3. The wire version: a JSON integer, then equal to 1 (SPEC [R13.3-3]).
        if mutant != .clientWireNotChecked {
            guard let wire = member("wire"), let n = wireNumber(wire, mutant: mutant) else { return .stop(.pairingHelloInvalid) }
            guard n == String(PairingService.wire) else { return .stop(.pairingWireMismatch) }
        }
        // 4. paired: true or false (SPEC [R13.3-4]).
        guard let pairedValue = member("paired"), let paired = pairedFlag(pairedValue, mutant: mutant) else { return .stop(.pairingHelloInvalid) }
        // 5. The three cases (SPEC [R13.3-6], [R13.3-7], [R13.3-8]).
        if paired {
            if holdsToken || mutant == .clientProceedsWithoutToken { return Decision(action: .proceed, mintToken: false, reason: nil) }
            return .stop(.pairingPairedElsewhere)
        }
        return Decision(action: .pair, mintToken: !holdsToken || mutant == .clientMintsWhenHolding, reason: nil)
    }

    static func readHello(_ bytes: [UInt8], mutant: Mutant?) -> JSONValue? {
        if mutant == .clientDuplicateLastWins || mutant == .clientDuplicateFirstWins || mutant == .clientNamesCaseInsensitive {
            guard let text = String(validating: bytes, as: UTF8.self), let v = try? JSONValue.parse(text), v.objectValue != nil else { return nil }
            return v
        }
        guard case .success(let v) = StrictJSON.object(bytes) else { return nil }
        return v
    }

    /// A member by exact name (strict); the mutants read the first or the last match, or match names like Go.
    static func lookup(_ v: JSONValue, _ name: String, mutant: Mutant?) -> JSONValue? {
        guard let members = v.objectValue else { return nil }
        switch mutant {
        case .clientDuplicateLastWins?: return members.last { $0.0.utf8.elementsEqual(name.utf8) }?.1
        case .clientDuplicateFirstWins?: return members.first { $0.0.utf8.elementsEqual(name.utf8) }?.1
        case .clientNamesCaseInsensitive?: return members.last { HTTPField.sameName($0.0, name) }?.1
        default: return members.first { $0.0.utf8.elementsEqual(name.utf8) }?.1
        }
    }

    /// The wire version's decimal text: a JSON integer only (the mutant coerces like Python's int()).
    static func wireNumber(_ v: JSONValue, mutant: Mutant?) -> String? {
        if mutant == .clientWireCoerced {
            switch v {
            case .bool(let b): return b ? "1" : "0"
            case .string(let s): return Int(s).map(String.init)
            case .number(let n): return Double(n).map { $0.magnitude < 9e18 ? String(Int($0)) : "huge" }
            default: return nil
            }
        }
        guard StrictJSON.isIntegerNumber(v), case .number(let n) = v else { return nil }
        return Predicate.canonicalInteger(n)
    }

    static func pairedFlag(_ v: JSONValue, mutant: Mutant?) -> Bool? {
        if mutant == .clientPairedTruthy {
            switch v {
            case .bool(let b): return b
            case .null: return false
            case .string(let s): return !s.isEmpty
            case .number(let n): return Double(n) != 0
            case .array(let a): return !a.isEmpty
            case .object(let o): return !o.isEmpty
            }
        }
        return v.boolValue
    }
}

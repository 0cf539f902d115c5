import Vectors

/// A generated HTTP scenario before the reference has answered it: requests with no expectations.
/// `HTTPFuzzRecorder` plays it against a fresh reference service in process and writes each
/// step's `expect` (or a race's `counts`) from the answer, so the scenario the testee gets is an
/// ordinary §13.1 scenario case. Shrinking works on drafts (drop a step, a header, a racer) and
/// records again: a removed step changes the state every later answer depends on.
public struct HTTPFuzzDraft: Sendable, Hashable {
    public struct Step: Sendable, Hashable {
        public enum Kind: Sendable, Hashable {
            /// A request step; `capture` maps a name to a JSON pointer into the answer.
            case request(capture: [Capture])
            /// `values.count` copies sent at once, `${vary}` taking each value.
            case race(vary: String, values: [String], capture: [RaceCapture])
        }
        public struct Capture: Sendable, Hashable {
            public var name: String
            public var pointer: String
        }
        public struct RaceCapture: Sendable, Hashable {
            public var name: String
            public var status: Int
        }

        public var name: String
        /// The §13.1 request object: `{method, path, headers?, json? | text?}`.
        public var request: JSONValue
        public var kind: Kind
        /// The texts (with `${name}`) this request presents as a secret, for the service's
        /// `excludes` rules (pairing: a 409 never carries the token presented, [R13.2-12]).
        public var presents: String?

        public init(name: String, request: JSONValue, kind: Kind = .request(capture: []), presents: String? = nil) {
            self.name = name
            self.request = request
            self.kind = kind
            self.presents = presents
        }
    }

    public var values: [Pair]
    /// The reset hook's body (§13.1).
    public var setup: JSONValue
    public var steps: [Step]

    public struct Pair: Sendable, Hashable {
        public var name: String
        public var text: String
    }

    public init(values: [(String, String)], setup: JSONValue = .object([]), steps: [Step]) {
        self.values = values.map { Pair(name: $0.0, text: $0.1) }
        self.setup = setup
        self.steps = steps
    }

    /// `{method, path, headers?, json? | text?}` as a scenario writes it.
    public static func request(_ method: String, _ path: String, headers: [(String, String)] = [], json: JSONValue? = nil, text: String? = nil) -> JSONValue {
        var m: [(String, JSONValue)] = [("method", .string(method)), ("path", .string(path))]
        if !headers.isEmpty { m.append(("headers", .array(headers.map { .array([.string($0.0), .string($0.1)]) }))) }
        if let json { m.append(("json", json)) }
        if let text { m.append(("text", .string(text))) }
        return .object(m)
    }
}

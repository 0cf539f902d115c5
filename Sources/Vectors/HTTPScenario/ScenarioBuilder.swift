/// Writing scenario inputs as vector trees (the layout `Scenario.parse` reads, SPEC.md §13.1).
/// Used by the pairing and revocation generators only.
enum ScenarioBuilder {
    typealias Pairs = [(String, CBOR)]

    static func text(_ s: String) -> CBOR { .text(s) }
    static func int(_ n: Int) -> CBOR { .unsigned(UInt64(n)) }

    /// `{"method", "path", "headers"?, "json"? | "text"?}`.
    static func request(_ method: String, _ path: String, headers: [(String, String)] = [], json: CBOR? = nil, text body: String? = nil) -> CBOR {
        var m: Pairs = [("method", .text(method)), ("path", .text(path))]
        if !headers.isEmpty { m.append(("headers", .array(headers.map { .array([.text($0.0), .text($0.1)]) }))) }
        if let json { m.append(("json", json)) }
        if let body { m.append(("text", .text(body))) }
        return .object(m)
    }

    /// `{"status", "headers"?, "json"?, "empty_body"?, "excludes"?}`.
    static func expect(_ status: Int, headers: [(String, CBOR)] = [], json: CBOR? = nil, empty: Bool = false, excludes: [String] = []) -> CBOR {
        var m: Pairs = [("status", int(status))]
        if !headers.isEmpty { m.append(("headers", .object(headers))) }
        if let json { m.append(("json", json)) }
        if empty { m.append(("empty_body", .bool(true))) }
        if !excludes.isEmpty { m.append(("excludes", .array(excludes.map { .text($0) }))) }
        return .object(m)
    }

    static func step(_ name: String, _ request: CBOR, _ expect: CBOR, capture: [(String, String)] = []) -> CBOR {
        var m: Pairs = [("name", .text(name)), ("request", request), ("expect", expect)]
        if !capture.isEmpty { m.append(("capture", .object(capture.map { ($0.0, .text($0.1)) }))) }
        return .object(m)
    }

    static func race(_ name: String, vary: String, values: [String], _ request: CBOR, counts: [(Int, Int)], capture: [(String, Int)] = []) -> CBOR {
        var r: Pairs = [("vary", .text(vary)), ("values", .array(values.map { .text($0) })), ("request", request),
                        ("counts", .object(counts.map { (String($0.0), int($0.1)) }))]
        if !capture.isEmpty { r.append(("capture", .object(capture.map { ($0.0, int($0.1)) }))) }
        return .object([("name", .text(name)), ("race", .object(r))])
    }

    static func timing(_ name: String, vary: String, a: String, b: String, samples: Int, _ request: CBOR, status: Int) -> CBOR {
        .object([("name", .text(name)), ("timing", .object([
            ("vary", .text(vary)), ("a", .text(a)), ("b", .text(b)), ("samples", int(samples)), ("request", request), ("status", int(status)),
        ]))])
    }

    static func scenario(values: [(String, String)] = [], setup: CBOR? = nil, _ steps: [CBOR]) -> CBOR {
        var m: Pairs = []
        if !values.isEmpty { m.append(("values", .object(values.map { ($0.0, .text($0.1)) }))) }
        if let setup { m.append(("setup", setup)) }
        m.append(("steps", .array(steps)))
        return .object(m)
    }

    // MARK: predicates (SPEC §13.1)

    static func eq(_ v: CBOR) -> CBOR { .object([("eq", v)]) }
    static func eq(_ s: String) -> CBOR { eq(.text(s)) }
    static func eq(_ b: Bool) -> CBOR { eq(.bool(b)) }
    static func eq(_ n: Int) -> CBOR { eq(int(n)) }
    static func type(_ t: String) -> CBOR { .object([("type", .text(t))]) }
    static func hex(_ n: Int) -> CBOR { .object([("hex", int(n))]) }
    static func prefix(_ s: String) -> CBOR { .object([("prefix", .text(s))]) }
    static func contains(_ s: String) -> CBOR { .object([("contains", .text(s))]) }
    static func excludes(_ s: String) -> CBOR { .object([("excludes", .text(s))]) }
    static var absent: CBOR { .object([("absent", .bool(true))]) }
    static func object(_ members: Pairs) -> CBOR { .object([("object", .object(members))]) }
    static func array(_ items: [CBOR]) -> CBOR { .object([("array", .array(items))]) }
    static func each(_ p: CBOR) -> CBOR { .object([("each", p)]) }
    static func all(_ ps: [CBOR]) -> CBOR { .object([("all", .array(ps))]) }

    /// `Content-Type` of a JSON answer (SPEC [R13.1-3]).
    static var jsonContentType: (String, CBOR) { ("content-type", prefix("application/json")) }
}

/// Runs a scenario case in-process against a fresh reference service (the `scenario` op of the
/// HTTP formats): the path `generate`'s self-check and the mutant matrix take.
enum InProcessScenario {
    /// Pairs a timing step sends in-process (SPEC §13.1): the statuses are judged, the times are not.
    static let inProcessTimingPairs = 50

    static func run(_ input: JSONValue, service: any HTTPService) throws(WireError) -> JSONValue {
        let scenario = try Scenario.parse(input)
        let outcome = ScenarioInterpreter(transport: InProcessTransport(service), timingPairsCap: inProcessTimingPairs).run(scenario)
        if let f = outcome.failure {
            if f.kind == .scenario { throw WireError(.inputBadValue, f.summary, field: "steps[\(f.step - 1)]") }
            throw WireError(.httpStepFailed, "step \(f.step) (\(f.name)): \(f.summary)" + f.details.map { "; \($0)" }.joined(), field: f.name)
        }
        return .object([("steps", .int(outcome.stepsPassed))])
    }
}

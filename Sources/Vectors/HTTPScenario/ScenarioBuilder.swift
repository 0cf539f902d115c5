import Primitives

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

    /// `{"name", "raw": {"send", "expect", "closes"?}}` (SPEC §13.1's raw step).
    static func raw(_ name: String, _ send: String, _ expect: [CBOR], closes: Bool = false) -> CBOR {
        raw(name, ("send", .text(send)), expect, closes: closes)
    }

    /// A raw step of bytes no JSON text carries (`send_hex`).
    static func raw(_ name: String, bytes: [UInt8], _ expect: [CBOR], closes: Bool = false) -> CBOR {
        raw(name, ("send_hex", .text(Hex.encode(bytes))), expect, closes: closes)
    }

    static func raw(_ name: String, _ send: (String, CBOR), _ expect: [CBOR], closes: Bool) -> CBOR {
        var r: Pairs = [send, ("expect", .array(expect))]
        if closes { r.append(("closes", .bool(true))) }
        return .object([("name", .text(name)), ("raw", .object(r))])
    }

    static func scenario(values: [(String, String)] = [], setup: CBOR? = nil, _ steps: [CBOR]) -> CBOR {
        var m: Pairs = []
        if !values.isEmpty { m.append(("values", .object(values.map { ($0.0, .text($0.1)) }))) }
        if let setup { m.append(("setup", setup)) }
        m.append(("steps", .array(steps)))
        return .object(m)
    }

    static func scenario(values: [(String, String)] = [], setup: CBOR? = nil, excludes: [String], _ steps: [CBOR]) -> CBOR {
        var m: Pairs = []
        if !values.isEmpty { m.append(("values", .object(values.map { ($0.0, .text($0.1)) }))) }
        if let setup { m.append(("setup", setup)) }
        m.append(("excludes", .array(excludes.map { .text($0) })))
        m.append(("steps", .array(steps)))
        return .object(m)
    }

    /// Scenario inputs every reader must refuse, one per number of §13.1 (SPEC [R13.1-5]), built
    /// around one harmless request of the service: (name, what, input, code). Both HTTP formats
    /// get the same table.
    static func inputFaults(_ request: CBOR, status: Int) -> [(String, String, CBOR, ErrorCode)] {
        let u64max = CBOR.jsonNumber("18446744073709551615"), beyond = CBOR.jsonNumber("18446744073709551616")
        func expecting(_ st: CBOR, extra: Pairs = []) -> CBOR {
            .object([("steps", .array([.object([("name", .text("probe")), ("request", request), ("expect", .object([("status", st)] + extra))])]))])
        }
        func racing(counts: Pairs, capture: Pairs = []) -> CBOR {
            var r: Pairs = [("vary", .text("n")), ("values", .array([.text("1"), .text("2")])), ("request", request), ("counts", .object(counts))]
            if !capture.isEmpty { r.append(("capture", .object(capture))) }
            return .object([("steps", .array([.object([("name", .text("race")), ("race", .object(r))])]))])
        }
        func timing(status st: CBOR, samples: CBOR = int(10)) -> CBOR {
            .object([("steps", .array([.object([("name", .text("timing")), ("timing", .object([
                ("vary", .text("n")), ("a", .text("1")), ("b", .text("2")), ("samples", samples), ("request", request), ("status", st),
            ]))])]))])
        }
        let key = String(status)
        return [
            ("status-2e64-minus-1", "an expected status of 2^64−1 (the value that trapped serve and the runner): a uint64, outside 100…599", expecting(u64max), .inputBadValue),
            ("status-2e63", "an expected status of 2^63, one past Int64", expecting(.jsonNumber("9223372036854775808")), .inputBadValue),
            ("status-beyond-uint64", "an expected status of 2^64: beyond every integer type", expecting(beyond), .inputBadType),
            ("status-decimal-string-huge", "an expected status as the canonical decimal string of 2^64−1", expecting(.text("18446744073709551615")), .inputBadValue),
            ("status-600", "an expected status of 600: not an HTTP status", expecting(int(600)), .inputBadValue),
            ("status-99", "an expected status of 99: not an HTTP status", expecting(int(99)), .inputBadValue),
            ("status-negative", "an expected status of −1: not unsigned", expecting(.negative(0)), .inputBadType),
            ("status-fraction", "an expected status of 200.0: not an integer", expecting(.jsonNumber("200.0")), .inputBadType),
            ("race-count-2e64-minus-1", "a race count of 2^64−1 answers", racing(counts: [(key, u64max)]), .inputBadValue),
            ("race-count-65", "a race count of 65: a race sends at most 64 requests", racing(counts: [(key, int(65))]), .inputBadValue),
            ("race-key-plus-sign", "a race count keyed \"+\(key)\": not three digits", racing(counts: [("+" + key, int(2))]), .inputBadValue),
            ("race-key-leading-zero", "a race count keyed \"0\(key)\"", racing(counts: [("0" + key, int(2))]), .inputBadValue),
            ("race-key-fullwidth", "a race count keyed in full-width digits", racing(counts: [(String(String.UnicodeScalarView(key.unicodeScalars.map { Unicode.Scalar($0.value - 0x30 + 0xFF10)! })), int(2))]), .inputBadValue),
            ("race-capture-2e64-minus-1", "a race capture of status 2^64−1", racing(counts: [(key, int(2))], capture: [("x", u64max)]), .inputBadValue),
            ("timing-status-2e64-minus-1", "a timing status of 2^64−1", timing(status: u64max), .inputBadValue),
            ("timing-samples-2e64-minus-1", "a timing step of 2^64−1 samples", timing(status: int(status), samples: u64max), .inputBadValue),
            ("hex-length-2e64-minus-1", "a hex predicate of length 2^64−1", expecting(int(status), extra: [("json", .object([("hex", u64max)]))]), .inputBadValue),
            ("excludes-unknown-name", "a scenario excludes naming neither a value nor a capture", .object([("excludes", .array([.text("${nobody}")])), ("steps", expecting(int(status))["steps"]!)]), .inputBadValue),
            ("raw-expect-empty", "a raw step expecting no answer (1 to 16)", raw(send: .text(probe), expect: []), .inputBadValue),
            ("raw-expect-17", "a raw step expecting 17 answers (1 to 16)", raw(send: .text(probe), expect: Array(repeating: expectOK, count: 17)), .inputBadValue),
            ("raw-send-empty", "a raw step sending no byte", raw(send: .text(""), expect: [expectOK]), .inputBadValue),
            ("raw-send-number", "a raw step whose send is a number, not a text", raw(send: int(1), expect: [expectOK]), .inputBadType),
            ("raw-closes-text", "a raw step whose closes is the text \"true\", not a boolean", raw(send: .text(probe), expect: [expectOK], closes: .text("true")), .inputBadType),
            ("raw-send-and-send-hex", "a raw step with both send and send_hex", .object([("steps", .array([.object([("name", .text("raw")), ("raw", .object([("send", .text(probe)), ("send_hex", .text("00")), ("expect", .array([expectOK]))]))])]))]), .inputBadValue),
            ("raw-send-hex-odd", "a raw step whose send_hex has an odd number of digits", .object([("steps", .array([.object([("name", .text("raw")), ("raw", .object([("send_hex", .text("0a0")), ("expect", .array([expectOK]))]))])]))]), .inputBadValue),
            ("raw-status-2e64-minus-1", "a raw step's expected status of 2^64−1", raw(send: .text(probe), expect: [.object([("status", u64max)])]), .inputBadValue),
        ]
    }

    /// A raw step input (SPEC §13.1) for `inputFaults`: the request line of a probe and its members as given.
    static let probe = "GET /hello HTTP/1.1\r\nHost: conformance\r\n\r\n"
    static let expectOK = CBOR.object([("status", int(200))])
    static func raw(send: CBOR, expect: [CBOR], closes: CBOR? = nil) -> CBOR {
        var r: Pairs = [("send", send), ("expect", .array(expect))]
        if let closes { r.append(("closes", closes)) }
        return .object([("steps", .array([.object([("name", .text("raw")), ("raw", .object(r))])]))])
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

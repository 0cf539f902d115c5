/// A scenario: the `input` of a case whose op is `scenario` in an HTTP format (SPEC.md §13.1).
/// The runner resets the service with `setup`, then plays the steps in order, each against the
/// answers before it; values captured from one answer are used by the requests after it.
public struct Scenario: Sendable {
    /// Named texts usable as `${name}` from the first step on (tokens, keys).
    public var values: [(String, String)]
    /// The body of `POST /conformance/reset` (SPEC [R13.1-1], [R13.1-2]).
    public var setup: JSONValue
    /// Texts that no answer of any step may carry, in a header field or the body, the test hooks'
    /// answers excepted (SPEC §13.1); a `${name}` captured by a step is checked once it is bound.
    public var excludes: [String] = []
    public var steps: [Step]

    public enum Step: Sendable {
        case request(RequestStep)
        case race(RaceStep)
        case timing(TimingStep)
        case raw(RawStep)

        public var name: String {
            switch self {
            case .request(let s): return s.name
            case .race(let s): return s.name
            case .timing(let s): return s.name
            case .raw(let s): return s.name
            }
        }
    }

    /// A request to build: every text may hold `${name}`.
    public struct RequestTemplate: Sendable {
        public enum Body: Sendable {
            /// Sent as compact JSON with `Content-Type: application/json`.
            case json(JSONValue)
            /// Sent as these UTF-8 bytes, with no Content-Type unless the headers give one.
            case text(String)
        }
        public var method: String
        public var path: String
        public var headers: [(String, String)]
        public var body: Body?
    }

    public struct Expectation: Sendable {
        public var status: Int
        /// Field name (case-insensitive) → a predicate on its value as text.
        public var headers: [(String, Predicate)]
        /// The body must be a strict JSON text (§13.1) meeting this predicate.
        public var json: Predicate?
        /// The body must be empty.
        public var emptyBody: Bool
        /// Texts that must appear nowhere in the answer: no header field and no body byte run
        /// holds them (a token must never be echoed).
        public var excludes: [String]
    }

    public struct RequestStep: Sendable {
        public var name: String
        public var request: RequestTemplate
        public var expect: Expectation
        /// Name → JSON pointer (RFC 6901) into the answer's JSON body; the value must be a string.
        public var capture: [(String, String)]
    }

    /// The same request sent `values.count` times at once, `${vary}` taking each value in turn.
    public struct RaceStep: Sendable {
        public var name: String
        public var vary: String
        public var values: [String]
        public var request: RequestTemplate
        /// Status → how many answers carry it; every answer must carry a listed status.
        public var counts: [(Int, Int)]
        /// Name → status: captures the varied value of the first request (in list order) so answered.
        public var capture: [(String, Int)]
    }

    /// `samples` requests with `${vary}` = `a` and as many with `b`, interleaved in a fixed order;
    /// every answer must have `status`; the times feed the Welch t-test (SPEC §6.13), which warns.
    public struct TimingStep: Sendable {
        public var name: String
        public var vary: String
        public var a: String
        public var b: String
        public var samples: Int
        public var request: RequestTemplate
        public var status: Int
    }

    /// Bytes written as they are on a connection of their own: how a service reads a request off
    /// the wire (its framing, SPEC [R13.1-11], and its connections, [R13.1-12]), which a request
    /// step, always framed by the runner with one right `Content-Length`, cannot show.
    public struct RawStep: Sendable {
        public var name: String
        /// What is written, as given: a text (its UTF-8, after `${name}` substitution) or bytes
        /// (`send_hex`: what no JSON text can carry, a body that is not UTF-8).
        public enum Send: Sendable {
            case text(String)
            case bytes([UInt8])
        }
        public var send: Send
        /// The answers read from the connection, in order, each as an answer to the method the
        /// bytes begin with.
        public var expect: [Expectation]
        /// The service must then close the connection, with no byte after the last answer.
        public var closes: Bool

        /// The first request line's method and target (what the answers are read as answers to).
        public static func firstLine(_ bytes: [UInt8]) -> (method: String, target: String) {
            let words = bytes.prefix { $0 != 0x0d && $0 != 0x0a }.split(separator: 0x20, omittingEmptySubsequences: false)
            return (words.first.map { String(decoding: $0, as: UTF8.self) } ?? "", words.count > 1 ? String(decoding: words[1], as: UTF8.self) : "")
        }
    }

    /// The most answers a raw step reads.
    public static let rawAnswersMax = 16

    /// Reads a scenario input; a malformed one is `input_bad_value` / `input_bad_type` naming the path.
    public static func parse(_ input: JSONValue) throws(WireError) -> Scenario {
        var values: [(String, String)] = []
        if let v = try Input.optionalMember(input, "values", path: "") {
            for (k, t) in try Input.object(v, path: "values") { values.append((k, try Input.text(t, path: "values.\(k)"))) }
        }
        let setup = try Input.optionalMember(input, "setup", path: "") ?? .object([])
        guard setup.objectValue != nil else { throw WireError(.inputBadType, "setup is an object", field: "setup") }
        var steps: [Step] = []
        for (i, s) in try Input.array(try Input.member(input, "steps", path: ""), path: "steps").enumerated() {
            steps.append(try step(s, path: "steps[\(i)]"))
        }
        guard !steps.isEmpty else { throw WireError(.inputBadValue, "a scenario has at least one step", field: "steps") }
        var excludes: [String] = []
        if let e = try Input.optionalMember(input, "excludes", path: "") {
            // Every name must be a value or a capture of some step: a typo would check nothing.
            var known = Set(values.map(\.0))
            for s in steps {
                switch s {
                case .request(let r): known.formUnion(r.capture.map(\.0))
                case .race(let r): known.formUnion(r.capture.map(\.0))
                case .timing, .raw: break
                }
            }
            for (i, t) in try Input.array(e, path: "excludes").enumerated() {
                let text = try Input.text(t, path: "excludes[\(i)]")
                guard !text.isEmpty else { throw WireError(.inputBadValue, "an excluded text is not empty", field: "excludes[\(i)]") }
                for name in ScenarioInterpreter.names(in: text) where !known.contains(name) {
                    throw WireError(.inputBadValue, "no value or capture named \(name)", field: "excludes[\(i)]")
                }
                excludes.append(text)
            }
        }
        return Scenario(values: values, setup: setup, excludes: excludes, steps: steps)
    }

    static func step(_ v: JSONValue, path: String) throws(WireError) -> Step {
        let name = try Input.text(try Input.member(v, "name", path: path), path: "\(path).name")
        if let r = try Input.optionalMember(v, "race", path: path) {
            let p = "\(path).race"
            var counts: [(Int, Int)] = []
            for (k, n) in try Input.object(try Input.member(r, "counts", path: p), path: "\(p).counts") {
                counts.append((try statusKey(k, path: "\(p).counts"), try answerCount(n, path: "\(p).counts.\(k)")))
            }
            var capture: [(String, Int)] = []
            if let c = try Input.optionalMember(r, "capture", path: p) {
                for (k, s) in try Input.object(c, path: "\(p).capture") { capture.append((k, try status(s, path: "\(p).capture.\(k)"))) }
            }
            let vals = try Input.array(try Input.member(r, "values", path: p), path: "\(p).values")
            var texts: [String] = []
            for (i, t) in vals.enumerated() { texts.append(try Input.text(t, path: "\(p).values[\(i)]")) }
            guard texts.count >= 2, texts.count <= 64 else { throw WireError(.inputBadValue, "a race sends 2 to 64 requests", field: "\(p).values") }
            return .race(RaceStep(name: name, vary: try Input.text(try Input.member(r, "vary", path: p), path: "\(p).vary"), values: texts,
                                  request: try request(try Input.member(r, "request", path: p), path: "\(p).request"), counts: counts, capture: capture))
        }
        if let t = try Input.optionalMember(v, "timing", path: path) {
            let p = "\(path).timing"
            let samples = try Input.uint64(try Input.member(t, "samples", path: p), path: "\(p).samples")
            guard samples >= 10, samples <= 100_000 else { throw WireError(.inputBadValue, "samples 10…100000", field: "\(p).samples") }
            return .timing(TimingStep(name: name, vary: try Input.text(try Input.member(t, "vary", path: p), path: "\(p).vary"),
                                      a: try Input.text(try Input.member(t, "a", path: p), path: "\(p).a"),
                                      b: try Input.text(try Input.member(t, "b", path: p), path: "\(p).b"),
                                      samples: Int(samples),
                                      request: try request(try Input.member(t, "request", path: p), path: "\(p).request"),
                                      status: try status(try Input.member(t, "status", path: p), path: "\(p).status")))
        }
        if let r = try Input.optionalMember(v, "raw", path: path) {
            let p = "\(path).raw"
            let text = try Input.optionalMember(r, "send", path: p)
            let hex = try Input.optionalMember(r, "send_hex", path: p)
            let send: RawStep.Send
            switch (text, hex) {
            case (let t?, nil):
                let s = try Input.text(t, path: "\(p).send")
                guard !s.isEmpty else { throw WireError(.inputBadValue, "a raw step sends at least one byte", field: "\(p).send") }
                send = .text(s)
            case (nil, let h?):
                let b = try Input.bytes(h, path: "\(p).send_hex")
                guard !b.isEmpty else { throw WireError(.inputBadValue, "a raw step sends at least one byte", field: "\(p).send_hex") }
                send = .bytes(b)
            case (nil, nil): throw WireError(.inputMissingField, "a raw step has send or send_hex", field: "\(p).send")
            case (_?, _?): throw WireError(.inputBadValue, "send or send_hex, not both", field: p)
            }
            let list = try Input.array(try Input.member(r, "expect", path: p), path: "\(p).expect")
            guard (1...rawAnswersMax).contains(list.count) else {
                throw WireError(.inputBadValue, "a raw step expects 1 to \(rawAnswersMax) answers, got \(list.count)", field: "\(p).expect")
            }
            var expects: [Expectation] = []
            for (i, e) in list.enumerated() { expects.append(try expectation(e, path: "\(p).expect[\(i)]")) }
            let closes = try Input.optionalMember(r, "closes", path: p).map { (b) throws(WireError) in try Input.bool(b, path: "\(p).closes") } ?? false
            return .raw(RawStep(name: name, send: send, expect: expects, closes: closes))
        }
        let req = try request(try Input.member(v, "request", path: path), path: "\(path).request")
        let exp = try expectation(try Input.member(v, "expect", path: path), path: "\(path).expect")
        var capture: [(String, String)] = []
        if let c = try Input.optionalMember(v, "capture", path: path) {
            for (k, ptr) in try Input.object(c, path: "\(path).capture") { capture.append((k, try Input.text(ptr, path: "\(path).capture.\(k)"))) }
        }
        return .request(RequestStep(name: name, request: req, expect: exp, capture: capture))
    }

    public static func request(_ v: JSONValue, path: String) throws(WireError) -> RequestTemplate {
        let method = try Input.text(try Input.member(v, "method", path: path), path: "\(path).method")
        let target = try Input.text(try Input.member(v, "path", path: path), path: "\(path).path")
        var headers: [(String, String)] = []
        if let h = try Input.optionalMember(v, "headers", path: path) {
            for (i, pair) in try Input.array(h, path: "\(path).headers").enumerated() {
                let items = try Input.array(pair, path: "\(path).headers[\(i)]")
                guard items.count == 2 else { throw WireError(.inputBadValue, "a header is [name, value]", field: "\(path).headers[\(i)]") }
                headers.append((try Input.text(items[0], path: "\(path).headers[\(i)][0]"), try Input.text(items[1], path: "\(path).headers[\(i)][1]")))
            }
        }
        var body: RequestTemplate.Body?
        if let j = try Input.optionalMember(v, "json", path: path) { body = .json(j) }
        if let t = try Input.optionalMember(v, "text", path: path) {
            guard body == nil else { throw WireError(.inputBadValue, "json or text, not both", field: path) }
            body = .text(try Input.text(t, path: "\(path).text"))
        }
        return RequestTemplate(method: method, path: target, headers: headers, body: body)
    }

    static func expectation(_ v: JSONValue, path: String) throws(WireError) -> Expectation {
        let status = try status(try Input.member(v, "status", path: path), path: "\(path).status")
        var headers: [(String, Predicate)] = []
        if let h = try Input.optionalMember(v, "headers", path: path) {
            for (k, p) in try Input.object(h, path: "\(path).headers") { headers.append((k, try Predicate.parse(p, path: "\(path).headers.\(k)"))) }
        }
        let json = try Input.optionalMember(v, "json", path: path).map { (p) throws(WireError) in try Predicate.parse(p, path: "\(path).json") }
        let empty = try Input.optionalMember(v, "empty_body", path: path).map { (b) throws(WireError) in try Input.bool(b, path: "\(path).empty_body") } ?? false
        var excludes: [String] = []
        if let e = try Input.optionalMember(v, "excludes", path: path) {
            for (i, t) in try Input.array(e, path: "\(path).excludes").enumerated() { excludes.append(try Input.text(t, path: "\(path).excludes[\(i)]")) }
        }
        return Expectation(status: status, headers: headers, json: json, emptyBody: empty, excludes: excludes)
    }

    // MARK: - Numbers (SPEC §13.1: every number of a scenario is read through these, never a bare `Int(_:)`)

    /// An HTTP status: an unsigned integer by §2.2 rule 3 (a non-integer, a negative value or one
    /// beyond 2^64−1 is `input_bad_type`), then 100…599 (RFC 9110 §15), else `input_bad_value`.
    static func status(_ v: JSONValue, path: String) throws(WireError) -> Int {
        let n = try Input.uint64(v, path: path)
        guard let s = Int(exactly: n), (100...599).contains(s) else {
            throw WireError(.inputBadValue, "a status is an integer from 100 to 599, got \(n)", field: path)
        }
        return s
    }

    /// A status written as an object member name (a race's `counts`): exactly three ASCII digits,
    /// the first 1–5, so `"+200"`, `"0200"`, `"２００"` and `"600"` are `input_bad_value`.
    static func statusKey(_ k: String, path: String) throws(WireError) -> Int {
        let u = Array(k.utf8)
        guard u.count == 3, (0x31...0x35).contains(u[0]), u.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw WireError(.inputBadValue, "counts keys are statuses 100…599 in three decimal digits, got \(JSONComparisonText.render(.string(k)))", field: path)
        }
        return u.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// How many answers of a race carry a status: an unsigned integer (§2.2 rule 3), at most 64
    /// (a race sends at most 64 requests), else `input_bad_value`.
    static func answerCount(_ v: JSONValue, path: String) throws(WireError) -> Int {
        let n = try Input.uint64(v, path: path)
        guard n <= 64 else { throw WireError(.inputBadValue, "a race sends at most 64 requests, so a count is 0…64, got \(n)", field: path) }
        return Int(n)
    }
}

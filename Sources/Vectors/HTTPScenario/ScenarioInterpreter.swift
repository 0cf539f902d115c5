import Foundation

/// Plays a scenario against a service through a transport and judges every answer (SPEC.md
/// §13.1, §6.13). Stops at the first step that fails: later steps depend on earlier ones.
public struct ScenarioInterpreter: Sendable {
    public let transport: any ScenarioTransport
    /// Appended as `Host` to every request (the socket transport's authority).
    public var host: String
    /// At most this many pairs per timing step (nil: the step's `samples`). The in-process run
    /// uses a few: its timings mean nothing, only the statuses are judged.
    public var timingPairsCap: Int?

    public init(transport: any ScenarioTransport, host: String = "127.0.0.1", timingPairsCap: Int? = nil) {
        self.transport = transport
        self.host = host
        self.timingPairsCap = timingPairsCap
    }

    public struct Outcome: Sendable {
        /// Steps that passed (the reset not counted).
        public var stepsPassed: Int
        public var failure: StepFailure?
        public var figures: [TimingFigure]
        public var passed: Bool { failure == nil }
    }

    public struct StepFailure: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// An answer arrived and is not the one the step expects.
            case expectation
            /// No usable answer (see `TransportFailure.Kind`).
            case transport(TransportFailure.Kind)
            /// The scenario itself is unusable (an unknown `${name}`): a vector bug.
            case scenario
        }
        /// 0 for the reset hook, then 1-based step numbers.
        public var step: Int
        public var name: String
        public var kind: Kind
        public var summary: String
        public var details: [String]
    }

    /// Path of the hook every scenario starts with (SPEC [R13.1-1]).
    public static let resetPath = "/conformance/reset"

    public func run(_ scenario: Scenario) -> Outcome {
        var vars: [(String, String)] = scenario.values
        var figures: [TimingFigure] = []
        func fail(_ step: Int, _ name: String, _ kind: StepFailure.Kind, _ summary: String, _ details: [String] = []) -> Outcome {
            Outcome(stepsPassed: max(0, step - 1), failure: StepFailure(step: step, name: name, kind: kind, summary: summary, details: details), figures: figures)
        }

        let reset = HTTPRequest(method: "POST", target: Self.resetPath,
                                headers: [HTTPField("Host", host), HTTPField("Content-Type", "application/json")],
                                body: Array(scenario.setup.compact.utf8))
        switch transport.send(reset) {
        case .failure(let f):
            return fail(0, "reset", .transport(f.kind), "POST \(Self.resetPath): \(f.message)")
        case .success(let r) where r.status != 204:
            return fail(0, "reset", .expectation, "POST \(Self.resetPath) answered \(r.status), expected 204: the service must expose the test hooks of SPEC §13.1",
                        [Self.preview(r)])
        case .success(let r):
            if let fault = Self.framingFault(r, method: "POST") {
                return fail(0, "reset", .expectation, "POST \(Self.resetPath): \(fault)", [Self.preview(r)])
            }
        }

        /// What every answer of every step must meet whatever the step expects (SPEC §6.13): no
        /// content where its status or method allows none, and no text of the scenario's `excludes`.
        func common(_ r: HTTPResponse, _ req: HTTPRequest, _ vars: [(String, String)]) -> String? {
            if let fault = Self.framingFault(r, method: req.method) { return fault }
            guard !req.path.hasPrefix("/conformance/") else { return nil }
            for x in scenario.excludes {
                guard let text = try? Self.substitute(x, vars) else { continue }  // captured by a later step
                if let place = Self.carrier(of: text, in: r) {
                    return "\(place) carries \(JSONComparisonText.render(.string(text))), which no answer may send (the scenario's excludes)"
                }
            }
            return nil
        }

        for (index, step) in scenario.steps.enumerated() {
            let n = index + 1
            do {
                switch step {
                case .request(let s):
                    let req = try build(s.request, vars)
                    switch transport.send(req) {
                    case .failure(let f):
                        return fail(n, s.name, .transport(f.kind), "\(req.method) \(req.target): \(f.message)")
                    case .success(let answer):
                        if let fault = common(answer, req, vars) {
                            return fail(n, s.name, .expectation, "\(req.method) \(req.target): \(fault)", [Self.preview(answer)])
                        }
                        if let (summary, details) = try judge(answer, s.expect, vars) {
                            return fail(n, s.name, .expectation, "\(req.method) \(req.target): \(summary)", details)
                        }
                        for (name, pointer) in s.capture {
                            guard case .success(let body) = StrictJSON.parse(answer.body), let v = Self.resolve(pointer, in: body) else {
                                return fail(n, s.name, .expectation, "\(req.method) \(req.target): nothing to capture at \(pointer)", [Self.preview(answer)])
                            }
                            guard let text = v.stringValue ?? (StrictJSON.isIntegerNumber(v) ? v.compact : nil) else {
                                return fail(n, s.name, .expectation, "\(req.method) \(req.target): \(pointer) is not a string", [Self.preview(answer)])
                            }
                            vars.append((name, text))
                        }
                    }

                case .race(let s):
                    var requests: [HTTPRequest] = []
                    for v in s.values { requests.append(try build(s.request, vars + [(s.vary, v)])) }
                    let answers = transport.sendConcurrently(requests)
                    var statuses: [Int] = []
                    for (i, a) in answers.enumerated() {
                        switch a {
                        case .failure(let f):
                            return fail(n, s.name, .transport(f.kind), "request \(i + 1) of \(answers.count) in the race: \(f.message)")
                        case .success(let r):
                            if let fault = common(r, requests[i], vars) {
                                return fail(n, s.name, .expectation, "request \(i + 1) of \(answers.count) in the race, \(requests[i].method) \(requests[i].target): \(fault)", [Self.preview(r)])
                            }
                            statuses.append(r.status)
                        }
                    }
                    var got: [Int: Int] = [:]
                    for st in statuses { got[st, default: 0] += 1 }
                    let want = Dictionary(s.counts, uniquingKeysWith: { a, _ in a })
                    let keys = Set(got.keys).union(want.keys).sorted()
                    if keys.contains(where: { got[$0, default: 0] != want[$0, default: 0] }) {
                        let show = { (m: [Int: Int]) in keys.filter { m[$0, default: 0] > 0 }.map { "\($0) × \(m[$0]!)" }.joined(separator: ", ") }
                        return fail(n, s.name, .expectation, "\(answers.count) concurrent \(s.request.method) \(s.request.path): expected \(show(want)), got \(show(got))",
                                    ["answers in request order: \(statuses.map(String.init).joined(separator: " "))"])
                    }
                    for (name, status) in s.capture {
                        guard let i = statuses.firstIndex(of: status) else {
                            return fail(n, s.name, .expectation, "no answer in the race has status \(status) to capture \(name)")
                        }
                        vars.append((name, s.values[i]))
                    }

                case .raw(let s):
                    let bytes: [UInt8]
                    switch s.send {
                    case .text(let t): bytes = Array(try Self.substitute(t, vars).utf8)
                    case .bytes(let b): bytes = b
                    }
                    let (method, target) = Scenario.RawStep.firstLine(bytes)
                    let shown = "the raw bytes (\(bytes.count), \(method) \(target))"
                    switch transport.sendRaw(bytes, answers: s.expect.count, method: method, awaitClose: s.closes) {
                    case .failure(let f):
                        return fail(n, s.name, .transport(f.kind), "\(shown): \(f.message)")
                    case .success(let x):
                        let req = HTTPRequest(method: method, target: target)
                        for (i, (answer, e)) in zip(x.responses, s.expect).enumerated() {
                            let which = "answer \(i + 1) of \(s.expect.count) to \(shown)"
                            if let fault = common(answer, req, vars) {
                                return fail(n, s.name, .expectation, "\(which): \(fault)", [Self.preview(answer)])
                            }
                            if let (summary, details) = try judge(answer, e, vars) {
                                return fail(n, s.name, .expectation, "\(which): \(summary)", details)
                            }
                        }
                        if s.closes && !x.closed {
                            return fail(n, s.name, .expectation, "\(shown): the connection stayed open (or carried more bytes) after answer \(s.expect.count); the service must close it there (SPEC R13.1-11, R13.1-12)")
                        }
                    }

                case .timing(let s):
                    let reqA = try build(s.request, vars + [(s.vary, s.a)])
                    let reqB = try build(s.request, vars + [(s.vary, s.b)])
                    // Pairs in a fixed pseudo-random order, so drift over time hits both classes alike.
                    var g = SeededGenerator(seed: 0x7153_CE57)
                    let samples = min(s.samples, timingPairsCap ?? s.samples)
                    let warmup = min(50, samples / 10)
                    var order: [Bool] = []  // true = a
                    for _ in 0..<(samples + warmup) {
                        let aFirst = g.next() & 1 == 0
                        order.append(aFirst)
                        order.append(!aFirst)
                    }
                    let answers = transport.sendTimed(order.map { $0 ? reqA : reqB })
                    var ta: [Double] = [], tb: [Double] = []
                    for (i, a) in answers.enumerated() {
                        switch a {
                        case .failure(let f):
                            return fail(n, s.name, .transport(f.kind), "timing request \(i + 1) of \(answers.count): \(f.message)")
                        case .success(let r):
                            let sent = order[i] ? reqA : reqB
                            if let fault = common(r.response, sent, vars) {
                                return fail(n, s.name, .expectation, "timing request \(i + 1) of \(answers.count) (\(order[i] ? "a" : "b")): \(fault)", [Self.preview(r.response)])
                            }
                            guard r.response.status == s.status else {
                                return fail(n, s.name, .expectation, "timing request \(i + 1) of \(answers.count) (\(order[i] ? "a" : "b")): expected status \(s.status), got \(r.response.status)",
                                            [Self.preview(r.response)])
                            }
                            if i >= 2 * warmup { if order[i] { ta.append(Double(r.nanos)) } else { tb.append(Double(r.nanos)) } }
                        }
                    }
                    figures.append(TimingFigure(step: s.name, test: WelchTest.compute(ta, tb)))
                }
            } catch {
                return fail(n, step.name, .scenario, "the scenario is unusable: \(error)")
            }
        }
        return Outcome(stepsPassed: scenario.steps.count, failure: nil, figures: figures)
    }

    // MARK: - Building requests

    /// The request a template names once `${name}` is replaced (public: the HTTP fuzzer records
    /// the reference's answers to the very requests the interpreter will send).
    public func build(_ t: Scenario.RequestTemplate, _ vars: [(String, String)]) throws(WireError) -> HTTPRequest {
        let sub = { (s: String) throws(WireError) -> String in try Self.substitute(s, vars) }
        var headers = [HTTPField("Host", host)]
        for (k, v) in t.headers { headers.append(HTTPField(try sub(k), try sub(v))) }
        var body: [UInt8] = []
        switch t.body {
        case .json(let j)?:
            body = Array(try Predicate.substitute(j, sub).compact.utf8)
            if !headers.contains(where: { HTTPField.sameName($0.name, "Content-Type") }) {
                headers.append(HTTPField("Content-Type", "application/json"))
            }
        case .text(let s)?:
            body = Array(try sub(s).utf8)
        case nil:
            break
        }
        return HTTPRequest(method: try sub(t.method), target: try sub(t.path), headers: headers, body: body)
    }

    /// Replaces every `${name}` (the last capture of a name wins); an unknown name is an error.
    public static func substitute(_ s: String, _ vars: [(String, String)]) throws(WireError) -> String {
        let u = Array(s.utf8)
        guard u.contains(UInt8(ascii: "$")) else { return s }
        var out: [UInt8] = []
        var i = 0
        while i < u.count {
            if u[i] == UInt8(ascii: "$"), i + 1 < u.count, u[i + 1] == UInt8(ascii: "{"),
               let close = u[(i + 2)...].firstIndex(of: UInt8(ascii: "}")) {
                let name = String(decoding: u[(i + 2)..<close], as: UTF8.self)
                guard let value = vars.last(where: { $0.0.utf8.elementsEqual(name.utf8) })?.1 else {
                    throw WireError(.inputBadValue, "no value named \(name)", field: name)
                }
                out.append(contentsOf: value.utf8)
                i = close + 1
            } else {
                out.append(u[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - Judging

    /// Nil when the answer meets the expectation, else a summary and detail lines.
    func judge(_ r: HTTPResponse, _ e: Scenario.Expectation, _ vars: [(String, String)]) throws(WireError) -> (String, [String])? {
        let sub = { (s: String) throws(WireError) -> String in try Self.substitute(s, vars) }
        guard r.status == e.status else {
            return ("expected status \(e.status), got \(r.status)", [Self.preview(r)])
        }
        for (name, p) in e.headers {
            let value = r.values(name).first.map { JSONValue.string(String(decoding: $0, as: UTF8.self)) }
            if let d = try p.check(value, path: "header \(name)", subst: sub) { return (d, [Self.preview(r)]) }
        }
        if e.emptyBody, !r.body.isEmpty {
            return ("expected no body, got \(r.body.count) byte(s)", [Self.preview(r)])
        }
        for x in e.excludes {
            let text = try sub(x)
            if let place = Self.carrier(of: text, in: r) {
                return ("\(place) carries \(JSONComparisonText.render(.string(text))), which must never be sent back", [Self.preview(r)])
            }
        }
        if let p = e.json {
            switch StrictJSON.parse(r.body) {
            case .failure(let f):
                return ("the body is not strict JSON (\(f))", [Self.preview(r)])
            case .success(let v):
                if let d = try p.check(v, path: "body", subst: sub) { return (d, [Self.preview(r)]) }
            }
        }
        return nil
    }

    /// Where an answer carries a text: `header X-Name` (its name or value), `the body`, or nil.
    public static func carrier(of text: String, in r: HTTPResponse) -> String? {
        for f in r.headers where Predicate.bytes(Array(f.name.utf8), contain: text.utf8) || Predicate.bytes(f.value, contain: text.utf8) {
            return "header \(f.name)"
        }
        return Predicate.bytes(r.body, contain: text.utf8) ? "the body" : nil
    }

    /// What an answer sends that its status or the request's method forbids (SPEC §6.13), judged on
    /// the bytes on the wire: content after the header section of a 204, a 304 or an answer to HEAD
    /// (RFC 9110 §15.3.5, §15.4.5, §9.3.2), and a 204 declaring a body, by a `Content-Length` other
    /// than 0 or any `Transfer-Encoding` (RFC 9110 §8.6, RFC 9112 §6.1). Nil when there is none.
    public static func framingFault(_ r: HTTPResponse, method: String) -> String? {
        let headOnly = method == "HEAD"
        guard r.status == 204 || r.status == 304 || headOnly else { return nil }
        let what = headOnly ? "the answer to HEAD (\(r.status))" : "a \(r.status) answer"
        if !r.body.isEmpty {
            return "\(what) carries \(r.body.count) byte(s) of content after its header section, where it can have none: a client on a kept-alive connection would read them as the next answer"
        }
        guard r.status == 204 else { return nil }
        for v in r.values("Content-Length") where !v.elementsEqual("0".utf8) {
            return "a 204 answer declares Content-Length: \(String(decoding: v, as: UTF8.self)) (a 204 has no content; RFC 9110 §8.6)"
        }
        if let te = r.values("Transfer-Encoding").first {
            return "a 204 answer carries Transfer-Encoding: \(String(decoding: te, as: UTF8.self)) (RFC 9112 §6.1)"
        }
        return nil
    }

    /// The names of the `${name}` references in a text, in order.
    public static func names(in s: String) -> [String] {
        let u = Array(s.utf8)
        var out: [String] = []
        var i = 0
        while i + 1 < u.count {
            if u[i] == UInt8(ascii: "$"), u[i + 1] == UInt8(ascii: "{"), let close = u[(i + 2)...].firstIndex(of: UInt8(ascii: "}")) {
                out.append(String(decoding: u[(i + 2)..<close], as: UTF8.self))
                i = close + 1
            } else {
                i += 1
            }
        }
        return out
    }

    /// RFC 6901 pointer resolution (`""` is the whole value).
    public static func resolve(_ pointer: String, in v: JSONValue) -> JSONValue? {
        guard !pointer.isEmpty else { return v }
        guard pointer.hasPrefix("/") else { return nil }
        var cur = v
        for raw in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let token = raw.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch cur {
            case .object: guard let next = cur[token] else { return nil }; cur = next
            case .array(let a):
                // RFC 6901 §4: an index is "0" or digits without a leading zero (no sign, no space).
                let u = Array(token.utf8)
                guard !u.isEmpty, u.count <= 18, u.allSatisfy({ (0x30...0x39).contains($0) }), u == [0x30] || u[0] != 0x30,
                      let i = Int(token), i < a.count else { return nil }
                cur = a[i]
            default: return nil
            }
        }
        return cur
    }

    /// `answer: 409 Conflict, 98 bytes: {"error":…}` (at most 300 bytes of body, lossy UTF-8).
    public static func preview(_ r: HTTPResponse) -> String {
        let shown = r.body.prefix(300)
        var text = ""
        for u in String(decoding: shown, as: UTF8.self).unicodeScalars {
            switch u.value {
            case 0x0a: text += "\\n"
            case 0x0d: text += "\\r"
            case 0..<0x20, 0x7f: text += "\\x" + (u.value < 0x10 ? "0" : "") + String(u.value, radix: 16)
            default: text.unicodeScalars.append(u)
            }
        }
        let more = r.body.count > shown.count ? "…" : ""
        return "answer: \(r.status) \(r.reason), \(r.body.count) byte(s)\(r.body.isEmpty ? "" : ": \(text)\(more)")"
    }
}

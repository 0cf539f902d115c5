import Testing
@testable import Vectors

/// The raw scenario step (SPEC.md §13.1) and the request framing it carries ([R13.1-11],
/// [R13.1-12]), played in-process against the reference services.
struct RawStepTests {
    static func scenario(_ steps: String) throws -> Scenario {
        try Scenario.parse(try JSONValue.parse(#"{"steps":[\#(steps)]}"#))
    }

    static func raw(_ send: String, _ statuses: [Int], closes: Bool = false) -> String {
        let sendJSON = JSONValue.string(send).compact
        let expects = statuses.map { #"{"status":\#($0)}"# }.joined(separator: ",")
        return #"{"name":"raw","raw":{"send":\#(sendJSON),"expect":[\#(expects)]\#(closes ? #","closes":true"# : "")}}"#
    }

    static func play(_ steps: String) throws -> ScenarioInterpreter.Outcome {
        ScenarioInterpreter(transport: InProcessTransport(PairingService())).run(try scenario(steps))
    }

    static let hello = "GET /hello HTTP/1.1\r\nHost: h\r\n\r\n"

    /// 1 to 16 answers: both ends of the limit.
    @Test func expectCountLimit() throws {
        let sixteen = Self.raw(Self.hello, Array(repeating: 200, count: 16))
        guard case .raw(let s) = try Self.scenario(sixteen).steps[0] else { Issue.record("not a raw step"); return }
        #expect(s.expect.count == 16)
        for n in [0, 17] {
            do {
                _ = try Self.scenario(Self.raw(Self.hello, Array(repeating: 200, count: n)))
                Issue.record("\(n) answers read")
            } catch let e as WireError {
                #expect(e.code == .inputBadValue)
            }
        }
    }

    /// Two pipelined requests: two answers in order; `closes` fails when the service keeps the
    /// connection (the check can fail), and holds after `Connection: close`.
    @Test func pipelinedAndCloses() throws {
        let bad = "POST /pair HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\n[]"
        #expect(try Self.play(Self.raw(bad + Self.hello, [400, 200])).passed)
        #expect(try !Self.play(Self.raw(bad + Self.hello, [200, 400])).passed)
        let kept = try Self.play(Self.raw(bad + Self.hello, [400], closes: true))
        #expect(kept.failure?.summary.contains("stayed open") == true)
        let closing = "POST /pair HTTP/1.1\r\nHost: h\r\nConnection: close\r\nContent-Length: 2\r\n\r\n[]"
        #expect(try Self.play(Self.raw(closing + Self.hello, [400], closes: true)).passed)
        // A second answer expected where the connection ended after the first.
        let short = try Self.play(Self.raw(closing + Self.hello, [400, 200]))
        #expect(short.failure?.kind == .transport(.closed))
    }

    /// R13.1-11's order: each step alone, and step 2 (both fields) before step 4 (a coding not
    /// decoded), the one pair whose statuses differ.
    @Test func framingFaultsInOrder() throws {
        func status(_ fields: [String], version: String = "HTTP/1.1") -> Int? {
            let bytes = "POST /pair \(version)\r\nHost: h\r\n" + fields.map { $0 + "\r\n" }.joined() + "\r\n2\r\n{}\r\n0\r\n\r\n"
            guard case .refused(let r)? = HTTPRequestReader.read(Array(bytes.utf8)).first else { return nil }
            return r.status
        }
        #expect(status(["Transfer-Encoding: chunked"]) == nil)
        #expect(status(["Transfer-Encoding: Chunked"]) == nil)
        #expect(status(["Transfer-Encoding: chunked"], version: "HTTP/1.0") == 400)
        #expect(status(["Transfer-Encoding: chunked", "Content-Length: 13"]) == 400)
        #expect(status(["Transfer-Encoding: gzip"]) == 400)
        #expect(status(["Transfer-Encoding: chunked, gzip"]) == 400)
        #expect(status(["Transfer-Encoding: gzip, chunked"]) == 501)
        #expect(status(["Transfer-Encoding: gzip", "Transfer-Encoding: chunked"]) == 501)
        #expect(status(["Transfer-Encoding: gzip, chunked", "Content-Length: 13"]) == 400)
    }

    /// Every framing case both formats generate passes in-process against its reference, and
    /// each refused one is refused by the first request alone (the request after it is never
    /// read: its answer would break `closes`).
    @Test func framingBatteryHoldsInProcess() throws {
        let route = HTTPFraming.Route(path: "/pair", good: #"{"token":"\#(PairingVectors.t1)"}"#,
                                      goodAnswer: .object([("status", .unsigned(200))]), after: [], emptyStatus: 400, badStatus: 400,
                                      next: Self.hello, nextStatus: 200)
        let cases = HTTPFraming.cases(route)
        #expect(cases.count == 41)
        for c in cases {
            let input = CBOR.object([("steps", .array(c.steps))]).json
            let outcome = ScenarioInterpreter(transport: InProcessTransport(PairingService())).run(try Scenario.parse(input))
            #expect(outcome.passed, "\(c.name): \(outcome.failure?.summary ?? "")")
        }
    }
}

import Conformance
import Foundation
import Testing
import Vectors

/// The runner judges the bytes on the wire (SPEC.md §6.13, [R13.1-4]) and every answer for leaks
/// ([R13.2-12], [R13.4-13]): hand-made services in front of the reference ones, each breaking
/// exactly one thing, each failed by the case that claims to catch it, and by that fault (the
/// same case passes once the proxy is honest).
@Suite(.serialized) struct HTTPWireJudgingTests {
    /// A reverse proxy in front of a reference service: each answer the service gives is turned
    /// into the exact bytes written (`rewrite` returns nil to pass the answer on unchanged).
    static func proxy(_ service: any HTTPService,
                      _ rewrite: @escaping @Sendable (HTTPRequest, HTTPResponse, TokenMemo) -> [UInt8]?) -> HTTPServer.Behaviour {
        let memo = TokenMemo()
        return .wire { request in
            let answer = service.handle(request)
            memo.observe(request, answer)
            return rewrite(request, answer, memo) ?? HTTPWire.serialize(answer, close: true, headOnly: request.method == "HEAD")
        }
    }

    /// What a leaking proxy knows: the token a `POST /pair` answered 200 stored, the bearer of a request.
    final class TokenMemo: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: String?

        func observe(_ r: HTTPRequest, _ a: HTTPResponse) {
            guard r.method == "POST", r.path == "/pair", a.status == 200,
                  case .success(let v) = StrictJSON.object(r.body), let t = v["token"]?.stringValue else { return }
            lock.withLock { stored = t }
        }

        var token: String? { lock.withLock { stored } }
    }

    static func run(_ format: String, _ behaviour: HTTPServer.Behaviour, only: [String]) throws -> HTTPRunResult {
        try HTTPTests.withServer(behaviour) { try HTTPTests.run(format, port: $0, only: only) }
    }

    static func failure(_ r: HTTPRunResult, _ id: String) -> Failure? {
        r.run.records.first { $0.id == id }?.outcome.failure
    }

    static func raw(_ s: String) -> [UInt8] { Array(s.utf8) }

    // MARK: - Content where none may be

    static let remove204 = "revocation/scenario/remove/answers-204-no-body"

    /// The 204s of the routes (not of the hooks) rewritten as `head` + `content`.
    static func bad204(head: String, content: String) -> HTTPServer.Behaviour {
        proxy(IdentityService()) { req, answer, _ in
            guard answer.status == 204, !req.path.hasPrefix("/conformance/") else { return nil }
            return raw("HTTP/1.1 204 No Content\r\n\(head)Connection: close\r\n\r\n\(content)")
        }
    }

    @Test func a204WithContentFails() throws {
        let r = try Self.run("revocation", Self.bad204(head: "Content-Length: 16\r\n", content: "{\"removed\":true}"), only: [Self.remove204])
        let f = try #require(Self.failure(r, Self.remove204))
        #expect(f.kind == .wrongOutput)
        #expect(f.summary == "step 3 of 4 (remove): POST /v1/sync/siblings/remove: a 204 answer carries 16 byte(s) of content after its header section, where it can have none: a client on a kept-alive connection would read them as the next answer")
    }

    @Test func a204WithContentButNoLengthFails() throws {
        // Framed by nothing at all: only reading on past the header section sees the bytes.
        let r = try Self.run("revocation", Self.bad204(head: "", content: "stray"), only: [Self.remove204])
        let f = try #require(Self.failure(r, Self.remove204))
        #expect(f.summary.hasSuffix("a 204 answer carries 5 byte(s) of content after its header section, where it can have none: a client on a kept-alive connection would read them as the next answer"))
    }

    @Test func a204DeclaringALengthFails() throws {
        let r = try Self.run("revocation", Self.bad204(head: "Content-Length: 16\r\n", content: ""), only: [Self.remove204])
        let f = try #require(Self.failure(r, Self.remove204))
        #expect(f.kind == .wrongOutput)
        #expect(f.summary == "step 3 of 4 (remove): POST /v1/sync/siblings/remove: a 204 answer declares Content-Length: 16 (a 204 has no content; RFC 9110 §8.6)")
        let te = try Self.run("revocation", Self.bad204(head: "Transfer-Encoding: chunked\r\n", content: ""), only: [Self.remove204])
        #expect(Self.failure(te, Self.remove204)?.summary.hasSuffix("a 204 answer carries Transfer-Encoding: chunked (RFC 9112 §6.1)") == true)
    }

    /// The control: the same proxy with `Content-Length: 0` and nothing after the header section
    /// passes, so the failures above are decided by the content and the length, nothing else.
    @Test func a204WithLengthZeroPasses() throws {
        let r = try Self.run("revocation", Self.bad204(head: "Content-Length: 0\r\n", content: ""), only: [Self.remove204, "revocation/scenario/framing/204-ends-at-header"])
        #expect(r.run.records.count == 2)
        #expect(r.run.records.allSatisfy { $0.outcome == .passed }, "\(r.run.records.map { "\($0.id): \($0.outcome)" })")
    }

    @Test func theResetHooks204IsJudgedToo() throws {
        let b = Self.proxy(PairingService()) { req, answer, _ in
            req.path == "/conformance/reset" && answer.status == 204 ? Self.raw("HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n{}") : nil
        }
        let r = try Self.run("pairing", b, only: ["pairing/scenario/hello/unpaired"])
        let f = try #require(Self.failure(r, "pairing/scenario/hello/unpaired"))
        #expect(f.summary.hasPrefix("before step 1 (the reset hook): POST /conformance/reset: a 204 answer carries 2 byte(s) of content"))
    }

    @Test func anAnswerToHeadWithContentFails() throws {
        let id = "pairing/scenario/hello/head-is-not-open"
        let b = Self.proxy(PairingService()) { req, answer, _ in
            req.method == "HEAD" ? HTTPWire.serialize(answer, close: true) : nil  // the content written, as for GET
        }
        let r = try Self.run("pairing", b, only: [id])
        let f = try #require(Self.failure(r, id))
        #expect(f.summary.hasPrefix("step 1 of 3 (head): HEAD /hello: the answer to HEAD (401) carries "))
        // A HEAD answer may declare the length a GET would have (RFC 9110 §9.3.2): that passes.
        let honest = try Self.run("pairing", Self.proxy(PairingService()) { _, _, _ in nil }, only: [id])
        #expect(honest.run.records.first?.outcome == .passed)
    }

    @Test func framingRulesOnAnswers() {
        func answer(_ status: Int, _ fields: [(String, String)] = [], body: String = "") -> HTTPResponse {
            HTTPResponse(status: status, headers: fields.map { HTTPField($0.0, $0.1) }, body: Array(body.utf8))
        }
        #expect(ScenarioInterpreter.framingFault(answer(204), method: "POST") == nil)
        #expect(ScenarioInterpreter.framingFault(answer(204, [("Content-Length", "0")]), method: "POST") == nil)
        #expect(ScenarioInterpreter.framingFault(answer(204, [("Content-Length", "00")]), method: "POST") != nil)
        #expect(ScenarioInterpreter.framingFault(answer(304, [("Content-Length", "120")]), method: "GET") == nil)
        #expect(ScenarioInterpreter.framingFault(answer(304, body: "x"), method: "GET") != nil)
        #expect(ScenarioInterpreter.framingFault(answer(200, [("Content-Length", "120")]), method: "HEAD") == nil)
        #expect(ScenarioInterpreter.framingFault(answer(200, body: "x"), method: "HEAD") != nil)
        #expect(ScenarioInterpreter.framingFault(answer(200, body: "x"), method: "GET") == nil)
    }

    // MARK: - Leaks

    static let pairingLeak = "pairing/scenario/leak/no-answer-carries-the-token"

    /// Every pairing scenario without a scenario-level `excludes` passes the proxy, and the leak
    /// case fails with `want`: the leak, and only the leak, is what fails the cases that fail.
    static func expectOnlyTheLeakCaseFails(_ b: HTTPServer.Behaviour, _ want: String) throws {
        // The proxy answers one request per connection, then closes (its rewritten answers need
        // the close to be delimited), so R13.1-12's pipelined cases are not its to pass.
        let r = try HTTPTests.withServer(b) { try HTTPTests.run("pairing", port: $0, skip: ["*/timing/*", "*/framing/pipelined*"]) }
        let guarded = Set(HTTPTests.scenarios("pairing").filter { $0.input["excludes"] != nil }.map(\.id))
        #expect(guarded.contains(pairingLeak))
        let failing = r.run.records.filter { $0.outcome != .passed }
        #expect(failing.filter { !guarded.contains($0.id) }.map(\.id) == [], "\(failing.map { "\($0.id): \($0.outcome.failure?.summary ?? "")" })")
        #expect(failing.allSatisfy { $0.outcome.failure?.summary.contains("which no answer may send (the scenario's excludes)") == true })
        let f = try #require(Self.failure(r, pairingLeak))
        #expect(f.kind == .wrongOutput)
        #expect(f.summary.contains(want), "\(f.summary)")
    }

    @Test func theTokenInAHeaderOfStatusFails() throws {
        let b = Self.proxy(PairingService()) { req, answer, memo in
            guard req.path == "/status", let t = memo.token else { return nil }
            var a = answer
            a.headers.append(HTTPField("X-Debug-Token", t))
            return HTTPWire.serialize(a, close: true)
        }
        try Self.expectOnlyTheLeakCaseFails(b, "step 3 of 9 (status): GET /status: header X-Debug-Token carries \"")
    }

    @Test func theTokenInTheBodyOfStatusFails() throws {
        let b = Self.proxy(PairingService()) { req, answer, memo in
            guard req.path == "/status", answer.status == 200, let t = memo.token else { return nil }
            return HTTPWire.serialize(.json(200, .object([("ok", .bool(true)), ("token", .string(t))])), close: true)
        }
        try Self.expectOnlyTheLeakCaseFails(b, "step 3 of 9 (status): GET /status: the body carries \"")
    }

    @Test func theTokenInHelloFails() throws {
        let b = Self.proxy(PairingService()) { req, answer, memo in
            guard req.method == "GET", req.path == "/hello", let t = memo.token, case .success(var v) = StrictJSON.object(answer.body), case .object(var m) = v else { return nil }
            m.append(("paired_with", .string(t)))
            v = .object(m)
            return HTTPWire.serialize(.json(200, v), close: true)
        }
        try Self.expectOnlyTheLeakCaseFails(b, "step 2 of 9 (hello): GET /hello: the body carries \"")
    }

    /// A step's own `excludes` now covers headers: the presented token in a header of the 409.
    @Test func aStepsExcludesCoverHeaders() throws {
        let id = "pairing/scenario/pair/first-pair-wins"
        let b = Self.proxy(PairingService()) { req, answer, _ in
            guard answer.status == 409, case .success(let v) = StrictJSON.object(req.body), let t = v["token"]?.stringValue else { return nil }
            var a = answer
            a.headers.append(HTTPField("X-Presented", t))
            return HTTPWire.serialize(a, close: true)
        }
        let r = try Self.run("pairing", b, only: [id])
        let f = try #require(Self.failure(r, id))
        #expect(f.summary.hasPrefix("step 2 of 5 (pair-second): POST /pair: header X-Presented carries \""))
        #expect(f.summary.hasSuffix("\", which must never be sent back"))
    }

    @Test func aSessionTokenEchoedInAHeaderFails() throws {
        let id = "revocation/scenario/leak/no-answer-carries-a-session-token"
        let b = Self.proxy(IdentityService()) { req, answer, _ in
            guard !req.path.hasPrefix("/conformance/"), let h = req.values("Authorization").first else { return nil }
            var a = answer
            a.headers.append(HTTPField(name: "X-Seen-Authorization", value: h))
            return HTTPWire.serialize(a, close: true, headOnly: req.method == "HEAD")
        }
        let r = try Self.run("revocation", b, only: [id, "revocation/scenario/register/*"])
        #expect(r.run.records.filter { $0.outcome != .passed }.map(\.id) == [id])
        let f = try #require(Self.failure(r, id))
        #expect(f.summary.hasPrefix("step 3 of 11 (register): POST /v1/identity/register: header X-Seen-Authorization carries \""))
    }
}

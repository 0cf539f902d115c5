import Conformance
import Foundation
import Testing
import Vectors

/// A pairing service written from SPEC.md §13.1–§13.2 alone (not from `PairingService`), with two
/// realistic bugs that can be switched on (issue 24, item 5): a router that folds case, and a
/// `/status` that echoes the stored token. The faithful one passes every pairing scenario; each
/// bug is failed by the scenarios, and only by the ones that cross its edge.
@Suite(.serialized) struct HTTPSpecServiceTests {
    final class SpecPairing: HTTPService, @unchecked Sendable {
        enum Bug: Sendable { case caseInsensitiveRouter, statusEchoesToken }
        let name = "pairing"
        let bug: Bug?
        private let lock = NSLock()
        private var token: [UInt8]?
        private var failSaves: UInt64 = 0

        init(bug: Bug? = nil) { self.bug = bug }

        func handle(_ r: HTTPRequest) -> HTTPResponse {
            // §13.2: the path is the target up to the first "?", matched byte for byte.
            var path = String(r.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
            if bug == .caseInsensitiveRouter { path = path.lowercased() }
            if path.hasPrefix("/conformance/") { return hook(r, path) }
            if r.method == "GET" && path == "/hello" {
                let paired = lock.withLock { token != nil }
                return .json(200, .object([("app", .string("spec-body")), ("version", .string("0")), ("build", .string("0")),
                                           ("wire", .int(1)), ("paired", .bool(paired))]))
            }
            if r.method == "POST" && path == "/pair" { return pair(r.body) }
            // The bearer check runs before any route is looked up.
            guard let stored = lock.withLock({ token }), bearerMatches(r, stored) else {
                return .json(401, .object([("error", .string("unauthorized"))]))
            }
            if r.method == "GET" && path == "/status" {
                var members: [(String, JSONValue)] = [("camera", .string("idle"))]
                if bug == .statusEchoesToken { members.append(("session", .string(String(decoding: stored, as: UTF8.self)))) }
                return .json(200, .object(members))
            }
            return .json(404, .object([("error", .string("no such route"))]))
        }

        func bearerMatches(_ r: HTTPRequest, _ stored: [UInt8]) -> Bool {
            let lines = r.values("Authorization")
            guard lines.count == 1 else { return false }
            let prefix = Array("Bearer ".utf8)
            guard lines[0].starts(with: prefix) else { return false }
            let given = Array(lines[0].dropFirst(prefix.count))
            guard given.count == stored.count else { return false }
            var acc: UInt8 = 0
            for (a, b) in zip(given, stored) { acc |= a ^ b }
            return acc == 0
        }

        func pair(_ body: [UInt8]) -> HTTPResponse {
            lock.lock()
            defer { lock.unlock() }
            guard token == nil else {
                return .json(409, .object([("message", .string("already paired: reinstall the app to pair it again"))]))
            }
            guard case .success(let v) = StrictJSON.object(body), case .string(let t)? = v["token"] else {
                return .json(400, .object([("error", .string("expected {\"token\": \"…\"}"))]))
            }
            let bytes = Array(t.utf8)
            guard bytes.count == 64, bytes.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
                return .json(400, .object([("error", .string("a token is 64 lowercase hex digits"))]))
            }
            if failSaves > 0 {
                failSaves -= 1
                return .json(400, .object([("error", .string("could not save the token"))]))
            }
            token = bytes
            return .json(200, .object([("paired", .bool(true))]))
        }

        func hook(_ r: HTTPRequest, _ path: String) -> HTTPResponse {
            guard r.method == "POST", path == "/conformance/reset" else { return .json(404, .object([])) }
            var fail: UInt64 = 0
            if !r.body.isEmpty {
                guard case .success(let v) = StrictJSON.object(r.body) else { return .json(400, .object([])) }
                if let n = v["fail_saves"] {
                    guard case .number(let text) = n, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let k = UInt64(text) else {
                        return .json(400, .object([]))
                    }
                    fail = k
                }
            }
            lock.withLock {
                token = nil
                failSaves = fail
            }
            return HTTPResponse(status: 204)
        }
    }

    static func play(_ service: SpecPairing) throws -> [CaseRecord] {
        try HTTPTests.withServer(.service(service)) { try HTTPTests.run("pairing", port: $0, skip: ["*/timing/*"]) }.run.records
    }

    @Test func theFaithfulServicePassesEveryScenario() throws {
        let records = try Self.play(SpecPairing())
        #expect(records.count == HTTPTests.scenarios("pairing").count - 1)
        #expect(records.filter { $0.outcome != .passed }.map { "\($0.id): \($0.outcome.failure?.summary ?? "")" } == [])
    }

    @Test func aCaseInsensitiveRouterIsFailedByTheRouteScenarios() throws {
        let failing = try Self.play(SpecPairing(bug: .caseInsensitiveRouter)).filter { $0.outcome != .passed }
        let ids = failing.map(\.id)
        #expect(ids.contains("pairing/scenario/route/hello-uppercase"))
        #expect(ids.contains("pairing/scenario/route/status-capitalised"))
        #expect(ids.allSatisfy { $0.hasPrefix("pairing/scenario/route/") }, "\(ids)")
        #expect(failing.allSatisfy { $0.outcome.failure?.kind == .wrongOutput })
        let hello = try #require(failing.first { $0.id == "pairing/scenario/route/hello-uppercase" }?.outcome.failure)
        #expect(hello.summary == "step 1 of 2 (variant): GET /HELLO: expected status 401, got 200")
    }

    @Test func aStatusThatEchoesTheTokenIsFailedByTheLeakScenarios() throws {
        let failing = try Self.play(SpecPairing(bug: .statusEchoesToken)).filter { $0.outcome != .passed }
        let guarded = Set(HTTPTests.scenarios("pairing").filter { $0.input["excludes"] != nil }.map(\.id))
        #expect(failing.map(\.id).contains("pairing/scenario/leak/no-answer-carries-the-token"))
        #expect(failing.allSatisfy { guarded.contains($0.id) }, "\(failing.map(\.id))")
        let f = try #require(failing.first { $0.id == "pairing/scenario/leak/no-answer-carries-the-token" }?.outcome.failure)
        #expect(f.summary.hasPrefix("step 3 of 9 (status): GET /status: the body carries \""))
    }
}

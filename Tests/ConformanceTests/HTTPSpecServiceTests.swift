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

    /// An identity service written from SPEC.md §13.1 and §13.4 alone; `caseInsensitiveRouter`
    /// matches the literal segments of a route in any case (parameters kept as sent).
    final class SpecIdentity: HTTPService, @unchecked Sendable {
        let name = "identity"
        let caseInsensitiveRouter: Bool
        private let lock = NSLock()
        private var rows: [(key: [UInt8], user: String, revoked: Bool)] = []
        private var sessions: [(token: [UInt8], user: String)] = []

        init(caseInsensitiveRouter: Bool = false) { self.caseInsensitiveRouter = caseInsensitiveRouter }

        static func hexBytes(_ s: String) -> [UInt8]? {
            let u = Array(s.utf8)
            guard u.count == 64 else { return nil }
            var out: [UInt8] = []
            for i in stride(from: 0, to: 64, by: 2) {
                guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
                out.append(hi << 4 | lo)
            }
            return out
        }

        static func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 0x30...0x39: return c - 0x30
            case 0x61...0x66: return c - 0x61 + 10
            case 0x41...0x46: return c - 0x41 + 10
            default: return nil
            }
        }

        static func lowerHex(_ b: [UInt8]) -> String { b.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined() }

        func same(_ a: Substring, _ literal: String) -> Bool { caseInsensitiveRouter ? a.lowercased() == literal : a == literal }

        /// The route pattern's parameters when `segments` match it (`:` marks a parameter).
        func match(_ segments: [Substring], _ pattern: String) -> [String]? {
            let p = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard p.count == segments.count else { return nil }
            var params: [String] = []
            for (want, got) in zip(p, segments) {
                if want.hasPrefix(":") {
                    guard !got.isEmpty else { return nil }
                    params.append(String(got))
                } else if !same(got, String(want)) { return nil }
            }
            return params
        }

        func handle(_ r: HTTPRequest) -> HTTPResponse {
            lock.lock()
            defer { lock.unlock() }
            let path = r.target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let segs = Array(path.split(separator: "/", omittingEmptySubsequences: false).dropFirst())
            guard path.hasPrefix("/") else { return .json(404, .object([])) }
            if r.method == "POST", match(segs, "/conformance/reset") != nil {
                if !r.body.isEmpty, case .failure = StrictJSON.object(r.body) { return .json(400, .object([])) }
                rows = []
                sessions = []
                return HTTPResponse(status: 204)
            }
            if r.method == "POST", match(segs, "/conformance/session") != nil {
                guard case .success(let v) = StrictJSON.object(r.body), case .string(let u)? = v["user_id"], (1...64).contains(u.utf8.count),
                      u.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) || $0 == 0x2d }) else {
                    return .json(400, .object([]))
                }
                let token = Array(UUID().uuidString.lowercased().filter { $0 != "-" }.utf8)
                sessions.append((token, u))
                return .json(200, .object([("token", .string(String(decoding: token, as: UTF8.self)))]))
            }
            if r.method == "GET", let p = match(segs, "/v1/sync/self-status/:hex") {
                guard let key = Self.hexBytes(p[0]) else { return .json(400, .object([])) }
                let row = rows.first { $0.key == key }
                return .json(200, .object([("registered", .bool(row != nil)), ("revoked", .bool(row?.revoked ?? false))]))
            }
            if r.method == "GET", let p = match(segs, "/v1/identity/users/:id/pubkeys") {
                return .json(200, .object([("pubkeys", .array(rows.filter { $0.user == p[0] && !$0.revoked }.map { .string(Self.lowerHex($0.key)) }))]))
            }
            let session: [(String, String)] = [("POST", "/v1/identity/register"), ("GET", "/v1/sync/siblings"), ("POST", "/v1/sync/siblings/remove"), ("POST", "/v1/sync/siblings/revoke-all")]
            guard let (_, route) = session.first(where: { $0.0 == r.method && match(segs, $0.1) != nil }) else { return .json(404, .object([])) }
            guard let user = account(r) else { return .json(401, .object([])) }
            switch route {
            case "/v1/sync/siblings":
                return .json(200, .object([("siblings", .array(rows.filter { $0.user == user && !$0.revoked }.map { .string(Self.lowerHex($0.key)) }))]))
            case "/v1/sync/siblings/revoke-all":
                for i in rows.indices where rows[i].user == user { rows[i].revoked = true }
                return HTTPResponse(status: 204)
            default:
                guard case .success(let v) = StrictJSON.object(r.body), case .string(let hex)? = v["pubkey_hex"], let key = Self.hexBytes(hex) else {
                    return .json(400, .object([]))
                }
                if route == "/v1/identity/register" {
                    guard !rows.contains(where: { $0.key == key }) else { return .json(409, .object([])) }
                    rows.append((key, user, false))
                    return .json(200, .object([("pubkey_hex", .string(Self.lowerHex(key)))]))
                }
                for i in rows.indices where rows[i].user == user && rows[i].key == key { rows[i].revoked = true }
                return HTTPResponse(status: 204)
            }
        }

        /// RFC 9110 §11.1/§11.4: one line, `Bearer` in any case, one or more spaces, the token.
        func account(_ r: HTTPRequest) -> String? {
            let lines = r.values("Authorization")
            guard lines.count == 1 else { return nil }
            let v = lines[0]
            guard v.count > 7, String(decoding: v.prefix(6), as: UTF8.self).lowercased() == "bearer", v[6] == 0x20 else { return nil }
            let token = Array(v.dropFirst(6).drop { $0 == 0x20 })
            guard !token.isEmpty else { return nil }
            return sessions.first { $0.token == token }?.user
        }
    }

    static func play(_ service: SpecIdentity) throws -> [CaseRecord] {
        try HTTPTests.withServer(.service(service)) { try HTTPTests.run("revocation", port: $0) }.run.records
    }

    @Test func theFaithfulIdentityServicePassesEveryScenario() throws {
        let records = try Self.play(SpecIdentity())
        #expect(records.count == HTTPTests.scenarios("revocation").count)
        #expect(records.filter { $0.outcome != .passed }.map { "\($0.id): \($0.outcome.failure?.summary ?? "")" } == [])
    }

    @Test func aCaseInsensitiveIdentityRouterIsFailedByTheRouteScenarios() throws {
        let failing = try Self.play(SpecIdentity(caseInsensitiveRouter: true)).filter { $0.outcome != .passed }
        let ids = failing.map(\.id)
        #expect(ids.contains("revocation/scenario/route/siblings-uppercase"))
        #expect(ids.contains("revocation/scenario/route/self-status-capitalised"))
        #expect(ids.allSatisfy { $0.hasPrefix("revocation/scenario/route/") }, "\(ids)")
        #expect(failing.allSatisfy { $0.outcome.failure?.kind == .wrongOutput })
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

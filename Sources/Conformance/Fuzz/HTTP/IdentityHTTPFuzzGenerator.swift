import Foundation
import Primitives
import Vectors

/// Scenarios for the identity service of seed 001 (SPEC §13.4, format `revocation`): two accounts
/// with sessions from the hook, then register / remove / revoke-all / the listings / the public
/// self-status over a pool of three pubkeys, so rows are registered, tombstoned, registered again,
/// and looked at from both accounts.
///
/// The fault classes: a pubkey in another case keyed as a second row ([R13.4-4]); a tombstone
/// deleted instead of kept ([R13.4-6]); an account read from the body ([R13.4-5]); remove and
/// revoke-all reaching past the session's account, answering 200 or 404, toggling ([R13.4-7],
/// [R13.4-8]); listings that keep revoked rows or turn their order ([R13.4-9], [R13.4-11]);
/// self-status behind a session, 404 for no row, strings for booleans ([R13.4-10]); the body read
/// before the session ([R13.4-3]); bodies a lenient JSON reader accepts ([R13.1-3]); routes
/// spelt otherwise, with a query, under another method or with a segment after a parameter
/// ([R13.4-14]); the RFC 9110 Bearer variants ([R13.4-15]); the session hook with a `user_id`
/// R13.4-1 refuses, or one that differs only in case ([R13.4-16]); a reset mid-scenario.
///
/// Route spellings, Bearer variants, pubkey spellings and body shapes are drawn from the tables
/// the scenario battery is built from (`HTTPEdges`).
struct IdentityHTTPFuzzGenerator: HTTPFuzzGenerator {
    var format: String { "revocation" }

    func makeService() -> any HTTPService { IdentityService() }

    func draft(rng: inout FuzzRNG) -> HTTPFuzzDraft {
        let keys = (0..<3).map { _ in Hex.encode(rng.bytes(32)) }
        var users = [rng.pick(["alice", "A-1", "u"]), rng.pick(["bob", "B-2", String(repeating: "z", count: 64)])]
        // Sometimes a third account whose id differs from the first only in case: exact text
        // ([R13.4-16]), so what one registers the other does not list.
        if rng.oneIn(3) { users.append(users[0].uppercased() == users[0] ? users[0].lowercased() : users[0].uppercased()) }
        var steps: [HTTPFuzzDraft.Step] = []
        for (i, u) in users.enumerated() {
            steps.append(HTTPFuzzDraft.Step(name: "session-\(i + 1)", request: HTTPFuzzDraft.request("POST", "/conformance/session", json: .object([("user_id", .string(u))])),
                                            kind: .request(capture: [.init(name: "s\(i + 1)", pointer: "/token")])))
        }
        let count = rng.int(1...12)
        // Half the steps reuse the previous step's pubkey: register, remove, remove again and
        // look are what rows go through; independent draws over three keys rarely line up.
        // Likewise the account: most steps act as the previous step's session, so one account's
        // register, remove and listing meet, and the other account's steps cross them.
        var last = rng.below(keys.count)
        var auth = authorization(sessions: users.count, &rng)
        for i in 0..<count {
            if !rng.bool() { last = rng.below(keys.count) }
            if rng.percent(40) { auth = authorization(sessions: users.count, &rng) }
            if rng.oneIn(12) {
                steps.append(hook("step-\(i + 1)", &rng))
                continue
            }
            if steps.count > 2, rng.oneIn(5) {
                // The same request again: a retry must be as safe as the seed says (a second
                // removal is 204 and the row stays revoked, a second registration is 409).
                var again = steps[steps.count - 1]
                again.name = "step-\(i + 1)"
                steps.append(again)
                continue
            }
            steps.append(step("step-\(i + 1)", key: last, keys: keys, users: users, auth: auth, rng: &rng))
        }
        return HTTPFuzzDraft(values: keys.enumerated().map { ("k\($0.offset + 1)", $0.element) }, steps: steps)
    }

    /// One request of the service's routes; one in six with its target or method changed.
    func step(_ name: String, key k: Int, keys: [String], users: [String], auth: [(String, String)], rng: inout FuzzRNG) -> HTTPFuzzDraft.Step {
        var s = route(name, key: k, keys: keys, users: users, auth: auth, rng: &rng)
        if rng.oneIn(6), case .object(var m) = s.request, let i = m.firstIndex(where: { $0.0 == "path" }), let path = m[i].1.stringValue,
           let j = m.firstIndex(where: { $0.0 == "method" }) {
            switch rng.below(4) {
            case 0 where !path.contains("$"):
                // No route: the path spelt as the battery spells it (or 400 for a self-status segment, R13.4-14).
                m[i].1 = .string(rng.pick(HTTPEdges.noRoute(path)).2)
            case 1:
                m[i].1 = .string(path + rng.pick(HTTPEdges.queries).2)
            case 2:
                m[j].1 = .string(rng.pick(HTTPEdges.otherMethods.map(\.1) + ["HEAD", "GET", "POST"]))
            default:
                // A segment after the last one, or a trailing slash: no route.
                m[i].1 = .string(path + rng.pick(["/", "/x", "//"]))
            }
            s.request = .object(m)
        }
        return s
    }

    func route(_ name: String, key k: Int, keys: [String], users: [String], auth: [(String, String)], rng: inout FuzzRNG) -> HTTPFuzzDraft.Step {
        switch rng.below(13) {
        case 0, 1, 2, 3:
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/v1/identity/register", headers: auth, json: nil, text: nil)
                .adding(body: body(key: k, keys: keys, users: users, &rng)))
        case 4, 5:
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/v1/sync/siblings/remove", headers: auth)
                .adding(body: body(key: k, keys: keys, users: users, &rng)))
        case 6:
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/v1/sync/siblings/revoke-all", headers: auth))
        case 7, 8:
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("GET", "/v1/sync/siblings", headers: auth))
        case 9, 10:
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("GET", "/v1/sync/self-status/" + pathKey(k, keys, &rng), headers: auth))
        default:
            let user = rng.percent(85) ? rng.pick(users) : rng.pick(["nobody", users[0].uppercased()])
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("GET", "/v1/identity/users/\(user)/pubkeys", headers: auth))
        }
    }

    /// Mostly one of the sessions; else none, an unknown token, or a variant of the battery's
    /// Bearer table (the scheme's case, the spaces, repeated lines: R13.4-15).
    func authorization(sessions: Int, _ rng: inout FuzzRNG) -> [(String, String)] {
        switch rng.below(12) {
        case 0: return []
        case 1: return [("Authorization", rng.pick(["Bearer nope", "bearer ${s1}", "Bearer ${s1}x", "${s1}"]))]
        case 2, 3:
            let t = "${s\(rng.int(1...sessions))}"
            return rng.pick(HTTPEdges.bearer).lines.map { ("Authorization", $0.replacingOccurrences(of: "T", with: t)) }
        case 4, 5: return [("Authorization", "Bearer ${s2}")]
        case 6 where sessions > 2: return [("Authorization", "Bearer ${s3}")]
        default: return [("Authorization", "Bearer ${s1}")]
        }
    }

    /// A test hook mid-scenario: a session for a `user_id` R13.4-1 refuses (400, nothing
    /// minted: R13.4-16), a body that is not an object, or a reset (good: no rows and no
    /// sessions afterwards, so later steps' sessions are unknown; malformed: 400, nothing
    /// changes, R13.1-7).
    func hook(_ name: String, _ rng: inout FuzzRNG) -> HTTPFuzzDraft.Step {
        let json = [("Content-Type", "application/json")]
        switch rng.below(4) {
        case 0, 1:
            let user: JSONValue = rng.pick([.string(""), .string(String(repeating: "a", count: 65)), .string("a b"), .string("a_b"), .string("é"),
                                            .string("\u{FF11}"), .int(7), .null, .array([.string("alice")])])
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/conformance/session", json: .object([("user_id", user)])))
        case 2:
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/conformance/session", headers: json,
                                                                                 text: rng.pick(["", "[]", "{}", "{\"user_id\":\"a\",\"user_id\":\"b\"}", "\u{FEFF}{\"user_id\":\"a\"}"])))
        default:
            if rng.oneIn(3) { return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/conformance/reset", json: .object([]))) }
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/conformance/reset", headers: json, text: rng.pick(["[]", "1", "{", "null"])))
        }
    }

    /// A `{"pubkey_hex"}` body: the key as given, in uppercase or mixed case, with a `user_id` of
    /// the other account, or a body a strict reader refuses.
    func body(key k: Int, keys: [String], users: [String], _ rng: inout FuzzRNG) -> RequestBody {
        let ref = "${k\(k + 1)}"
        switch rng.below(13) {
        case 0..<5: return .json(.object([("pubkey_hex", .string(ref))]))
        case 5: return .json(.object([("pubkey_hex", .string(keys[k].uppercased()))]))
        case 6: return .json(.object([("pubkey_hex", .string(Self.mixedCase(keys[k], &rng)))]))
        case 7: return .json(.object([("pubkey_hex", .string(ref)), ("user_id", .string(rng.pick(users)))]))
        case 8:
            return .json(.object([("pubkey_hex", .string(rng.pick([String(keys[k].dropLast()), keys[k] + "0", "zz" + keys[k].dropFirst(2), "", "0x" + keys[k].dropFirst(2)])))]))
        case 9:
            // A repeated member, the good key last or first: a last-wins or first-wins reader takes
            // it, strict JSON refuses the body.
            return .text(rng.bool() ? "{\"pubkey_hex\":\"zz\",\"pubkey_hex\":\"\(ref)\"}" : "{\"pubkey_hex\":\"\(ref)\",\"pubkey_hex\":\"zz\"}")
        case 10: return .text(rng.pick(["", "[]", "null", "{\"pubkey_hex\":5}", "pubkey_hex=\(ref)", "{\"pubkey_hex\":\"\(ref)\""]))
        case 11:
            // The battery's tables: spellings of a 64-hex value (some name the same key), values
            // that are not strings, bodies that are not one strict JSON object, 64 KiB, whitespace.
            let good = "{\"pubkey_hex\":\"\(keys[k])\"}"
            switch rng.below(5) {
            case 0: return .json(.object([("pubkey_hex", .string(rng.pick(HTTPEdges.hexSpellings(keys[k])).2))]))
            case 1: return .text("{\"pubkey_hex\":\(rng.pick(HTTPEdges.nonStrings(keys[k])).2)}")
            case 2: return .text(rng.pick(HTTPEdges.badBodies(good)).2)
            case 3: return .text(HTTPEdges.paddedBody(good))
            default: return .text(HTTPEdges.spacedBody(good))
            }
        default: return .json(.object([("pubkey_hex", .string(ref))]))
        }
    }

    /// The self-status path's last segment: the key, its uppercase, or not 64 hex digits ([R13.4-12]).
    func pathKey(_ k: Int, _ keys: [String], _ rng: inout FuzzRNG) -> String {
        switch rng.below(9) {
        case 8:
            // Percent-escapes and spellings that are not 64 hex digits: the route, 400 (R13.4-14).
            let spelt = rng.pick(HTTPEdges.hexSpellings(keys[k]).filter { !$0.2.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" }) && !$0.2.isEmpty }).2
            return rng.bool() ? spelt.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! : "%" + String(keys[k].utf8.first!, radix: 16) + keys[k].dropFirst()
        case 0: return keys[k].uppercased()
        case 1: return rng.pick([String(keys[k].dropLast()), keys[k] + "0", "zz" + keys[k].dropFirst(2), Hex.encode(rng.bytes(32))])
        default: return "${k\(k + 1)}"
        }
    }

    static func mixedCase(_ s: String, _ rng: inout FuzzRNG) -> String {
        String(s.map { rng.bool() ? Character($0.uppercased()) : $0 })
    }

    enum RequestBody {
        case json(JSONValue)
        case text(String)
    }

    func expectation(step: HTTPFuzzDraft.Step, request: HTTPRequest, answer: HTTPResponse, notes: inout [String: String]) -> JSONValue {
        let body = HTTPExpect.body(answer)
        // No answer but the session hook's carries a minted session token ([R13.4-13]), in a
        // header or the body: every token minted so far, reset or not, is excluded.
        let minted = notes["minted"].map { $0.split(separator: " ").map(String.init) } ?? []
        if request.path == "/conformance/session" {
            if answer.status == 200, case .request(let capture) = step.kind {
                notes["minted"] = (minted + capture.map { "${\($0.name)}" }).joined(separator: " ")
            }
            return answer.status == 200
                ? HTTPExpect.expect(200, headers: [HTTPExpect.jsonContentType], json: HTTPExpect.object([("token", HTTPExpect.type("string"))]))
                : HTTPExpect.expect(answer.status, excludes: minted)
        }
        switch answer.status {
        case 200:
            // Every 200 of §13.4 is an object whose members SPEC fixes: each is compared as a value
            // (lowercase hex, booleans, lists oldest first); other members are allowed.
            let members = body?.objectValue ?? []
            return HTTPExpect.expect(200, headers: [HTTPExpect.jsonContentType], json: HTTPExpect.object(members.map { ($0.0, HTTPExpect.eq($0.1)) }),
                                     excludes: minted)
        case 204, 304:
            return HTTPExpect.expect(answer.status, empty: true, excludes: minted)
        default:
            return HTTPExpect.expect(answer.status, excludes: minted)
        }
    }
}

extension JSONValue {
    /// The request object with its body: `json` or `text` (a text body says it is JSON, so the
    /// service reads it as a JSON body that happens to be malformed).
    func adding(body: IdentityHTTPFuzzGenerator.RequestBody) -> JSONValue {
        guard case .object(var m) = self else { return self }
        switch body {
        case .json(let j): m.append(("json", j))
        case .text(let t):
            if let i = m.firstIndex(where: { $0.0 == "headers" }), case .array(var h) = m[i].1 {
                h.append(.array([.string("Content-Type"), .string("application/json")]))
                m[i].1 = .array(h)
            } else {
                m.insert(("headers", .array([.array([.string("Content-Type"), .string("application/json")])])), at: 2)
            }
            m.append(("text", .string(t)))
        }
        return .object(m)
    }
}

import Primitives
import Vectors

/// Scenarios for the TOFU pairing service (SPEC §13.2): pairs, re-pairs and probes over two
/// well-formed tokens and the spellings a lenient token check or bearer check lets through.
///
/// The fault classes, each the habit of a stock library or a common shortcut:
/// - token spellings ([R13.2-8]): uppercase hex, 63 and 65 characters, a trailing newline (a regex
///   `$`), full-width digits (`Character.isHexDigit`), `0x`, a space, escapes the JSON reader must
///   decode first;
/// - bodies ([R13.2-7], [R13.1-3]): a repeated `token` (a last-wins parser), other JSON types,
///   not JSON at all;
/// - `Authorization` ([R13.2-13], [R13.2-14]): `bearer`/`BEARER`, two spaces, a tab, no scheme,
///   the token in another case, one byte off at the start or the end, one byte short or long;
/// - routes ([R13.2-3], [R13.2-4]): the open paths under another method, unknown paths, a query,
///   a trailing slash, before and after pairing;
/// - state: a second pair, the same token again, failed saves (`fail_saves`), and a race of
///   concurrent pairs ([R13.2-16]); the reset hook mid-scenario, with a good or a malformed
///   setup ([R13.1-7]: a malformed one changes nothing).
///
/// Route spellings, Bearer variants, token spellings and body shapes are drawn from the same
/// tables the scenario battery is built from (`HTTPEdges`), so a spelling added there reaches
/// the fuzzer too, in combinations the battery never writes (two spellings in one scenario, a
/// spelling after a failed save, a near miss after a race).
struct PairingHTTPFuzzGenerator: HTTPFuzzGenerator {
    var format: String { "pairing" }

    func makeService() -> any HTTPService { PairingService() }

    func draft(rng: inout FuzzRNG) -> HTTPFuzzDraft {
        let t1 = Hex.encode(rng.bytes(32)), t2 = Hex.encode(rng.bytes(32))
        let values = [("t1", t1), ("t2", t2)]
        let setup: JSONValue = rng.oneIn(4) ? .object([("fail_saves", .int(rng.int(1...2)))]) : .object([])
        var steps: [HTTPFuzzDraft.Step] = []
        let count = rng.int(1...10)
        var raced = false
        for i in 0..<count {
            let name = "s\(i + 1)"
            switch rng.below(10) {
            case 0, 1, 2:
                steps.append(pair(name, t1: t1, t2: t2, afterRace: raced, rng: &rng))
            case 3:
                steps.append(HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("GET", rng.pick(["/hello", "/hello", "/hello?probe=1"]))))
            case 4 where rng.oneIn(4):
                steps.append(reset(name, &rng))
            case 4 where !raced && rng.oneIn(3):
                raced = true
                let n = rng.int(2...6)
                // Fresh well-formed tokens only. A malformed racer is 400 or 409 depending on
                // whether the winner came first, and a racer a later step names by its text would
                // admit or not depending on who won: neither is the service's to decide. Later
                // steps name the racers as ${winner} and ${loser}.
                let racers = (0..<n).map { _ in Hex.encode(rng.bytes(32)) }
                steps.append(HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/pair", json: .object([("token", .string("${racer}"))])),
                                                kind: .race(vary: "racer", values: racers, capture: [.init(name: "winner", status: 200), .init(name: "loser", status: 409)])))
            default:
                steps.append(probe(name, t1: t1, t2: t2, afterRace: raced, rng: &rng))
            }
        }
        return HTTPFuzzDraft(values: values, setup: setup, steps: steps)
    }

    /// A `POST /pair`: mostly a well-formed token, else a spelling or a body a lenient reader accepts.
    func pair(_ name: String, t1: String, t2: String, afterRace: Bool, rng: inout FuzzRNG) -> HTTPFuzzDraft.Step {
        if afterRace && rng.oneIn(3) {
            let token = rng.pick(["${winner}", "${loser}"])
            return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request("POST", "/pair", json: .object([("token", .string(token))])), presents: token)
        }
        let token = rng.pick(["${t1}", "${t1}", "${t2}", "${t2}"])
        let base = token == "${t1}" ? t1 : t2
        let request: JSONValue
        switch rng.below(13) {
        case 0..<5:
            request = HTTPFuzzDraft.request("POST", "/pair", json: .object([("token", .string(token))]))
        case 5:
            request = HTTPFuzzDraft.request("POST", "/pair", json: .object([("token", .string(Self.misspelled(base, &rng)))]))
        case 6:
            // A repeated member: strict JSON refuses it; a last-wins reader takes the good one.
            let first = rng.pick(["x", Self.misspelled(base, &rng), "${t2}"])
            request = HTTPFuzzDraft.request("POST", "/pair", headers: [("Content-Type", "application/json")],
                                            text: "{\"token\":\"\(first)\",\"token\":\"\(token)\"}")
        case 7:
            // JSON escapes decode to the token ([R13.2-7]): a reader that compares raw text refuses it.
            let escaped = base.unicodeScalars.map { rng.oneIn(4) ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
            request = HTTPFuzzDraft.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: "{\"token\":\"\(escaped)\"}")
        case 8:
            let body = rng.pick(["token=\(base)", "", "[]", "{}", "null", "{\"token\":5}", "{\"token\":null}", "{\"Token\":\"\(base)\"}",
                                 "{\"token\":\"\(base)\",}", "\"\(base)\""])
            request = HTTPFuzzDraft.request("POST", "/pair", headers: rng.bool() ? [("Content-Type", "application/json")] : [], text: body)
        case 9:
            request = HTTPFuzzDraft.request("POST", "/pair", json: .object([("token", .string(token)), ("extra", .bool(true))]))
        case 10:
            request = Self.edgeBody(token: token, literal: base, &rng)
        default:
            request = HTTPFuzzDraft.request("POST", "/pair", json: .object([("token", .string(token))]))
        }
        return HTTPFuzzDraft.Step(name: name, request: request, presents: token)
    }

    /// A request other than a well-formed `/pair`: a route behind the token, an open route
    /// spelt otherwise, with an `Authorization` that is right, absent, or a near miss.
    func probe(_ name: String, t1: String, t2: String, afterRace: Bool, rng: inout FuzzRNG) -> HTTPFuzzDraft.Step {
        let (method, path) = Self.target(&rng)
        var names = ["${t1}", "${t2}"]
        if afterRace { names += ["${winner}", "${winner}", "${loser}"] }
        let tokenName = rng.pick(names)
        let literal = tokenName == "${t1}" ? t1 : tokenName == "${t2}" ? t2 : nil
        var headers: [(String, String)] = []
        switch rng.below(10) {
        case 0: break
        case 1, 2, 3: headers = [("Authorization", "Bearer \(tokenName)")]
        case 4, 5, 6:
            // A variant of the battery's table: the scheme's spelling, the spaces, repeated lines.
            headers = rng.pick(HTTPEdges.bearer).lines.map { ("Authorization", $0.replacingOccurrences(of: "T", with: tokenName)) }
        default:
            if let t = literal {
                headers = [("Authorization", Self.nearMissAuthorization(t, &rng))]
            } else {
                headers = [("Authorization", rng.pick(["bearer \(tokenName)", "Bearer  \(tokenName)", "Bearer \(tokenName)0", "Basic \(tokenName)"]))]
            }
        }
        return HTTPFuzzDraft.Step(name: name, request: HTTPFuzzDraft.request(method, path, headers: headers))
    }

    /// The routes a probe asks for ([R13.2-3], [R13.2-4]): `/status` most often, an unknown path,
    /// the open paths under another method, and every route spelt as the battery spells a path
    /// that is no route, with a query (the same route) or with a method no route has.
    static func target(_ rng: inout FuzzRNG) -> (String, String) {
        let routes = [("GET", "/hello"), ("POST", "/pair"), ("GET", "/status")]
        switch rng.below(8) {
        case 0:
            let (m, p) = rng.pick(routes)
            return (m, rng.pick(HTTPEdges.noRoute(p)).2)
        case 1:
            let (m, p) = rng.pick(routes)
            return (m, p + rng.pick(HTTPEdges.queries).2)
        case 2:
            return (rng.pick(HTTPEdges.otherMethods.map(\.1) + ["HEAD"]), rng.pick(routes).1)
        default:
            return rng.pick([("GET", "/status"), ("GET", "/status"), ("GET", "/status"), ("GET", "/nope"), ("POST", "/hello"),
                             ("GET", "/pair"), ("DELETE", "/pair"), ("GET", "/Status"), ("GET", "/status/"), ("GET", "/status?x=1"),
                             ("PUT", "/status"), ("GET", "/HELLO"), ("HEAD", "/hello"), ("GET", "/hello")])
        }
    }

    /// `POST /pair` with a body from the battery's tables ([R13.1-6], [R13.1-9], [R13.2-7],
    /// [R13.2-8]): a body that is not one strict JSON object, a token spelt as a 64-hex value is
    /// misspelt, a token that is not a string, the 64 KiB body every route reads, whitespace.
    static func edgeBody(token: String, literal: String, _ rng: inout FuzzRNG) -> JSONValue {
        let json = [("Content-Type", "application/json")]
        switch rng.below(5) {
        case 0:
            return HTTPFuzzDraft.request("POST", "/pair", headers: json, text: rng.pick(HTTPEdges.badBodies("{\"token\":\"\(token)\"}")).2)
        case 1:
            return HTTPFuzzDraft.request("POST", "/pair", json: .object([("token", .string(rng.pick(HTTPEdges.hexSpellings(literal)).2))]))
        case 2:
            return HTTPFuzzDraft.request("POST", "/pair", headers: json, text: "{\"token\":\(rng.pick(HTTPEdges.nonStrings(literal)).2)}")
        case 3:
            // The literal token: a ${name} would change the padded length.
            return HTTPFuzzDraft.request("POST", "/pair", headers: json, text: HTTPEdges.paddedBody("{\"token\":\"\(literal)\"}"))
        default:
            return HTTPFuzzDraft.request("POST", "/pair", headers: json, text: HTTPEdges.spacedBody("{\"token\":\"\(token)\"}"))
        }
    }

    /// The reset hook mid-scenario ([R13.1-1], [R13.1-2], [R13.1-7]): a good setup unpairs and
    /// sets `fail_saves`; a malformed one answers 400 and leaves the body as it was.
    func reset(_ name: String, _ rng: inout FuzzRNG) -> HTTPFuzzDraft.Step {
        let request: JSONValue
        if rng.bool() {
            request = HTTPFuzzDraft.request("POST", "/conformance/reset", json: rng.pick([.object([]), .object([("fail_saves", .int(1))]), .object([("other", .int(1))])]))
        } else {
            let body = rng.pick(["{\"fail_saves\":\"1\"}", "{\"fail_saves\":1.0}", "{\"fail_saves\":-1}", "{\"fail_saves\":null}", "[]", "1",
                                 "{\"fail_saves\":1,\"fail_saves\":0}", "{", "\u{FEFF}{}"])
            request = HTTPFuzzDraft.request("POST", "/conformance/reset", headers: [("Content-Type", "application/json")], text: body)
        }
        return HTTPFuzzDraft.Step(name: name, request: request)
    }

    /// A token spelling the rule refuses ([R13.2-8]) that some reader accepts.
    static func misspelled(_ t: String, _ rng: inout FuzzRNG) -> String {
        switch rng.below(9) {
        case 0: return t.uppercased()
        case 1: return String(t.dropLast())
        case 2: return t + "0"
        case 3: return t + "\n"
        case 4: return String(t.unicodeScalars.map { fullwidth($0) })
        case 5: return "0x" + t.dropLast(2)
        case 6: return " " + t.dropLast()
        case 7: return ""
        default: return String(t.prefix(10)) + "_" + t.dropFirst(11)
        }
    }

    /// U+FF10–FF19 for digits, U+FF41–FF46 for a–f: what `Character.isHexDigit` accepts.
    static func fullwidth(_ u: Unicode.Scalar) -> Character {
        let v = u.value
        if (0x30...0x39).contains(v) { return Character(Unicode.Scalar(v - 0x30 + 0xFF10)!) }
        if (0x61...0x66).contains(v) { return Character(Unicode.Scalar(v - 0x61 + 0xFF41)!) }
        return Character(u)
    }

    /// An `Authorization` a lenient bearer check admits and [R13.2-13]/[R13.2-14] refuse.
    static func nearMissAuthorization(_ t: String, _ rng: inout FuzzRNG) -> String {
        func flip(_ c: Character) -> Character { c == "0" ? "1" : "0" }
        var chars = Array(t)
        switch rng.below(11) {
        case 0: return "bearer \(t)"
        case 1: return "BEARER \(t)"
        case 2: return "Bearer  \(t)"
        case 3: return "Bearer\t\(t)"
        case 4: return t
        case 5: return "Bearer \(t.uppercased())"
        case 6:
            chars[chars.count - 1] = flip(chars[chars.count - 1])
            return "Bearer " + String(chars)
        case 7:
            chars[0] = flip(chars[0])
            return "Bearer " + String(chars)
        case 8: return "Bearer " + t.dropLast()
        case 9: return "Bearer \(t)0"
        default: return "Basic \(t)"
        }
    }

    func expectation(step: HTTPFuzzDraft.Step, request: HTTPRequest, answer: HTTPResponse, notes: inout [String: String]) -> JSONValue {
        let stored = notes["stored"] ?? notes["race:200"]
        // Tokens stored before a reset: no answer may carry them either ([R13.2-12]).
        let former = notes["former"].map { $0.split(separator: "\n").map(String.init) } ?? []
        var excludes = (stored.map { [$0] } ?? []) + former.filter { $0 != stored }
        if request.path == ScenarioInterpreter.resetPath {
            if answer.status == 204, let stored {
                notes["former"] = (former + [stored]).joined(separator: "\n")
                notes["stored"] = nil
                notes["race:200"] = nil
            }
            return answer.status == 204 ? HTTPExpect.expect(204, empty: true) : HTTPExpect.expect(answer.status)
        }
        if request.method == "POST", request.path == "/pair", answer.status == 200, stored == nil, let p = step.presents {
            notes["stored"] = p
        }
        let body = HTTPExpect.body(answer)
        switch answer.status {
        case 200 where request.path == "/hello":
            // [R13.2-1]: the five members, `paired` a JSON boolean; the texts are the body's own.
            let paired = body?["paired"] ?? .null
            return HTTPExpect.expect(200, headers: [HTTPExpect.jsonContentType],
                                     json: HTTPExpect.object([("app", HTTPExpect.type("string")), ("version", HTTPExpect.type("string")),
                                                              ("build", HTTPExpect.type("string")), ("wire", HTTPExpect.eq(.int(PairingService.wire))),
                                                              ("paired", HTTPExpect.eq(paired))]),
                                     excludes: excludes)
        case 200 where request.path == "/pair":
            return HTTPExpect.expect(200, headers: [HTTPExpect.jsonContentType], json: HTTPExpect.eq(.object([("paired", .bool(true))])))
        case 200:
            return HTTPExpect.expect(200, headers: [HTTPExpect.jsonContentType], json: HTTPExpect.type("object"), excludes: excludes)
        case 409:
            // [R13.2-11], [R13.2-12]: names the fix, carries neither the stored nor the presented token.
            if let p = step.presents, !excludes.contains(p), !p.isEmpty { excludes.append(p) }
            return HTTPExpect.expect(409, headers: [HTTPExpect.jsonContentType], json: HTTPExpect.object([("message", HTTPExpect.contains("reinstall"))]),
                                     excludes: excludes)
        case 204, 304:
            return HTTPExpect.expect(answer.status, empty: true, excludes: excludes)
        default:
            return HTTPExpect.expect(answer.status, excludes: excludes)
        }
    }
}

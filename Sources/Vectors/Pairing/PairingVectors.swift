import Primitives

/// The `pairing` golden cases. Every claim a case makes is checked while generating: a scenario
/// must pass against the fresh reference service, and each `ensure_paired` case states the
/// decision it expects, compared with the reference's before the case is written.
enum PairingVectors {
    typealias B = ScenarioBuilder

    struct Builder {
        var cases: [VectorCase] = []
        let handler = PairingHandler()

        /// A scenario case: the reference must pass every step.
        /// A scenario input every reader refuses with `code` (SPEC [R13.1-5]); checked against the reference's reading.
        mutating func refuse(_ id: String, _ comment: String, rules: [String], _ input: CBOR, _ code: ErrorCode) throws {
            do {
                _ = try handler.run(op: "scenario", input: input.json)
                throw StateDigestVectors.GeneratorCheckFailed(description: "pairing \(id): expected \(code.rawValue), the reference read the scenario")
            } catch let e as WireError {
                guard e.code == code else { throw StateDigestVectors.GeneratorCheckFailed(description: "pairing \(id): expected \(code.rawValue), got \(e.code.rawValue)") }
            }
            cases.append(VectorCase(id: "pairing/scenario/\(id)", op: "scenario", comment: comment, flags: ["negative"] + rules.map { "rule:\($0)" },
                                    input: input, expected: .error(code)))
        }

        mutating func scenario(_ id: String, _ comment: String, rules: [String], twoFaults: Bool = false, _ input: CBOR) throws {
            let out: JSONValue
            do { out = try handler.run(op: "scenario", input: input.json) } catch {
                throw StateDigestVectors.GeneratorCheckFailed(description: "pairing \(id): the reference fails its own scenario: \(error)")
            }
            guard let steps = out["steps"]?.int64Value else { throw StateDigestVectors.GeneratorCheckFailed(description: "pairing \(id): no step count") }
            let flags = ["http"] + (twoFaults ? ["two-faults"] : []) + rules.map { "rule:\($0)" }
            cases.append(VectorCase(id: "pairing/scenario/\(id)", op: "scenario", comment: comment, flags: flags, input: input,
                                    expected: .output(.object([("steps", .unsigned(UInt64(steps)))]))))
        }

        /// An `ensure_paired` case whose decision is stated here and checked against the reference.
        mutating func decide(_ id: String, _ comment: String, rules: [String], twoFaults: Bool = false, flags: [String] = [],
                             status: CBOR, body: CBOR, holds: CBOR, _ action: String, mint: Bool = false, reason: ErrorCode? = nil) throws {
            let input = CBOR.object([("hello_status", status), ("hello_body", body), ("holds_token", holds)])
            let want = CBOR.object([("action", .text(action)), ("mint_token", .bool(mint)), ("reason", reason.map { .text($0.rawValue) } ?? .null)])
            let got = try handler.run(op: "ensure_paired", input: input.json)
            guard got == want.json else {
                throw StateDigestVectors.GeneratorCheckFailed(description: "pairing ensure_paired \(id): claimed \(want.json.compact), reference \(got.compact)")
            }
            let f = flags + (reason != nil ? ["stop"] : []) + (twoFaults ? ["two-faults"] : []) + rules.map { "rule:\($0)" }
            cases.append(VectorCase(id: "pairing/ensure_paired/\(id)", op: "ensure_paired", comment: comment, flags: f, input: input, expected: .output(want)))
        }

        /// An `ensure_paired` input the op must reject (SPEC §2.2).
        mutating func reject(_ id: String, _ comment: String, rules: [String], _ input: CBOR, _ code: ErrorCode) throws {
            do {
                _ = try handler.run(op: "ensure_paired", input: input.json)
                throw StateDigestVectors.GeneratorCheckFailed(description: "pairing \(id): expected \(code.rawValue), reference accepted")
            } catch let e as WireError {
                guard e.code == code else { throw StateDigestVectors.GeneratorCheckFailed(description: "pairing \(id): expected \(code.rawValue), got \(e.code.rawValue)") }
            }
            cases.append(VectorCase(id: "pairing/ensure_paired/\(id)", op: "ensure_paired", comment: comment, flags: ["negative"] + rules.map { "rule:\($0)" },
                                    input: input, expected: .error(code)))
        }
    }

    /// 64 lowercase hex characters from a fixed seed (as `secrets.token_hex(32)` would write).
    static func token(_ label: UInt64) -> String {
        var g = SeededGenerator(seed: 0x70A1_0000_0000_0000 | label)
        return Hex.encode(g.bytes(32))
    }

    static func file() throws -> VectorFile {
        var b = Builder()
        try helloCases(&b)
        try pairCases(&b)
        try authCases(&b)
        try leakCases(&b)
        try edgeCases(&b)
        try concurrencyCases(&b)
        try ensurePairedCases(&b)
        for (name, what, input, code) in B.inputFaults(B.request("GET", "/hello"), status: 200) {
            try b.refuse("input/\(name)", "\(what): the scenario input is refused with a §3 code, never a trap", rules: ["R13.1-5"], input, code)
        }
        return VectorFile(format: "pairing",
                          description: "TOFU pairing (seed 004): the pairing service's routes, token rule, first-pair-wins and bearer check as HTTP scenarios, and the client's ensure_paired decision (SPEC.md §13.2, §13.3)",
                          cases: b.cases, withdrawn: Issue23Withdrawals.entries("pairing"))
    }

    // MARK: - Shared steps

    static let t1 = token(1), t2 = token(2)

    static func pairStep(_ name: String, _ token: String, _ status: Int) -> CBOR {
        B.step(name, B.request("POST", "/pair", json: .object([("token", .text(token))])), B.expect(status))
    }

    static func helloStep(_ name: String, paired: Bool) -> CBOR {
        B.step(name, B.request("GET", "/hello"), B.expect(200, headers: [B.jsonContentType], json: B.object([("paired", B.eq(paired))])))
    }

    static func statusStep(_ name: String, authorization: String?, _ status: Int, path: String = "/status") -> CBOR {
        B.step(name, B.request("GET", path, headers: authorization.map { [("Authorization", $0)] } ?? []), B.expect(status))
    }

    // MARK: - GET /hello

    static func helloCases(_ b: inout Builder) throws {
        try b.scenario("hello/unpaired", "a fresh body's /hello: app, version, build as strings, wire 1, paired false as a JSON boolean (not \"false\")",
                       rules: ["R13.1-1", "R13.1-3", "R13.2-1", "R13.2-2"],
                       B.scenario([B.step("hello", B.request("GET", "/hello"), B.expect(200, headers: [B.jsonContentType], json: B.object([
                           ("app", B.type("string")), ("version", B.type("string")), ("build", B.type("string")),
                           ("wire", B.eq(1)), ("paired", B.eq(false)),
                       ])))]))
        try b.scenario("hello/paired-after-pair", "after a pair /hello answers paired: true (the JSON boolean)",
                       rules: ["R13.2-1", "R13.2-9"],
                       B.scenario(values: [("t1", t1)], [
                           B.step("pair", B.request("POST", "/pair", json: .object([("token", .text("${t1}"))])),
                                  B.expect(200, headers: [B.jsonContentType], json: B.object([("paired", B.eq(true))]))),
                           helloStep("hello", paired: true),
                       ]))
        try b.scenario("hello/head-is-not-open", "HEAD /hello is not GET /hello: 401 like any request but the two open ones, and an answer to HEAD carries no content on the wire",
                       rules: ["R13.1-4", "R13.2-3"],
                       B.scenario([B.step("head", B.request("HEAD", "/hello"), B.expect(401, empty: true)),
                                   B.step("reset", B.request("POST", "/conformance/reset", json: .object([])), B.expect(204, empty: true)),
                                   helloStep("get", paired: false)]))
        try b.scenario("hello/query-ignored", "routes match the path before '?': GET /hello?probe=1 is /hello, open",
                       rules: ["R13.2-3"],
                       B.scenario([B.step("hello", B.request("GET", "/hello?probe=1"), B.expect(200, json: B.object([("wire", B.eq(1))])))]))
    }

    // MARK: - POST /pair

    static func pairCases(_ b: inout Builder) throws {
        try b.scenario("pair/first-pair-wins", "a second pair with another token is 409 naming the fix, never echoing a token; the first token still admits and the second does not",
                       rules: ["R13.2-5", "R13.2-9", "R13.2-11", "R13.2-12", "R13.2-17"],
                       B.scenario(values: [("t1", t1), ("t2", t2)], [
                           pairStep("pair-first", "${t1}", 200),
                           B.step("pair-second", B.request("POST", "/pair", json: .object([("token", .text("${t2}"))])),
                                  B.expect(409, headers: [B.jsonContentType], json: B.object([("message", B.contains("reinstall"))]), excludes: ["${t1}", "${t2}"])),
                           statusStep("first-admits", authorization: "Bearer ${t1}", 200),
                           statusStep("second-refused", authorization: "Bearer ${t2}", 401),
                           helloStep("still-paired", paired: true),
                       ]))
        try b.scenario("pair/same-token-again", "re-pairing with the very token stored is 409 too: a pair is taken once, not an idempotent retry",
                       rules: ["R13.2-5"],
                       B.scenario(values: [("t1", t1)], [pairStep("pair", "${t1}", 200), pairStep("pair-again", "${t1}", 409)]))
        try b.scenario("pair/malformed-on-paired-body", "a paired body answers 409 to a malformed token: the paired check runs before the token is read",
                       rules: ["R13.2-5", "R13.2-6"], twoFaults: true,
                       B.scenario(values: [("t1", t1)], [
                           pairStep("pair", "${t1}", 200),
                           pairStep("pair-malformed", "not-a-token", 409),
                           B.step("pair-not-json", B.request("POST", "/pair", text: "token=x"), B.expect(409)),
                       ]))

        // The token rule: each refused with 400 and the body left unpaired.
        let upper = t1.uppercased()
        // Full-width forms of the same digits and letters (U+FF10–FF19, U+FF41–FF46): 64 Characters, 192 bytes.
        let fullwidth = String(String.UnicodeScalarView(t1.unicodeScalars.map { u in
            Unicode.Scalar(u.value <= 0x39 ? u.value - 0x30 + 0xFF10 : u.value - 0x61 + 0xFF41)!
        }))
        try check(PairingService.isWellFormed(fullwidth, mutant: .pairFullwidthAccepted) && fullwidth.count == 64, "the full-width token passes the seed's own check")
        let bad: [(String, String, String)] = [
            ("token-63-hex", String(t1.dropLast()), "63 hex characters: one short"),
            ("token-65-hex", t1 + "0", "65 hex characters: one too many"),
            ("token-uppercase", upper, "uppercase hex: one spelling per token, the lowercase token_hex writes (Choice)"),
            ("token-fullwidth-digits", fullwidth, "64 full-width digits: Character.isHexDigit accepts them, the rule does not (192 bytes)"),
            ("token-trailing-newline", t1 + "\n", "64 hex then a newline: a regex whose $ matches before a final newline accepts it"),
            ("token-0x-prefix", "0x" + String(t1.dropFirst(2)), "0x and 62 hex: int(token, 16) accepts it"),
            ("token-underscore", String(t1.prefix(32)) + "_" + String(t1.dropFirst(33)), "an underscore between digits: int(token, 16) accepts it"),
            ("token-leading-space", " " + String(t1.dropFirst()), "a leading space: int() and strip() accept it"),
            ("token-empty", "", "the empty token"),
        ]
        for (name, token, what) in bad {
            try b.scenario("pair/\(name)", "\(what): 400, and the body stays unpaired",
                           rules: ["R13.2-8"],
                           B.scenario(values: [("bad", token)], [pairStep("pair", "${bad}", 400), helloStep("still-unpaired", paired: false)]))
        }

        // The body rule.
        let bodies: [(String, String, String)] = [
            ("body-not-json", "token=\(t1)", "a form body, not JSON"),
            ("body-empty", "", "an empty body"),
            ("body-array", "[\"\(t1)\"]", "a JSON array, not an object"),
            ("body-token-number", "{\"token\":1234}", "token as a number"),
            ("body-token-null", "{\"token\":null}", "token null"),
            ("body-token-missing", "{\"tok\":\"\(t1)\"}", "no token member"),
            ("body-duplicate-token", "{\"token\":\"not-a-token\",\"token\":\"\(t1)\"}", "two token members, the last well formed: a repeated name is refused, not read last-wins"),
            ("body-duplicate-token-first-well-formed", "{\"token\":\"\(t1)\",\"token\":\"not-a-token\"}", "two token members, the first well formed: a repeated name is refused, not read first-wins (R13.2-7's tie-break)"),
            ("body-lone-surrogate", "{\"token\":\"\\ud800\(String(t1.dropFirst()))\"}", "a lone surrogate escape (Python json.loads accepts it): not JSON text this suite reads"),
        ]
        for (name, body, what) in bodies {
            try b.scenario("pair/\(name)", "\(what): 400, and the body stays unpaired",
                           rules: ["R13.2-7"],
                           B.scenario([B.step("pair", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: body), B.expect(400)),
                                       helloStep("still-unpaired", paired: false)]))
        }
        try b.scenario("pair/unknown-member-ignored", "a member beside token is ignored: 200",
                       rules: ["R13.2-7", "R13.2-9"],
                       B.scenario(values: [("t1", t1)], [
                           B.step("pair", B.request("POST", "/pair", json: .object([("token", .text("${t1}")), ("device", .text("oriel"))])), B.expect(200)),
                           statusStep("admits", authorization: "Bearer ${t1}", 200),
                       ]))
        let escaped = "{\"token\":\"\\u00" + Hex.encode(Array(t1.utf8.prefix(1))) + String(t1.dropFirst()) + "\"}"
        try b.scenario("pair/escaped-token", "a JSON escape in the token is decoded before the token rule: the token is the decoded text and admits as such",
                       rules: ["R13.2-7", "R13.2-8"],
                       B.scenario(values: [("t1", t1)], [
                           B.step("pair", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: escaped), B.expect(200)),
                           statusStep("admits", authorization: "Bearer ${t1}", 200),
                       ]))
        try b.scenario("pair/failed-save-never-half-pairs", "the first save fails: 400, /hello still unpaired, the token admits nothing, and the next pair succeeds",
                       rules: ["R13.1-2", "R13.2-10", "R13.2-9"],
                       B.scenario(values: [("t1", t1), ("t2", t2)], setup: .object([("fail_saves", .unsigned(1))]), [
                           pairStep("pair-save-fails", "${t1}", 400),
                           helloStep("still-unpaired", paired: false),
                           statusStep("token-refused", authorization: "Bearer ${t1}", 401),
                           pairStep("pair-again", "${t2}", 200),
                           statusStep("second-admits", authorization: "Bearer ${t2}", 200),
                       ]))
    }

    // MARK: - No answer carries the token

    static func leakCases(_ b: inout Builder) throws {
        try b.scenario("leak/no-answer-carries-the-token",
                       "once paired, no answer of any route (the open ones, /status, an unknown route, 401s and 409s) carries the stored token in a header or the body",
                       rules: ["R13.2-12", "R13.2-1", "R13.2-17", "R13.2-5"],
                       B.scenario(values: [("t1", t1), ("t2", t2)], excludes: ["${t1}"], [
                           pairStep("pair", "${t1}", 200),
                           helloStep("hello", paired: true),
                           statusStep("status", authorization: "Bearer ${t1}", 200),
                           statusStep("unknown-route", authorization: "Bearer ${t1}", 404, path: "/no-such-route"),
                           statusStep("no-token", authorization: nil, 401),
                           statusStep("wrong-token", authorization: "Bearer ${t2}", 401),
                           pairStep("pair-other", "${t2}", 409),
                           pairStep("pair-same", "${t1}", 409),
                           B.step("pair-malformed", B.request("POST", "/pair", text: "token=${t1}"), B.expect(409)),
                       ]))
    }

    // MARK: - The bearer check

    static func authCases(_ b: inout Builder) throws {
        let paired = pairStep("pair", "${t1}", 200)
        try b.scenario("auth/unpaired-admits-nothing", "before any pair, no Authorization header opens /status",
                       rules: ["R13.2-15"],
                       B.scenario(values: [("t1", t1)], [
                           statusStep("no-header", authorization: nil, 401),
                           statusStep("a-token", authorization: "Bearer ${t1}", 401),
                           statusStep("empty-token", authorization: "Bearer", 401),
                       ]))
        try b.scenario("auth/unknown-route-before-auth", "an unknown route without the token is 401, not 404: the bearer check runs before any route; with the token it is 404",
                       rules: ["R13.2-4", "R13.2-17"], twoFaults: true,
                       B.scenario(values: [("t1", t1)], [
                           statusStep("unpaired-unknown", authorization: nil, 401, path: "/no-such-route"),
                           paired,
                           statusStep("paired-unknown", authorization: nil, 401, path: "/no-such-route"),
                           statusStep("paired-unknown-with-token", authorization: "Bearer ${t1}", 404, path: "/no-such-route"),
                       ]))
        try b.scenario("auth/other-methods-on-open-paths", "only GET /hello and POST /pair are open: GET /pair, POST /hello and DELETE /pair need the token",
                       rules: ["R13.2-3"],
                       B.scenario(values: [("t1", t1)], [
                           B.step("get-pair-unpaired", B.request("GET", "/pair"), B.expect(401)),
                           B.step("post-hello-unpaired", B.request("POST", "/hello", json: .object([])), B.expect(401)),
                           paired,
                           B.step("get-pair", B.request("GET", "/pair"), B.expect(401)),
                           B.step("delete-pair", B.request("DELETE", "/pair"), B.expect(401)),
                           helloStep("still-paired", paired: true),
                       ]))
        let misses: [(String, String, String, [String])] = [
            ("scheme-lowercase", "bearer ${t1}", "the scheme in lowercase: the seed's check is case-sensitive (stricter than RFC 9110 §11.1)", ["R13.2-13"]),
            ("scheme-uppercase", "BEARER ${t1}", "the scheme in uppercase", ["R13.2-13"]),
            ("two-spaces", "Bearer  ${t1}", "two spaces after Bearer: split() would accept it", ["R13.2-13"]),
            ("tab-separator", "Bearer\t${t1}", "a tab after Bearer: split() would accept it", ["R13.2-13"]),
            ("token-uppercase", "Bearer ${upper}", "the right token in uppercase: tokens compare byte for byte", ["R13.2-14"]),
            ("last-byte-differs", "Bearer ${lastwrong}", "the token with its last character changed: the comparison covers every byte", ["R13.2-14"]),
            ("first-byte-differs", "Bearer ${firstwrong}", "the token with its first character changed", ["R13.2-14"]),
            ("token-prefix", "Bearer ${short}", "the first 63 characters of the token", ["R13.2-14"]),
            ("token-longer", "Bearer ${t1}0", "the token and one more character", ["R13.2-14"]),
            ("no-scheme", "${t1}", "the bare token with no scheme", ["R13.2-13"]),
            ("basic-scheme", "Basic ${t1}", "another scheme", ["R13.2-13"]),
        ]
        let upper = t1.uppercased()
        let lastWrong = String(t1.dropLast()) + (t1.hasSuffix("0") ? "1" : "0")
        let firstWrong = (t1.hasPrefix("0") ? "1" : "0") + String(t1.dropFirst())
        for (name, header, what, rules) in misses {
            try b.scenario("auth/\(name)", "\(what): 401; the exact header then admits",
                           rules: rules,
                           B.scenario(values: [("t1", t1), ("upper", upper), ("lastwrong", lastWrong), ("firstwrong", firstWrong), ("short", String(t1.dropLast()))], [
                               paired,
                               statusStep("near-miss", authorization: header, 401),
                               statusStep("exact", authorization: "Bearer ${t1}", 200),
                           ]))
        }
        try b.scenario("timing/bearer-first-vs-last-byte",
                       "wrong tokens differing from the stored one in the first or the last byte: every answer 401; the Welch t figure is reported, never judged (§6.13)",
                       rules: ["R13.2-18", "R13.2-14"],
                       B.scenario(values: [("t1", t1)], [
                           paired,
                           B.timing("first-vs-last", vary: "probe", a: firstWrong, b: lastWrong, samples: 1000,
                                    B.request("GET", "/status", headers: [("Authorization", "Bearer ${probe}")]), status: 401),
                       ]))
    }

    // MARK: - Concurrency

    static func concurrencyCases(_ b: inout Builder) throws {
        let tokens = (0..<16).map { token(0x100 + UInt64($0)) }
        try b.scenario("race/sixteen-concurrent-pairs", "16 concurrent POST /pair with 16 tokens: exactly one 200, fifteen 409, and only the winner's token admits",
                       rules: ["R13.2-16", "R13.2-5"],
                       B.scenario([
                           B.race("race", vary: "tok", values: tokens, B.request("POST", "/pair", json: .object([("token", .text("${tok}"))])),
                                  counts: [(200, 1), (409, 15)], capture: [("winner", 200), ("loser", 409)]),
                           statusStep("winner-admits", authorization: "Bearer ${winner}", 200),
                           statusStep("loser-refused", authorization: "Bearer ${loser}", 401),
                       ]))
    }

    // MARK: - ensure_paired

    static func ensurePairedCases(_ b: inout Builder) throws {
        func hello(_ wire: String, _ paired: String) -> CBOR { .text("{\"app\":\"cordelia\",\"version\":\"1.4.0\",\"build\":\"88\",\"wire\":\(wire),\"paired\":\(paired)}") }
        let ok = CBOR.unsigned(200)
        try b.decide("decide/unpaired-no-token", "an unpaired body and no token: mint one and pair", rules: ["R13.3-8"],
                     status: ok, body: hello("1", "false"), holds: .bool(false), "pair", mint: true)
        try b.decide("decide/unpaired-holding-token", "an unpaired body (reinstalled) and a token held: pair again with the held token, mint nothing", rules: ["R13.3-8"],
                     status: ok, body: hello("1", "false"), holds: .bool(true), "pair", mint: false)
        try b.decide("decide/paired-holding-token", "paired, and Oriel holds a token: carry on to /status", rules: ["R13.3-7"],
                     status: ok, body: hello("1", "true"), holds: .bool(true), "proceed")
        try b.decide("decide/paired-no-token", "paired but no token held: someone else paired first; stop and name the fix", rules: ["R13.3-6"],
                     status: ok, body: hello("1", "true"), holds: .bool(false), "stop", reason: .pairingPairedElsewhere)

        try b.decide("status/server-error", "a 500 answer whose body says unpaired is not read: stop", rules: ["R13.3-1"],
                     status: .unsigned(500), body: hello("1", "false"), holds: .bool(false), "stop", reason: .pairingHelloFailed)
        try b.decide("status/no-answer", "no answer at all (status and body null): stop", rules: ["R13.3-1"],
                     status: .null, body: .null, holds: .bool(true), "stop", reason: .pairingHelloFailed)
        try b.decide("status/not-found", "a 404 (another service on the port): stop", rules: ["R13.3-1"],
                     status: .unsigned(404), body: .text("{\"wire\":1,\"paired\":true}"), holds: .bool(true), "stop", reason: .pairingHelloFailed)
        try b.decide("status/decimal-string", "hello_status given as the canonical decimal string \"200\" reads as 200 (§2.2)", rules: ["R2.2-3"],
                     status: .text("200"), body: hello("1", "false"), holds: .bool(false), "pair", mint: true)

        try b.decide("body/null", "a 200 with no body: unreadable", rules: ["R13.3-2"],
                     status: ok, body: .null, holds: .bool(false), "stop", reason: .pairingHelloInvalid)
        try b.decide("body/html", "a 200 with an HTML page: unreadable", rules: ["R13.3-2"],
                     status: ok, body: .text("<html><body>HomeLink</body></html>"), holds: .bool(false), "stop", reason: .pairingHelloInvalid)
        try b.decide("body/array", "a JSON array, not an object", rules: ["R13.3-2"],
                     status: ok, body: .text("[1,false]"), holds: .bool(false), "stop", reason: .pairingHelloInvalid)
        try b.decide("body/duplicate-paired", "paired given twice (false, then true): a repeated member name makes the answer unreadable, never first- or last-wins", rules: ["R13.3-2"],
                     status: ok, body: .text("{\"wire\":1,\"paired\":false,\"paired\":true}"), holds: .bool(false), "stop", reason: .pairingHelloInvalid)
        try b.decide("body/case-variant-member", "\"Paired\": true beside \"paired\": false: names match exactly, so Paired is an unknown member (Go's encoding/json matches it)", rules: ["R13.3-9"],
                     status: ok, body: .text("{\"wire\":1,\"paired\":false,\"Paired\":true}"), holds: .bool(false), "pair", mint: true)
        try b.decide("body/unknown-members", "members beside wire and paired are ignored", rules: ["R13.3-9"],
                     status: ok, body: .text("{\"wire\":1,\"paired\":false,\"camera\":{\"on\":true},\"build\":88}"), holds: .bool(false), "pair", mint: true)

        let wires: [(String, String, ErrorCode, String)] = [
            ("wire-2", "2", .pairingWireMismatch, "a body that speaks wire 2"),
            ("wire-0", "0", .pairingWireMismatch, "wire 0"),
            ("wire-negative-zero", "-0", .pairingWireMismatch, "wire -0 is the integer 0"),
            ("wire-huge", "18446744073709551617", .pairingWireMismatch, "an integer beyond 64 bits is still an integer, and not 1"),
            ("wire-string", "\"1\"", .pairingHelloInvalid, "wire as the string \"1\": int() would accept it"),
            ("wire-true", "true", .pairingHelloInvalid, "wire true: int(True) is 1"),
            ("wire-fraction", "1.0", .pairingHelloInvalid, "wire 1.0: not an integer"),
            ("wire-exponent", "1e0", .pairingHelloInvalid, "wire 1e0: not an integer"),
            ("wire-null", "null", .pairingHelloInvalid, "wire null: `or 0` would make it a mismatch"),
        ]
        for (name, w, reason, what) in wires {
            try b.decide("wire/\(name)", "\(what): stop", rules: ["R13.3-3"],
                         status: ok, body: hello(w, "false"), holds: .bool(false), "stop", reason: reason)
        }
        try b.decide("wire/missing", "no wire member: unreadable (a missing version is not version 0)", rules: ["R13.3-3"],
                     status: ok, body: .text("{\"app\":\"cordelia\",\"paired\":false}"), holds: .bool(false), "stop", reason: .pairingHelloInvalid)

        let pairs: [(String, String, String)] = [
            ("paired-string-false", "\"false\"", "paired as the string \"false\": truthy in Python and JavaScript"),
            ("paired-string-true", "\"true\"", "paired as the string \"true\""),
            ("paired-zero", "0", "paired as 0"),
            ("paired-null", "null", "paired null"),
        ]
        for (name, p, what) in pairs {
            try b.decide("paired/\(name)", "\(what): unreadable, stop", rules: ["R13.3-4"],
                         status: ok, body: hello("1", p), holds: .bool(false), "stop", reason: .pairingHelloInvalid)
        }
        try b.decide("paired/missing", "no paired member: unreadable", rules: ["R13.3-4"],
                     status: ok, body: .text("{\"wire\":1}"), holds: .bool(true), "stop", reason: .pairingHelloInvalid)

        try b.decide("order/wire-before-paired-elsewhere", "wire 2 and paired with no token held: the wire check comes first", rules: ["R13.3-5", "R13.3-3", "R13.3-6"], twoFaults: true,
                     status: ok, body: hello("2", "true"), holds: .bool(false), "stop", reason: .pairingWireMismatch)
        try b.decide("order/wire-before-paired-type", "wire 2 and paired \"yes\": the wire check comes first", rules: ["R13.3-5", "R13.3-3", "R13.3-4"], twoFaults: true,
                     status: ok, body: hello("2", "\"yes\""), holds: .bool(false), "stop", reason: .pairingWireMismatch)
        try b.decide("order/status-before-body", "a 503 whose body is not JSON: the status decides first", rules: ["R13.3-5", "R13.3-1"], twoFaults: true,
                     status: .unsigned(503), body: .text("Service Unavailable"), holds: .bool(false), "stop", reason: .pairingHelloFailed)
        // Not an order case: each fault alone gives pairing_hello_invalid, so no answer shows which
        // member is read first. It pins only that neither unreadable member masks the other.
        try b.decide("paired/wire-and-paired-both-unreadable", "wire \"1\" and paired \"false\": both unreadable, one answer (neither masks the other)", rules: ["R13.3-3", "R13.3-4"],
                     status: ok, body: hello("\"1\"", "\"false\""), holds: .bool(true), "stop", reason: .pairingHelloInvalid)

        try b.reject("input/holds-token-string", "holds_token as the string \"true\" (§2.2 booleans)", rules: ["R2.2-6"],
                     .object([("hello_status", ok), ("hello_body", hello("1", "false")), ("holds_token", .text("true"))]), .inputBadType)
        try b.reject("input/status-missing", "hello_status absent (it is nullable, not optional)", rules: ["R2.2-1"],
                     .object([("hello_body", hello("1", "false")), ("holds_token", .bool(false))]), .inputMissingField)
        try b.reject("input/status-plus-sign", "hello_status as the string \"+200\": not a canonical decimal (§2.2 integers)", rules: ["R2.2-3"],
                     .object([("hello_status", .text("+200")), ("hello_body", hello("1", "false")), ("holds_token", .bool(false))]), .inputBadType)
        try b.reject("input/body-number", "hello_body as a number, not text", rules: [],
                     .object([("hello_status", ok), ("hello_body", .unsigned(1)), ("holds_token", .bool(false))]), .inputBadType)
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "pairing generator check failed: \(what)") }
    }
}

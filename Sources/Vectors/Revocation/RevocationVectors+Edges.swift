/// The identity service's edge battery (issue 24), from the same tables as the pairing one
/// (`HTTPEdges`): every route × every spelling that is no route, every query, every other method;
/// every Bearer variant; every hex field (two bodies and the self-status path) × every spelling;
/// every body that is not a strict JSON object; the session and reset hooks' inputs.
extension RevocationVectors {
    static func edgeCases(_ b: inout Builder) throws {
        try routeEdges(&b)
        try bearerEdges(&b)
        try hexEdges(&b)
        try bodyEdges(&b)
        try bodyFloorCases(&b)
        try hookEdges(&b)
        try framingEdges(&b)
    }

    /// SPEC [R13.1-11], [R13.1-12] on the session hook (the one body read without a session): a
    /// chunked body mints a session, each faulty framing is refused and the connection closed.
    static func framingEdges(_ b: inout Builder) throws {
        let route = HTTPFraming.Route(
            path: "/conformance/session", good: "{\"user_id\":\"\(alice)\"}",
            goodAnswer: B.expect(200, headers: [B.jsonContentType], json: B.object([("token", B.type("string"))])), after: [],
            emptyStatus: 400, badStatus: 400,
            next: "GET /v1/sync/siblings HTTP/1.1\r\nHost: conformance\r\n\r\n", nextStatus: 401)
        for c in HTTPFraming.cases(route) {
            try b.scenario("framing/\(c.name)", "POST /conformance/session with \(c.what)", rules: c.rules, twoFaults: c.twoFaults, scenario(c.steps))
        }
    }

    /// A session route: its method and path, a body, the steps before, what a working call
    /// answers, and a step showing the call changed nothing.
    struct SessionRoute {
        var name: String
        var method: String
        var path: String
        var json: CBOR?
        var before: [CBOR]
        var works: CBOR
        var unchanged: CBOR
    }

    static let k1Body = CBOR.object([("pubkey_hex", .text("${k1}"))])
    static let registerK1 = register("register", "alice", "${k1}", 200)
    static let sessionRoutes: [SessionRoute] = [
        SessionRoute(name: "siblings", method: "GET", path: "/v1/sync/siblings", json: nil, before: [registerK1],
                     works: B.expect(200, headers: [B.jsonContentType], json: B.object([("siblings", B.array([B.eq(keys[0].1)]))])),
                     unchanged: siblings("unchanged", "alice", [keys[0].1])),
        SessionRoute(name: "register", method: "POST", path: "/v1/identity/register", json: k1Body, before: [],
                     works: B.expect(200, json: B.object([("pubkey_hex", B.eq(keys[0].1))])),
                     unchanged: selfStatus("unchanged", "${k1}", registered: false, revoked: false)),
        SessionRoute(name: "remove", method: "POST", path: "/v1/sync/siblings/remove", json: k1Body, before: [registerK1],
                     works: B.expect(204, empty: true), unchanged: selfStatus("unchanged", "${k1}", registered: true, revoked: false)),
        SessionRoute(name: "revoke-all", method: "POST", path: "/v1/sync/siblings/revoke-all", json: nil, before: [registerK1],
                     works: B.expect(204, empty: true), unchanged: selfStatus("unchanged", "${k1}", registered: true, revoked: false)),
    ]

    static func routeEdges(_ b: inout Builder) throws {
        for r in sessionRoutes {
            let variants = HTTPEdges.noRoute(r.path).map { ($0.0, $0.1, r.method, $0.2) }
                + (HTTPEdges.otherMethods + [r.method == "GET" ? ("post", "POST") : ("get", "GET")]).map { ("method-\($0.0)", "the method \($0.1)", $0.1, r.path) }
            for (name, what, method, target) in variants {
                let send = { (step: String, who: String?) in
                    B.step(step, B.request(method, target, headers: auth(who), json: ["GET", "get", "HEAD", "OPTIONS", "DELETE"].contains(method) ? nil : r.json), B.expect(404))
                }
                try b.scenario("route/\(r.name)-\(name)", "\(method) \(target), \(r.method) \(r.path) with \(what): no route, 404 with or without a session (the route is looked up first), and nothing changes",
                               rules: ["R13.4-14"], twoFaults: true,
                               scenario([withAlice] + r.before + [send("no-session", nil), send("with-session", "alice"), r.unchanged]))
            }
            for (name, what, q) in HTTPEdges.queries {
                try b.scenario("route/\(r.name)-\(name)", "\(r.method) \(r.path)\(q), \(what): the route is the path before ?, and works",
                               rules: ["R13.4-14"],
                               scenario([withAlice] + r.before + [B.step("call", B.request(r.method, r.path + q, headers: auth("alice"), json: r.json), r.works)]))
            }
        }

        // The public routes: self-status (its fixed part, then the parameter) and the reverse lookup.
        let status = "/v1/sync/self-status"
        var publicVariants = HTTPEdges.noRoute(status).map { ("self-status-\($0.0)", "the fixed part with \($0.1)", "GET", $0.2 + "/${k1}") }
        publicVariants += [
            ("self-status-trailing-slash-after-key", "a trailing slash after the pubkey", "GET", "\(status)/${k1}/"),
            ("self-status-extra-segment", "a segment after the pubkey", "GET", "\(status)/${k1}/more"),
            ("self-status-empty-key", "no pubkey segment at all", "GET", "\(status)/"),
            ("self-status-no-key", "the bare prefix", "GET", status),
        ]
        publicVariants += HTTPEdges.otherMethods.map { ("self-status-method-\($0.0)", "the method \($0.1)", $0.1, "\(status)/${k1}") }
        publicVariants += [("self-status-method-post", "the method POST", "POST", "\(status)/${k1}")]
        let lookup = "/v1/identity/users/\(alice)/pubkeys"
        publicVariants += HTTPEdges.noRoute(lookup).map { ("user-pubkeys-\($0.0)", $0.1, "GET", $0.2) }
        publicVariants += [
            ("user-pubkeys-empty-user", "an empty user segment", "GET", "/v1/identity/users//pubkeys"),
            ("user-pubkeys-extra-segment", "a segment after pubkeys", "GET", lookup + "/more"),
            ("user-pubkeys-method-post", "the method POST", "POST", lookup),
        ]
        for (name, what, method, target) in publicVariants {
            try b.scenario("route/\(name)", "\(method) \(target): \(what) is no route, 404; the route itself still answers",
                           rules: ["R13.4-14"],
                           scenario([withAlice, registerK1, B.step("variant", B.request(method, target), B.expect(404)),
                                     selfStatus("exact", "${k1}", registered: true, revoked: false), userPubkeys("lookup", alice, [keys[0].1])]))
        }
        for (name, what, q) in HTTPEdges.queries {
            try b.scenario("route/self-status-\(name)", "GET self-status\(q), \(what): the route is the path before ?",
                           rules: ["R13.4-14", "R13.4-10"],
                           scenario([withAlice, registerK1,
                                     B.step("status", B.request("GET", "\(status)/${k1}\(q)"), B.expect(200, json: B.object([("registered", B.eq(true)), ("revoked", B.eq(false))])))]))
            try b.scenario("route/user-pubkeys-\(name)", "GET the reverse lookup\(q), \(what): the route is the path before ?",
                           rules: ["R13.4-14", "R13.4-11"],
                           scenario([withAlice, registerK1,
                                     B.step("lookup", B.request("GET", lookup + q), B.expect(200, json: B.object([("pubkeys", B.array([B.eq(keys[0].1)]))])))]))
        }
    }

    static func bearerEdges(_ b: inout Builder) throws {
        for v in HTTPEdges.bearer {
            let status = v.identity ? 200 : 401
            let headers = v.lines.map { ("Authorization", $0.replacingOccurrences(of: "T", with: "${alice}")) }
            let rules = v.lines.count > 1 ? ["R13.4-15", "R13.2-19"] : v.name.hasPrefix("trailing") || v.name == "leading-space" ? ["R13.1-8", "R13.4-15"] : ["R13.4-15", "R13.4-2"]
            try b.scenario("bearer/\(v.name)", "Authorization \(v.lines.map { "\"\($0)\"" }.joined(separator: " + ")), \(v.what): \(status) (RFC 9110 §11.1, §11.4)",
                           rules: rules,
                           B.scenario(values: [("alice_id", alice)] + keys, excludes: ["${alice}"], [
                               withAlice, registerK1,
                               B.step("variant", B.request("GET", "/v1/sync/siblings", headers: headers),
                                      v.identity ? B.expect(200, json: B.object([("siblings", B.array([B.eq(keys[0].1)]))])) : B.expect(401)),
                               B.step("variant-register", B.request("POST", "/v1/identity/register", headers: headers, json: .object([("pubkey_hex", .text("${k2}"))])),
                                      B.expect(v.identity ? 200 : 401)),
                               siblings("exact", "alice", v.identity ? [keys[0].1, keys[1].1] : [keys[0].1]),
                           ]))
        }
    }

    static func hexEdges(_ b: inout Builder) throws {
        let k = keys[0].1
        for (name, what, spelling, same) in HTTPEdges.hexSpellings(k) {
            try b.scenario("hex/register-\(name)", "a register pubkey_hex \(what): \(same ? "the same 32 bytes, 200 and listed in lowercase" : "not 64 hex digits, 400, nothing registered")",
                           rules: ["R13.4-4"] + (same ? ["R13.4-5"] : []),
                           scenario([withAlice, register("register", "alice", spelling, same ? 200 : 400),
                                     same ? siblings("listed", "alice", [k]) : selfStatus("nothing-registered", "${k1}", registered: false, revoked: false)]))
            try b.scenario("hex/remove-\(name)", "a remove pubkey_hex \(what): \(same ? "the same device, 204, and it is revoked" : "not 64 hex digits, 400, nothing revoked")",
                           rules: ["R13.4-4", "R13.4-7"],
                           scenario([withAlice, registerK1, remove("remove", "alice", spelling, same ? 204 : 400),
                                     selfStatus("after", "${k1}", registered: true, revoked: same)]))
            // A request target has no spaces or controls (RFC 9112 §3.2); the others go in the path.
            guard !spelling.unicodeScalars.contains(where: { $0.value <= 0x20 }), !spelling.isEmpty else { continue }
            try b.scenario("hex/self-status-\(name)", "a self-status path whose pubkey is \(what): \(same ? "the same key, 200" : "not 64 hex digits, 400")",
                           rules: ["R13.4-12", "R13.4-4", "R13.4-10"],
                           scenario([withAlice, registerK1,
                                     same ? selfStatus("status", spelling, registered: true, revoked: false)
                                          : B.step("status", B.request("GET", "/v1/sync/self-status/\(spelling)"), B.expect(400))]))
        }
        let escaped = "%" + String(k.utf8.first!, radix: 16) + String(k.dropFirst())
        try b.scenario("hex/self-status-percent-escape", "a self-status pubkey whose first digit is percent-encoded: the segment is not 64 hex digits (no percent-decoding), 400",
                       rules: ["R13.4-12", "R13.4-14"],
                       scenario([withAlice, registerK1, B.step("status", B.request("GET", "/v1/sync/self-status/\(escaped)"), B.expect(400))]))
        for (name, what, member) in HTTPEdges.nonStrings(k) {
            for (route, path) in [("register", "/v1/identity/register"), ("remove", "/v1/sync/siblings/remove")] {
                try b.scenario("hex/\(route)-\(name)", "a \(route) pubkey_hex as \(what), not a string: 400, and nothing changes",
                               rules: ["R13.4-4"],
                               scenario([withAlice, registerK1,
                                         B.step(route, B.request("POST", path, headers: auth("alice") + [("Content-Type", "application/json")], text: "{\"pubkey_hex\":\(member)}"), B.expect(400)),
                                         selfStatus("unchanged", "${k1}", registered: true, revoked: false)]))
            }
        }
    }

    static func bodyEdges(_ b: inout Builder) throws {
        for (route, path, key, after) in [("register", "/v1/identity/register", "k2", selfStatus("nothing-registered", "${k2}", registered: false, revoked: false)),
                                          ("remove", "/v1/sync/siblings/remove", "k1", selfStatus("still-live", "${k1}", registered: true, revoked: false))] {
            let good = "{\"pubkey_hex\":\"${\(key)}\"}"
            for (name, what, body) in HTTPEdges.badBodies(good) {
                try b.scenario("body/\(route)-\(name)", "a \(route) body that is \(what): not a strict JSON object, 400, and nothing changes",
                               rules: ["R13.1-6", "R13.4-4"],
                               scenario([withAlice, registerK1,
                                         B.step(route, B.request("POST", path, headers: auth("alice") + [("Content-Type", "application/json")], text: body), B.expect(400)), after]))
            }
            for (name, what, body) in HTTPEdges.badBodies(good) {
                try b.scenario("body/\(route)-no-session-\(name)", "no session and a \(route) body that is \(what): 401, the session is checked before the body is read",
                               rules: ["R13.4-3", "R13.4-2", "R13.1-6"], twoFaults: true,
                               scenario([withAlice, registerK1,
                                         B.step(route, B.request("POST", path, headers: [("Content-Type", "application/json")], text: body), B.expect(401)), after]))
            }
            try b.scenario("body/\(route)-whitespace-around-and-inside", "a \(route) body with JSON whitespace around and between its tokens: read (the control of the body battery)",
                           rules: ["R13.1-6", "R13.4-4"],
                           scenario([withAlice, registerK1,
                                     B.step(route, B.request("POST", path, headers: auth("alice") + [("Content-Type", "application/json")], text: HTTPEdges.spacedBody(good)),
                                            B.expect(route == "register" ? 200 : 204))]))
        }
    }

    static func bodyFloorCases(_ b: inout Builder) throws {
        let padded = HTTPEdges.paddedBody("{\"pubkey_hex\":\"\(keys[1].1)\"}")
        try b.scenario("body/register-64-kib", "a register body of exactly 64 KiB, its padding an ignored member before pubkey_hex: read whole, 200 (no service limit below 64 KiB)",
                       rules: ["R13.1-9", "R13.4-5"],
                       scenario([withAlice, B.step("register", B.request("POST", "/v1/identity/register", headers: auth("alice") + [("Content-Type", "application/json")], text: padded),
                                                   B.expect(200, json: B.object([("pubkey_hex", B.eq(keys[1].1))]))),
                                 siblings("listed", "alice", [keys[1].1])]))
    }

    static func hookEdges(_ b: inout Builder) throws {
        let hook = { (text: String) in
            B.step("session", B.request("POST", "/conformance/session", headers: [("Content-Type", "application/json")], text: text), B.expect(400))
        }
        for (name, what, body) in HTTPEdges.badBodies("{\"user_id\":\"\(alice)\"}") {
            try b.scenario("hooks/session-body-\(name)", "a session hook body that is \(what): 400 (R13.1-6)",
                           rules: ["R13.4-16", "R13.1-6"], scenario([hook(body)]))
        }
        let sixtyFour = String(String(repeating: "Az09-", count: 13).prefix(64))
        let good: [(String, String)] = [("one-char", "a"), ("hyphen-only", "-"), ("64-chars", sixtyFour), ("every-class", "Zz09-")]
        for (name, id) in good {
            try b.scenario("hooks/session-user-\(name)", "the session hook with user_id \"\(id)\" (R13.4-1 allows it): 200 with a token that authenticates",
                           rules: ["R13.4-1"],
                           B.scenario(values: [("u_id", id)] + keys, [sessionStep("u", "${u_id}"), B.step("siblings", B.request("GET", "/v1/sync/siblings", headers: auth("u")),
                                                                                                    B.expect(200, json: B.object([("siblings", B.array([]))])))]))
        }
        let bad: [(String, String, String)] = [
            ("empty", "the empty string", "\"\""), ("65-chars", "65 characters", "\"\(sixtyFour)a\""), ("space", "a space", "\"a b\""),
            ("underscore", "an underscore", "\"a_b\""), ("dot", "a dot", "\"a.b\""), ("slash", "a slash", "\"a/b\""), ("newline", "a trailing newline", "\"a\\n\""),
            ("non-ascii-letter", "a non-ASCII letter", "\"\u{e9}\""), ("fullwidth-digit", "a full-width digit (U+FF11)", "\"\u{FF11}\""),
            ("number", "a JSON number", "12"), ("null", "null", "null"), ("boolean", "true", "true"), ("array", "an array", "[\"a\"]"),
        ]
        for (name, what, literal) in bad {
            try b.scenario("hooks/session-user-\(name)", "a session hook user_id that is \(what): breaks R13.4-1, 400",
                           rules: ["R13.4-16", "R13.4-1"], scenario([hook("{\"user_id\":\(literal)}")]))
        }
        try b.scenario("hooks/session-user-missing", "a session hook body with no user_id: 400",
                       rules: ["R13.4-16"], scenario([hook("{\"user\":\"a\"}")]))
        try b.scenario("hooks/session-user-case-is-an-account", "user_id \"acct-a\" and \"ACCT-A\" are two accounts (text is exact, §2.2 rule 5): what one registers the other does not list",
                       rules: ["R13.4-16", "R13.4-5", "R13.4-9", "R13.4-11"],
                       B.scenario(values: keys, [sessionStep("lower", "acct-a"), sessionStep("upper", "ACCT-A"), register("register", "lower", "${k1}", 200),
                                                 siblings("upper-has-none", "upper", []), siblings("lower-has-it", "lower", [keys[0].1]),
                                                 userPubkeys("upper-lookup", "ACCT-A", []), userPubkeys("lower-lookup", "acct-a", [keys[0].1])]))
        // R13.1-10: the hooks answer POST only; another method on a hook's path is no hook (404)
        // and resets nothing, mints nothing.
        for method in ["GET", "PUT", "DELETE"] {
            try b.scenario("hooks/reset-method-\(method.lowercased())", "\(method) /conformance/reset with a {} body: 404, and the registered device stays",
                           rules: ["R13.1-10", "R13.1-1"],
                           scenario([withAlice, registerK1,
                                     B.step("reset-\(method.lowercased())", B.request(method, "/conformance/reset", headers: [("Content-Type", "application/json")], text: "{}"), B.expect(404)),
                                     selfStatus("still-registered", "${k1}", registered: true, revoked: false)]))
            try b.scenario("hooks/session-method-\(method.lowercased())", "\(method) /conformance/session with a good body: 404, no session minted",
                           rules: ["R13.1-10", "R13.4-1"],
                           scenario([B.step("session-\(method.lowercased())", B.request(method, "/conformance/session", headers: [("Content-Type", "application/json")], text: "{\"user_id\":\"\(alice)\"}"),
                                            B.expect(404))]))
        }
        for (name, path) in [("other", "/conformance/other"), ("reset-slash", "/conformance/reset/"), ("session-slash", "/conformance/session/")] {
            try b.scenario("hooks/no-hook-\(name)", "POST \(path): no such hook, 404",
                           rules: ["R13.1-10"],
                           scenario([B.step("post", B.request("POST", path, headers: [("Content-Type", "application/json")], text: "{\"user_id\":\"\(alice)\"}"), B.expect(404))]))
        }
        for (name, what, body) in HTTPEdges.badBodies("{\"x\":0}") where name != "empty" {
            try b.scenario("hooks/reset-body-\(name)", "a reset body that is \(what): 400, and the registered device stays",
                           rules: ["R13.1-7", "R13.1-6"],
                           scenario([withAlice, registerK1,
                                     B.step("reset", B.request("POST", "/conformance/reset", headers: [("Content-Type", "application/json")], text: body), B.expect(400)),
                                     selfStatus("still-registered", "${k1}", registered: true, revoked: false)]))
        }
    }
}

/// The pairing service's edge battery (issue 24): every route × every spelling that is no route,
/// every query, every other method; every Bearer variant; every spelling of the token; every body
/// that is not a strict JSON object; the reset hook's inputs and `fail_saves`. Built from the
/// shared tables of `HTTPEdges`, each scenario naming the rule and the edge it crosses.
extension PairingVectors {
    static func edgeCases(_ b: inout Builder) throws {
        try routeEdges(&b)
        try bearerEdges(&b)
        try tokenEdges(&b)
        try bodyEdges(&b)
        try hookEdges(&b)
        try framingEdges(&b)
    }

    /// SPEC [R13.1-11], [R13.1-12] on `/pair`: a chunked token is taken (the body is then paired
    /// to exactly that token), each faulty framing refused and the connection closed.
    static func framingEdges(_ b: inout Builder) throws {
        let route = HTTPFraming.Route(
            path: "/pair", good: "{\"token\":\"\(t1)\"}",
            goodAnswer: B.expect(200, headers: [B.jsonContentType], json: B.object([("paired", B.eq(true))])),
            after: [helloStep("hello", paired: true), statusStep("status", authorization: "Bearer ${t1}", 200)],
            emptyStatus: 400, badStatus: 400,
            next: "GET /hello HTTP/1.1\r\nHost: conformance\r\n\r\n", nextStatus: 200)
        for c in HTTPFraming.cases(route) {
            try b.scenario("framing/\(c.name)", "POST /pair with \(c.what)", rules: c.rules, twoFaults: c.twoFaults, B.scenario(values: [("t1", t1)], c.steps))
        }
    }

    static let pairT1 = pairStep("pair", "${t1}", 200)

    static func routeEdges(_ b: inout Builder) throws {
        let pairBody = CBOR.object([("token", .text("${t1}"))])
        for (name, what, target) in HTTPEdges.noRoute("/hello") {
            try b.scenario("route/hello-\(name)", "GET \(target), /hello with \(what): not the open route, so 401 on an unpaired body (the bearer check answers)",
                           rules: ["R13.2-3", "R13.2-15"],
                           B.scenario([B.step("variant", B.request("GET", target), B.expect(401)), helloStep("exact", paired: false)]))
        }
        for (name, what, target) in HTTPEdges.noRoute("/pair") {
            try b.scenario("route/pair-\(name)", "POST \(target), /pair with \(what): not the open route, so 401, and the body stays unpaired",
                           rules: ["R13.2-3", "R13.2-15"],
                           B.scenario(values: [("t1", t1)], [B.step("variant", B.request("POST", target, json: pairBody), B.expect(401)),
                                                             helloStep("still-unpaired", paired: false)]))
        }
        for (name, what, target) in HTTPEdges.noRoute("/status") {
            try b.scenario("route/status-\(name)", "GET \(target) with the right token, /status with \(what): no route, 404; /status itself 200",
                           rules: ["R13.2-3", "R13.2-17"],
                           B.scenario(values: [("t1", t1)], [pairT1, statusStep("variant", authorization: "Bearer ${t1}", 404, path: target),
                                                             statusStep("exact", authorization: "Bearer ${t1}", 200)]))
        }
        for (name, what, q) in HTTPEdges.queries {
            try b.scenario("route/hello-\(name)", "GET /hello\(q), \(what): the route is the path before ?, open",
                           rules: ["R13.2-3", "R13.2-1"],
                           B.scenario([B.step("hello", B.request("GET", "/hello" + q), B.expect(200, headers: [B.jsonContentType], json: B.object([("paired", B.eq(false))])))]))
            try b.scenario("route/pair-\(name)", "POST /pair\(q), \(what): the open route, so the pair is taken",
                           rules: ["R13.2-3", "R13.2-9"],
                           B.scenario(values: [("t1", t1)], [B.step("pair", B.request("POST", "/pair" + q, json: pairBody), B.expect(200)), helloStep("paired", paired: true)]))
            try b.scenario("route/status-\(name)", "GET /status\(q) with the right token, \(what): the /status route",
                           rules: ["R13.2-3", "R13.2-17"],
                           B.scenario(values: [("t1", t1)], [pairT1, statusStep("status", authorization: "Bearer ${t1}", 200, path: "/status" + q)]))
        }
        for (name, method) in HTTPEdges.otherMethods + [("head", "HEAD"), ("post", "POST")] {
            try b.scenario("route/method-\(name)-hello", "\(method) /hello: only GET /hello is open (methods are case-sensitive, RFC 9110 §9.1), so 401",
                           rules: ["R13.2-3"],
                           B.scenario([B.step("variant", B.request(method, "/hello"), B.expect(401)), helloStep("exact", paired: false)]))
        }
        for (name, method) in HTTPEdges.otherMethods + [("get", "GET"), ("head", "HEAD")] {
            try b.scenario("route/method-\(name)-pair", "\(method) /pair: only POST /pair is open, so 401, and the body stays unpaired",
                           rules: ["R13.2-3"],
                           B.scenario(values: [("t1", t1)], [B.step("variant", B.request(method, "/pair", json: ["PUT", "PATCH", "post"].contains(method) ? pairBody : nil), B.expect(401)),
                                                             helloStep("still-unpaired", paired: false)]))
        }
        for (name, method) in HTTPEdges.otherMethods + [("post", "POST")] {
            try b.scenario("route/method-\(name)-status", "\(method) /status with the right token: no route, 404",
                           rules: ["R13.2-3", "R13.2-17"],
                           B.scenario(values: [("t1", t1)], [pairT1, B.step("variant", B.request(method, "/status", headers: [("Authorization", "Bearer ${t1}")]), B.expect(404))]))
        }
    }

    static func bearerEdges(_ b: inout Builder) throws {
        for v in HTTPEdges.bearer {
            let status = v.pairing ? 200 : 401
            let headers = v.lines.map { ("Authorization", $0.replacingOccurrences(of: "T", with: "${t1}")) }
            try b.scenario("bearer/\(v.name)", "Authorization \(v.lines.map { "\"\($0)\"" }.joined(separator: " + ")), \(v.what): \(status)\(v.pairing ? "" : "; the exact header then admits")",
                           rules: v.lines.count > 1 ? ["R13.2-19"] : v.name.hasPrefix("trailing") || v.name == "leading-space" ? ["R13.1-8", "R13.2-13"] : ["R13.2-13", "R13.2-14"],
                           B.scenario(values: [("t1", t1)], excludes: ["${t1}"], [
                               pairT1,
                               B.step("variant", B.request("GET", "/status", headers: headers), B.expect(status)),
                               statusStep("exact", authorization: "Bearer ${t1}", 200),
                           ]))
        }
    }

    static func tokenEdges(_ b: inout Builder) throws {
        for (name, what, spelling, _) in HTTPEdges.hexSpellings(t1) {
            try b.scenario("token/\(name)", "the token \(what): not 64 lowercase hex digits, so 400, and the body stays unpaired",
                           rules: ["R13.2-8"],
                           B.scenario(values: [("bad", spelling)], [pairStep("pair", "${bad}", 400), helloStep("still-unpaired", paired: false)]))
        }
        for (name, what, member) in HTTPEdges.nonStrings(t1) {
            try b.scenario("token/\(name)", "the token as \(what), not a string: 400, and the body stays unpaired",
                           rules: ["R13.2-7"],
                           B.scenario([B.step("pair", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: "{\"token\":\(member)}"), B.expect(400)),
                                       helloStep("still-unpaired", paired: false)]))
        }
    }

    static func bodyEdges(_ b: inout Builder) throws {
        let good = "{\"token\":\"\(t1)\"}"
        for (name, what, body) in HTTPEdges.badBodies(good) {
            try b.scenario("body/\(name)", "a /pair body that is \(what): not a strict JSON object, 400, and the body stays unpaired",
                           rules: ["R13.1-6", "R13.2-7"],
                           B.scenario([B.step("pair", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: body), B.expect(400)),
                                       helloStep("still-unpaired", paired: false)]))
        }
        for (name, what, body) in HTTPEdges.badBodies(good) {
            try b.scenario("body/paired-\(name)", "on a paired body, a /pair body that is \(what): 409, the paired check comes before the body is read",
                           rules: ["R13.2-6", "R13.2-5", "R13.1-6"], twoFaults: true,
                           B.scenario(values: [("t1", t1)], excludes: ["${t1}"], [
                               pairT1,
                               B.step("pair", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: body), B.expect(409)),
                               statusStep("still-admits", authorization: "Bearer ${t1}", 200),
                           ]))
        }
        let padded = HTTPEdges.paddedBody(good)
        try check(padded.utf8.count == HTTPEdges.bodyFloor, "the padded body is 64 KiB")
        try b.scenario("body/64-kib", "a /pair body of exactly 64 KiB, its padding an ignored member before the token: read whole, 200 (no service limit below 64 KiB)",
                       rules: ["R13.1-9", "R13.2-7", "R13.2-9"],
                       B.scenario(values: [("t1", t1)], [
                           B.step("pair", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: padded), B.expect(200)),
                           statusStep("admits", authorization: "Bearer ${t1}", 200),
                       ]))
        try b.scenario("body/whitespace-around-and-inside", "the well-formed body with JSON whitespace around and between its tokens: read, 200 (the control of the body battery)",
                       rules: ["R13.1-6", "R13.2-9"],
                       B.scenario(values: [("t1", t1)], [
                           B.step("pair", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: HTTPEdges.spacedBody(good)), B.expect(200)),
                           statusStep("admits", authorization: "Bearer ${t1}", 200),
                       ]))
    }

    static func hookEdges(_ b: inout Builder) throws {
        let reset = { (name: String, text: String) in B.step(name, B.request("POST", "/conformance/reset", headers: [("Content-Type", "application/json")], text: text), B.expect(400)) }
        for (name, what, body) in HTTPEdges.badBodies("{\"fail_saves\":0}") where name != "empty" {
            try b.scenario("hooks/reset-body-\(name)", "a reset body that is \(what): 400, and the paired body stays paired",
                           rules: ["R13.1-7", "R13.1-6"],
                           B.scenario(values: [("t1", t1)], [pairT1, reset("reset", body), helloStep("still-paired", paired: true)]))
        }
        for (name, literal) in [("string", "\"1\""), ("fraction", "1.0"), ("exponent", "1e0"), ("negative", "-1"), ("null", "null"), ("boolean", "true"),
                                ("beyond-uint64", "18446744073709551616"), ("array", "[1]")] {
            try b.scenario("hooks/fail-saves-\(name)", "fail_saves as \(literal): not an unsigned integer written as a JSON number, 400, and nothing changes",
                           rules: ["R13.1-7", "R13.1-2"],
                           B.scenario(values: [("t1", t1)], [pairT1, reset("reset", "{\"fail_saves\":\(literal)}"), helloStep("still-paired", paired: true)]))
        }
        // The largest unsigned integer is one (§2.2 rule 3): a reader that keeps fail_saves in a
        // signed 64-bit integer, or caps it at 2^63 - 1, refuses it.
        try b.scenario("hooks/fail-saves-uint64-max", "fail_saves 2^64 − 1, the largest unsigned integer: 204, and the next save fails (2^64 is refused: hooks/fail-saves-beyond-uint64)",
                       rules: ["R13.1-2", "R13.1-7"],
                       B.scenario(values: [("t1", t1)], [
                           B.step("reset-max", B.request("POST", "/conformance/reset", headers: [("Content-Type", "application/json")], text: "{\"fail_saves\":18446744073709551615}"),
                                  B.expect(204, empty: true)),
                           pairStep("save-fails", "${t1}", 400),
                           helloStep("still-unpaired", paired: false),
                       ]))
        // R13.1-10: a hook answers POST only, before the bearer check. Unpaired, a reader that
        // asks for the token first answers 401; paired, one that reads PUT (which sorts after
        // POST) or GET (before it) as the reset's method unpairs the body.
        for method in ["GET", "PUT", "DELETE"] {
            try b.scenario("hooks/reset-method-\(method.lowercased())-unpaired", "\(method) /conformance/reset on a fresh service: 404 (no hook; the bearer check is not reached), and it stays unpaired",
                           rules: ["R13.1-10"],
                           B.scenario([B.step("reset-\(method.lowercased())", B.request(method, "/conformance/reset"), B.expect(404)), helloStep("unpaired", paired: false)]))
            try b.scenario("hooks/reset-method-\(method.lowercased())-keeps-pairing", "\(method) /conformance/reset with a {} body and the token, on a paired body: 404, and it stays paired",
                           rules: ["R13.1-10", "R13.1-1"],
                           B.scenario(values: [("t1", t1)], [pairT1,
                                                             B.step("reset-\(method.lowercased())", B.request(method, "/conformance/reset", headers: [("Authorization", "Bearer ${t1}"), ("Content-Type", "application/json")], text: "{}"),
                                                                    B.expect(404)),
                                                             helloStep("still-paired", paired: true)]))
        }
        for (name, path) in [("other", "/conformance/other"), ("reset-slash", "/conformance/reset/"), ("session", "/conformance/session")] {
            try b.scenario("hooks/no-hook-\(name)", "POST \(path), unpaired: no such hook, 404 before the bearer check",
                           rules: ["R13.1-10"],
                           B.scenario([B.step("post", B.request("POST", path, headers: [("Content-Type", "application/json")], text: "{}"), B.expect(404)), helloStep("unpaired", paired: false)]))
        }
        try b.scenario("hooks/reset-empty-body", "a reset with an empty body reads as {}: 204, and the body is unpaired again",
                       rules: ["R13.1-1", "R13.1-4"],
                       B.scenario(values: [("t1", t1)], [pairT1, B.step("reset", B.request("POST", "/conformance/reset", text: ""), B.expect(204, empty: true)),
                                                         helloStep("unpaired", paired: false)]))
        try b.scenario("hooks/fail-saves-only-saves-count",
                       "with fail_saves 1, a malformed token, a body that is not JSON and a 401 use up nothing: the next well-formed pair's save fails, the one after succeeds",
                       rules: ["R13.2-20", "R13.1-2", "R13.2-10"], twoFaults: true,
                       B.scenario(values: [("t1", t1)], setup: .object([("fail_saves", .unsigned(1))]), [
                           pairStep("malformed", "not-a-token", 400),
                           B.step("not-json", B.request("POST", "/pair", headers: [("Content-Type", "application/json")], text: "token=${t1}"), B.expect(400)),
                           statusStep("refused", authorization: "Bearer ${t1}", 401),
                           pairStep("save-fails", "${t1}", 400),
                           helloStep("still-unpaired", paired: false),
                           pairStep("save-succeeds", "${t1}", 200),
                           statusStep("admits", authorization: "Bearer ${t1}", 200),
                       ]))
        // Counted one by one: a counter stepping by two lets the second save through (a
        // cosmic-ray survivor of pixie, issue 25).
        try b.scenario("hooks/fail-saves-two", "with fail_saves 2 the next two saves fail, then the third succeeds",
                       rules: ["R13.1-2", "R13.2-10"],
                       B.scenario(values: [("t1", t1)], setup: .object([("fail_saves", .unsigned(2))]), [
                           pairStep("first-fails", "${t1}", 400), pairStep("second-fails", "${t1}", 400),
                           helloStep("still-unpaired", paired: false),
                           pairStep("third-succeeds", "${t1}", 200),
                       ]))
    }
}

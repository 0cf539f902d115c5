import Primitives

/// The `revocation` golden cases: identity-service scenarios (every one must pass against the
/// fresh reference while generating) and `self_status_outcome` decisions, each stated here and
/// compared with the reference's before it is written.
enum RevocationVectors {
    /// self_status_outcome's two-fault cases and the accepted case each is with its faults taken
    /// out: answer/null-body is registered with an unreadable answer, so is_registered and the
    /// answer split into the guard's fault and the answer's.
    static let twoFaultNeighbours: [(case: String, neighbour: String)] = [
        ("revocation/self_status_outcome/guard/not-registered-and-failed", "revocation/self_status_outcome/answer/null-body"),
    ]

    typealias B = ScenarioBuilder

    struct Builder {
        var cases: [VectorCase] = []
        let handler = RevocationHandler()

        /// A scenario input every reader refuses with `code` (SPEC [R13.1-5]); checked against the reference's reading.
        mutating func refuse(_ id: String, _ comment: String, rules: [String], _ input: CBOR, _ code: ErrorCode) throws {
            do {
                _ = try handler.run(op: "scenario", input: input.json)
                throw StateDigestVectors.GeneratorCheckFailed(description: "revocation \(id): expected \(code.rawValue), the reference read the scenario")
            } catch let e as WireError {
                guard e.code == code else { throw StateDigestVectors.GeneratorCheckFailed(description: "revocation \(id): expected \(code.rawValue), got \(e.code.rawValue)") }
            }
            cases.append(VectorCase(id: "revocation/scenario/\(id)", op: "scenario", comment: comment, flags: ["negative"] + rules.map { "rule:\($0)" },
                                    input: input, expected: .error(code)))
        }

        mutating func scenario(_ id: String, _ comment: String, rules: [String], twoFaults: Bool = false, _ input: CBOR) throws {
            let out: JSONValue
            do { out = try handler.run(op: "scenario", input: input.json) } catch {
                throw StateDigestVectors.GeneratorCheckFailed(description: "revocation \(id): the reference fails its own scenario: \(error)")
            }
            guard let steps = out["steps"]?.int64Value else { throw StateDigestVectors.GeneratorCheckFailed(description: "revocation \(id): no step count") }
            let flags = ["http"] + (twoFaults ? ["two-faults"] : []) + rules.map { "rule:\($0)" }
            cases.append(VectorCase(id: "revocation/scenario/\(id)", op: "scenario", comment: comment, flags: flags, input: input,
                                    expected: .output(.object([("steps", .unsigned(UInt64(steps)))]))))
        }

        /// A `self_status_outcome` case; `outcome` is `not_asked`, `unchanged` or `reset`.
        mutating func outcome(_ id: String, _ comment: String, rules: [String], twoFaults: Bool = false,
                              session: CBOR = .bool(true), registered: CBOR = .bool(true), code: CBOR, body: CBOR,
                              _ outcome: String, reason: ErrorCode? = nil) throws {
            let input = CBOR.object([("has_session", session), ("is_registered", registered), ("status_code", code), ("status_body", body)])
            let reset = outcome == "reset"
            let stores = SelfStatusOutcome.stores
            let kept = reset ? stores.filter { SelfStatusOutcome.keptByReset.contains($0) } : stores
            let want = CBOR.object([
                ("asked", .bool(outcome != "not_asked")), ("outcome", .text(outcome)), ("reason", reason.map { .text($0.rawValue) } ?? .null),
                ("steps", .array(reset ? SelfStatusOutcome.resetSteps.map { .text($0) } : [])),
                ("wiped", .array(reset ? stores.filter { !kept.contains($0) }.map { .text($0) } : [])),
                ("kept", .array(kept.map { .text($0) })),
            ])
            let got = try handler.run(op: "self_status_outcome", input: input.json)
            guard got == want.json else {
                throw StateDigestVectors.GeneratorCheckFailed(description: "revocation self_status_outcome \(id): claimed \(want.json.compact), reference \(got.compact)")
            }
            let f = (reset ? ["reset"] : []) + (twoFaults ? ["two-faults"] : []) + rules.map { "rule:\($0)" }
            cases.append(VectorCase(id: "revocation/self_status_outcome/\(id)", op: "self_status_outcome", comment: comment, flags: f, input: input, expected: .output(want)))
        }

        mutating func reject(_ id: String, _ comment: String, rules: [String], twoFaults: Bool = false, _ input: CBOR, _ code: ErrorCode) throws {
            do {
                _ = try handler.run(op: "self_status_outcome", input: input.json)
                throw StateDigestVectors.GeneratorCheckFailed(description: "revocation \(id): expected \(code.rawValue), reference accepted")
            } catch let e as WireError {
                guard e.code == code else { throw StateDigestVectors.GeneratorCheckFailed(description: "revocation \(id): expected \(code.rawValue), got \(e.code.rawValue)") }
            }
            cases.append(VectorCase(id: "revocation/self_status_outcome/\(id)", op: "self_status_outcome", comment: comment,
                                    flags: ["negative"] + (twoFaults ? ["two-faults"] : []) + rules.map { "rule:\($0)" }, input: input, expected: .error(code)))
        }
    }

    /// A device pubkey: 32 bytes from a fixed seed, as lowercase hex.
    static func key(_ label: UInt64) -> String {
        var g = SeededGenerator(seed: 0x5E1F_0000_0000_0000 | label)
        return Hex.encode(g.bytes(32))
    }

    static let alice = "7d0e4a52-0000-4000-8000-00000000a11c"
    static let bob = "7d0e4a52-0000-4000-8000-000000000b0b"
    static let keys: [(String, String)] = (1...6).map { ("k\($0)", key(UInt64($0))) }

    static func file() throws -> VectorFile {
        var b = Builder()
        try selfStatusCases(&b)
        try registerCases(&b)
        try removeCases(&b)
        try listingCases(&b)
        try leakCases(&b)
        try edgeCases(&b)
        try outcomeCases(&b)
        for (name, what, input, code) in B.inputFaults(B.request("GET", "/v1/sync/siblings"), status: 401) {
            try b.refuse("input/\(name)", "\(what): the scenario input is refused with a §3 code, never a trap", rules: ["R13.1-5"], input, code)
        }
        return VectorFile(format: "revocation",
                          description: "Device revocation (seed 001): the identity service's register, remove_sibling, revoke_all_siblings, siblings, reverse lookup and public self-status as HTTP scenarios, and the device's self_status_outcome decision (SPEC.md §13.4, §13.5)",
                          cases: b.cases)
    }

    // MARK: - Shared steps

    static func sessionStep(_ who: String, _ user: String) -> CBOR {
        B.step("session-\(who)", B.request("POST", "/conformance/session", json: .object([("user_id", .text(user))])),
               B.expect(200, json: B.object([("token", B.type("string"))])), capture: [(who, "/token")])
    }

    static func auth(_ who: String?) -> [(String, String)] { who.map { [("Authorization", "Bearer ${\($0)}")] } ?? [] }

    static func register(_ name: String, _ who: String?, _ pubkey: String, _ status: Int) -> CBOR {
        let exp = status == 200 ? B.expect(200, headers: [B.jsonContentType], json: B.object([("pubkey_hex", B.eq(pubkey.lowercased()))])) : B.expect(status)
        return B.step(name, B.request("POST", "/v1/identity/register", headers: auth(who), json: .object([("pubkey_hex", .text(pubkey))])), exp)
    }

    static func remove(_ name: String, _ who: String?, _ pubkey: String, _ status: Int = 204) -> CBOR {
        B.step(name, B.request("POST", "/v1/sync/siblings/remove", headers: auth(who), json: .object([("pubkey_hex", .text(pubkey))])),
               status == 204 ? B.expect(204, empty: true) : B.expect(status))
    }

    static func selfStatus(_ name: String, _ pubkey: String, registered: Bool, revoked: Bool, headers: [(String, String)] = []) -> CBOR {
        B.step(name, B.request("GET", "/v1/sync/self-status/\(pubkey)", headers: headers),
               B.expect(200, headers: [B.jsonContentType], json: B.object([("registered", B.eq(registered)), ("revoked", B.eq(revoked))])))
    }

    static func siblings(_ name: String, _ who: String, _ list: [String]) -> CBOR {
        B.step(name, B.request("GET", "/v1/sync/siblings", headers: auth(who)),
               B.expect(200, headers: [B.jsonContentType], json: B.object([("siblings", B.array(list.map { B.eq($0) }))])))
    }

    static func userPubkeys(_ name: String, _ user: String, _ list: [String]) -> CBOR {
        B.step(name, B.request("GET", "/v1/identity/users/\(user)/pubkeys"),
               B.expect(200, json: B.object([("pubkeys", B.array(list.map { B.eq($0) }))])))
    }

    static func scenario(_ steps: [CBOR]) -> CBOR {
        B.scenario(values: [("alice_id", alice), ("bob_id", bob)] + keys, steps)
    }

    static let withAlice = sessionStep("alice", "${alice_id}")
    static let withBob = sessionStep("bob", "${bob_id}")

    // MARK: - Self-status

    static func selfStatusCases(_ b: inout Builder) throws {
        try b.scenario("self-status/absent-row", "an absent row answers registered: false, revoked: false (JSON booleans), 200 and public: no session, and a stray bearer changes nothing",
                       rules: ["R13.1-1", "R13.1-3", "R13.4-10"],
                       scenario([
                           selfStatus("no-session", "${k1}", registered: false, revoked: false),
                           selfStatus("stray-bearer", "${k1}", registered: false, revoked: false, headers: [("Authorization", "Bearer not-a-session")]),
                       ]))
        try b.scenario("self-status/live-row", "a registered device: registered true, revoked false",
                       rules: ["R13.4-10", "R13.4-5", "R13.4-1"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200), selfStatus("status", "${k1}", registered: true, revoked: false)]))
        try b.scenario("self-status/revoked-row", "a removed device: the row stays as a tombstone, so registered true and revoked true (not a delete), asked without a session",
                       rules: ["R13.4-10", "R13.4-7"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200), remove("remove", "alice", "${k1}"),
                                 selfStatus("status", "${k1}", registered: true, revoked: true)]))
        try b.scenario("self-status/uppercase-path", "the pubkey in the path in uppercase names the same key",
                       rules: ["R13.4-4", "R13.4-10"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200),
                                 selfStatus("status-upper", keys[0].1.uppercased(), registered: true, revoked: false)]))
        for (name, path, what) in [("short", String(keys[0].1.dropLast()), "63 hex digits"), ("long", keys[0].1 + "00", "66 hex digits"),
                                   ("not-hex", String(repeating: "zz", count: 32), "64 characters that are not hex")] {
            try b.scenario("self-status/malformed-\(name)", "\(what) in the path: 400",
                           rules: ["R13.4-12"],
                           scenario([B.step("status", B.request("GET", "/v1/sync/self-status/\(path)"), B.expect(400))]))
        }
    }

    // MARK: - Register

    static func registerCases(_ b: inout Builder) throws {
        try b.scenario("register/needs-session", "register without a session, or with an unknown one: 401",
                       rules: ["R13.4-2"],
                       scenario([register("no-session", nil, "${k1}", 401),
                                 B.step("unknown-session", B.request("POST", "/v1/identity/register", headers: [("Authorization", "Bearer 0000")], json: .object([("pubkey_hex", .text("${k1}"))])), B.expect(401)),
                                 selfStatus("nothing-registered", "${k1}", registered: false, revoked: false)]))
        try b.scenario("register/session-before-body", "no session and a malformed body: 401, the session is checked first (middleware before handler)",
                       rules: ["R13.4-3", "R13.4-2", "R13.4-4"], twoFaults: true,
                       scenario([B.step("no-session-bad-body", B.request("POST", "/v1/identity/register", text: "pubkey=zz"), B.expect(401)),
                                 B.step("no-session-short-key", B.request("POST", "/v1/identity/register", json: .object([("pubkey_hex", .text("abcd"))])), B.expect(401))]))
        try b.scenario("register/live-key-taken", "a pubkey with a live row is 409 for its own account and for another",
                       rules: ["R13.4-6"],
                       scenario([withAlice, withBob, register("alice", "alice", "${k1}", 200), register("alice-again", "alice", "${k1}", 409),
                                 register("bob", "bob", "${k1}", 409), siblings("bob-has-none", "bob", [])]))
        try b.scenario("register/tombstoned-key-refused", "a removed device cannot come back with its old pubkey (409, for any account); a fresh pubkey registers",
                       rules: ["R13.4-6", "R13.4-7"],
                       scenario([withAlice, withBob, register("register", "alice", "${k1}", 200), remove("remove", "alice", "${k1}"),
                                 register("resurrect", "alice", "${k1}", 409), register("resurrect-elsewhere", "bob", "${k1}", 409),
                                 selfStatus("still-revoked", "${k1}", registered: true, revoked: true),
                                 register("fresh-key", "alice", "${k2}", 200), siblings("only-fresh", "alice", [keys[1].1])]))
        try b.scenario("register/tombstoned-key-uppercase", "the tombstoned pubkey spelled in uppercase is the same key: 409",
                       rules: ["R13.4-4", "R13.4-6"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200), remove("remove", "alice", "${k1}"),
                                 register("resurrect-upper", "alice", keys[0].1.uppercased(), 409)]))
        try b.scenario("register/account-from-session-only", "a user_id in the body is ignored: the row belongs to the session's account",
                       rules: ["R13.4-5"],
                       scenario([withAlice, withBob,
                                 B.step("register-claiming-bob", B.request("POST", "/v1/identity/register", headers: auth("alice"),
                                                                           json: .object([("pubkey_hex", .text("${k1}")), ("user_id", .text("${bob_id}"))])),
                                        B.expect(200, json: B.object([("pubkey_hex", B.eq(keys[0].1))]))),
                                 siblings("bob-has-none", "bob", []), siblings("alice-has-it", "alice", [keys[0].1]),
                                 userPubkeys("bob-lookup", bob, []), userPubkeys("alice-lookup", alice, [keys[0].1])]))
        try b.scenario("register/answer-lowercase", "a pubkey registered in uppercase is answered and listed in lowercase",
                       rules: ["R13.4-4", "R13.4-5"],
                       scenario([withAlice, register("register-upper", "alice", keys[0].1.uppercased(), 200), siblings("listed-lowercase", "alice", [keys[0].1])]))
        let bodies: [(String, String)] = [
            ("not-json", "pubkey_hex=${k1}"), ("short-key", "{\"pubkey_hex\":\"abcd\"}"), ("not-hex", "{\"pubkey_hex\":\"\(String(repeating: "zz", count: 32))\"}"),
            ("missing", "{\"pubkey\":\"${k1}\"}"), ("number", "{\"pubkey_hex\":12}"), ("duplicate-member", "{\"pubkey_hex\":\"zz\",\"pubkey_hex\":\"${k1}\"}"),
            // The well-formed copy first: a first-wins reader registers it (R13.4-4's tie-break).
            ("duplicate-member-first-well-formed", "{\"pubkey_hex\":\"${k1}\",\"pubkey_hex\":\"zz\"}"),
        ]
        for (name, body) in bodies {
            try b.scenario("register/malformed-\(name)", "a register body that is not {\"pubkey_hex\": 64 hex} (\(name)): 400, nothing registered",
                           rules: ["R13.4-4"],
                           scenario([withAlice, B.step("register", B.request("POST", "/v1/identity/register", headers: auth("alice") + [("Content-Type", "application/json")], text: body), B.expect(400)),
                                     selfStatus("nothing-registered", "${k1}", registered: false, revoked: false)]))
        }
        try b.scenario("race/concurrent-register-same-key", "8 concurrent registrations of one pubkey by one account: exactly one 200, seven 409",
                       rules: ["R13.4-6"],
                       scenario([withAlice,
                                 B.race("race", vary: "attempt", values: (1...8).map(String.init),
                                        B.request("POST", "/v1/identity/register", headers: auth("alice") + [("X-Attempt", "${attempt}")], json: .object([("pubkey_hex", .text("${k1}"))])),
                                        counts: [(200, 1), (409, 7)]),
                                 siblings("one-row", "alice", [keys[0].1])]))
    }

    // MARK: - remove_sibling, revoke_all_siblings

    static func removeCases(_ b: inout Builder) throws {
        try b.scenario("remove/answers-204-no-body", "remove_sibling answers 204 with no body, and the device leaves the siblings list",
                       rules: ["R13.4-7", "R13.4-9"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200), remove("remove", "alice", "${k1}"), siblings("gone", "alice", [])]))
        try b.scenario("remove/other-accounts-key", "removing another account's pubkey: 204 all the same (no row count leaks), and nothing changes",
                       rules: ["R13.4-7"],
                       scenario([withAlice, withBob, register("register", "alice", "${k1}", 200), remove("bob-removes", "bob", "${k1}"),
                                 selfStatus("still-live", "${k1}", registered: true, revoked: false), siblings("alice-keeps-it", "alice", [keys[0].1])]))
        // The other direction: bob's user id sorts below alice's, so a remove that compares
        // accounts by order (a cosmic-ray survivor of pixie's `==` written `<=`, issue 25)
        // lets alice revoke bob's device.
        try b.scenario("remove/other-accounts-key-below", "alice removing bob's pubkey (bob's id sorts below hers): 204, and bob's device stays live",
                       rules: ["R13.4-7"],
                       scenario([withAlice, withBob, register("register", "bob", "${k1}", 200), remove("alice-removes", "alice", "${k1}"),
                                 selfStatus("still-live", "${k1}", registered: true, revoked: false), siblings("bob-keeps-it", "bob", [keys[0].1])]))
        // An account is its user id, not the session: a second session of alice's removes and
        // revokes what the first registered (an account compared by identity, `is`, matches only
        // the very string its own session stored: a cosmic-ray survivor of pixie, issue 25).
        try b.scenario("remove/another-session-same-account", "alice registers two devices in one session, then removes one and revokes all in a second session of hers: both revoked",
                       rules: ["R13.4-7", "R13.4-8", "R13.4-1"],
                       scenario([withAlice, register("k1", "alice", "${k1}", 200), register("k2", "alice", "${k2}", 200), sessionStep("again", "${alice_id}"),
                                 remove("remove-k1", "again", "${k1}"), selfStatus("k1-revoked", "${k1}", registered: true, revoked: true),
                                 siblings("k2-left", "alice", [keys[1].1]),
                                 B.step("revoke-all", B.request("POST", "/v1/sync/siblings/revoke-all", headers: auth("again")), B.expect(204, empty: true)),
                                 selfStatus("k2-revoked", "${k2}", registered: true, revoked: true), siblings("none-left", "alice", [])]))
        try b.scenario("remove/unknown-key", "removing a pubkey nobody registered: 204",
                       rules: ["R13.4-7"],
                       scenario([withAlice, remove("remove", "alice", "${k6}"), selfStatus("still-absent", "${k6}", registered: false, revoked: false)]))
        try b.scenario("remove/idempotent", "removing twice: 204 twice, the device stays revoked",
                       rules: ["R13.4-7"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200), remove("remove", "alice", "${k1}"), remove("remove-again", "alice", "${k1}"),
                                 selfStatus("still-revoked", "${k1}", registered: true, revoked: true), siblings("still-gone", "alice", [])]))
        try b.scenario("remove/needs-session", "remove_sibling without a session: 401 and nothing revoked",
                       rules: ["R13.4-2"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200), remove("no-session", nil, "${k1}", 401),
                                 selfStatus("still-live", "${k1}", registered: true, revoked: false)]))
        try b.scenario("remove/malformed-body", "remove_sibling with a body that is not {\"pubkey_hex\": 64 hex}: 400",
                       rules: ["R13.4-4"],
                       scenario([withAlice, B.step("remove", B.request("POST", "/v1/sync/siblings/remove", headers: auth("alice"), json: .object([("pubkey_hex", .text("xyz"))])), B.expect(400))]))
        try b.scenario("revoke-all/own-account-only", "revoke_all_siblings marks every device of the caller's account and no other; a fresh pubkey registers after it",
                       rules: ["R13.4-8", "R13.4-9"],
                       scenario([withAlice, withBob,
                                 register("alice-1", "alice", "${k1}", 200), register("alice-2", "alice", "${k2}", 200), register("bob-3", "bob", "${k3}", 200),
                                 B.step("revoke-all", B.request("POST", "/v1/sync/siblings/revoke-all", headers: auth("alice")), B.expect(204, empty: true)),
                                 siblings("alice-empty", "alice", []),
                                 selfStatus("k1-revoked", "${k1}", registered: true, revoked: true), selfStatus("k2-revoked", "${k2}", registered: true, revoked: true),
                                 siblings("bob-untouched", "bob", [keys[2].1]), selfStatus("k3-live", "${k3}", registered: true, revoked: false),
                                 register("alice-recreated", "alice", "${k4}", 200), siblings("alice-new-device", "alice", [keys[3].1])]))
        try b.scenario("framing/204-ends-at-header", "remove_sibling, revoke_all_siblings and the reset hook answer 204 with nothing after the header section: no content, no Content-Length but 0, no Transfer-Encoding (judged on the wire)",
                       rules: ["R13.1-4", "R13.4-7", "R13.4-8", "R13.1-1"],
                       scenario([withAlice, register("register", "alice", "${k1}", 200), remove("remove", "alice", "${k1}"),
                                 B.step("revoke-all", B.request("POST", "/v1/sync/siblings/revoke-all", headers: auth("alice")), B.expect(204, empty: true)),
                                 B.step("reset", B.request("POST", "/conformance/reset", json: .object([])), B.expect(204, empty: true)),
                                 selfStatus("after-reset", "${k1}", registered: false, revoked: false)]))
        // bob's user id sorts below alice's; carol's sorts above it: a revoke-all that compares
        // accounts by order (a cosmic-ray survivor of pixie's `==` written `>=`, issue 25)
        // reaches one of the two.
        let carol = "7d0e4a52-0000-4000-8000-00000000c0c0"
        try PairingVectors.check(carol > alice && bob < alice, "carol sorts above alice, bob below")
        try b.scenario("revoke-all/own-account-only-above", "revoke_all_siblings by alice leaves the devices of an account whose id sorts above hers (carol's; bob's sorts below, own-account-only)",
                       rules: ["R13.4-8", "R13.4-9"],
                       B.scenario(values: [("alice_id", alice), ("carol_id", carol)] + keys,
                                  [withAlice, sessionStep("carol", "${carol_id}"),
                                   register("alice-1", "alice", "${k1}", 200), register("carol-3", "carol", "${k3}", 200),
                                   B.step("revoke-all", B.request("POST", "/v1/sync/siblings/revoke-all", headers: auth("alice")), B.expect(204, empty: true)),
                                   selfStatus("k1-revoked", "${k1}", registered: true, revoked: true),
                                   siblings("carol-untouched", "carol", [keys[2].1]), selfStatus("k3-live", "${k3}", registered: true, revoked: false)]))
        try b.scenario("revoke-all/needs-session", "revoke_all_siblings without a session: 401",
                       rules: ["R13.4-2"],
                       scenario([B.step("revoke-all", B.request("POST", "/v1/sync/siblings/revoke-all"), B.expect(401))]))
    }

    // MARK: - No answer carries a session token

    static func leakCases(_ b: inout Builder) throws {
        try b.scenario("leak/no-answer-carries-a-session-token",
                       "no answer but the session hook's carries a session token, in a header or the body: register, 409, siblings, remove, revoke-all, the public routes and 401s",
                       rules: ["R13.4-13", "R13.4-5", "R13.4-6", "R13.4-9", "R13.4-10", "R13.4-11"],
                       B.scenario(values: [("alice_id", alice), ("bob_id", bob)] + keys, excludes: ["${alice}", "${bob}"], [
                           withAlice, withBob,
                           register("register", "alice", "${k1}", 200), register("taken", "bob", "${k1}", 409),
                           siblings("siblings", "alice", [keys[0].1]),
                           selfStatus("self-status-with-session", "${k1}", registered: true, revoked: false, headers: auth("alice")),
                           userPubkeys("lookup", alice, [keys[0].1]),
                           remove("remove", "bob", "${k1}"),
                           B.step("revoke-all", B.request("POST", "/v1/sync/siblings/revoke-all", headers: auth("alice")), B.expect(204, empty: true)),
                           B.step("bad-body", B.request("POST", "/v1/identity/register", headers: auth("alice") + [("Content-Type", "application/json")], text: "${alice}"), B.expect(400)),
                           B.step("unknown-route", B.request("GET", "/v1/sync/nothing-here", headers: auth("alice")), B.expect(404)),
                       ]))
    }

    // MARK: - Listings

    static func listingCases(_ b: inout Builder) throws {
        try b.scenario("siblings/filters-revoked-oldest-first", "three devices, the middle one removed: siblings lists the other two, oldest registration first",
                       rules: ["R13.4-9"],
                       scenario([withAlice, register("k1", "alice", "${k1}", 200), register("k2", "alice", "${k2}", 200), register("k3", "alice", "${k3}", 200),
                                 remove("remove-k2", "alice", "${k2}"), siblings("two-left", "alice", [keys[0].1, keys[2].1])]))
        try b.scenario("siblings/needs-session", "siblings without a session: 401",
                       rules: ["R13.4-2"],
                       scenario([B.step("siblings", B.request("GET", "/v1/sync/siblings"), B.expect(401))]))
        try b.scenario("user-pubkeys/public-and-filtered", "the public reverse lookup (a fan-out source) lists the account's live pubkeys only, oldest first; an unknown account has none",
                       rules: ["R13.4-11"],
                       scenario([withAlice, register("k1", "alice", "${k1}", 200), register("k2", "alice", "${k2}", 200), register("k3", "alice", "${k3}", 200),
                                 remove("remove-k1", "alice", "${k1}"),
                                 userPubkeys("lookup", alice, [keys[1].1, keys[2].1]), userPubkeys("unknown-account", bob, [])]))
    }

    // MARK: - self_status_outcome

    static func outcomeCases(_ b: inout Builder) throws {
        let ok = CBOR.unsigned(200)
        func body(_ registered: String, _ revoked: String) -> CBOR { .text("{\"registered\":\(registered),\"revoked\":\(revoked)}") }
        let revokedBody = body("true", "true")

        try b.outcome("guard/no-session", "no current session: the check does not run", rules: ["R13.5-1"],
                      session: .bool(false), code: .null, body: .null, "not_asked", reason: .revocationNoSession)
        try b.outcome("guard/not-registered", "not registered: the check does not run, even with a revoked answer at hand", rules: ["R13.5-2"],
                      registered: .bool(false), code: ok, body: revokedBody, "not_asked", reason: .revocationNotRegistered)
        try b.outcome("guard/neither", "no session and not registered: the session guard is first", rules: ["R13.5-3", "R13.5-1", "R13.5-2"], twoFaults: true,
                      session: .bool(false), registered: .bool(false), code: ok, body: revokedBody, "not_asked", reason: .revocationNoSession)
        try b.outcome("guard/not-registered-and-failed", "not registered and a 500: the guard decides before the answer", rules: ["R13.5-3", "R13.5-2"], twoFaults: true,
                      registered: .bool(false), code: .unsigned(500), body: .text("oops"), "not_asked", reason: .revocationNotRegistered)

        try b.outcome("answer/revoked", "revoked: resetForRecreate, then pixie.onboarded = false, then onboarding; identity, session, registration and the six record stores wiped; phone cert, Contacts, agent memory kept",
                      rules: ["R13.5-6", "R13.5-7"], code: ok, body: revokedBody, "reset")
        try b.outcome("answer/live", "registered and not revoked: nothing happens", rules: ["R13.5-8"],
                      code: ok, body: body("true", "false"), "unchanged")
        try b.outcome("answer/absent-row", "registered false (a hard delete), revoked false: only revoked decides, nothing happens", rules: ["R13.5-8"],
                      code: ok, body: body("false", "false"), "unchanged")
        try b.outcome("answer/revoked-unregistered", "registered false but revoked true: revoked decides, reset", rules: ["R13.5-6"],
                      code: ok, body: body("false", "true"), "reset")
        try b.outcome("answer/extra-members", "members beside the two booleans are ignored", rules: ["R13.5-5", "R13.5-6"],
                      code: ok, body: .text("{\"revoked_at\":\"2026-11-03T10:00:00Z\",\"registered\":true,\"revoked\":true}"), "reset")

        for (name, code, what) in [("server-error", CBOR.unsigned(500), "a 500"), ("unauthorized", CBOR.unsigned(401), "a 401"), ("no-answer", CBOR.null, "no answer")] {
            try b.outcome("answer/\(name)", "\(what) with a revoked-looking body: never reset on a failed answer", rules: ["R13.5-4"],
                          code: code, body: code == .null ? .null : revokedBody, "unchanged", reason: .revocationStatusFailed)
        }
        let invalid: [(String, CBOR, String)] = [
            ("revoked-string-false", body("true", "\"false\""), "revoked as the string \"false\" (truthy in JavaScript and Python)"),
            ("revoked-string-true", body("true", "\"true\""), "revoked as the string \"true\""),
            ("revoked-one", body("true", "1"), "revoked as 1"),
            ("revoked-null", body("true", "null"), "revoked null"),
            ("revoked-missing", .text("{\"registered\":true}"), "no revoked member"),
            ("registered-missing", .text("{\"revoked\":true}"), "no registered member: both booleans are required"),
            ("registered-string", body("\"true\"", "true"), "registered as a string"),
            ("duplicate-revoked", .text("{\"registered\":true,\"revoked\":false,\"revoked\":true}"), "revoked given twice"),
            ("not-json", .text("<html>Gateway Timeout</html>"), "an HTML page with status 200"),
            ("array", .text("[true,true]"), "a JSON array"),
            ("null-body", .null, "a 200 with no body"),
        ]
        for (name, b0, what) in invalid {
            try b.outcome("answer/\(name)", "\(what): unreadable, nothing happens", rules: ["R13.5-5"],
                          code: ok, body: b0, "unchanged", reason: .revocationStatusInvalid)
        }
        try b.outcome("order/status-before-body", "a 503 whose body is not JSON: the status decides first", rules: ["R13.5-3", "R13.5-4"], twoFaults: true,
                      code: .unsigned(503), body: .text("Service Unavailable"), "unchanged", reason: .revocationStatusFailed)

        try b.reject("input/session-string", "has_session as the string \"true\" (§2.2 booleans)", rules: ["R2.2-6"],
                     .object([("has_session", .text("true")), ("is_registered", .bool(true)), ("status_code", ok), ("status_body", revokedBody)]), .inputBadType)
        try b.reject("input/status-code-missing", "status_code absent (nullable, not optional)", rules: ["R2.2-1"],
                     .object([("has_session", .bool(true)), ("is_registered", .bool(true)), ("status_body", revokedBody)]), .inputMissingField)
        try b.reject("input/registered-null", "is_registered null: not nullable", rules: ["R2.2-1"],
                     .object([("has_session", .bool(true)), ("is_registered", .null), ("status_code", ok), ("status_body", revokedBody)]), .inputBadType)
        try b.reject("input/order", "has_session missing and status_code a string: members are checked in table order", rules: ["R2.2-7"], twoFaults: true,
                     .object([("is_registered", .bool(true)), ("status_code", .text("OK")), ("status_body", revokedBody)]), .inputMissingField)
    }
}

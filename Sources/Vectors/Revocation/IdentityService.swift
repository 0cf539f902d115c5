import Foundation
import Primitives

/// The reference identity service of seed 001 ("Mechanism: Revoking a Device"), SPEC.md §13.4:
/// `identity_records` rows keyed by pubkey, revocation as a tombstone (`revoked_at`) never a
/// delete, registration refusing any pubkey that has a row, `remove_sibling` answering 204
/// whatever it matched and only on the session's account, `revoke_all_siblings`, the siblings
/// listing and the public reverse lookup filtering revoked rows, and the public self-status.
///
/// Sessions come from a test hook and carry only an account (the seed's `AuthContext { user_id }`:
/// no device column); the account is always read from the bearer session, never from a body.
public final class IdentityService: HTTPService, @unchecked Sendable {
    struct Row {
        /// The pubkey's identity: its 32 bytes (the mutant keys rows by the hex text as given).
        var key: [UInt8]
        var hex: String
        var user: String
        var revoked: Bool
    }

    public let name = "identity"
    public let mutant: Mutant?
    private let lock = NSLock()
    private var rows: [Row] = []
    private var sessions: [(token: String, user: String)] = []
    private var minted: UInt64 = 0

    public init(mutant: Mutant? = nil) {
        self.mutant = mutant
    }

    func on(_ m: Mutant) -> Bool { mutant == m }

    public func handle(_ r: HTTPRequest) -> HTTPResponse {
        lock.lock()
        defer { lock.unlock() }
        let segments = r.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard segments.first == "" else { return .error(404, "not_found", "no route") }
        let s = Array(segments.dropFirst())
        if s.first == "conformance" { return hook(r, s) }
        switch (r.method, s.count) {
        // A path parameter is one non-empty segment (SPEC [R13.4-14]).
        case ("GET", 4) where s[0] == "v1" && s[1] == "sync" && s[2] == "self-status" && !s[3].isEmpty:
            return selfStatus(r, s[3])
        case ("GET", 5) where s[0] == "v1" && s[1] == "identity" && s[2] == "users" && !s[3].isEmpty && s[4] == "pubkeys":
            return userPubkeys(s[3])
        case ("POST", 3) where s == ["v1", "identity", "register"]:
            if on(.registerBodyBeforeSession), readPubkey(r.body) == nil { return .error(400, "bad_pubkey", "the body is not {\"pubkey_hex\": \"<64 hex>\"}") }
            return withSession(r) { user in register(r.body, user: user) }
        case ("GET", 3) where s == ["v1", "sync", "siblings"]:
            return withSession(r) { user in siblings(user) }
        case ("POST", 4) where s == ["v1", "sync", "siblings", "remove"]:
            return withSession(r) { user in remove(r.body, user: user) }
        case ("POST", 4) where s == ["v1", "sync", "siblings", "revoke-all"]:
            return withSession(r) { user in revokeAll(user) }
        default:
            return .error(404, "not_found", "no route \(r.method) \(r.path)")
        }
    }

    // MARK: - Sessions (SPEC [R13.4-1], [R13.4-2], [R13.4-3])

    /// The account of the `Authorization: Bearer <session>` header, nil when there is none.
    /// SPEC [R13.4-15], by RFC 9110 §11.1 and §11.4 and RFC 6750 §2.1: exactly one field line,
    /// the scheme `Bearer` in any case, one or more spaces, then the token, compared byte for byte.
    func session(_ r: HTTPRequest) -> String? {
        let repeats: RepeatReading = .mutated(first: on(.sessionFirstLineWins), last: on(.sessionLastLineWins))
        guard let h = repeats.onlyValue(r.values("Authorization")) else { return nil }
        let scheme = Array("bearer".utf8)
        guard h.count > scheme.count, h.prefix(scheme.count).map(HTTPField.lower) == scheme, h[scheme.count] == 0x20 else { return nil }
        let token = h.dropFirst(scheme.count).drop { $0 == 0x20 }
        guard !token.isEmpty else { return nil }
        return sessions.first { $0.token.utf8.elementsEqual(token) }?.user
    }

    func withSession(_ r: HTTPRequest, _ body: (String) -> HTTPResponse) -> HTTPResponse {
        guard let user = session(r) else { return .error(401, "unauthorized", "this route needs a session: Authorization: Bearer <session>") }
        return body(user)
    }

    // MARK: - Pubkeys (SPEC [R13.4-4])

    /// 64 hex digits in either case name 32 bytes; the row key is the bytes.
    func parseKey(_ hex: String) -> (key: [UInt8], hex: String)? {
        guard hex.utf8.count == 64, let bytes = Hex.decode(hex) else { return nil }
        if on(.registerHexCaseSensitive) { return (Array(hex.utf8), hex) }
        return (bytes, Hex.encode(bytes))
    }

    func readPubkey(_ body: [UInt8]) -> (key: [UInt8], hex: String)? {
        let repeats: RepeatReading = .mutated(first: on(.registerDuplicateFirstWins), last: on(.registerDuplicateLastWins))
        guard let hex = repeats.stringMember("pubkey_hex", of: body) else { return nil }
        return parseKey(hex)
    }

    // MARK: - Routes

    func register(_ body: [UInt8], user sessionUser: String) -> HTTPResponse {
        guard let (key, hex) = readPubkey(body) else { return .error(400, "bad_pubkey", "the body is not {\"pubkey_hex\": \"<64 hex>\"}") }
        var user = sessionUser
        if on(.registerUserFromBody), case .success(let v) = StrictJSON.object(body), let u = v["user_id"]?.stringValue { user = u }
        // ON CONFLICT (pubkey) DO NOTHING, reported as 409: a tombstone blocks its pubkey forever.
        if let i = rows.firstIndex(where: { $0.key == key }) {
            if on(.registerTombstoneAllowed), rows[i].revoked {
                rows.remove(at: i)
            } else {
                return .error(409, "pubkey_registered", "this pubkey already has an identity record")
            }
        }
        rows.append(Row(key: key, hex: hex, user: user, revoked: false))
        return .json(200, .object([("pubkey_hex", .string(hex))]))
    }

    /// The order both lists answer in: oldest registration first (SPEC [R13.4-9], [R13.4-11]),
    /// which is `rows`' own order. The mutants read the other two orders a store falls into:
    /// newest first, or by key (a map keyed by pubkey).
    func listed(_ rows: [Row], newestFirst: Bool, byPubkey: Bool) -> [Row] {
        if newestFirst { return rows.reversed() }
        if byPubkey { return rows.sorted { $0.key.lexicographicallyPrecedes($1.key) } }
        return rows
    }

    func siblings(_ user: String) -> HTTPResponse {
        let list = listed(rows.filter { $0.user == user && (!$0.revoked || on(.siblingsListRevoked)) },
                          newestFirst: on(.siblingsNewestFirst), byPubkey: on(.siblingsByPubkey))
        return .json(200, .object([("siblings", .array(list.map { .string($0.hex) }))]))
    }

    func remove(_ body: [UInt8], user: String) -> HTTPResponse {
        guard let (key, _) = readPubkey(body) else { return .error(400, "bad_pubkey", "the body is not {\"pubkey_hex\": \"<64 hex>\"}") }
        // UPDATE … SET revoked_at = now() WHERE user_id = $1 AND pubkey = $2 AND revoked_at IS NULL
        var count = 0
        for i in rows.indices where rows[i].key == key && (rows[i].user == user || on(.removeIgnoresAccount)) {
            if on(.removeToggles) {
                rows[i].revoked.toggle()
                count += 1
            } else if !rows[i].revoked {
                rows[i].revoked = true
                count += 1
            }
        }
        if on(.removeNotFoundWhenNoRow), count == 0 { return .error(404, "not_found", "no such sibling") }
        if on(.removeAnswers200) { return .json(200, .object([("removed", .int(count))])) }
        return .empty(204)
    }

    func revokeAll(_ user: String) -> HTTPResponse {
        for i in rows.indices where (rows[i].user == user || on(.revokeAllEveryAccount)) && !rows[i].revoked { rows[i].revoked = true }
        return .empty(204)
    }

    func selfStatus(_ r: HTTPRequest, _ hex: String) -> HTTPResponse {
        if on(.statusRequiresSession), session(r) == nil { return .error(401, "unauthorized", "this route needs a session") }
        guard let (key, _) = parseKey(hex) else { return .error(400, "bad_pubkey", "the path does not end in 64 hex digits") }
        let row = rows.first { $0.key == key }
        if on(.statusAbsentRow404), row == nil { return .error(404, "not_found", "no identity record") }
        var registered = row != nil
        let revoked = row?.revoked ?? false
        if on(.statusRevokedReadsUnregistered), revoked { registered = false }
        let b = { (x: Bool) -> JSONValue in self.on(.statusBoolsAsStrings) ? .string(x ? "true" : "false") : .bool(x) }
        return .json(200, .object([("registered", b(registered)), ("revoked", b(revoked))]))
    }

    func userPubkeys(_ user: String) -> HTTPResponse {
        let list = listed(rows.filter { $0.user == user && (!$0.revoked || on(.userPubkeysListRevoked)) },
                          newestFirst: on(.userPubkeysNewestFirst), byPubkey: on(.userPubkeysByPubkey))
        return .json(200, .object([("pubkeys", .array(list.map { .string($0.hex) }))]))
    }

    // MARK: - Test hooks (SPEC [R13.1-1], [R13.4-1])

    func hook(_ r: HTTPRequest, _ s: [String]) -> HTTPResponse {
        guard r.method == "POST", s.count == 2 else { return .error(404, "not_found", "no hook \(r.method) \(r.path)") }
        switch s[1] {
        case "reset":
            if !r.body.isEmpty, case .failure = StrictJSON.object(r.body) { return .error(400, "bad_setup", "the reset body is not a JSON object") }
            rows = []
            sessions = []
            return .empty(204)
        case "session":
            guard case .success(let v) = StrictJSON.object(r.body), let user = v["user_id"]?.stringValue, Self.isUserID(user) else {
                return .error(400, "bad_user_id", "the body is not {\"user_id\": \"<1 to 64 of A-Z a-z 0-9 ->\"}")
            }
            minted += 1
            var seed = Array("pixie.conformance.session".utf8) + [0]
            seed += withUnsafeBytes(of: minted.bigEndian, Array.init) + Array(user.utf8)
            let token = Hex.encode(SHA256.hash(seed).bytes.prefix(24))
            sessions.append((token, user))
            return .json(200, .object([("token", .string(token))]))
        default:
            return .error(404, "not_found", "no hook \(r.path)")
        }
    }

    static func isUserID(_ s: String) -> Bool {
        (1...64).contains(s.utf8.count) && s.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0) || $0 == 0x2d }
    }
}

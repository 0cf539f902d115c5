import Foundation

/// The reference TOFU pairing service of seed 004 ("Trust on First Use"), SPEC.md §13.2: two open
/// routes (`GET /hello`, `POST /pair`), every other route behind `Authorization: Bearer <token>`
/// checked before any route runs, the first pair wins, the token saved before the body counts as
/// paired, and compared in constant time. The store is in memory; the reset hook can make the next
/// saves fail, which is how a scenario proves a failed save never half-pairs a body.
///
/// `mutant` switches one realistic bug on (`serve-http pairing --mutant NAME`, the mutant matrix);
/// each lives at one named seam below.
public final class PairingService: HTTPService, @unchecked Sendable {
    /// The pairing wire version `/hello` reports and `ensure_paired` requires (SPEC [R13.2-2]).
    public static let wire = 1
    /// The sentence of a 409 (seed 004, verbatim): it names the fix.
    public static let conflictMessage = "this body is already paired; reinstall Cordelia to pair it again"
    public static let tokenLength = 64

    public let name = "pairing"
    public let mutant: Mutant?
    private let lock = NSLock()
    private var token: [UInt8]?
    private var failSaves: UInt64 = 0

    public init(mutant: Mutant? = nil) {
        self.mutant = mutant
    }

    func on(_ m: Mutant) -> Bool { mutant == m }

    public func handle(_ r: HTTPRequest) -> HTTPResponse {
        let path = r.path
        if path.hasPrefix("/conformance/") { return hook(r) }
        if isOpen(r) {
            return path == "/hello" ? hello() : pair(r.body)
        }
        if on(.authUnknownRouteFirst), route(r) == nil {
            return .error(404, "not_found", "no route \(r.method) \(path)")
        }
        guard admits(r) else {
            return .error(401, "unauthorized", "this route needs Authorization: Bearer <token>")
        }
        return route(r) ?? .error(404, "not_found", "no route \(r.method) \(path)")
    }

    // MARK: - Routing (SPEC [R13.2-3], [R13.2-4])

    /// The two routes answered without a token.
    func isOpen(_ r: HTTPRequest) -> Bool {
        let path = r.path
        if on(.authRoutesMatchPathOnly) { return path == "/hello" || path == "/pair" }
        return (r.method == "GET" && path == "/hello") || (r.method == "POST" && path == "/pair")
    }

    /// The routes behind the token; nil when none matches.
    func route(_ r: HTTPRequest) -> HTTPResponse? {
        if r.method == "GET" && r.path == "/status" { return .json(200, .object([("ok", .bool(true))])) }
        return nil
    }

    func hello() -> HTTPResponse {
        let paired = lock.withLock { token != nil }
        let pairedValue: JSONValue = on(.pairHelloPairedAsString) ? .string(paired ? "true" : "false") : .bool(paired)
        return .json(200, .object([
            ("app", .string("cordelia-reference")),
            ("version", .string(SuiteInfo.version)),
            ("build", .string("1")),
            ("wire", .int(Self.wire)),
            ("paired", pairedValue),
        ]))
    }

    // MARK: - Pairing (SPEC [R13.2-5] … [R13.2-10])

    func pair(_ body: [UInt8]) -> HTTPResponse {
        if on(.pairCheckThenActRace) { return pairRacy(body) }
        lock.lock()
        defer { lock.unlock() }
        if let current = token, !on(.pairTokenCheckedFirst), let answer = conflict(current, body) { return answer }
        guard let given = readToken(body) else { return badToken("the body is not {\"token\": \"<64 hex>\"}") }
        guard Self.isWellFormed(given, mutant: mutant) else { return badToken("the token is not exactly 64 characters 0-9a-f") }
        if let current = token, on(.pairTokenCheckedFirst), let answer = conflict(current, body) { return answer }
        if on(.pairPairedBeforeSave) { token = Array(given.utf8) }
        guard save() else { return badToken("the token could not be saved") }
        token = Array(given.utf8)
        return .json(200, .object([("paired", .bool(true))]))
    }

    /// The mutant `pairing.pair-check-then-act-race`: the check and the store are two critical
    /// sections with the (slow) save between them.
    func pairRacy(_ body: [UInt8]) -> HTTPResponse {
        if let current = lock.withLock({ token }), let answer = conflict(current, body) { return answer }
        guard let given = readToken(body) else { return badToken("the body is not {\"token\": \"<64 hex>\"}") }
        guard Self.isWellFormed(given, mutant: nil) else { return badToken("the token is not exactly 64 characters 0-9a-f") }
        Thread.sleep(forTimeInterval: 0.05)  // the file write, outside the lock
        guard lock.withLock({ save() }) else { return badToken("the token could not be saved") }
        lock.withLock { token = Array(given.utf8) }
        return .json(200, .object([("paired", .bool(true))]))
    }

    /// The answer to a pair attempt on a paired body; nil lets a mutant fall through and re-pair.
    func conflict(_ current: [UInt8], _ body: [UInt8]) -> HTTPResponse? {
        if on(.pairSecondAccepted) { return nil }
        if on(.pairSameTokenAccepted), let given = readToken(body), Array(given.utf8) == current {
            return .json(200, .object([("paired", .bool(true))]))
        }
        var message = Self.conflictMessage
        if on(.pairConflictNamesNoFix) { message = "this body is already paired" }
        if on(.pairConflictEchoesToken) { message += " (paired with \(String(decoding: current, as: UTF8.self)))" }
        return .error(409, "already_paired", message)
    }

    func badToken(_ message: String) -> HTTPResponse { .error(400, "bad_token", message) }

    /// The `token` member of a strict JSON object body (SPEC [R13.2-7]), nil when there is none.
    func readToken(_ body: [UInt8]) -> String? {
        repeatedMembers.stringMember("token", of: body)
    }

    /// A repeated member name in a body: refused (SPEC [R13.1-6]); the mutants keep one.
    var repeatedMembers: RepeatReading { .mutated(first: on(.pairDuplicateMemberFirstWins), last: on(.pairDuplicateMemberLastWins)) }

    /// A repeated `Authorization` line: admits nobody (SPEC [R13.2-19]); the mutants read one.
    var repeatedCredentials: RepeatReading { .mutated(first: on(.authFirstLineWins), last: on(.authLastLineWins)) }

    /// The token rule (SPEC [R13.2-8]): exactly 64 bytes, each one of `0-9a-f`.
    static func isWellFormed(_ token: String, mutant: Mutant?) -> Bool {
        let lowerHex: (UInt8) -> Bool = { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        switch mutant {
        case .pairShortTokenAccepted?:
            return (1...tokenLength).contains(token.utf8.count) && token.utf8.allSatisfy(lowerHex)
        case .pairUppercaseAccepted?:
            return token.utf8.count == tokenLength && token.utf8.allSatisfy { lowerHex($0) || (0x41...0x46).contains($0) }
        case .pairFullwidthAccepted?:
            // The seed's own check, verbatim: Characters counted, Unicode hex digits accepted.
            return token.count == tokenLength && token.allSatisfy { $0.isHexDigit }
        case .pairTrailingNewlineAccepted?:
            let u = Array(token.utf8)
            let body = u.last == 0x0a ? Array(u.dropLast()) : u
            return body.count == tokenLength && body.allSatisfy(lowerHex)
        default:
            return token.utf8.count == tokenLength && token.utf8.allSatisfy(lowerHex)
        }
    }

    /// The store's save; false when the reset hook asked for a failure. Called under the lock.
    func save() -> Bool {
        if failSaves > 0 {
            failSaves -= 1
            return false
        }
        return true
    }

    // MARK: - The bearer check (SPEC [R13.2-13] … [R13.2-15])

    func admits(_ r: HTTPRequest) -> Bool {
        guard let want = lock.withLock({ token }) else { return on(.authOpenUntilPaired) }
        // One Authorization field line, or no credentials at all (SPEC [R13.2-19]).
        guard let header = repeatedCredentials.onlyValue(r.values("Authorization")) else { return false }
        let prefix = Array("Bearer ".utf8)
        let given: [UInt8]
        if on(.authSplitOnWhitespace) {
            let parts = header.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 })
            guard parts.count == 2, Array(parts[0]) == Array("Bearer".utf8) else { return false }
            given = Array(parts[1])
        } else if on(.authSchemeCaseInsensitive) {
            guard header.count >= prefix.count, header.prefix(prefix.count).map(HTTPField.lower) == prefix.map(HTTPField.lower) else { return false }
            given = Array(header.dropFirst(prefix.count))
        } else {
            guard header.starts(with: prefix) else { return false }
            given = Array(header.dropFirst(prefix.count))
        }
        guard given.count == want.count else { return false }
        if on(.authTokenCaseInsensitive) { return given.map(HTTPField.lower) == want.map(HTTPField.lower) }
        // Constant time: every byte pair is folded into one accumulator, looked at once.
        var diff: UInt8 = 0
        let n = on(.authCompareSkipsLastByte) ? want.count - 1 : want.count
        for i in 0..<n { diff |= given[i] ^ want[i] }
        return diff == 0
    }

    // MARK: - Test hooks (SPEC [R13.1-1], [R13.1-2])

    func hook(_ r: HTTPRequest) -> HTTPResponse {
        guard r.method == "POST", r.path == "/conformance/reset" else { return .error(404, "not_found", "no hook \(r.method) \(r.path)") }
        let options: JSONValue
        if r.body.isEmpty { options = .object([]) } else {
            guard case .success(let v) = StrictJSON.object(r.body) else { return .error(400, "bad_setup", "the reset body is not a JSON object") }
            options = v
        }
        var fail: UInt64 = 0
        if let n = options["fail_saves"] {
            guard let v = n.uint64Value, StrictJSON.isIntegerNumber(n) else { return .error(400, "bad_setup", "fail_saves is an unsigned integer") }
            fail = v
        }
        lock.withLock {
            token = nil
            failSaves = fail
        }
        return .empty(204)
    }
}

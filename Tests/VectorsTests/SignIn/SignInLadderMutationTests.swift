import Primitives
import Testing
@testable import Vectors

/// The acceptance test for the ladder: for every way of getting a rung wrong — skipping it,
/// checking only one signature half, moving a boundary by one, reordering — at least one committed
/// `ladder` vector fails, while the faithful ladder passes them all.
struct SignInLadderMutationTests {
    enum Mutation: String, CaseIterable, CustomTestStringConvertible {
        case skipRung2, ed25519HalfOnly, mldsaHalfOnly, noExpiryCheck, expiryInclusive, noPinnedKeyMeansUnchecked,
             expiryBeforeSignature, skipRung3, ownCertMustBeUnexpired, malformedOwnCertCountsAsNone, skipRung4,
             skipRung5, windowExclusive, window121, wrappingTimestampDifference, rung5BeforeRung4, rung1GenericReason
        var testDescription: String { rawValue }
    }

    struct LadderCase {
        let id: String
        let request: [UInt8]
        let pinned: [UInt8]?
        let own: [UInt8]?
        let now: UInt64
        let expected: JSONValue
    }

    static let cases: [LadderCase] = {
        guard let text = try? Fixtures.repoFile("vectors/signin.json"), let json = try? JSONValue.parse(text),
              let items = json["cases"]?.arrayValue else { return [] }
        func hex(_ v: JSONValue?) -> [UInt8]? { v?.stringValue.flatMap(Hex.decode) }
        return items.compactMap { c in
            guard c["op"]?.stringValue == "ladder", let input = c["input"], let out = c["expected"]?["output"],
                  let request = hex(input["request"]), let now = input["now_s"]?.uint64Value else { return nil }
            return LadderCase(id: c["id"]!.stringValue!, request: request, pinned: hex(input["pinned_key"]), own: hex(input["own_cert"]),
                              now: now, expected: out)
        }
    }()

    @Test func theVectorsAreThere() {
        #expect(Self.cases.count >= 60)
        for rung in 1...5 { #expect(Self.cases.contains { $0.id.contains("/rung\(rung)/") }, "rung \(rung)") }
    }

    @Test func theFaithfulLadderPassesEveryVector() throws {
        for c in Self.cases {
            let key = try c.pinned.map { (b) throws(WireError) in try PhoneVerifyKey.PublicKey(bytes: b) }
            let got = SignInOutput.verdict(SignInLadder.run(request: c.request, pinnedKey: key, ownCert: c.own, now: c.now)).json
            #expect(got == c.expected, "\(c.id)")
        }
    }

    @Test(arguments: Mutation.allCases)
    func everyMutantFailsSomeVector(_ m: Mutation) {
        let failing = Self.cases.filter { Self.mutant(m, $0).json != $0.expected }.map(\.id)
        #expect(!failing.isEmpty, "a ladder with \(m.rawValue) passes every vector")
        print("\(m.rawValue): caught by \(failing.count) vector(s), e.g. \(failing.prefix(3).joined(separator: ", "))")
    }

    // MARK: the mutant ladder

    static func mutant(_ m: Mutation, _ c: LadderCase) -> CBOR {
        SignInOutput.verdict(run(m, c))
    }

    static func run(_ m: Mutation, _ c: LadderCase) -> SignInLadder.Verdict {
        let request: SignInRequest
        do { request = try SignInRequest.decode(c.request) } catch {
            return .drop(rung: 1, reason: m == .rung1GenericReason ? .signinCertMalformed : error.code)
        }
        let cert: PhoneOwnershipCert
        if m == .skipRung2 {
            guard let decoded = try? PhoneOwnershipCert.decode(request.cert) else { return .drop(rung: 2, reason: .signinCertMalformed) }
            cert = decoded
        } else {
            switch rung2(m, request.cert, pinned: c.pinned, now: c.now) {
            case .ok(let ok): cert = ok
            case .fail(let code): return .drop(rung: 2, reason: code)
            }
        }
        var ownPhoneID: [UInt8]? = nil
        if m != .skipRung3 {
            guard let ownBytes = c.own else { return .drop(rung: 3, reason: .signinNoOwnCert) }
            guard let own = try? PhoneOwnershipCert.decode(ownBytes) else {
                return .drop(rung: 3, reason: m == .malformedOwnCertCountsAsNone ? .signinNoOwnCert : .signinOwnCertMalformed)
            }
            if m == .ownCertMustBeUnexpired, c.now >= own.expiresAt { return .drop(rung: 3, reason: .signinOwnCertMalformed) }
            ownPhoneID = own.phoneID
        } else if let ownBytes = c.own, let own = try? PhoneOwnershipCert.decode(ownBytes) {
            ownPhoneID = own.phoneID
        }
        let rung4: SignInLadder.Verdict? = (m == .skipRung4 || ownPhoneID == nil || cert.phoneID == ownPhoneID) ? nil
            : .drop(rung: 4, reason: .signinPhoneIDMismatch)
        let rung5 = m == .skipRung5 ? nil : timestamp(m, request.timestamp, now: c.now)
        let order = m == .rung5BeforeRung4 ? [rung5, rung4] : [rung4, rung5]
        if let first = order.compactMap({ $0 }).first { return first }
        return .accept(request, phoneID: cert.phoneID)
    }

    enum Rung2 { case ok(PhoneOwnershipCert), fail(ErrorCode) }

    static func rung2(_ m: Mutation, _ bytes: [UInt8], pinned: [UInt8]?, now: UInt64) -> Rung2 {
        guard let pinned else {
            if m == .noPinnedKeyMeansUnchecked, let cert = try? PhoneOwnershipCert.decode(bytes) { return .ok(cert) }
            return .fail(.signinNoPinnedKey)
        }
        guard let cert = try? PhoneOwnershipCert.decode(bytes) else { return .fail(.signinCertMalformed) }
        func expired() -> Bool {
            switch m {
            case .noExpiryCheck: return false
            case .expiryInclusive: return now > cert.expiresAt
            default: return now >= cert.expiresAt
            }
        }
        if m == .expiryBeforeSignature, expired() { return .fail(.signinCertExpired) }
        let msg = cert.signedMessage
        let edOK = (try? Ed25519.PublicKey(rawRepresentation: pinned[0..<32]))?.isValidSignature(cert.signature[0..<64], for: msg) ?? false
        let pqOK = (try? MLDSA65.PublicKey(rawRepresentation: pinned[32...]))?.isValidSignature(cert.signature[64...], for: msg, context: []) ?? false
        switch m {
        case .ed25519HalfOnly: if !edOK { return .fail(.signinCertEd25519Invalid) }
        case .mldsaHalfOnly: if !pqOK { return .fail(.signinCertMLDSAInvalid) }
        default:
            switch (edOK, pqOK) {
            case (false, false): return .fail(.signinCertBothInvalid)
            case (false, true): return .fail(.signinCertEd25519Invalid)
            case (true, false): return .fail(.signinCertMLDSAInvalid)
            case (true, true): break
            }
        }
        if expired() { return .fail(.signinCertExpired) }
        return .ok(cert)
    }

    static func timestamp(_ m: Mutation, _ ts: UInt64, now: UInt64) -> SignInLadder.Verdict? {
        if m == .wrappingTimestampDifference {
            // The classic bug: a signed difference that wraps for timestamps near 2^64.
            let d = Int64(bitPattern: ts &- now)
            if d < -120 { return .drop(rung: 5, reason: .signinTimestampTooOld) }
            if d > 120 { return .drop(rung: 5, reason: .signinTimestampTooNew) }
            return nil
        }
        let limit: UInt64 = m == .window121 ? 121 : 120
        let tooOld = ts < now && (m == .windowExclusive ? now - ts >= limit : now - ts > limit)
        let tooNew = ts > now && (m == .windowExclusive ? ts - now >= limit : ts - now > limit)
        if tooOld { return .drop(rung: 5, reason: .signinTimestampTooOld) }
        if tooNew { return .drop(rung: 5, reason: .signinTimestampTooNew) }
        return nil
    }
}

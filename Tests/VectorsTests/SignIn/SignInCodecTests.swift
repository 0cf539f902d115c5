import Foundation
import Primitives
import Testing
@testable import Vectors

/// Encoders round-trip, decoders are strict (whatever decodes re-encodes to the same bytes) and
/// never trap on any prefix, any bit flip or random bytes; certificates fail on the half a flipped
/// bit lands in. Every random test prints its seed.
struct SignInCodecTests {
    static let fixtures: SignInFixtures = {
        do { return try SignInFixtures() } catch { fatalError("fixtures: \(error)") }
    }()

    /// One valid encoding of every message, with its decoder.
    static var messages: [(name: String, bytes: [UInt8], decode: ([UInt8]) throws(WireError) -> Void)] {
        let f = fixtures
        let request = try! f.request(cert: f.requestCert.encoded, timestamp: f.now)
        let approve = SignInApproval(approved: try! .init(grant: try! DeviceGrant(token: f.inbox, expiresAt: f.now + 180),
                                                          accountSeed: f.replySubject, ktHandle: f.ownPhoneID))
        return [
            ("cert", f.requestCert.encoded, { b throws(WireError) in _ = try PhoneOwnershipCert.decode(b) }),
            ("lookup", try! DiscoveryLookupResponse(inbox: f.inbox, xwingPublicKey: f.xwing).encoded, { b throws(WireError) in _ = try DiscoveryLookupResponse.decode(b) }),
            ("request", request.encoded, { b throws(WireError) in _ = try SignInRequest.decode(b) }),
            ("ack", try! SignInAck(deviceFamily: "iPad").encoded, { b throws(WireError) in _ = try SignInAck.decode(b) }),
            ("approve", approve.encoded, { b throws(WireError) in _ = try SignInApproval.decode(b) }),
            ("reject", SignInApproval(approved: nil).encoded, { b throws(WireError) in _ = try SignInApproval.decode(b) }),
        ]
    }

    static let vocabulary: Set<ErrorCode> = Set(ErrorCode.allCases.filter { $0.rawValue.hasPrefix("signin_") || $0.rawValue.hasPrefix("cbor_") })

    @Test func everyProperPrefixIsTruncated() {
        for m in Self.messages {
            for n in 0..<m.bytes.count {
                do { try m.decode(Array(m.bytes.prefix(n))); Issue.record("\(m.name): prefix \(n) decoded") } catch {
                    #expect(error.code == .cborTruncated, "\(m.name) prefix \(n): \(error)")
                }
            }
        }
    }

    /// A strict decoder accepts only canonical bytes, so anything a bit flip leaves decodable must
    /// re-encode to exactly those bytes; everything else is a typed error from the vocabulary.
    @Test func bitFlipsDecodeCanonicallyOrFailTyped() throws {
        let seed: UInt64 = 0x5167_7e57_0001
        print("bitFlipsDecodeCanonicallyOrFailTyped seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for m in Self.messages {
            for _ in 0..<400 {
                var b = m.bytes
                let i = Int(g.next() % UInt64(b.count))
                b[i] ^= UInt8(1) << UInt8(g.next() % 8)
                let r = Result { () throws(WireError) in try m.decode(b) }
                switch r {
                case .success: #expect(try Self.reencode(m.name, b) == b, "\(m.name): flip at \(i) decoded but is not canonical")
                case .failure(let error): #expect(Self.vocabulary.contains(error.code), "\(m.name): \(error)")
                }
            }
        }
    }

    static func reencode(_ name: String, _ b: [UInt8]) throws -> [UInt8] {
        switch name {
        case "cert": return try PhoneOwnershipCert.decode(b).encoded
        case "lookup": return try DiscoveryLookupResponse.decode(b).encoded
        case "request": return try SignInRequest.decode(b).encoded
        case "ack": return try SignInAck.decode(b).encoded
        default: return try SignInApproval.decode(b).encoded
        }
    }

    @Test func randomBytesNeverTrap() {
        let seed: UInt64 = 0x5167_7e57_0002
        print("randomBytesNeverTrap seed \(seed)")
        var g = SeededGenerator(seed: seed)
        var decoded = 0
        for trial in 0..<3_000 {
            var b = g.bytes(Int(g.next() % 48))
            // Half the time start like a small map, so decoding gets past the first byte.
            if trial % 2 == 0, !b.isEmpty { b[0] = 0xa0 | UInt8(g.next() % 6) }
            for m in Self.messages {
                do { try m.decode(b); decoded += 1 } catch { #expect(Self.vocabulary.contains(error.code), "\(error)") }
            }
            let v = SignInLadder.run(request: b, pinnedKey: nil, ownCert: b, now: 0)
            if case .drop(let rung, _) = v { #expect(rung <= 2) } else { Issue.record("random bytes accepted") }
        }
        #expect(decoded == 0)
    }

    @Test func requestRoundTrips() throws {
        let seed: UInt64 = 0x5167_7e57_0003
        print("requestRoundTrips seed \(seed)")
        var g = SeededGenerator(seed: seed)
        let models = ["iPhone17,1", "X", "Pixel 9 Pro — Zoë", String(repeating: "é", count: 32), "🙂"]
        for i in 0..<60 {
            let r = try SignInRequest(deviceModel: models[i % models.count], replySubject: g.bytes(32), xwingPublicKey: g.bytes(1216),
                                      timestamp: i % 7 == 0 ? UInt64.max - UInt64(i) : g.next() >> (g.next() % 64), cert: g.bytes(Int(g.next() % 200)))
            let back = try SignInRequest.decode(r.encoded)
            #expect(back == r)
            #expect(back.encoded == r.encoded)
            let viaJSON = try SignInHandler().run(op: "request_encode", input: SignInOutput.request(r).json)
            #expect(viaJSON == CBOR.object([("encoded", .bytes(r.encoded))]).json)
        }
    }

    @Test func otherMessagesRoundTrip() throws {
        let seed: UInt64 = 0x5167_7e57_0004
        print("otherMessagesRoundTrip seed \(seed)")
        var g = SeededGenerator(seed: seed)
        for i in 0..<60 {
            let l = try DiscoveryLookupResponse(inbox: g.bytes(32), xwingPublicKey: g.bytes(1216))
            #expect(try DiscoveryLookupResponse.decode(l.encoded) == l)
            let a = try SignInAck(deviceFamily: String(repeating: "F", count: 1 + i % 32))
            #expect(try SignInAck.decode(a.encoded) == a)
            let approval = i % 3 == 0 ? SignInApproval(approved: nil)
                : SignInApproval(approved: try .init(grant: try DeviceGrant(token: g.bytes(32), expiresAt: g.next()), accountSeed: g.bytes(32), ktHandle: g.bytes(32)))
            let back = try SignInApproval.decode(approval.encoded)
            #expect(back == approval)
            let viaJSON = try SignInHandler().run(op: "approval_decode", input: .object([("encoded", .string(Hex.encode(approval.encoded)))]))
            #expect(viaJSON == SignInOutput.approval(approval).json)
            let c = try PhoneOwnershipCert(phoneID: g.bytes(32), issuedAt: g.next(), expiresAt: g.next(), signature: g.bytes(3373))
            #expect(try PhoneOwnershipCert.decode(c.encoded) == c)
            #expect(c.signedMessage.starts(with: Array("pixie-phone-ownership-cert-v1".utf8) + [0]))
        }
    }

    /// A flipped bit in the first 64 bytes breaks only the Ed25519 half; anywhere after, only the
    /// ML-DSA half — and the ladder reports exactly that half.
    @Test func aFlippedSignatureBitNamesItsHalf() throws {
        let seed: UInt64 = 0x5167_7e57_0005
        print("aFlippedSignatureBitNamesItsHalf seed \(seed)")
        var g = SeededGenerator(seed: seed)
        let f = Self.fixtures
        let key = try PhoneVerifyKey.PublicKey(bytes: f.pinned)
        for trial in 0..<24 {
            let i = trial < 8 ? Int(g.next() % 64) : 64 + Int(g.next() % 3309)
            let sig = SignInFixtures.flip(f.requestCert.signature, at: i)
            let cert = try f.requestCert(signature: sig).encoded
            let expected: ErrorCode = i < 64 ? .signinCertEd25519Invalid : .signinCertMLDSAInvalid
            #expect(throws: WireError(expected, "")) { try PhoneOwnershipCert.verify(cert, pinnedKey: key, now: f.now) }
            let v = SignInLadder.run(request: try f.request(cert: cert, timestamp: f.now).encoded, pinnedKey: key, ownCert: f.ownCert.encoded, now: f.now)
            #expect(Self.short(v) == "drop 2 \(expected.rawValue)", "flip at \(i)")
        }
    }

    /// The window at both ends of the clock's range, with a certificate that never expires, so
    /// only rung 5 can decide.
    @Test func timestampWindowIsInclusiveAndOverflowFree() throws {
        let f = Self.fixtures
        let key = try PhoneVerifyKey.PublicKey(bytes: f.pinned)
        let forever = try PhoneOwnershipCert.issue(phoneID: f.ownPhoneID, issuedAt: 0, expiresAt: UInt64.max, signer: f.phoneVerify)
        for now in [f.now, UInt64.max - 200, 200] {
            let cases: [(Int64, ErrorCode?)] = [(-121, .signinTimestampTooOld), (-120, nil), (-1, nil), (0, nil), (1, nil), (120, nil), (121, .signinTimestampTooNew)]
            for (delta, code) in cases {
                let ts = delta < 0 ? now - UInt64(-delta) : now + UInt64(delta)
                let v = SignInLadder.run(request: try f.request(cert: forever.encoded, timestamp: ts).encoded, pinnedKey: key,
                                         ownCert: f.ownCert.encoded, now: now)
                if let code {
                    #expect(Self.short(v) == "drop 5 \(code.rawValue)", "now \(now) delta \(delta)")
                } else { #expect(Self.short(v) == "accept", "now \(now) delta \(delta)") }
            }
            let far = SignInLadder.run(request: try f.request(cert: forever.encoded, timestamp: now > UInt64.max / 2 ? 0 : UInt64.max).encoded,
                                       pinnedKey: key, ownCert: f.ownCert.encoded, now: now)
            #expect(Self.short(far) == "drop 5 " + (now > UInt64.max / 2 ? "signin_timestamp_too_old" : "signin_timestamp_too_new"))
        }
    }

    /// A verdict in a few words, so a failing expectation does not print a 4 KB request.
    static func short(_ v: SignInLadder.Verdict) -> String {
        switch v {
        case .accept: return "accept"
        case .drop(let rung, let reason): return "drop \(rung) \(reason.rawValue)"
        }
    }

    @Test func specListsEverySignInCode() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        guard let start = spec.range(of: "<!-- SECTION:signin"), let end = spec.range(of: "<!-- END:signin -->") else {
            Issue.record("no signin section"); return
        }
        let section = spec[start.upperBound..<end.lowerBound]
        let codes = ErrorCode.allCases.filter { $0.rawValue.hasPrefix("signin_") }
        #expect(codes.count == 19)
        for c in codes { #expect(section.contains("| `\(c.rawValue)` |"), "\(c.rawValue) missing from §8.11") }
        for op in SignInHandler().ops { #expect(section.contains("| `\(op)` |"), "op \(op) missing from §8.9") }
    }
}

import Primitives
import Testing
@testable import Vectors

/// The envelope layer beyond the vectors (SPEC.md §14): seal/open round trips over seeded random
/// plaintexts, both directions and every payload type; the mutants' component-built X-Wing agrees
/// with `XWing` byte for byte when no mutant is bound; and the decoders over every truncation,
/// single-bit flips and seeded garbage, where the only acceptable failure is a typed `WireError`.
struct EnvelopeTests {
    static let seed: UInt64 = 0xE17E_7E57_0000_0001
    static let fixtures: EnvelopeFixtures? = try? EnvelopeFixtures()

    // MARK: the seal (§14.2, §14.3)

    @Test func boxRoundTripsInBothDirections() throws {
        let f = try #require(Self.fixtures)
        var g = SeededGenerator(seed: Self.seed)
        print("EnvelopeTests.boxRoundTripsInBothDirections seed \(Self.seed)")
        for i in 0..<12 {
            let plain = g.bytes(Int(g.next() % 200))
            let direction: DiscoveryBox.Direction = i % 2 == 0 ? .request : .reply
            let dev = i % 3 == 0 ? f.discovery : f.newDevice
            let s = try DiscoveryBox.seal(plain, to: dev.pub, direction: direction, eseed: g.bytes(64))
            #expect(s.box.count == plain.count + DiscoveryBox.overhead)
            #expect(Array(s.box.prefix(3)) == [0x01, 0x04, 0x60])
            #expect(try DiscoveryBox.open(s.box, seed: dev.seed, direction: direction) == plain)
            // The other direction and another key both fail on the tag, never with a plaintext.
            let other: DiscoveryBox.Direction = direction == .request ? .reply : .request
            #expect(throws: WireError(.envelopeOpenFailed, "")) { try DiscoveryBox.open(s.box, seed: dev.seed, direction: other) }
            #expect(throws: WireError(.envelopeOpenFailed, "")) { try DiscoveryBox.open(s.box, seed: f.stranger.seed, direction: direction) }
        }
    }

    /// The seal is RFC 9180's SealBase: the published HPKE key schedule over the X-Wing shared
    /// secret, nonce = base nonce, AAD = the header.
    @Test func sealIsHPKEBaseMode() throws {
        let f = try #require(Self.fixtures)
        var g = SeededGenerator(seed: Self.seed &+ 1)
        let eseed = g.bytes(64), plain = g.bytes(33)
        let s = try DiscoveryBox.seal(plain, to: f.discovery.pub, direction: .request, eseed: eseed)
        let e = try XWing.PublicKey(rawRepresentation: f.discovery.pub).encapsulate(seed: eseed)
        #expect(s.hpke.enc == e.ciphertext && s.hpke.sharedSecret == e.sharedSecret)
        let info = Array("pixie-discovery-box-v1".utf8) + [0] + Array("request".utf8)
        let ctx = HPKE.keySchedule(suiteID: Hex.decode("48504b45647a00010002")!, sharedSecret: e.sharedSecret, info: info)
        let sealed = try AES256GCM.seal(plain, key: ctx.key, nonce: ctx.baseNonce, authenticating: [0x01, 0x04, 0x60])
        #expect(s.box == [0x01, 0x04, 0x60] + e.ciphertext + sealed.ciphertext + sealed.tag)
    }

    /// The component path the KEM mutants use is X-Wing itself when no mutant is bound.
    @Test func componentXWingAgreesWithXWing() throws {
        var g = SeededGenerator(seed: Self.seed &+ 2)
        for _ in 0..<4 {
            let sk = try XWing.PrivateKey(seed: g.bytes(32))
            let eseed = g.bytes(64)
            let a = try EnvelopeKEM.componentEncapsulate(publicKey: sk.publicKey.rawRepresentation, eseed: eseed)
            let b = try sk.publicKey.encapsulate(seed: eseed)
            #expect(a.ciphertext == b.ciphertext && a.sharedSecret == b.sharedSecret)
            #expect(try EnvelopeKEM.componentDecapsulate(seed: sk.seedRepresentation, ciphertext: b.ciphertext) == b.sharedSecret)
            var bad = b.ciphertext
            bad[7] ^= 0x40
            #expect(try EnvelopeKEM.componentDecapsulate(seed: sk.seedRepresentation, ciphertext: bad) == (try sk.decapsulate(bad)))
        }
        // Reducing a valid key mod q changes nothing.
        let pk = try XWing.PrivateKey(seed: g.bytes(32)).publicKey.rawRepresentation
        #expect(EnvelopeKEM.reducedModQ(Array(pk[0..<1184])) == Array(pk[0..<1184]))
    }

    // MARK: the envelope (§14.5–§14.8)

    @Test func envelopeRoundTripsForEveryPayloadType() throws {
        let f = try #require(Self.fixtures)
        var g = SeededGenerator(seed: Self.seed &+ 3)
        for type in ["sync_request", "sync_offer", "sync_ack", "sync_delta", "message", "SYNC_REQUEST"] {
            let payload = g.bytes(Int(g.next() % 100))
            let s = try SealedSenderEnvelope.seal(payloadType: type, payload: payload, senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                  recipientUserIDHash: f.hashA, holder: f.holderA, eseed: g.bytes(64))
            #expect(s.envelope[1] == (type == "sync_request" ? 1 : 0))
            #expect(s.envelope.count == s.inner.encoded.count + SealedSenderEnvelope.overhead)
            let o = try SealedSenderEnvelope.open(s.envelope, seed: f.newDevice.seed, credentialKey: try CredentialKey(bytes: f.credentialKey), now: f.now,
                                                  holder: f.holderA)
            #expect(o.payload == payload && o.payloadType == type && o.senderUserIDHash == f.hashA && o.channel == .sibling)
            #expect(try EnvelopeInner.decode(s.inner.encoded) == s.inner)
        }
    }

    @Test func sendAndReceiveFailClosedWithoutAKey() throws {
        let f = try #require(Self.fixtures)
        var g = SeededGenerator(seed: Self.seed &+ 4)
        let noSeed = ChannelKeys.Holder(ownUserIDHash: f.hashA, accountSeed: nil)
        #expect(throws: WireError(.envelopeNoChannelKey, "")) {
            try SealedSenderEnvelope.seal(payloadType: "sync_request", payload: [1], senderCert: f.newDeviceCert.encoded, to: f.sibling.pub,
                                          recipientUserIDHash: f.hashA, holder: noSeed, eseed: g.bytes(64))
        }
        let s = try SealedSenderEnvelope.seal(payloadType: "sync_ack", payload: [2], senderCert: f.newDeviceCert.encoded, to: f.sibling.pub,
                                              recipientUserIDHash: f.hashA, holder: f.holderA, eseed: g.bytes(64))
        #expect(throws: WireError(.envelopeNoChannelKey, "")) {
            try SealedSenderEnvelope.open(s.envelope, seed: f.sibling.seed, credentialKey: try CredentialKey(bytes: f.credentialKey), now: f.now, holder: noSeed)
        }
    }

    @Test func senderCertRoundTrips() throws {
        let f = try #require(Self.fixtures)
        for c in [f.siblingCert, f.newDeviceCert, f.accountBCert, f.siblingCertExpired] {
            #expect(try SenderCert.decode(c.encoded) == c)
        }
        #expect(try SenderCert.verify(f.siblingCert.encoded, key: try CredentialKey(bytes: f.credentialKey), now: f.now) == f.siblingCert)
    }

    // MARK: decoders never trap

    /// Any outcome but a trap is acceptable, and the only error is a typed `WireError`.
    static func expectTyped(_ body: () throws -> Void) {
        do { try body() } catch { #expect(error is WireError, "\(error)") }
    }

    @Test func boxAndEnvelopeOpenEveryTruncation() throws {
        let f = try #require(Self.fixtures)
        var g = SeededGenerator(seed: Self.seed &+ 5)
        let box = try DiscoveryBox.seal(g.bytes(20), to: f.discovery.pub, direction: .request, eseed: g.bytes(64)).box
        let env = try SealedSenderEnvelope.seal(payloadType: "sync_offer", payload: g.bytes(20), senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                recipientUserIDHash: f.hashA, holder: f.holderA, eseed: g.bytes(64)).envelope
        let key = try CredentialKey(bytes: f.credentialKey)
        // Below the minimum every length is a layout error, decided before any decapsulation.
        for n in 0..<box.count {
            do {
                _ = try DiscoveryBox.open(Array(box.prefix(n)), seed: f.discovery.seed, direction: .request)
                Issue.record("a \(n)-byte prefix of a box opened")
            } catch {
                let expected: Set<ErrorCode> = n < DiscoveryBox.overhead ? [.envelopeTruncated] : [.envelopeOpenFailed]
                #expect(expected.contains(error.code), "box prefix \(n): \(error.code)")
            }
        }
        for n in stride(from: 0, to: env.count, by: 7) {
            do {
                _ = try SealedSenderEnvelope.open(Array(env.prefix(n)), seed: f.newDevice.seed, credentialKey: key, now: f.now, holder: f.holderA)
                Issue.record("a \(n)-byte prefix of an envelope opened")
            } catch {
                #expect(error.code == (n < SealedSenderEnvelope.overhead ? .envelopeTruncated : .envelopeOpenFailed), "envelope prefix \(n)")
            }
        }
    }

    @Test func openUnderBitFlipsNeverTraps() throws {
        let f = try #require(Self.fixtures)
        var g = SeededGenerator(seed: Self.seed &+ 6)
        print("EnvelopeTests.openUnderBitFlipsNeverTraps seed \(Self.seed &+ 6)")
        let env = try SealedSenderEnvelope.seal(payloadType: "sync_offer", payload: g.bytes(30), senderCert: f.siblingCert.encoded, to: f.newDevice.pub,
                                                recipientUserIDHash: f.hashA, holder: f.holderA, eseed: g.bytes(64)).envelope
        let key = try CredentialKey(bytes: f.credentialKey)
        // Every header bit, then seeded positions across enc, ciphertext and tag.
        var positions = (0..<32).map { ($0 / 8, UInt8(1) << UInt8($0 % 8)) }
        for _ in 0..<120 { positions.append((Int(g.next() % UInt64(env.count)), UInt8(1) << UInt8(g.next() % 8))) }
        for (at, mask) in positions {
            var e = env
            e[at] ^= mask
            do {
                _ = try SealedSenderEnvelope.open(e, seed: f.newDevice.seed, credentialKey: key, now: f.now, holder: f.holderA)
                Issue.record("a flip at byte \(at) mask \(mask) still opened")
            } catch {
                let allowed: Set<ErrorCode> = [.envelopeWrongKind, .envelopeBadWakeClass, .envelopeKEMCiphertextLength, .envelopeTruncated, .envelopeOpenFailed]
                #expect(allowed.contains(error.code), "flip at \(at): \(error.code)")
            }
        }
    }

    @Test func innerAndCertDecodersOverTruncationsFlipsAndGarbage() throws {
        let f = try #require(Self.fixtures)
        var g = SeededGenerator(seed: Self.seed &+ 7)
        print("EnvelopeTests.innerAndCertDecodersOverTruncationsFlipsAndGarbage seed \(Self.seed &+ 7)")
        let inner = EnvelopeInner(payloadType: "sync_offer", payload: g.bytes(40), senderCert: f.siblingCert.encoded, mac: g.bytes(32)).encoded
        let cert = f.siblingCert.encoded
        for bytes in [inner, cert] {
            for n in 0..<bytes.count {
                Self.expectTyped { _ = try EnvelopeInner.decode(Array(bytes.prefix(n))) }
                Self.expectTyped { _ = try SenderCert.decode(Array(bytes.prefix(n))) }
            }
            for at in 0..<min(bytes.count, 400) {
                for bit in 0..<8 {
                    var b = bytes
                    b[at] ^= UInt8(1) << UInt8(bit)
                    Self.expectTyped { _ = try EnvelopeInner.decode(b) }
                    Self.expectTyped { _ = try SenderCert.decode(b) }
                }
            }
        }
        for _ in 0..<2_000 {
            let junk = g.bytes(Int(g.next() % 64))
            Self.expectTyped { _ = try EnvelopeInner.decode(junk) }
            Self.expectTyped { _ = try SenderCert.decode(junk) }
            Self.expectTyped { _ = try BoxLayout.parse(junk, kind: 2, hasWake: true) }
        }
        // A truncated certificate never decodes: every strict prefix fails.
        for n in 0..<cert.count { #expect((try? SenderCert.decode(Array(cert.prefix(n)))) == nil) }
    }

    // MARK: the vectors

    static var cases: [VectorCase] { Committed.cases("envelope") }

    @Test func vectorListIsNotEmpty() {
        #expect(Self.cases.count > 250)
        #expect(Set(Self.cases.map(\.op)) == Set(EnvelopeHandler().ops))
    }

    /// Every envelope_* code is the expected answer of some case.
    @Test func everyEnvelopeCodeIsExercised() {
        let used = Set(Self.cases.compactMap { if case .error(let c) = $0.expected { return c } else { return nil } })
        for code in ErrorCode.allCases where code.rawValue.hasPrefix("envelope_") {
            #expect(used.contains(code), "\(code.rawValue)")
        }
    }
}

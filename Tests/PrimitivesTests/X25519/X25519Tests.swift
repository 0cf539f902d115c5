import Foundation
import Primitives
import Testing

/// X25519 (RFC 7748) against both known-answer files: the §5.2 scalar-multiplication vectors
/// (JSON and the pyca text form), the §5.2 iterated test and the §6.1 Diffie-Hellman example.
struct X25519KATTests {
    struct ScalarMultCase: CustomTestStringConvertible, Sendable {
        let name: String
        let scalar: [UInt8], u: [UInt8], output: [UInt8]
        var testDescription: String { name }
    }

    static let jsonFile = "x25519/rfc7748-x25519.json"
    static let textFile = "x25519/rfc7748-5.2-cryptography-vectors.txt"

    static func json() -> [String: Any] {
        guard let data = try? KATFile.data(jsonFile),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    static let jsonCases: [ScalarMultCase] = (json()["scalarMult"] as? [[String: Any]] ?? []).compactMap { t in
        guard let id = t["tcId"] as? Int, let k = (t["scalar"] as? String).flatMap(Hex.decode),
              let u = (t["u"] as? String).flatMap(Hex.decode), let out = (t["output"] as? String).flatMap(Hex.decode)
        else { return nil }
        return ScalarMultCase(name: "rfc7748-x25519.json scalarMult tcId=\(id)", scalar: k, u: u, output: out)
    }

    static let textCases: [ScalarMultCase] = {
        guard let text = try? KATFile.text(textFile) else { return [] }
        return RSP.parse(text).compactMap { r in
            guard let count = r.fields["COUNT"], let k = r.fields["INPUT_SCALAR"].flatMap(Hex.decode),
                  let u = r.fields["INPUT_U"].flatMap(Hex.decode), let out = r.fields["OUTPUT_U"].flatMap(Hex.decode)
            else { return nil }
            return ScalarMultCase(name: "rfc7748-5.2-cryptography-vectors.txt COUNT=\(count)", scalar: k, u: u, output: out)
        }
    }()

    static func iteratedTarget(_ n: Int) -> [UInt8]? {
        ((json()["iterated"] as? [String: Any])?["after"] as? [String: String])?[String(n)].flatMap(Hex.decode)
    }

    @Test func filesAreNotEmpty() {
        #expect(Self.jsonCases.count == 2)
        #expect(Self.textCases.count == 3)
        for n in [1, 1000, 1_000_000] { #expect(Self.iteratedTarget(n)?.count == 32, "iterated \(n)") }
        #expect((Self.json()["diffieHellman"] as? [String: String])?.count == 5)
    }

    @Test(arguments: jsonCases + textCases)
    func scalarMultKnownAnswer(_ c: ScalarMultCase) throws {
        #expect(try X25519.scalarMult(scalar: c.scalar, u: c.u) == c.output)
        // The same through the key types (sharedSecret's zero check does not fire here).
        let key = try X25519.PrivateKey(rawRepresentation: c.scalar)
        #expect(try key.sharedSecret(with: X25519.PublicKey(rawRepresentation: c.u)) == c.output)
    }

    /// RFC 7748 §5.2: k = u = 9; repeat r = X25519(k, u); u = k; k = r.
    /// One iteration here (a debug build takes about 20 ms a ladder); the 1,000 and 1,000,000
    /// targets are checked on the release binary by `conformance kat`, which `.ci/run` runs.
    @Test func iterated() throws {
        let target = try #require(Self.iteratedTarget(1))
        #expect(try KnownAnswer.x25519Iterated(1) == target)
        #expect(try KnownAnswer.x25519Iterated(0) == X25519.basePoint)
    }

    /// RFC 7748 §6.1: both public keys from their private keys, and the same shared secret both ways.
    @Test func diffieHellman() throws {
        let dh = try #require(Self.json()["diffieHellman"] as? [String: String])
        func bytes(_ k: String) throws -> [UInt8] { try #require(dh[k].flatMap(Hex.decode)) }
        let alice = try X25519.PrivateKey(rawRepresentation: bytes("alicePrivate"))
        let bob = try X25519.PrivateKey(rawRepresentation: bytes("bobPrivate"))
        #expect(alice.rawRepresentation == (try bytes("alicePrivate")))
        #expect(alice.publicKey.rawRepresentation == (try bytes("alicePublic")))
        #expect(bob.publicKey.rawRepresentation == (try bytes("bobPublic")))
        #expect(try alice.sharedSecret(with: bob.publicKey) == bytes("shared"))
        #expect(try bob.sharedSecret(with: X25519.PublicKey(rawRepresentation: bytes("alicePublic"))) == bytes("shared"))
        #expect(alice.sharedSecretUnchecked(with: bob.publicKey) == (try bytes("shared")))
    }
}

/// Behaviour the KAT files do not reach: the fixed-base path against the ladder, RFC 7748's
/// input rules (bit 255 masked, non-canonical u accepted), small-order inputs and lengths.
struct X25519NegativeTests {
    /// Scalars from a fixed SHAKE128 stream (seed: the empty string), so failures reproduce.
    static func scalars(_ n: Int) -> [[UInt8]] {
        var s = SHAKE128()
        return (0..<n).map { _ in s.squeeze(32) }
    }

    /// `publicKey` goes through the Edwards fixed-base table; it must equal the ladder's X25519(k, 9).
    @Test func fixedBaseEqualsLadder() throws {
        for k in Self.scalars(64) + [[UInt8](repeating: 0, count: 32), [UInt8](repeating: 0xff, count: 32)] {
            let key = try X25519.PrivateKey(rawRepresentation: k)
            #expect(key.publicKey.rawRepresentation == (try X25519.scalarMult(scalar: k, u: X25519.basePoint)), "k = \(Hex.encode(k))")
        }
    }

    /// Points of small order (u = 0, 1, the two order-8 points, p - 1, p, p + 1; and each with bit
    /// 255 set, which RFC 7748 §5 masks): X25519 is all zeros for every scalar.
    static let smallOrder: [String] = [
        "0000000000000000000000000000000000000000000000000000000000000000",
        "0100000000000000000000000000000000000000000000000000000000000000",
        "e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
        "5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
        "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
        "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    ]

    @Test(arguments: smallOrder)
    func smallOrderPeerGivesZeroAndTheCheckedFormThrows(_ hex: String) throws {
        var u = try #require(Hex.decode(hex))
        for highBit in [false, true] {
            if highBit { u[31] |= 0x80 }
            let peer = try X25519.PublicKey(rawRepresentation: u)
            for k in Self.scalars(4) {
                let key = try X25519.PrivateKey(rawRepresentation: k)
                #expect(key.sharedSecretUnchecked(with: peer) == [UInt8](repeating: 0, count: 32))
                #expect(throws: CryptoError(.zeroSharedSecret, "")) { try key.sharedSecret(with: peer) }
            }
        }
    }

    /// Bit 255 of u is ignored, and u + p (a non-canonical encoding, < 2^255 for u < 19) equals u.
    @Test func uDecodingMasksBit255AndAcceptsNonCanonical() throws {
        let k = Self.scalars(1)[0]
        let reference = try X25519.scalarMult(scalar: k, u: X25519.basePoint)
        var high = X25519.basePoint
        high[31] |= 0x80
        #expect(try X25519.scalarMult(scalar: k, u: high) == reference)
        // p + 9 = 2^255 - 10: f6 ff … ff 7f.
        let nonCanonical = [0xf6] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
        #expect(try X25519.scalarMult(scalar: k, u: nonCanonical) == reference)
        // Clamping: bits 0-2 and 255 of the scalar do not matter, bit 254 is forced.
        var k2 = k
        k2[0] ^= 0x07
        k2[31] ^= 0x80
        #expect(try X25519.scalarMult(scalar: k2, u: X25519.basePoint) == reference)
        #expect(try X25519.PrivateKey(rawRepresentation: k2).publicKey.rawRepresentation == reference)
        #expect(try X25519.PrivateKey(rawRepresentation: k2).rawRepresentation == k2)
    }

    @Test func wrongLengthsThrow() {
        for n in [0, 31, 33, 64] {
            let b = [UInt8](repeating: 9, count: n)
            #expect(throws: CryptoError(.invalidLength, "")) { try X25519.PrivateKey(rawRepresentation: b) }
            #expect(throws: CryptoError(.invalidLength, "")) { try X25519.PublicKey(rawRepresentation: b) }
            #expect(throws: CryptoError(.invalidLength, "")) { try X25519.scalarMult(scalar: b, u: X25519.basePoint) }
            #expect(throws: CryptoError(.invalidLength, "")) { try X25519.scalarMult(scalar: X25519.basePoint, u: b) }
        }
    }

    @Test func publicKeyRoundTripsItsBytes() throws {
        let raw = Self.scalars(2)[1]
        let pk = try X25519.PublicKey(rawRepresentation: raw)
        #expect(pk.rawRepresentation == raw)
        #expect(pk == (try X25519.PublicKey(rawRepresentation: raw)))
        #expect(X25519.PrivateKey().publicKey != pk)
    }
}

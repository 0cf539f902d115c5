import Foundation
import Primitives
import Testing

/// The suite's Ed25519 verification rule (SPEC.md §9.1) and the stock-library rules it is
/// contrasted with, against C2SP CCTV's 914 edge vectors (`cctv-ed25519vectors.json`). Each vector
/// carries flags; CCTV's README and its Go test (`ed25519vectors_test.go`) state which flags each
/// verifier family rejects, and every rule here must give exactly that verdict on every vector.
struct Ed25519RuleTests {
    struct Vector: Decodable, Sendable {
        let number: Int
        let key: String
        let sig: String
        let msg: String
        let flags: [String]?

        func has(_ f: String) -> Bool { flags?.contains(f) ?? false }
    }

    static let vectors: [Vector] = {
        guard let data = try? KATFile.data("ed25519/cctv-ed25519vectors.json") else { return [] }
        return (try? JSONDecoder().decode([Vector].self, from: data)) ?? []
    }()

    @Test func fileHasAll914Vectors() {
        #expect(Self.vectors.count == 914)
    }

    /// The verdict of `rule` on one vector; a key that does not decode at all is a rejection.
    static func verdict(_ v: Vector, _ rule: Ed25519.VerificationRule) -> Bool {
        guard let key = try? Ed25519.PublicKey(rawRepresentation: Hex.decode(v.key)!) else { return false }
        return key.isValidSignature(Hex.decode(v.sig)!, for: Array(v.msg.utf8), rule: rule)
    }

    /// `.suite`: the "classic" ref10 verdict CCTV states for Go `crypto/ed25519`, ed25519-dalek
    /// `verify` and OpenSSL: reject exactly `non_canonical_R` and `low_order_residue`.
    @Test func suiteRuleIsTheClassicVerdict() {
        var wrong: [Int] = []
        for v in Self.vectors {
            let expected = !v.has("non_canonical_R") && !v.has("low_order_residue")
            if Self.verdict(v, .suite) != expected { wrong.append(v.number) }
            // The fast path and the general path agree.
            let key = try? Ed25519.PublicKey(rawRepresentation: Hex.decode(v.key)!)
            if let key, key.isValidSignature(Hex.decode(v.sig)!, for: Array(v.msg.utf8)) != expected { wrong.append(v.number) }
        }
        #expect(wrong.isEmpty, "vectors judged against the classic verdict: \(wrong)")
        // The file exercises both verdicts.
        #expect(Self.vectors.contains { !$0.has("non_canonical_R") && !$0.has("low_order_residue") })
    }

    /// libsodium and ed25519-dalek `verify_strict` additionally refuse every low-order A and R
    /// (CCTV README: verify_strict "rejects any low_order_A and low_order_R vectors").
    @Test(arguments: [Ed25519.VerificationRule.libsodium, .dalekVerifyStrict])
    func smallOrderRefusingRules(_ rule: Ed25519.VerificationRule) {
        var wrong: [Int] = []
        for v in Self.vectors {
            let expected = !v.has("non_canonical_R") && !v.has("low_order_residue") && !v.has("low_order_A") && !v.has("low_order_R")
            if Self.verdict(v, rule) != expected { wrong.append(v.number) }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// ZIP 215 accepts every vector except those whose k was computed from a re-encoded point,
    /// unless A has low order (CCTV's Go test, `ed25519consensus.Verify`).
    @Test func zip215Rule() {
        var wrong: [Int] = []
        for v in Self.vectors {
            let expected = !v.has("reencoded_k") || v.has("low_order_A")
            if Self.verdict(v, .zip215) != expected { wrong.append(v.number) }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// RFC 8032 read strictly: a non-canonical A is refused as well.
    @Test func rfc8032StrictRule() {
        var wrong: [Int] = []
        for v in Self.vectors {
            let expected = !v.has("non_canonical_R") && !v.has("low_order_residue") && !v.has("non_canonical_A")
            if Self.verdict(v, .rfc8032Strict) != expected { wrong.append(v.number) }
        }
        #expect(wrong.isEmpty, "\(wrong)")
    }

    /// The 8 small-order points and their 6 aliases (CCTV README list) all decode, all have
    /// small order, and only the 8 are canonical; the basepoint is torsion-free.
    @Test func smallOrderEncodings() throws {
        let canonical = ["0000000000000000000000000000000000000000000000000000000000000000",
                         "0000000000000000000000000000000000000000000000000000000000000080",
                         "0100000000000000000000000000000000000000000000000000000000000000",
                         "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
                         "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
                         "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
                         "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
                         "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"]
        let aliases = ["edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                       "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                       "0100000000000000000000000000000000000000000000000000000000000080",
                       "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
                       "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
                       "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"]
        for h in canonical + aliases {
            let key = try Ed25519.PublicKey(rawRepresentation: Hex.decode(h)!)
            #expect(key.isSmallOrder, "\(h)")
            #expect(key.isCanonicalEncoding == canonical.contains(h), "\(h)")
            let p = try #require(Ed25519.Point(decoding: Hex.decode(h)!))
            #expect(p.isSmallOrder && p.timesCofactor.isIdentity)
        }
        let b = Ed25519.Point.base(times: [1] + [UInt8](repeating: 0, count: 31))
        #expect(b.isTorsionFree && !b.isSmallOrder)
        let t8 = try #require(Ed25519.Point(decoding: Hex.decode(canonical[5])!))
        #expect(!t8.isTorsionFree)
        #expect(!(b + t8).isTorsionFree && !(b + t8).isSmallOrder)
        #expect((b + t8 - t8).sameAs(b))
    }

    /// Scalar helpers: L reduces to 0, k·s + r matches the signer, and S + L is S again mod L.
    @Test func scalarArithmetic() throws {
        #expect(Ed25519.Arithmetic.reduce(Ed25519.Arithmetic.order) == [UInt8](repeating: 0, count: 32))
        let key = try Ed25519.PrivateKey(seed: [UInt8](repeating: 7, count: 32))
        let msg = Array("edge".utf8)
        let sig = key.signature(for: msg)
        let sPlusL = Ed25519.Arithmetic.addUnreduced(Array(sig[32..<64]), Ed25519.Arithmetic.order)
        #expect(Ed25519.Arithmetic.reduce(sPlusL) == Array(sig[32..<64]))
        var forged = sig
        forged.replaceSubrange(32..<64, with: sPlusL)
        #expect(!key.publicKey.isValidSignature(forged, for: msg))
        #expect(!key.publicKey.isValidSignature(forged, for: msg, rule: .suite))
        #expect(key.publicKey.isValidSignature(forged, for: msg, rule: .init(scalarRange: .anyReduced)))
        // The challenge helper is the verifier's k.
        let k = Ed25519.Arithmetic.challenge(r: Array(sig[0..<32]), a: key.publicKey.rawRepresentation, message: msg)
        let lhs = Ed25519.Point.base(times: Array(sig[32..<64]))
        let a = try #require(Ed25519.Point(decoding: key.publicKey.rawRepresentation))
        let r = try #require(Ed25519.Point(decoding: Array(sig[0..<32])))
        #expect(lhs.sameAs(r + a.times(k)))
    }
}

import Foundation
import Primitives
import Testing

/// ML-DSA-65 against the pq-kat deterministic file, the ACVP specification's rejection-loop
/// KATs and the C2SP/CCTV accumulated test.
struct MLDSA65KATTests {
    static let detKAT = MLDSAVectors.detKATCases()
    static let rejection = MLDSAVectors.rejectionCases()

    @Test func filesAreNotEmpty() {
        #expect(Self.detKAT.count == 10)
        #expect(Self.rejection.count == 10)
    }

    /// ξ → (pk, sk); deterministic ML-DSA.Sign with context; sm = σ || msg; σ verifies.
    @Test(arguments: detKAT)
    func deterministicPureKnownAnswer(_ c: MLDSAVectors.DetKATCase) throws {
        let key = try MLDSA65.PrivateKey(seed: c.xi)
        #expect(key.publicKey.rawRepresentation == c.pk)
        #expect(key.encoded == c.sk)
        let signature = try key.deterministicSignature(for: c.msg, context: c.ctx)
        #expect(signature + c.msg == c.sm)
        #expect(key.publicKey.isValidSignature(signature, for: c.msg, context: c.ctx))
    }

    /// keyHash = SHA-256(pk || sk); σ = Sign_internal(sk, M', rnd = 0^32); signatureHash =
    /// SHA-256(σ). These seeds force the rejection cases / many (up to 77) loop iterations.
    @Test(arguments: rejection)
    func rejectionLoopKnownAnswer(_ c: MLDSAVectors.RejectionCase) throws {
        let key = try MLDSA65.PrivateKey(seed: c.seed)
        #expect(SHA256.hash(key.publicKey.rawRepresentation + key.encoded).bytes == c.keyHash)
        let signature = key.signatureInternal(messagePrime: c.mPrime, randomness: [UInt8](repeating: 0, count: 32))
        #expect(SHA256.hash(signature).bytes == c.signatureHash)
        #expect(key.publicKey.isValidSignatureInternal(signature, messagePrime: c.mPrime))
    }

    static func accumulatedTarget(_ iterations: Int) throws -> String {
        let root = try JSONSerialization.jsonObject(with: try KATFile.data("accumulated/accumulated-targets.json")) as? [String: Any]
        let entry = try #require(root?["ML-DSA-65"] as? [String: Any])
        let digests = try #require(entry["digests"] as? [String: String])
        return try #require(digests[String(iterations)])
    }

    /// The accumulated test of accumulated/accumulated-targets.json ("ML-DSA-65"), 100
    /// iterations (`KnownAnswer.mldsa65Accumulated`). The 10,000-iteration target is checked on
    /// the release binary by `conformance kat`, which `.ci/run` runs.
    @Test func accumulated100() throws {
        #expect(try Hex.encode(KnownAnswer.mldsa65Accumulated(iterations: 100)) == Self.accumulatedTarget(100))
        #expect(try Self.accumulatedTarget(10_000).count == 64)
    }
}

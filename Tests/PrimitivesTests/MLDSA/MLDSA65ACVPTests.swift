import Foundation
import Primitives
import Testing

/// ML-DSA-65 against the NIST ACVP-Server v1.1.0.43 keyGen, sigGen (external + internal
/// interfaces, deterministic + hedged, pure + preHash + externalMu) and sigVer vectors.
/// Run with `swift test -c release` (debug is ~30x slower).
struct MLDSA65ACVPTests {
    static let keyGen = MLDSAVectors.keyGenCases()
    static let sigGenExternal = MLDSAVectors.sigGenCases(MLDSAVectors.sigGenExternalFile)
    static let sigGenInternal = MLDSAVectors.sigGenCases(MLDSAVectors.sigGenInternalFile)
    static let sigVer = MLDSAVectors.sigVerCases()

    @Test func filesAreNotEmpty() {
        #expect(Self.keyGen.count == 25)
        #expect(Self.sigGenExternal.count == 60)
        #expect(Self.sigGenInternal.count == 60)
        #expect(Self.sigVer.count == 60)
        // Every group kind is present (so no interface is silently untested).
        #expect(Self.sigGenExternal.filter { $0.interface == .externalPure }.count == 30)
        #expect(Self.sigGenExternal.filter { if case .externalPreHash = $0.interface { true } else { false } }.count == 30)
        #expect(Self.sigGenInternal.filter { $0.interface == .internalMu }.count == 30)
        #expect(Self.sigGenInternal.filter { $0.interface == .internalMessage }.count == 30)
        #expect(Self.sigVer.filter { $0.interface == .externalPure }.count == 15)
        #expect(Self.sigVer.filter { if case .externalPreHash = $0.interface { true } else { false } }.count == 15)
        #expect(Self.sigVer.filter { $0.interface == .internalMu }.count == 15)
        #expect(Self.sigVer.filter { $0.interface == .internalMessage }.count == 15)
        // 3 valid and 12 invalid (modified z, hint, commitment, message) per group.
        #expect(Self.sigVer.filter { $0.expected }.count == 12)
        #expect(Self.sigVer.filter { !$0.expected }.count == 48)
        // All 12 HashML-DSA hash functions appear and are implemented.
        let hashes = Set((Self.sigGenExternal.map(\.interface) + Self.sigVer.map(\.interface)).compactMap { i -> String? in
            if case .externalPreHash(let name) = i { name } else { nil }
        })
        #expect(hashes.count == 12)
        #expect(hashes.allSatisfy { MLDSA65.PreHash(rawValue: $0) != nil })
    }

    /// KeyGen_internal (FIPS 204 Algorithm 6): ξ → (pk, sk), and the expanded sk decodes back.
    @Test(arguments: keyGen)
    func keyGenKnownAnswer(_ c: MLDSAVectors.KeyGenCase) throws {
        let key = try MLDSA65.PrivateKey(seed: c.seed)
        #expect(key.publicKey.rawRepresentation == c.pk)
        #expect(key.encoded == c.sk)
        #expect(key.seedRepresentation == c.seed)
        let decoded = try MLDSA65.PrivateKey(expandedRepresentation: c.sk)
        #expect(decoded.publicKey == key.publicKey)
        #expect(decoded.encoded == c.sk)
    }

    static func sign(_ c: MLDSAVectors.SigGenCase) throws -> [UInt8] {
        let key = try MLDSA65.PrivateKey(expandedRepresentation: c.sk)
        switch c.interface {
        case .externalPure:
            return try key.signature(for: c.input, context: c.context, randomness: c.rnd)
        case .externalPreHash(let name):
            let hash = try #require(MLDSA65.PreHash(rawValue: name), "unknown hashAlg \(name)")
            return try key.preHashSignature(for: c.input, context: c.context, hash: hash, randomness: c.rnd)
        case .internalMessage:
            return key.signatureInternal(messagePrime: c.input, randomness: c.rnd)
        case .internalMu:
            return key.signatureInternal(mu: c.input, randomness: c.rnd)
        }
    }

    static func verify(_ pk: MLDSA65.PublicKey, _ signature: [UInt8], interface: MLDSAVectors.Interface,
                       input: [UInt8], context: [UInt8]) throws -> Bool {
        switch interface {
        case .externalPure:
            return pk.isValidSignature(signature, for: input, context: context)
        case .externalPreHash(let name):
            let hash = try #require(MLDSA65.PreHash(rawValue: name), "unknown hashAlg \(name)")
            return pk.isValidPreHashSignature(signature, for: input, context: context, hash: hash)
        case .internalMessage:
            return pk.isValidSignatureInternal(signature, messagePrime: input)
        case .internalMu:
            return pk.isValidSignatureInternal(signature, mu: input)
        }
    }

    /// External interface: ML-DSA.Sign / HashML-DSA.Sign (Algorithms 2 and 4), deterministic and
    /// hedged, from the expanded sk; the signature must match and verify.
    @Test(arguments: sigGenExternal)
    func sigGenExternalKnownAnswer(_ c: MLDSAVectors.SigGenCase) throws {
        try Self.checkSigGen(c)
    }

    /// Internal interface: Sign_internal (Algorithm 7) on M' or on an external μ.
    @Test(arguments: sigGenInternal)
    func sigGenInternalKnownAnswer(_ c: MLDSAVectors.SigGenCase) throws {
        try Self.checkSigGen(c)
    }

    static func checkSigGen(_ c: MLDSAVectors.SigGenCase) throws {
        let signature = try sign(c)
        #expect(signature == c.signature, "\(c.name)")
        let pk = try MLDSA65.PrivateKey(expandedRepresentation: c.sk).publicKey
        #expect(try verify(pk, signature, interface: c.interface, input: c.input, context: c.context))
    }

    /// Verify (Algorithms 3, 5, 8): every verdict, valid and invalid, must match `testPassed`.
    @Test(arguments: sigVer)
    func sigVerKnownAnswer(_ c: MLDSAVectors.SigVerCase) throws {
        let pk = try MLDSA65.PublicKey(rawRepresentation: c.pk)
        #expect(try Self.verify(pk, c.signature, interface: c.interface, input: c.input, context: c.context) == c.expected)
    }
}

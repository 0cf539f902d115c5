import Foundation
import Primitives
import Testing

/// ML-KEM-768 against the NIST ACVP-Server v1.1.0.43 files: keyGen, encapsulation,
/// decapsulation (FIPS203 and FIPS203-tr1, expanded and seed key formats, valid and modified
/// ciphertexts) and the encapsulation/decapsulation key checks of FIPS 203 §7.2 and §7.3.
struct MLKEM768ACVPTests {
    static let keyGen = MLKEMVectors.keyGenCases()
    static let encapsulation = MLKEMVectors.encapsulationCases()
    static let decapsulation = MLKEMVectors.decapsulationCases()
    static let encapsulationKeyCheck = MLKEMVectors.keyCheckCases(function: "encapsulationKeyCheck", field: "ek")
    static let decapsulationKeyCheck = MLKEMVectors.keyCheckCases(function: "decapsulationKeyCheck", field: "dk")

    @Test func filesAreNotEmpty() {
        #expect(Self.keyGen.count == 25)
        #expect(Self.encapsulation.count == 25)
        #expect(Self.decapsulation.count == 30)
        #expect(Self.decapsulation.filter { $0.keyFormat == .seed }.count == 10)
        #expect(Self.decapsulation.filter { !$0.valid }.count == 15)
        #expect(Self.encapsulationKeyCheck.count == 10)
        #expect(Self.encapsulationKeyCheck.filter { !$0.passes }.count == 5)
        #expect(Self.decapsulationKeyCheck.count == 10)
        #expect(Self.decapsulationKeyCheck.filter { !$0.passes }.count == 5)
    }

    /// ML-KEM.KeyGen_internal (FIPS 203 Algorithm 16): (d, z) → (ek, dk); both decode back.
    @Test(arguments: keyGen)
    func keyGenKnownAnswer(_ c: MLKEMVectors.KeyGenCase) throws {
        let key = try MLKEM768.PrivateKey(seed: c.d + c.z)
        #expect(key.publicKey.rawRepresentation == c.ek)
        #expect(key.expandedRepresentation == c.dk)
        #expect(key.seedRepresentation == c.d + c.z)
        let decoded = try MLKEM768.PrivateKey(expandedRepresentation: c.dk)
        #expect(decoded.publicKey == key.publicKey)
        #expect(decoded.expandedRepresentation == c.dk)
        #expect(decoded.seedRepresentation.isEmpty)
        #expect(try MLKEM768.PublicKey(rawRepresentation: c.ek) == key.publicKey)
    }

    /// ML-KEM.Encaps_internal (Algorithm 17) with the file's m; the file's dk recovers K.
    @Test(arguments: encapsulation)
    func encapsulationKnownAnswer(_ c: MLKEMVectors.EncapsulationCase) throws {
        let ek = try MLKEM768.PublicKey(rawRepresentation: c.ek)
        let result = try ek.encapsulate(randomness: c.m)
        #expect(result.ciphertext == c.c)
        #expect(result.sharedSecret == c.k)
        #expect(try MLKEM768.PrivateKey(expandedRepresentation: c.dk).decapsulate(c.c) == c.k)
    }

    /// ML-KEM.Decaps (Algorithms 18, 21). A modified ciphertext gives K̄ = J(z ‖ c), recomputed
    /// here with SHAKE256 from the z inside dk, and a valid one gives something else.
    @Test(arguments: decapsulation)
    func decapsulationKnownAnswer(_ c: MLKEMVectors.DecapsulationCase) throws {
        let key: MLKEM768.PrivateKey
        switch c.keyFormat {
        case .seed:
            key = try MLKEM768.PrivateKey(seed: c.seed)
            #expect(key.expandedRepresentation == c.dk)
        case .expanded:
            key = try MLKEM768.PrivateKey(expandedRepresentation: c.dk)
        }
        #expect(key.publicKey.rawRepresentation == c.ek)
        let k = try key.decapsulate(c.c)
        #expect(k == c.k)
        let z = Array(c.dk[2368..<2400])
        let rejection = SHAKE256.hash(z + c.c, outputByteCount: 32)
        #expect((k == rejection) == !c.valid)
    }

    /// FIPS 203 §7.2 modulus check on ek: accepted iff `testPassed`; rejected as `.invalidEncoding`.
    @Test(arguments: encapsulationKeyCheck)
    func encapsulationKeyCheckKnownAnswer(_ c: MLKEMVectors.KeyCheckCase) throws {
        if c.passes {
            #expect(try MLKEM768.PublicKey(rawRepresentation: c.key).rawRepresentation == c.key)
        } else {
            #expect(throws: CryptoError(.invalidEncoding, "")) { try MLKEM768.PublicKey(rawRepresentation: c.key) }
        }
    }

    /// FIPS 203 §7.3 hash check on dk: accepted iff `testPassed`; rejected as `.invalidEncoding`.
    @Test(arguments: decapsulationKeyCheck)
    func decapsulationKeyCheckKnownAnswer(_ c: MLKEMVectors.KeyCheckCase) throws {
        if c.passes {
            #expect(try MLKEM768.PrivateKey(expandedRepresentation: c.key).expandedRepresentation == c.key)
        } else {
            #expect(throws: CryptoError(.invalidEncoding, "")) { try MLKEM768.PrivateKey(expandedRepresentation: c.key) }
        }
    }
}

/// ML-KEM-768 against the pq-kat file (keygen, encapsulation, decapsulation, and ct_n / ss_n:
/// implicit rejection of an invalid ciphertext) and Go's accumulated test (FIPS 203 final).
struct MLKEM768KATTests {
    static let pqKAT = MLKEMVectors.pqKATCases()

    @Test func filesAreNotEmpty() throws {
        #expect(Self.pqKAT.count == 10)
        #expect(try MLKEMVectors.accumulatedTarget(100).count == 64)
        #expect(try MLKEMVectors.accumulatedTarget(10_000).count == 64)
    }

    @Test(arguments: pqKAT)
    func pqKnownAnswer(_ c: MLKEMVectors.PQKATCase) throws {
        let key = try MLKEM768.PrivateKey(seed: c.d + c.z)
        #expect(key.publicKey.rawRepresentation == c.pk)
        #expect(key.expandedRepresentation == c.sk)
        let result = try key.publicKey.encapsulate(randomness: c.msg)
        #expect(result.ciphertext == c.ct)
        #expect(result.sharedSecret == c.ss)
        #expect(try key.decapsulate(c.ct) == c.ss)
        // Implicit rejection: ct_n does not re-encrypt, so K̄ = J(z ‖ ct_n).
        #expect(try key.decapsulate(c.ctN) == c.ssN)
        #expect(SHAKE256.hash(c.z + c.ctN, outputByteCount: 32) == c.ssN)
    }

    /// accumulated-targets.json "ML-KEM-768", 100 iterations (`KnownAnswer.mlkem768Accumulated`).
    /// The 10,000-iteration target is checked on the release binary by `conformance kat`, which
    /// `.ci/run` runs.
    @Test func accumulated100() throws {
        #expect(try Hex.encode(KnownAnswer.mlkem768Accumulated(iterations: 100)) == MLKEMVectors.accumulatedTarget(100))
    }
}

/// The accumulated and iterated known-answer procedures, as the publishers state them, so that
/// both the test suite and a built binary (`conformance kat`) can check this crypto against the
/// published digests.
///
/// Why in the library: the long runs (10,000 ML-DSA-65 signatures, 1,000,000 X25519 ladders) take
/// minutes in a debug build and seconds in release, and the binary other teams download is a
/// release build: checking *that* binary's crypto is worth more than checking a debug build of
/// it. The targets themselves stay in `Tests/PrimitivesTests/KAT/` with their provenance; this
/// type only computes.
public enum KnownAnswer {
    /// A check inside a procedure failed (a signature that does not verify, a decapsulation that
    /// disagrees): the digest would be meaningless, so the procedure stops.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// C2SP/CCTV ML-DSA accumulated test (ML-DSA-65): seeds read from one SHAKE128 stream; each
    /// key's public key and its deterministic signature of the empty message are absorbed into a
    /// second SHAKE128, whose first 32 bytes are the result. Every signature must verify.
    public static func mldsa65Accumulated(iterations: Int) throws -> [UInt8] {
        var source = SHAKE128()
        var sink = SHAKE128()
        for i in 0..<iterations {
            let key = try MLDSA65.PrivateKey(seed: source.squeeze(32))
            sink.update(key.publicKey.rawRepresentation)
            let signature = try key.deterministicSignature(for: [UInt8]())
            sink.update(signature)
            guard key.publicKey.isValidSignature(signature, for: [UInt8]()) else {
                throw Failure(description: "ML-DSA-65 accumulated: signature \(i) does not verify")
            }
        }
        return sink.squeeze(32)
    }

    /// C2SP/CCTV ML-KEM accumulated test (ML-KEM-768, FIPS 203 final): from one SHAKE128 stream a
    /// 64-byte key seed, 32 bytes of encapsulation randomness and a random ciphertext; the
    /// encapsulation key, the ciphertext, the shared key and the implicit-rejection key of the
    /// random ciphertext are absorbed into a second SHAKE128. Decapsulation must agree.
    public static func mlkem768Accumulated(iterations: Int) throws -> [UInt8] {
        var source = SHAKE128()
        var sink = SHAKE128()
        for i in 0..<iterations {
            let key = try MLKEM768.PrivateKey(seed: source.squeeze(64))
            sink.update(key.publicKey.rawRepresentation)
            let result = try key.publicKey.encapsulate(randomness: source.squeeze(32))
            sink.update(result.ciphertext)
            sink.update(result.sharedSecret)
            guard try key.decapsulate(result.ciphertext) == result.sharedSecret else {
                throw Failure(description: "ML-KEM-768 accumulated: decapsulation \(i) disagrees with encapsulation")
            }
            sink.update(try key.decapsulate(source.squeeze(MLKEM768.ciphertextByteCount)))
        }
        return sink.squeeze(32)
    }

    /// RFC 7748 §5.2 iterated test: k = u = 9; repeat n times: (k, u) = (X25519(k, u), k); the
    /// result is k.
    public static func x25519Iterated(_ n: Int) throws -> [UInt8] {
        var k = X25519.basePoint, u = X25519.basePoint
        for _ in 0..<n {
            let r = try X25519.scalarMult(scalar: k, u: u)
            u = k
            k = r
        }
        return k
    }
}

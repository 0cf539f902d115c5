/// X-Wing, the hybrid KEM of ML-KEM-768 and X25519 (draft-connolly-cfrg-xwing-kem-10; the
/// construction and test vectors are unchanged since draft -05).
///
/// - Decapsulation key: a 32-byte seed sk. expandDecapsulationKey(sk) (draft §"Key generation"):
///   expanded = SHAKE256(sk, 96 bytes); (pk_M, sk_M) = ML-KEM-768.KeyGen_internal(expanded[0:32],
///   expanded[32:64]); sk_X = expanded[64:96]; pk_X = X25519(sk_X, 9).
/// - Encapsulation key: pk = pk_M ‖ pk_X, 1184 + 32 = 1216 bytes.
/// - Ciphertext: ct = ct_M ‖ ct_X, 1088 + 32 = 1120 bytes.
/// - Combiner (draft §"Combiner"): ss = SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ XWingLabel), with
///   XWingLabel = "\./" ‖ "/^\" = 5c2e2f2f5e5c, at the end (the whole input fits one block).
///
/// Checks, as the draft has them: encapsulation fails when pk_M fails the ML-KEM modulus check
/// (FIPS 203 §7.2; the draft: "Encapsulate() may raise an error"), here when the public key is
/// decoded; decapsulation never fails on a well-sized ciphertext (ML-KEM's implicit rejection);
/// the X25519 outputs are used unchecked, all-zero included — the draft's combiner hashes ss_X
/// with ct_X and pk_X and performs no RFC 7748 §6.1 check. Only wrong lengths throw.
///
/// Why the private key caches: the draft (§"Keeping expanded decapsulation key around") allows
/// keeping the expanded key; expansion is an ML-KEM key generation, so each `decapsulate` would
/// otherwise repeat it. The cached form is never serialized: `seedRepresentation` is the only
/// encoding, as the draft requires.
public enum XWing {
    public static let publicKeyByteCount = 1216
    public static let privateKeyByteCount = 32
    public static let ciphertextByteCount = 1120
    public static let sharedSecretByteCount = 32
    /// eseed of EncapsulateDerand: ML-KEM's m = eseed[0:32], the X25519 ephemeral ek_X = eseed[32:64].
    public static let encapsulationSeedByteCount = 64

    /// XWingLabel, the six ASCII bytes "\./" ‖ "/^\" (draft §"Combiner").
    public static let label: [UInt8] = [0x5c, 0x2e, 0x2f, 0x2f, 0x5e, 0x5c]

    /// An X-Wing encapsulation key pk_M ‖ pk_X.
    public struct PublicKey: Sendable, Hashable {
        /// pk, 1216 bytes, as given or generated.
        public let rawRepresentation: [UInt8]
        /// pk_M = pk[0:1184], modulus-checked.
        public let mlkemPublicKey: MLKEM768.PublicKey
        /// pk_X = pk[1184:1216].
        public let x25519PublicKey: X25519.PublicKey

        /// Splits and decodes pk: 1216 bytes (else `.invalidLength`) whose ML-KEM part passes the
        /// FIPS 203 §7.2 modulus check (else `.invalidEncoding`). The X25519 part is any 32 bytes.
        public init<C: Collection>(rawRepresentation: C) throws where C.Element == UInt8 {
            let bytes = Array(rawRepresentation)
            guard bytes.count == publicKeyByteCount else {
                throw CryptoError(.invalidLength, "X-Wing public key must be \(publicKeyByteCount) bytes, got \(bytes.count)")
            }
            self.init(encoded: bytes,
                      mlkem: try MLKEM768.PublicKey(rawRepresentation: bytes[0..<MLKEM768.publicKeyByteCount]),
                      x25519: try X25519.PublicKey(rawRepresentation: bytes[MLKEM768.publicKeyByteCount...]))
        }

        init(encoded: [UInt8], mlkem: MLKEM768.PublicKey, x25519: X25519.PublicKey) {
            rawRepresentation = encoded
            mlkemPublicKey = mlkem
            x25519PublicKey = x25519
        }

        public static func == (a: PublicKey, b: PublicKey) -> Bool { a.rawRepresentation == b.rawRepresentation }
        public func hash(into hasher: inout Hasher) { hasher.combine(rawRepresentation) }

        /// Encapsulate (draft §"Encapsulation"): EncapsulateDerand with 64 bytes from
        /// `SystemRandomNumberGenerator`.
        public func encapsulate() -> KEMEncapsulationResult {
            var rng = SystemRandomNumberGenerator()
            let eseed = (0..<encapsulationSeedByteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) }
            return encapsulateDerand(eseed)
        }

        /// EncapsulateDerand (draft §"Derandomized") with the given 64-byte eseed (else
        /// `.invalidLength`): deterministic, for known-answer tests and vector generation.
        /// Public because SPEC.md §14.2 names it, so the draft's test vectors drive the public API;
        /// outside a test, eseed must be fresh randomness (use `encapsulate()`).
        public func encapsulate<C: Collection>(seed eseed: C) throws -> KEMEncapsulationResult where C.Element == UInt8 {
            let bytes = Array(eseed)
            guard bytes.count == encapsulationSeedByteCount else {
                throw CryptoError(.invalidLength, "X-Wing eseed must be \(encapsulationSeedByteCount) bytes, got \(bytes.count)")
            }
            return encapsulateDerand(bytes)
        }

        /// ek_X = eseed[32:64]; ct_X = X25519(ek_X, 9); ss_X = X25519(ek_X, pk_X);
        /// (ss_M, ct_M) = ML-KEM-768.EncapsDerand(pk_M, eseed[0:32]); ct = ct_M ‖ ct_X.
        private func encapsulateDerand(_ eseed: [UInt8]) -> KEMEncapsulationResult {
            // Both conversions cannot fail: the lengths are fixed above.
            let ephemeral = try! X25519.PrivateKey(rawRepresentation: eseed[32..<64])
            let ctX = ephemeral.publicKey.rawRepresentation
            let ssX = ephemeral.sharedSecretUnchecked(with: x25519PublicKey)
            let m = try! mlkemPublicKey.encapsulate(randomness: eseed[0..<32])
            let ss = XWing.combine(ssM: m.sharedSecret, ssX: ssX, ctX: ctX, pkX: x25519PublicKey.rawRepresentation)
            return KEMEncapsulationResult(sharedSecret: ss, ciphertext: m.ciphertext + ctX)
        }
    }

    /// An X-Wing decapsulation key: the 32-byte seed sk, with its expansion cached.
    public struct PrivateKey: Sendable {
        let seed: [UInt8]
        /// sk_M, the ML-KEM-768 key from expanded[0:64].
        let mlkem: MLKEM768.PrivateKey
        /// sk_X = expanded[64:96].
        let x25519: X25519.PrivateKey
        public let publicKey: PublicKey

        /// GenerateKeyPairDerand(sk) (draft §"Key derivation"): sk must be 32 bytes (else
        /// `.invalidLength`); expandDecapsulationKey as in the type's documentation.
        public init<C: Collection>(seed: C) throws where C.Element == UInt8 {
            let sk = Array(seed)
            guard sk.count == privateKeyByteCount else {
                throw CryptoError(.invalidLength, "X-Wing private key (seed) must be \(privateKeyByteCount) bytes, got \(sk.count)")
            }
            self.init(validSeed: sk)
        }

        /// GenerateKeyPair: a seed of 32 bytes from `SystemRandomNumberGenerator`.
        public init() {
            var rng = SystemRandomNumberGenerator()
            self.init(validSeed: (0..<privateKeyByteCount).map { _ in UInt8.random(in: .min ... .max, using: &rng) })
        }

        private init(validSeed sk: [UInt8]) {
            let expanded = SHAKE256.hash(sk, outputByteCount: 96)
            let mlkem = try! MLKEM768.PrivateKey(seed: expanded[0..<64])
            let x25519 = try! X25519.PrivateKey(rawRepresentation: expanded[64..<96])
            seed = sk
            self.mlkem = mlkem
            self.x25519 = x25519
            publicKey = PublicKey(encoded: mlkem.publicKey.rawRepresentation + x25519.publicKey.rawRepresentation,
                                  mlkem: mlkem.publicKey, x25519: x25519.publicKey)
        }

        /// sk, the 32-byte seed: the draft's (only) serialization of the decapsulation key.
        public var seedRepresentation: [UInt8] { seed }

        /// Decapsulate (draft §"Decapsulation"): ct must be 1120 bytes (else `.invalidLength`);
        /// ss_M = ML-KEM-768.Decaps(sk_M, ct[0:1088]) with implicit rejection, ss_X =
        /// X25519(sk_X, ct[1088:1120]) unchecked, then the combiner. Never fails otherwise.
        public func decapsulate<C: Collection>(_ ciphertext: C) throws -> [UInt8] where C.Element == UInt8 {
            let ct = Array(ciphertext)
            guard ct.count == ciphertextByteCount else {
                throw CryptoError(.invalidLength, "X-Wing ciphertext must be \(ciphertextByteCount) bytes, got \(ct.count)")
            }
            let ctX = Array(ct[MLKEM768.ciphertextByteCount...])
            let ssM = try mlkem.decapsulate(ct[0..<MLKEM768.ciphertextByteCount])
            let ssX = x25519.sharedSecretUnchecked(with: try X25519.PublicKey(rawRepresentation: ctX))
            return XWing.combine(ssM: ssM, ssX: ssX, ctX: ctX, pkX: publicKey.x25519PublicKey.rawRepresentation)
        }
    }

    /// Combiner(ss_M, ss_X, ct_X, pk_X) = SHA3-256(ss_M ‖ ss_X ‖ ct_X ‖ pk_X ‖ XWingLabel)
    /// (draft §"Combiner"); each input is 32 bytes.
    package static func combine(ssM: [UInt8], ssX: [UInt8], ctX: [UInt8], pkX: [UInt8]) -> [UInt8] {
        var h = SHA3_256()
        h.update(ssM)
        h.update(ssX)
        h.update(ctX)
        h.update(pkX)
        h.update(label)
        return h.finalize()
    }
}

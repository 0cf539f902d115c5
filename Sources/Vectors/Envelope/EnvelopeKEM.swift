import Primitives

/// The KEM step of every box and envelope (SPEC.md §14.2): X-Wing, exactly as the draft has it.
///
/// The normal path calls `XWing`. The mutants that model stock KEM libraries (a combiner without
/// its label, an ML-KEM that raises an error instead of rejecting implicitly, an X25519 API that
/// refuses an all-zero output, an ML-KEM key reader that reduces instead of rejecting) rebuild
/// X-Wing from its components here, one seam, so the primitives stay as the standards define them.
/// With no mutant bound, the component path is never taken; `EnvelopeTests` checks that it agrees
/// with `XWing` byte for byte.
enum EnvelopeKEM {
    struct Encapsulation {
        var sharedSecret: [UInt8]
        var ciphertext: [UInt8]
    }

    static var componentPath: Bool {
        Mutant.on(.envelopeXWingNoLabel) || Mutant.on(.envelopeMLKEMExplicitRejection) || Mutant.on(.envelopeX25519ZeroCheck)
            || Mutant.on(.envelopeNoModulusCheck)
    }

    /// EncapsulateDerand(pk, eseed): `pk` must be an X-Wing public key whose ML-KEM part passes the
    /// FIPS 203 §7.2 modulus check (else `envelope_bad_recipient_key`); `eseed` is 64 bytes.
    static func encapsulate(publicKey pk: [UInt8], eseed: [UInt8]) throws(WireError) -> Encapsulation {
        if componentPath { return try componentEncapsulate(publicKey: pk, eseed: eseed) }
        let key: XWing.PublicKey
        do { key = try XWing.PublicKey(rawRepresentation: pk) } catch {
            throw WireError(.envelopeBadRecipientKey, "not an X-Wing public key: \(error)", field: "recipient_pubkey")
        }
        guard let e = try? key.encapsulate(seed: eseed) else {
            throw WireError(.inputBadLength, "an eseed is \(XWing.encapsulationSeedByteCount) bytes", field: "eseed")
        }
        return Encapsulation(sharedSecret: e.sharedSecret, ciphertext: e.ciphertext)
    }

    /// Decapsulate(sk, ct): `seed` is the 32-byte X-Wing private key, `ct` 1,120 bytes. Never fails
    /// on content (ML-KEM's implicit rejection; X25519 unchecked).
    static func decapsulate(seed: [UInt8], ciphertext ct: [UInt8]) throws(WireError) -> [UInt8] {
        if componentPath { return try componentDecapsulate(seed: seed, ciphertext: ct) }
        do { return try XWing.PrivateKey(seed: seed).decapsulate(ct) } catch {
            throw WireError(.inputBadLength, "X-Wing decapsulation: \(error)", field: "recipient_seed")
        }
    }

    /// The X-Wing public key of a 32-byte private seed.
    static func publicKey(seed: [UInt8]) throws(WireError) -> [UInt8] {
        do { return try XWing.PrivateKey(seed: seed).publicKey.rawRepresentation } catch {
            throw WireError(.inputBadLength, "an X-Wing private key is a 32-byte seed", field: "seed")
        }
    }

    // MARK: - X-Wing from its components (mutants only)

    static func combine(ssM: [UInt8], ssX: [UInt8], ctX: [UInt8], pkX: [UInt8]) -> [UInt8] {
        if Mutant.on(.envelopeXWingNoLabel) {
            var h = SHA3_256()
            h.update(ssM); h.update(ssX); h.update(ctX); h.update(pkX)
            return h.finalize()
        }
        return XWing.combine(ssM: ssM, ssX: ssX, ctX: ctX, pkX: pkX)
    }

    static func componentEncapsulate(publicKey pk: [UInt8], eseed: [UInt8]) throws(WireError) -> Encapsulation {
        guard pk.count == XWing.publicKeyByteCount else {
            throw WireError(.envelopeBadRecipientKey, "an X-Wing public key is 1216 bytes", field: "recipient_pubkey")
        }
        guard eseed.count == XWing.encapsulationSeedByteCount else {
            throw WireError(.inputBadLength, "an eseed is 64 bytes", field: "eseed")
        }
        var pkMBytes = Array(pk[0..<MLKEM768.publicKeyByteCount])
        if Mutant.on(.envelopeNoModulusCheck) { pkMBytes = reducedModQ(pkMBytes) }
        let pkX = Array(pk[MLKEM768.publicKeyByteCount...])
        guard let pkM = try? MLKEM768.PublicKey(rawRepresentation: pkMBytes), let pkXKey = try? X25519.PublicKey(rawRepresentation: pkX),
              let ephemeral = try? X25519.PrivateKey(rawRepresentation: eseed[32..<64]),
              let m = try? pkM.encapsulate(randomness: eseed[0..<32]) else {
            throw WireError(.envelopeBadRecipientKey, "the ML-KEM part fails the modulus check", field: "recipient_pubkey")
        }
        let ctX = ephemeral.publicKey.rawRepresentation
        let ssX: [UInt8]
        if Mutant.on(.envelopeX25519ZeroCheck) {
            guard let s = try? ephemeral.sharedSecret(with: pkXKey) else {
                throw WireError(.envelopeBadRecipientKey, "X25519 output is all zero", field: "recipient_pubkey")
            }
            ssX = s
        } else {
            ssX = ephemeral.sharedSecretUnchecked(with: pkXKey)
        }
        return Encapsulation(sharedSecret: combine(ssM: m.sharedSecret, ssX: ssX, ctX: ctX, pkX: pkX), ciphertext: m.ciphertext + ctX)
    }

    static func componentDecapsulate(seed: [UInt8], ciphertext ct: [UInt8]) throws(WireError) -> [UInt8] {
        guard seed.count == XWing.privateKeyByteCount, ct.count == XWing.ciphertextByteCount else {
            throw WireError(.inputBadLength, "X-Wing seed 32 bytes, ciphertext 1120 bytes", field: "recipient_seed")
        }
        let expanded = SHAKE256.hash(seed, outputByteCount: 96)
        let ctM = Array(ct[0..<MLKEM768.ciphertextByteCount]), ctX = Array(ct[MLKEM768.ciphertextByteCount...])
        guard let skM = try? MLKEM768.PrivateKey(seed: expanded[0..<64]), let skX = try? X25519.PrivateKey(rawRepresentation: expanded[64..<96]),
              let ctXKey = try? X25519.PublicKey(rawRepresentation: ctX), let ssM = try? skM.decapsulate(ctM) else {
            throw WireError(.inputBadLength, "X-Wing key expansion failed", field: "recipient_seed")
        }
        if Mutant.on(.envelopeMLKEMExplicitRejection) {
            // An implementation that reports re-encryption failure: K̄ = J(z ‖ c) came out.
            let z = Array(expanded[32..<64])
            if ssM == SHAKE256.hash(z + ctM, outputByteCount: 32) {
                throw WireError(.envelopeOpenFailed, "ML-KEM decapsulation failed (explicit rejection)")
            }
        }
        let ssX: [UInt8]
        if Mutant.on(.envelopeX25519ZeroCheck) {
            guard let s = try? skX.sharedSecret(with: ctXKey) else { throw WireError(.envelopeOpenFailed, "X25519 output is all zero") }
            ssX = s
        } else {
            ssX = skX.sharedSecretUnchecked(with: ctXKey)
        }
        return combine(ssM: ssM, ssX: ssX, ctX: ctX, pkX: skX.publicKey.rawRepresentation)
    }

    /// ByteDecode12 then ByteEncode12 of every coefficient mod q (FIPS 203 Algorithms 5 and 6):
    /// what a reader that reduces instead of checking (§7.2) uses as the key.
    static func reducedModQ(_ ek: [UInt8]) -> [UInt8] {
        var out = ek
        let polyBytes = 3 * 384  // 1152: t̂ as 768 12-bit coefficients; ρ follows
        var i = 0
        while i < polyBytes {
            let a = UInt16(ek[i]) | (UInt16(ek[i + 1] & 0x0f) << 8)
            let b = UInt16(ek[i + 1] >> 4) | (UInt16(ek[i + 2]) << 4)
            let ra = a % 3329, rb = b % 3329
            out[i] = UInt8(ra & 0xff)
            out[i + 1] = UInt8(ra >> 8) | UInt8((rb & 0x0f) << 4)
            out[i + 2] = UInt8(rb >> 4)
            i += 3
        }
        return out
    }
}

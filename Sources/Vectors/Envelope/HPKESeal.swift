import Primitives

/// HPKE base mode, single shot (RFC 9180 §6.1), with the suite of SPEC.md §14.2: X-Wing
/// (0x647A), HKDF-SHA256 (0x0001), AES-256-GCM (0x0002). One context seals one message, so the
/// nonce is the base nonce. The DiscoveryBox and the sealed-sender envelope differ only in the
/// `info` and the header they pass as AAD.
enum HPKESeal {
    static let suiteID = HPKE.xwingAES256GCM

    struct Sealed {
        var enc: [UInt8]
        var sharedSecret: [UInt8]
        var key: [UInt8]
        var nonce: [UInt8]
        /// AES-256-GCM ciphertext ‖ tag.
        var ciphertext: [UInt8]
    }

    /// SetupBaseS(pkR, info) with EncapsulateDerand(pkR, eseed), then Seal(aad, plaintext).
    static func seal(recipient pk: [UInt8], info: [UInt8], aad: [UInt8], plaintext: [UInt8], eseed: [UInt8]) throws(WireError) -> Sealed {
        let e = try EnvelopeKEM.encapsulate(publicKey: pk, eseed: eseed)
        let ctx = HPKE.keySchedule(suiteID: suiteID, sharedSecret: e.sharedSecret, info: info)
        let nonce = HPKE.nonce(ctx, sequence: 0)
        guard let sealed = try? AES256GCM.seal(plaintext, key: ctx.key, nonce: nonce, authenticating: Mutant.on(.envelopeAADOmitted) ? [] : aad) else {
            throw WireError(.inputBadValue, "AES-256-GCM refused the plaintext", field: "plaintext")
        }
        return Sealed(enc: e.ciphertext, sharedSecret: e.sharedSecret, key: ctx.key, nonce: nonce, ciphertext: sealed.ciphertext + sealed.tag)
    }

    /// SetupBaseR(enc, skR, info), then Open(aad, ciphertext ‖ tag): nil when the tag does not verify.
    /// `ciphertext` holds at least the 16-byte tag (the layouts check that first).
    static func open(seed: [UInt8], enc: [UInt8], info: [UInt8], aad: [UInt8], ciphertext: [UInt8]) throws(WireError) -> [UInt8]? {
        let ss = try EnvelopeKEM.decapsulate(seed: seed, ciphertext: enc)
        let ctx = HPKE.keySchedule(suiteID: suiteID, sharedSecret: ss, info: info)
        let split = ciphertext.count - AES256GCM.tagByteCount
        return try? AES256GCM.open(ciphertext: Array(ciphertext[..<split]), tag: Array(ciphertext[split...]), key: ctx.key,
                                   nonce: HPKE.nonce(ctx, sequence: 0), authenticating: Mutant.on(.envelopeAADOmitted) ? [] : aad)
    }
}

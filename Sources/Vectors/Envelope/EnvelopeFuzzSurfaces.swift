import Primitives

/// The envelope family under the fuzzer (§9, §14). The sealed layers are fuzzed as the network
/// gives them, with the vectors' fixture keys, so every check made before authentication is
/// reachable (the layout, the KEM ciphertext's length, the wake byte); what lies under the AEAD
/// and the MAC is fuzzed as its own layer (the inner plaintext, the SenderCert), where SPEC makes
/// the encoding canonical and so each decoded value must encode back to its bytes.
enum EnvelopeFuzzSurfaces {
    static func seed(_ label: String) -> [UInt8] { EnvelopeFixtures.seed("pixie.vectors.envelope." + label) }

    /// The receiver of the vectors' `envelope_open/valid/sync-offer` case: the new device of
    /// account A, its sibling channel from the fixture account seed, account B as a contact.
    static let openContext: [(String, JSONValue)] = {
        let credentialKey = (try? CredentialKey.Signer(ed25519Seed: seed("credential.ed25519"), mldsaSeed: seed("credential.mldsa65")).publicKeyBytes) ?? []
        return [
            ("recipient_seed", .string(Hex.encode(seed("new-device")))),
            ("credential_key", .string(Hex.encode(credentialKey))),
            ("now_s", .number(String(EnvelopeFixtures.base + 600))),
            ("own_user_id_hash", .string(Hex.encode(seed("account-a")))),
            ("account_seed", .string(Hex.encode(seed("account-seed")))),
            ("contacts", .array([.object([("user_id_hash", .string(Hex.encode(seed("account-b")))),
                                          ("channel_key", .string(Hex.encode(seed("contact-b-key"))))])])),
        ]
    }()

    static let all: [FuzzSurface] = [
        .decodeOps("discovery_box", "box_open: a DiscoveryBox of either direction is refused with §9 codes, never a trap",
                   handler: EnvelopeHandler(), [
                       FuzzDecodeOp("box_open", .hex("box"), context: [("recipient_seed", .string(Hex.encode(seed("discovery")))), ("direction", .string("request"))]),
                       FuzzDecodeOp("box_open", .hex("box"), context: [("recipient_seed", .string(Hex.encode(seed("discovery")))), ("direction", .string("reply"))]),
                   ]),
        .decodeOps("sealed_envelope", "envelope_open: a sealed-sender envelope is refused with §14 codes, never a trap",
                   handler: EnvelopeHandler(), [FuzzDecodeOp("envelope_open", .hex("envelope"), context: openContext)]),
        .canonical("sender_cert", "SenderCert decode: what decodes re-encodes to the same deterministic CBOR", format: "envelope",
                   seedOps: ["sender_cert_decode", "sender_cert_verify"], seed: FuzzSurface.hexMember("cert")) { b throws(WireError) in
            try SenderCert.decode(b).encoded
        },
        .canonical("envelope_inner", "the §14.7 inner plaintext: what decodes re-encodes to the same deterministic CBOR", format: "envelope",
                   extraSeeds: {
                       let cert = [UInt8](repeating: 0xa5, count: 40)
                       let macKey = seed("account-seed")
                       let parts: [(String, [UInt8], [UInt8])] = [("sync_offer", [], cert), ("message", [0x01, 0x02], cert), ("x", [UInt8](repeating: 0x41, count: 300), [])]
                       return parts.map { p in
                           EnvelopeInner(payloadType: p.0, payload: p.1, senderCert: p.2,
                                         mac: EnvelopeInner.mac(key: macKey, payloadType: p.0, payload: p.1, senderCert: p.2)).encoded
                       }
                   }) { b throws(WireError) in
            try EnvelopeInner.decode(b).encoded
        },
    ]
}

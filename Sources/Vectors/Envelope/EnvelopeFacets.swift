import Primitives

/// The limits and check orders of §14 as facets, and the cases derived from them (issue 23). The
/// orders of sealing and opening the sealed-sender envelope (R14.7-3, R14.7-4, R14.7-6) build each
/// case's envelope from a model of its faults, sealed afresh; the op inputs' order (R14.10-1) is
/// measured by the input axis.
enum EnvelopeFacets {
    static let format = "envelope"

    static let boxLength = LimitFacet(rule: "R14.3-5", format: format, quantity: "the byte length of a DiscoveryBox given to `box_open`",
                                      bound: "1,139", side: .min, inclusive: true, effect: .refuse(.envelopeTruncated))
    static let certExpiry = LimitFacet(rule: "R14.6-6", format: format, quantity: "`now_s` against the SenderCert's `expires_at_s`",
                                       bound: "expires_at_s", side: .max, inclusive: false, effect: .refuse(.envelopeSenderCertExpired))
    static let payloadTypeShortest = LimitFacet(rule: "R14.7-3", name: "shortest", format: format,
                                                quantity: "the UTF-8 byte length of `payload_type`", bound: "1–64", side: .min,
                                                inclusive: true, effect: .refuse(.envelopeBadLength))
    static let payloadTypeLongest = LimitFacet(rule: "R14.7-3", name: "longest", format: format,
                                               quantity: "the UTF-8 byte length of `payload_type`", bound: "1–64", side: .max,
                                               inclusive: true, effect: .refuse(.envelopeBadLength))

    static let limits = [boxLength, certExpiry, payloadTypeShortest, payloadTypeLongest]

    static let boxOrder = OrderFacet(rule: "R14.3-3", format: format, checks: [
        .init("kind", .envelopeWrongKind), .init("kem-length", .envelopeKEMCiphertextLength),
        .init("truncated", .envelopeTruncated), .init("tag", .envelopeOpenFailed),
    ])
    static let verifyOrder = OrderFacet(rule: "R14.6-5", format: format, checks: [
        .init("decode", .envelopeSenderCertMalformed), .init("signature", .envelopeSenderCertBothInvalid),
        .init("expiry", .envelopeSenderCertExpired),
    ])

    /// R14.6-4, `sender_cert_decode`: §1, the keys, the names, then members 1–4 in table order.
    static let certDecodeOrder = OrderFacet(rule: "R14.6-4", format: format, checks: [
        .init("cbor", .cborTrailingBytes), .init("map-keys", .envelopeBadType), .init("names", .envelopeUnknownField),
        .init("user-id-hash", .envelopeMissingField), .init("sig", .envelopeBadLength),
    ])
    /// R14.7-3, `envelope_seal`: the channel key, the payload type, the recipient key.
    static let sealOrder = OrderFacet(rule: "R14.7-3", format: format, checks: [
        .init("channel", .envelopeUnknownAccount), .init("payload-type", .envelopeBadLength), .init("recipient-key", .envelopeBadRecipientKey),
    ])
    /// R14.7-4, `envelope_open`: its seven steps, one fault each.
    static let openOrder = OrderFacet(rule: "R14.7-4", format: format, checks: [
        .init("layout", .envelopeWrongKind), .init("seal", .envelopeOpenFailed), .init("inner", .envelopeUnknownField),
        .init("cert", .envelopeSenderCertExpired), .init("resolve", .envelopeUnknownAccount), .init("mac", .envelopeMACInvalid),
        .init("wake", .envelopeWrongWakeClass),
    ])
    /// R14.7-6, the inner plaintext: §1, the keys, the names, members 1–3 in table order, `mac`.
    static let innerOrder = OrderFacet(rule: "R14.7-6", format: format, checks: [
        .init("cbor", .cborTrailingBytes), .init("map-keys", .envelopeBadType), .init("names", .envelopeUnknownField),
        .init("payload-type", .envelopeMissingField), .init("mac", .envelopeMACMissing),
    ])

    static let orders = [boxOrder, verifyOrder, certDecodeOrder, sealOrder, openOrder, innerOrder]

    /// Resolution when the other party's hash is both this account's and a contact's (R14.5-2).
    static let tieBreaks = [
        TieBreakFacet(rule: "R14.5-2", format: format, tie: "a contact entry that happens to name the same hash is never used",
                      decides: "this account's own hash always resolves to the sibling channel key", others: [.envelopeContactKeyForOwnAccount]),
    ]

    static let all: [Facet] = limits.map(Facet.limit) + orders.map(Facet.order) + tieBreaks.map(Facet.tieBreak)

    /// Rules of §14 that read like a bound but state none, and the order rules not faceted yet.
    static let boundless: [String: String] = [
        "R14.2-4": "the modulus check's `≥ q` and the key's byte counts are FIPS 203's and §14.2's fixed sizes, pinned by the KEM cases (box_seal/kem)",
        "R14.3-1": "a box's size is its plaintext's plus 1,139: a layout, not a bound",
        "R14.5-2": "the 32 bytes of a user-id hash are §2.2's fixed-size input (R14.10-2's cases)",
        "R14.5-3": "as R14.5-2",
        "R14.6-3": "the key's byte counts are a fixed layout read by §2.2 (envelope/sender_cert_verify/input/credential-key-1983-bytes)",
        "R14.6-7": "the 32 bytes name the Ed25519 half of the key, not a bound",
        "R14.7-1": "the info's 22 bytes are its length, not a bound",
        "R14.7-5": "NOT YET FACETED: the layout's byte positions (fewer than 4 bytes) are pinned by envelope_open/layout cases without facet flags",
        "R14.7-7": "the MAC's 32 bytes are compared whole (envelope_open/mac cases); a length bound on `mac` is R14.7-6's member check",
    ]

    static let declared = FormatFacets(format: format, section: "14", facets: all, boundless: boundless,
                                       measuredElsewhere: ["R14.10-1": .inputBeforeRules])
}

// MARK: - derived cases

extension EnvelopeFacets {
    static func builder() -> FacetCaseBuilder { FacetCaseBuilder(EnvelopeHandler()) }

    /// The eseed of every derived case: fixed, and not drawn from the generator's random stream,
    /// so adding these cases moves no byte of an existing one.
    static let eseed = EnvelopeFixtures.seed("pixie.vectors.envelope.facets.1") + EnvelopeFixtures.seed("pixie.vectors.envelope.facets.2")

    static func cases(_ f: EnvelopeFixtures) throws -> [VectorCase] {
        var b = builder()
        // The box: a one-byte plaintext to the discovery key, 1,140 bytes.
        let box = try DiscoveryBox.sealedBytes([0x2a], to: f.discovery.pub, direction: .request, eseed: eseed)
        func open(_ bytes: [UInt8]) -> CBOR { EnvelopeVectors.boxOpenInput(f.discovery.seed, "request", bytes) }
        try b.limit(boxLength, op: "box_open", slug: "box-length", comment: "a one-byte-plaintext box cut to 1,138 and 1,139 bytes, and whole (1,140)") { d in
            open(Array(box.prefix(DiscoveryBox.overhead + d)))
        }
        let cert = f.siblingCert
        func verify(_ c: [UInt8], key: [UInt8], now: UInt64) -> CBOR {
            .object([("cert", .bytes(c)), ("credential_key", .bytes(key)), ("now_s", .unsigned(now))])
        }
        try b.limit(certExpiry, op: "sender_cert_verify", slug: "cert-expiry", comment: "a genuine SenderCert verified 1 s before, at and 1 s after its expires_at_s") { d in
            verify(cert.encoded, key: f.credentialKey, now: d < 0 ? cert.expiresAt - 1 : cert.expiresAt + UInt64(d))
        }
        func seal(_ type: String) -> CBOR {
            EnvelopeVectors.sealInput(pk: f.sibling.pub, recipient: f.hashA, type: type, payload: [0x01], cert: f.newDeviceCert.encoded,
                                      own: f.hashA, accountSeed: f.accountSeed, contacts: [(hash: f.hashB, key: f.contactKeyB)], eseed: eseed)
        }
        try b.limit(payloadTypeShortest, op: "envelope_seal", slug: "payload-type-shortest", comment: "a payload_type of 0, 1 and 2 bytes") { d in
            seal(String(repeating: "t", count: 1 + d))
        }
        try b.limit(payloadTypeLongest, op: "envelope_seal", slug: "payload-type-longest", comment: "a payload_type of 63, 64 and 65 bytes") { d in
            seal(String(repeating: "t", count: 64 + d))
        }
        try b.limitExtra(payloadTypeLongest, op: "envelope_seal", slug: "payload-type-longest", label: "multibyte-at",
                         comment: "a payload_type of 32 two-byte characters: 32 characters, 64 UTF-8 bytes (at the bound, accepted)",
                         wantInside: true, input: seal(String(repeating: "é", count: 32)))
        try b.limitExtra(payloadTypeLongest, op: "envelope_seal", slug: "payload-type-longest", label: "multibyte-above",
                         comment: "a payload_type of 33 two-byte characters: 33 characters (under 64), 66 UTF-8 bytes (refused: the bound counts bytes)",
                         wantInside: false, input: seal(String(repeating: "é", count: 33)))

        func bytesAt(_ t: CBOR, _ key: String) -> [UInt8] { if case .bytes(let v)? = t[key] { return v } else { return [] } }
        func withBox(_ edit: @escaping ([UInt8]) -> [UInt8]) -> (CBOR) -> CBOR {
            { t in open(edit(bytesAt(t, "box"))) }
        }
        try b.order(boxOrder, op: "box_open", slug: "box", comment: "a one-byte-plaintext box", base: open(box), faults: [
            withBox { var v = $0; v[0] = SealedSenderEnvelope.kind; return v },
            withBox { var v = $0; v[2] = 0x40; return v },
            withBox { Array($0.prefix(DiscoveryBox.overhead - 1)) },
            withBox { EnvelopeFixtures.flip($0, at: $0.count - 1) },
        ])
        try b.order(verifyOrder, op: "sender_cert_verify", slug: "verify", comment: "a genuine SenderCert",
                    base: verify(cert.encoded, key: f.credentialKey, now: f.now), faults: [
                        { t in EnvelopeVectors.replacing(t, "cert", .bytes(bytesAt(t, "cert") + [0x00])) },
                        { t in EnvelopeVectors.replacing(t, "credential_key", .bytes(f.otherCredentialKey)) },
                        { t in EnvelopeVectors.replacing(t, "now_s", .unsigned(cert.expiresAt)) },
                    ])
        try orderCases(&b, f)
        return b.cases
    }

    /// A map with one more entry, keyed by the unsigned integer 0 (a key that is not text).
    static func withIntegerKey(_ t: CBOR) -> CBOR {
        guard case .map(let e) = t else { return t }
        return .map(e + [CBORMapEntry(key: .unsigned(0), value: .unsigned(0))])
    }

    static func orderCases(_ b: inout FacetCaseBuilder, _ f: EnvelopeFixtures) throws {
        func derive(_ o: OrderFacet, op: String, slug: String, comment: String, _ input: @escaping (FaultSet) throws -> CBOR) throws {
            try b.order(o, op: op, slug: slug, comment: comment, input: input)
        }
        typealias V = EnvelopeVectors

        // R14.6-4: the sibling's certificate as read back, one edit per fault.
        let cert = try CBORReader.decode(f.siblingCert.encoded)
        try derive(certDecodeOrder, op: "sender_cert_decode", slug: "cert",
                   comment: "the sibling's SenderCert; a byte after it, an integer key 0, a member zz, no user_id_hash, a sig of 3,372 bytes") { m in
            var t = cert
            if m.has("map-keys") { t = withIntegerKey(t) }
            if m.has("names") { t = t.replacingMember("zz", .unsigned(1)) }
            if m.has("user-id-hash") { t = t.replacingMember("user_id_hash", nil) }
            if m.has("sig"), case .bytes(let sig)? = t["sig"] { t = t.replacingMember("sig", .bytes(Array(sig.dropLast()))) }
            return .object([("cert", .bytes(CBORWriter.encode(t) + (m.has("cbor") ? [0x00] : [])))])
        }

        // R14.7-3: the new device seals a one-byte sync_offer to its sibling.
        let badKey = V.keyWithCoefficient(f.sibling.pub, index: 0, value: 3329)
        try derive(sealOrder, op: "envelope_seal", slug: "seal",
                   comment: "a sync_offer to the sibling; addressed to account B with no contacts, a payload_type of 65 bytes, a recipient key failing the modulus check") { m in
            V.sealInput(pk: m.has("recipient-key") ? badKey : f.sibling.pub, recipient: m.has("channel") ? f.hashB : f.hashA,
                        type: m.has("payload-type") ? String(repeating: "t", count: 65) : "sync_offer", payload: [0x01], cert: f.newDeviceCert.encoded,
                        own: f.hashA, accountSeed: f.accountSeed, contacts: m.has("channel") ? [] : [(hash: f.hashB, key: f.contactKeyB)], eseed: eseed)
        }

        // R14.7-4 and R14.7-6: the sibling's one-byte sync_offer to the new device, sealed afresh
        // from the faults' inner plaintext and header.
        func opened(_ m: FaultSet, inner: (CBOR) -> [UInt8]) throws -> CBOR {
            let sender = m.has("resolve") ? f.accountBCert : f.siblingCert
            var tree = V.innerTree(type: "sync_offer", payload: [0x01], cert: sender.encoded, macKey: m.has("mac") ? f.contactKeyB : f.siblingKey)
            if m.has("inner") { tree = tree.replacingMember("zz", .unsigned(1)) }
            var env = try V.rawEnvelope(inner: inner(tree), header: V.envelopeHeader(wake: m.has("wake") ? 1 : 0), to: f.newDevice.pub, eseed: eseed)
            if m.has("seal") { env = EnvelopeFixtures.flip(env, at: env.count - 1) }
            if m.has("layout") { env[0] = 0x03 }
            return V.receiveInput(env, seed: f.newDevice.seed, key: f.credentialKey, now: .unsigned(m.has("cert") ? sender.expiresAt : f.now),
                                  own: f.hashA, accountSeed: f.accountSeed, contacts: m.has("resolve") ? [] : [(hash: f.hashB, key: f.contactKeyB)])
        }
        try derive(openOrder, op: "envelope_open", slug: "open",
                   comment: "the sibling's sync_offer to the new device; byte 0 03, the tag flipped, an inner member zz, now at the certificate's expiry, the sender account B with no contacts, the MAC under another key, wake sync") { m in
            try opened(m) { CBORWriter.encode($0) }
        }
        try derive(innerOrder, op: "envelope_open", slug: "inner",
                   comment: "the sibling's sync_offer to the new device, sealed correctly around an inner plaintext with a byte after it, an integer key 0, a member zz, no payload_type, no mac") { m in
            try opened(FaultSet()) { good in
                var t = good
                if m.has("map-keys") { t = withIntegerKey(t) }
                if m.has("names") { t = t.replacingMember("zz", .unsigned(1)) }
                if m.has("payload-type") { t = t.replacingMember("payload_type", nil) }
                if m.has("mac") { t = t.replacingMember("mac", nil) }
                return CBORWriter.encode(t) + (m.has("cbor") ? [0x00] : [])
            }
        }
    }
}

extension EnvelopeVectors {
    /// The map with one member's value replaced, keeping the member order.
    static func replacing(_ t: CBOR, _ key: String, _ v: CBOR) -> CBOR {
        guard case .map(var entries) = t, let i = entries.firstIndex(where: { $0.key == .text(key) }) else { return t }
        entries[i].value = v
        return .map(entries)
    }
}

import Primitives

/// The plaintext inside a sealed-sender envelope (SPEC.md §14.7): the payload, its type, the
/// sender's SenderCert and the MAC under the channel key.
///
///     CBOR map { payload_type: tstr (1–64 UTF-8 bytes), payload: bstr, sender_cert: bstr, mac: bstr[32] }
///     mac = HMAC-SHA256(channel_key, "pixie-inner-mac-v1" ‖ 00 ‖ CBOR({payload_type, payload, sender_cert}))
struct EnvelopeInner: Sendable, Hashable {
    static let macDomain = "pixie-inner-mac-v1"
    static let payloadTypeUTF8Length = 1...64
    static let macByteCount = 32
    static let members = ["payload_type", "payload", "sender_cert", "mac"]

    var payloadType: String
    var payload: [UInt8]
    var senderCert: [UInt8]
    /// nil only in a malformed plaintext (the vectors' "MAC missing"), or under the fail-open mutant.
    var mac: [UInt8]?

    static func macInput(payloadType: String, payload: [UInt8], senderCert: [UInt8]) -> [UInt8] {
        if Mutant.on(.envelopeMACOverPayloadOnly) { return Array(macDomain.utf8) + [0] + payload }
        return Array(macDomain.utf8) + [0]
            + CBORWriter.encode(.object([("payload_type", .text(payloadType)), ("payload", .bytes(payload)), ("sender_cert", .bytes(senderCert))]))
    }

    static func mac(key: [UInt8], payloadType: String, payload: [UInt8], senderCert: [UInt8]) -> [UInt8] {
        HMACSHA256.authenticationCode(for: macInput(payloadType: payloadType, payload: payload, senderCert: senderCert), key: key)
    }

    var macInput: [UInt8] { Self.macInput(payloadType: payloadType, payload: payload, senderCert: senderCert) }

    var tree: CBOR {
        var m: [(String, CBOR)] = [("payload_type", .text(payloadType)), ("payload", .bytes(payload)), ("sender_cert", .bytes(senderCert))]
        if let mac { m.append(("mac", .bytes(mac))) }
        return .object(m)
    }

    var encoded: [UInt8] { CBORWriter.encode(tree) }

    /// R14.7-6 (order): §1, a map with text keys, no unknown member, then payload_type, payload,
    /// sender_cert, and last the mac: absent `envelope_mac_missing`.
    static func decode(_ bytes: [UInt8]) throws(WireError) -> EnvelopeInner {
        let r = try EnvelopeMapReader(bytes, allowed: members)
        let type = try r.text("payload_type", utf8Length: payloadTypeUTF8Length)
        let payload = try r.bytes("payload")
        let cert = try r.bytes("sender_cert")
        guard let macValue = r.value("mac") else {
            if Mutant.on(.envelopeMACSkippedWithoutKey) { return EnvelopeInner(payloadType: type, payload: payload, senderCert: cert, mac: nil) }
            throw WireError(.envelopeMACMissing, "the inner plaintext carries no mac", field: "mac")
        }
        let mac = try EnvelopeMapReader.bytes(macValue, "mac", length: Mutant.on(.envelopeMACLengthNotChecked) ? nil : macByteCount)
        return EnvelopeInner(payloadType: type, payload: payload, senderCert: cert, mac: mac)
    }

    /// Constant time over the full 32 bytes. The mutant compares only the bytes received.
    func macMatches(_ expected: [UInt8]) -> Bool {
        guard let mac else { return false }
        if Mutant.on(.envelopeMACLengthNotChecked) {
            return !mac.isEmpty && mac.count <= expected.count && ConstantTime.equal(mac, expected.prefix(mac.count))
        }
        return ConstantTime.equal(mac, expected)
    }
}

/// HPKE (RFC 9180) base mode, single shot, with HKDF-SHA256 as the KDF: the key schedule of §5.1
/// and the labeled HKDF of §4, for any KEM whose shared secret is 32 bytes and any AEAD with a
/// 32-byte key and a 12-byte nonce (AES-256-GCM, ChaCha20-Poly1305).
///
/// Only the key schedule lives here. The KEM (X-Wing, `XWing`) and the AEAD (`AES256GCM`) are
/// called by the user of the context, so each step can be checked on its own against the published
/// vectors (draft-ietf-hpke-pq's test-vectors.json gives shared_secret, key, base_nonce and
/// exporter_secret for the X-Wing suites).
///
/// The single-shot API seals exactly one message per context, so its nonce is the base nonce
/// (sequence number 0: `base_nonce XOR I2OSP(0, Nn)`, RFC 9180 §5.2).
public enum HPKE {
    /// mode_base (RFC 9180 §5, Table 1).
    public static let modeBase: UInt8 = 0x00
    /// kem_id of X-Wing in the IANA HPKE registry (draft-connolly-cfrg-xwing-kem; RFC 9180 §7.1
    /// registry entry 0x647A).
    public static let kemXWing: UInt16 = 0x647a
    /// kdf_id of HKDF-SHA256 (RFC 9180 §7.2).
    public static let kdfHKDFSHA256: UInt16 = 0x0001
    /// aead_id of AES-256-GCM (RFC 9180 §7.3).
    public static let aeadAES256GCM: UInt16 = 0x0002
    /// aead_id of ChaCha20-Poly1305 (RFC 9180 §7.3); same key and nonce sizes as AES-256-GCM.
    public static let aeadChaCha20Poly1305: UInt16 = 0x0003

    /// Nk, Nn, Nh for the AEADs and KDF above.
    public static let keyByteCount = 32
    public static let nonceByteCount = 12
    public static let hashByteCount = 32

    /// suite_id = "HPKE" ‖ I2OSP(kem_id, 2) ‖ I2OSP(kdf_id, 2) ‖ I2OSP(aead_id, 2) (RFC 9180 §5.1).
    public static func suiteID(kem: UInt16, kdf: UInt16 = kdfHKDFSHA256, aead: UInt16) -> [UInt8] {
        Array("HPKE".utf8) + i2osp2(kem) + i2osp2(kdf) + i2osp2(aead)
    }

    /// The suite this project seals with: X-Wing, HKDF-SHA256, AES-256-GCM.
    public static let xwingAES256GCM = suiteID(kem: kemXWing, aead: aeadAES256GCM)

    /// What the key schedule gives a base-mode context.
    public struct Context: Sendable, Hashable {
        public let key: [UInt8]
        public let baseNonce: [UInt8]
        public let exporterSecret: [UInt8]

        public init(key: [UInt8], baseNonce: [UInt8], exporterSecret: [UInt8]) {
            self.key = key
            self.baseNonce = baseNonce
            self.exporterSecret = exporterSecret
        }
    }

    /// LabeledExtract(salt, label, ikm) = Extract(salt, "HPKE-v1" ‖ suite_id ‖ label ‖ ikm) (§4).
    package static func labeledExtract(suiteID: [UInt8], salt: [UInt8], label: String, ikm: [UInt8]) -> [UInt8] {
        HKDFSHA256.extract(salt: salt, inputKeyMaterial: Array("HPKE-v1".utf8) + suiteID + Array(label.utf8) + ikm)
    }

    /// LabeledExpand(prk, label, info, L) = Expand(prk, I2OSP(L, 2) ‖ "HPKE-v1" ‖ suite_id ‖ label ‖ info, L) (§4).
    package static func labeledExpand(suiteID: [UInt8], prk: [UInt8], label: String, info: [UInt8], length: Int) -> [UInt8] {
        let labeledInfo = i2osp2(UInt16(length)) + Array("HPKE-v1".utf8) + suiteID + Array(label.utf8) + info
        // The PRK is an Extract output (32 bytes) and L ≤ 32, so Expand cannot fail.
        return try! HKDFSHA256.expand(pseudoRandomKey: prk, info: labeledInfo, outputByteCount: length)
    }

    /// KeySchedule(mode_base, shared_secret, info, psk = "", psk_id = "") (RFC 9180 §5.1):
    ///
    ///     psk_id_hash = LabeledExtract("", "psk_id_hash", "")
    ///     info_hash   = LabeledExtract("", "info_hash", info)
    ///     context     = mode ‖ psk_id_hash ‖ info_hash
    ///     secret      = LabeledExtract(shared_secret, "secret", "")
    ///     key         = LabeledExpand(secret, "key", context, Nk)
    ///     base_nonce  = LabeledExpand(secret, "base_nonce", context, Nn)
    ///     exporter    = LabeledExpand(secret, "exp", context, Nh)
    ///
    /// `keyByteCount` is the AEAD's Nk: 32 for AES-256-GCM and ChaCha20-Poly1305 (16 only for
    /// AES-128-GCM, which the published vectors use and this package does not implement).
    public static func keySchedule(suiteID: [UInt8], sharedSecret: [UInt8], info: [UInt8], keyByteCount nk: Int = keyByteCount) -> Context {
        let pskIDHash = labeledExtract(suiteID: suiteID, salt: [], label: "psk_id_hash", ikm: [])
        let infoHash = labeledExtract(suiteID: suiteID, salt: [], label: "info_hash", ikm: info)
        let context = [modeBase] + pskIDHash + infoHash
        let secret = labeledExtract(suiteID: suiteID, salt: sharedSecret, label: "secret", ikm: [])
        return Context(key: labeledExpand(suiteID: suiteID, prk: secret, label: "key", info: context, length: nk),
                       baseNonce: labeledExpand(suiteID: suiteID, prk: secret, label: "base_nonce", info: context, length: nonceByteCount),
                       exporterSecret: labeledExpand(suiteID: suiteID, prk: secret, label: "exp", info: context, length: hashByteCount))
    }

    /// The nonce of message `sequence` (§5.2): base_nonce XOR I2OSP(sequence, Nn).
    public static func nonce(_ context: Context, sequence: UInt64) -> [UInt8] {
        var n = context.baseNonce
        for i in 0..<8 { n[nonceByteCount - 1 - i] ^= UInt8(truncatingIfNeeded: sequence >> (8 * UInt64(i))) }
        return n
    }

    static func i2osp2(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }
}

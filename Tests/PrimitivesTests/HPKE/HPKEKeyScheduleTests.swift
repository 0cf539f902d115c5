import Foundation
import Primitives
import Testing

/// HPKE base mode (RFC 9180 §5.1) against draft-ietf-hpke-pq's published vectors: the two suites
/// with HKDF-SHA256, ML-KEM-768 (kem 0x0041) and X-Wing (kem 0x647A). Each step is checked on its
/// own: the key pair from skRm, the encapsulation from ikmE, the decapsulation, the suite id and
/// the key schedule's key, base nonce and exporter secret.
struct HPKEKeyScheduleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let kem: UInt16, kdf: UInt16, aead: UInt16
        let info: [UInt8], ikmE: [UInt8], skRm: [UInt8], pkRm: [UInt8], enc: [UInt8], sharedSecret: [UInt8]
        let suiteID: [UInt8], key: [UInt8], baseNonce: [UInt8], exporterSecret: [UInt8]
        var testDescription: String { String(format: "kem 0x%04x kdf %d aead %d", kem, kdf, aead) }
    }

    static let cases: [Case] = {
        guard let data = try? KATFile.data("hpke/hpke-pq-test-vectors.kdf1.json"),
              let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]] else { return [] }
        return list.compactMap { t in
            func b(_ k: String) -> [UInt8]? { (t[k] as? String).flatMap(Hex.decode) }
            func n(_ k: String) -> UInt16? { (t[k] as? Int).map(UInt16.init) }
            guard t["mode"] as? Int == 0, let kem = n("kem_id"), let kdf = n("kdf_id"), let aead = n("aead_id"),
                  let info = b("info"), let ikmE = b("ikmE"), let skRm = b("skRm"), let pkRm = b("pkRm"), let enc = b("enc"),
                  let ss = b("shared_secret"), let suite = b("suite_id"), let key = b("key"), let nonce = b("base_nonce"),
                  let exp = b("exporter_secret") else { return nil }
            return Case(kem: kem, kdf: kdf, aead: aead, info: info, ikmE: ikmE, skRm: skRm, pkRm: pkRm, enc: enc, sharedSecret: ss,
                        suiteID: suite, key: key, baseNonce: nonce, exporterSecret: exp)
        }
    }()

    @Test func fileIsNotEmpty() {
        #expect(Self.cases.count == 2)
        #expect(Set(Self.cases.map(\.kem)) == [0x0041, HPKE.kemXWing])
    }

    @Test(arguments: cases)
    func knownAnswer(_ c: Case) throws {
        #expect(HPKE.suiteID(kem: c.kem, kdf: c.kdf, aead: c.aead) == c.suiteID)
        let ss: [UInt8]
        switch c.kem {
        case HPKE.kemXWing:
            let sk = try XWing.PrivateKey(seed: c.skRm)
            #expect(sk.publicKey.rawRepresentation == c.pkRm)
            let e = try XWing.PublicKey(rawRepresentation: c.pkRm).encapsulate(seed: c.ikmE)
            #expect(e.ciphertext == c.enc)
            ss = e.sharedSecret
            #expect(try sk.decapsulate(c.enc) == c.sharedSecret)
        default:
            let sk = try MLKEM768.PrivateKey(seed: c.skRm)
            #expect(sk.publicKey.rawRepresentation == c.pkRm)
            let e = try MLKEM768.PublicKey(rawRepresentation: c.pkRm).encapsulate(randomness: c.ikmE)
            #expect(e.ciphertext == c.enc)
            ss = e.sharedSecret
            #expect(try sk.decapsulate(c.enc) == c.sharedSecret)
        }
        #expect(ss == c.sharedSecret)
        let ctx = HPKE.keySchedule(suiteID: c.suiteID, sharedSecret: c.sharedSecret, info: c.info, keyByteCount: c.aead == 1 ? 16 : 32)
        #expect(ctx.key == c.key)
        #expect(ctx.baseNonce == c.baseNonce)
        #expect(ctx.exporterSecret == c.exporterSecret)
        #expect(HPKE.nonce(ctx, sequence: 0) == c.baseNonce)
    }

    /// RFC 9180 §5.2: nonce(seq) = base_nonce XOR I2OSP(seq, Nn); the published vectors' second and
    /// fifth encryptions use sequence 1 and 4 (…cbf4 → …cbf5, …cbf0).
    @Test func nonceSequence() throws {
        let ctx = HPKE.Context(key: [], baseNonce: Hex.decode("dc98846a2b5076c91461cbf4")!, exporterSecret: [])
        #expect(HPKE.nonce(ctx, sequence: 1) == Hex.decode("dc98846a2b5076c91461cbf5")!)
        #expect(HPKE.nonce(ctx, sequence: 4) == Hex.decode("dc98846a2b5076c91461cbf0")!)
        #expect(HPKE.nonce(ctx, sequence: 0x0102) == Hex.decode("dc98846a2b5076c91461caf6")!)
    }
}

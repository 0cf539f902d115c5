import Foundation
import Primitives
import Vectors

/// `signin` (SPEC §8): certificates issued by phone-verify keys the fuzzer holds, so it can also
/// sign them with the Ed25519 and ML-DSA-65 signatures hurried verifiers get wrong (§9.1, §9.2);
/// ladders with pinned keys right, wrong or absent, own certificates of the same or another
/// number, and clocks at the certificate's expiry and at the ±120 s window's edges (and where
/// signed 64-bit arithmetic wraps); requests, acks, lookups and approvals as inputs and as CBOR.
struct SignInFuzzGenerator: FuzzGenerator {
    var format: String { "signin" }
    var ops: [String] {
        ["phone_id", "cert_issue", "cert_encode", "cert_decode", "cert_verify", "lookup_encode", "lookup_decode",
         "request_encode", "request_decode", "ladder", "ack_encode", "ack_decode", "approval_encode", "approval_decode",
         "approval_admits"]
    }

    /// The suite's clock in seconds.
    static let now0: UInt64 = 1_767_225_600

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        switch op {
        case "phone_id":
            let n = rng.pick(["+15555550100", "+447700900123", "15555550100", "+1 555 555 0100", "+１５５５", "+", "", "+123456789012345",
                              "+1234567890123456", "+0", "+1555555010a", "\u{FF0B}15555550100", "+15555550100\n"])
            return .obj([("e164", .str(n))])
        case "cert_issue":
            let (ed, ml) = (rng.bytes(32), rng.bytes(32))
            let (i, e) = Self.times(&rng)
            return .obj([("signer", .obj([("ed25519_seed", AdversarialValues.hex(ed, &rng)), ("mldsa_seed", AdversarialValues.hex(ml, &rng))])),
                         ("phone_id", AdversarialValues.hex(rng.bytes(32), &rng)), ("issued_at_s", .u(i)), ("expires_at_s", .u(e))])
        case "cert_encode":
            let (i, e) = Self.times(&rng)
            return .obj([("phone_id", AdversarialValues.hex(rng.bytes(rng.percent(90) ? 32 : 31), &rng)), ("issued_at_s", .u(i)), ("expires_at_s", .u(e)),
                         ("sig", AdversarialValues.hex(rng.bytes(rng.percent(90) ? HybridSignature.byteCount : rng.pick([0, 64, 3372, 3374])), &rng))])
        case "cert_decode":
            return .obj([("cert", AdversarialValues.hex(Self.slot(&rng).cert, &rng))])
        case "cert_verify":
            let s = Self.slot(&rng)
            return .obj([("cert", AdversarialValues.hex(s.cert, &rng)), ("pinned_key", Self.pinned(s, &rng)), ("now_s", .u(Self.now(around: s, &rng)))])
        case "lookup_encode":
            return Self.lookup(&rng)
        case "lookup_decode":
            return .obj([("encoded", FuzzReference.output("signin", "lookup_encode", Self.lookup(&rng))?["encoded"] ?? .str(""))])
        case "request_encode":
            return Self.request(Self.slot(&rng), timestamp: Self.now0 + UInt64(rng.below(1000)), &rng)
        case "request_decode":
            let r = Self.request(Self.slot(&rng), timestamp: Self.now0 + UInt64(rng.below(1000)), &rng)
            return .obj([("encoded", FuzzReference.output("signin", "request_encode", r)?["encoded"] ?? .str(""))])
        case "ladder":
            return Self.ladder(&rng)
        case "ack_encode":
            return .obj([("device_family", .str(rng.percent(60) ? rng.pick(["iPhone", "iPad", "Mac", "Android"]) : AdversarialValues.text(&rng)))])
        case "ack_decode":
            let a = JSONValue.obj([("device_family", .str(rng.percent(60) ? rng.pick(["iPhone", "iPad"]) : AdversarialValues.text(&rng)))])
            return .obj([("encoded", FuzzReference.output("signin", "ack_encode", a)?["encoded"] ?? .str(""))])
        case "approval_encode":
            return Self.approval(&rng).0
        case "approval_decode":
            return .obj([("encoded", FuzzReference.output("signin", "approval_encode", Self.approval(&rng).0)?["encoded"] ?? .str(""))])
        case "approval_admits":
            let (a, expires) = Self.approval(&rng)
            let encoded = FuzzReference.output("signin", "approval_encode", a)?["encoded"] ?? .str("")
            let now = rng.percent(85) ? expires &+ UInt64(bitPattern: Int64(rng.pick([-181, -180, -1, 0, 0, 1, 2, -100]))) : AdversarialValues.unsigned(&rng)
            return .obj([("approval", encoded), ("now_s", .u(now))])
        default:
            return .obj([])
        }
    }

    /// issued_at_s and expires_at_s: ordinary, equal, reversed, or at the 64-bit edge.
    static func times(_ rng: inout FuzzRNG) -> (UInt64, UInt64) {
        let issued = now0 - UInt64(rng.below(86_400))
        switch rng.below(8) {
        case 0: return (issued, issued)
        case 1: return (issued, issued - 1)
        case 2: return (rng.pick(AdversarialValues.unsignedEdges), rng.pick(AdversarialValues.unsignedEdges))
        default: return (issued, issued + UInt64(rng.pick([60, 3_600, 86_400, 31_536_000])))
        }
    }

    static func lookup(_ rng: inout FuzzRNG) -> JSONValue {
        .obj([("discovery_inbox", AdversarialValues.hex(rng.bytes(rng.percent(90) ? 32 : 33), &rng)),
              ("discovery_xwing_pubkey", AdversarialValues.hex(rng.bytes(rng.percent(90) ? 1216 : 1215), &rng))])
    }

    /// request_encode's input for a certificate.
    static func request(_ s: CertSlot, timestamp: UInt64, _ rng: inout FuzzRNG) -> JSONValue {
        let model = rng.percent(50) ? rng.pick(["iPhone17,1", "iPad14,2", "Pixel 9"]) : AdversarialValues.text(&rng)
        return .obj([("device_model", .str(model)), ("reply_subject", AdversarialValues.hex(rng.bytes(32), &rng)),
                     ("xwing_pubkey", AdversarialValues.hex(rng.bytes(1216), &rng)), ("timestamp_s", .u(timestamp)),
                     ("cert", AdversarialValues.hex(s.cert, &rng))])
    }

    /// A ladder: a request carrying a certificate, a pinned key, this device's own certificate and a
    /// clock, each mostly right and at a boundary when not.
    static func ladder(_ rng: inout FuzzRNG) -> JSONValue {
        let s = slot(&rng)
        let now = now(around: s, &rng)
        let ts: UInt64
        switch rng.below(10) {
        case 0: ts = rng.pick([UInt64.max, 1 << 63, (1 << 63) - 1, (1 << 63) + 1, 0, now &+ (1 << 63)])
        case 1: ts = Self.wrappingTimestamp(now: now, &rng)
        case 2, 3, 4: ts = now &+ UInt64(bitPattern: Int64(rng.pick([-121, -120, -119, -1, 0, 1, 119, 120, 121])))
        default: ts = now &+ UInt64(bitPattern: Int64(rng.int(-200...200)))
        }
        let request = FuzzReference.output("signin", "request_encode", Self.request(s, timestamp: ts, &rng))?["encoded"] ?? .str("")
        let own: JSONValue
        switch rng.below(8) {
        case 0: own = .null
        case 1: own = AdversarialValues.hex(rng.bytes(rng.pick([0, 3, 40])), &rng)
        case 2, 3: own = AdversarialValues.hex(Self.slot(&rng).cert, &rng)
        default: own = AdversarialValues.hex(Self.fixtures.sameNumber(as: s, &rng).cert, &rng)
        }
        return .obj([("request", request), ("pinned_key", pinned(s, &rng)), ("own_cert", own), ("now_s", .u(now))])
    }

    /// A timestamp at least 2^63 away from `now` (ahead of it, or behind it when `now` is that
    /// large), so `now − timestamp` in signed 64-bit arithmetic wraps to the other sign. Targets
    /// rung 5 written as one signed subtraction (SPEC §8: the ±120 s window is computed without
    /// leaving the unsigned 64-bit range).
    static func wrappingTimestamp(now: UInt64, _ rng: inout FuzzRNG) -> UInt64 {
        let k = UInt64(rng.pick([1, 2, 121, 1_000, 1 << 20]))
        if now >= 1 << 63 { return now &- (1 << 63) &- k }
        return rng.oneIn(3) ? UInt64.max &- UInt64(rng.below(3)) : now &+ (1 << 63) &+ k
    }

    /// The key a certificate verifies under, another signer's, or none.
    static func pinned(_ s: CertSlot, _ rng: inout FuzzRNG) -> JSONValue {
        switch rng.below(10) {
        case 0: return .null
        case 1: return .hex(fixtures.signer(rng.below(3)).pinned)
        default: return AdversarialValues.hex(s.pinned, &rng)
        }
    }

    /// A clock near the certificate's expiry, its issue time, or anywhere.
    static func now(around s: CertSlot, _ rng: inout FuzzRNG) -> UInt64 {
        switch rng.below(6) {
        case 0, 1: return s.expires &+ UInt64(bitPattern: Int64(rng.pick([-1, 0, 1, -120, 120])))
        case 2: return s.issued &+ UInt64(bitPattern: Int64(rng.pick([-1, 0, 1])))
        case 3: return rng.pick(AdversarialValues.unsignedEdges)
        default: return s.issued &+ UInt64(rng.below(Int(max(1, min(s.expires &- s.issued, 1 << 20)))))
        }
    }

    /// approval_encode's input (a grant, or all null) and the grant's expiry.
    static func approval(_ rng: inout FuzzRNG) -> (JSONValue, UInt64) {
        let expires = rng.percent(80) ? now0 + UInt64(rng.below(10_000)) : rng.pick(AdversarialValues.unsignedEdges)
        if rng.oneIn(6) { return (.obj([("grant", .null), ("account_seed", .null), ("kt_handle", .null)]), expires) }
        var m: [(String, JSONValue)] = [("grant", .obj([("token", AdversarialValues.hex(rng.bytes(32), &rng)), ("expires_at_s", .u(expires))])),
                                        ("account_seed", AdversarialValues.hex(rng.bytes(32), &rng)), ("kt_handle", AdversarialValues.hex(rng.bytes(32), &rng))]
        if rng.oneIn(8) { m[rng.below(3)].1 = .null }
        return (.object(m), expires)
    }

    // MARK: - certificates the fuzzer signs

    struct Signer: Sendable {
        var ed25519Seed: [UInt8]
        var mldsaKey: MLDSA65.PrivateKey
        var pinned: [UInt8]
    }

    struct CertSlot: Sendable {
        var cert: [UInt8]
        var pinned: [UInt8]
        var phone: Int
        var issued: UInt64
        var expires: UInt64
    }

    static let fixtures = Fixtures()

    /// A certificate from the pool: 64 slots built on first use from fixed seeds (so the same
    /// slot is the same certificate in every run); a third carry an edge signature.
    static func slot(_ rng: inout FuzzRNG) -> CertSlot { fixtures.slot(rng.below(Fixtures.slotCount)) }

    final class Fixtures: @unchecked Sendable {
        static let slotCount = 64
        static let phones = ["+15555550100", "+15555550101", "+447700900123"]
        private let lock = NSLock()
        private var signers: [Int: Signer] = [:]
        private var slots: [Int: CertSlot] = [:]
        private var phoneIDs: [[UInt8]] = []

        func signer(_ i: Int) -> Signer {
            lock.lock()
            if let s = signers[i] { lock.unlock(); return s }
            lock.unlock()
            let ed = SHA256.hash(Array("pixie.fuzz.signin.ed25519.\(i)".utf8)).bytes
            let ml = SHA256.hash(Array("pixie.fuzz.signin.mldsa.\(i)".utf8)).bytes
            let key = try! MLDSA65.PrivateKey(seed: ml)
            let edPub = (try! Ed25519.PrivateKey(seed: ed)).publicKey.rawRepresentation
            let s = Signer(ed25519Seed: ed, mldsaKey: key, pinned: edPub + key.publicKey.rawRepresentation)
            lock.lock()
            signers[i] = s
            lock.unlock()
            return s
        }

        func phoneID(_ i: Int) -> [UInt8] {
            lock.lock()
            if phoneIDs.isEmpty { phoneIDs = Self.phones.map { (try? PhoneID.derive(e164: $0)) ?? [UInt8](repeating: 0, count: 32) } }
            defer { lock.unlock() }
            return phoneIDs[i]
        }

        func sameNumber(as s: CertSlot, _ rng: inout FuzzRNG) -> CertSlot {
            let candidates = (0..<Self.slotCount).filter { $0 % 3 == s.phone }
            return slot(rng.pick(candidates))
        }

        func slot(_ j: Int) -> CertSlot {
            lock.lock()
            if let s = slots[j] { lock.unlock(); return s }
            lock.unlock()
            let s = build(j)
            lock.lock()
            slots[j] = s
            lock.unlock()
            return s
        }

        private func build(_ j: Int) -> CertSlot {
            var rng = FuzzRNG(seed: 0x5161_6e1e ^ UInt64(j))
            let signer = signer(j % 3 == 2 && j % 5 == 0 ? 1 : j % 3)
            let phone = j % 3
            let issued = SignInFuzzGenerator.now0 - UInt64(rng.below(3_600))
            let expires = rng.oneIn(4) ? SignInFuzzGenerator.now0 + UInt64(rng.pick([0, 1, 60])) : issued + UInt64(rng.pick([600, 3_600, 86_400]))
            let base: JSONValue = .obj([("phone_id", .hex(phoneID(phone))), ("issued_at_s", .u(issued)), ("expires_at_s", .u(expires))])
            let dummy = [UInt8](repeating: 0, count: HybridSignature.byteCount)
            guard let msgHex = FuzzReference.output("signin", "cert_encode", base.setting("sig", .hex(dummy)))?["signed_message"]?.stringValue,
                  let message = Hex.decode(msgHex) else { return CertSlot(cert: [], pinned: signer.pinned, phone: phone, issued: issued, expires: expires) }
            // Slots 0–39 genuine; 40–63 one edge class each (Ed25519, then ML-DSA-65).
            var edClass = AdversarialSigner.Ed25519Class.genuine
            var mlClass = AdversarialSigner.MLDSAClass.genuine
            if j >= 40 {
                let k = j - 40
                let eds = AdversarialSigner.Ed25519Class.allCases.filter { $0 != .genuine }
                let mls = AdversarialSigner.MLDSAClass.allCases.filter { $0 != .genuine }
                if k < eds.count { edClass = eds[k] } else { mlClass = mls[(k - eds.count) % mls.count] }
            }
            let realEd = Array(signer.pinned.prefix(32))
            let edKey = AdversarialSigner.publicKey(edClass, real: realEd)
            let sig = AdversarialSigner.ed25519(edClass, seed: signer.ed25519Seed, message: message)
                + AdversarialSigner.mldsa(mlClass, key: signer.mldsaKey, message: message)
            let cert = FuzzReference.output("signin", "cert_encode", base.setting("sig", .hex(sig)))?["cert"]?.stringValue.flatMap(Hex.decode)
                ?? FuzzReference.output("signin", "cert_encode", base.setting("sig", .hex(dummy)))?["cert"]?.stringValue.flatMap(Hex.decode) ?? []
            return CertSlot(cert: cert, pinned: edKey + Array(signer.pinned.dropFirst(32)), phone: phone, issued: issued, expires: expires)
        }
    }
}

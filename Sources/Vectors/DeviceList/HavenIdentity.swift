import Foundation
import Primitives

/// An identity derived from a 32-byte master seed the way Haven's `Identity::from_seed` does
/// (SPEC.md §10.1): every sub-key is HKDF-SHA256(salt "haven-identity-v1", IKM seed, info, L).
///
/// The Ed25519 seed, the ML-DSA-65 seed ξ and the X25519 private key are Haven's exactly, so node
/// ids, every signature and bundle bytes 0–63 are byte-compatible with it. The ML-KEM-768 key is a
/// real one (FIPS 203 key generation, so every coefficient is below q and Haven's `ml-kem` round
/// trip leaves the bundle unchanged), but from this suite's own sub-seed d ‖ z: Haven draws d and z
/// from a ChaCha20 generator seeded with `sub("ml-kem-768", 32)`, which Primitives does not have
/// (SPEC §10.8 item 6).
public struct HavenIdentity: Sendable {
    public static let salt = Array("haven-identity-v1".utf8)
    public static let ed25519Info = Array("ed25519".utf8)
    public static let mldsaInfo = Array("ml-dsa-65".utf8)
    /// Haven's own label: its output is the X25519 private key, and only X25519(k, 9) is published.
    public static let x25519Info = Array("x25519".utf8)
    /// This suite's label (not Haven's `ml-kem-768`, whose output Haven uses as a ChaCha20 key):
    /// 64 bytes, d then z, the ML-KEM-768 seed format of FIPS 203 §7.1.
    public static let mlkemInfo = Array("pixie-vectors-ml-kem-768-seed".utf8)

    public let seed: [UInt8]
    public let ed25519Seed: [UInt8]
    public let mldsaSeed: [UInt8]
    public let signingKey: HybridSignature.PrivateKey
    public let bundle: PublicBundle

    /// The identity of `seed`, derived once: the derivation is a pure function of the seed, and
    /// `serve` and the fuzzer derive the same few identities thousands of times (an ML-DSA-65
    /// key generation each, most of a device_list case's cost).
    public init(seed: [UInt8]) throws(WireError) {
        guard seed.count == 32 else { throw WireError(.inputBadLength, "a master seed is 32 bytes, got \(seed.count)", field: "seed") }
        if let known = IdentityMemo.shared.get(seed) {
            self = known
            return
        }
        try self.init(deriving: seed)
        IdentityMemo.shared.put(seed, self)
    }

    private init(deriving seed: [UInt8]) throws(WireError) {
        self.seed = seed
        func sub(_ info: [UInt8], _ n: Int) -> [UInt8] {
            // 32 bytes of IKM, n ≤ 64 ≤ 8,160: HKDF cannot fail on these.
            (try? HKDFSHA256.deriveKey(inputKeyMaterial: seed, salt: Self.salt, info: info, outputByteCount: n)) ?? []
        }
        ed25519Seed = sub(Self.ed25519Info, 32)
        mldsaSeed = sub(Self.mldsaInfo, 32)
        guard let key = try? HybridSignature.PrivateKey(ed25519Seed: ed25519Seed, mldsaSeed: mldsaSeed) else {
            throw WireError(.inputBadValue, "key generation failed", field: "seed")
        }
        signingKey = key
        let pub = key.publicKey
        // RFC 7748 X25519(k, 9), k clamped: x25519-dalek's `PublicKey::from(&StaticSecret)`.
        // FIPS 203 ML-KEM.KeyGen_internal(d, z) (Algorithm 16); ek depends on d alone.
        guard let x = try? X25519.PrivateKey(rawRepresentation: sub(Self.x25519Info, 32)),
              let kem = try? MLKEM768.PrivateKey(seed: sub(Self.mlkemInfo, MLKEM768.seedByteCount)) else {
            throw WireError(.inputBadValue, "key generation failed", field: "seed")
        }
        let raw = pub.ed25519.rawRepresentation + x.publicKey.rawRepresentation
            + kem.publicKey.rawRepresentation + pub.mldsa.rawRepresentation
        bundle = try PublicBundle(raw)
    }

    /// The account / device id: the Ed25519 public key.
    public var nodeID: DeviceID { bundle.nodeID }

    /// Ed25519(message) ‖ ML-DSA-65 deterministic(message, ctx ""): 3,373 bytes.
    public func sign(_ message: [UInt8]) -> [UInt8] { signingKey.signature(for: message) }
}

/// A bounded memo of derived identities (at most 256; cleared whole when full, which keeps it
/// simple and is rare: vector and fuzz inputs reuse a handful of seeds).
final class IdentityMemo: @unchecked Sendable {
    static let shared = IdentityMemo()
    private let lock = NSLock()
    private var table: [[UInt8]: HavenIdentity] = [:]

    func get(_ seed: [UInt8]) -> HavenIdentity? { lock.withLock { table[seed] } }

    func put(_ seed: [UInt8], _ identity: HavenIdentity) {
        lock.withLock {
            if table.count >= 256 { table.removeAll(keepingCapacity: true) }
            table[seed] = identity
        }
    }
}

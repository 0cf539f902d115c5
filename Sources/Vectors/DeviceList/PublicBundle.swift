import Primitives

/// A Haven public identity bundle (SPEC.md §10.1): Ed25519 public key (32) ‖ X25519 public key (32)
/// ‖ ML-KEM-768 encapsulation key (1,184) ‖ ML-DSA-65 verification key (1,952) = 3,200 bytes.
///
/// The Ed25519 part must decode (it is the node id and half of the hybrid verification key), which
/// is what the Haven decoder checks too. The X25519 part is kept as given (Haven's x25519-dalek
/// takes any 32 bytes and writes them back unchanged); the ML-KEM part is kept as Haven writes it
/// back, every coefficient mod q (SPEC.md §10.1 [R10.1-7]), so the bytes a credential signs, its
/// wire and a decoded `device_bundle` are Haven's for any input, canonical or not.
public struct PublicBundle: Sendable, Equatable {
    public static let ed25519Range = 0..<32
    public static let x25519Range = 32..<64
    public static let mlkemRange = 64..<1248
    public static let mldsaRange = 1248..<3200
    public static let byteCount = 3200

    /// The bundle as Haven's `HavenId::to_bytes` writes it: the given bytes with the ML-KEM key
    /// re-encoded (equal to the given bytes exactly when that key is canonical).
    public let bytes: [UInt8]
    public let verificationKey: HybridSignature.PublicKey

    /// Parses a bundle: exactly 3,200 bytes and an Ed25519 part that decodes as a point under
    /// SPEC.md §9.1 [R9.1-3] (aliases such as y ≥ p accepted, as Haven's ed25519-dalek does),
    /// else `device_list_bad_bundle`; then re-encodes the ML-KEM part as Haven does [R10.1-7].
    public init(_ bytes: [UInt8], field: String = "bundle", offset: Int? = nil) throws(WireError) {
        guard bytes.count == Self.byteCount else {
            throw WireError(.deviceListBadBundle, "a public bundle is \(Self.byteCount) bytes, got \(bytes.count)", offset: offset, field: field)
        }
        guard let ed = SignatureRules.parseEd25519Key(bytes[Self.ed25519Range], format: "device_list") else {
            throw WireError(.deviceListBadBundle, "the bundle's Ed25519 key is not a valid point encoding", offset: offset, field: field)
        }
        guard let pq = try? MLDSA65.PublicKey(rawRepresentation: bytes[Self.mldsaRange]) else {
            throw WireError(.deviceListBadBundle, "the bundle's ML-DSA-65 key does not parse", offset: offset, field: field)
        }
        guard let kem = DeviceListSeams.mlkemKey(bytes[Self.mlkemRange]) else {
            throw WireError(.deviceListBadBundle, "the bundle's ML-KEM-768 key fails the modulus check (a coefficient is ≥ q)", offset: offset.map { $0 + Self.mlkemRange.lowerBound }, field: field)
        }
        var kept = bytes
        kept.replaceSubrange(Self.mlkemRange, with: kem)
        self.bytes = kept
        self.verificationKey = HybridSignature.PublicKey(ed25519: ed, mldsa: pq)
    }

    /// The node id: the Ed25519 public key.
    public var nodeID: DeviceID { DeviceID(unchecked: Array(bytes[Self.ed25519Range])) }

    public static func == (a: PublicBundle, b: PublicBundle) -> Bool { a.bytes == b.bytes }

    /// Checks a hybrid signature in Haven's order (`HavenId::verify`, SPEC.md §10.1): 64 bytes or
    /// fewer is a wrong length; then the Ed25519 half, and a failure there is reported without
    /// looking at the rest; then the ML-DSA-65 part's length (3,309 bytes); then the ML-DSA-65
    /// half. Never `device_list_sig_both_invalid`: Haven stops at the first failing half.
    func verify(_ signature: [UInt8], for message: [UInt8], field: String) throws(WireError) {
        let edCount = Ed25519.signatureByteCount
        if let order = DeviceListSeams.hybridOrderOverride {
            return try order(verificationKey, signature, message, field)
        }
        guard signature.count > edCount else {
            throw WireError(.deviceListSigWrongLength, "a hybrid signature is \(HybridSignature.byteCount) bytes, got \(signature.count)", field: field)
        }
        // Each half under SPEC §9's rules, through the one seam where stock-library mutants switch.
        guard verificationKey.ed25519.isValidSignature(signature[0..<edCount], for: message, rule: SignatureRules.ed25519("device_list")) else {
            throw WireError(.deviceListSigEd25519Invalid, "the Ed25519 half does not verify", field: field)
        }
        guard signature.count == HybridSignature.byteCount else {
            throw WireError(.deviceListSigWrongLength, "the ML-DSA-65 part is \(MLDSA65.signatureByteCount) bytes, got \(signature.count - edCount)", field: field)
        }
        if Mutant.on(.listEd25519HalfOnly) { return }
        guard verificationKey.mldsa.isValidSignature(Array(signature[edCount...]), for: message, context: [], rule: SignatureRules.mldsa("device_list")) else {
            throw WireError(.deviceListSigMLDSAInvalid, "the ML-DSA-65 half does not verify", field: field)
        }
    }
}

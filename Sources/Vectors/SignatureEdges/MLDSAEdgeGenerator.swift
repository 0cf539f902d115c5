import Primitives

/// Builds `MLDSAEdge` material from a genuine deterministic signature by byte surgery on its
/// encoding (FIPS 204 Algorithm 26: c̃ ‖ z ‖ h, with h = ω position bytes then k cumulative
/// counts), or, for `zOutOfRange`, by the signer with its z test inverted, or, for the two
/// `…-same-hints` count classes, from a valid signature with a polynomial without hints. Every item is checked
/// against the reference verifier: FIPS 204 rejects it, and a verifier skipping the one check the
/// class names accepts it where the class allows (`lenientAcceptor`).
enum MLDSAEdgeGenerator {
    static let cTildeBytes = 48
    static let hintOffset = 48 + 5 * 640
    static let omega = 55
    static let k = 6

    static func counts(_ s: [UInt8]) -> [Int] { (0..<k).map { Int(s[hintOffset + omega + $0]) } }

    /// The verifier that accepts items of `c` when they are built from a genuine signature, if
    /// one does; nil when every verifier rejects the class.
    static func lenientAcceptor(_ c: MLDSAEdgeClass) -> LenientMLDSAVerifier? {
        switch c {
        case .hintUnsorted, .hintRepeated: return .skipsHintOrder
        case .hintPadding: return .skipsHintPadding
        case .hintCountDecreasingSameHints: return .skipsHintCountOrder
        case .hintCountOverOmegaSameHints: return .skipsHintCount
        case .zOutOfRange: return .skipsZBound
        default: return nil
        }
    }

    /// The first signature of `message` in the sequence deterministic, then rnd = SHA-256(tag ‖
    /// counter as 4 bytes little-endian) for counter 1, 2, …, that has a polynomial i ≥ 1 without
    /// hints and with a non-zero count (count i = count i − 1 > 0), and that i. Any rnd gives a
    /// valid FIPS 204 signature (verification never sees rnd); the count classes need such a
    /// polynomial so that changing its count leaves the decoded hints, and so c̃, unchanged.
    /// About one signature in thirty has one.
    static func hintFreeSignature(key: MLDSA65.PrivateKey, message: [UInt8]) throws -> (signature: [UInt8], polynomial: Int) {
        for counter in 0..<2_000 {
            let s: [UInt8]
            if counter == 0 {
                s = try key.deterministicSignature(for: message)
            } else {
                var tag = Array(hintFreeTag.utf8)
                tag.appendLE(UInt32(counter))
                s = try key.signature(for: message, context: [], randomness: SHA256.hash(tag).bytes)
            }
            let c = counts(s)
            if let i = (1..<k).first(where: { c[$0] == c[$0 - 1] && c[$0] > 0 }) { return (s, i) }
        }
        throw StateDigestVectors.GeneratorCheckFailed(description: "ML-DSA edges: no signature with a polynomial without hints in 2,000 tries")
    }

    static let hintFreeTag = "pixie.vectors.signature-edges.mldsa-hint-free-rnd"

    /// `hintFree` gives the signature `hintFreeSignature` finds (the caller caches it: the two
    /// count classes share it).
    static func make(_ c: MLDSAEdgeClass, key: MLDSA65.PrivateKey, message: [UInt8], genuine: [UInt8],
                     hintFree: () throws -> (signature: [UInt8], polynomial: Int)) throws -> MLDSAEdge {
        let counts = counts(genuine)
        let total = counts[k - 1]
        var s = genuine
        let countAt = hintOffset + omega
        switch c {
        case .short:
            s.removeLast()
        case .long:
            s.append(0)
        case .hintCountOverOmegaSameHints:
            let (base, i) = try hintFree()
            s = base
            s[countAt + i] = UInt8(omega + 1)
        case .hintCountFF:
            s[countAt + k - 1] = 0xff
        case .hintCountDecreasingSameHints:
            let (base, i) = try hintFree()
            s = base
            s[countAt + i] = UInt8(Int(base[countAt + i - 1]) - 1)
        case .hintUnsorted:
            let c0 = [0] + counts
            let i = try need((0..<k).first { c0[$0 + 1] - c0[$0] >= 2 }, "a polynomial with two hint positions")
            s.swapAt(hintOffset + c0[i], hintOffset + c0[i] + 1)
        case .hintRepeated:
            try check(total >= 1 && total < omega, "a hint with a free slot and a position to repeat")
            var positions = Array(genuine[hintOffset..<(hintOffset + omega)])
            let first = try need((0..<k).first { counts[$0] > 0 }, "a polynomial with a position")
            let at = first == 0 ? 0 : counts[first - 1]
            positions.insert(positions[at], at: at)
            positions.removeLast()
            s.replaceSubrange(hintOffset..<(hintOffset + omega), with: positions)
            for j in first..<k { s[countAt + j] += 1 }
        case .hintPadding:
            try check(total < omega, "an unused hint position slot")
            s[hintOffset + omega - 1] = 0x01
        case .zOutOfRange:
            s = try key.deterministicSignatureWithOversizedZ(for: message)
        case .cTildeFlipped:
            s[cTildeBytes - 1] ^= 0x01
        case .otherMessage:
            var other = message
            other[other.count - 1] ^= 0x01
            s = try key.deterministicSignature(for: other)
        }
        let pk = key.publicKey
        try check(!pk.isValidSignature(s, for: message), "\(c.rawValue): FIPS 204 rejects it")
        if let lenient = lenientAcceptor(c) {
            try check(lenient.accepts(publicKey: pk, signature: s, message: message), "\(c.rawValue): \(lenient.rawValue) accepts it")
        }
        return MLDSAEdge(edgeClass: c, signature: s, message: message)
    }

    static func need<T>(_ v: T?, _ what: String) throws -> T {
        guard let v else { throw StateDigestVectors.GeneratorCheckFailed(description: "ML-DSA edges: the genuine signature has no \(what)") }
        return v
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "ML-DSA edges: \(what)") }
    }
}

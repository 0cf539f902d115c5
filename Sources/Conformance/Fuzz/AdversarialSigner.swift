import Primitives
import Vectors

/// Signatures a hurried verifier gets wrong, made by a fuzzer that holds the signing key (it
/// builds the certificates, credentials and lists it sends, so it is their signer). Ed25519: S not
/// reduced, keys and R of small order, mixed-order keys and R (the cofactored and cofactorless
/// equations disagree), non-canonical encodings of A and R, R not a point (SPEC §9.1). ML-DSA-65:
/// the hint encoding out of order or padded, z over its bound (SPEC §9.2). Built from the curve
/// and the FIPS 204 layout, not from the golden vectors.
enum AdversarialSigner {
    enum Ed25519Class: CaseIterable {
        case genuine, sPlusL, sPlus2L, sEqualsL, identityKeySZero, smallOrderKey, smallOrderR, mixedKey, cofactoredOnlyKey, cofactoredOnlyR
        case keyYEqualsP, keyMinusZero, rAliasOfIdentity, rMinusZero, rNotAPoint

        /// The key is not the signer's own (a key of small or mixed order, or an alias).
        var ownKey: Bool {
            switch self {
            case .sEqualsL, .identityKeySZero, .smallOrderKey, .mixedKey, .cofactoredOnlyKey, .keyYEqualsP, .keyMinusZero: return true
            default: return false
            }
        }
    }

    static let l: [UInt8] = Ed25519.Arithmetic.order
    static let zero = [UInt8](repeating: 0, count: 32)
    static let identity: [UInt8] = [1] + [UInt8](repeating: 0, count: 31)
    static let identityMinusZero: [UInt8] = [1] + [UInt8](repeating: 0, count: 30) + [0x80]
    static let identityAlias: [UInt8] = [0xee] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
    static let yEqualsP: [UInt8] = [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
    /// A point of order 8 (a canonical encoding from the published low-order list).
    static let orderEight: [UInt8] = Hex.decode("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")!
    static let mixedScalar = Ed25519.Arithmetic.reduce(SHA512.hash(Array("pixie.fuzz.mixed-order-key".utf8)))
    static let mixedKey: [UInt8] = (Ed25519.Point.base(times: mixedScalar) + Ed25519.Point(decoding: orderEight)!).encoded

    /// The key an item of class `c` verifies under, for the signer whose real key is `real`.
    static func publicKey(_ c: Ed25519Class, real: [UInt8]) -> [UInt8] {
        switch c {
        case .sEqualsL, .identityKeySZero: return identity
        case .smallOrderKey: return orderEight
        case .mixedKey, .cofactoredOnlyKey: return mixedKey
        case .keyYEqualsP: return yEqualsP
        case .keyMinusZero: return identityMinusZero
        default: return real
        }
    }

    /// The clamped secret scalar of an RFC 8032 seed, reduced mod L.
    static func secretScalar(_ seed: [UInt8]) -> [UInt8] {
        var h = Array(SHA512.hash(seed).prefix(32))
        h[0] &= 248
        h[31] &= 127
        h[31] |= 64
        return Ed25519.Arithmetic.reduce(h)
    }

    /// A 64-byte signature of class `c` over `message` for the key `publicKey(c, real:)`.
    static func ed25519(_ c: Ed25519Class, seed: [UInt8], message: [UInt8]) -> [UInt8] {
        guard let signer = try? Ed25519.PrivateKey(seed: seed) else { return [UInt8](repeating: 0, count: 64) }
        let real = signer.publicKey.rawRepresentation
        let a = publicKey(c, real: real)
        let s = secretScalar(seed)
        let genuine = signer.signature(for: message)
        func search(extra: Ed25519.Point = .identity, _ ok: ([UInt8]) -> Bool) -> (r: [UInt8], rBytes: [UInt8], k: [UInt8]) {
            var last: (r: [UInt8], rBytes: [UInt8], k: [UInt8]) = (zero, identity, zero)
            for i in 0..<256 {
                let r = Ed25519.Arithmetic.reduce(SHA512.hash(Array("pixie.fuzz.nonce".utf8) + message + [UInt8(i)]))
                let rBytes = (Ed25519.Point.base(times: r) + extra).encoded
                let k = Ed25519.Arithmetic.challenge(r: rBytes, a: a, message: message)
                last = (r, rBytes, k)
                if ok(k) { break }
            }
            return last
        }
        switch c {
        case .genuine: return genuine
        case .sPlusL: return Array(genuine[0..<32]) + Ed25519.Arithmetic.addUnreduced(Array(genuine[32...]), l)
        case .sPlus2L: return Array(genuine[0..<32]) + Ed25519.Arithmetic.addUnreduced(Array(genuine[32...]), Ed25519.Arithmetic.addUnreduced(l, l))
        case .sEqualsL: return identity + l
        case .identityKeySZero: return identity + zero
        case .smallOrderKey:
            let n = search { $0[0] & 7 == 0 }
            return n.rBytes + n.r
        case .smallOrderR:
            return identity + Ed25519.Arithmetic.mulAdd(Ed25519.Arithmetic.challenge(r: identity, a: a, message: message), s, zero)
        case .mixedKey, .cofactoredOnlyKey:
            let n = search { c == .mixedKey ? $0[0] & 7 == 0 : $0[0] & 7 != 0 }
            return n.rBytes + Ed25519.Arithmetic.mulAdd(n.k, mixedScalar, n.r)
        case .cofactoredOnlyR:
            let n = search(extra: Ed25519.Point(decoding: orderEight)!) { _ in true }
            return n.rBytes + Ed25519.Arithmetic.mulAdd(n.k, s, n.r)
        case .keyYEqualsP:
            let n = search { $0[0] & 3 == 0 }
            return n.rBytes + n.r
        case .keyMinusZero:
            let n = search { _ in true }
            return n.rBytes + n.r
        case .rAliasOfIdentity, .rMinusZero:
            let rBytes = c == .rAliasOfIdentity ? identityAlias : identityMinusZero
            return rBytes + Ed25519.Arithmetic.mulAdd(Ed25519.Arithmetic.challenge(r: rBytes, a: a, message: message), s, zero)
        case .rNotAPoint:
            return [2] + [UInt8](repeating: 0, count: 31) + Array(genuine[32...])
        }
    }

    enum MLDSAClass: CaseIterable {
        case genuine, hintUnsorted, hintPadding, hintCountOverOmega, zOverBound, cTildeFlipped, short, long
    }

    /// FIPS 204 ML-DSA-65 signature layout: c̃ (48) ‖ z (5 × 640) ‖ h (ω = 55 positions, k = 6 counts).
    static let hintOffset = 48 + 5 * 640
    static let omega = 55

    /// An ML-DSA-65 signature of class `c` over `message` (empty context), by byte surgery on the
    /// deterministic signature, or signed with the z test inverted.
    static func mldsa(_ c: MLDSAClass, key: MLDSA65.PrivateKey, message: [UInt8]) -> [UInt8] {
        guard var s = try? key.deterministicSignature(for: message) else { return [] }
        let counts = (0..<6).map { Int(s[hintOffset + omega + $0]) }
        switch c {
        case .genuine: break
        case .hintUnsorted:
            let c0 = [0] + counts
            if let i = (0..<6).first(where: { c0[$0 + 1] - c0[$0] >= 2 }) { s.swapAt(hintOffset + c0[i], hintOffset + c0[i] + 1) } else { s[47] ^= 1 }
        case .hintPadding:
            if counts[5] < omega { s[hintOffset + omega - 1] = 1 } else { s[47] ^= 1 }
        case .hintCountOverOmega: s[hintOffset + omega + 5] = UInt8(omega + 1)
        case .zOverBound: s = (try? key.deterministicSignatureWithOversizedZ(for: message)) ?? s
        case .cTildeFlipped: s[47] ^= 1
        case .short: s.removeLast()
        case .long: s.append(0)
        }
        return s
    }
}

import Primitives

/// Builds `Ed25519Edge` material deterministically: nonces are SHA-512 of a fixed label, the
/// class, the message and a counter, reduced mod L, and the first nonce meeting the class's
/// condition (8 | k, 4 | k, …) is taken. Every item is checked against the reference verifier
/// before it is returned, so a class can never claim a verdict the rule does not give.
enum Ed25519EdgeGenerator {
    static func zeros(_ n: Int) -> [UInt8] { [UInt8](repeating: 0, count: n) }

    /// The identity (0, 1), canonical.
    static let identity: [UInt8] = [1] + zeros(31)
    /// The identity with the sign bit set (x = 0, "-0").
    static let identityMinusZero: [UInt8] = [1] + zeros(30) + [0x80]
    /// y = p + 1, an alias of the identity.
    static let identityAlias: [UInt8] = [0xee] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
    /// y = p, read as y = 0: a point of order 4.
    static let orderFourAlias: [UInt8] = [0xed] + [UInt8](repeating: 0xff, count: 30) + [0x7f]
    /// A canonical point of order 8 (C2SP CCTV's list of low-order encodings).
    static let orderEight: [UInt8] = Hex.decode("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a")!
    /// y = 2: not on the curve.
    static let notAPoint: [UInt8] = [2] + zeros(31)

    /// The scalar a of the mixed-order key A = [a]B + T (T = `orderEight`).
    static let mixedScalar = Ed25519.Arithmetic.reduce(SHA512.hash(Array("pixie.vectors.signature-edges.mixed-order-a".utf8)))
    static var mixedKey: [UInt8] { (Ed25519.Point.base(times: mixedScalar) + point(orderEight)).encoded }

    static func point(_ b: [UInt8]) -> Ed25519.Point { Ed25519.Point(decoding: b)! }

    /// The clamped secret scalar s of an RFC 8032 seed (§5.1.5), reduced mod L.
    static func secretScalar(seed: [UInt8]) -> [UInt8] {
        var h = Array(SHA512.hash(seed).prefix(32))
        h[0] &= 248
        h[31] &= 127
        h[31] |= 64
        return Ed25519.Arithmetic.reduce(h)
    }

    /// The key an item of class `c` is verified under, for a signer whose key is `signerKey`.
    static func publicKey(_ c: Ed25519EdgeClass, signerKey: [UInt8]) -> [UInt8] {
        switch c {
        case .sEqualsL, .smallOrderASZero: return identity
        case .smallOrderA: return orderEight
        case .mixedOrderA, .cofactoredOnlyA: return mixedKey
        case .nonCanonicalAY: return orderFourAlias
        case .nonCanonicalAMinusZero: return identityMinusZero
        default: return signerKey
        }
    }

    /// The item of class `c` over `message` (which must already be the message for
    /// `publicKey(c, signerKey:)`), for the signer with RFC 8032 seed `seed`.
    static func make(_ c: Ed25519EdgeClass, seed: [UInt8], message: [UInt8]) throws -> Ed25519Edge {
        let signer = try Ed25519.PrivateKey(seed: seed)
        let realA = signer.publicKey.rawRepresentation
        let s = secretScalar(seed: seed)
        let a = publicKey(c, signerKey: realA)
        let genuine = signer.signature(for: message)
        let zero = zeros(32)

        /// The first nonce r (and R = [r]B + extra, k) for which `ok(k)` holds.
        func search(extra: Ed25519.Point = .identity, _ ok: ([UInt8]) -> Bool) throws -> (r: [UInt8], rBytes: [UInt8], k: [UInt8]) {
            for i in 0..<4096 {
                let r = Ed25519.Arithmetic.reduce(SHA512.hash(Array("pixie.vectors.signature-edges.nonce".utf8) + [0]
                                                              + Array(c.rawValue.utf8) + [0] + message + [UInt8(i & 0xff), UInt8(i >> 8)]))
                let rBytes = (Ed25519.Point.base(times: r) + extra).encoded
                let k = Ed25519.Arithmetic.challenge(r: rBytes, a: a, message: message)
                if ok(k) { return (r, rBytes, k) }
            }
            throw StateDigestVectors.GeneratorCheckFailed(description: "signature edges: no nonce for \(c.rawValue) in 4,096 tries")
        }
        let signature: [UInt8]
        switch c {
        case .control:
            signature = genuine
        case .sPlusL:
            signature = Array(genuine[0..<32]) + Ed25519.Arithmetic.addUnreduced(Array(genuine[32..<64]), Ed25519.Arithmetic.order)
            try check(signature[63] & 0xe0 == 0, "S + L stays below 2^253")
        case .sPlus2L:
            let twoL = Ed25519.Arithmetic.addUnreduced(Ed25519.Arithmetic.order, Ed25519.Arithmetic.order)
            signature = Array(genuine[0..<32]) + Ed25519.Arithmetic.addUnreduced(Array(genuine[32..<64]), twoL)
            try check(signature[63] & 0xe0 != 0, "S + 2L reaches 2^253")
        case .sEqualsL:
            signature = identity + Ed25519.Arithmetic.order
        case .smallOrderASZero:
            signature = identity + zero
        case .smallOrderA:
            let n = try search { $0[0] & 7 == 0 }
            signature = n.rBytes + n.r
        case .smallOrderR:
            let k = Ed25519.Arithmetic.challenge(r: identity, a: a, message: message)
            signature = identity + Ed25519.Arithmetic.mulAdd(k, s, zero)
        case .mixedOrderA, .cofactoredOnlyA:
            let prereduced = Ed25519.VerificationRule(equation: .cofactoredPrereduced)
            let n = try search { k in
                if c == .cofactoredOnlyA { return k[0] & 7 != 0 }
                guard k[0] & 7 == 0 else { return false }
                // Also rejected by the pre-reduced cofactored equation: [8k mod L]T ≠ O.
                let eightK = Ed25519.Arithmetic.mulAdd(k, [8] + zeros(31), zeros(32))
                return eightK[0] & 7 != 0
            }
            signature = n.rBytes + Ed25519.Arithmetic.mulAdd(n.k, mixedScalar, n.r)
            if c == .mixedOrderA {
                let key = try Ed25519.PublicKey(rawRepresentation: a)
                try check(!key.isValidSignature(signature, for: message, rule: prereduced), "mixed-order-a fails the pre-reduced cofactored equation")
            }
        case .cofactoredOnlyR:
            let n = try search(extra: point(orderEight)) { _ in true }
            signature = n.rBytes + Ed25519.Arithmetic.mulAdd(n.k, s, n.r)
        case .nonCanonicalAY:
            let n = try search { $0[0] & 3 == 0 }
            signature = n.rBytes + n.r
        case .nonCanonicalAMinusZero:
            let n = try search { _ in true }
            signature = n.rBytes + n.r
        case .nonCanonicalRY, .nonCanonicalRMinusZero:
            let rBytes = c == .nonCanonicalRY ? identityAlias : identityMinusZero
            let k = Ed25519.Arithmetic.challenge(r: rBytes, a: a, message: message)
            signature = rBytes + Ed25519.Arithmetic.mulAdd(k, s, zero)
        case .rNotAPoint:
            signature = notAPoint + Array(genuine[32..<64])
        }
        let key = try Ed25519.PublicKey(rawRepresentation: a)
        try check(key.isValidSignature(signature, for: message) == c.validUnderSuite,
                  "\(c.rawValue): the suite's verdict is \(c.validUnderSuite ? "accept" : "reject")")
        try check(key.isValidSignature(signature, for: message, rule: .zip215) || c == .sPlusL || c == .sPlus2L || c == .sEqualsL || c == .rNotAPoint,
                  "\(c.rawValue): every non-scalar class is valid under the cofactored equation")
        return Ed25519Edge(edgeClass: c, publicKey: a, signature: signature, message: message)
    }

    static func check(_ ok: Bool, _ what: String) throws {
        if !ok { throw StateDigestVectors.GeneratorCheckFailed(description: "signature edges: \(what)") }
    }
}

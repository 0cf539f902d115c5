extension Ed25519 {
    /// Which Ed25519 verification rule a verifier applies. Stock libraries differ on exactly these
    /// six points (C2SP CCTV `ed25519/README.md`; "Taming the many EdDSAs", Chalkias, Garillot,
    /// Nikolaenko 2020), so each is a field:
    ///
    /// - how S is range-checked (`scalarRange`),
    /// - whether A must be its canonical encoding (`canonicalA`),
    /// - whether a small-order A or R is refused outright (`rejectSmallOrderA`, `-R`),
    /// - which equation is checked (`equation`), and
    /// - whether R is compared as bytes or as a decoded point (`compareR`).
    ///
    /// `.suite` is SPEC.md §9.1, the rule every vector is generated under. The other values model
    /// what a stock library does; the suite uses them only in tests (to show each library's
    /// verdict on each edge class) and in mutants (to prove the vectors catch a testee built on
    /// that library).
    package struct VerificationRule: Sendable, Hashable {
        package enum ScalarRange: Sendable, Hashable {
            /// S < L; anything else is invalid (RFC 8032 §5.1.7).
            case belowL
            /// Only the top three bits of S are checked (S < 2^253); S is used unreduced, which is
            /// the same as reduced for [S]B (ed25519-donna, ed25519-dalek `legacy_compatibility`,
            /// libsodium built with `ED25519_COMPAT`).
            case belowTwoTo253
            /// No check: any 256-bit S, reduced mod L (a hurried implementation).
            case anyReduced
        }

        package enum Equation: Sendable, Hashable {
            /// [S]B = R + [k]A.
            case cofactorless
            /// [8][S]B = [8]R + [8][k]A (RFC 8032 §5.1.7 step 3).
            case cofactored
            /// [8S mod L]B = [8]R + [8k mod L]A: the cofactored equation with the scalars
            /// multiplied by 8 and reduced before use, wrong for A with a small-order component.
            case cofactoredPrereduced
        }

        package enum RComparison: Sendable, Hashable {
            /// encode(R') equals the 32 bytes of R (so a non-canonical R never matches).
            case encoding
            /// R decoded (aliases accepted) and compared with R' as points.
            case point
        }

        package var scalarRange: ScalarRange
        package var canonicalA: Bool
        package var rejectSmallOrderA: Bool
        package var rejectSmallOrderR: Bool
        package var equation: Equation
        package var compareR: RComparison

        package init(scalarRange: ScalarRange = .belowL, canonicalA: Bool = false, rejectSmallOrderA: Bool = false,
                     rejectSmallOrderR: Bool = false, equation: Equation = .cofactorless, compareR: RComparison = .encoding) {
            self.scalarRange = scalarRange
            self.canonicalA = canonicalA
            self.rejectSmallOrderA = rejectSmallOrderA
            self.rejectSmallOrderR = rejectSmallOrderR
            self.equation = equation
            self.compareR = compareR
        }

        /// SPEC.md §9.1: S < L, A read with aliases, no small-order check, cofactorless, R compared
        /// as bytes. The same verdicts as Go `crypto/ed25519`, OpenSSL 3 (`ossl_ed25519_verify`),
        /// pyca/cryptography over OpenSSL, and ed25519-dalek 2 `verify`, which Haven uses.
        package static let suite = VerificationRule()
        /// libsodium `crypto_sign_verify_detached` (default build): S < L, A canonical, small-order
        /// A and R refused (a 7-entry blocklist that ignores bit 255), cofactorless, bytes.
        package static let libsodium = VerificationRule(canonicalA: true, rejectSmallOrderA: true, rejectSmallOrderR: true)
        /// ed25519-dalek `verify_strict`: `verify` plus small-order A and R refused.
        package static let dalekVerifyStrict = VerificationRule(rejectSmallOrderA: true, rejectSmallOrderR: true)
        /// ZIP 215 (ed25519-consensus): aliases of A and R accepted, cofactored, R compared as a point.
        package static let zip215 = VerificationRule(equation: .cofactored, compareR: .point)
        /// RFC 8032 read literally with the cofactorless option: A must be canonical.
        package static let rfc8032Strict = VerificationRule(canonicalA: true)
    }
}

extension Ed25519.PublicKey {
    /// Verifies under `rule` (see `Ed25519.VerificationRule`). `.suite` takes the fast path of
    /// `isValidSignature(_:for:)`; the other rules exist for tests and mutants.
    package func isValidSignature<S: Collection, M: Collection>(
        _ signature: S, for message: M, rule: Ed25519.VerificationRule
    ) -> Bool where S.Element == UInt8, M.Element == UInt8 {
        if rule == .suite { return isValidSignature(signature, for: message) }
        let sig = Array(signature), msg = Array(message)
        guard sig.count == Ed25519.signatureByteCount else { return false }
        let rBytes = Array(sig[0..<32])
        var sBytes = Array(sig[32..<64])
        switch rule.scalarRange {
        case .belowL:
            guard sBytes.withUnsafeBytes({ Ed25519.Scalar.isCanonical($0.baseAddress!) }) else { return false }
        case .belowTwoTo253:
            guard sBytes[31] & 0xe0 == 0 else { return false }
            sBytes = Ed25519.Arithmetic.reduce(sBytes)
        case .anyReduced:
            sBytes = Ed25519.Arithmetic.reduce(sBytes)
        }
        if rule.canonicalA && !isCanonicalEncoding { return false }
        if rule.rejectSmallOrderA && isSmallOrder { return false }
        let decodedR = rBytes.withUnsafeBytes { Ed25519.EdwardsPoint.decode($0.baseAddress!)?.point }
        if rule.rejectSmallOrderR {
            guard let r = decodedR, !r.timesCofactor.isIdentity else { return false }
        }
        var k = [UInt8](repeating: 0, count: 32)
        rBytes.withUnsafeBytes { r in
            msg.withUnsafeBytes { m in k.withUnsafeMutableBytes { challenge(r.baseAddress!, m, into: $0.baseAddress!) } }
        }
        switch rule.equation {
        case .cofactorless:
            let rPrime = Ed25519.Arithmetic.doubleMul(k, point.negated, sBytes)
            switch rule.compareR {
            case .encoding: return rPrime.encoded == rBytes
            case .point:
                guard let r = decodedR else { return false }
                return rPrime.sameAs(r)
            }
        case .cofactored:
            guard let r = decodedR else { return false }
            let rPrime = Ed25519.Arithmetic.doubleMul(k, point.negated, sBytes)
            return rPrime.timesCofactor.sameAs(r.timesCofactor)
        case .cofactoredPrereduced:
            guard let r = decodedR else { return false }
            let eight = [8] + [UInt8](repeating: 0, count: 31)
            let k8 = Ed25519.Arithmetic.mulAdd(k, eight, [UInt8](repeating: 0, count: 32))
            let s8 = Ed25519.Arithmetic.mulAdd(sBytes, eight, [UInt8](repeating: 0, count: 32))
            let lhs = Ed25519.Arithmetic.doubleMul(k8, point.negated, s8)
            return lhs.sameAs(r.timesCofactor)
        }
    }
}

extension Ed25519.EdwardsPoint {
    /// [8]P.
    var timesCofactor: Ed25519.EdwardsPoint { doubled().doubled().doubled() }

    /// P is the neutral element (0, 1).
    var isIdentity: Bool { X == .zero && Y == Z }

    /// The same point (projective coordinates compared by cross-multiplication).
    func sameAs(_ q: Ed25519.EdwardsPoint) -> Bool { X * q.Z == q.X * Z && Y * q.Z == q.Y * Z }

    /// The 32-byte RFC 8032 §5.1.2 encoding.
    var encoded: [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBytes { encode(to: $0.baseAddress!) }
        return out
    }

    static func + (p: Ed25519.EdwardsPoint, q: Ed25519.EdwardsPoint) -> Ed25519.EdwardsPoint { (p + q.projectiveNiels).extended }
    static func - (p: Ed25519.EdwardsPoint, q: Ed25519.EdwardsPoint) -> Ed25519.EdwardsPoint { (p - q.projectiveNiels).extended }
}

extension Ed25519.ProjectivePoint {
    /// (X:Y:Z) to extended coordinates (XZ : YZ : Z² : XY).
    var extended: Ed25519.EdwardsPoint { Ed25519.EdwardsPoint(X: X * Z, Y: Y * Z, Z: Z.squared(), T: X * Y) }
}

extension MLDSA65 {
    /// Which of FIPS 204's signature-decoding checks a verifier applies. `.fips204` is all of them
    /// (SPEC.md §9.2); the other values model implementations that skip one (a port of an older
    /// Dilithium decoder, a hurried HintBitUnpack), used only by tests and mutants.
    package struct VerificationRule: Sendable, Hashable {
        /// Positions within one polynomial strictly increasing (Algorithm 21 line 7).
        package var checkHintOrder: Bool
        /// Position bytes past the last count all zero (Algorithm 21 lines 12-14).
        package var checkHintPadding: Bool
        /// Counts non-decreasing (Algorithm 21 line 3, y[ω + i] < Index).
        package var checkHintCountOrder: Bool
        /// Counts at most ω (Algorithm 21 line 3, y[ω + i] > ω). Unchecked, a count above ω gives
        /// its polynomial no positions, so every read stays inside the ω + k hint bytes.
        package var checkHintCountBound: Bool
        /// ‖z‖∞ < γ1 - β (Algorithm 8 line 13).
        package var checkZBound: Bool

        package init(checkHintOrder: Bool = true, checkHintPadding: Bool = true, checkHintCountOrder: Bool = true, checkZBound: Bool = true,
                     checkHintCountBound: Bool = true) {
            self.checkHintOrder = checkHintOrder
            self.checkHintPadding = checkHintPadding
            self.checkHintCountOrder = checkHintCountOrder
            self.checkZBound = checkZBound
            self.checkHintCountBound = checkHintCountBound
        }

        package static let fips204 = VerificationRule()
    }
}

extension MLDSA65.PublicKey {
    /// ML-DSA.Verify (Algorithm 3) under `rule`; `.fips204` is `isValidSignature(_:for:context:)`.
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8], context: [UInt8] = [],
                                  rule: MLDSA65.VerificationRule) -> Bool {
        guard context.count <= MLDSA65.maxContextBytes, signature.count == MLDSA65.signatureByteCount else { return false }
        let mu = MLDSA65.Algorithms.mu(tr: tr) { h in
            var header: (UInt8, UInt8) = (0, UInt8(context.count))
            withUnsafeBytes(of: &header) { h.absorb($0) }
            context.withUnsafeBytes { h.absorb($0) }
            MLDSA65.Algorithms.absorb(&h, message)
        }
        return signature.withUnsafeBytes { MLDSA65.Algorithms.verify(self, signature: $0, mu: mu, rule: rule) }
    }
}

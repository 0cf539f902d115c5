import Primitives

/// Ed25519 verifiers whose rule differs from SPEC.md §9.1, each modelled by an
/// `Ed25519.VerificationRule` that `Ed25519RuleTests` checks against C2SP CCTV's verdicts. Go
/// `crypto/ed25519`, OpenSSL 3, pyca/cryptography (through OpenSSL) and ed25519-dalek 2 `verify`
/// (Haven) apply the suite's rule itself, so they are not listed: they agree on every case.
enum StockEd25519Verifier: String, CaseIterable, Sendable {
    /// libsodium `crypto_sign_verify_detached`, default build (`crypto_sign/ed25519/ref10/open.c`).
    case libsodium
    /// ed25519-dalek `VerifyingKey::verify_strict`.
    case dalekVerifyStrict = "dalek-verify-strict"
    /// ZIP 215 (ed25519-consensus, ed25519-zebra): cofactored, aliases accepted, R compared as a point.
    case zip215
    /// S checked by its top three bits only (ed25519-dalek `legacy_compatibility`, libsodium built
    /// with `ED25519_COMPAT`).
    case legacyScalarCheck = "legacy-s-check"
    /// RFC 8032 §5.1.3 read strictly: A must be its canonical encoding.
    case rfc8032Strict = "rfc8032-strict"
    /// A hurried implementation: S reduced mod L, never range-checked.
    case reducesS = "s-reduced"
    /// A hurried cofactored check with the scalars multiplied by 8 and reduced first:
    /// [8S mod L]B = [8]R + [8k mod L]A (ed25519-speccheck's "pre-reduced" case).
    case prereducedCofactored = "prereduced-cofactored"

    var rule: Ed25519.VerificationRule {
        switch self {
        case .libsodium: return .libsodium
        case .dalekVerifyStrict: return .dalekVerifyStrict
        case .zip215: return .zip215
        case .legacyScalarCheck: return .init(scalarRange: .belowTwoTo253)
        case .rfc8032Strict: return .rfc8032Strict
        case .reducesS: return .init(scalarRange: .anyReduced)
        case .prereducedCofactored: return .init(equation: .cofactoredPrereduced)
        }
    }

    /// This verifier's verdict on a 64-byte signature under the 32-byte key `a`; a key that does
    /// not decode at all is a rejection.
    func accepts(publicKey a: [UInt8], signature: [UInt8], message: [UInt8]) -> Bool {
        guard let key = try? Ed25519.PublicKey(rawRepresentation: a) else { return false }
        return key.isValidSignature(signature, for: message, rule: rule)
    }
}

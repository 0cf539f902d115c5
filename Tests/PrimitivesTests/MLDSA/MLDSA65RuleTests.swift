import Primitives
import Testing

/// FIPS 204's signature-decoding checks one at a time (SPEC.md §9.2): each malformation below is
/// rejected under `.fips204` and accepted by a verifier that skips exactly the check it breaks,
/// which is what makes it a test of that check (the rest of the signature is genuine).
struct MLDSA65RuleTests {
    /// Offsets in a 3,309-byte signature: c̃ (48), z (5 × 640), then h: ω = 55 position bytes and
    /// k = 6 cumulative counts.
    static let hintAt = 48 + 5 * 640
    static let omega = 55

    static let key = try! MLDSA65.PrivateKey(seed: [UInt8](repeating: 0x42, count: 32))

    /// A deterministic signature of "mldsa rule <i>" for the first i whose hint satisfies `want`
    /// (counts c0…c5), so the tests do not depend on luck.
    static func signature(where want: ([Int]) -> Bool) throws -> (message: [UInt8], signature: [UInt8]) {
        for i in 0..<64 {
            let m = Array("mldsa rule \(i)".utf8)
            let s = try key.deterministicSignature(for: m)
            if want(counts(s)) { return (m, s) }
        }
        throw CryptoError(.invalidParameter, "no signature with the wanted hint shape in 64 tries")
    }

    static func counts(_ s: [UInt8]) -> [Int] { (0..<6).map { Int(s[hintAt + omega + $0]) } }

    static let skipOrder = MLDSA65.VerificationRule(checkHintOrder: false)
    static let skipPadding = MLDSA65.VerificationRule(checkHintPadding: false)
    static let skipCountOrder = MLDSA65.VerificationRule(checkHintCountOrder: false)
    static let skipZ = MLDSA65.VerificationRule(checkZBound: false)

    func judge(_ s: [UInt8], _ m: [UInt8], lenient: MLDSA65.VerificationRule) {
        let pk = Self.key.publicKey
        #expect(!pk.isValidSignature(s, for: m))
        #expect(!pk.isValidSignature(s, for: m, rule: .fips204))
        #expect(pk.isValidSignature(s, for: m, rule: lenient))
    }

    @Test func genuineSignaturePassesEveryRule() throws {
        let (m, s) = try Self.signature { _ in true }
        for rule in [MLDSA65.VerificationRule.fips204, Self.skipOrder, Self.skipPadding, Self.skipCountOrder, Self.skipZ] {
            #expect(Self.key.publicKey.isValidSignature(s, for: m, rule: rule))
        }
    }

    /// Two positions of one polynomial swapped: the same hint set, out of order (Algorithm 21 line 7).
    @Test func unsortedPositions() throws {
        let (m, s) = try Self.signature { c in zip([0] + c, c).contains { $1 - $0 >= 2 } }
        let c = [0] + Self.counts(s)
        let i = try #require((0..<6).first { c[$0 + 1] - c[$0] >= 2 })
        var t = s
        t.swapAt(Self.hintAt + c[i], Self.hintAt + c[i] + 1)
        judge(t, m, lenient: Self.skipOrder)
    }

    /// A position written twice (every later count one higher): the same hint set, repeated.
    @Test func repeatedPosition() throws {
        let (m, s) = try Self.signature { c in c[5] < Self.omega && c[0] >= 1 }
        var t = s
        var positions = Array(s[Self.hintAt..<(Self.hintAt + Self.omega)])
        positions.insert(positions[0], at: 0)
        positions.removeLast()
        t.replaceSubrange(Self.hintAt..<(Self.hintAt + Self.omega), with: positions)
        for j in 0..<6 { t[Self.hintAt + Self.omega + j] += 1 }
        judge(t, m, lenient: Self.skipOrder)
    }

    /// A non-zero byte after the last position (Algorithm 21 lines 12-14).
    @Test func nonZeroPadding() throws {
        let (m, s) = try Self.signature { c in c[5] < Self.omega }
        var t = s
        t[Self.hintAt + Self.omega - 1] = 0x01
        judge(t, m, lenient: Self.skipPadding)
    }

    /// A polynomial without positions given a count below the previous one (Algorithm 21 line 3).
    @Test func decreasingCount() throws {
        let (m, s) = try Self.signature { c in (1..<6).contains { c[$0] == c[$0 - 1] && c[$0] > 0 } }
        let c = Self.counts(s)
        let i = try #require((1..<6).first { c[$0] == c[$0 - 1] && c[$0] > 0 })
        var t = s
        t[Self.hintAt + Self.omega + i] = 0
        judge(t, m, lenient: Self.skipCountOrder)
    }

    /// A count above ω is refused by every rule (it would read past the position bytes).
    @Test func countAboveOmega() throws {
        let (m, s) = try Self.signature { _ in true }
        for v in [UInt8(Self.omega + 1), 0xff] {
            var t = s
            t[Self.hintAt + Self.omega + 5] = v
            for rule in [MLDSA65.VerificationRule.fips204, Self.skipOrder, Self.skipPadding, Self.skipCountOrder, Self.skipZ] {
                #expect(!Self.key.publicKey.isValidSignature(t, for: m, rule: rule))
            }
        }
    }

    /// The signer run with the z test inverted gives a signature that fails only ‖z‖∞ < γ1 - β.
    @Test func oversizedZ() throws {
        let m = Array("mldsa rule z".utf8)
        let s = try Self.key.deterministicSignatureWithOversizedZ(for: m)
        #expect(s.count == MLDSA65.signatureByteCount)
        #expect(s != (try Self.key.deterministicSignature(for: m)))
        judge(s, m, lenient: Self.skipZ)
    }
}

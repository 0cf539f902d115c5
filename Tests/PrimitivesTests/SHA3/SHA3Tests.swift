import Foundation
import Primitives
import Testing

/// SHA3-256 against the NIST CAVP SHA3VS short-message, long-message and Monte Carlo files, and
/// SHA3-512 against FIPS 202 example digests (no SHA3-512 KAT file is shipped).
struct SHA3Tests {
    typealias Case = DigestKAT.Case

    static func load(_ file: String) -> [Case] { DigestKAT.load("sha3/\(file)") }

    static let short = load("SHA3_256ShortMsg.rsp")
    static let long = load("SHA3_256LongMsg.rsp")

    @Test func filesAreNotEmpty() {
        #expect(Self.short.count == 137)
        #expect(Self.long.count == 24)
    }

    @Test(arguments: short + long)
    func knownAnswer(_ c: Case) {
        #expect(Hex.encode(SHA3_256.hash(c.message)) == c.digest)
    }

    /// The same messages absorbed in pieces split at seeded random points must give the same digest
    /// (exercises the partial-block paths of the sponge).
    @Test func splitUpdatesMatchOneShot() {
        var rng = SplitMix64(seed: 0x5eed_3256)
        print("SHA3 splitUpdatesMatchOneShot seed 0x5eed3256")
        for c in Self.long.prefix(8) + Self.short.suffix(8) {
            var hasher = SHA3_256()
            DigestKAT.absorbInPieces(c.message, maxPiece: 300, rng: &rng) { hasher.update($0) }
            #expect(Hex.encode(hasher.finalize()) == c.digest, "\(c.name)")
        }
    }

    /// SHA3VS Monte Carlo (as in the file): MD_0 = Seed; each checkpoint applies
    /// MD_i = SHA3-256(MD_{i-1}) 1000 times and records MD_1000, which seeds the next checkpoint.
    @Test func monteCarlo() throws {
        let records = RSP.parse(try KATFile.text("sha3/SHA3_256Monte.rsp"))
        let seedHex = try #require(records.first { $0.fields["Seed"] != nil }?.fields["Seed"])
        var md = try #require(Hex.decode(seedHex))
        let checkpoints = records.filter { $0.fields["COUNT"] != nil }
        #expect(checkpoints.count == 100)
        for cp in checkpoints {
            for _ in 0..<1000 { md = SHA3_256.hash(md) }
            #expect(Hex.encode(md) == cp.fields["MD"], "COUNT \(cp.fields["COUNT"] ?? "?")")
        }
    }

    struct KnownDigest: CustomTestStringConvertible, Sendable {
        let name: String
        let message: [UInt8]
        let digest: String
        var testDescription: String { name }
    }

    /// FIPS 202 / NIST example digests (cross-checked with CPython hashlib.sha3_512).
    static let sha3_512Known: [KnownDigest] = [
        KnownDigest(name: "SHA3-512(\"\")", message: [],
                    digest: "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"),
        KnownDigest(name: "SHA3-512(\"abc\")", message: Array("abc".utf8),
                    digest: "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"),
        // 200 bytes: spans two 72-byte blocks plus a partial one.
        KnownDigest(name: "SHA3-512(\"a\" x 200)", message: Array(repeating: 0x61, count: 200),
                    digest: "eae6c85c6904f11075de9f9d5e1064371d000510fa3d2d79d40cf9be34892fb01859d0a0234e138bcb0ad5c84f6c0dca226a414b0c9a2897cb695f5185fe36ec"),
    ]

    @Test(arguments: sha3_512Known)
    func sha3_512(_ c: KnownDigest) {
        #expect(Hex.encode(SHA3_512.hash(c.message)) == c.digest)
        var split = SHA3_512()
        split.update(c.message.prefix(71))
        split.update(c.message.dropFirst(71))
        #expect(Hex.encode(split.finalize()) == c.digest)
    }
}

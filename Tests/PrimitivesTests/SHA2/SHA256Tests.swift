import Foundation
import Primitives
import Testing

/// SHA-256 against the NIST CAVP short-message, long-message and Monte Carlo files.
struct SHA256Tests {
    typealias Case = DigestKAT.Case

    static func load(_ file: String) -> [Case] { DigestKAT.load("sha2/\(file)") }

    static let short = load("SHA256ShortMsg.rsp")
    static let long = load("SHA256LongMsg.rsp")

    @Test func filesAreNotEmpty() {
        #expect(Self.short.count == 65)
        #expect(Self.long.count == 24)
    }

    @Test(arguments: short + long)
    func knownAnswer(_ c: Case) {
        #expect(SHA256.hash(c.message).hex == c.digest)
    }

    /// The same messages absorbed in pieces split at seeded random points must give the same digest.
    @Test func splitUpdatesMatchOneShot() {
        var rng = SplitMix64(seed: 0x5eed_0256)
        print("splitUpdatesMatchOneShot seed 0x5eed0256")
        for c in Self.long.prefix(8) + Self.short.suffix(8) {
            var hasher = SHA256()
            DigestKAT.absorbInPieces(c.message, maxPiece: 150, rng: &rng) { hasher.update($0) }
            #expect(hasher.finalize().hex == c.digest, "\(c.name)")
        }
    }

    /// SHAVS Monte Carlo: MD_i = SHA256(MD_{i-3} || MD_{i-2} || MD_{i-1}), 1000 inner rounds per checkpoint.
    @Test func monteCarlo() throws {
        let records = RSP.parse(try KATFile.text("sha2/SHA256Monte.rsp"))
        var seed = Hex.decode(records.first { $0.fields["Seed"] != nil }!.fields["Seed"]!)!
        let checkpoints = records.filter { $0.fields["COUNT"] != nil }
        #expect(checkpoints.count == 100)
        for cp in checkpoints {
            var md = [seed, seed, seed]
            for _ in 0..<1000 {
                let next = SHA256.hash(md[0] + md[1] + md[2]).bytes
                md = [md[1], md[2], next]
            }
            seed = md[2]
            #expect(Hex.encode(seed) == cp.fields["MD"], "COUNT \(cp.fields["COUNT"]!)")
        }
    }
}

/// A tiny deterministic generator for seeded tests (SplitMix64).
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

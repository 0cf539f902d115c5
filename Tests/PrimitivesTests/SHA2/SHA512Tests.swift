import Foundation
import Primitives
import Testing

/// SHA-512 against the NIST CAVP (SHAVS) short-message, long-message and Monte Carlo files.
struct SHA512Tests {
    typealias Case = DigestKAT.Case

    static func load(_ file: String) -> [Case] { DigestKAT.load("sha2/\(file)") }

    static let short = load("SHA512ShortMsg.rsp")
    static let long = load("SHA512LongMsg.rsp")

    /// The files hold 129 short (Len 0…1024 bits) and 24 long messages; an empty list would pass.
    @Test func filesAreNotEmpty() {
        #expect(Self.short.count == 129)
        #expect(Self.long.count == 24)
    }

    @Test(arguments: short)
    func shortMessage(_ c: Case) {
        #expect(Hex.encode(SHA512.hash(c.message)) == c.digest)
        #expect(c.message.count * 8 == Int(c.name.split(separator: "=").last!)!)
    }

    @Test(arguments: long)
    func longMessage(_ c: Case) {
        #expect(Hex.encode(SHA512.hash(c.message)) == c.digest)
    }

    /// The same messages absorbed in pieces split at seeded random points (crossing the 128-byte
    /// block and the 112-byte padding boundary) must give the one-shot digest.
    @Test func splitUpdatesMatchOneShot() {
        var rng = SplitMix64(seed: 0x5eed_0512)
        print("splitUpdatesMatchOneShot seed 0x5eed0512")
        for c in Self.long.prefix(8) + Self.short.suffix(24) {
            var hasher = SHA512()
            DigestKAT.absorbInPieces(c.message, maxPiece: 300, rng: &rng) { hasher.update($0) }
            #expect(Hex.encode(hasher.finalize()) == c.digest, "\(c.name)")
        }
    }

    /// `finalize(into:)` writes the same 64 bytes as `finalize()`; non-contiguous input works.
    @Test func finalizeIntoAndNonContiguousInput() throws {
        let c = try #require(Self.short.last)
        var a = SHA512()
        a.update(c.message.lazy.map { $0 })  // not contiguous: takes the copying path
        var out = [UInt8](repeating: 0, count: 64)
        out.withUnsafeMutableBytes { a.finalize(into: $0.baseAddress!) }
        #expect(Hex.encode(out) == c.digest)
    }

    struct MonteCase: CustomTestStringConvertible, Sendable {
        let count: Int
        let digest: String
        var testDescription: String { "SHA512Monte.rsp COUNT=\(count)" }
    }

    static func loadMonte() -> (seed: [UInt8], checkpoints: [MonteCase]) {
        guard let text = try? KATFile.text("sha2/SHA512Monte.rsp") else { return ([], []) }
        let records = RSP.parse(text)
        let seed = records.first { $0.fields["Seed"] != nil }.flatMap { Hex.decode($0.fields["Seed"]!) } ?? []
        let cps = records.compactMap { r -> MonteCase? in
            guard let n = r.fields["COUNT"].flatMap(Int.init), let md = r.fields["MD"] else { return nil }
            return MonteCase(count: n, digest: md)
        }
        return (seed, cps)
    }

    /// SHAVS §6.4 Monte Carlo: MD_i = SHA512(MD_{i-3} || MD_{i-2} || MD_{i-1}) for i = 3…1002,
    /// checkpoint = MD_1002, which seeds the next of the 100 checkpoints. Every checkpoint is checked.
    @Test func monteCarlo() throws {
        let (initial, checkpoints) = Self.loadMonte()
        #expect(initial.count == 64)
        #expect(checkpoints.count == 100)
        var seed = initial
        var buffer = [UInt8](repeating: 0, count: 192)
        for cp in checkpoints {
            buffer.replaceSubrange(0..<64, with: seed)
            buffer.replaceSubrange(64..<128, with: seed)
            buffer.replaceSubrange(128..<192, with: seed)
            for _ in 0..<1000 {
                let next = SHA512.hash(buffer)
                buffer.replaceSubrange(0..<128, with: buffer[64..<192])
                buffer.replaceSubrange(128..<192, with: next)
            }
            seed = Array(buffer[128..<192])
            #expect(Hex.encode(seed) == cp.digest, "COUNT \(cp.count)")
        }
    }
}

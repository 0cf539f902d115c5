import Primitives

/// Message/digest records of a NIST CAVP hash file (SHAVS and SHA3VS share the layout), shared by
/// the SHA-2 and SHA-3 tests.
enum DigestKAT {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let message: [UInt8]
        let digest: String
        var testDescription: String { name }
    }

    /// Loads `relative` under KAT/; a missing file gives no cases (each suite asserts its count).
    static func load(_ relative: String) -> [Case] {
        guard let text = try? KATFile.text(relative) else { return [] }
        let file = relative.split(separator: "/").last.map(String.init) ?? relative
        return RSP.parse(text).compactMap { r in
            guard let len = r.fields["Len"].flatMap(Int.init), let msg = r.fields["Msg"], let md = r.fields["MD"],
                  let bytes = len == 0 ? [] : Hex.decode(msg)
            else { return nil }
            // CAVP writes `Msg = 00` for the empty message: Len (in bits) is the authority.
            return Case(name: "\(file) Len=\(len)", message: bytes, digest: md)
        }
    }

    /// Feeds `message` to `update` in pieces of seeded random length 1...maxPiece, so a hasher's
    /// partial-block paths are exercised; the caller compares the digest with the one-shot answer.
    static func absorbInPieces(_ message: [UInt8], maxPiece: Int, rng: inout SplitMix64, _ update: (ArraySlice<UInt8>) -> Void) {
        var rest = message[...]
        while !rest.isEmpty {
            let n = Int(rng.next() % UInt64(min(rest.count, maxPiece))) + 1
            update(rest.prefix(n))
            rest = rest.dropFirst(n)
        }
    }
}

import Testing

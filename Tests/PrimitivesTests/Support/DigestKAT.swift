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
}

import Testing

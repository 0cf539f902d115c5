import Foundation
import Primitives
import Testing

/// SHAKE128 / SHAKE256 against the NIST CAVP SHA3VS short-message, long-message and
/// variable-output files, plus incremental-squeeze consistency.
struct SHAKETests {
    enum Function: String, Sendable { case shake128 = "SHAKE128", shake256 = "SHAKE256" }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let function: Function
        let message: [UInt8]
        let output: String
        var testDescription: String { name }
    }

    /// Short/Long files give the output length (bits) in the `[Outputlen = n]` header and the
    /// message length in `Len` (bits); VariableOut files give `Outputlen` per record.
    static func load(_ function: Function, _ kind: String) -> [Case] {
        let file = "\(function.rawValue)\(kind).rsp"
        guard let text = try? KATFile.text("shake/\(file)") else { return [] }
        return RSP.parse(text).enumerated().compactMap { index, r in
            guard let msg = r.fields["Msg"], let out = r.fields["Output"],
                  let outBits = (r.fields["Outputlen"] ?? r.section["Outputlen"]).flatMap(Int.init),
                  outBits % 8 == 0, out.count == outBits / 4
            else { return nil }
            let len = r.fields["Len"].flatMap(Int.init)
            guard let bytes = len == 0 ? [] : Hex.decode(msg) else { return nil }
            let label = r.fields["COUNT"].map { "COUNT=\($0)" } ?? "Len=\(len ?? -1)"
            return Case(name: "\(file) \(label) out=\(outBits)", function: function, message: bytes, output: out)
        }
    }

    static let shake128Short = load(.shake128, "ShortMsg")
    static let shake128Long = load(.shake128, "LongMsg")
    static let shake128Variable = load(.shake128, "VariableOut")
    static let shake256Short = load(.shake256, "ShortMsg")
    static let shake256Long = load(.shake256, "LongMsg")
    static let shake256Variable = load(.shake256, "VariableOut")

    /// Record counts of the files as shipped (see PROVENANCE): a silently empty list would pass.
    @Test func filesAreNotEmpty() {
        #expect(Self.shake128Short.count == 337)
        #expect(Self.shake128Long.count == 24)
        #expect(Self.shake128Variable.count == 65)  // COUNT 0...64 (PROVENANCE says "first 64")
        #expect(Self.shake256Short.count == 273)
        #expect(Self.shake256Long.count == 24)
        #expect(Self.shake256Variable.count == 65)  // COUNT 0...64
    }

    static func digest(_ c: Case, count: Int) -> [UInt8] {
        switch c.function {
        case .shake128: SHAKE128.hash(c.message, outputByteCount: count)
        case .shake256: SHAKE256.hash(c.message, outputByteCount: count)
        }
    }

    @Test(arguments: shake128Short + shake128Long + shake128Variable)
    func shake128KnownAnswer(_ c: Case) {
        #expect(Hex.encode(Self.digest(c, count: c.output.count / 2)) == c.output)
    }

    @Test(arguments: shake256Short + shake256Long + shake256Variable)
    func shake256KnownAnswer(_ c: Case) {
        #expect(Hex.encode(Self.digest(c, count: c.output.count / 2)) == c.output)
    }

    /// Squeezing in several chunks (sizes chosen to straddle the 168/136-byte block boundaries)
    /// continues one output stream: the concatenation equals one squeeze of the total length.
    @Test(arguments: [Function.shake128, .shake256])
    func chunkedSqueezeEqualsOneSqueeze(_ f: Function) {
        var rng = SplitMix64(seed: 0x5eed_5a4e)
        print("chunkedSqueezeEqualsOneSqueeze seed 0x5eed5a4e")
        for trial in 0..<40 {
            let message = (0..<Int(rng.next() % 400)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            let total = 1 + Int(rng.next() % 1500)
            let whole: [UInt8]
            var chunked: [UInt8] = []
            switch f {
            case .shake128:
                whole = SHAKE128.hash(message, outputByteCount: total)
                var x = SHAKE128()
                x.update(message)
                while chunked.count < total {
                    let n = min(total - chunked.count, trial < 5 ? [1, 167, 168, 169, 336][trial] : Int(rng.next() % 400))
                    chunked += x.squeeze(n)
                }
            case .shake256:
                whole = SHAKE256.hash(message, outputByteCount: total)
                var x = SHAKE256()
                x.update(message)
                while chunked.count < total {
                    let n = min(total - chunked.count, trial < 5 ? [1, 135, 136, 137, 272][trial] : Int(rng.next() % 400))
                    // Alternate the array and the raw-buffer squeeze.
                    if trial % 2 == 0 {
                        chunked += x.squeeze(n)
                    } else {
                        var part = [UInt8](repeating: 0, count: n)
                        part.withUnsafeMutableBytes { x.squeeze(into: $0) }
                        chunked += part
                    }
                }
            }
            #expect(chunked == whole, "trial \(trial)")
        }
    }

    /// Zero-length squeezes are allowed and do not disturb the stream.
    @Test func zeroLengthSqueeze() {
        var x = SHAKE128()
        x.update([1, 2, 3] as [UInt8])
        #expect(x.squeeze(0) == [])
        let a = x.squeeze(10)
        #expect(a == SHAKE128.hash([1, 2, 3] as [UInt8], outputByteCount: 10))
    }
}

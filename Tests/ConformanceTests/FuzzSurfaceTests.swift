import Conformance
import Foundation
import Primitives
import Testing
import Vectors

/// The fuzz surfaces (issue 27) over their own seeds: every surface is seeded from the committed
/// vectors, and on those seeds what it asserts holds (a finding here would be a finding of the
/// first second of fuzzing). Each kind of assertion is shown to fail on a planted fault, so a
/// target that can never report is caught.
struct FuzzSurfaceTests {
    static let files: [String: VectorFile] = {
        var out: [String: VectorFile] = [:]
        for h in Reference.handlers { out[h.format] = try? VectorFile.read(format: h.format, in: Fixtures.vectors) }
        return out
    }()

    static func seeds(_ s: FuzzSurface) -> [[UInt8]] {
        s.seedFormats.flatMap { files[$0].map(s.seeds(from:)) ?? [] } + s.extraSeeds()
    }

    @Test func namesAreUniqueTargetNames() {
        let names = ConformanceFuzzSurfaces.all.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { (0x61...0x7a).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5f } })
        #expect(names.count >= 17, "\(names)")
    }

    /// Every seed of every surface passes its check. Slow surfaces (a KEM and a signature per
    /// input) take a sample of their seeds, spread over the list.
    @Test(arguments: ConformanceFuzzSurfaces.all.map(\.name))
    func seedsHold(_ name: String) throws {
        let s = try #require(ConformanceFuzzSurfaces.named(name))
        let all = Self.seeds(s)
        #expect(all.count >= 2, "\(name) has \(all.count) seed(s)")
        let cap = ["sealed_envelope", "discovery_box", "op_input", "http_request"].contains(name) ? 60 : 400
        let step = max(1, all.count / cap)
        for (i, seed) in all.enumerated() where i % step == 0 {
            if let f = s.run(seed) { Issue.record("\(f)") }
        }
    }

    /// The bytes nobody sends: empty, one byte of each value, truncations of a seed.
    @Test(arguments: ConformanceFuzzSurfaces.all.map(\.name))
    func edgeBytesHold(_ name: String) throws {
        let s = try #require(ConformanceFuzzSurfaces.named(name))
        var inputs: [[UInt8]] = [[]] + (0...255).map { [UInt8($0)] }
        if let seed = Self.seeds(s).min(by: { $0.count < $1.count }) {
            inputs += stride(from: 0, to: seed.count, by: max(1, seed.count / 16)).map { Array(seed.prefix($0)) }
        }
        for b in inputs { if let f = s.run(b) { Issue.record("\(f)") } }
    }

    @Test func cborFindsANonShortestEncodingTheReaderWronglyAccepts() throws {
        let s = try #require(ConformanceFuzzSurfaces.named("cbor"))
        // 0x18 0x05: the integer 5 in a two-byte head; §1 refuses it, the writer gives 0x05.
        #expect(s.run([0x18, 0x05]) == nil)
        let planted = Mutant.$active.withValue(.cborNonShortestAccepted) { s.run([0x18, 0x05]) }
        #expect(planted?.what.contains("non-deterministic encoding") == true, "\(String(describing: planted))")
    }

    @Test func aDecodeOpFindsAnAnswerThatDoesNotReencode() throws {
        // A sync ack whose request_id is a 16-byte string with a two-byte length head.
        let s = try #require(ConformanceFuzzSurfaces.named("sync_messages"))
        let ack = try #require(Hex.decode("a3626f6bf564747970656873796e635f61636b6a726571756573745f6964" + "5810" + "21a2afe87397be22c94d130a0a79790e"))
        let selected = [UInt8(2)] + ack  // decode_ack
        #expect(s.run(selected) == nil)
        let planted = Mutant.$active.withValue(.cborNonShortestAccepted) { s.run(selected) }
        #expect(planted?.what.contains("non-canonical encoding") == true, "\(String(describing: planted))")
    }

    @Test func httpRequestFindsARefusalOutsideTheListAndReadsPipelinedRequests() throws {
        let two = Array("GET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)
        let outcomes = HTTPRequestReader.read(two)
        #expect(outcomes.count == 2)
        guard case .request(let r, let close)? = outcomes.last else { Issue.record("\(outcomes)"); return }
        #expect(r.target == "/hello" && close)
        guard case .refused(let bad)? = HTTPRequestReader.read(Array("GET /x HTTP/2.0\r\n\r\n".utf8)).first else { Issue.record("no refusal"); return }
        #expect(bad.status == 505)
        let s = try #require(ConformanceFuzzSurfaces.named("http_request"))
        #expect(s.run([0] + two) == nil)
        // At the cap of 100 fields: accepted, and written back with a Content-Length too (101
        // fields, 431) — the serializer's own field, not a fault of the reader (the long run's
        // finding, crash-a477db64…). One field more is refused on the way in.
        let atCap = "POST /pair HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: HTTPWire.maxFields) + "\r\n"
        guard case .request? = HTTPRequestReader.read(Array(atCap.utf8)).first else { Issue.record("100 fields refused"); return }
        #expect(s.run([0] + Array(atCap.utf8)) == nil)
        let over = "POST /pair HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: HTTPWire.maxFields + 1) + "\r\n"
        guard case .refused(let r)? = HTTPRequestReader.read(Array(over.utf8)).first else { Issue.record("101 fields accepted"); return }
        #expect(r.status == 431)
    }

    @Test func settleReportsAnOpThatIsNotThere() throws {
        // The op-input surface reports an answer of unknown_op: its op list and the handler's agree.
        let s = FuzzSurface.opInput("t", "t", handler: SettleHandler(), ops: ["no_such_op"])
        #expect(s.run([0] + Array("{}".utf8))?.what.contains("unknown_op") == true)
    }

    @Test func dictionariesHoldTheWireKeys() throws {
        let s = try #require(ConformanceFuzzSurfaces.named("sync_messages"))
        let dict = s.dictionary(seeds: Self.seeds(s).map { Array($0.dropFirst()) })
        #expect(dict.contains(Array([0x6a] + "request_id".utf8)), "\(dict.count) tokens")
        let j = try #require(ConformanceFuzzSurfaces.named("op_input"))
        #expect(j.dictionary(seeds: Self.seeds(j).prefix(50).map { $0 }).contains(Array(#""format""#.utf8)))
    }
}

/// `Fuzz/` builds a target per folder; the folders and the surfaces must be the same list.
struct FuzzPackageLayoutTests {
    @Test func everySurfaceHasItsTargetFolderAndNoOther() throws {
        let sources = Fixtures.packageRoot.appendingPathComponent("Fuzz/Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasPrefix("fuzz_") }.sorted()
        #expect(folders == ConformanceFuzzSurfaces.all.map { "fuzz_\($0.name)" }.sorted())
        for s in ConformanceFuzzSurfaces.all {
            let main = try String(contentsOf: sources.appendingPathComponent("fuzz_\(s.name)/main.swift"), encoding: .utf8)
            #expect(main.contains("FuzzTarget(\"\(s.name)\")"), "fuzz_\(s.name)/main.swift")
        }
    }
}

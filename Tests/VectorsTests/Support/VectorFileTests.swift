import Foundation
import Primitives
import Testing
@testable import Vectors

/// Every committed vector file, case by case, through the reference's JSON entry point (the path
/// `conformance serve` uses), plus the file-level promises: the CBOR twins hold the same data, the
/// manifest matches, and generation is deterministic (one format here; every format byte for byte
/// is `conformance verify`, which `.ci/run` runs on the release build).
struct VectorFileTests {
    static let formats = ["state_digest", "reconcile", "sync_offer", "signin", "device_list", "account_state", "settle", "pairing", "revocation", "envelope"]

    @Test func everyFormatHasItsFileAndEveryOp() {
        #expect(Set(Reference.handlers.map(\.format)) == Set(Self.formats))
        for h in Reference.handlers {
            let cs = Committed.cases(h.format)
            #expect(cs.count > 50, "\(h.format)")
            #expect(Set(cs.map(\.op)) == Set(h.ops), "\(h.format)")
        }
    }

    /// One test per format (not per case: the arguments of a parameterized test are built before
    /// any test runs, and building 2,966 of them meant parsing every file up front). A failure
    /// names each case that differs.
    @Test(arguments: formats)
    func everyCaseMatchesTheReference(_ format: String) throws {
        let handler = try #require(Reference.handler(for: format))
        let cases = try Committed.file(format).cases
        #expect(cases.count > 50)
        for c in cases {
            do {
                let out = try handler.run(op: c.op, input: c.input.json)
                #expect(c.expectedTree.json == .object([("output", out)]), "\(c.id): the reference answered \(out.compact)")
            } catch {
                #expect(c.expectedTree.json == .object([("error", .string(error.code.rawValue))]), "\(c.id): the reference rejected with \(error)")
            }
        }
    }

    /// Member order differs between the twins (CBOR sorts keys); the data must not.
    static func unordered(_ v: JSONValue) -> JSONValue {
        switch v {
        case .array(let a): return .array(a.map(unordered))
        case .object(let o): return .object(o.map { ($0.0, unordered($0.1)) }.sorted { $0.0 < $1.0 })
        default: return v
        }
    }

    @Test(arguments: formats)
    func cborTwinHoldsTheSameData(_ format: String) throws {
        let json = try JSONValue.parse(try Fixtures.repoFile("vectors/\(format).json"))
        let cborBytes = try Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("vectors/\(format).cbor"))
        let cbor = try CBORReader.decode([UInt8](cborBytes), maxDepth: 64)
        #expect(Self.unordered(cbor.json) == Self.unordered(json))
    }

    @Test func manifestListsTheFiles() throws {
        let manifest = try JSONValue.parse(try Fixtures.repoFile("vectors/MANIFEST.json"))
        let files = try #require(manifest["files"]?.arrayValue)
        #expect(files.count == 2 * Self.formats.count)
        for format in Self.formats {
            for name in ["\(format).json", "\(format).cbor"] {
                let entry = try #require(files.first { $0["file"]?.stringValue == name })
                let bytes = try Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("vectors/\(name)"))
                #expect(entry["sha256"]?.stringValue == SHA256.hash([UInt8](bytes)).hex)
                #expect(entry["cases"]?.int64Value == Int64(Committed.cases(format).count))
            }
        }
    }

    /// The format a fresh generation is checked on here: small and quick in a debug build, and the
    /// format whose leaf bytes the drift gate exists for. Every format is `conformance verify`'s.
    static let generatedFormat: Set<String> = ["state_digest"]

    /// One generation shared by the tests that read it (with the derived cases it takes most of
    /// this suite's time in a debug build).
    static let fresh = Result { try VectorSuite.generate(formats: generatedFormat) }

    @Test func generationIsDeterministicAndMatchesDisk() throws {
        let a = try Self.fresh.get().files
        let b = try VectorSuite.generate(formats: Self.generatedFormat).files
        #expect(a.map(\.name) == ["state_digest.json", "state_digest.cbor"])
        #expect(a.map(\.bytes) == b.map(\.bytes))
        for f in a {
            let onDisk = try Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("vectors/\(f.name)"))
            #expect([UInt8](onDisk) == f.bytes, "\(f.name) differs from a fresh generation: run conformance generate")
        }
    }

    /// verify names the case that moved when one byte of a file changes (the mechanics: without
    /// the derived cases, which verify treats like any other).
    @Test func verifyNamesTheChangedCase() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UInt32.random(in: 0...UInt32.max))")
        try VectorSuite.write(to: dir, formats: Self.generatedFormat, derived: false)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try VectorSuite.verify(directory: dir, formats: Self.generatedFormat, derived: false).map(\.description) == [])
        let url = dir.appendingPathComponent("state_digest.json")
        var text = try String(contentsOf: url, encoding: .utf8)
        let id = "state_digest/leaf/contacts/typical"
        let range = try #require(text.range(of: "\"id\": \"\(id)\""))
        let leafRange = try #require(text.range(of: "\"leaf\": \"", range: range.upperBound..<text.endIndex))
        let i = leafRange.upperBound
        text.replaceSubrange(i...i, with: text[i] == "0" ? "1" : "0")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let diffs = try VectorSuite.verify(directory: dir, formats: Self.generatedFormat, derived: false)
        #expect(diffs.map(\.caseID) == [id])
    }

    /// A committed file read back gives the cases a generation gives: the same ids, ops, flags and
    /// expectations, and inputs whose JSON is the JSON a testee is sent.
    @Test func committedFileReadsBackAsGenerated() throws {
        let generated = try Self.fresh.get().vectorFiles[0]
        let read = try Committed.file("state_digest")
        #expect(read.cases.count == generated.cases.count)
        #expect(read.wireVersion == generated.wireVersion)
        for (r, g) in zip(read.cases, generated.cases) {
            #expect(r.tree.json == g.tree.json, "\(g.id)")
        }
        #expect(throws: WireError.self) { try VectorFile.read(json: #"{"format": "x", "cases": [{"id": "x/a/b/c", "op": "a", "input": {}, "expected": {"error": "no_such_code"}}]}"#) }
    }
}

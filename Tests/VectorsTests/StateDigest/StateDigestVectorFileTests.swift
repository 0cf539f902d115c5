import Foundation
import Primitives
import Testing
@testable import Vectors

/// The committed `vectors/state_digest.json`, case by case, through the reference's JSON entry
/// point (the path `conformance serve` uses), plus the file-level promises: the CBOR twin holds the
/// same data, the manifest matches, and generation is deterministic.
struct StateDigestVectorFileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let op: String
        let input: JSONValue
        let expected: JSONValue
        var testDescription: String { id }
    }

    static let fileText: String? = try? Fixtures.repoFile("vectors/state_digest.json")

    static let cases: [Case] = {
        guard let text = fileText, let json = try? JSONValue.parse(text), let items = json["cases"]?.arrayValue else { return [] }
        return items.map { Case(id: $0["id"]!.stringValue!, op: $0["op"]!.stringValue!, input: $0["input"]!, expected: $0["expected"]!) }
    }()

    @Test func fileHasCases() {
        #expect(Self.cases.count > 200)
        #expect(Set(Self.cases.map(\.op)) == Set(StateDigestHandler().ops))
    }

    @Test(arguments: cases)
    func caseMatchesReference(_ c: Case) {
        let handler = StateDigestHandler()
        do {
            let out = try handler.run(op: c.op, input: c.input)
            #expect(c.expected["output"] == out, "expected \(c.expected.compact)")
        } catch {
            #expect(c.expected["error"]?.stringValue == error.code.rawValue, "rejected with \(error)")
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

    @Test func cborTwinHoldsTheSameData() throws {
        let json = try JSONValue.parse(Self.fileText ?? "")
        let cborBytes = try Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("vectors/state_digest.cbor"))
        let cbor = try CBORReader.decode([UInt8](cborBytes), maxDepth: 64)
        #expect(Self.unordered(cbor.json) == Self.unordered(json))
    }

    @Test func manifestListsTheFiles() throws {
        let manifest = try JSONValue.parse(try Fixtures.repoFile("vectors/MANIFEST.json"))
        let files = try #require(manifest["files"]?.arrayValue)
        for name in ["state_digest.json", "state_digest.cbor"] {
            let entry = try #require(files.first { $0["file"]?.stringValue == name })
            let bytes = try Data(contentsOf: Fixtures.repoRoot.appendingPathComponent("vectors/\(name)"))
            #expect(entry["sha256"]?.stringValue == SHA256.hash([UInt8](bytes)).hex)
            #expect(entry["cases"]?.int64Value == Int64(Self.cases.count))
        }
    }

    @Test func generationIsDeterministicAndMatchesDisk() throws {
        let a = try VectorSuite.generateAll().files
        let b = try VectorSuite.generateAll().files
        #expect(a.map(\.bytes) == b.map(\.bytes))
        #expect(try VectorSuite.verify(directory: Fixtures.repoRoot.appendingPathComponent("vectors")).map(\.description) == [])
    }

    /// verify names the case that moved when one byte of a file changes.
    @Test func verifyNamesTheChangedCase() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("verify-\(UInt32.random(in: 0...UInt32.max))")
        try VectorSuite.write(to: dir)
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("state_digest.json")
        var text = try String(contentsOf: url, encoding: .utf8)
        let id = "state_digest/leaf/contacts/typical"
        let range = try #require(text.range(of: "\"id\": \"\(id)\""))
        let leafRange = try #require(text.range(of: "\"leaf\": \"", range: range.upperBound..<text.endIndex))
        let i = leafRange.upperBound
        text.replaceSubrange(i...i, with: text[i] == "0" ? "1" : "0")
        try text.write(to: url, atomically: true, encoding: .utf8)
        let diffs = try VectorSuite.verify(directory: dir)
        #expect(diffs.map(\.caseID) == [id])
    }
}

import Foundation
import Primitives
import Testing
@testable import Vectors

/// Every committed vector file, case by case, through the reference's JSON entry point (the path
/// `conformance serve` uses), plus the file-level promises: the CBOR twins hold the same data, the
/// manifest matches, and generation is deterministic.
struct VectorFileTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let format: String
        let id: String
        let op: String
        let input: JSONValue
        let expected: JSONValue
        var testDescription: String { id }
    }

    static let formats = ["state_digest", "reconcile", "sync_offer", "signin", "device_list", "account_state", "settle", "pairing", "revocation", "envelope"]

    static func cases(_ format: String) -> [Case] {
        guard let text = try? Fixtures.repoFile("vectors/\(format).json"), let json = try? JSONValue.parse(text),
              let items = json["cases"]?.arrayValue else { return [] }
        return items.map { Case(format: format, id: $0["id"]!.stringValue!, op: $0["op"]!.stringValue!, input: $0["input"]!, expected: $0["expected"]!) }
    }

    static let allCases: [Case] = formats.flatMap(cases)

    @Test func everyFormatHasItsFileAndEveryOp() {
        #expect(Set(Reference.handlers.map(\.format)) == Set(Self.formats))
        for h in Reference.handlers {
            let cs = Self.allCases.filter { $0.format == h.format }
            #expect(cs.count > 50, "\(h.format)")
            #expect(Set(cs.map(\.op)) == Set(h.ops), "\(h.format)")
        }
    }

    @Test(arguments: allCases)
    func caseMatchesReference(_ c: Case) throws {
        let handler = try #require(Reference.handler(for: c.format))
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
                #expect(entry["cases"]?.int64Value == Int64(Self.cases(format).count))
            }
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

import Foundation
import Primitives
import Testing
@testable import Vectors

/// Properties of the StateDigest reference beyond the vectors: decoders never trap, the fold's
/// shape, and SPEC.md's schema tables in step with the code.
struct StateDigestTests {
    @Test func decodeRejectsEveryOtherLength() {
        for n in 0...1024 where n != 417 {
            do {
                _ = try StateDigest.decode([UInt8](repeating: 6, count: n))
                Issue.record("length \(n) accepted")
            } catch {
                #expect(error.code == .digestWrongLength)
            }
        }
        for v in 0...255 where v != 6 {
            var b = [UInt8](repeating: 0, count: 417)
            b[0] = UInt8(v)
            #expect(throws: WireError(.digestUnsupportedVersion, "")) { try StateDigest.decode(b) }
        }
    }

    @Test func encodeDecodeRoundTrip() throws {
        var g = SeededGenerator(seed: 417)
        let d = StateDigest(roots: (0..<13).map { _ in SHA256Digest(bytes: g.bytes(32))! })
        let e = d.encoded()
        #expect(e.count == 417 && e[0] == 6)
        #expect(try StateDigest.decode(e) == d)
    }

    /// The fold against a direct recursive reading of SPEC.md §4.7 for every n up to 70.
    @Test func foldMatchesTheSpecDefinition() {
        func spec(_ level: [SHA256Digest]) -> SHA256Digest {
            if level.count == 1 { return level[0] }
            var next: [SHA256Digest] = []
            var i = 0
            while i + 1 < level.count { next.append(MerkleTree.node(level[i], level[i + 1])); i += 2 }
            if i < level.count { next.append(level[i]) }
            return spec(next)
        }
        for n in 1...70 {
            let leaves = LeafList.indexRule(count: n).map(\.leaf)
            #expect(MerkleTree.fold(leaves) == spec(leaves), "n = \(n)")
        }
        let five = LeafList.indexRule(count: 5).map(\.leaf)
        let n = MerkleTree.node
        #expect(MerkleTree.fold(five) == n(n(n(five[0], five[1]), n(five[2], five[3])), five[4]))
    }

    @Test func nodeHashesTheSeparatorAndBothChildren() {
        let a = SHA256.hash([1]), b = SHA256.hash([2])
        #expect(MerkleTree.node(a, b) == SHA256.hash(Array("pixie.state.node".utf8) + [0] + a.bytes + b.bytes))
        #expect(MerkleTree.node(a, b) != MerkleTree.node(b, a))
    }

    @Test func dateFloor() {
        let cases: [(Int64, Int64)] = [(0, 0), (999, 0), (1000, 1), (-1, -1), (-999, -1), (-1000, -1), (-1001, -2), (Int64.min, Int64.min / 1000 - 1)]
        for (ms, s) in cases { #expect(FieldValue.seconds(fromMillis: ms) == s, "\(ms)") }
    }

    /// SPEC.md §4.4 prints every schema; this keeps the prose and the code in step.
    @Test func specTablesMatchTheSchemas() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        for schema in LeafSchema.all {
            let header = "#### \(schema.namespace.rawValue) (sort key: `\(schema.keyField)`)"
            let start = try #require(spec.range(of: header), "no table for \(schema.namespace)")
            let rest = spec[start.upperBound...]
            // The next heading of any level from ### down ("\n###" also finds "\n####").
            let end = rest.range(of: "\n###")!.lowerBound
            let rows = rest[..<end].split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| #") }
            #expect(rows.count == schema.fields.count, "\(schema.namespace)")
            var number = 0
            for (row, f) in zip(rows, schema.fields) {
                let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                if f.isCommitted { number += 1 }
                #expect(cells[0] == (f.isCommitted ? String(number) : "–"), "\(schema.namespace).\(f.name)")
                #expect(cells[1] == f.name)
                #expect(cells[2] == f.kind.name, "\(schema.namespace).\(f.name)")
                let optional = f.kind.absentIsEmpty ? "absent ≡ empty" : (f.optional ? "yes" : "no")
                #expect(cells[3] == optional, "\(schema.namespace).\(f.name)")
                switch f.role {
                case .committed where schema.namespace == .settings:
                    // settings has no leaves: its committed fields are the dictionary's keys and values.
                    #expect(cells[4] == (f.name == "key" ? "map key" : "map value"))
                case .committed: #expect(cells[4] == "committed")
                case .excluded(let reason): #expect(cells[4] == "excluded: \(reason)")
                }
                // Every field says whether a seed names it or this suite chose it (SPEC §4.4).
                #expect(cells.count > 5 && (cells[5].hasPrefix("seed ") || cells[5].hasPrefix("**Choice**")), "\(schema.namespace).\(f.name) has no provenance")
            }
        }
    }

    /// Row parsing never traps on hostile JSON: wrong types everywhere give typed errors.
    @Test func rowParsingRejectsWrongTypes() {
        let values: [JSONValue] = [.null, .bool(true), .number("1.5"), .number("-1"), .string("zz"), .string("00"), .array([]), .object([])]
        for schema in LeafSchema.all {
            for f in schema.fields {
                for v in values {
                    var row = SampleRows.typical(schema.namespace).tree.json.objectValue!
                    if let i = row.firstIndex(where: { $0.0 == f.name }) { row[i].1 = v } else { row.append((f.name, v)) }
                    _ = try? Row.parse(.object(row), namespace: schema.namespace, path: "row")
                }
            }
        }
    }
}

/// SPEC.md §3 is the one error vocabulary: every code the implementation can throw is listed
/// there, and every code listed there exists.
struct ErrorVocabularyTests {
    @Test func section3ListsExactlyTheCodes() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        let start = try #require(spec.range(of: "## 3. Error vocabulary"))
        let end = try #require(spec.range(of: "## 4. ", range: start.upperBound..<spec.endIndex))
        let section = spec[start.upperBound..<end.lowerBound]
        var listed = Set<String>()
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let firstCell = line.split(separator: "|")[0]
            for piece in firstCell.split(separator: "`") where !piece.trimmingCharacters(in: .whitespaces).isEmpty && !piece.contains(",") {
                listed.insert(String(piece))
            }
        }
        let codes = Set(ErrorCode.allCases.map(\.rawValue))
        #expect(codes.subtracting(listed).sorted() == [], "codes missing from SPEC.md §3")
        #expect(listed.subtracting(codes).sorted() == [], "codes in SPEC.md §3 that the implementation does not have")
    }
}

struct ByteOrderTests {
    /// memcmp-based ordering equals the generic lexicographic order on seeded keys of mixed lengths.
    @Test func matchesLexicographicOrder() {
        var g = SeededGenerator(seed: 0xb17e)
        print("ByteOrderTests seed 0xb17e")
        for _ in 0..<5_000 {
            let a = g.bytes(Int(g.next() % 5)).map { $0 & 0x03 }, b = g.bytes(Int(g.next() % 5)).map { $0 & 0x03 }
            #expect(ByteOrder.precedes(a, b) == a.lexicographicallyPrecedes(b), "\(a) \(b)")
        }
    }
}

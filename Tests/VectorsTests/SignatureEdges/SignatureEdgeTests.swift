import Foundation
import Primitives
import Testing
@testable import Vectors

/// The signature edge generator (SPEC.md §9.5) and the claims SPEC.md §9.1 makes about it: each
/// class gets the suite verdict it claims, built deterministically, and the table of stock
/// verifiers in §9.1 is exactly what the modelled verifiers compute.
struct SignatureEdgeTests {
    static let seed = SHA256.hash(Array("signature-edge-tests.ed25519".utf8)).bytes
    static let mldsa = try! MLDSA65.PrivateKey(seed: SHA256.hash(Array("signature-edge-tests.mldsa".utf8)).bytes)
    static let message = Array("a message every class signs".utf8)

    @Test func everyEd25519ClassGetsItsClaimedVerdictDeterministically() throws {
        for c in Ed25519EdgeClass.allCases {
            let realA = try Ed25519.PrivateKey(seed: Self.seed).publicKey.rawRepresentation
            let a = Ed25519EdgeGenerator.publicKey(c, signerKey: realA)
            let e = try Ed25519EdgeGenerator.make(c, seed: Self.seed, message: Self.message)
            #expect(e.publicKey == a)
            #expect(e.signature.count == 64)
            let key = try Ed25519.PublicKey(rawRepresentation: a)
            #expect(key.isValidSignature(e.signature, for: Self.message) == c.validUnderSuite, "\(c.rawValue)")
            #expect(c.ownKey == (a != realA), "\(c.rawValue)")
            // Deterministic: the same inputs give the same bytes.
            #expect(try Ed25519EdgeGenerator.make(c, seed: Self.seed, message: Self.message).signature == e.signature)
        }
    }

    @Test func everyMLDSAClassIsRejectedByFIPS204() throws {
        let genuine = try Self.mldsa.deterministicSignature(for: Self.message)
        let hintFree = try MLDSAEdgeGenerator.hintFreeSignature(key: Self.mldsa, message: Self.message)
        for c in MLDSAEdgeClass.allCases {
            let e = try MLDSAEdgeGenerator.make(c, key: Self.mldsa, message: Self.message, genuine: genuine, hintFree: { hintFree })
            #expect(!Self.mldsa.publicKey.isValidSignature(e.signature, for: Self.message), "\(c.rawValue)")
            #expect((e.signature.count != MLDSA65.signatureByteCount) == c.changesLength)
        }
    }

    /// Issue 23: the two count classes change a count and nothing a decoder without the count
    /// test reads, so such a decoder accepts them (c̃ matches) and FIPS 204 rejects them for the
    /// count alone. The signature they start from is valid and has a polynomial without hints.
    @Test func hintCountClassesAreDecidedByTheCountCheckAlone() throws {
        let hintFree = try MLDSAEdgeGenerator.hintFreeSignature(key: Self.mldsa, message: Self.message)
        let pk = Self.mldsa.publicKey
        #expect(pk.isValidSignature(hintFree.signature, for: Self.message))
        let counts = MLDSAEdgeGenerator.counts(hintFree.signature)
        #expect(hintFree.polynomial >= 1 && counts[hintFree.polynomial] == counts[hintFree.polynomial - 1] && counts[hintFree.polynomial] > 0)
        let genuine = try Self.mldsa.deterministicSignature(for: Self.message)
        let cases: [(MLDSAEdgeClass, [LenientMLDSAVerifier])] = [
            (.hintCountDecreasingSameHints, [.skipsHintCountOrder, .skipsHintCount]),
            (.hintCountOverOmegaSameHints, [.skipsHintCount]),
        ]
        for (c, acceptors) in cases {
            let e = try MLDSAEdgeGenerator.make(c, key: Self.mldsa, message: Self.message, genuine: genuine, hintFree: { hintFree })
            #expect(!pk.isValidSignature(e.signature, for: Self.message), "\(c.rawValue): FIPS 204 rejects it")
            // Exactly one byte differs from the valid signature: the count.
            let diff = zip(e.signature, hintFree.signature).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
            #expect(diff == [MLDSAEdgeGenerator.hintOffset + MLDSAEdgeGenerator.omega + hintFree.polynomial], "\(c.rawValue)")
            for v in LenientMLDSAVerifier.allCases {
                #expect(v.accepts(publicKey: pk, signature: e.signature, message: Self.message) == acceptors.contains(v), "\(c.rawValue) under \(v.rawValue)")
            }
        }
        // The withdrawn construction (the last count set to ω + 1) changes the hints a decoder
        // without the bound reads, so even that decoder rejects it: it could not pin the check.
        var old = genuine
        old[MLDSAEdgeGenerator.hintOffset + MLDSAEdgeGenerator.omega + MLDSAEdgeGenerator.k - 1] = UInt8(MLDSAEdgeGenerator.omega + 1)
        #expect(!LenientMLDSAVerifier.skipsHintCount.accepts(publicKey: pk, signature: old, message: Self.message))
    }

    /// The §9.1 "where stock verifiers differ" table, row by row, against the modelled verifiers.
    @Test func specTableMatchesTheModelledVerifiers() throws {
        let spec = try Fixtures.repoFile("SPEC.md")
        let header = try #require(spec.split(separator: "\n").first { $0.hasPrefix("| class | §9.1:") })
        let columns = header.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }.dropFirst(2)
        let verifiers = try columns.map { name in try #require(StockEd25519Verifier(rawValue: name), "unknown column \(name)") }
        var rows = 0
        for c in Ed25519EdgeClass.allCases {
            let line = try #require(spec.split(separator: "\n").first { $0.hasPrefix("| `ed25519-\(c.rawValue)` |") }, "no row for \(c.rawValue)")
            // (class, suite, one cell per verifier column)
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let e = try Ed25519EdgeGenerator.make(c, seed: Self.seed, message: Self.message)
            #expect(cells.dropFirst().first == (c.validUnderSuite ? "✓" : "✗"), "\(c.rawValue): the suite column")
            for (v, cell) in zip(verifiers, cells.dropFirst(2)) {
                let accepts = v.accepts(publicKey: e.publicKey, signature: e.signature, message: Self.message)
                #expect(cell == (accepts ? "✓" : "✗"), "\(c.rawValue) under \(v.rawValue)")
            }
            rows += 1
        }
        #expect(rows == Ed25519EdgeClass.allCases.count)
        #expect(verifiers.count == StockEd25519Verifier.allCases.count)
    }

    /// Every hybrid item's failure is the one its classes predict, and only the length classes
    /// change the length.
    @Test func hybridItems() throws {
        let items = try HybridEdges.all(ed25519Seed: Self.seed, mldsa: Self.mldsa, message: { a in Self.message + a })
        #expect(items.count == Ed25519EdgeClass.allCases.count + MLDSAEdgeClass.allCases.count + HybridEdges.both.count)
        #expect(items.filter { $0.failure == nil }.map(\.name).sorted()
                == Ed25519EdgeClass.allCases.filter(\.validUnderSuite).map { "ed25519/\($0.rawValue)" }.sorted())
        #expect(items.filter { $0.failure == .wrongLength }.count == 2)
        #expect(items.filter { $0.name.hasPrefix("both/") }.allSatisfy { $0.failure == .bothInvalid })
        // A key-dependent message is signed per key: the item verifies against message(A).
        for i in items where i.ownKey { #expect(i.message == Self.message + i.ed25519PublicKey) }
    }
}

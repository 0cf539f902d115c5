import Testing
@testable import Vectors

/// A sample of the mutant proof, so a contributor sees a broken kill locally: the first mutant of
/// each format (catalog order) is killed by some committed case of its format. The whole proof,
/// every mutant against every case of a fresh generation, is `conformance mutants --matrix`,
/// which `.ci/run` runs on the release build (in a debug build it takes many minutes).
struct MutantKillTests {
    /// One mutant a format: the first the catalog lists for it.
    static let sample: [Mutant] = {
        var seen = Set<String>()
        return Mutant.allCases.filter { seen.insert($0.format).inserted }
    }()

    @Test func sampleHasEveryFormat() {
        #expect(Set(Self.sample.map(\.format)) == Set(Reference.handlers.map(\.format)))
    }

    @Test(arguments: sample)
    func mutantIsKilled(_ m: Mutant) throws {
        let file = try Committed.file(m.format)
        #expect(file.cases.count > 50)
        let row = MutantMatrix.compute([file], mutants: [m])[0]
        #expect(!row.killedBy.isEmpty, "\(m.rawValue) survives every vector: add a vector that catches it")
    }

    @Test func catalogSize() {
        #expect(Mutant.allCases.count >= 40)
        #expect(Set(Mutant.allCases.map(\.summary)).count == Mutant.allCases.count)
    }
}

import Testing
@testable import Vectors

/// Every mutant is killed by at least one golden case, and the unmutated reference passes all of
/// them. A survivor means a missing vector: add the vector, never remove the mutant.
struct MutantKillTests {
    static let files: [VectorFile] = (try? VectorSuite.generateAll().vectorFiles) ?? []

    @Test func unmutatedReferencePassesEverything() throws {
        #expect(!Self.files.isEmpty)
        #expect(Mutant.active == nil)
        for vf in Self.files {
            let handler = try #require(Reference.handler(for: vf.format))
            let failing = vf.cases.filter { !MutantMatrix.passes($0, handler: handler) }.map(\.id)
            #expect(failing == [], "\(vf.format)")
        }
    }

    @Test(arguments: Mutant.allCases)
    func mutantIsKilled(_ m: Mutant) {
        let row = MutantMatrix.compute(Self.files, mutants: [m])[0]
        #expect(!row.killedBy.isEmpty, "\(m.rawValue) survives every vector: add a vector that catches it")
    }

    @Test func catalogSize() {
        #expect(Mutant.allCases.count >= 35)
        #expect(Set(Mutant.allCases.map(\.summary)).count == Mutant.allCases.count)
    }
}

import Testing
@testable import Conformance
import Vectors

/// `conformance simulate -- CMD`: a testee's settle/step drives the simulated devices.
@Suite struct SimulateTesteeTests {
    static func reaction() -> SimParameters {
        var p = SimParameters()
        p.scenario = .reaction
        p.rows = 1000
        p.limitMillis = 20_000
        return p
    }

    @Test func theReferenceServedAsATesteeConvergesLikeTheReference() throws {
        let testee = try TesteeStepper(command: Fixtures.serve)
        defer { testee.close() }
        let r = Simulation.run(Self.reaction()) { _ in testee }
        let reference = Simulation.run(Self.reaction())
        #expect(r.error == nil)
        #expect(testee.disagreements == 0)
        #expect(r.converged)
        #expect(r.convergeMillis == reference.convergeMillis)
        #expect(r.relayBytes == reference.relayBytes)
        #expect(r.stepper.hasPrefix("testee "))
    }

    @Test func aTesteeThatSkipsTheNoOpReAdvertisementStalls() throws {
        let testee = try TesteeStepper(command: Fixtures.serve + ["--mutant", "settle.readvertise-only-when-applied"])
        defer { testee.close() }
        let r = Simulation.run(Self.reaction()) { _ in testee }
        #expect(!r.converged)
        #expect(testee.disagreements >= 1)
        #expect(r.notes.contains { $0.contains("response_applied") && $0.contains("\"reason\":\"applied\"") }, "\(r.notes)")
    }

    @Test func aTesteeWithoutSettleIsRefused() throws {
        #expect(throws: TesteeStepper.Failure.self) {
            _ = try TesteeStepper(command: ["python3", Fixtures.pythonTestee])
        }
    }
}

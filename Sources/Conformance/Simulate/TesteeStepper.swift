import Foundation
import Vectors

/// A simulated device's scheduler run by a testee: every transition goes out as a `settle/step`
/// case over the runner protocol (SPEC.md §6, §12.7), and the testee's state and actions drive
/// the simulation. Each step is also run on the reference; the first disagreements are kept for
/// the report, so a team sees where its loop and the reference part, and then what its own loop
/// does to convergence.
public final class TesteeStepper: SettleStepper {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    let session: TesteeSession
    let timeout: Double
    var count = 0
    public private(set) var disagreements = 0
    var firstDisagreements: [String] = []

    /// Starts `command` and checks that it offers `settle/step`.
    public init(command: [String], timeout: Double = 10) throws {
        do { session = try TesteeSession.start(command: command, handshakeTimeout: 30) } catch {
            throw Failure(description: "the testee could not be started: \(error)")
        }
        self.timeout = timeout
        guard session.hello.supports(format: "settle", op: "step") else {
            session.close()
            throw Failure(description: "the testee (\(session.hello.name)) does not offer settle/step in its hello")
        }
    }

    public var name: String { "testee \(session.hello.name) \(session.hello.version)" }

    public var notes: [String] {
        ["testee steps: \(count), disagreements with the reference: \(disagreements)"] + firstDisagreements
    }

    public func step(device: Int, state: SettleState, event: SettleEvent) throws -> (state: SettleState, actions: [SettleAction]) {
        count += 1
        let id = "simulate/device-\(device)/\(count)"
        let input = SettleCodec.stepInput(state, event)
        let expected: Result<(state: SettleState, actions: [SettleAction]), WireError>
        do { expected = .success(try expectedActions(state, event)) } catch { expected = .failure(error) }
        let message = RunnerProtocol.caseMessage(id: id, format: "settle", op: "step", input: input)
        switch session.exchange(message, id: id, timeout: timeout) {
        case .result(let r):
            switch r.status {
            case .ok(let out):
                let got: (state: SettleState, actions: [SettleAction])
                do { got = try SettleCodec.readStepOutput(out) } catch {
                    throw Failure(description: "\(id): the testee's output does not read as a settle step output: \(error)")
                }
                if case .success(let e) = expected, e.state != got.state || e.actions != got.actions {
                    disagree(id, event, expected: e.actions.map(\.tree.json.compact).joined(separator: ", "),
                             got: got.actions.map(\.tree.json.compact).joined(separator: ", "), stateDiffers: e.state != got.state)
                } else if case .failure(let e) = expected {
                    disagree(id, event, expected: "rejected \(e.code.rawValue)", got: "ok", stateDiffers: false)
                }
                return got
            case .rejected(let code, let message):
                if case .failure(let e) = expected, e.code.rawValue == code { throw e }
                disagree(id, event, expected: "ok", got: "rejected \(code)", stateDiffers: false)
                throw Failure(description: "\(id): the testee rejected the step with \(code)\(message.map { ": \($0)" } ?? "")")
            case .unsupported(let reason):
                throw Failure(description: "\(id): the testee answered unsupported\(reason.map { ": \($0)" } ?? "")")
            case .error(let message):
                throw Failure(description: "\(id): the testee reported an internal error: \(message)")
            }
        case .crash(let status):
            throw Failure(description: "\(id): the testee exited (\(status)) with a step in flight")
        case .timeout(let seconds):
            throw Failure(description: "\(id): no answer within \(seconds) s")
        case .protocolError(let v):
            throw Failure(description: "\(id): protocol error: \(v)")
        }
    }

    func expectedActions(_ state: SettleState, _ event: SettleEvent) throws(WireError) -> (state: SettleState, actions: [SettleAction]) {
        var s = state
        let a = try SettleScheduler.step(&s, event, rules: .reference)
        return (s, a)
    }

    func disagree(_ id: String, _ event: SettleEvent, expected: String, got: String, stateDiffers: Bool) {
        disagreements += 1
        guard firstDisagreements.count < 5 else { return }
        firstDisagreements.append("\(id) (\(event.kind.name) at \(event.at)): reference [\(expected)], testee [\(got)]\(stateDiffers ? "; the states differ" : "")")
    }

    public func close() { session.close() }
}

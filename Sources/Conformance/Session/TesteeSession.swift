import Foundation
import Vectors

/// A testee process past its handshake, driven lock-step: one case out, one result back.
public final class TesteeSession: @unchecked Sendable {
    public let process: TesteeProcess
    public let hello: TesteeHello
    public private(set) var isAlive = true

    /// Spawns `command`, sends hello and checks the answer.
    public static func start(command: [String], handshakeTimeout: Double) throws(HandshakeFailure) -> TesteeSession {
        let p: TesteeProcess
        do { p = try TesteeProcess(command: command) } catch { throw .spawn(error) }
        let deadline = Date(timeIntervalSinceNow: handshakeTimeout)
        func dead() -> HandshakeFailure {
            let s = p.reap(grace: 1)
            p.settleStderr()
            return .exited(s, stderrTail: p.stderr.tail())
        }
        switch p.send(RunnerProtocol.runnerHello().compact, deadline: deadline) {
        case .written: break
        case .closed: throw dead()
        case .timedOut:
            p.kill(); p.reap(grace: 0)
            throw .timeout(seconds: handshakeTimeout, stderrTail: p.stderr.tail())
        }
        guard let event = p.nextLine(deadline: deadline) else {
            p.kill(); p.reap(grace: 0); p.settleStderr()
            throw .timeout(seconds: handshakeTimeout, stderrTail: p.stderr.tail())
        }
        func violation(_ v: ProtocolViolation) -> HandshakeFailure {
            p.kill(); p.reap(grace: 0); p.settleStderr()
            return .protocolError(v, stderrTail: p.stderr.tail())
        }
        let hello: TesteeHello
        switch event {
        case .eof: throw dead()
        case .malformed(let reason, let prefix): throw violation(ProtocolViolation(reason, line: prefix))
        case .line(let line):
            do { hello = try TesteeHello.parse(line) } catch { throw violation(error) }
        }
        guard RunnerProtocol.versions.contains(hello.protocolVersion) else {
            p.shutdown(grace: 1)
            throw .versionMismatch(offered: RunnerProtocol.versions, chosen: hello.protocolVersion, testee: "\(hello.name) \(hello.version)")
        }
        return TesteeSession(process: p, hello: hello)
    }

    private init(process: TesteeProcess, hello: TesteeHello) {
        self.process = process
        self.hello = hello
    }

    /// Sends one case and waits for its result until `timeout` seconds have passed.
    public func exchange(_ message: JSONValue, id: String, timeout: Double) -> Exchange {
        guard isAlive else { return .crash(process.reap(grace: 0)) }
        let deadline = Date(timeIntervalSinceNow: timeout)
        switch process.send(message.compact, deadline: deadline) {
        case .written: break
        case .closed: return crashed()
        case .timedOut: return fail(.timeout(seconds: timeout))
        }
        guard let event = process.nextLine(deadline: deadline) else { return fail(.timeout(seconds: timeout)) }
        switch event {
        case .eof: return crashed()
        case .malformed(let reason, let prefix): return fail(.protocolError(ProtocolViolation(reason, line: prefix)))
        case .line(let line):
            do { return .result(try TesteeResult.parse(line, expectedID: id)) } catch { return fail(.protocolError(error)) }
        }
    }

    /// stdout ended: give the process a moment to exit by itself so its status is its own.
    private func crashed() -> Exchange {
        isAlive = false
        let s = process.reap(grace: 2)
        process.settleStderr()
        return .crash(s)
    }

    /// The stream can no longer be trusted: kill the group.
    private func fail(_ e: Exchange) -> Exchange {
        isAlive = false
        process.kill()
        process.reap(grace: 0)
        process.settleStderr()
        return e
    }

    /// `shutdown`, then wait briefly for a clean exit.
    public func close() {
        if isAlive { process.shutdown(grace: 2) } else { process.kill(); process.reap(grace: 0) }
        isAlive = false
    }
}

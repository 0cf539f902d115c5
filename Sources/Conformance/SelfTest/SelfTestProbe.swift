import Foundation
import Vectors

/// One fresh testee process under a self-test check: raw lines out, lines back with deadlines,
/// and the exit status. Every failure it throws says what was seen and which rule it breaks.
final class SelfTestProbe: @unchecked Sendable {
    let process: TesteeProcess
    let multiplier: Double

    init(command: [String], multiplier: Double) throws(SpawnError) {
        process = try TesteeProcess(command: command)
        self.multiplier = multiplier
    }

    var handshakeTimeout: Double { 30 * multiplier }
    var caseTimeout: Double { 10 * multiplier }
    /// How long silence must last to count as "nothing was written".
    var quiet: Double { 0.5 * max(1, multiplier) }
    /// SPEC.md §6.4: exit within 2 s.
    var exitGrace: Double { 2 * multiplier }

    func close() {
        process.kill()
        process.reap(grace: 0)
    }

    // MARK: Writing

    func send(_ line: String, _ rule: String) throws(SelfTestFailure) {
        try sendBytes(Array(line.utf8) + [0x0a], rule)
    }

    func sendBytes(_ bytes: [UInt8], _ rule: String) throws(SelfTestFailure) {
        switch process.sendBytes(bytes, deadline: Date(timeIntervalSinceNow: caseTimeout)) {
        case .written: return
        case .closed: throw SelfTestFailure("the testee stopped reading its stdin (\(exitNote())) while a line was being sent (\(rule))")
        case .timedOut: throw SelfTestFailure("the testee did not read a \(bytes.count)-byte line within \(Report.seconds(caseTimeout)) (\(rule))")
        }
    }

    func hello(offering versions: [Int], extra: [(String, JSONValue)] = []) throws(SelfTestFailure) {
        var members = RunnerProtocol.runnerHello(versions: versions).objectValue ?? []
        members += extra
        try send(JSONValue.object(members).compact, "R6.2-2")
    }

    // MARK: Reading

    /// The next stdout line, nil at EOF; throws when nothing comes within `timeout`.
    func line(within timeout: Double, waitingFor what: String, _ rule: String) throws(SelfTestFailure) -> String? {
        guard let e = process.nextLine(deadline: Date(timeIntervalSinceNow: timeout)) else {
            throw SelfTestFailure("no \(what) within \(Report.seconds(timeout)) (\(rule))")
        }
        switch e {
        case .eof: return nil
        case .line(let l): return l
        case .malformed(let reason, let prefix):
            throw SelfTestFailure("the testee wrote a \(reason.hasPrefix("line longer") ? "line over 16 MiB" : "line that is not UTF-8") (\(ProtocolViolation(reason, line: prefix).line)) (R6.1-1)")
        }
    }

    /// A valid testee hello, or a failure saying what came instead.
    func expectHello(_ rule: String = "R6.2-4") throws(SelfTestFailure) -> TesteeHello {
        guard let l = try line(within: handshakeTimeout, waitingFor: "hello", rule) else {
            throw SelfTestFailure("the testee \(exitNote()) without answering the hello (\(rule))")
        }
        do { return try TesteeHello.parse(l) } catch {
            throw SelfTestFailure("invalid hello: \(error.reason): \(error.line) (\(rule))")
        }
    }

    /// Handshake offering version 1; the hello's problems are another check's business.
    func handshake() throws(SelfTestFailure) -> TesteeHello {
        try hello(offering: [1])
        return try expectHello()
    }

    /// The next line must be the result for `id`, with `status` (`rejected:<code>` checks the
    /// code too). Returns the result.
    @discardableResult
    func expectResult(_ id: String, _ expected: Expect, _ rule: String) throws(SelfTestFailure) -> TesteeResult {
        guard let l = try line(within: caseTimeout, waitingFor: "result for \(id)", rule) else {
            throw SelfTestFailure("the testee \(exitNote()) instead of answering \(id) (\(rule))")
        }
        let r: TesteeResult
        do { r = try TesteeResult.parse(l, expectedID: id) } catch {
            throw SelfTestFailure("\(error.reason): \(error.line) (R6.3-1, R6.3-2)")
        }
        switch (expected, r.status) {
        case (.anyResult, _): return r
        case (.rejected(let code), .rejected(let got, _)) where got == code: return r
        default:
            throw SelfTestFailure("expected \(expected) for \(id), got \(Self.describe(r.status)) (\(rule))")
        }
    }

    enum Expect: CustomStringConvertible {
        case anyResult
        case rejected(String)
        var description: String {
            switch self {
            case .anyResult: return "a result"
            case .rejected(let c): return "rejected with \(c)"
            }
        }
    }

    static func describe(_ s: TesteeResult.Status) -> String {
        switch s {
        case .ok(let out): return "ok with output \(JSONComparison.render(out, max: 120))"
        case .rejected(let c, let m): return "rejected with \(c)" + (m.map { " (\"\($0)\")" } ?? "")
        case .unsupported(let m): return "unsupported" + (m.map { " (\"\($0)\")" } ?? "")
        case .error(let m): return "error (\"\(m)\")"
        }
    }

    /// Nothing on stdout for `seconds` (EOF is fine only if `eofAllowed`).
    func expectNothing(for seconds: Double, after what: String, _ rule: String) throws(SelfTestFailure) {
        guard let e = process.nextLine(deadline: Date(timeIntervalSinceNow: seconds)) else { return }
        switch e {
        case .eof: throw SelfTestFailure("the testee \(exitNote()) after \(what) (\(rule))")
        case .line(let l), .malformed(_, let l):
            throw SelfTestFailure("the testee wrote \(ProtocolViolation("", line: l).line) after \(what); it must write nothing (\(rule))")
        }
    }

    /// How a testee refuses its first line (R6.2-1, R6.2-3): nothing on stdout within the hello
    /// wait, then a non-zero exit and a line on stderr. `answered` words the failure when a line
    /// came, from that line as a diagnostic shows it.
    func expectRefusal(after what: String, _ rule: String, answered: (String) -> String) throws(SelfTestFailure) {
        if let e = process.nextLine(deadline: Date(timeIntervalSinceNow: handshakeTimeout)), case .line(let l) = e {
            throw SelfTestFailure(answered(ProtocolViolation("", line: l).line))
        }
        try expectExit(zero: false, within: exitGrace, after: what, rule)
        try expectStderr(rule)
    }

    /// The testee must end by itself within `timeout` with an exit status that is 0 (`zero`) or
    /// not 0, having written nothing more to stdout.
    func expectExit(zero: Bool, within timeout: Double, after what: String, _ rule: String) throws(SelfTestFailure) {
        guard let status = process.waitForExit(timeout: timeout) else {
            throw SelfTestFailure("the testee was still running \(Report.seconds(timeout)) after \(what) (\(rule))")
        }
        if let e = process.nextLine(deadline: Date(timeIntervalSinceNow: 1)), case .line(let l) = e {
            throw SelfTestFailure("the testee wrote \(ProtocolViolation("", line: l).line) after \(what); it must write nothing (\(rule))")
        }
        switch (zero, status) {
        case (true, .exited(0)), (false, .exited(1...)): return
        default:
            throw SelfTestFailure("the testee \(status) after \(what); expected \(zero ? "status 0" : "a non-zero status") (\(rule))")
        }
    }

    /// Something was written to stderr (a refusal must say why).
    func expectStderr(_ rule: String) throws(SelfTestFailure) {
        process.settleStderr(timeout: 1)
        guard process.stderr.mark > 0 else { throw SelfTestFailure("the testee wrote nothing to stderr saying why (\(rule))") }
    }

    /// "exited with status 1" / "is still running", for messages.
    func exitNote() -> String {
        process.waitForExit(timeout: 0.2).map(\.description) ?? "closed stdout"
    }
}

import Foundation
import Vectors

/// Everything `conformance http` can be told (SPEC.md §6.13).
public struct HTTPRunOptions: Sendable {
    public enum Target: Sendable {
        /// A service already listening.
        case url(host: String, port: UInt16)
        /// A command that starts the service on the port given in `PORT`.
        case command([String])
    }

    public var target: Target
    public var selection = CaseSelection()
    /// Seconds per request (connect to last byte), before the multiplier.
    public var requestTimeout = 10.0
    /// Seconds for a started service to accept connections, before the multiplier.
    public var startTimeout = 30.0
    public var timeoutMultiplier = 1.0
    /// Restarts of a `-- CMD` service after it died or hung, over the whole run.
    public var maxRestarts = 10
    public var failFast = false
    public var expectedFailures: ExpectedFailures?
    public var progress: (@Sendable (Int, Int, String) -> Void)?

    public init(target: Target) { self.target = target }
}

/// A finished HTTP run: the records in the runner's own report types, plus the timing figures.
public struct HTTPRunResult: Sendable {
    public var run: RunResult
    /// (case id, figure) for every timing step that ran to the end.
    public var figures: [(String, TimingFigure)]
    public var service: String
}

public enum HTTPRunError: Error, Sendable, CustomStringConvertible {
    /// Exit 2.
    case usage(String)
    /// Exit 3: nothing to talk to.
    case cannotStart(String)

    public var description: String {
        switch self {
        case .usage(let s), .cannotStart(let s): return s
        }
    }
}

/// Plays the selected scenario cases against a live service over loopback HTTP/1.1 and judges
/// them like `run` judges a testee: same ids, failure kinds, expected failures, reports and exit
/// codes. Never stops because the service misbehaves: each bad answer fails its case.
public enum HTTPRunner {
    /// The formats whose `scenario` cases are HTTP cases, with the service each describes.
    public static let services: [String: String] = ["pairing": "pairing", "revocation": "identity"]

    public static func isHTTPCase(_ c: SuiteCase) -> Bool { c.op == "scenario" && services[c.format] != nil }

    public static func run(suite: [SuiteCase], options: HTTPRunOptions) throws(HTTPRunError) -> HTTPRunResult {
        let start = Socket.now()
        let selected = options.selection.apply(suite).filter(isHTTPCase)
        guard !selected.isEmpty else { throw .usage("no scenario case is selected (HTTP formats: \(services.keys.sorted().joined(separator: ", ")))") }
        let formats = Set(selected.map(\.format))
        guard formats.count == 1, let format = formats.first else {
            throw .usage("the selection holds scenarios of \(formats.sorted().joined(separator: " and ")): one service at a time, choose with --format")
        }
        let multiplier = options.timeoutMultiplier
        let host: String
        var port: UInt16
        var process: ServiceProcess?
        var spawnNanos: UInt64 = 0
        let describe: String
        switch options.target {
        case .url(let h, let p):
            host = h
            port = p
            describe = "\(services[format]!) service at http://\(h):\(p)"
            if case .failure(let f) = Socket.connect(host: h, port: p, deadline: Socket.deadline(after: 5 * multiplier)) {
                throw .cannotStart("nothing accepts connections at http://\(h):\(p): \(f.message)")
            }
        case .command(let cmd):
            host = "127.0.0.1"
            port = 0
            describe = "\(services[format]!) service started by: \(cmd.joined(separator: " "))"
            let t0 = Socket.now()
            switch startService(cmd, host: host, timeout: options.startTimeout * multiplier) {
            case .failure(let why): throw .cannotStart(why.description)
            case .success(let p): process = p; port = p.port
            }
            spawnNanos += Socket.now() - t0
        }
        defer { process?.stop() }

        var records: [CaseRecord] = []
        var figures: [(String, TimingFigure)] = []
        var restarts = 0
        var stopReason: String?
        var roundTrip: UInt64 = 0
        var stoppedAfterTimeout = false
        for (n, c) in selected.enumerated() {
            if let reason = stopReason {
                records.append(CaseRecord(suiteCase: c, verdict: nil, outcome: .notRun(reason: reason), stderrTail: "", nanos: 0))
                continue
            }
            if let p = process, p.exitStatus() != nil {
                guard restarts < options.maxRestarts, case .command(let cmd) = options.target else {
                    let why = stoppedAfterTimeout ? "was stopped after a timeout" : "\(p.exitStatus()!)"
                    stopReason = "the service \(why) and the restart budget (--max-restarts \(options.maxRestarts)) is spent"
                    records.append(CaseRecord(suiteCase: c, verdict: nil, outcome: .notRun(reason: stopReason!), stderrTail: "", nanos: 0))
                    continue
                }
                restarts += 1
                stoppedAfterTimeout = false
                let t0 = Socket.now()
                switch startService(cmd, host: host, timeout: options.startTimeout * multiplier) {
                case .failure(let why):
                    stopReason = "the service could not be restarted: \(why)"
                    records.append(CaseRecord(suiteCase: c, verdict: nil, outcome: .notRun(reason: stopReason!), stderrTail: "", nanos: 0))
                    spawnNanos += Socket.now() - t0
                    continue
                case .success(let fresh):
                    process = fresh
                    port = fresh.port
                }
                spawnNanos += Socket.now() - t0
            }
            let mark = process?.output.mark ?? 0
            let t0 = Socket.now()
            let (verdict, caseFigures) = judge(c, host: host, port: port, timeout: options.requestTimeout * multiplier)
            let nanos = Socket.now() - t0
            roundTrip += nanos
            figures += caseFigures.map { (c.id, $0) }
            var finalVerdict = verdict
            if let p = process, var f = verdict.failure {
                if f.kind == .timeout || f.kind == .crash {
                    usleep(20_000)
                    if let s = p.exitStatus() {
                        f.details.append("the service \(s)")
                    } else if f.kind == .timeout {
                        // A hung service stays hung: stop it; the next case starts a fresh one.
                        p.stop()
                        stoppedAfterTimeout = true
                        f.details.append("the service did not answer in time and was stopped (it is restarted for the next case)")
                    }
                    finalVerdict = .fail(f)
                }
            }
            let tail = process?.output.tail(since: mark) ?? ""
            records.append(CaseRecord(suiteCase: c, verdict: finalVerdict, outcome: Runner.classify(c.id, finalVerdict, options.expectedFailures), stderrTail: tail, nanos: nanos))
            options.progress?(n + 1, selected.count, c.id)
            if options.failFast, let f = finalVerdict.failure, options.expectedFailures?.entry(for: c.id)?.kind != f.kind {
                stopReason = "--fail-fast after \(c.id)"
            }
        }
        let stale = Runner.staleEntries(options.expectedFailures, suite: suite.filter(isHTTPCase), selected: selected, selection: options.selection)
        let hello = TesteeHello(protocolVersion: 1, name: describe, version: "over HTTP/1.1", language: "http", capabilities: [format: ["scenario"]],
                                raw: .object([("service", .string(describe)), ("format", .string(format))]))
        let notRun = records.contains { if case .notRun = $0.outcome { return true } else { return false } }
        let run = RunResult(hello: hello, records: records, staleEntries: stale, restarts: restarts, incompleteReason: notRun ? stopReason : nil,
                            wallNanos: Socket.now() - start, roundTripNanos: roundTrip, spawnNanos: spawnNanos)
        return HTTPRunResult(run: run, figures: figures, service: describe)
    }

    static func startService(_ cmd: [String], host: String, timeout: Double) -> Result<ServiceProcess, SocketError> {
        do {
            let port = try Socket.freePort(host: host)
            let p = try ServiceProcess(command: cmd, port: port)
            if let why = p.waitReady(host: host, timeout: timeout) {
                usleep(50_000)
                let out = p.output.tail(since: 0)
                p.stop()
                return .failure(SocketError(why + (out.isEmpty ? "" : "\n--- service output (tail) ---\n\(out)")))
            }
            return .success(p)
        } catch let e as SocketError {
            return .failure(e)
        } catch {
            return .failure(SocketError("\(error)"))
        }
    }

    /// One scenario case over sockets: its verdict and its timing figures.
    public static func judge(_ c: SuiteCase, host: String, port: UInt16, timeout: Double) -> (Verdict, [TimingFigure]) {
        let scenario: Scenario
        if case .error(let code) = c.expected {
            // A scenario input every reader must refuse (SPEC [R13.1-5]): the runner judges its own
            // reading of it, and the service is not asked.
            do {
                _ = try Scenario.parse(c.input)
                return (.fail(Failure(.wrongOutput, "the scenario input was read; expected it to be refused with \(code)")), [])
            } catch {
                return error.code.rawValue == code ? (.pass, [])
                    : (.fail(Failure(.wrongOutput, "the scenario input was refused with \(error.code.rawValue), expected \(code): \(error)")), [])
            }
        }
        do { scenario = try Scenario.parse(c.input) } catch {
            return (.fail(Failure(.error, "the case's scenario is unusable: \(error)")), [])
        }
        let transport = SocketTransport(host: host, port: port, requestTimeout: timeout)
        let outcome = ScenarioInterpreter(transport: transport, host: "\(host):\(port)").run(scenario)
        guard let f = outcome.failure else { return (.pass, outcome.figures) }
        let kind: FailureKind
        switch f.kind {
        case .expectation: kind = .wrongOutput
        case .scenario: kind = .error
        case .transport(let t):
            switch t {
            case .refused, .closed: kind = .crash
            case .timeout: kind = .timeout
            case .malformed, .tooLarge: kind = .protocolError
            }
        }
        let where_ = f.step == 0 ? "before step 1 (the reset hook)" : "step \(f.step) of \(scenario.steps.count) (\(f.name))"
        var details = f.details
        if f.step == 2 { details.append("step 1 passed") } else if f.step > 2 { details.append("steps 1–\(f.step - 1) passed") }
        return (.fail(Failure(kind, "\(where_): \(f.summary)", details: details)), outcome.figures)
    }
}

/// The reports of an HTTP run: the runner's console and JSON reports as they are, plus the timing
/// figures (console: lines before the totals; JSON: an `http` member).
public enum HTTPReport {
    public static func console(_ r: HTTPRunResult, expectedFailuresFile: String? = nil) -> String {
        var out = ""
        for (id, fig) in r.figures { out += "\(id): \(fig.line)\n" }
        return out + ConsoleReport.render(r.run, expectedFailuresFile: expectedFailuresFile)
    }

    public static func json(_ r: HTTPRunResult) -> String {
        let base = JSONReport.render(r.run)
        guard case .object(var members)? = try? JSONValue.parse(base) else { return base }
        let timing: [JSONValue] = r.figures.map { id, f in
            .object([("id", .string(id)), ("step", .string(f.step)), ("t", .number(WelchTest.format(f.test.t, 3))),
                     ("threshold", .number(WelchTest.format(WelchTest.threshold, 1))), ("exceeds_threshold", .bool(f.test.exceedsThreshold)),
                     ("samples_a", .int(f.test.countA)), ("samples_b", .int(f.test.countB)),
                     ("mean_a_ns", .number(WelchTest.format(f.test.meanA, 0))), ("mean_b_ns", .number(WelchTest.format(f.test.meanB, 0)))])
        }
        members.append(("http", .object([("service", .string(r.service)), ("timing", .array(timing))])))
        return JSONValue.object(members).pretty
    }
}

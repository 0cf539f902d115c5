import Foundation
import Vectors

/// Drives a testee through the selected cases and judges every answer.
///
/// Never stops because the testee misbehaves: a crash, a hang past the deadline or a garbled
/// line fails that case, the process group is killed, a fresh testee is spawned and handshaken,
/// and the run goes on, within the restart budget.
public enum Runner {
    /// Runs `suite` (every loaded case; `options.selection` picks the ones to send). Throws when the
    /// testee cannot be run at all (first spawn or handshake fails: exit 3).
    public static func run(suite: [SuiteCase], options: RunOptions) throws(HandshakeFailure) -> RunResult {
        let start = DispatchTime.now().uptimeNanoseconds
        let selected = options.selection.apply(suite)
        let t0 = DispatchTime.now().uptimeNanoseconds
        let first = try TesteeSession.start(command: options.command, handshakeTimeout: options.effectiveHandshakeTimeout)
        let hello = first.hello

        // Capability filter before sending: unadvertised formats and ops are skipped, not failed.
        var toRun: [Int] = []
        var skipped: [Int: String] = [:]
        for (i, c) in selected.enumerated() {
            if hello.supports(format: c.format, op: c.op) { toRun.append(i) } else {
                skipped[i] = "the testee does not advertise \(c.format)/\(c.op)"
            }
        }

        let state = RunState(total: toRun.count)
        state.addSpawn(DispatchTime.now().uptimeNanoseconds - t0)
        let jobs = max(1, min(options.jobs, max(1, toRun.count)))
        let firstBox = SessionBox(first)
        let order = toRun
        DispatchQueue.concurrentPerform(iterations: jobs) { w in
            worker(w == 0 ? firstBox.take() : nil, cases: selected, order: order, state: state, options: options)
        }
        firstBox.take()?.close()

        var records: [CaseRecord] = []
        records.reserveCapacity(selected.count)
        let done = state.records
        var runIndex: [Int: Int] = [:]
        for (k, i) in toRun.enumerated() { runIndex[i] = k }
        for (i, c) in selected.enumerated() {
            var rec: CaseRecord
            if let reason = skipped[i] {
                rec = CaseRecord(suiteCase: c, verdict: .skipped(reason: reason), outcome: .skipped(reason: reason), stderrTail: "", nanos: 0)
            } else if let k = runIndex[i], let (v, tail, nanos) = done[k] {
                rec = CaseRecord(suiteCase: c, verdict: v, outcome: classify(c.id, v, options.expectedFailures), stderrTail: tail, nanos: nanos)
            } else {
                let reason = state.stopReason ?? "not run"
                rec = CaseRecord(suiteCase: c, verdict: nil, outcome: .notRun(reason: reason), stderrTail: "", nanos: 0)
            }
            if case .skipped(let reason) = rec.outcome, options.isRequired(c) { rec.outcome = .requiredSkipped(reason: reason) }
            records.append(rec)
        }
        let stale = staleEntries(options.expectedFailures, suite: suite, selected: selected, selection: options.selection)
        var problems: [String] = []
        if !records.contains(where: \.executed) {
            problems.append(nothingTested(records, hello: hello))
        }
        for r in options.require where !selected.contains(where: r.covers) {
            problems.append("--require \(r): no selected case is in it (see --run, --skip, --format, --shard)")
        }
        return RunResult(hello: hello, records: records, staleEntries: stale, restarts: state.restarts,
                         incompleteReason: records.contains { if case .notRun = $0.outcome { return true } else { return false } } ? state.stopReason : nil,
                         wallNanos: DispatchTime.now().uptimeNanoseconds - start,
                         roundTripNanos: state.roundTripNanos, spawnNanos: state.spawnNanos,
                         unknownCapabilities: SuiteScope(suite: suite).unknownCapabilities(hello), scopeProblems: problems)
    }

    /// The sentence for a run that executed no case (SPEC.md §6.7): a CI gate must not pass it.
    static func nothingTested(_ records: [CaseRecord], hello: TesteeHello) -> String {
        guard !records.isEmpty else { return "no case was executed: the selection holds no case" }
        let unadvertised = records.filter { !hello.supports(format: $0.suiteCase.format, op: $0.suiteCase.op) }.count
        let unsupported = records.filter { if case .skipped? = $0.verdict { return true } else { return false } }.count - unadvertised
        let notRun = records.count - unadvertised - unsupported
        let advertised = hello.capabilities.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var formats: [String] = []
        for r in records where !formats.contains(r.suiteCase.format) { formats.append(r.suiteCase.format) }
        if unadvertised == records.count {
            return "no case was executed: the testee advertises none of the formats and ops of the \(records.count) selected case(s) "
                + "(it advertises \(advertised.isEmpty ? "nothing" : advertised.joined(separator: ", ")); the selection needs \(formats.joined(separator: ", ")))"
        }
        var parts: [String] = []
        if unsupported > 0 { parts.append("the testee answered unsupported to all \(unsupported) case(s) it was sent") }
        if notRun > 0 { parts.append("\(notRun) case(s) were not run") }
        if unadvertised > 0 { parts.append("\(unadvertised) case(s) are of formats or ops it does not advertise") }
        return "no case was executed: " + parts.joined(separator: "; ")
    }

    /// One worker: its own testee, lock-step, taking the next case from the shared queue.
    static func worker(_ initial: TesteeSession?, cases: [SuiteCase], order: [Int], state: RunState, options: RunOptions) {
        var session = initial
        var everStarted = initial != nil
        let timeout = options.effectiveCaseTimeout
        while let k = state.take() {
            let c = cases[order[k]]
            if session?.isAlive != true {
                session?.close()
                session = respawn(free: !everStarted, state: state, options: options)
                everStarted = true
                guard session != nil else { break }
            }
            let s = session!
            let mark = s.process.stderr.mark
            let t0 = DispatchTime.now().uptimeNanoseconds
            let exchange = s.exchange(c.message, id: c.id, timeout: timeout)
            let nanos = DispatchTime.now().uptimeNanoseconds - t0
            let format = c.format
            let probe: Judge.Probe = { (id: String, op: String, input: JSONValue) -> Exchange? in
                guard s.isAlive, s.hello.supports(format: format, op: op) else { return nil }
                return s.exchange(RunnerProtocol.caseMessage(id: id, format: format, op: op, input: input), id: id, timeout: timeout)
            }
            let verdict = Judge.judge(c, exchange, probe: options.diagnose ? probe : nil)
            if verdict.failure != nil { s.process.stderr.quiesce() }
            let n = state.record(k, verdict, stderr: s.process.stderr.tail(since: mark), nanos: nanos)
            options.progress?(n, order.count, c.id)
            if options.failFast, let f = verdict.failure, options.expectedFailures?.entry(for: c.id)?.kind != f.kind {
                state.stop("--fail-fast after \(c.id)")
            }
        }
        session?.close()
    }

    /// A fresh testee after a failure. A worker's first spawn is free; every other one spends a
    /// restart, and a failed handshake spends another.
    static func respawn(free: Bool, state: RunState, options: RunOptions) -> TesteeSession? {
        var isFree = free
        while true {
            if !isFree && !state.spendRestart(max: options.maxRestarts) { return nil }
            isFree = false
            let t0 = DispatchTime.now().uptimeNanoseconds
            let s = try? TesteeSession.start(command: options.command, handshakeTimeout: options.effectiveHandshakeTimeout)
            state.addSpawn(DispatchTime.now().uptimeNanoseconds - t0)
            if let s { return s }
        }
    }

    /// Applies the expected failures to one judged case.
    static func classify(_ id: String, _ v: Verdict, _ expected: ExpectedFailures?) -> CaseRecord.Outcome {
        let entry = expected?.entry(for: id)
        switch (v, entry) {
        case (.skipped(let r), _): return .skipped(reason: r)
        case (.pass, nil): return .passed
        case (.pass, let e?): return .unexpectedPass(e)
        case (.fail(let f), nil): return .failed(f)
        case (.fail(let f), let e?): return f.kind == e.kind ? .expectedFailure(f, e) : .changedFailure(f, e)
        }
    }

    /// Entries matching no selected case. When the selection narrows the suite (--run, --skip,
    /// --format, --shard), an entry is stale only if it matches no loaded case at all, so a
    /// sharded CI job does not flag the other shards' entries.
    static func staleEntries(_ expected: ExpectedFailures?, suite: [SuiteCase], selected: [SuiteCase], selection: CaseSelection) -> [ExpectedFailures.Entry] {
        guard let expected else { return [] }
        let pool = selection.isComplete ? selected : suite
        return expected.entries.filter { e in !pool.contains { expected.entry(for: $0.id) == e } }
    }
}

/// Hands the first session to exactly one worker.
final class SessionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var session: TesteeSession?
    init(_ s: TesteeSession) { session = s }
    func take() -> TesteeSession? {
        lock.lock()
        defer { lock.unlock() }
        let s = session
        session = nil
        return s
    }
}

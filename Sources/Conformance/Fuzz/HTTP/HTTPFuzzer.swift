import Foundation
import Vectors

/// `conformance fuzz --http`: differential fuzzing of an HTTP service (SPEC §6.12, §13). Each case
/// is a generated scenario whose expectations are the reference service's answers (what SPEC pins
/// of them), played against the testee's service by the interpreter of `conformance http` and
/// judged as `conformance http` judges. Ids are `fuzz/<format>/scenario/<n>`; a difference is
/// shrunk by dropping steps, headers and racers (recording the reference again each time) and
/// written as a scenario case that `conformance http --vectors DIR` replays.
///
/// Each worker owns one service (started with `PORT`, restarted after a crash or a hang within the
/// restart budget): scenarios reset the service first, so two workers never share one.
public enum HTTPFuzzer {
    /// Where the service is.
    public enum Target: Sendable {
        case url(host: String, port: UInt16)
        case command([String])
    }

    public static func run(format: String, target: Target, options: FuzzOptions) throws(HTTPRunError) -> FuzzResult {
        let start = FuzzState.now()
        guard let generator = options.httpGenerators.first(where: { $0.format == format }),
              let service = HTTPRunner.services[format] else {
            throw .usage("--http fuzzes the HTTP formats (\(HTTPRunner.services.keys.sorted().joined(separator: ", "))), not \(format)")
        }
        var plan = FuzzPlan(targets: [FuzzTarget(format: format, op: "scenario")], notFuzzed: [], notAdvertised: [])
        for h in options.handlers where h.format == format {
            for op in h.ops where op != "scenario" {
                plan.notFuzzed.append(.init(name: "\(format)/\(op)", reason: "a stdin/stdout op: fuzzed without --http, against a testee command"))
            }
        }
        var jobs = max(1, options.jobs)
        let describe: String
        switch target {
        case .url(let h, let p):
            // One service, one state: scenarios must not interleave.
            jobs = 1
            describe = "\(service) service at http://\(h):\(p)"
            if case .failure(let f) = Socket.connect(host: h, port: p, deadline: Socket.deadline(after: 5 * options.timeoutMultiplier)) {
                throw .cannotStart("nothing accepts connections at http://\(h):\(p): \(f.message)")
            }
        case .command(let cmd):
            describe = "\(service) service started by: \(cmd.joined(separator: " "))"
        }
        let state = FuzzState(plan: plan, options: options, start: start)
        let endpoints = (0..<jobs).map { _ in Endpoint(target: target, options: options, state: state) }
        // The first service must start, or the run is exit 3 (as `conformance http`).
        if let why = endpoints[0].startFirst() { throw .cannotStart(why) }
        DispatchQueue.concurrentPerform(iterations: jobs) { w in
            worker(endpoints[w], generator: generator, state: state)
            endpoints[w].stop()
        }
        let hello = TesteeHello(protocolVersion: 1, name: describe, version: "over HTTP/1.1", language: "http", capabilities: [format: ["scenario"]],
                                raw: .object([("service", .string(describe)), ("format", .string(format))]))
        return FuzzResult(hello: hello, seed: options.seed, plan: plan, counts: state.counts,
                          differences: state.differences.sorted { $0.original.id.utf8.lexicographicallyPrecedes($1.original.id.utf8) },
                          restarts: state.restarts, stopReason: state.stopReason, wallNanos: FuzzState.now() - start,
                          firstDifferenceNanos: state.firstDifferenceNanos, unknownCapabilities: [])
    }

    /// Scenario `n`: its draft and the recorded case. A draft the reference cannot play (rare: the
    /// generator's pools make one) is drawn again from the same generator, so `n` stays reproducible.
    public static func prepare(_ n: Int, format: String, generator: any HTTPFuzzGenerator, seed: UInt64) -> (HTTPFuzzDraft, SuiteCase)? {
        var rng = FuzzRNG(seed: seed, format: format, op: "scenario", n: n)
        for _ in 0..<8 {
            let draft = generator.draft(rng: &rng)
            if let sc = suiteCase(draft, id: FuzzTarget(format: format, op: "scenario").caseID(n), format: format, generator: generator) {
                return (draft, sc)
            }
        }
        return nil
    }

    static func suiteCase(_ draft: HTTPFuzzDraft, id: String, format: String, generator: any HTTPFuzzGenerator) -> SuiteCase? {
        guard let input = HTTPFuzzRecorder.record(draft, generator: generator) else { return nil }
        return SuiteCase(id: id, format: format, op: "scenario", input: input, expected: .output(.object([("steps", .int(draft.steps.count))])))
    }

    static func worker(_ endpoint: Endpoint, generator: any HTTPFuzzGenerator, state: FuzzState) {
        let format = state.plan.targets[0].format
        while let (_, n) = state.claim() {
            guard let (draft, sc) = prepare(n, format: format, generator: generator, seed: state.options.seed) else { continue }
            guard let (verdict, tail) = endpoint.judge(sc) else { break }
            let fc = FuzzCase(target: 0, n: n, suiteCase: sc, mutated: false)
            let (done, tick) = state.record(fc, verdict)
            if tick, let progress = state.options.progress {
                progress(FuzzProgress(cases: done, differences: state.differenceCount(), seconds: Double(FuzzState.now() - state.start) / 1e9, lastID: sc.id))
            }
            guard let f = verdict.failure else { continue }
            let found = FuzzState.now() - state.start
            guard state.beginShrink(target: 0, signature: "\(format)/scenario \(f.kind.rawValue) \(stepShape(f.summary))") else { continue }
            state.endShrink(shrink(draft, sc, failure: f, tail: tail, foundAfter: found, endpoint: endpoint, generator: generator, state: state))
        }
    }

    /// The part of a failure summary that names what differed, without the step number (one
    /// bug shows at different steps of different scenarios).
    static func stepShape(_ summary: String) -> String {
        guard let colon = summary.firstIndex(of: ":") else { return summary }
        return String(summary[summary.index(after: colon)...])
    }

    /// Greedy: the first smaller draft whose scenario still fails the same way is kept, and the
    /// search starts again from it, within the shrink budget.
    static func shrink(_ draft: HTTPFuzzDraft, _ original: SuiteCase, failure: Failure, tail: String, foundAfter: UInt64, endpoint: Endpoint,
                       generator: any HTTPFuzzGenerator, state: FuzzState) -> FuzzDifference {
        let deadline = FuzzState.now() + UInt64(state.options.shrinkSeconds * state.options.timeoutMultiplier * 1e9)
        var current = (draft, original, failure, tail)
        var steps = 0, attempts = 0
        var improved = true
        var tried = Set<HTTPFuzzDraft>()
        while improved && attempts < state.options.shrinkAttempts && FuzzState.now() < deadline {
            improved = false
            for candidate in candidates(current.0) {
                guard attempts < state.options.shrinkAttempts, FuzzState.now() < deadline else { break }
                guard tried.insert(candidate).inserted,
                      let sc = suiteCase(candidate, id: original.id, format: original.format, generator: generator) else { continue }
                attempts += 1
                guard let (verdict, t) = endpoint.judge(sc) else { break }
                guard let f = verdict.failure, f.kind == current.2.kind else { continue }
                current = (candidate, sc, f, t)
                steps += 1
                improved = true
                break
            }
        }
        return FuzzDifference(target: 0, format: original.format, op: "scenario", original: original, originalFailure: failure,
                              minimal: current.1, failure: current.2, stderrTail: current.3, shrinkSteps: steps, shrinkAttempts: attempts,
                              foundAfterNanos: foundAfter, writtenID: nil)
    }

    /// Smaller drafts, largest cuts first: the steps after the last one kept, each step, each
    /// header, racers down to two, values no text names.
    static func candidates(_ d: HTTPFuzzDraft) -> [HTTPFuzzDraft] {
        var out: [HTTPFuzzDraft] = []
        if d.steps.count > 1 {
            for keep in stride(from: d.steps.count - 1, through: 1, by: -1) {
                var c = d
                c.steps = Array(d.steps.prefix(keep))
                out.append(c)
            }
            for i in d.steps.indices {
                var c = d
                c.steps.remove(at: i)
                out.append(c)
            }
        }
        if d.setup != .object([]) {
            var c = d
            c.setup = .object([])
            out.append(c)
        }
        for i in d.steps.indices {
            if case .race(let vary, let values, let capture) = d.steps[i].kind, values.count > 2 {
                var c = d
                c.steps[i].kind = .race(vary: vary, values: Array(values.prefix(2)), capture: capture)
                out.append(c)
            }
            if case .object(let m) = d.steps[i].request, let h = m.first(where: { $0.0 == "headers" })?.1.arrayValue {
                for k in h.indices {
                    var hh = h
                    hh.remove(at: k)
                    var c = d
                    c.steps[i].request = .object(hh.isEmpty ? m.filter { $0.0 != "headers" } : m.map { $0.0 == "headers" ? ($0.0, .array(hh)) : $0 })
                    out.append(c)
                }
            }
        }
        // A value is used by a request, a race, or an expectation (`presents` becomes an `excludes`).
        let used = d.steps.map { $0.request.compact + "\($0.kind)" + ($0.presents ?? "") }.joined()
        for (i, v) in d.values.enumerated() where !used.contains("${\(v.name)}") {
            var c = d
            c.values.remove(at: i)
            out.append(c)
        }
        return out
    }
}

/// One worker's service: where it listens, its process (for a `-- CMD` target), restarts.
final class Endpoint: @unchecked Sendable {
    let target: HTTPFuzzer.Target
    let options: FuzzOptions
    let state: FuzzState
    private var process: ServiceProcess?
    private var host = "127.0.0.1"
    private var port: UInt16 = 0
    private var started = false

    init(target: HTTPFuzzer.Target, options: FuzzOptions, state: FuzzState) {
        self.target = target
        self.options = options
        self.state = state
        if case .url(let h, let p) = target {
            host = h
            port = p
            started = true
        }
    }

    /// Starts the first service; the reason it could not, or nil.
    func startFirst() -> String? {
        guard case .command(let cmd) = target else { return nil }
        started = true
        switch HTTPRunner.startService(cmd, host: host, timeout: options.startTimeout * options.timeoutMultiplier) {
        case .failure(let why): return why.description
        case .success(let p):
            process = p
            port = p.port
            return nil
        }
    }

    /// A live service, (re)started within the restart budget; false when none can be had.
    func ensure() -> Bool {
        guard case .command(let cmd) = target else { return true }
        if let p = process, p.exitStatus() == nil { return true }
        process?.stop()
        process = nil
        var free = !started
        started = true
        while true {
            if !free && !state.spendRestart() { return false }
            free = false
            if case .success(let p) = HTTPRunner.startService(cmd, host: host, timeout: options.startTimeout * options.timeoutMultiplier) {
                process = p
                port = p.port
                return true
            }
        }
    }

    /// The verdict on one scenario and the service's output meanwhile; nil when no service can be had.
    func judge(_ c: SuiteCase) -> (Verdict, String)? {
        guard ensure() else { return nil }
        let mark = process?.output.mark ?? 0
        var (verdict, _) = HTTPRunner.judge(c, host: host, port: port, timeout: options.effectiveCaseTimeout)
        if let p = process, var f = verdict.failure, f.kind == .timeout || f.kind == .crash {
            usleep(20_000)
            if let s = p.exitStatus() {
                f.details.append("the service \(s)")
            } else if f.kind == .timeout {
                p.stop()
                f.details.append("the service did not answer in time and was stopped (it is restarted for the next case)")
            }
            verdict = .fail(f)
        }
        return (verdict, process?.output.tail(since: mark) ?? "")
    }

    func stop() {
        process?.stop()
        process = nil
    }
}

import Foundation
import Vectors

/// Differential fuzzing (`conformance fuzz`): generated inputs go to the testee as ordinary §6
/// cases (ids `fuzz/<format>/<op>/<n>`); the reference answers the same input in process; the
/// judge of `run` decides. Each new difference is shrunk while the testee still fails the same way
/// and kept with the reference's answer, to be written as a replayable vector.
///
/// Case n of a pair is a function of the seed, the suite version, the pair and n alone, so a seed
/// reproduces its inputs whatever `--jobs` and however fast the testee. Each worker drives its own
/// testee lock-step while a feeder thread generates and answers the next cases ahead of it.
public enum Fuzzer {
    /// Runs the fuzzer. Throws when the testee cannot be run at all (exit 3).
    public static func run(options: FuzzOptions) throws(HandshakeFailure) -> FuzzResult {
        let start = FuzzState.now()
        let first = try TesteeSession.start(command: options.command, handshakeTimeout: options.effectiveHandshakeTimeout)
        let plan = FuzzPlan.make(handlers: options.handlers, generators: options.generators, selection: options.selection, hello: first.hello)
        let state = FuzzState(plan: plan, options: options, start: start)
        let jobs = max(1, options.jobs)
        let box = SessionBox(first)
        DispatchQueue.concurrentPerform(iterations: jobs) { w in
            let slot = SessionSlot(w == 0 ? box.take() : nil, state: state)
            worker(slot: slot, state: state)
            slot.close()
        }
        box.take()?.close()
        var scope: [String: Set<[UInt8]>] = [:]
        for h in options.handlers { scope[h.format] = Set(h.ops.map { Array($0.utf8) }) }
        var unknown: [String] = []
        for (format, ops) in first.hello.capabilities {
            guard let known = scope[format] else { unknown.append(format); continue }
            for op in ops where !known.contains(Array(op.utf8)) { unknown.append("\(format)/\(op)") }
        }
        return FuzzResult(hello: first.hello, seed: options.seed, plan: plan, counts: state.counts,
                          differences: state.differences.sorted { ($0.target, $0.original.id) < ($1.target, $1.original.id) },
                          restarts: state.restarts, stopReason: state.stopReason, wallNanos: FuzzState.now() - start,
                          firstDifferenceNanos: state.firstDifferenceNanos,
                          unknownCapabilities: unknown.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// Case n of target t: an input (valid, or mutated into an invalid one) and the reference's answer.
    static func prepare(_ t: Int, _ n: Int, state: FuzzState) -> FuzzCase? {
        let target = state.plan.targets[t]
        guard let g = state.options.generators.first(where: { $0.format == target.format }),
              let h = state.options.handlers.first(where: { $0.format == target.format }) else { return nil }
        var rng = FuzzRNG(seed: state.options.seed, format: target.format, op: target.op, n: n)
        var input = g.validInput(op: target.op, rng: &rng)
        let mutate = rng.percent(state.options.invalidPercent)
        if mutate {
            input = g.invalidInput(op: target.op, valid: input, rng: &rng)
                ?? JSONMutator.mutate(input, count: rng.oneIn(3) ? 2 : 1, rng: &rng)
        }
        if mutate { input = tameGeneratedCount(input, rng: &rng) }
        let expected = FuzzCase.expected(h, op: target.op, input: input)
        let sc = SuiteCase(id: target.caseID(n), format: target.format, op: target.op, input: input, expected: expected)
        return FuzzCase(target: t, n: n, suiteCase: sc, mutated: mutate)
    }

    /// A mutated `generate.count` (§4.9, §5) of more than 4,096 leaves that the reference would
    /// accept costs both sides up to seconds: kept one time in 32, else moved just past the limit
    /// (a cheap rejection that still probes the edge).
    static func tameGeneratedCount(_ input: JSONValue, rng: inout FuzzRNG) -> JSONValue {
        guard let gen = input["generate"], case .object = gen, let c = gen["count"] else { return input }
        let n: UInt64? = c.stringValue.flatMap { UInt64($0) } ?? { if case .number(let t) = c { return UInt64(t) } else { return nil } }()
        guard let n, n > 4_096, n <= UInt64(LeafList.maxGeneratedCount), !rng.oneIn(32) else { return input }
        return input.setting("generate", gen.setting("count", .number(String(LeafList.maxGeneratedCount + 1))))
    }

    static func worker(slot: SessionSlot, state: FuzzState) {
        let feed = CaseFeed(capacity: 16)
        let feeder = Thread {
            while let (t, n) = state.claim() {
                guard let c = prepare(t, n, state: state), feed.push(c) else { break }
            }
            feed.finish()
        }
        feeder.stackSize = 8 << 20
        feeder.start()
        let timeout = state.options.effectiveCaseTimeout
        while let c = feed.pop() {
            if state.isRetired(c.target) { continue }
            if state.finished, state.deadline != nil || state.stopReason != nil { break }
            guard let s = slot.session() else { break }
            let mark = s.process.stderr.mark
            let exchange = s.exchange(c.suiteCase.message, id: c.suiteCase.id, timeout: timeout)
            let verdict = Judge.judge(c.suiteCase, exchange, probe: nil)
            let (done, tick) = state.record(c, verdict)
            if tick, let progress = state.options.progress {
                progress(FuzzProgress(cases: done, differences: state.differenceCount(),
                                      seconds: Double(FuzzState.now() - state.start) / 1e9, lastID: c.suiteCase.id))
            }
            guard let f = verdict.failure else { continue }
            let found = FuzzState.now() - state.start
            if f.kind != .crash && f.kind != .timeout { s.process.stderr.quiesce() }
            let tail = s.process.stderr.tail(since: mark)
            let signature = "\(c.suiteCase.format)/\(c.suiteCase.op) \(f.kind.rawValue) \(f.summary)"
            guard state.beginShrink(target: c.target, signature: signature) else { continue }
            let d = Shrinker.shrink(c, failure: f, stderrTail: tail, foundAfter: found, slot: slot, state: state)
            state.endShrink(d)
        }
        feed.close()
        while !feed.isFinished { _ = feed.pop() }
    }
}

/// A worker's testee: respawned after a crash, timeout or protocol error, within the restart
/// budget (a worker's first spawn is free).
final class SessionSlot: @unchecked Sendable {
    private var current: TesteeSession?
    private var everStarted: Bool
    let state: FuzzState

    init(_ s: TesteeSession?, state: FuzzState) {
        current = s
        everStarted = s != nil
        self.state = state
    }

    /// A live session, or nil when none can be had.
    func session() -> TesteeSession? {
        if let s = current, s.isAlive { return s }
        current?.close()
        current = nil
        var free = !everStarted
        everStarted = true
        while true {
            if !free && !state.spendRestart() { return nil }
            free = false
            if let s = try? TesteeSession.start(command: state.options.command, handshakeTimeout: state.options.effectiveHandshakeTimeout) {
                current = s
                return s
            }
        }
    }

    func close() {
        current?.close()
        current = nil
    }
}

/// A bounded queue between a worker's feeder thread and the worker.
final class CaseFeed: @unchecked Sendable {
    private let cond = NSCondition()
    private var items: [FuzzCase] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private(set) var finishedFlag = false

    init(capacity: Int) { self.capacity = capacity }

    /// False when the worker has stopped taking cases.
    func push(_ c: FuzzCase) -> Bool {
        cond.lock()
        defer { cond.unlock() }
        while items.count - head >= capacity && !closed { cond.wait() }
        if closed { return false }
        items.append(c)
        cond.broadcast()
        return true
    }

    func pop() -> FuzzCase? {
        cond.lock()
        defer { cond.unlock() }
        while items.count == head && !finishedFlag { cond.wait() }
        guard items.count > head else { return nil }
        let c = items[head]
        head += 1
        if head > 64 { items.removeFirst(head); head = 0 }
        cond.broadcast()
        return c
    }

    func finish() {
        cond.lock()
        finishedFlag = true
        cond.broadcast()
        cond.unlock()
    }

    func close() {
        cond.lock()
        closed = true
        cond.broadcast()
        cond.unlock()
    }

    var isFinished: Bool {
        cond.lock()
        defer { cond.unlock() }
        return finishedFlag
    }
}

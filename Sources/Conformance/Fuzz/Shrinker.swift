import Foundation
import Primitives
import Vectors

/// Reduces a failing input while the testee still fails it the same way (same failure kind, and
/// for a rejection the same codes): members and elements dropped, strings and byte strings
/// shortened, numbers moved toward 0 and toward the nearest edge. Greedy: the first smaller
/// candidate that still fails is taken, and the search starts again from it, until no candidate
/// fails or the budget (attempts, seconds) is spent. The reference answers every candidate.
enum Shrinker {
    static func shrink(_ c: FuzzCase, failure: Failure, stderrTail: String, foundAfter: UInt64, slot: SessionSlot, state: FuzzState) -> FuzzDifference {
        let target = state.plan.targets[c.target]
        let handler = state.options.handlers.first { $0.format == target.format }!
        let deadline = FuzzState.now() + UInt64(state.options.shrinkSeconds * state.options.timeoutMultiplier * 1e9)
        let timeout = state.options.effectiveCaseTimeout
        var current = c.suiteCase
        var currentFailure = failure
        var steps = 0
        var attempts = 0
        var tail = stderrTail
        var improved = true
        var tried = Set<JSONValue>()
        while improved && attempts < state.options.shrinkAttempts && FuzzState.now() < deadline {
            improved = false
            for candidate in candidates(current.input) {
                guard attempts < state.options.shrinkAttempts, FuzzState.now() < deadline else { break }
                guard tried.insert(candidate).inserted else { continue }
                attempts += 1
                let sc = SuiteCase(id: current.id, format: current.format, op: current.op, input: candidate,
                                   expected: FuzzCase.expected(handler, op: current.op, input: candidate))
                guard let s = slot.session() else { break }
                let mark = s.process.stderr.mark
                let verdict = Judge.judge(sc, s.exchange(sc.message, id: sc.id, timeout: timeout), probe: nil)
                guard let f = verdict.failure, same(f, sc, as: currentFailure, current) else { continue }
                current = sc
                currentFailure = f
                tail = s.process.stderr.tail(since: mark)
                steps += 1
                improved = true
                break
            }
        }
        // The final judgement, with the diagnosis `run` gives (leaf probes for a wrong root).
        if let s = slot.session() {
            let mark = s.process.stderr.mark
            let format = current.format
            var probe: Judge.Probe?
            if state.options.diagnose {
                probe = { (id: String, op: String, input: JSONValue) -> Exchange? in
                    guard s.isAlive, s.hello.supports(format: format, op: op) else { return nil }
                    return s.exchange(RunnerProtocol.caseMessage(id: id, format: format, op: op, input: input), id: id, timeout: timeout)
                }
            }
            if let f = Judge.judge(current, s.exchange(current.message, id: current.id, timeout: timeout), probe: probe).failure,
               same(f, current, as: currentFailure, current) {
                currentFailure = f
                if f.kind != .crash && f.kind != .timeout { s.process.stderr.quiesce() }
                let t = s.process.stderr.tail(since: mark)
                if !t.isEmpty { tail = t }
            }
        }
        return FuzzDifference(target: c.target, format: target.format, op: target.op, original: c.suiteCase, originalFailure: failure,
                              minimal: current, failure: currentFailure, stderrTail: tail, shrinkSteps: steps, shrinkAttempts: attempts,
                              foundAfterNanos: foundAfter, writtenID: nil)
    }

    /// The same bug, as far as the runner can tell: the same failure kind, the same expected
    /// answer kind, and for rejections the same codes on both sides.
    static func same(_ f: Failure, _ c: SuiteCase, as g: Failure, _ d: SuiteCase) -> Bool {
        guard f.kind == g.kind else { return false }
        switch (c.expected, d.expected) {
        case (.error(let a), .error(let b)):
            return a == b && (f.kind != .wrongError || f.summary == g.summary)
        case (.output, .output): return f.kind != .unexpectedRejection || f.summary == g.summary
        default: return false
        }
    }

    // MARK: - candidates, smallest first

    /// Smaller variants of `input`: whole members and elements first, then each value made smaller.
    static func candidates(_ input: JSONValue) -> [JSONValue] {
        var all: [([JSONMutator.Step], JSONValue)] = []
        JSONMutator.nodes(input, into: &all)
        var out: [JSONValue] = []
        // 1. Removals (a member or element), outermost first.
        for (path, _) in all where !path.isEmpty {
            if let r = JSONMutator.replacing(input, at: path[...], with: nil) { out.append(r) }
        }
        // 2. Arrays cut to a half, to their first element.
        for (path, node) in all {
            guard case .array(let a) = node, a.count >= 2 else { continue }
            for cut in [Array(a.prefix(a.count / 2)), Array(a.suffix(a.count - a.count / 2)), [a[0]]] {
                if let r = JSONMutator.replacing(input, at: path[...], with: .array(cut)) { out.append(r) }
            }
        }
        // 3. Each scalar made smaller.
        for (path, node) in all {
            for smaller in smallerValues(node) {
                if let r = JSONMutator.replacing(input, at: path[...], with: smaller) { out.append(r) }
            }
        }
        return out
    }

    static func smallerValues(_ v: JSONValue) -> [JSONValue] {
        switch v {
        case .string(let s):
            if s.isEmpty { return [] }
            if let b = Hex.decode(s), b.count >= 1 {
                var out: [JSONValue] = []
                // Shorter byte strings (half, one byte less), then bytes moved toward zero.
                if b.count >= 2 { out.append(.string(Hex.encode(b.prefix(b.count / 2)))) }
                out.append(.string(Hex.encode(b.dropLast())))
                if s != s.lowercased() { out.append(.string(s.lowercased())) }
                if let i = b.firstIndex(where: { $0 != 0 }), b.count <= 64 {
                    var z = b
                    z[i] = 0
                    out.append(.string(Hex.encode(z)))
                }
                return out
            }
            let chars = Array(s)
            var out: [JSONValue] = [.string("")]
            if chars.count >= 2 { out.append(.string(String(chars.prefix(chars.count / 2)))) }
            if chars.count >= 1 { out.append(.string(String(chars.dropLast()))) }
            return out
        case .number(let n):
            guard let v = Int64(n) else {
                if let u = UInt64(n) { return [.number("0"), .number(String(u / 2))] }
                return [.number("0")]
            }
            if v == 0 { return [] }
            var out: [JSONValue] = [.number("0"), .number(String(v / 2)), .number(String(v > 0 ? v - 1 : v + 1))]
            // Toward the nearest edge, so a boundary bug keeps its boundary.
            func distance(_ e: Int64) -> Int128 { abs(Int128(e) - Int128(v)) }
            if let e = AdversarialValues.signedEdges.filter({ $0 != v }).min(by: { distance($0) < distance($1) }),
               distance(e) < Int128(v.magnitude) { out.append(.number(String(e))) }
            return out
        case .object(let m) where !m.isEmpty: return [.object([])]
        case .array(let a) where !a.isEmpty: return [.array([])]
        case .bool(true): return [.bool(false)]
        default: return []
        }
    }
}

import Foundation
import Vectors

/// Tools for generator authors and for the mutant proof, in process (no testee): how the reference
/// answers a generator's inputs, and how soon generated inputs tell a mutant from the reference.
public enum FuzzCensus {
    /// Per format/op: how many of `count` generated cases the reference accepts, and the codes it
    /// rejects the others with (most frequent first).
    public struct Line: Sendable {
        public var target: FuzzTarget
        public var accepted: Int
        public var rejected: [(code: String, count: Int)]
    }

    public static func census(seed: UInt64, count: Int, selection: CaseSelection = CaseSelection(),
                              invalidPercent: Int = 50) -> [Line] {
        var options = FuzzOptions(command: [], seed: seed)
        options.selection = selection
        options.invalidPercent = invalidPercent
        let plan = FuzzPlan.make(handlers: options.handlers, generators: options.generators, selection: selection, hello: nil)
        let state = FuzzState(plan: plan, options: options, start: FuzzState.now())
        var out: [Line] = []
        for t in plan.targets.indices {
            var line = Line(target: plan.targets[t], accepted: 0, rejected: [])
            var codes: [String: Int] = [:]
            for n in 0..<count {
                guard let c = Fuzzer.prepare(t, n, state: state) else { continue }
                switch c.suiteCase.expected {
                case .output: line.accepted += 1
                case .error(let e): codes[e, default: 0] += 1
                }
            }
            line.rejected = codes.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { ($0.key, $0.value) }
            out.append(line)
        }
        return out
    }

    /// The first `count` cases of every selected pair, as the fuzzer would send them (for reading
    /// a generator's output).
    public static func samples(seed: UInt64, count: Int, selection: CaseSelection = CaseSelection()) -> [(id: String, mutated: Bool, input: JSONValue, expected: SuiteCase.Expected)] {
        var options = FuzzOptions(command: [], seed: seed)
        options.selection = selection
        let plan = FuzzPlan.make(handlers: options.handlers, generators: options.generators, selection: selection, hello: nil)
        let state = FuzzState(plan: plan, options: options, start: FuzzState.now())
        var out: [(id: String, mutated: Bool, input: JSONValue, expected: SuiteCase.Expected)] = []
        for t in plan.targets.indices {
            for n in 0..<count {
                guard let c = Fuzzer.prepare(t, n, state: state) else { continue }
                out.append((c.suiteCase.id, c.mutated, c.suiteCase.input, c.suiteCase.expected))
            }
        }
        return out
    }

    /// HTTP mode, in process: the first of `maxCases` scenarios of the mutant's format whose
    /// recorded expectations the mutant's service fails (played as `conformance http` plays it).
    public static func firstHTTPDifference(mutant: Mutant, seed: UInt64, maxCases: Int) -> (cases: Int, id: String)? {
        guard let g = HTTPFuzzGenerators.generator(for: mutant.format) else { return nil }
        for n in 0..<maxCases {
            guard let (_, sc) = HTTPFuzzer.prepare(n, format: mutant.format, generator: g, seed: seed),
                  let scenario = try? Scenario.parse(sc.input) else { continue }
            let service: any HTTPService = mutant.format == "pairing" ? PairingService(mutant: mutant) : IdentityService(mutant: mutant)
            if !ScenarioInterpreter(transport: InProcessTransport(service)).run(scenario).passed { return (n + 1, sc.id) }
        }
        return nil
    }

    /// The first case (by the run's round-robin order over the mutant's format) whose answer
    /// differs between the reference and the reference with `mutant` switched on, within
    /// `maxCases`; nil when none does. The comparison is the judge's: equal outputs, or equal codes.
    public static func firstDifference(mutant: Mutant, seed: UInt64, maxCases: Int, invalidPercent: Int = 50) -> (cases: Int, id: String)? {
        var options = FuzzOptions(command: [], seed: seed)
        options.invalidPercent = invalidPercent
        let plan = FuzzPlan.make(handlers: options.handlers, generators: options.generators, selection: CaseSelection(), hello: nil)
        let state = FuzzState(plan: plan, options: options, start: FuzzState.now())
        let mine = plan.targets.indices.filter { plan.targets[$0].format == mutant.format }
        guard !mine.isEmpty, let handler = options.handlers.first(where: { $0.format == mutant.format }) else { return nil }
        for k in 0..<maxCases {
            let t = mine[k % mine.count]
            guard let c = Fuzzer.prepare(t, k / mine.count, state: state) else { continue }
            let op = c.suiteCase.op
            let input = c.suiteCase.input
            let got = Mutant.$active.withValue(mutant) { FuzzCase.expected(handler, op: op, input: input) }
            switch (c.suiteCase.expected, got) {
            case (.output(let a), .output(let b)) where JSONComparison.equal(a, b): continue
            case (.error(let a), .error(let b)) where a == b: continue
            default: return (k + 1, c.suiteCase.id)
            }
        }
        return nil
    }
}

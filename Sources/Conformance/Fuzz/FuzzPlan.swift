import Vectors

/// Which format/op pairs a run sends cases for, and every pair it does not, with the reason.
public struct FuzzPlan: Sendable {
    public struct Omission: Sendable, Equatable {
        public var name: String
        public var reason: String
    }

    /// The pairs fuzzed, in suite order (handlers, then their ops).
    public var targets: [FuzzTarget]
    /// Pairs in the selection the fuzzer has no inputs for (never silently: reported by name).
    public var notFuzzed: [Omission]
    /// Pairs in the selection the testee does not advertise (skipped, as in `run`).
    public var notAdvertised: [String]

    /// Every pair of the suite the selection keeps, before the testee is asked: `--format` keeps
    /// formats; `--run`/`--skip` globs are matched against `fuzz/<format>/<op>/0`.
    public static func selected(handlers: [any FormatHandler], selection: CaseSelection) -> [FuzzTarget] {
        var out: [FuzzTarget] = []
        for h in handlers where selection.formats.isEmpty || selection.formats.contains(h.format) {
            for op in h.ops {
                let t = FuzzTarget(format: h.format, op: op)
                let probe = t.caseID(0)
                if !selection.run.isEmpty && !selection.run.contains(where: { $0.matches(probe) }) { continue }
                if selection.skip.contains(where: { $0.matches(probe) }) { continue }
                out.append(t)
            }
        }
        return out
    }

    /// `--run` patterns that select no pair (a usage error, as in `run`).
    public static func unmatchedRunPatterns(handlers: [any FormatHandler], selection: CaseSelection) -> [IDPattern] {
        var all = CaseSelection()
        all.formats = selection.formats
        let pairs = selected(handlers: handlers, selection: all)
        return selection.run.filter { p in !pairs.contains { p.matches($0.caseID(0)) } }
    }

    public static func make(handlers: [any FormatHandler], generators: [any FuzzGenerator], selection: CaseSelection,
                            hello: TesteeHello?) -> FuzzPlan {
        var plan = FuzzPlan(targets: [], notFuzzed: [], notAdvertised: [])
        var formatsWithoutGenerator: [String] = []
        for t in selected(handlers: handlers, selection: selection) {
            if let hello, !hello.supports(format: t.format, op: t.op) {
                plan.notAdvertised.append(t.name)
                continue
            }
            if t.op == "scenario" {
                plan.notFuzzed.append(Omission(name: t.name, reason: "an HTTP scenario: fuzzed against a service with conformance fuzz --http --format \(t.format)"))
                continue
            }
            guard let g = generators.first(where: { $0.format == t.format }) else {
                if !formatsWithoutGenerator.contains(t.format) {
                    formatsWithoutGenerator.append(t.format)
                    plan.notFuzzed.append(Omission(name: t.format, reason: "no fuzz generator for this format (Sources/Conformance/Fuzz/Generators)"))
                }
                continue
            }
            guard g.ops.contains(t.op) else {
                plan.notFuzzed.append(Omission(name: t.name, reason: "the \(t.format) generator builds no input for this op"))
                continue
            }
            plan.targets.append(t)
        }
        return plan
    }
}

/// One generated case: what is sent, and the reference's answer, computed in process.
struct FuzzCase: Sendable {
    var target: Int
    var n: Int
    var suiteCase: SuiteCase
    /// True when the input was made invalid by a mutator.
    var mutated: Bool

    /// The reference's answer to `input`: its output, or the code it rejects with.
    static func expected(_ handler: any FormatHandler, op: String, input: JSONValue) -> SuiteCase.Expected {
        do { return .output(try handler.run(op: op, input: input)) } catch { return .error(error.code.rawValue) }
    }
}

/// Which golden cases kill which mutant, judged in-process the way the runner judges a testee:
/// the output must equal the expected output exactly, or the rejection code must match.
public enum MutantMatrix {
    public struct Row: Sendable {
        public var mutant: Mutant
        /// Ids of the cases the mutant fails.
        public var killedBy: [String]
    }

    /// True when the reference (with whatever mutant is bound) answers the case as expected.
    public static func passes(_ c: VectorCase, handler: any FormatHandler) -> Bool {
        c.expected.isMet(by: Result { () throws(WireError) -> JSONValue in try handler.run(op: c.op, input: c.input.json) })
    }

    /// The matrix over the given vector files (generated beforehand, with no mutant bound).
    public static func compute(_ files: [VectorFile], mutants: [Mutant] = Mutant.allCases) -> [Row] {
        mutants.map { m in
            guard let vf = files.first(where: { $0.format == m.format }), let handler = Reference.handler(for: m.format) else {
                return Row(mutant: m, killedBy: [])
            }
            let killed = Mutant.$active.withValue(m) {
                vf.cases.filter { !passes($0, handler: handler) }.map(\.id)
            }
            return Row(mutant: m, killedBy: killed)
        }
    }
}

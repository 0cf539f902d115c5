/// One golden case: what a testee is given (`op`, `input`) and what the reference produced.
///
/// The `id` is `<format>/<op>/<group>/<name>`, stable forever: a case is withdrawn with a reason
/// (`VectorFile.withdrawn`), never renumbered or reused.
public struct VectorCase: Sendable {
    public enum Expected: Sendable, Equatable {
        /// The output the testee must produce, compared as JSON after normalisation (SPEC.md §Runner).
        case output(CBOR)
        /// The input must be rejected with exactly this code.
        case error(ErrorCode)

        /// Whether the reference's answer is this one: the same output, or a rejection with the
        /// same code. The mutant matrix and the audits of `conformance coverage` all judge by it.
        public func isMet(by answer: Result<JSONValue, WireError>) -> Bool {
            switch (self, answer) {
            case (.output(let o), .success(let got)): return got == o.json
            case (.error(let code), .failure(let e)): return e.code == code
            default: return false
            }
        }
    }

    public var id: String
    public var op: String
    public var comment: String
    public var flags: [String]
    public var input: CBOR
    public var expected: Expected

    public init(id: String, op: String, comment: String, flags: [String] = [], input: CBOR, expected: Expected) {
        self.id = id
        self.op = op
        self.comment = comment
        self.flags = flags
        self.input = input
        self.expected = expected
    }

    /// The format is the first path segment of the id.
    public var format: String { String(id.split(separator: "/").first ?? "") }

    var expectedTree: CBOR {
        switch expected {
        case .output(let o): return .object(["output": o])
        case .error(let e): return .object(["error": .text(e.rawValue)])
        }
    }

    /// The case as one vector-data tree (key order as shown in JSON).
    public var tree: CBOR {
        .object([
            ("id", .text(id)),
            ("op", .text(op)),
            ("comment", .text(comment)),
            ("flags", .array(flags.map { .text($0) })),
            ("input", input),
            ("expected", expectedTree),
        ])
    }
}

/// A case id that once existed and must never be reused.
public struct WithdrawnCase: Sendable {
    public var id: String
    public var reason: String
    public init(id: String, reason: String) {
        self.id = id
        self.reason = reason
    }
}

/// A hand-written two-fault case's faults as a model: the op input built from which of its two
/// faults are switched on (issue 23, item 4).
///
/// `conformance coverage` audits a two-fault case by finding its two faults among the places it
/// differs from an accepted case and putting them back one at a time. Some faults cannot be put
/// back that way: both live in one value (a `size_bytes` that is both over the cap and not the
/// blob's length), or inside a seal or a signature, where one changed byte of plaintext changes
/// every byte of the message. For those, the case's generator states the model it builds the
/// input from, as `FacetCaseBuilder.order` does for the facet orders, and the audit evaluates it:
///
/// - with both faults on, the model gives exactly the committed case's input (so the model is the
///   case, not a story about it);
/// - with neither, the reference accepts the input;
/// - with each alone, the reference refuses it or answers otherwise than with neither;
/// - exactly the earlier fault alone gives the case's own answer, so a testee that checks the two
///   the other way round fails the case.
///
/// A fault's bytes may depend on whether the other is on (an over-cap `size_bytes` alone must
/// still match the blob, or it would be two faults), which is why a model is a function of the
/// set and not two edits applied one after the other.
///
/// A case sealed under randomness drawn in sequence from its generator's shared stream (an
/// envelope's eseed) cannot be rebuilt byte for byte by a model, and drawing that randomness again
/// would move every later case. Its model is a `SealedModel`: it states what the seal holds, and
/// "both faults on is the committed input" is shown by opening the committed seal (see there).
public struct TwoFaultModel: Sendable {
    /// The case the model builds.
    public var id: String
    public var op: String
    /// The two faults' names, the one checked first (whose answer the case expects) first.
    public var first: String
    public var second: String
    let build: @Sendable (FaultSet) throws -> CBOR
    /// For a case answered with an output that echoes its input (settle's `step` returns the
    /// state it was given), the part of the output the order decides (`step`'s `actions`). The
    /// later fault alone must still change that part, and the earlier alone give the case's; the
    /// echo differs between the two single-fault inputs whatever the order, so comparing whole
    /// outputs could never find the case's answer. nil: the whole answer.
    let decisive: (@Sendable (JSONValue) -> JSONValue?)?
    /// nil: the committed input is compared with the model's both-faults input byte for byte.
    let sealed: SealedModel?

    init(_ id: String, op: String, first: String, second: String, decisive: (@Sendable (JSONValue) -> JSONValue?)? = nil,
         input: @escaping @Sendable (FaultSet) throws -> CBOR) {
        self.id = id
        self.op = op
        self.first = first
        self.second = second
        self.decisive = decisive
        self.build = input
        self.sealed = nil
    }

    /// A model whose input holds a seal: `contents` says what it holds for each set of faults;
    /// the inputs the model runs are sealed afresh under an eseed from a label naming the case and
    /// the set (never the generator's shared stream).
    init(_ id: String, op: String, first: String, second: String, sealing: Sealing,
         contents: @escaping @Sendable (FaultSet) throws -> SealedInput) {
        let model = SealedModel(sealing: sealing, contents: contents)
        self.id = id
        self.op = op
        self.first = first
        self.second = second
        self.sealed = model
        self.decisive = nil
        self.build = { s in try model.input(s, label: "two-fault-model.\(id).\(s.on.isEmpty ? "none" : s.on.sorted().joined(separator: "+"))") }
    }

    /// The input with the named faults switched on.
    public func input(_ on: Set<String>) throws -> CBOR { try build(FaultSet(on: on)) }

    /// The case's input: both faults on.
    public func both() throws -> CBOR { try input([first, second]) }

    /// nil when the committed case `c` is what the model says it is; else what is wrong.
    /// `run` is the format's reference, driven as a testee is.
    public func audit(_ c: VectorCase, run: (String, CBOR) -> Result<JSONValue, WireError>) -> String? {
        func describe(_ r: Result<JSONValue, WireError>) -> String {
            switch r {
            case .success(let v): return "output " + String(v.compact.prefix(80))
            case .failure(let e): return "error \(e.code.rawValue)"
            }
        }
        do {
            guard c.op == op else { return "its model is of op \(op), the case's is \(c.op)" }
            if let sealed {
                if let problem = try sealed.problem(committed: c.input, both: FaultSet(on: [first, second])) { return problem }
            } else {
                // As JSON: a committed case read back holds its bytes as hex text, not as bytes.
                guard try both().json == c.input.json else { return "its model with both faults on is not the case's input" }
            }
            let base = run(op, try input([]))
            guard case .success = base else { return "its model with no fault is not accepted: \(describe(base))" }
            let a = run(op, try input([first])), b = run(op, try input([second]))
            /// The answer as the order decides it: an error, or the decisive part of an output.
            func part(_ r: Result<JSONValue, WireError>) -> Result<JSONValue?, WireError> {
                r.map { v in decisive.map { $0(v) } ?? v }
            }
            func differs(_ r: Result<JSONValue, WireError>) -> Bool {
                if case .success(let x) = part(r), case .success(let y) = part(base) { return x != y }
                return true
            }
            func isTheCase(_ r: Result<JSONValue, WireError>) -> Bool {
                guard let decisive, case .output(let o) = c.expected else { return c.expected.isMet(by: r) }
                if case .success(let got) = r { return decisive(got) == decisive(o.json) }
                return false
            }
            guard differs(a) else { return "fault \(first) alone answers as no fault: \(describe(a))" }
            guard differs(b) else { return "fault \(second) alone answers as no fault: \(describe(b))" }
            guard isTheCase(a) else { return "fault \(first) alone gives \(describe(a)), not the case's answer" }
            guard !isTheCase(b) else { return "fault \(second) alone gives the case's answer too: the case cannot tell the order" }
            return nil
        } catch {
            return "its model does not build: \(error)"
        }
    }
}

/// The models of every format's hand-written two-fault cases whose faults cannot be found by
/// comparing bytes. Each format keeps its own beside its cases and builds its cases' inputs from
/// them; its generator audits them as it writes the cases, and `conformance coverage` audits them
/// again against the committed files.
public enum TwoFaultModels {
    /// The models of one format (none for a format that needs none). `cases` are the format's
    /// cases (committed, or as generated): a sealed case's model takes the payloads its generator
    /// drew from the shared stream out of the accepted case that carries them (see
    /// `EnvelopeVectors.twoFaultModels`).
    public static func of(format: String, cases: [VectorCase]) throws -> [TwoFaultModel] {
        switch format {
        case "sync_offer": return try SyncOfferVectors.twoFaultModels(SyncOfferVectors.Fixture())
        case "settle": return SettleVectors.twoFaultModels()
        case "reconcile": return try ReconcileVectors.twoFaultModels()
        case "signin": return try SignInVectors.twoFaultModels(try SignInFixtures())
        case "device_list": return try DeviceListVectors.twoFaultModels(DeviceListVectors.Identities())
        case "envelope": return try EnvelopeVectors.twoFaultModels(EnvelopeFixtures(), cases: cases)
        default: return []
        }
    }

    /// Audits each model against the case of its id in `cases` (the generator's check: a model
    /// naming no case, or not matching its case, stops generation).
    static func check(_ models: [TwoFaultModel], in cases: [VectorCase], handler: any FormatHandler) throws {
        let byID = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for m in models {
            guard let c = byID[m.id] else { throw GeneratorModelFailed(description: "two-fault model \(m.id) names no case") }
            if let problem = m.audit(c, run: { op, input in Result { () throws(WireError) -> JSONValue in try handler.run(op: op, input: input.json) } }) {
                throw GeneratorModelFailed(description: "two-fault model \(m.id): \(problem)")
            }
        }
    }

    struct GeneratorModelFailed: Error, CustomStringConvertible {
        var description: String
    }
}

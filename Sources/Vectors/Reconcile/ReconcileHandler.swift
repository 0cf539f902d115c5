import Primitives

/// The reference `reconcile` format as the runner drives it (SPEC.md §5.6, §5.7).
public struct ReconcileHandler: FormatHandler {
    public init() {}

    public var format: String { "reconcile" }
    public var ops: [String] { ["bucketize", "respond", "encode_frame", "decode_frame", "receive_digest"] }

    public func generate() throws -> VectorFile { try ReconcileVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue { try tree(op: op, input: input).json }

    /// The output as vector data (bytes as bytes), before it is written as JSON.
    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR {
        switch op {
        case "bucketize":
            let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
            let req = try Bucketizer.request(namespace: ns, keyedLeaves: try LeafList.parse(input))
            return ReconcileOutput.request(req)
        case "respond":
            let requestJSON = try Input.member(input, "request", path: "")
            if Mutant.on(.respondKindBeforeDecode), let kind = requestJSON["kind"]?.stringValue, kind != ReconcileRequest.kind {
                throw WireError(.inputBadValue, "mutant: kind checked before the frame is decoded", field: "request.kind")
            }
            // The whole frame is decoded first (its frame codes win), then its kind (SPEC §5.4, R5.4-1).
            guard case .request(let req) = try ReconcileFrame.decode(requestJSON) else {
                throw WireError(.inputBadValue, "respond answers a reconcile_req, not another kind", field: "request.kind")
            }
            let replica = try Self.replica(try Input.member(input, "replica", path: ""), namespace: req.namespace)
            return ReconcileOutput.response(try Responder.respond(to: req, from: replica))
        case "encode_frame":
            let frame = try ReconcileFrame.decode(try Input.member(input, "frame", path: ""))
            return ReconcileOutput.encoded(frame)
        case "decode_frame":
            let text = try Input.text(try Input.member(input, "json", path: ""), path: "json")
            return ReconcileOutput.decoded(try ReconcileFrame.decode(jsonText: text))
        case "receive_digest":
            return try Self.receiveDigest(input)
        default:
            throw WireError(.unknownOp, "reconcile has no op \(op)", field: "op")
        }
    }

    /// The replica of `respond` (SPEC §5.4, R5.4-2): rows, then (not settings) tombstones and
    /// vectors, each key §2.2 hex of the namespace's key length; settings reads neither. Repeated
    /// keys are checked after everything is read.
    static func replica(_ v: JSONValue, namespace ns: Namespace) throws(WireError) -> ReplicaNamespace {
        var r = ReplicaNamespace(namespace: ns)
        r.rows = try StateDigestHandler.rows(try Input.member(v, "rows", path: "replica"), namespace: ns, path: "replica.rows")
        guard let keyLength = LeafSchema.schema(for: ns).keyLength else { return r }
        func key(_ item: JSONValue, path: String) throws(WireError) -> [UInt8] {
            try Input.bytes(item, path: path, length: Mutant.on(.tombstoneLengthUnchecked) ? nil : keyLength)
        }
        if let t = try Input.optionalMember(v, "tombstones", path: "replica") {
            for (i, item) in try Input.array(t, path: "replica.tombstones").enumerated() {
                r.tombstones.append(try key(item, path: "replica.tombstones[\(i)]"))
            }
        }
        var vectorKeys = Set<[UInt8]>()
        var repeatedVectorKey: [UInt8]?
        if let vs = try Input.optionalMember(v, "vectors", path: "replica") {
            InputRecorder.noteMap("replica.vectors")
            for (k, vv) in DataKeyOrder.checkingOrder(try Input.object(vs, path: "replica.vectors")) {
                let bytes = try key(.string(k), path: "replica.vectors.\(k)")
                guard case .versionVector(let m) = try Row.parseValue(vv, kind: .versionVector, path: "replica.vectors.\(k)") else { continue }
                if !vectorKeys.insert(bytes).inserted, repeatedVectorKey == nil { repeatedVectorKey = bytes }
                r.vectors[TextKey(Hex.encode(bytes))] = m
            }
        }
        try r.checkKeys()
        if let repeatedVectorKey {
            throw WireError(.duplicateKey, "vectors names key \(Hex.encode(repeatedVectorKey)) twice", field: "replica.vectors")
        }
        return r
    }

    /// `receive_digest` (SPEC §5.7): what a device does with a sibling's `state_digest` frame.
    static func receiveDigest(_ input: JSONValue) throws(WireError) -> CBOR {
        let local = try StateDigest.decode(try Input.bytes(try Input.member(input, "local", path: ""), path: "local"))
        guard case .digest(let peer) = try ReconcileFrame.decode(try Input.member(input, "frame", path: "")) else {
            throw WireError(.inputBadValue, "receive_digest takes a state_digest frame", field: "frame.kind")
        }
        let reconciling = try Input.bool(try Input.member(input, "reconciling", path: ""), path: "reconciling")
        let step = DigestExchange.receive(local: local, peer: peer, reconciling: reconciling)
        return ReconcileOutput.received(step)
    }
}

/// What a device does on receiving a sibling's digest (SPEC §5.7, R5.7-3, R5.7-4): pull every
/// divergent namespace; on matching roots, return its own digest exactly once if it was
/// reconciling with that sibling, else stay silent. A pure function, so the settle loop can
/// build on it.
public enum DigestExchange {
    public struct Step: Sendable, Equatable {
        /// Namespaces to pull (one reconcile_req each), in digest order.
        public var pull: [Namespace]
        /// The digest to send back, if any.
        public var reply: StateDigest?
        /// Whether this device is reconciling with the sibling afterwards.
        public var reconciling: Bool
    }

    public static func receive(local: StateDigest, peer: StateDigest, reconciling: Bool) -> Step {
        let divergent = local.divergentNamespaces(from: peer)
        if !divergent.isEmpty { return Step(pull: divergent, reply: nil, reconciling: true) }
        if Mutant.on(.digestReplyEveryTime) { return Step(pull: [], reply: local, reconciling: false) }
        if Mutant.on(.digestReplyNever) { return Step(pull: [], reply: nil, reconciling: false) }
        return Step(pull: [], reply: reconciling ? local : nil, reconciling: false)
    }
}

/// Output shapes shared by the handler and the generator.
enum ReconcileOutput {
    static func request(_ r: ReconcileRequest) -> CBOR { .object([("request", r.tree)]) }
    static func response(_ r: ReconcileResponse?) -> CBOR { .object([("response", r?.tree ?? .null)]) }
    static func encoded(_ f: ReconcileFrame) -> CBOR { .object([("json", .text(f.jsonText)), ("cbor", .bytes(f.cborBytes))]) }
    static func decoded(_ f: ReconcileFrame) -> CBOR {
        if Mutant.on(.decodeKeepsRowOrder), case .response(let r) = f { return .object([("frame", r.treeAsGiven)]) }
        return .object([("frame", f.tree)])
    }
    static func received(_ s: DigestExchange.Step) -> CBOR {
        .object([("pull", .array(s.pull.map { .text($0.rawValue) })),
                 ("reply", s.reply.map(ReconcileFrame.digestTree) ?? .null),
                 ("reconciling", .bool(s.reconciling))])
    }
}

import Primitives

/// The reference `reconcile` format as the runner drives it (SPEC.md §5.6).
public struct ReconcileHandler: FormatHandler {
    public init() {}

    public var format: String { "reconcile" }
    public var ops: [String] { ["bucketize", "respond", "encode_frame", "decode_frame"] }

    public func generate() throws -> VectorFile { try ReconcileVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        switch op {
        case "bucketize":
            let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
            let req = try Bucketizer.request(namespace: ns, keyedLeaves: try LeafList.parse(input))
            return ReconcileOutput.request(req).json
        case "respond":
            guard case .request(let req) = try ReconcileFrame.decode(try Input.member(input, "request", path: "")) else {
                throw WireError(.inputBadValue, "respond answers a reconcile_req, not a reconcile_resp", field: "request.kind")
            }
            let replica = try Self.replica(try Input.member(input, "replica", path: ""), namespace: req.namespace)
            return ReconcileOutput.response(try Responder.respond(to: req, from: replica)).json
        case "encode_frame":
            let frame = try ReconcileFrame.decode(try Input.member(input, "frame", path: ""))
            return ReconcileOutput.encoded(frame).json
        case "decode_frame":
            let text = try Input.text(try Input.member(input, "json", path: ""), path: "json")
            return ReconcileOutput.decoded(try ReconcileFrame.decode(jsonText: text)).json
        default:
            throw WireError(.unknownOp, "reconcile has no op \(op)", field: "op")
        }
    }

    static func replica(_ v: JSONValue, namespace ns: Namespace) throws(WireError) -> ReplicaNamespace {
        var r = ReplicaNamespace(namespace: ns)
        r.rows = try StateDigestHandler.rows(try Input.member(v, "rows", path: "replica"), namespace: ns, path: "replica.rows")
        if let t = v["tombstones"] {
            guard let items = t.arrayValue else { throw WireError(.inputBadType, "tombstones must be an array", field: "replica.tombstones") }
            for (i, item) in items.enumerated() { r.tombstones.append(try Input.bytes(item, path: "replica.tombstones[\(i)]")) }
        }
        if let vs = v["vectors"] {
            guard let members = vs.objectValue else { throw WireError(.inputBadType, "vectors must be an object", field: "replica.vectors") }
            for (k, vv) in members {
                guard case .versionVector(let m) = try Row.parseValue(vv, kind: .versionVector, path: "replica.vectors.\(k)") else { continue }
                r.vectors[k] = m
            }
        }
        return r
    }
}

/// Output shapes shared by the handler and the generator.
enum ReconcileOutput {
    static func request(_ r: ReconcileRequest) -> CBOR { .object([("request", r.tree)]) }
    static func response(_ r: ReconcileResponse?) -> CBOR { .object([("response", r?.tree ?? .null)]) }
    static func encoded(_ f: ReconcileFrame) -> CBOR { .object([("json", .text(f.jsonText)), ("cbor", .bytes(f.cborBytes))]) }
    static func decoded(_ f: ReconcileFrame) -> CBOR { .object([("frame", f.tree)]) }
}

import Primitives

/// The two frames as the sync channel carries them: compact JSON with members in canonical order
/// (SPEC.md §5.3), and the tolerant-but-strict decoding rules.
public enum ReconcileFrame: Sendable, Hashable {
    case request(ReconcileRequest)
    case response(ReconcileResponse)

    public var tree: CBOR {
        switch self {
        case .request(let r): return r.tree
        case .response(let r): return r.tree
        }
    }

    /// The exact JSON text a sender writes.
    public var jsonText: String { tree.json.compact }
    /// The CBOR twin used in vector files.
    public var cborBytes: [UInt8] { CBORWriter.encode(tree) }

    /// Decodes a frame's JSON text.
    public static func decode(jsonText: String) throws(WireError) -> ReconcileFrame {
        let json: JSONValue
        do { json = try JSONValue.parse(jsonText) } catch {
            throw WireError(.frameInvalidJSON, error.reason, offset: error.offset)
        }
        return try decode(json)
    }

    /// Decodes a parsed frame. Unknown members are ignored everywhere (a newer sibling may add
    /// some); a response without `vectors` or `tombstones` (an un-upgraded sibling) decodes with
    /// them empty; everything else that is required and missing, mistyped, or breaks the tiling is
    /// rejected.
    public static func decode(_ json: JSONValue) throws(WireError) -> ReconcileFrame {
        guard json.objectValue != nil else { throw WireError(.frameBadType, "a frame is a JSON object", field: "") }
        let kind = try string(json, "kind")
        guard kind == ReconcileRequest.kind || kind == ReconcileResponse.kind else {
            throw WireError(.frameUnknownKind, "kind \(kind) is not reconcile_req or reconcile_resp", field: "kind")
        }
        let nsName = try string(json, "namespace")
        guard let ns = Namespace(rawValue: nsName) else { throw WireError(.unknownNamespace, "no namespace \(nsName)", field: "namespace") }
        if kind == ReconcileRequest.kind {
            if ns == .settings { return .request(ReconcileRequest(namespace: .settings, buckets: [])) }
            if Mutant.on(.rejectUnknownFrameFields), let extra = json.objectValue?.first(where: { !["kind", "namespace", "buckets"].contains($0.0) }) {
                throw WireError(.frameBadType, "mutant: unknown member \(extra.0)", field: extra.0)
            }
            guard let items = try member(json, "buckets").arrayValue else { throw WireError(.frameBadType, "buckets must be an array", field: "buckets") }
            guard items.count <= Bucketizer.maxBuckets || Mutant.on(.acceptTooManyBuckets) else {
                throw WireError(.frameTooManyBuckets, "\(items.count) buckets; at most \(Bucketizer.maxBuckets)", field: "buckets")
            }
            var buckets: [Bucket] = []
            for (i, item) in items.enumerated() { buckets.append(try bucket(item, path: "buckets[\(i)]")) }
            try ReconcileRequest.validateTiling(buckets)
            return .request(ReconcileRequest(namespace: ns, buckets: buckets))
        }
        var resp = ReconcileResponse(namespace: ns)
        if Mutant.on(.requireVectorsAndTombstones), json["vectors"] == nil || json["tombstones"] == nil {
            throw WireError(.frameMissingField, "mutant: vectors and tombstones required", field: "vectors")
        }
        if Mutant.on(.rejectUnknownFrameFields) {
            let known: Set<String> = ["kind", "namespace", "buckets", "rows", "vectors", "tombstones", "entries"]
            if let extra = json.objectValue?.first(where: { !known.contains($0.0) }) {
                throw WireError(.frameBadType, "mutant: unknown member \(extra.0)", field: extra.0)
            }
        }
        if let v = json["vectors"] {
            guard let members = v.objectValue else { throw WireError(.frameBadType, "vectors must be an object", field: "vectors") }
            for (k, vv) in members { resp.vectors[k] = try versionVector(vv, path: "vectors.\(k)") }
        }
        if ns == .settings {
            guard let members = try member(json, "entries").objectValue else { throw WireError(.frameBadType, "entries must be an object", field: "entries") }
            for (k, v) in members {
                guard let s = v.stringValue else { throw WireError(.frameBadType, "a settings value is a string", field: "entries.\(k)") }
                resp.entries[k] = s
            }
            if let t = json["tombstones"] {
                guard let items = t.arrayValue else { throw WireError(.frameBadType, "tombstones must be an array", field: "tombstones") }
                for (i, item) in items.enumerated() {
                    guard let s = item.stringValue else { throw WireError(.frameBadType, "a settings tombstone is a key string", field: "tombstones[\(i)]") }
                    resp.settingsTombstones.append(s)
                }
            }
            return .response(resp)
        }
        guard let rowItems = try member(json, "rows").arrayValue else { throw WireError(.frameBadType, "rows must be an array", field: "rows") }
        for (i, item) in rowItems.enumerated() { resp.rows.append(try Row.parse(item, namespace: ns, path: "rows[\(i)]")) }
        if let t = json["tombstones"] {
            guard let items = t.arrayValue else { throw WireError(.frameBadType, "tombstones must be an array", field: "tombstones") }
            for (i, item) in items.enumerated() { resp.tombstones.append(try hex(item, path: "tombstones[\(i)]")) }
        }
        return .response(resp)
    }

    static func member(_ json: JSONValue, _ name: String) throws(WireError) -> JSONValue {
        guard let v = json[name] else { throw WireError(.frameMissingField, "missing \(name)", field: name) }
        return v
    }

    static func string(_ json: JSONValue, _ name: String) throws(WireError) -> String {
        guard let s = try member(json, name).stringValue else { throw WireError(.frameBadType, "\(name) must be a string", field: name) }
        return s
    }

    static func hex(_ v: JSONValue, path: String) throws(WireError) -> [UInt8] {
        guard let s = v.stringValue, let b = Hex.decode(s) else { throw WireError(.frameBadType, "expected hex bytes", field: path) }
        return b
    }

    static func bucket(_ v: JSONValue, path: String) throws(WireError) -> Bucket {
        guard v.objectValue != nil else { throw WireError(.frameBadType, "a bucket is an object", field: path) }
        guard let loJSON = v["lo"] else { throw WireError(.frameMissingField, "missing lo", field: "\(path).lo") }
        let lo = try hex(loJSON, path: "\(path).lo")
        let hi: [UInt8]? = try v["hi"].map { (h) throws(WireError) in try hex(h, path: "\(path).hi") }
        guard let rootJSON = v["root"] else { throw WireError(.frameMissingField, "missing root", field: "\(path).root") }
        let rootBytes = try hex(rootJSON, path: "\(path).root")
        guard let root = SHA256Digest(bytes: rootBytes) else {
            throw WireError(.frameBadRootLength, "root is \(rootBytes.count) bytes, not 32", field: "\(path).root")
        }
        guard let countJSON = v["count"] else { throw WireError(.frameMissingField, "missing count", field: "\(path).count") }
        guard case .number(let literal) = countJSON, let count = Int64(literal) else {
            throw WireError(.frameBadType, "count must be an integer", field: "\(path).count")
        }
        guard count >= 0 || Mutant.on(.acceptNegativeCount) else { throw WireError(.frameNegativeCount, "count \(count) is below zero", field: "\(path).count") }
        return Bucket(lo: lo, hi: hi, root: root, count: Int(max(0, count)))
    }

    static func versionVector(_ v: JSONValue, path: String) throws(WireError) -> [String: UInt64] {
        guard let members = v.objectValue else { throw WireError(.frameBadType, "a version vector is an object", field: path) }
        var out: [String: UInt64] = [:]
        for (k, c) in members {
            guard case .number(let literal) = c, let n = UInt64(literal) else { throw WireError(.frameBadType, "a counter is an unsigned integer", field: "\(path).\(k)") }
            out[k] = n
        }
        return out
    }
}

import Primitives

/// The three `sync_delta` sub-kinds this suite pins, as the sync channel carries them: compact
/// JSON with members in canonical order (SPEC.md §5.3, §5.7), and the tolerant-but-strict decoding
/// rules.
public enum ReconcileFrame: Sendable, Hashable {
    case request(ReconcileRequest)
    case response(ReconcileResponse)
    /// The `state_digest` advertisement carrying a sibling's 417 bytes (§5.7).
    case digest(StateDigest)

    public static let digestKind = "state_digest"

    public var tree: CBOR {
        switch self {
        case .request(let r): return r.tree
        case .response(let r): return r.tree
        case .digest(let d): return Self.digestTree(d)
        }
    }

    static func digestTree(_ d: StateDigest) -> CBOR {
        .object([("kind", .text(digestKind)), ("digest", .bytes(d.encoded()))])
    }

    /// The exact JSON text a sender writes.
    public var jsonText: String { FrameText.write(tree.json(bigIntegersAsStrings: false)) }
    /// The CBOR twin used in vector files.
    public var cborBytes: [UInt8] { CBORWriter.encode(tree) }

    /// Decodes a frame's JSON text: strict JSON first (§5.3 step 1), then the frame rules.
    public static func decode(jsonText: String) throws(WireError) -> ReconcileFrame {
        try decode(try FrameJSONReader.parse(jsonText))
    }

    /// Decodes a parsed frame (§5.3 steps 1–7, §5.7). Unknown members are ignored in the frame and
    /// bucket objects (a newer sibling may add some); a response without `vectors` or `tombstones`
    /// (an un-upgraded sibling) decodes with them empty; everything else that is required and
    /// missing, mistyped, of the wrong length, repeated, or breaks the tiling is rejected.
    public static func decode(_ json: JSONValue) throws(WireError) -> ReconcileFrame {
        guard json.objectValue != nil else { throw WireError(.frameBadType, "a frame is a JSON object", field: "") }
        if Mutant.on(.namespaceBeforeKind), json["namespace"] != nil { _ = try namespace(json) }
        let kind = try string(json, "kind")
        guard kind == ReconcileRequest.kind || kind == ReconcileResponse.kind || kind == digestKind else {
            throw WireError(.frameUnknownKind, "kind \(kind) is not reconcile_req, reconcile_resp or state_digest", field: "kind")
        }
        if kind == digestKind {
            let bytes = try hex(try member(json, "digest"), path: "digest")
            return .digest(try StateDigest.decode(bytes))
        }
        let ns = try namespace(json)
        if kind == ReconcileRequest.kind { return .request(try request(json, namespace: ns)) }
        return .response(try response(json, namespace: ns))
    }

    static func namespace(_ json: JSONValue) throws(WireError) -> Namespace {
        let nsName = try string(json, "namespace")
        guard let ns = Namespace(rawValue: nsName), ns.rawValue.utf8.elementsEqual(nsName.utf8) else {
            throw WireError(.unknownNamespace, "no namespace \(nsName)", field: "namespace")
        }
        return ns
    }

    // MARK: request

    static func request(_ json: JSONValue, namespace ns: Namespace) throws(WireError) -> ReconcileRequest {
        if ns == .settings { return ReconcileRequest(namespace: .settings, buckets: []) }
        if Mutant.on(.rejectUnknownFrameFields), let extra = json.objectValue?.first(where: { !["kind", "namespace", "buckets"].contains($0.0) }) {
            throw WireError(.frameBadType, "mutant: unknown member \(extra.0)", field: extra.0)
        }
        guard let items = try member(json, "buckets").arrayValue else { throw WireError(.frameBadType, "buckets must be an array", field: "buckets") }
        let limitChecked = !Mutant.on(.acceptTooManyBuckets) && !Mutant.on(.bucketLimitAfterReading)
        func tooMany() -> WireError { WireError(.frameTooManyBuckets, "\(items.count) buckets; at most \(Bucketizer.maxBuckets)", field: "buckets") }
        if limitChecked && items.count > Bucketizer.maxBuckets { throw tooMany() }
        var buckets: [Bucket] = []
        for (i, item) in items.enumerated() {
            buckets.append(try bucket(item, path: "buckets[\(i)]"))
            if i == 0, Mutant.on(.tilingPerBucket), !buckets[0].lo.isEmpty {
                throw WireError(.frameNotTiling, "mutant: tiling checked per bucket", field: "buckets[0].lo")
            }
        }
        if Mutant.on(.bucketLimitAfterReading) && items.count > Bucketizer.maxBuckets { throw tooMany() }
        try ReconcileRequest.validateTiling(buckets)
        return ReconcileRequest(namespace: ns, buckets: buckets)
    }

    static func bucket(_ v: JSONValue, path: String) throws(WireError) -> Bucket {
        guard v.objectValue != nil else { throw WireError(.frameBadType, "a bucket is an object", field: path) }
        guard let loJSON = v["lo"] else { throw WireError(.frameMissingField, "missing lo", field: "\(path).lo") }
        let lo = try hex(loJSON, path: "\(path).lo")
        let hi: [UInt8]? = try present(v, "hi").map { (h) throws(WireError) in try hex(h, path: "\(path).hi") }
        guard let rootJSON = v["root"] else { throw WireError(.frameMissingField, "missing root", field: "\(path).root") }
        let rootBytes = try hex(rootJSON, path: "\(path).root")
        guard let root = SHA256Digest(bytes: rootBytes) else {
            throw WireError(.frameBadRootLength, "root is \(rootBytes.count) bytes, not 32", field: "\(path).root")
        }
        guard let countJSON = v["count"] else { throw WireError(.frameMissingField, "missing count", field: "\(path).count") }
        if Mutant.on(.countStringsRejected), case .string = countJSON {
            throw WireError(.frameBadType, "mutant: count must be a JSON number", field: "\(path).count")
        }
        switch integer(countJSON, lenientFloats: Mutant.on(.countFromFloats)) {
        case .value(let count)?: return Bucket(lo: lo, hi: hi, root: root, count: count)
        case .negative?:
            if Mutant.on(.acceptNegativeCount) { return Bucket(lo: lo, hi: hi, root: root, count: 0) }
            throw WireError(.frameNegativeCount, "count is below zero", field: "\(path).count")
        case nil:
            throw WireError(.frameBadType, "count must be an integer 0 … 2^64−1", field: "\(path).count")
        }
    }

    // MARK: response

    static func response(_ json: JSONValue, namespace ns: Namespace) throws(WireError) -> ReconcileResponse {
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
        let keyLength = LeafSchema.schema(for: ns).keyLength
        if let v = try present(json, "vectors") {
            guard let members = v.objectValue else { throw WireError(.frameBadType, "vectors must be an object", field: "vectors") }
            for (k, vv) in DataKeyOrder.checkingOrder(members) {
                var key = k
                if let keyLength { key = Hex.encode(try self.key(.string(k), length: keyLength, path: "vectors.\(k)")) }
                resp.vectors[TextKey(key)] = try versionVector(vv, path: "vectors.\(k)")
            }
        }
        if ns == .settings {
            guard let members = try member(json, "entries").objectValue else { throw WireError(.frameBadType, "entries must be an object", field: "entries") }
            for (k, v) in DataKeyOrder.checkingOrder(members) {
                guard let s = v.stringValue else { throw WireError(.frameBadType, "a settings value is a string", field: "entries.\(k)") }
                resp.entries[TextKey(k)] = s
            }
            if let t = try present(json, "tombstones") {
                guard let items = t.arrayValue else { throw WireError(.frameBadType, "tombstones must be an array", field: "tombstones") }
                for (i, item) in items.enumerated() {
                    guard let s = item.stringValue else { throw WireError(.frameBadType, "a settings tombstone is a key string", field: "tombstones[\(i)]") }
                    resp.settingsTombstones.append(s)
                }
            }
            try checkRepeats(resp)
            return resp
        }
        func readTombstones() throws(WireError) {
            guard let t = try present(json, "tombstones") else { return }
            guard let items = t.arrayValue else { throw WireError(.frameBadType, "tombstones must be an array", field: "tombstones") }
            for (i, item) in items.enumerated() { resp.tombstones.append(try key(item, length: keyLength!, path: "tombstones[\(i)]")) }
        }
        if Mutant.on(.tombstonesBeforeRows) { try readTombstones() }
        guard let rowItems = try member(json, "rows").arrayValue else { throw WireError(.frameBadType, "rows must be an array", field: "rows") }
        for (i, item) in rowItems.enumerated() { resp.rows.append(try Row.parse(item, namespace: ns, path: "rows[\(i)]", wire: true)) }
        if !Mutant.on(.tombstonesBeforeRows) { try readTombstones() }
        try checkRepeats(resp)
        return resp
    }

    /// §5.3 R5.3-17: a key shipped twice, or both live and deleted, is `duplicate_key`.
    static func checkRepeats(_ r: ReconcileResponse) throws(WireError) {
        if Mutant.on(.repeatedKeysAccepted) { return }
        if r.namespace == .settings {
            var dead = Set<TextKey>()
            for t in r.settingsTombstones {
                guard dead.insert(TextKey(t)).inserted else { throw WireError(.duplicateKey, "tombstone \(t) listed twice", field: "tombstones") }
                guard r.entries[TextKey(t)] == nil else { throw WireError(.duplicateKey, "key \(t) is both an entry and a tombstone", field: "tombstones") }
            }
            return
        }
        var live = Set<[UInt8]>()
        for row in r.rows {
            guard live.insert(row.keyBytes).inserted else { throw WireError(.duplicateKey, "row key \(Hex.encode(row.keyBytes)) shipped twice", field: "rows") }
        }
        var dead = Set<[UInt8]>()
        for t in r.tombstones {
            guard dead.insert(t).inserted else { throw WireError(.duplicateKey, "tombstone \(Hex.encode(t)) listed twice", field: "tombstones") }
            guard !live.contains(t) else { throw WireError(.duplicateKey, "key \(Hex.encode(t)) is both a row and a tombstone", field: "tombstones") }
        }
    }

    // MARK: members

    static func member(_ json: JSONValue, _ name: String) throws(WireError) -> JSONValue {
        guard let v = json[name] else { throw WireError(.frameMissingField, "missing \(name)", field: name) }
        return v
    }

    /// An optional member: nil when absent. `null` is a value, not absence (R5.3-8).
    static func present(_ json: JSONValue, _ name: String) throws(WireError) -> JSONValue? {
        guard let v = json[name] else { return nil }
        if v == .null && Mutant.on(.frameNullAsAbsent) { return nil }
        return v
    }

    static func string(_ json: JSONValue, _ name: String) throws(WireError) -> String {
        guard let s = try member(json, name).stringValue else { throw WireError(.frameBadType, "\(name) must be a string", field: name) }
        return s
    }

    /// Frames carry lowercase hex only: one spelling per byte string on the wire.
    static func hex(_ v: JSONValue, path: String) throws(WireError) -> [UInt8] {
        guard let s = v.stringValue, Mutant.on(.frameHexAnyCase) || !s.utf8.contains(where: { (0x41...0x46).contains($0) }), let b = Hex.decode(s) else {
            throw WireError(.frameBadType, "expected lowercase hex bytes", field: path)
        }
        return b
    }

    /// A tombstone or `vectors` key of a non-settings namespace: lowercase hex of the key length.
    static func key(_ v: JSONValue, length: Int, path: String) throws(WireError) -> [UInt8] {
        let b = try hex(v, path: path)
        guard b.count == length || Mutant.on(.tombstoneLengthUnchecked) else {
            throw WireError(.frameBadKeyLength, "a key of this namespace is \(length) bytes, got \(b.count)", field: path)
        }
        return b
    }

    enum FrameInteger { case value(UInt64), negative }

    /// A frame integer (§5.3 step 4) in the §2.2 spelling; nil when it is not such an integer or
    /// is above 2^64 − 1.
    static func integer(_ v: JSONValue, lenientFloats: Bool = false) -> FrameInteger? {
        var text = v.integerText
        if text == nil, lenientFloats, case .number(let n) = v, let d = Double(n), d.rounded() == d, abs(d) < 1.8e19 {
            text = d < 0 ? String(Int64(d)) : String(UInt64(d))
        }
        guard let t = text else { return nil }
        if t.hasPrefix("-") && t != "-0" { return .negative }
        guard let n = t == "-0" ? 0 : UInt64(t) else { return nil }
        return .value(n)
    }

    static func versionVector(_ v: JSONValue, path: String) throws(WireError) -> [TextKey: UInt64] {
        guard let members = v.objectValue else { throw WireError(.frameBadType, "a version vector is an object", field: path) }
        var out: [TextKey: UInt64] = [:]
        for (k, c) in DataKeyOrder.checkingOrder(members) {
            guard case .value(let value)? = integer(c) else {
                throw WireError(.frameBadType, "a counter is an integer 0 … 2^64−1", field: "\(path).\(k)")
            }
            out[TextKey(k)] = value
        }
        return out
    }
}

import Primitives

/// The reference `state_digest` format as the runner drives it (SPEC.md §StateDigest.Ops).
public struct StateDigestHandler: FormatHandler {
    public init() {}

    public var format: String { "state_digest" }
    public var wireVersion: UInt64 { UInt64(StateDigest.wireVersion) }
    public var ops: [String] { ["leaf", "root", "fold", "digest", "digest_encode", "digest_decode", "divergence", "mark_offloaded"] }

    public func generate() throws -> VectorFile { try StateDigestVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        switch op {
        case "leaf": return try leaf(input)
        case "root": return try root(input)
        case "fold": return try fold(input)
        case "digest": return try digest(input)
        case "digest_encode": return try digestEncode(input)
        case "digest_decode": return try digestDecode(input)
        case "divergence": return try divergence(input)
        case "mark_offloaded": return try markOffloaded(input)
        default: throw WireError(.unknownOp, "state_digest has no op \(op)", field: "op")
        }
    }

    // MARK: ops

    func leaf(_ input: JSONValue) throws(WireError) -> JSONValue {
        let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
        guard ns != .settings else {
            throw WireError(.inputBadValue, "settings has no per-row leaves; use op root", field: "namespace")
        }
        let row = try Row.parse(try Input.member(input, "row", path: ""), namespace: ns, path: "row")
        return StateDigestOutput.leaf(row: row, try Self.leafResult(row)).json
    }

    /// `(preimage, leaf)`, or nil when the row is dropped from the leaf set.
    static func leafResult(_ row: Row) throws(WireError) -> (preimage: [UInt8], leaf: SHA256Digest)? {
        if LeafEncoder.isDropped(row) { return nil }
        var enc = LeafEncoder()
        let pre = try enc.preimage(row)
        return (pre, try enc.leaf(row))
    }

    static func rows(_ input: JSONValue, namespace ns: Namespace, path: String) throws(WireError) -> [Row] {
        guard let items = input.arrayValue else { throw WireError(.inputBadType, "expected an array of rows", field: path) }
        var rows: [Row] = []
        for (i, item) in items.enumerated() { rows.append(try Row.parse(item, namespace: ns, path: "\(path)[\(i)]")) }
        return rows
    }

    func root(_ input: JSONValue) throws(WireError) -> JSONValue {
        let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
        let rows = try Self.rows(try Input.member(input, "rows", path: ""), namespace: ns, path: "rows")
        let r = try StateRoots.root(ns, rows: rows)
        return StateDigestOutput.root(r.root, count: r.count).json
    }

    func fold(_ input: JSONValue) throws(WireError) -> JSONValue {
        let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
        let keyed = try LeafList.parse(input)
        return StateDigestOutput.root(try MerkleTree.root(namespace: ns, keyedLeaves: keyed), count: keyed.count).json
    }

    static func store(_ input: JSONValue) throws(WireError) -> [Namespace: [Row]] {
        let nsObj = try Input.member(input, "namespaces", path: "")
        guard let members = nsObj.objectValue else { throw WireError(.inputBadType, "expected an object of namespaces", field: "namespaces") }
        var store: [Namespace: [Row]] = [:]
        for (name, rowsJSON) in members {
            guard let ns = Namespace(rawValue: name) else { throw WireError(.unknownNamespace, "no namespace \(name)", field: "namespaces.\(name)") }
            store[ns] = try rows(rowsJSON, namespace: ns, path: "namespaces.\(name)")
        }
        return store
    }

    func digest(_ input: JSONValue) throws(WireError) -> JSONValue {
        StateDigestOutput.digest(try StateRoots.digest(try Self.store(input))).json
    }

    func digestEncode(_ input: JSONValue) throws(WireError) -> JSONValue {
        let rootsJSON = try Input.member(input, "roots", path: "")
        guard rootsJSON.objectValue != nil else { throw WireError(.inputBadType, "expected an object of roots", field: "roots") }
        var roots: [SHA256Digest] = []
        for ns in Namespace.allCases {
            roots.append(try Input.digest(try Input.member(rootsJSON, ns.rawValue, path: "roots"), path: "roots.\(ns.rawValue)"))
        }
        return CBOR.object([("encoded", .bytes(StateDigest(roots: roots).encoded()))]).json
    }

    func digestDecode(_ input: JSONValue) throws(WireError) -> JSONValue {
        let bytes = try Input.bytes(try Input.member(input, "encoded", path: ""), path: "encoded")
        return StateDigestOutput.decoded(try StateDigest.decode(bytes)).json
    }

    func divergence(_ input: JSONValue) throws(WireError) -> JSONValue {
        let a = try StateDigest.decode(try Input.bytes(try Input.member(input, "a", path: ""), path: "a"))
        let b = try StateDigest.decode(try Input.bytes(try Input.member(input, "b", path: ""), path: "b"))
        return StateDigestOutput.divergence(a.divergentNamespaces(from: b)).json
    }

    func markOffloaded(_ input: JSONValue) throws(WireError) -> JSONValue {
        let row = try Row.parse(try Input.member(input, "row", path: ""), namespace: .notebook, path: "row")
        let hash = try Input.bytes(try Input.member(input, "contentHash", path: ""), path: "contentHash")
        let holder: [UInt8]? = try input["holder"].map { (v) throws(WireError) in try Input.bytes(v, path: "holder") }
        let before = try Self.leafResult(row)
        let after = try NotebookBody.markOffloaded(row, contentHash: hash, holder: holder)
        let afterLeaf = try Self.leafResult(after)
        return StateDigestOutput.offloaded(row: after, before: before!.leaf, after: afterLeaf!.leaf).json
    }
}

/// The shapes of `state_digest` outputs, shared by the handler and the generator so both write
/// the same tree.
public enum StateDigestOutput {
    static func leaf(row: Row, _ r: (preimage: [UInt8], leaf: SHA256Digest)?) -> CBOR {
        guard let r else { return .object([("dropped", .bool(true))]) }
        return .object([("preimage", .bytes(r.preimage)), ("leaf", .bytes(r.leaf.bytes))])
    }

    static func root(_ root: SHA256Digest, count: Int) -> CBOR {
        .object([("root", .bytes(root.bytes)), ("count", .unsigned(UInt64(count)))])
    }

    static func roots(_ d: StateDigest) -> CBOR {
        .object(Namespace.allCases.map { ($0.rawValue, CBOR.bytes(d[$0].bytes)) })
    }

    static func digest(_ d: StateDigest) -> CBOR {
        .object([("encoded", .bytes(d.encoded())), ("roots", roots(d))])
    }

    static func decoded(_ d: StateDigest) -> CBOR {
        .object([("version", .unsigned(UInt64(StateDigest.wireVersion))), ("roots", roots(d))])
    }

    static func divergence(_ nss: [Namespace]) -> CBOR {
        .object([("namespaces", .array(nss.map { .text($0.rawValue) }))])
    }

    static func offloaded(row: Row, before: SHA256Digest, after: SHA256Digest) -> CBOR {
        .object([("row", row.tree), ("leaf_before", .bytes(before.bytes)), ("leaf_after", .bytes(after.bytes))])
    }
}

/// `(key, leaf)` lists for `fold`: given explicitly, or by the generator rule of SPEC.md
/// §StateDigest.Ops (`index`), which keeps 1,000-leaf cases small.
public enum LeafList {
    public static let ruleSeparator = "pixie.vectors.leaf"

    /// Rule `index`: key_i = 4-byte big-endian i; leaf_i = SHA-256("pixie.vectors.leaf" || 0x00 || key_i), i = 0..<count.
    public static func indexRule(count: Int) -> [(key: [UInt8], leaf: SHA256Digest)] {
        (0..<count).map { i in
            let key: [UInt8] = [UInt8(truncatingIfNeeded: i >> 24), UInt8(truncatingIfNeeded: i >> 16), UInt8(truncatingIfNeeded: i >> 8), UInt8(truncatingIfNeeded: i)]
            return (key, SHA256.hash(Array(ruleSeparator.utf8) + [0] + key))
        }
    }

    public static let maxGeneratedCount = 1 << 20

    static func parse(_ input: JSONValue) throws(WireError) -> [(key: [UInt8], leaf: SHA256Digest)] {
        if let gen = input["generate"] {
            let rule = try Input.text(try Input.member(gen, "rule", path: "generate"), path: "generate.rule")
            guard rule == "index" else { throw WireError(.inputBadValue, "unknown generator rule \(rule)", field: "generate.rule") }
            guard let n = try Input.member(gen, "count", path: "generate").int64Value, n >= 0, n <= maxGeneratedCount else {
                throw WireError(.inputBadValue, "count must be 0...\(maxGeneratedCount)", field: "generate.count")
            }
            return indexRule(count: Int(n))
        }
        guard let items = try Input.member(input, "leaves", path: "").arrayValue else {
            throw WireError(.inputBadType, "expected an array of {key, leaf}", field: "leaves")
        }
        var out: [(key: [UInt8], leaf: SHA256Digest)] = []
        for (i, item) in items.enumerated() {
            let key = try Input.bytes(try Input.member(item, "key", path: "leaves[\(i)]"), path: "leaves[\(i)].key")
            let leaf = try Input.digest(try Input.member(item, "leaf", path: "leaves[\(i)]"), path: "leaves[\(i)].leaf")
            out.append((key, leaf))
        }
        return out
    }
}

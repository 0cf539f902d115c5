import Primitives

/// The reference `state_digest` format as the runner drives it (SPEC.md §StateDigest.Ops).
public struct StateDigestHandler: FormatHandler {
    public init() {}

    public var format: String { "state_digest" }
    public var wireVersion: UInt64 { UInt64(StateDigest.wireVersion) }
    public var ops: [String] { ["leaf", "root", "fold", "digest", "digest_encode", "digest_decode", "divergence", "mark_offloaded"] }

    public func generate() throws -> VectorFile { try StateDigestVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue { try tree(op: op, input: input).json }

    /// The output as vector data (bytes as bytes), before it is written as JSON.
    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR {
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

    func leaf(_ input: JSONValue) throws(WireError) -> CBOR {
        let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
        guard ns != .settings else {
            throw WireError(.inputBadValue, "settings has no per-row leaves; use op root", field: "namespace")
        }
        let row = try Row.parse(try Input.member(input, "row", path: ""), namespace: ns, path: "row")
        return StateDigestOutput.leaf(row: row, try Self.leafResult(row))
    }

    /// `(preimage, leaf)`, or nil when the row is dropped from the leaf set.
    static func leafResult(_ row: Row) throws(WireError) -> (preimage: [UInt8], leaf: SHA256Digest)? {
        if LeafEncoder.isDropped(row) { return nil }
        var enc = LeafEncoder()
        let pre = try enc.preimage(row)
        return (pre, try enc.leaf(row))
    }

    static func rows(_ input: JSONValue, namespace ns: Namespace, path: String) throws(WireError) -> [Row] {
        InputRecorder.note(path, .array, input)
        guard let items = input.arrayValue else { throw WireError(.inputBadType, "expected an array of rows", field: path) }
        var rows: [Row] = []
        for (i, item) in items.enumerated() { rows.append(try Row.parse(item, namespace: ns, path: "\(path)[\(i)]")) }
        return rows
    }

    func root(_ input: JSONValue) throws(WireError) -> CBOR {
        let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
        let rows = try Self.rows(try Input.member(input, "rows", path: ""), namespace: ns, path: "rows")
        let r = try StateRoots.root(ns, rows: rows)
        return StateDigestOutput.root(r.root, count: r.count)
    }

    func fold(_ input: JSONValue) throws(WireError) -> CBOR {
        let ns = try Input.namespace(try Input.member(input, "namespace", path: ""), path: "namespace")
        guard ns != .settings || Mutant.on(.foldAcceptsSettings) else {
            throw WireError(.inputBadValue, "settings has no leaves to fold (SPEC §4.9)", field: "namespace")
        }
        let keyed = try LeafList.parse(input)
        return StateDigestOutput.root(try MerkleTree.root(namespace: ns, keyedLeaves: keyed), count: keyed.count)
    }

    /// An object whose member names are namespace names (`digest`'s `namespaces`, `digest_encode`'s
    /// `roots`): every name is checked first, then the values are visited in §4.1 order whatever
    /// order the JSON lists them in (SPEC §4.9, R4.9-5).
    static func namespaceMembers(_ v: JSONValue, path: String) throws(WireError) -> [(Namespace, JSONValue)] {
        let members = try Input.object(v, path: path)
        var byNamespace: [Namespace: JSONValue] = [:]
        var inTextOrder: [(Namespace, JSONValue)] = []
        for (name, value) in members {
            guard let ns = Namespace(rawValue: name), ns.rawValue.utf8.elementsEqual(name.utf8) else {
                throw WireError(.unknownNamespace, "no namespace \(name)", field: "\(path).\(name)")
            }
            if byNamespace[ns] == nil { byNamespace[ns] = value; inTextOrder.append((ns, value)) }
        }
        if Mutant.on(.digestNamespacesInMemberOrder) { return inTextOrder }
        return Namespace.allCases.compactMap { ns in byNamespace[ns].map { (ns, $0) } }
    }

    /// `digest`: each namespace read and rooted in turn (rows, repeated keys, leaves), so one
    /// namespace's errors come before the next namespace's rows are read; a namespace not given has
    /// no rows.
    func digest(_ input: JSONValue) throws(WireError) -> CBOR {
        let nsObj = try Input.member(input, "namespaces", path: "")
        var roots = [SHA256Digest?](repeating: nil, count: Namespace.allCases.count)
        for (ns, rowsJSON) in try Self.namespaceMembers(nsObj, path: "namespaces") {
            let rows = try Self.rows(rowsJSON, namespace: ns, path: "namespaces.\(ns.rawValue)")
            roots[ns.rawValueIndex] = try StateRoots.root(ns, rows: rows).root
        }
        var all: [SHA256Digest] = []
        for ns in Namespace.allCases {
            if let r = roots[ns.rawValueIndex] { all.append(r) } else { all.append(try StateRoots.root(ns, rows: []).root) }
        }
        return StateDigestOutput.digest(StateDigest(roots: all))
    }

    func digestEncode(_ input: JSONValue) throws(WireError) -> CBOR {
        let rootsJSON = try Input.member(input, "roots", path: "")
        let given = try Self.namespaceMembers(rootsJSON, path: "roots")
        var byNamespace: [Namespace: JSONValue] = [:]
        for (ns, v) in given { byNamespace[ns] = v }
        var roots = [SHA256Digest?](repeating: nil, count: Namespace.allCases.count)
        // In §4.1 order (or member order under the mutant): a missing root is found in turn.
        let order = Mutant.on(.digestNamespacesInMemberOrder) ? given.map(\.0) + Namespace.allCases.filter { byNamespace[$0] == nil } : Namespace.allCases
        for ns in order {
            guard let v = byNamespace[ns] else { throw WireError(.inputMissingField, "missing roots.\(ns.rawValue)", field: "roots.\(ns.rawValue)") }
            roots[ns.rawValueIndex] = try Input.digest(v, path: "roots.\(ns.rawValue)")
        }
        return CBOR.object([("encoded", .bytes(StateDigest(roots: roots.map { $0! }).encoded()))])
    }

    func digestDecode(_ input: JSONValue) throws(WireError) -> CBOR {
        let bytes = try Input.bytes(try Input.member(input, "encoded", path: ""), path: "encoded")
        return StateDigestOutput.decoded(try StateDigest.decode(bytes))
    }

    func divergence(_ input: JSONValue) throws(WireError) -> CBOR {
        func read(_ name: String) throws(WireError) -> StateDigest {
            try StateDigest.decode(try Input.bytes(try Input.member(input, name, path: ""), path: name))
        }
        if Mutant.on(.divergenceBFirst) {
            let b = try read("b"), a = try read("a")
            return StateDigestOutput.divergence(a.divergentNamespaces(from: b))
        }
        let a = try read("a"), b = try read("b")
        return StateDigestOutput.divergence(a.divergentNamespaces(from: b))
    }

    func markOffloaded(_ input: JSONValue) throws(WireError) -> CBOR {
        let row = try Row.parse(try Input.member(input, "row", path: ""), namespace: .notebook, path: "row")
        let hash = try Input.bytes(try Input.member(input, "contentHash", path: ""), path: "contentHash")
        let holder: [UInt8]? = try Input.optionalMember(input, "holder", path: "").map { (v) throws(WireError) in try Input.bytes(v, path: "holder") }
        let after = try NotebookBody.markOffloaded(row, contentHash: hash, holder: holder)
        let before = try Self.leafResult(row)
        let afterLeaf = try Self.leafResult(after)
        return StateDigestOutput.offloaded(row: after, before: before!.leaf, after: afterLeaf!.leaf)
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

    /// R4.9-4: at most 2^16 generated leaves, so that the case at the limit itself is cheap
    /// enough for every run (2^20, the limit until 2026-12-07, took the debug reference 13 s).
    public static let maxGeneratedCount = 1 << 16

    /// `generate` if present (then `leaves` is not read), else `leaves` (SPEC §4.9, R4.9-3, R4.9-4).
    /// Repeated keys are left to the caller, after every element is read.
    static func parse(_ input: JSONValue) throws(WireError) -> [(key: [UInt8], leaf: SHA256Digest)] {
        if let gen = try Input.optionalMember(input, "generate", path: "") {
            let rule = try Input.text(try Input.member(gen, "rule", path: "generate"), path: "generate.rule")
            guard rule == "index" else { throw WireError(.inputBadValue, "unknown generator rule \(rule)", field: "generate.rule") }
            let n = try Input.uint64(try Input.member(gen, "count", path: "generate"), path: "generate.count")
            guard n <= UInt64(maxGeneratedCount) else {
                throw WireError(.inputBadValue, "count must be at most \(maxGeneratedCount)", field: "generate.count")
            }
            return indexRule(count: Int(n))
        }
        let items = try Input.array(try Input.member(input, "leaves", path: ""), path: "leaves")
        var out: [(key: [UInt8], leaf: SHA256Digest)] = []
        for (i, item) in items.enumerated() {
            let p = "leaves[\(i)]"
            _ = try Input.object(item, path: p)
            let key = try Input.bytes(try Input.member(item, "key", path: p), path: "\(p).key")
            let leaf = try Input.digest(try Input.member(item, "leaf", path: p), path: "\(p).leaf")
            out.append((key, leaf))
        }
        return out
    }
}

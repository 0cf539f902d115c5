import Primitives

/// The reference `device_list` format as the runner drives it (SPEC.md §10.6).
public struct DeviceListHandler: FormatHandler {
    public init() {}

    public var format: String { "device_list" }
    public var ops: [String] {
        ["derive_identity", "credential_issue", "credential_decode", "credential_verify",
         "list_sign", "list_decode", "list_verify", "is_authorized", "adopt_if_newer",
         "merge", "with_self_added", "with_account_leaf_retired", "advertise", "advertisement_decode",
         "contact_apply", "fanout_filter"]
    }

    public func generate() throws -> VectorFile { try DeviceListVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        try tree(op: op, input: input).json
    }

    /// The output as a CBOR tree (the facet builder compares trees).
    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR {
        typealias In = DeviceListInput
        switch op {
        case "derive_identity":
            return DeviceListOutput.identity(try In.identity(input, "seed"))
        case "credential_issue":
            let account = try In.identity(input, "account_seed")
            let device = try In.bundle(input, "device_bundle")
            let name = try Input.text(try Input.member(input, "name", path: ""), path: "name")
            let createdAt = try In.uint64(input, "created_at")
            return DeviceListOutput.issued(try DeviceCredential.issue(account: account, device: device, name: name, createdAt: createdAt))
        case "credential_decode":
            return DeviceListOutput.credential(try DeviceCredential.decode(try In.hex(input, "wire")))
        case "credential_verify":
            let (pinned, cred) = try In.pinnedAndWire(input, DeviceCredential.decode)
            try cred.verify(pinned: pinned)
            return DeviceListOutput.credentialVerified(cred)
        case "list_sign":
            let account = try In.identity(input, "account_seed")
            var list = try In.listFields(input, path: "", accountID: account.nodeID)
            list = list.signed(by: account)
            return DeviceListOutput.signedList(list)
        case "list_decode":
            return DeviceListOutput.decodedList(try DeviceList.decode(try In.hex(input, "wire")))
        case "list_verify":
            let (pinned, list) = try In.pinnedAndWire(input, DeviceList.decode)
            try list.verify(pinned: pinned)
            return DeviceListOutput.listVerified(list)
        case "is_authorized":
            let list = try In.list(input, "list")
            let id = try In.id(try Input.member(input, "device_id", path: ""), path: "device_id")
            return CBOR.object([("authorized", .bool(list.isAuthorized(id)))])
        case "adopt_if_newer":
            var local = try In.list(input, "local")
            let other = try In.list(input, "other")
            let adopted = local.adoptIfNewer(other)
            return DeviceListOutput.adopted(adopted, local)
        case "merge":
            let account = try In.identity(input, "account_seed")
            let local = try In.list(input, "local")
            let remote = try In.list(input, "remote")
            let updatedAt = try In.uint64(input, "updated_at")
            try In.checkSigner(account, local)
            return DeviceListOutput.change(try DeviceListMerge.merge(local: local, remote: remote, updatedAt: updatedAt)?.signed(by: account))
        case "with_self_added":
            let account = try In.identity(input, "account_seed")
            let list = try In.list(input, "list")
            let id = try In.id(try Input.member(input, "device_id", path: ""), path: "device_id")
            let updatedAt = try In.uint64(input, "updated_at")
            try In.checkSigner(account, list)
            return DeviceListOutput.change(try DeviceListMerge.withSelfAdded(list, id: id, updatedAt: updatedAt)?.signed(by: account))
        case "with_account_leaf_retired":
            let account = try In.identity(input, "account_seed")
            let list = try In.list(input, "list")
            let updatedAt = try In.uint64(input, "updated_at")
            try In.checkSigner(account, list)
            return DeviceListOutput.change(try DeviceListMerge.withAccountLeafRetired(list, updatedAt: updatedAt)?.signed(by: account))
        case "advertise":
            let me = try In.id(try Input.member(input, "self_device", path: ""), path: "self_device")
            let siblings = try In.ids(try Input.member(input, "siblings", path: ""), path: "siblings")
            let cached = try Input.nullableMember(input, "cached", path: "").map { v throws(WireError) in try Input.text(v, path: "cached") }
            let (csv, push) = DeviceAdvertisement.advertise(selfDevice: me, siblings: siblings, cached: cached)
            return CBOR.object([("csv", .text(csv)), ("push", .bool(push))])
        case "advertisement_decode":
            let csv = try Input.text(try Input.member(input, "csv", path: ""), path: "csv")
            return CBOR.object([("advertised", DeviceListOutput.ids(try DeviceAdvertisement.decode(csv)))])
        case "contact_apply":
            let primary = try In.id(try Input.member(input, "primary", path: ""), path: "primary")
            let records = try In.records(try Input.member(input, "known", path: ""), path: "known")
            let advertised = try In.ids(try Input.member(input, "advertised", path: ""), path: "advertised")
            var set = try ContactDeviceSet(primary: primary, records: records)
            try set.apply(advertised: advertised)
            return DeviceListOutput.contactSet(set)
        case "fanout_filter":
            let fanout = try In.ids(try Input.member(input, "fanout", path: ""), path: "fanout")
            let chainJSON = try Input.member(input, "chain", path: "")
            let chain: DeviceList? = chainJSON == .null ? nil : try In.listFields(chainJSON, path: "chain", accountID: nil)
            return DeviceListOutput.recipients(ContactDeviceSet.chainAuthorizedFilter(fanout, chain: chain))
        default:
            throw WireError(.unknownOp, "device_list has no op \(op)", field: "op")
        }
    }
}

/// Readers for `device_list` op inputs (SPEC.md §10.6), each naming the path it failed at.
enum DeviceListInput {
    static func hex(_ v: JSONValue, _ name: String) throws(WireError) -> [UInt8] {
        try Input.bytes(try Input.member(v, name, path: ""), path: name)
    }

    static func id(_ v: JSONValue, path: String) throws(WireError) -> DeviceID {
        DeviceID(unchecked: try Input.bytes(v, path: path, length: 32))
    }

    static func ids(_ v: JSONValue, path: String) throws(WireError) -> [DeviceID] {
        let items = try Input.array(v, path: path)
        var out: [DeviceID] = []
        for (i, item) in items.enumerated() { out.append(try id(item, path: "\(path)[\(i)]")) }
        return out
    }

    static func uint64(_ v: JSONValue, _ name: String, path: String = "") throws(WireError) -> UInt64 {
        let m = try Input.member(v, name, path: path)
        InputRecorder.note(Input.join(path, name), .uint64, m)
        guard let n = DeviceListSeams.uint64(m) else {
            throw WireError(.inputBadType, "expected an unsigned 64-bit integer", field: path.isEmpty ? name : "\(path).\(name)")
        }
        return n
    }

    static func bool(_ v: JSONValue, _ name: String, path: String) throws(WireError) -> Bool {
        try Input.bool(try Input.member(v, name, path: path), path: Input.join(path, name))
    }

    static func identity(_ v: JSONValue, _ name: String) throws(WireError) -> HavenIdentity {
        try HavenIdentity(seed: try Input.bytes(try Input.member(v, name, path: ""), path: name, length: 32))
    }

    static func bundle(_ v: JSONValue, _ name: String) throws(WireError) -> PublicBundle {
        try PublicBundle(try hex(v, name), field: name)
    }

    /// `credential_verify` / `list_verify`: both members read as hex in table order (`wire`,
    /// `pinned`), then the pinned bundle parsed, then the wire decoded: Haven's FFI order
    /// (`verify_device_credential`, `verify_device_list` parse the account bundle first).
    static func pinnedAndWire<T>(_ v: JSONValue, _ decode: ([UInt8]) throws(WireError) -> T) throws(WireError) -> (PublicBundle, T) {
        let wire = try hex(v, "wire")
        let pinnedBytes = try hex(v, "pinned")
        if DeviceListSeams.pinnedBeforeWire {
            let pinned = try PublicBundle(pinnedBytes, field: "pinned")
            return (pinned, try decode(wire))
        }
        let decoded = try decode(wire)
        return (try PublicBundle(pinnedBytes, field: "pinned"), decoded)
    }

    /// A list object's content members; `account_id` comes from the signer when one is given
    /// (`list_sign` signs for the seed's own account and takes no account id).
    static func listFields(_ v: JSONValue, path: String, accountID: DeviceID?) throws(WireError) -> DeviceList {
        func p(_ n: String) -> String { path.isEmpty ? n : "\(path).\(n)" }
        let account: DeviceID
        if let accountID { account = accountID } else { account = try id(try Input.member(v, "account_id", path: path), path: p("account_id")) }
        return DeviceList(accountID: account,
                          version: try uint64(v, "version", path: path),
                          updatedAt: try uint64(v, "updated_at", path: path),
                          devices: try ids(try Input.member(v, "devices", path: path), path: p("devices")),
                          revoked: try ids(try Input.member(v, "revoked", path: path), path: p("revoked")),
                          accountLeafRetired: try bool(v, "account_leaf_retired", path: path))
    }

    static func list(_ v: JSONValue, _ name: String) throws(WireError) -> DeviceList {
        try listFields(try Input.member(v, name, path: ""), path: name, accountID: nil)
    }

    static func records(_ v: JSONValue, path: String) throws(WireError) -> [ContactDeviceSet.Record] {
        let items = try Input.array(v, path: path)
        var out: [ContactDeviceSet.Record] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            out.append(.init(device: try id(try Input.member(item, "device", path: p), path: "\(p).device"),
                             revoked: try bool(item, "revoked", path: p)))
        }
        return out
    }

    /// The signing seed must be the list's own account: only the account key re-signs its roster.
    static func checkSigner(_ account: HavenIdentity, _ list: DeviceList) throws(WireError) {
        guard account.nodeID == list.accountID || !DeviceListSeams.signerChecked else {
            throw WireError(.deviceListSignerMismatch, "the seed derives \(account.nodeID.hex), the list is \(list.accountID.hex)", field: "account_seed")
        }
    }
}

/// Output shapes shared by the handler and the generator, so both write the same tree.
enum DeviceListOutput {
    static func ids(_ ids: [DeviceID]) -> CBOR { .array(ids.map { .bytes($0.bytes) }) }

    static func identity(_ i: HavenIdentity) -> CBOR {
        .object([("node_id", .bytes(i.nodeID.bytes)), ("ed25519_seed", .bytes(i.ed25519Seed)),
                 ("mldsa_seed", .bytes(i.mldsaSeed)), ("bundle", .bytes(i.bundle.bytes))])
    }

    static func issued(_ c: DeviceCredential) -> CBOR {
        .object([("signing_bytes", .bytes(c.signingBytes)), ("signature", .bytes(c.signature)), ("wire", .bytes(c.wire))])
    }

    static func credential(_ c: DeviceCredential) -> CBOR {
        .object([("account_id", .bytes(c.accountID.bytes)), ("created_at", .unsigned(c.createdAt)), ("name", .text(c.name)),
                 ("device_bundle", .bytes(c.device.bytes)), ("device_id", .bytes(c.deviceID.bytes)), ("signature", .bytes(c.signature))])
    }

    static func credentialVerified(_ c: DeviceCredential) -> CBOR {
        .object([("verified", .bool(true)), ("device_id", .bytes(c.deviceID.bytes))])
    }

    /// The content members of a list (what the structured inputs carry).
    static func list(_ l: DeviceList) -> CBOR {
        .object([("account_id", .bytes(l.accountID.bytes)), ("version", .unsigned(l.version)), ("updated_at", .unsigned(l.updatedAt)),
                 ("devices", ids(l.devices)), ("revoked", ids(l.revoked)), ("account_leaf_retired", .bool(l.accountLeafRetired))])
    }

    /// `list_sign` input: the content members without the account id (the seed decides it).
    static func signInput(seed: [UInt8], _ l: DeviceList) -> CBOR {
        .object([("account_seed", .bytes(seed)), ("version", .unsigned(l.version)), ("updated_at", .unsigned(l.updatedAt)),
                 ("devices", ids(l.devices)), ("revoked", ids(l.revoked)), ("account_leaf_retired", .bool(l.accountLeafRetired))])
    }

    static func signedList(_ l: DeviceList) -> CBOR {
        .object([("signing_bytes", .bytes(l.signingBytes)), ("signature", .bytes(l.signature)), ("wire", .bytes(l.wire))])
    }

    static func decodedList(_ l: DeviceList) -> CBOR {
        guard case .map(var entries) = list(l) else { return list(l) }
        entries.append(CBORMapEntry(key: .text("signature"), value: .bytes(l.signature)))
        return .map(entries)
    }

    static func listVerified(_ l: DeviceList) -> CBOR {
        .object([("verified", .bool(true)), ("version", .unsigned(l.version)),
                 ("account_leaf_retired", .bool(l.accountLeafRetired)), ("authorized", ids(l.authorized))])
    }

    static func adopted(_ adopted: Bool, _ l: DeviceList) -> CBOR {
        .object([("adopted", .bool(adopted)), ("list", list(l))])
    }

    /// `{changed: false}` or `{changed: true, list, signature, wire}` for a re-signed list.
    static func change(_ l: DeviceList?) -> CBOR {
        guard let l else { return .object([("changed", .bool(false))]) }
        return .object([("changed", .bool(true)), ("list", list(l)), ("signature", .bytes(l.signature)), ("wire", .bytes(l.wire))])
    }

    static func contactSet(_ s: ContactDeviceSet) -> CBOR {
        .object([("known", .array(s.records.map { .object([("device", .bytes($0.device.bytes)), ("revoked", .bool($0.revoked))]) })),
                 ("fanout", ids(s.fanout))])
    }

    static func recipients(_ r: [DeviceID]) -> CBOR { .object([("recipients", ids(r))]) }
}

import Primitives

/// The reference `account_state` format as the runner drives it (SPEC.md §11.8).
public struct AccountStateHandler: FormatHandler {
    public init() {}

    public var format: String { "account_state" }
    public var ops: [String] {
        ["derive_key", "subkey", "encode", "decode", "set", "remove", "bump_cursor", "merge",
         "seal", "peek_epoch", "open", "slot_keys", "receive_own_commit"]
    }

    public func generate() throws -> VectorFile { try AccountStateVectors.file() }

    public func run(op: String, input: JSONValue) throws(WireError) -> JSONValue {
        try tree(op: op, input: input).json
    }

    /// The op's output as a vector-data tree (bytes as bytes), which `run` renders as JSON.
    func tree(op: String, input: JSONValue) throws(WireError) -> CBOR {
        typealias In = AccountStateInput
        typealias Out = AccountStateOutput
        switch op {
        case "derive_key":
            let seed = try In.bytes(input, "seed", length: 32)
            return CBOR.object([("self_sync_key", .bytes(SelfSyncBlob.selfSyncKey(seed: seed)))])
        case "subkey":
            let key = try In.bytes(input, "key", length: 32)
            let salt = try In.bytes(input, "salt", length: SelfSyncBlob.saltByteCount)
            return CBOR.object([("subkey", .bytes(SelfSyncBlob.subkey(key: key, salt: salt)))])
        case "encode":
            let state = try In.state(input, "state")
            return CBOR.object([("plaintext", .bytes(state.encoded))])
        case "decode":
            let plain = try In.bytes(input, "plaintext")
            return CBOR.object([("state", Out.state(try AccountState.decode(plain)))])
        case "set":
            var state = try In.state(input, "state")
            let key = try In.key(input, "key")
            let value = try In.bytes(input, "value")
            let stamp = try In.stamp(input)
            let applied = state.set(key, value, stamp: stamp)
            return Out.applied(applied, state)
        case "remove":
            var state = try In.state(input, "state")
            let key = try In.key(input, "key")
            let stamp = try In.stamp(input)
            let applied = state.remove(key, stamp: stamp)
            return Out.applied(applied, state)
        case "bump_cursor":
            var state = try In.state(input, "state")
            let name = try In.key(input, "name")
            let ts = try In.uint64(input, "ts")
            let applied = state.bumpCursor(name, to: ts)
            return Out.applied(applied, state)
        case "merge":
            let local = try In.state(input, "local")
            let remote = try In.state(input, "remote")
            return CBOR.object([("state", Out.state(local.merged(remote)))])
        case "seal":
            let state = try In.state(input, "state")
            let key = try In.bytes(input, "key", length: 32)
            let salt = try In.bytes(input, "salt", length: SelfSyncBlob.saltByteCount)
            let nonce = try In.bytes(input, "nonce", length: SelfSyncBlob.nonceByteCount)
            let epochJSON = try Input.nullableMember(input, "epoch", path: "")
            let epoch: UInt64? = try epochJSON.map { j throws(WireError) in try Input.uint64(j, path: "epoch") }
            return CBOR.object([("blob", .bytes(try SelfSyncBlob.seal(state, key: key, salt: salt, nonce: nonce, epoch: epoch)))])
        case "peek_epoch":
            let blob = try In.bytes(input, "blob")
            return CBOR.object([("epoch", SelfSyncBlob.peekEpoch(blob).map { CBOR.unsigned($0) } ?? .null)])
        case "open":
            let blob = try In.bytes(input, "blob")
            let seedJSON = try Input.nullableMember(input, "seed_key", path: "")
            let seedKey = try seedJSON.map { j throws(WireError) in try Input.bytes(j, path: "seed_key", length: 32) }
            let accepted = try In.accepted(try Input.member(input, "accepted", path: ""))
            return Out.opened(try SelfSyncBlob.open(blob, seedKey: seedKey, accepted: accepted))
        case "slot_keys":
            let account = try In.id(input, "account_id")
            let device = try In.id(input, "device_id")
            return Out.slots(SlotKeys(accountID: account, deviceID: device))
        case "receive_own_commit":
            var ring = try In.ring(input)
            let commit = try In.commit(try Input.member(input, "commit", path: ""))
            let new = ring.receiveOwnCommit(commit)
            return Out.ring(new: new, ring)
        default:
            throw WireError(.unknownOp, "account_state has no op \(op)", field: "op")
        }
    }
}

/// Readers for `account_state` op inputs (SPEC.md §11.8), all through `Input` (§2.2).
enum AccountStateInput {
    static func bytes(_ v: JSONValue, _ name: String, path: String = "", length: Int? = nil) throws(WireError) -> [UInt8] {
        try Input.bytes(try Input.member(v, name, path: path), path: Input.join(path, name), length: length)
    }

    static func uint64(_ v: JSONValue, _ name: String, path: String = "") throws(WireError) -> UInt64 {
        try Input.uint64(try Input.member(v, name, path: path), path: Input.join(path, name))
    }

    static func key(_ v: JSONValue, _ name: String, path: String = "") throws(WireError) -> StateKey {
        StateKey(try Input.text(try Input.member(v, name, path: path), path: Input.join(path, name)))
    }

    static func id(_ v: JSONValue, _ name: String) throws(WireError) -> DeviceID {
        DeviceID(unchecked: try bytes(v, name, length: 32))
    }

    /// `ts` then `device` (32 bytes).
    static func stamp(_ v: JSONValue, path: String = "") throws(WireError) -> Stamp {
        let ts = try uint64(v, "ts", path: path)
        let device = try bytes(v, "device", path: path, length: Stamp.deviceByteCount)
        return Stamp(ts: ts, device: device)
    }

    /// A STATE: `records` then `cursors`, each element read completely before the next; a repeated
    /// key (by bytes) is `duplicate_key` at the repeat, a cursor at 0 is `input_bad_value`.
    static func state(_ v: JSONValue, _ name: String) throws(WireError) -> AccountState {
        let s = try Input.member(v, name, path: "")
        var records: [AccountState.Record] = []
        for (i, item) in try Input.array(try Input.member(s, "records", path: name), path: "\(name).records").enumerated() {
            let p = "\(name).records[\(i)]"
            let key = try key(item, "key", path: p)
            let stamp = try stamp(item, path: p)
            let valueJSON = try Input.nullableMember(item, "value", path: p)
            let value = try valueJSON.map { j throws(WireError) in try Input.bytes(j, path: "\(p).value") }
            guard !records.contains(where: { StateKey.same($0.key, key) }) else {
                throw WireError(.duplicateKey, "two records under the key \(key.text.debugDescription)", field: "\(p).key")
            }
            records.append(.init(key: key, register: Register(stamp: stamp, value: value)))
        }
        var cursors: [AccountState.Cursor] = []
        for (i, item) in try Input.array(try Input.member(s, "cursors", path: name), path: "\(name).cursors").enumerated() {
            let p = "\(name).cursors[\(i)]"
            let cname = try key(item, "name", path: p)
            let ts = try uint64(item, "ts", path: p)
            guard ts != 0 else { throw WireError(.inputBadValue, "a cursor at 0 is no cursor", field: "\(p).ts") }
            guard !cursors.contains(where: { StateKey.same($0.name, cname) }) else {
                throw WireError(.duplicateKey, "two cursors named \(cname.text.debugDescription)", field: "\(p).name")
            }
            cursors.append(.init(name: cname, ts: ts))
        }
        return try AccountState(records: records, cursors: cursors)
    }

    static func accepted(_ v: JSONValue) throws(WireError) -> [(epoch: UInt64, key: [UInt8])] {
        var out: [(epoch: UInt64, key: [UInt8])] = []
        for (i, item) in try Input.array(v, path: "accepted").enumerated() {
            let p = "accepted[\(i)]"
            let epoch = try uint64(item, "epoch", path: p)
            let key = try bytes(item, "key", path: p, length: 32)
            guard !out.contains(where: { $0.epoch == epoch }) else {
                throw WireError(.duplicateKey, "two keys for epoch \(epoch)", field: "\(p).epoch")
            }
            out.append((epoch, key))
        }
        return out
    }

    /// `keys`, `circle_secret`, `my_epoch` of `receive_own_commit`.
    static func ring(_ v: JSONValue) throws(WireError) -> EpochKeyRing {
        var slots: [EpochKeyRing.Slot] = []
        for (i, item) in try Input.array(try Input.member(v, "keys", path: ""), path: "keys").enumerated() {
            let p = "keys[\(i)]"
            let epoch = try uint64(item, "epoch", path: p)
            let primary = try bytes(item, "primary", path: p, length: 32)
            var alts: [[UInt8]] = []
            for (j, a) in try Input.array(try Input.member(item, "alts", path: p), path: "\(p).alts").enumerated() {
                alts.append(try Input.bytes(a, path: "\(p).alts[\(j)]", length: 32))
            }
            guard !slots.contains(where: { $0.epoch == epoch }) else {
                throw WireError(.duplicateKey, "two slots for epoch \(epoch)", field: "\(p).epoch")
            }
            slots.append(.init(epoch: epoch, primary: primary, alts: alts))
        }
        let secret = try bytes(v, "circle_secret", length: 32)
        let myEpoch = try uint64(v, "my_epoch")
        return try EpochKeyRing(slots: slots, circleSecret: secret, myEpoch: myEpoch)
    }

    static func commit(_ v: JSONValue) throws(WireError) -> EpochKeyRing.Commit {
        let epoch = try uint64(v, "epoch", path: "commit")
        let key = try bytes(v, "epoch_key", path: "commit", length: 32)
        let secret = try bytes(v, "circle_secret", path: "commit", length: 32)
        return .init(epoch: epoch, epochKey: key, circleSecret: secret)
    }
}

/// Output shapes shared by the handler and the generator, so both write the same tree.
enum AccountStateOutput {
    static func state(_ s: AccountState) -> CBOR {
        .object([
            ("records", .array(s.records.map { r in
                .object([("key", .text(r.key.text)), ("ts", .unsigned(r.register.stamp.ts)), ("device", .bytes(r.register.stamp.device)),
                         ("value", r.register.value.map { CBOR.bytes($0) } ?? .null)])
            })),
            ("cursors", .array(s.cursors.map { c in .object([("name", .text(c.name.text)), ("ts", .unsigned(c.ts))]) })),
        ])
    }

    static func applied(_ applied: Bool, _ s: AccountState) -> CBOR {
        .object([("applied", .bool(applied)), ("state", state(s))])
    }

    static func opened(_ o: SelfSyncBlob.Opened) -> CBOR {
        .object([("version", .unsigned(o.version)), ("epoch", o.epoch.map { CBOR.unsigned($0) } ?? .null), ("state", state(o.state))])
    }

    static func slots(_ s: SlotKeys) -> CBOR {
        .object([("slot", .text(s.slot)), ("prefix", .text(s.prefix)), ("grant_slot", .text(s.grantSlot)), ("grant_prefix", .text(s.grantPrefix))])
    }

    static func slot(_ s: EpochKeyRing.Slot) -> CBOR {
        .object([("epoch", .unsigned(s.epoch)), ("primary", .bytes(s.primary)), ("alts", .array(s.alts.map { .bytes($0) }))])
    }

    static func ring(new: Bool, _ r: EpochKeyRing) -> CBOR {
        .object([("new", .bool(new)), ("keys", .array(r.slots.map(slot))), ("circle_secret", .bytes(r.circleSecret)), ("my_epoch", .unsigned(r.myEpoch))])
    }
}

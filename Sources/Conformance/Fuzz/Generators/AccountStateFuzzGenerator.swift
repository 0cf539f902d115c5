import Primitives
import Vectors

/// `account_state` (SPEC §11): states whose keys are normalisation twins and UTF-16 order traps,
/// stamps that tie (same time, same or other device), empty values beside tombstones, cursors
/// either side of each other; sealed blobs v0 and v1 (a v0 salt that starts with the v1 magic),
/// opened with the right epoch's key, another epoch's, or the seed key; epoch-key rings around the
/// retention limit with keys whose big- and little-endian order disagree.
struct AccountStateFuzzGenerator: FuzzGenerator {
    var format: String { "account_state" }
    var ops: [String] {
        ["derive_key", "subkey", "encode", "decode", "set", "remove", "bump_cursor", "merge",
         "seal", "peek_epoch", "open", "slot_keys", "receive_own_commit"]
    }

    static let keys = ["profile", "circle:home", "circle:work", "contact:abc", "é", "e\u{301}", "\u{FF5E}", "\u{1F600}", "", "a", "A",
                       "contact:\u{0}", "Z", "\u{D55C}", "\u{1112}\u{1161}\u{11AB}"]
    static let devices: [[UInt8]] = [[UInt8](repeating: 1, count: 32), [UInt8](repeating: 2, count: 32), [0xff] + [UInt8](repeating: 0, count: 31),
                                     [0] + [UInt8](repeating: 0xff, count: 31)]
    static let keyPool: [[UInt8]] = (0..<4).map { SHA256.hash(Array("pixie.fuzz.account_state.key.\($0)".utf8)).bytes }

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        switch op {
        case "derive_key":
            return .obj([("seed", AdversarialValues.hex(rng.oneIn(5) ? [UInt8](repeating: 0, count: 32) : rng.bytes(32), &rng))])
        case "subkey":
            return .obj([("key", AdversarialValues.hex(rng.bytes(32), &rng)), ("salt", AdversarialValues.hex(rng.bytes(16), &rng))])
        case "encode":
            return .obj([("state", Self.state(&rng))])
        case "decode":
            return .obj([("plaintext", FuzzReference.output("account_state", "encode", .obj([("state", Self.state(&rng))]))?["plaintext"] ?? .str(""))])
        case "set", "remove":
            let state = Self.state(&rng)
            let (key, ts, device) = Self.stampNear(state, &rng)
            var m: [(String, JSONValue)] = [("state", state), ("key", .str(key))]
            if op == "set" { m.append(("value", AdversarialValues.hex(rng.oneIn(4) ? [] : rng.bytes(rng.int(1...8)), &rng))) }
            m += [("ts", .u(ts)), ("device", AdversarialValues.hex(device, &rng))]
            return .object(m)
        case "bump_cursor":
            let state = Self.state(&rng)
            let cursors = state["cursors"]?.arrayValue ?? []
            let near = cursors.randomElement(&rng)
            let name = near?["name"]?.stringValue ?? rng.pick(Self.keys)
            let base = near?["ts"]?.uint64Value ?? 100
            return .obj([("state", state), ("name", .str(rng.oneIn(4) ? rng.pick(Self.keys) : name)),
                         ("ts", .u(base &+ UInt64(bitPattern: Int64(rng.pick([-1, 0, 1, 100])))))])
        case "merge":
            let local = Self.state(&rng)
            return .obj([("local", local), ("remote", rng.bool() ? Self.variant(of: local, &rng) : Self.state(&rng))])
        case "seal":
            return Self.sealInput(&rng).0
        case "peek_epoch":
            if rng.oneIn(4) { return .obj([("blob", .hex(Array("HSS1".utf8).prefix(rng.below(5)) + rng.bytes(rng.pick([0, 7, 8, 9, 60]))))]) }
            return .obj([("blob", FuzzReference.output("account_state", "seal", Self.sealInput(&rng).0)?["blob"] ?? .str(""))])
        case "open":
            let (input, epoch, key, seedKey) = Self.sealInput(&rng)
            let blob = FuzzReference.output("account_state", "seal", input)?["blob"] ?? .str("")
            var accepted: [JSONValue] = []
            for e in [epoch ?? 1, (epoch ?? 1) &+ 1, (epoch ?? 1) &- 1] where rng.bool() {
                accepted.append(.obj([("epoch", .u(e)), ("key", .hex(rng.oneIn(3) ? rng.pick(Self.keyPool) : key))]))
            }
            let seed: JSONValue = rng.oneIn(3) ? .null : .hex(rng.oneIn(4) ? rng.pick(Self.keyPool) : seedKey)
            return .obj([("blob", blob), ("seed_key", seed), ("accepted", .array(accepted))])
        case "slot_keys":
            return .obj([("account_id", AdversarialValues.hex(rng.bytes(32), &rng)), ("device_id", AdversarialValues.hex(rng.bytes(32), &rng))])
        case "receive_own_commit":
            return Self.commitInput(&rng)
        default:
            return .obj([])
        }
    }

    /// A state: records under keys from the trap list (each key once by bytes), tombstones and
    /// empty values, cursors above 0.
    static func state(_ rng: inout FuzzRNG) -> JSONValue {
        var records: [JSONValue] = []
        var used: [String] = []
        for _ in 0..<rng.pick([0, 1, 2, 3, 4, 6]) {
            let k = rng.pick(keys)
            if used.contains(where: { $0.utf8.elementsEqual(k.utf8) }) { continue }
            used.append(k)
            let value: JSONValue = rng.oneIn(4) ? .null : .hex(rng.oneIn(5) ? [] : rng.bytes(rng.int(1...6)))
            records.append(.obj([("key", .str(k)), ("ts", .u(UInt64(rng.pick([1, 10, 10, 20, 30, 1_767_225_600_000])))),
                                 ("device", .hex(rng.pick(devices))), ("value", value)]))
        }
        var cursors: [JSONValue] = []
        var names: [String] = []
        for _ in 0..<rng.pick([0, 0, 1, 2, 3]) {
            let n = rng.pick(keys)
            if names.contains(where: { $0.utf8.elementsEqual(n.utf8) }) { continue }
            names.append(n)
            cursors.append(.obj([("name", .str(n)), ("ts", .u(UInt64(rng.pick([1, 100, 200, 555]))))]))
        }
        return .obj([("records", .array(records)), ("cursors", .array(cursors))])
    }

    /// The same keys with other stamps and values (ties among them), and cursors moved both ways.
    static func variant(of s: JSONValue, _ rng: inout FuzzRNG) -> JSONValue {
        var records: [JSONValue] = []
        for r in s["records"]?.arrayValue ?? [] {
            guard !rng.oneIn(4) else { continue }
            let ts = (r["ts"]?.uint64Value ?? 10) &+ UInt64(bitPattern: Int64(rng.pick([-1, 0, 0, 1])))
            let value: JSONValue = rng.oneIn(3) ? .null : .hex(rng.bytes(rng.int(0...4)))
            records.append(r.setting("ts", .u(ts)).setting("device", .hex(rng.pick(devices))).setting("value", value))
        }
        var cursors: [JSONValue] = []
        for c in s["cursors"]?.arrayValue ?? [] {
            cursors.append(c.setting("ts", .u(max(1, (c["ts"]?.uint64Value ?? 100) &+ UInt64(bitPattern: Int64(rng.pick([-50, 0, 50])))))))
        }
        return .obj([("records", .array(records)), ("cursors", .array(cursors))])
    }

    /// A key, time and device for set/remove: usually a held key at its own time (a tie), one
    /// step either side, with the same or another device.
    static func stampNear(_ state: JSONValue, _ rng: inout FuzzRNG) -> (String, UInt64, [UInt8]) {
        guard let r = (state["records"]?.arrayValue ?? []).randomElement(&rng), rng.percent(80) else {
            return (rng.pick(keys), UInt64(rng.int(0...40)), rng.pick(devices))
        }
        let key = r["key"]?.stringValue ?? ""
        let ts = (r["ts"]?.uint64Value ?? 0) &+ UInt64(bitPattern: Int64(rng.pick([-1, 0, 0, 0, 1])))
        let device = rng.bool() ? (r["device"]?.stringValue.flatMap(Hex.decode) ?? devices[0]) : rng.pick(devices)
        return (rng.oneIn(5) ? FuzzUnicode.nfd(key) : key, ts, device)
    }

    /// seal's input, the epoch (nil for v0), the key used and the seed key; a v0 salt sometimes
    /// starts with the v1 magic.
    static func sealInput(_ rng: inout FuzzRNG) -> (JSONValue, UInt64?, [UInt8], [UInt8]) {
        let seedKey = keyPool[0]
        let epoch: UInt64? = rng.oneIn(3) ? nil : rng.pick([0, 1, 2, 3, 1 << 32, UInt64.max])
        let key = epoch == nil ? seedKey : rng.pick(keyPool)
        var salt = rng.bytes(16)
        if epoch == nil && rng.bool() { salt.replaceSubrange(0..<4, with: Array("HSS1".utf8)) }
        let input: JSONValue = .obj([("state", state(&rng)), ("key", .hex(key)), ("salt", AdversarialValues.hex(salt, &rng)),
                                     ("nonce", AdversarialValues.hex(rng.bytes(12), &rng)), ("epoch", epoch.map { .u($0) } ?? .null)])
        return (input, epoch, key, seedKey)
    }

    /// An epoch-key ring of up to six slots and a commit for an epoch in, before or after it.
    static func commitInput(_ rng: inout FuzzRNG) -> JSONValue {
        let start = UInt64(rng.pick([0, 1, 5, 100]))
        var slots: [JSONValue] = []
        let count = rng.pick([0, 1, 2, 3, 4, 4, 5, 6])
        for i in 0..<count {
            var alts: [JSONValue] = []
            for _ in 0..<rng.pick([0, 0, 1, 4]) { alts.append(.hex(rng.bytes(32))) }
            slots.append(.obj([("epoch", .u(start + UInt64(i))), ("primary", .hex(rng.bytes(32))), ("alts", .array(alts))]))
        }
        let slotsOrdered = rng.oneIn(4) ? rng.shuffled(slots) : slots
        let epoch = rng.percent(80) ? start &+ UInt64(bitPattern: Int64(rng.int(-2...(count + 1)))) : rng.pick(AdversarialValues.unsignedEdges)
        var key = rng.bytes(32)
        if let held = slots.first(where: { $0["epoch"]?.uint64Value == epoch })?["primary"]?.stringValue.flatMap(Hex.decode), rng.bool() {
            // A key differing from the held one only at one end: big- and little-endian order disagree.
            key = held
            if rng.bool() { key[0] ^= 0x80 } else { key[31] ^= 0x80 }
            if rng.oneIn(4) { key = held }
        }
        let secret = rng.oneIn(3) ? [UInt8](repeating: 0, count: 32) : rng.bytes(32)
        return .obj([("keys", .array(slotsOrdered)), ("circle_secret", .hex(secret)),
                     ("my_epoch", .u(start + UInt64(max(0, count - 1)))),
                     ("commit", .obj([("epoch", .u(epoch)), ("epoch_key", .hex(key)), ("circle_secret", .hex(rng.oneIn(3) ? [UInt8](repeating: 0, count: 32) : rng.bytes(32)))]))])
    }
}

import Foundation
import Primitives
import Vectors

/// `device_list` (SPEC §10): credentials and lists signed by account identities the fuzzer holds
/// (so it also signs them with the Ed25519 and ML-DSA-65 signatures of §9.1 and §9.2, under keys
/// that are aliases or of small order where the class needs it), their wire forms with length
/// fields that lie, random device-list histories (two branches from one list: devices added,
/// revoked, re-authorized, the account leaf retired, versions tied or apart) for merge and
/// adoption, and contact-side device sets.
struct DeviceListFuzzGenerator: FuzzGenerator {
    var format: String { "device_list" }
    var ops: [String] {
        ["derive_identity", "credential_issue", "credential_decode", "credential_verify",
         "list_sign", "list_decode", "list_verify", "is_authorized", "adopt_if_newer",
         "merge", "with_self_added", "with_account_leaf_retired", "advertise", "advertisement_decode", "contact_apply", "fanout_filter"]
    }

    static let t0: UInt64 = 1_767_225_600

    func validInput(op: String, rng: inout FuzzRNG) -> JSONValue {
        let f = Self.fixtures
        switch op {
        case "advertise":
            // Ids from a small pool (so self is sometimes a sibling and ids repeat), in random
            // order and hex case; the cached CSV the canonical one, another order or case, or none.
            let pool = (0..<5).map { _ in rng.bytes(32) }
            let me = rng.pick(pool)
            let siblings = (0..<rng.length(max: 5)).map { _ in rng.pick(pool) }
            var all = Set(siblings.map { Hex.encode($0) })
            all.insert(Hex.encode(me))
            let canonical = all.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            let cached: JSONValue
            switch rng.below(6) {
            case 0: cached = .null
            case 1, 2: cached = .str(canonical.joined(separator: ","))
            case 3: cached = .str(rng.shuffled(canonical).joined(separator: ","))
            case 4: cached = .str(canonical.joined(separator: ",").uppercased())
            default: cached = .str(rng.pick(["", ",", canonical.joined(separator: ", ")]))
            }
            return .obj([("self_device", AdversarialValues.hex(me, &rng)), ("siblings", .array(siblings.map { AdversarialValues.hex($0, &rng) })),
                         ("cached", cached)])
        case "advertisement_decode":
            var entries = (0..<rng.int(1...5)).map { _ in Hex.encode(rng.bytes(32)) }
            if entries.count > 1, rng.oneIn(4) { entries.append(entries[0]) }
            entries = rng.shuffled(entries)
            if rng.oneIn(3) {
                let i = rng.below(entries.count)
                switch rng.below(7) {
                case 0: entries[i] = entries[i].uppercased()
                case 1: entries[i] = " " + entries[i]
                case 2: entries[i] = String(entries[i].dropLast())
                case 3: entries[i] = ""
                case 4: entries[i] += "0"
                case 5: entries[i] = String(entries[i].dropLast()) + rng.pick(["g", "\u{0661}", "\u{FF10}"])
                default: entries.insert("", at: rng.below(entries.count + 1))
                }
            }
            return .obj([("csv", .str(rng.oneIn(20) ? "" : entries.joined(separator: rng.oneIn(15) ? ";" : ",")))])
        case "derive_identity":
            let seed = rng.oneIn(5) ? [UInt8](repeating: rng.pick([0, 0xff]), count: 32) : rng.bytes(rng.percent(90) ? 32 : rng.pick([0, 31, 33]))
            return .obj([("seed", AdversarialValues.hex(seed, &rng))])
        case "credential_issue":
            let a = f.identity(rng.below(Fixtures.identities)), d = f.identity(rng.below(Fixtures.identities))
            return .obj([("account_seed", AdversarialValues.hex(a.seed, &rng)), ("device_bundle", AdversarialValues.hex(d.bundle.bytes, &rng)),
                         ("name", .str(Self.name(&rng))), ("created_at", .u(Self.time(&rng)))])
        case "credential_decode":
            return .obj([("wire", AdversarialValues.hex(f.credential(rng.below(Fixtures.slots)).wire, &rng))])
        case "credential_verify":
            let s = f.credential(rng.below(Fixtures.slots))
            return .obj([("wire", AdversarialValues.hex(s.wire, &rng)), ("pinned", AdversarialValues.hex(Self.pinned(s.pinned, &rng), &rng))])
        case "list_sign":
            let a = f.identity(rng.below(Fixtures.identities))
            let l = Self.list(account: a.nodeID, &rng)
            return .obj([("account_seed", AdversarialValues.hex(a.seed, &rng))] + Array(Self.json(l, &rng).objectValue!.dropFirst()))
        case "list_decode":
            return .obj([("wire", AdversarialValues.hex(f.list(rng.below(Fixtures.slots)).wire, &rng))])
        case "list_verify":
            let s = f.list(rng.below(Fixtures.slots))
            return .obj([("wire", AdversarialValues.hex(s.wire, &rng)), ("pinned", AdversarialValues.hex(Self.pinned(s.pinned, &rng), &rng))])
        case "is_authorized":
            let l = Self.list(account: f.identity(rng.below(Fixtures.identities)).nodeID, &rng)
            let pool = [l.accountID] + l.devices + l.revoked + [DeviceID(rng.bytes(32))!]
            return .obj([("list", Self.json(l, &rng)), ("device_id", .hex(rng.pick(pool).bytes))])
        case "adopt_if_newer":
            let (a, b) = Self.branches(account: f.identity(rng.below(Fixtures.identities)).nodeID, &rng)
            return .obj([("local", Self.json(a, &rng)), ("other", Self.json(b, &rng))])
        case "merge":
            let id = f.identity(rng.below(Fixtures.identities))
            let (a, b) = Self.branches(account: id.nodeID, &rng)
            return .obj([("account_seed", AdversarialValues.hex(id.seed, &rng)), ("local", Self.json(a, &rng)), ("remote", Self.json(b, &rng)),
                         ("updated_at", .u(Self.time(&rng)))])
        case "with_self_added":
            let id = f.identity(rng.below(Fixtures.identities))
            let l = Self.list(account: id.nodeID, &rng)
            let pool = l.devices + l.revoked + l.revoked + [DeviceID(rng.bytes(32))!, id.nodeID]
            return .obj([("account_seed", AdversarialValues.hex(id.seed, &rng)), ("list", Self.json(l, &rng)),
                         ("device_id", .hex(rng.pick(pool).bytes)), ("updated_at", .u(Self.time(&rng)))])
        case "with_account_leaf_retired":
            let id = f.identity(rng.below(Fixtures.identities))
            return .obj([("account_seed", AdversarialValues.hex(id.seed, &rng)), ("list", Self.json(Self.list(account: id.nodeID, &rng), &rng)),
                         ("updated_at", .u(Self.time(&rng)))])
        case "contact_apply":
            let pool = Self.ids(6, &rng)
            let primary = pool[0]
            var known: [JSONValue] = []
            for d in pool.shuffledPrefix(rng.below(5), &rng) { known.append(.obj([("device", .hex(d.bytes)), ("revoked", .bool(rng.oneIn(3)))])) }
            let advertised = pool.shuffledPrefix(rng.below(6), &rng).map { JSONValue.hex($0.bytes) }
            return .obj([("primary", .hex(primary.bytes)), ("known", .array(known)), ("advertised", .array(advertised))])
        case "fanout_filter":
            let l = Self.list(account: f.identity(rng.below(Fixtures.identities)).nodeID, &rng)
            let pool = [l.accountID] + l.devices + l.revoked + Self.ids(2, &rng)
            let fanout = pool.shuffledPrefix(rng.below(pool.count + 1), &rng).map { JSONValue.hex($0.bytes) }
            var chain = Self.json(l, &rng)
            if rng.oneIn(5) { chain = .null }
            return .obj([("fanout", .array(fanout)), ("chain", chain)])
        default:
            return .obj([])
        }
    }

    static func name(_ rng: inout FuzzRNG) -> String {
        rng.percent(50) ? rng.pick(["Blaine's iPhone", "iPad", "Mac mini", ""]) : AdversarialValues.text(&rng)
    }

    static func time(_ rng: inout FuzzRNG) -> UInt64 {
        rng.percent(85) ? t0 + UInt64(rng.below(1_000_000)) : rng.pick(AdversarialValues.unsignedEdges)
    }

    static func ids(_ n: Int, _ rng: inout FuzzRNG) -> [DeviceID] { (0..<n).map { _ in DeviceID(rng.bytes(32))! } }

    /// A pinned bundle: the signer's, another identity's, or bytes that are not a bundle.
    static func pinned(_ right: [UInt8], _ rng: inout FuzzRNG) -> [UInt8] {
        switch rng.below(12) {
        case 0: return fixtures.identity(rng.below(Fixtures.identities)).bundle.bytes
        case 1: return Array(right.prefix(rng.pick([0, 32, 3199])))
        default: return right
        }
    }

    /// A list of an account: devices drawn from a small pool (the account's own id among them),
    /// some revoked, sometimes listed twice, the leaf sometimes retired.
    static func list(account: DeviceID, _ rng: inout FuzzRNG) -> DeviceList {
        let pool = [account] + ids(4, &rng)
        var devices = pool.shuffledPrefix(rng.int(0...pool.count), &rng)
        if !devices.isEmpty && rng.oneIn(8) { devices.append(devices[0]) }
        var revoked = devices.shuffledPrefix(rng.below(3), &rng)
        if rng.oneIn(6) { revoked.append(DeviceID(rng.bytes(32))!) }
        let version = rng.percent(85) ? UInt64(rng.int(0...20)) : rng.pick([UInt64.max, UInt64.max - 1, 1 << 53])
        return DeviceList(accountID: account, version: version, updatedAt: time(&rng), devices: devices, revoked: revoked, accountLeafRetired: rng.oneIn(5))
    }

    /// Two lists grown from one: each branch adds, revokes, re-authorizes or retires, one version
    /// step per change; sometimes the versions tie, sometimes the other list is another account's.
    static func branches(account: DeviceID, _ rng: inout FuzzRNG) -> (DeviceList, DeviceList) {
        let base = list(account: account, &rng)
        let extra = ids(3, &rng)
        func grow(_ l: DeviceList, _ rng: inout FuzzRNG) -> DeviceList {
            var l = l
            for _ in 0..<rng.int(0...3) {
                switch rng.below(4) {
                case 0: let d = rng.pick(extra); if !l.devices.contains(d) { l.devices.append(d) }
                case 1: if let d = l.devices.randomElement(&rng), !l.revoked.contains(d) { l.revoked.append(d) }
                case 2:
                    if let d = l.revoked.randomElement(&rng) {
                        l.revoked.removeAll { $0 == d }
                        if !l.devices.contains(d) { l.devices.append(d) }
                    }
                default: l.accountLeafRetired = true
                }
                l.version &+= 1
            }
            return l
        }
        var a = grow(base, &rng), b = grow(base, &rng)
        switch rng.below(6) {
        case 0: b.version = a.version
        case 1: b = a
        case 2: b.accountID = DeviceID(rng.bytes(32))!
        default: break
        }
        return (a, b)
    }

    /// A list as structured input: account id, version, time, ids, the retired flag.
    static func json(_ l: DeviceList, _ rng: inout FuzzRNG) -> JSONValue {
        .obj([("account_id", .hex(l.accountID.bytes)), ("version", AdversarialValues.json(l.version, &rng)), ("updated_at", AdversarialValues.json(l.updatedAt, &rng)),
              ("devices", .array(l.devices.map { AdversarialValues.hex($0.bytes, &rng) })), ("revoked", .array(l.revoked.map { AdversarialValues.hex($0.bytes, &rng) })),
              ("account_leaf_retired", .bool(l.accountLeafRetired))])
    }

    /// Wire-form faults no generic mutator aims at: the name and bundle lengths, the id counts,
    /// the retired suffix.
    func invalidInput(op: String, valid: JSONValue, rng: inout FuzzRNG) -> JSONValue? {
        guard ["credential_decode", "credential_verify", "list_decode", "list_verify"].contains(op), rng.bool(),
              var wire = valid.hexBytes("wire"), wire.count > 60 else { return nil }
        // Counts and lengths are little-endian u32 at fixed places: after the 32-byte id and u64s.
        let at = op.hasPrefix("credential") ? 40 : 48
        switch rng.below(4) {
        case 0: wire[at] = wire[at] &+ UInt8(rng.pick([1, 255]))
        case 1: wire[at + 3] = 0x80
        case 2: wire += Array("HVNLEAF1".utf8)
        default: wire = Array(wire.prefix(rng.below(wire.count)))
        }
        return valid.setting("wire", .hex(wire))
    }

    // MARK: - identities, credentials and lists the fuzzer signs

    struct Signed: Sendable {
        var wire: [UInt8]
        var pinned: [UInt8]
    }

    static let fixtures = Fixtures()

    final class Fixtures: @unchecked Sendable {
        static let identities = 4
        /// 40 genuine slots, then one per Ed25519 and ML-DSA-65 edge class.
        static let slots = 40 + AdversarialSigner.Ed25519Class.allCases.count - 1 + AdversarialSigner.MLDSAClass.allCases.count - 1
        private let lock = NSLock()
        private var ids: [Int: HavenIdentity] = [:]
        private var creds: [Int: Signed] = [:]
        private var lists: [Int: Signed] = [:]

        func identity(_ i: Int) -> HavenIdentity {
            lock.lock()
            if let x = ids[i] { lock.unlock(); return x }
            lock.unlock()
            let x = try! HavenIdentity(seed: SHA256.hash(Array("pixie.fuzz.device_list.identity.\(i)".utf8)).bytes)
            lock.lock()
            ids[i] = x
            lock.unlock()
            return x
        }

        func classes(_ j: Int) -> (AdversarialSigner.Ed25519Class, AdversarialSigner.MLDSAClass) {
            guard j >= 40 else { return (.genuine, .genuine) }
            let eds = AdversarialSigner.Ed25519Class.allCases.filter { $0 != .genuine }
            let mls = AdversarialSigner.MLDSAClass.allCases.filter { $0 != .genuine }
            return j - 40 < eds.count ? (eds[j - 40], .genuine) : (.genuine, mls[(j - 40 - eds.count) % mls.count])
        }

        /// The account bundle an edge class verifies under: the account's with its Ed25519 key
        /// replaced where the class needs its own key.
        func bundle(_ a: HavenIdentity, _ ed: AdversarialSigner.Ed25519Class) -> [UInt8] {
            AdversarialSigner.publicKey(ed, real: Array(a.bundle.bytes.prefix(32))) + Array(a.bundle.bytes.dropFirst(32))
        }

        func signature(_ a: HavenIdentity, _ c: (AdversarialSigner.Ed25519Class, AdversarialSigner.MLDSAClass), _ message: [UInt8]) -> [UInt8] {
            AdversarialSigner.ed25519(c.0, seed: a.ed25519Seed, message: message)
                + AdversarialSigner.mldsa(c.1, key: a.signingKey.mldsa, message: message)
        }

        func credential(_ j: Int) -> Signed {
            lock.lock()
            if let x = creds[j] { lock.unlock(); return x }
            lock.unlock()
            var rng = FuzzRNG(seed: 0xc4ed ^ UInt64(j))
            let a = identity(j % Self.identities), d = identity((j + 1 + rng.below(3)) % Self.identities)
            let c = classes(j)
            let pinned = bundle(a, c.0)
            var out = Signed(wire: [], pinned: pinned)
            if let issued = try? DeviceCredential.issue(account: a, device: d.bundle, name: DeviceListFuzzGenerator.name(&rng), createdAt: DeviceListFuzzGenerator.time(&rng)),
               var cred = try? DeviceCredential.decode(issued.wire), let account = DeviceID(Array(pinned.prefix(32))) {
                cred.accountID = account
                cred.signature = signature(a, c, cred.signingBytes)
                out.wire = cred.wire
            }
            lock.lock()
            creds[j] = out
            lock.unlock()
            return out
        }

        func list(_ j: Int) -> Signed {
            lock.lock()
            if let x = lists[j] { lock.unlock(); return x }
            lock.unlock()
            var rng = FuzzRNG(seed: 0x11_57 ^ UInt64(j))
            let a = identity(j % Self.identities)
            let c = classes(j)
            let pinned = bundle(a, c.0)
            var l = DeviceListFuzzGenerator.list(account: DeviceID(Array(pinned.prefix(32)))!, &rng)
            l.signature = signature(a, c, l.signingBytes)
            let out = Signed(wire: l.wire, pinned: pinned)
            lock.lock()
            lists[j] = out
            lock.unlock()
            return out
        }
    }
}

extension Array {
    /// The first n elements of a random order.
    func shuffledPrefix(_ n: Int, _ rng: inout FuzzRNG) -> [Element] { Array(rng.shuffled(self).prefix(n)) }

    func randomElement(_ rng: inout FuzzRNG) -> Element? { isEmpty ? nil : self[rng.below(count)] }
}

import Primitives

/// The scenarios of `conformance simulate` (README, "Measuring convergence"). Each builds the
/// devices' stores from one seeded generator, schedules the writes and the reconnect, and sets
/// the measured start.
enum SimScenarios {
    /// Rows each namespace other than messages holds at the start.
    static let smallNamespaceRows = 200

    static func setUp(_ sim: Simulation) throws {
        let p = sim.p
        guard (2...64).contains(p.devices) else { throw SimError("devices must be 2–64, not \(p.devices)") }
        guard p.rows >= 0, p.rows <= 4_000_000 else { throw SimError("rows must be 0–4,000,000") }
        var g = SeededGenerator(seed: p.seed)
        let base: [SimNamespace]
        if let shared = sim.base, shared.rows == p.rows, shared.seed == p.seed {
            base = shared.stores
            g = shared.after
        } else {
            base = baseStores(p, &g)
        }
        let last = p.devices - 1
        switch p.scenario {
        case .reconnect:
            for i in 0..<p.devices { sim.addDevice(stores: base, online: i != last, overlay: i == last, lastBroadcastIsDigest: true) }
            sim.linkSiblings()
            let nsCount = max(1, min(p.namespaces, SimRow.namespaces.count))
            for side in [0, last] {
                for k in 0..<p.writes {
                    let t = 1_000_000 + UInt64(k) * (19_000_000 / UInt64(max(1, p.writes))) + g.next() % 10_000
                    let ns = k % nsCount
                    let existing = base[ns].keys
                    let roll = g.next() % 10
                    let w: Simulation.Write
                    if roll < 7 || existing.isEmpty {
                        w = .insert(ns: ns, key: g.bytes(SimRow.keyLength(SimRow.namespaces[ns])), row: SimRow(seed: g.next(), writer: UInt8(side + 1)))
                    } else if roll < 9 {
                        w = .edit(ns: ns, key: existing[Int(g.next() % UInt64(existing.count))])
                    } else {
                        w = .delete(ns: ns, key: existing[Int(g.next() % UInt64(existing.count))])
                    }
                    sim.schedule(t, .write(side, w))
                }
            }
            sim.start = 30_000_000
        case .reaction:
            var phone = base
            let key = pick(phone[0], &g)
            var r = phone[0].row(key)!
            r.reacted = true
            var enc = LeafEncoder()
            phone[0].put(key, r, encoder: &enc)
            sim.addDevice(stores: phone, online: true, overlay: false, lastBroadcastIsDigest: true)
            for i in 1..<p.devices { sim.addDevice(stores: base, online: i != last, overlay: i == last, lastBroadcastIsDigest: true) }
            sim.linkSiblings()
            sim.start = 1_000_000
        case .storm:
            let key = pick(base[0], &g)
            var enc = LeafEncoder()
            for i in 0..<p.devices {
                var s = base
                var r = s[0].row(key)!
                r.view = UInt8(i + 1)
                s[0].put(key, r, encoder: &enc)
                sim.addDevice(stores: s, online: i != last, overlay: i == last, lastBroadcastIsDigest: true)
            }
            sim.linkSiblings()
            sim.start = 1_000_000
        case .oneRow:
            for i in 0..<p.devices { sim.addDevice(stores: base, online: i != last, overlay: i == last, lastBroadcastIsDigest: true) }
            sim.linkSiblings()
            sim.schedule(1_000_000, .write(0, .edit(ns: 0, key: pick(base[0], &g))))
            sim.start = 5_000_000
        }
        sim.schedule(sim.start, .online(last))
        if p.backgroundEveryMillis > 0 {
            var t = sim.start + p.backgroundEveryMillis * 1000
            var k = 0
            while t <= sim.start + p.limitMillis * 1000 {
                sim.schedule(t, .write(k % p.devices, .insert(ns: SimRow.namespaces.count - 1, key: g.bytes(SimRow.keyLength(SimRow.namespaces.last!)), row: SimRow(seed: g.next(), writer: UInt8(k % p.devices + 1)))))
                t += p.backgroundEveryMillis * 1000
                k += 1
            }
        }
    }

    static func pick(_ store: SimNamespace, _ g: inout SeededGenerator) -> [UInt8] {
        store.keys[Int(g.next() % UInt64(store.keys.count))]
    }

    /// Every device's starting replica: `rows` messages, and a few hundred rows in each other
    /// namespace the simulator writes, all with their real leaves.
    static func baseStores(_ p: SimParameters, _ g: inout SeededGenerator) -> [SimNamespace] {
        var enc = LeafEncoder()
        return SimRow.namespaces.enumerated().map { i, ns in
            let n = i == 0 ? max(1, p.rows) : smallNamespaceRows
            var keyed: [(key: [UInt8], row: SimRow)] = []
            keyed.reserveCapacity(n)
            for _ in 0..<n { keyed.append((g.bytes(SimRow.keyLength(ns)), SimRow(seed: g.next()))) }
            keyed.sort { ByteOrder.precedes($0.key, $1.key) }
            let leaves = keyed.map { $0.row.leaf(ns, key: $0.key, encoder: &enc) }
            var store = SimNamespace(ns, sortedKeys: keyed.map(\.key), rows: keyed.map(\.row), leaves: leaves)
            // Memoized here once, so every device that starts from this replica shares the fold.
            _ = store.root()
            _ = store.request(p.bucketRule)
            return store
        }
    }
}

/// Every device's starting replica for (rows, seed), built once and reused by several runs
/// (the measurement tables): the same stores and the same generator state a run would make.
public struct SimBase: Sendable {
    let rows: Int
    let seed: UInt64
    let stores: [SimNamespace]
    let after: SeededGenerator

    public init(rows: Int, seed: UInt64) {
        var p = SimParameters()
        p.rows = rows
        p.seed = seed
        var g = SeededGenerator(seed: seed)
        self.rows = rows
        self.seed = seed
        stores = SimScenarios.baseStores(p, &g)
        after = g
    }
}

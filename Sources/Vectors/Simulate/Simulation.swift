import Primitives

/// A deterministic discrete-event simulation of one account's devices over a relay (SPEC.md
/// §12.8): each device runs a settle loop (the reference, or a testee's), the real digest of §4,
/// the real request and response of §5 with its byte counts, and a merge that converges.
///
/// Time is in microseconds of simulated time; a device's scheduler sees whole milliseconds. The
/// relay is publish/subscribe with no mailbox: a frame to or from an offline device is lost.
/// Each device does one thing at a time; a full pass over a namespace costs
/// `cpuNanosPerRow` per row of device time.
public final class Simulation {
    enum Frame {
        case digest([UInt8])
        case request(Namespace, [Bucket], second: Bool)
        case response(Namespace, rows: [(key: [UInt8], row: SimRow, leaf: SHA256Digest)], tombstones: [[UInt8]], narrowed: [Bucket])
    }

    public enum Write: Sendable {
        case insert(ns: Int, key: [UInt8], row: SimRow)
        case edit(ns: Int, key: [UInt8])
        case delete(ns: Int, key: [UInt8])
        case react(ns: Int, key: [UInt8])
    }

    enum Item {
        case deliver(from: Int, to: Int, Frame, bytes: Int)
        case tick(Int)
        case write(Int, Write)
        case online(Int)
        case offline(Int)
    }

    struct Device {
        let id: SiblingID
        var stores: [SimNamespace]
        var state: SettleState
        var online: Bool
        var busyUntil: UInt64 = 0
        var armed: Set<UInt64> = []
    }

    let p: SimParameters
    let stepper: (Int) -> SettleStepper
    var devices: [Device] = []
    var heap = EventHeap<Item>()
    var relayRandom: SeededGenerator
    var lastArrival: [[UInt64]]
    public private(set) var report = SimReport()
    /// When the measured part of the scenario begins.
    var start: UInt64 = 0
    var allEqual = false
    var pendingResponse: Frame?
    var encoder = LeafEncoder()

    /// `stepper(i)` runs device i's scheduler.
    init(_ p: SimParameters, stepper: @escaping (Int) -> SettleStepper) {
        self.p = p
        self.stepper = stepper
        relayRandom = SeededGenerator(seed: p.seed ^ 0x5E77_1E00_0000_0001)
        lastArrival = Array(repeating: Array(repeating: 0, count: p.devices), count: p.devices)
    }

    /// Starting replicas shared between runs (nil: built from the parameters).
    var base: SimBase?

    /// Runs a scenario with every device on `stepper` (the reference loop under `p.rules` when nil).
    public static func run(_ p: SimParameters, base: SimBase? = nil, stepper: ((Int) -> SettleStepper)? = nil) -> SimReport {
        let reference = ReferenceStepper(rules: p.rules)
        let sim = Simulation(p, stepper: stepper ?? { _ in reference })
        sim.base = base
        sim.report.parameters = p.summary
        do {
            try SimScenarios.setUp(sim)
            try sim.loop()
        } catch {
            sim.report.error = "\(error)"
        }
        sim.finish()
        return sim.report
    }

    // MARK: setting up

    func addDevice(stores: [SimNamespace], online: Bool, overlay: Bool, lastBroadcastIsDigest: Bool) {
        let i = devices.count
        let id = SiblingID(SHA256.hash(Array("pixie.sim.device".utf8) + [0, UInt8(i)]).bytes)
        var s = stores
        let digest = Simulation.digest(&s)
        let state = SettleState(now: 0, digest: digest, overlay: overlay, lastBroadcast: lastBroadcastIsDigest ? digest : nil, siblings: [])
        devices.append(Device(id: id, stores: s, state: state, online: online))
    }

    /// Each device's siblings are all the others.
    func linkSiblings() {
        for i in devices.indices {
            devices[i].state = SettleState(now: devices[i].state.now, digest: devices[i].state.digest, overlay: devices[i].state.overlay,
                                           lastBroadcast: devices[i].state.lastBroadcast,
                                           siblings: devices.indices.filter { $0 != i }.map { SiblingState(id: devices[$0].id) })
        }
    }

    func schedule(_ at: UInt64, _ item: Item) { heap.push(at, item) }

    // MARK: the loop

    func loop() throws {
        let limit = start + p.limitMillis * 1000
        while let (t, item) = heap.pop() {
            guard t <= limit else { break }
            try handle(t, item)
            checkConvergence(t)
        }
    }

    func handle(_ t: UInt64, _ item: Item) throws {
        switch item {
        case .online(let i):
            devices[i].online = true
            try step(i, at: t, cost: 0) { .connected }
        case .offline(let i):
            devices[i].online = false
        case .tick(let i):
            devices[i].armed.remove(t / 1000)
            try step(i, at: t, cost: 0) { .tick }
        case .write(let i, let w):
            let n = apply(w, on: i)
            try step(i, at: t, cost: cost(rows: n)) { [self] in .localWrite(digest: Simulation.digest(&devices[i].stores)) }
        case .deliver(let from, let to, let frame, let n):
            guard devices[to].online else { if t >= start { report.dropped.add(n) }; return }
            report.lastDelivery = t
            try deliver(frame, from: from, to: to, at: t)
        }
    }

    func deliver(_ frame: Frame, from: Int, to: Int, at t: UInt64) throws {
        let fromID = devices[from].id
        switch frame {
        case .digest(let bytes):
            try step(to, at: t, cost: 0) { .digestReceived(from: fromID, digest: bytes) }
        case .request(let ns, let buckets, let second):
            guard let si = SimRow.namespaces.firstIndex(of: ns) else { return }
            let narrowAbove = p.bucketRule == .twoRound && !second ? BucketRule.narrowAbove : nil
            let found = devices[to].stores[si].respond(to: buckets, narrowAbove: narrowAbove)
            let narrowed = found.narrowed.map { buckets[$0] }
            pendingResponse = .response(ns, rows: found.rows, tombstones: found.tombstones, narrowed: narrowed)
            // What respond found: a narrowed range is something to give (its second round).
            let rowsToGive = UInt64(found.rows.count + found.narrowed.count)
            try step(to, at: t, cost: cost(rows: devices[to].stores[si].count)) {
                .requestReceived(from: fromID, namespace: ns, rows: rowsToGive, tombstones: UInt64(found.tombstones.count))
            }
            pendingResponse = nil
        case .response(let ns, let rows, let tombs, let narrowed):
            guard let si = SimRow.namespaces.firstIndex(of: ns) else { return }
            var applied: UInt64 = 0
            let before = (report.rowsShipped, report.rowsApplied, report.rowsIdentical, report.rowsStale, report.tombstonesShipped)
            for r in rows {
                report.rowsShipped += 1
                let store = devices[to].stores[si]
                if store.isTombstoned(r.key) { report.rowsStale += 1; continue }
                if let local = store.row(r.key) {
                    let (merged, changed) = SimRow.merge(local: local, incoming: r.row)
                    if changed {
                        devices[to].stores[si].put(r.key, merged, encoder: &encoder)
                        applied += 1
                        report.rowsApplied += 1
                    } else if store.leaf(r.key) == r.leaf {
                        report.rowsIdentical += 1
                    } else {
                        report.rowsStale += 1
                    }
                } else {
                    devices[to].stores[si].put(r.key, r.row, encoder: &encoder)
                    applied += 1
                    report.rowsApplied += 1
                }
            }
            for k in tombs {
                report.tombstonesShipped += 1
                if devices[to].stores[si].delete(k) { applied += 1 }
            }
            if t < start { (report.rowsShipped, report.rowsApplied, report.rowsIdentical, report.rowsStale, report.tombstonesShipped) = before }
            let n = devices[to].stores[si].count
            // The second round of the two-round rule: the requester asks again for each narrowed range.
            var seconds: [[Bucket]] = []
            for range in narrowed { seconds.append(BucketRule.narrow(ns, devices[to].stores[si].keyedLeaves, range: range)) }
            try step(to, at: t, cost: cost(rows: rows.count + (applied > 0 ? n : 0) + seconds.count * n)) { [self] in
                .responseApplied(from: fromID, namespace: ns, applied: applied, digest: Simulation.digest(&devices[to].stores))
            }
            for b in seconds { send(.request(ns, b, second: true), from: to, to: from, at: devices[to].busyUntil) }
        }
    }

    /// Runs one scheduler step on device `i` starting when it is free, then carries out the actions.
    func step(_ i: Int, at t: UInt64, cost: UInt64, _ make: () -> SettleEvent.Kind) throws {
        let begin = max(t, devices[i].busyUntil)
        var busy = cost
        let kind = make()
        let event = SettleEvent(at: begin / 1000, kind)
        let (state, actions) = try stepper(i).step(device: i, state: devices[i].state, event: event)
        report.steps += 1
        devices[i].state = state
        if p.trace {
            let what = actions.map { a -> String in
                switch a {
                case .armTimer(_, let at): return "arm \(Int64(at) - Int64(start / 1000))"
                case .emitDigest(let to, let r): return "emit(\(r.rawValue)) → \(to.map { String(index(of: $0)) }.joined(separator: ","))"
                case .sendRequest(let to, let ns): return "request \(ns.rawValue) → \(index(of: to))"
                case .sendResponse(let to, let ns): return "response \(ns.rawValue) → \(index(of: to))"
                case .backOff(let s, _): return "BACK OFF from \(index(of: s))"
                case .logDivergent(_, let nss): return "log \(nss.map(\.rawValue).joined(separator: ","))"
                case .dismissOverlay: return "dismiss overlay"
                case .dropDigest(_, let c): return "drop \(c.rawValue)"
                }
            }
            report.trace.append("\(Self.tenths(millis(begin)).leftPad(9)) ms  device \(i)  \(Self.describe(kind, self))  ⇒ \(what.isEmpty ? "—" : what.joined(separator: "; "))")
        }
        // Bucketizing for each request is device time too.
        var rounds = 0
        for a in actions {
            if case .sendRequest(_, let ns) = a, let si = SimRow.namespaces.firstIndex(of: ns) {
                busy += self.cost(rows: devices[i].stores[si].count)
                rounds = 1
            }
        }
        if begin >= start { report.rounds += rounds }
        devices[i].busyUntil = begin + busy
        let depart = devices[i].busyUntil
        for a in actions { try carry(a, device: i, at: depart, now: begin) }
    }

    func carry(_ a: SettleAction, device i: Int, at depart: UInt64, now: UInt64) throws {
        switch a {
        case .armTimer(_, let at):
            if devices[i].armed.insert(at).inserted { schedule(at * 1000, .tick(i)) }
        case .emitDigest(let to, _):
            let digest = Simulation.digest(&devices[i].stores)
            guard devices[i].state.digest == digest else {
                throw SimError("device \(i)'s scheduler state holds another digest than its store")
            }
            for sib in to { send(.digest(digest.encoded()), from: i, to: index(of: sib), at: depart) }
        case .sendRequest(let to, let ns):
            guard let si = SimRow.namespaces.firstIndex(of: ns) else { return }
            let buckets = devices[i].stores[si].request(p.bucketRule)
            send(.request(ns, buckets, second: false), from: i, to: index(of: to), at: depart)
        case .sendResponse(let to, _):
            guard let r = pendingResponse else { throw SimError("send_response without a request") }
            send(r, from: i, to: index(of: to), at: depart)
        case .backOff(let sib, let until):
            report.storms.append(SimReport.Storm(atMillis: millis(now / 1000 * 1000), device: i, sibling: index(of: sib), untilMillis: Double(until) - Double(start / 1000), namespaces: []))
        case .logDivergent(let sib, let nss):
            if let last = report.storms.indices.last, report.storms[last].device == i, report.storms[last].sibling == index(of: sib) {
                report.storms[last].namespaces = nss.map(\.rawValue)
            }
        case .dismissOverlay:
            report.overlayDismissed.append((device: i, atMillis: millis(now)))
        case .dropDigest(_, let code):
            report.notes.append("device \(i) dropped a digest: \(code.rawValue)")
        }
    }

    func index(of id: SiblingID) -> Int { devices.firstIndex { $0.id == id } ?? 0 }

    static func tenths(_ v: Double) -> String {
        let t = Int64((v * 10).rounded())
        let sign = t < 0 ? "-" : ""
        return "\(sign)\(abs(t) / 10).\(abs(t) % 10)"
    }

    static func describe(_ k: SettleEvent.Kind, _ sim: Simulation) -> String {
        switch k {
        case .localWrite: return "local_write"
        case .connected: return "connected"
        case .tick: return "tick"
        case .digestReceived(let f, let d):
            var mine = [UInt8]()
            if let j = sim.devices.firstIndex(where: { $0.id == f }) { mine = sim.devices[j].state.digest.encoded() }
            return "digest from \(sim.index(of: f))\(d == mine ? " (its current)" : "")"
        case .requestReceived(let f, let ns, let r, let t): return "request \(ns.rawValue) from \(sim.index(of: f)) (\(r) rows, \(t) tombstones to give)"
        case .responseApplied(let f, let ns, let a, _): return "response \(ns.rawValue) from \(sim.index(of: f)) applied \(a)"
        }
    }

    func millis(_ t: UInt64) -> Double { (Double(t) - Double(start)) / 1000 }

    func cost(rows n: Int) -> UInt64 { UInt64(n) * p.cpuNanosPerRow / 1000 }

    // MARK: the relay

    func bytes(of frame: Frame) -> Int {
        switch frame {
        case .digest: return SimParameters.provisionalDigestFrameBytes
        case .request(let ns, let buckets, _):
            return ReconcileFrame.request(ReconcileRequest(namespace: ns, buckets: buckets)).jsonText.utf8.count
        case .response(let ns, let rows, let tombs, let narrowed):
            let resp = ReconcileResponse(namespace: ns, rows: rows.map { $0.row.row(ns, key: $0.key) }, tombstones: tombs)
            // A narrowed range travels as its bucket index: `,"narrow":[i,…]`.
            let narrow = narrowed.isEmpty ? 0 : 11 + narrowed.count * 4
            return ReconcileFrame.response(resp).jsonText.utf8.count + narrow
        }
    }

    /// Frames are counted from the scenario's start (the traffic that settles it).
    func send(_ frame: Frame, from: Int, to: Int, at depart: UInt64) {
        let n = bytes(of: frame)
        let counted = depart >= start
        if counted {
            switch frame {
            case .digest: report.digests.add(n)
            case .request: report.requests.add(n)
            case .response: report.responses.add(n)
            }
        }
        guard devices[from].online else { if counted { report.dropped.add(n) }; return }
        let jitter = p.jitterMicros == 0 ? 0 : relayRandom.next() % p.jitterMicros
        var arrive = depart + p.latencyMicros + jitter + UInt64(n) * 1_000_000 / max(1, p.bytesPerSecond)
        arrive = max(arrive, lastArrival[from][to])
        lastArrival[from][to] = arrive
        schedule(arrive, .deliver(from: from, to: to, frame, bytes: n))
    }

    // MARK: stores

    static func digest(_ stores: inout [SimNamespace]) -> StateDigest {
        var roots = Namespace.allCases.map { MerkleTree.emptyRoot($0) }
        for i in stores.indices { roots[stores[i].namespace.rawValueIndex] = stores[i].root() }
        return StateDigest(roots: roots)
    }

    /// Applies a local write; returns the rows it touched (refold cost: the namespace).
    func apply(_ w: Write, on i: Int) -> Int {
        switch w {
        case .insert(let ns, let key, let row):
            devices[i].stores[ns].put(key, row, encoder: &encoder)
            return devices[i].stores[ns].count
        case .edit(let ns, let key):
            guard var r = devices[i].stores[ns].row(key) else { return 0 }
            r.version += 1
            r.writer = UInt8(truncatingIfNeeded: i + 1)
            devices[i].stores[ns].put(key, r, encoder: &encoder)
            return devices[i].stores[ns].count
        case .delete(let ns, let key):
            devices[i].stores[ns].delete(key)
            return devices[i].stores[ns].count
        case .react(let ns, let key):
            guard var r = devices[i].stores[ns].row(key) else { return 0 }
            r.reacted = true
            devices[i].stores[ns].put(key, r, encoder: &encoder)
            return devices[i].stores[ns].count
        }
    }

    /// All devices hold the same content: equal digests, leaving out the namespace the
    /// background writes keep moving (they would otherwise keep the fleet apart by design).
    func checkConvergence(_ t: UInt64) {
        func view(_ i: Int) -> [SHA256Digest] {
            var roots = Simulation.digest(&devices[i].stores).roots
            if p.backgroundEveryMillis > 0 { roots[SimRow.namespaces.last!.rawValueIndex] = MerkleTree.emptyRoot(SimRow.namespaces.last!) }
            return roots
        }
        let first = view(0)
        var equal = true
        for i in devices.indices.dropFirst() where view(i) != first { equal = false; break }
        if equal && !allEqual && t >= start { report.convergedAt = t }
        if !equal { report.convergedAt = nil }
        allEqual = equal
    }

    func finish() {
        report.start = start
        report.converged = allEqual && report.convergedAt != nil
        report.convergeMillis = report.converged ? report.convergedAt.map { millis($0) } : nil
        report.quietMillis = report.lastDelivery.map { millis($0) }
        for i in devices.indices where devices[i].state.overlay { report.overlayUp.append(i) }
        report.stepper = stepper(0).name
        var notes: [String] = []
        var seen = Set<ObjectIdentifier>()
        for i in devices.indices {
            let s = stepper(i)
            if seen.insert(ObjectIdentifier(s)).inserted { notes += s.notes }
        }
        report.notes += notes
    }
}

struct SimError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A min-heap of items by (time, insertion order): ties pop in the order they were pushed, so a
/// run is a pure function of its parameters.
struct EventHeap<T> {
    private var items: [(at: UInt64, seq: UInt64, item: T)] = []
    private var next: UInt64 = 0

    private static func less(_ a: (at: UInt64, seq: UInt64, item: T), _ b: (at: UInt64, seq: UInt64, item: T)) -> Bool {
        a.at != b.at ? a.at < b.at : a.seq < b.seq
    }

    mutating func push(_ at: UInt64, _ item: T) {
        items.append((at, next, item))
        next += 1
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard Self.less(items[i], items[parent]) else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (UInt64, T)? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count, Self.less(items[l], items[m]) { m = l }
            if r < items.count, Self.less(items[r], items[m]) { m = r }
            guard m != i else { break }
            items.swapAt(i, m)
            i = m
        }
        return (top.at, top.item)
    }
}

/// The settle loop of seed 002 §8–§9 as a pure transition function (SPEC.md §12.5–§12.6):
/// `(state, event) → (state', actions)`. No clock, no randomness, no I/O: every timer is a
/// deadline in the state, and the device delivers a `tick` when an `arm_timer` action asks.
public enum SettleScheduler {
    /// Applies one event. On a thrown error the state is left as it was.
    public static func step(_ state: inout SettleState, _ event: SettleEvent, rules: SettleRules = .current) throws(WireError) -> [SettleAction] {
        var t = Transition(s: state, rules: rules, now: event.at)
        try t.run(event)
        state = t.s
        return t.actions
    }

    /// Applies events in order; the actions of each, in order.
    public static func episode(_ state: inout SettleState, _ events: [SettleEvent], rules: SettleRules = .current) throws(WireError) -> [[SettleAction]] {
        var out: [[SettleAction]] = []
        for e in events { out.append(try step(&state, e, rules: rules)) }
        return out
    }

    /// The largest time a deadline may take.
    static func maxTime(_ rules: SettleRules) -> UInt64 { rules.signedTimes ? UInt64(Int64.max) : UInt64.max }

    struct Transition {
        var s: SettleState
        let rules: SettleRules
        let now: UInt64
        var actions: [SettleAction] = []

        mutating func run(_ event: SettleEvent) throws(WireError) {
            // [R12.5-1]: the clock never runs backwards.
            guard event.at >= s.now || rules.acceptClockBackwards else {
                throw WireError(.settleClockBackwards, "event at \(event.at) ms is before the state's clock \(s.now) ms", field: "at")
            }
            // [R12.5-2]: every sibling an event names is one of state.siblings.
            var target: Int?
            if let sib = event.kind.sibling {
                guard let i = s.index(of: sib, rules) else {
                    throw WireError(.settleUnknownSibling, "\(sib.text) is not a sibling in the state", field: "from")
                }
                target = i
            }
            s.now = now
            pruneRounds()
            try fireDueDeadlines()
            switch event.kind {
            case .localWrite(let d):
                s.digest = d
                try markDirty()
            case .connected:
                s.lastBroadcast = nil
                try markDirty()
            case .tick:
                break
            case .digestReceived(_, let bytes):
                try digestReceived(target!, bytes)
            case .requestReceived(_, let ns, let rows, let tombs):
                let has = rules.respondOnRowsOnly ? rows > 0 : (rows > 0 || tombs > 0)
                if has || rules.respondWhenEmpty { actions.append(.sendResponse(to: s.siblings[target!].id, namespace: ns)) }
            case .responseApplied(_, _, let applied, let d):
                s.digest = d
                try responseApplied(target!, applied: applied)
            }
        }

        /// Keeps the rounds inside the window ending now: `now − r < window`.
        mutating func pruneRounds() {
            for i in s.siblings.indices {
                s.siblings[i].rounds = s.siblings[i].rounds.filter { r in
                    r > now || (rules.windowInclusive ? now - r <= rules.windowMs : now - r < rules.windowMs)
                }
            }
        }

        func deadline(_ base: UInt64, plus ms: UInt64) throws(WireError) -> UInt64 {
            let (sum, overflow) = base.addingReportingOverflow(ms)
            guard !overflow, sum <= SettleScheduler.maxTime(rules) else {
                throw WireError(.settleTimeOverflow, "\(base) + \(ms) ms is past the largest time", field: "at")
            }
            return sum
        }

        /// Deadlines at or before now, each as of its own time: oldest first; at one time the
        /// debounce before back-off ends, back-off ends in sibling id order.
        mutating func fireDueDeadlines() throws(WireError) {
            // rank: the debounce −1, sibling i's back-off end i (siblings are held in id order).
            var due: [(at: UInt64, rank: Int, sibling: Int?)] = []
            if let d = s.debounceAt, d <= now { due.append((d, rules.backoffEndsBeforeDebounce ? Int.max : -1, nil)) }
            for (i, sib) in s.siblings.enumerated() { if let b = sib.backoffUntil, b <= now { due.append((b, i, i)) } }
            due.sort { $0.at != $1.at ? $0.at < $1.at : $0.rank < $1.rank }
            for item in due {
                if let i = item.sibling { endBackoff(i) } else { fireDebounce() }
            }
        }

        mutating func fireDebounce() {
            s.debounceAt = nil
            let recipients = s.siblings.filter { $0.backoffUntil == nil || rules.broadcastToBackedOff }.map(\.id)
            guard !recipients.isEmpty else { return }
            if rules.skipIdentical, s.lastBroadcast == s.digest { return }
            emit(recipients, .debounce)
        }

        mutating func endBackoff(_ i: Int) {
            s.siblings[i].backoffUntil = nil
            if rules.resumeAfterBackoff { target(i, .backoffEnd) }
        }

        /// A targeted emit: never skipped (only a mutant applies the skip to it).
        mutating func target(_ i: Int, _ reason: SettleAction.EmitReason) {
            if rules.skipTargeted, s.lastBroadcast == s.digest { return }
            emit([s.siblings[i].id], reason)
        }

        /// An emit that reaches every sibling becomes the last broadcast.
        mutating func emit(_ to: [SiblingID], _ reason: SettleAction.EmitReason) {
            actions.append(.emitDigest(to: to, reason: reason))
            if to.count == s.siblings.count { s.lastBroadcast = s.digest }
        }

        /// markStateDirty: (re)arms the debounced emit.
        mutating func markDirty() throws(WireError) {
            if rules.debounce == .fixedWindow, s.debounceAt != nil { return }
            let at = try deadline(now, plus: rules.debounceMs)
            s.debounceAt = at
            actions.append(.armTimer(.debounce, at: at))
        }

        mutating func digestReceived(_ i: Int, _ bytes: [UInt8]) throws(WireError) {
            let id = s.siblings[i].id
            let theirs: StateDigest
            do { theirs = try StateDigest.decode(bytes) } catch {
                actions.append(.dropDigest(from: id, error: error.code))
                return
            }
            if s.siblings[i].backoffUntil != nil && !rules.pullWhileBackedOff { return }
            let divergent = s.digest.divergentNamespaces(from: theirs)
            if divergent.isEmpty {
                let was = s.siblings[i].reconciling
                switch rules.returnOnce {
                case .once: if was { target(i, .matched) }; s.siblings[i].reconciling = false
                case .never: s.siblings[i].reconciling = false
                case .notCleared: if was { target(i, .matched) }
                case .always: target(i, .matched); s.siblings[i].reconciling = false
                }
                if s.overlay {
                    s.overlay = false
                    actions.append(.dismissOverlay)
                }
                return
            }
            // A round: one pull from this sibling. The storm guard counts them (seed 002 §9).
            s.siblings[i].rounds.append(now)
            let count = rules.roundsPerDevice ? s.siblings.reduce(0) { $0 + $1.rounds.count } : s.siblings[i].rounds.count
            let trips = rules.tripAtMax ? count >= rules.maxRounds : count > rules.maxRounds
            guard trips else {
                s.siblings[i].reconciling = true
                for ns in divergent { actions.append(.sendRequest(to: id, namespace: ns)) }
                return
            }
            let from = rules.backoffFromOldestRound ? (s.siblings[i].rounds.first ?? now) : now
            let until = try deadline(from, plus: rules.backoffMs)
            s.siblings[i].backoffUntil = until
            s.siblings[i].reconciling = false
            if rules.roundsPerDevice {
                for j in s.siblings.indices { s.siblings[j].rounds = [] }
            } else {
                s.siblings[i].rounds = []
            }
            actions.append(.backOff(sibling: id, until: until))
            if rules.logOnTrip { actions.append(.logDivergent(sibling: id, namespaces: divergent)) }
            actions.append(.armTimer(.backoff(id), at: until))
            if rules.dismissOverlayOnTrip, s.overlay {
                s.overlay = false
                actions.append(.dismissOverlay)
            }
        }

        mutating func responseApplied(_ i: Int, applied: UInt64) throws(WireError) {
            var dirtied = false
            let readvertise = applied > 0 || rules.readvertiseOnNoop
            if readvertise, s.siblings[i].backoffUntil == nil {
                if rules.immediateAfterApply {
                    target(i, .applied)
                } else {
                    try markDirty()
                    dirtied = true
                }
            }
            if applied > 0, !dirtied { try markDirty() }
        }
    }
}

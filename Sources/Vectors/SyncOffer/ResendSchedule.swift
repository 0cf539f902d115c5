/// The requester's re-send schedule (SPEC.md §7.8): send at 0 ms, then every 5 s, 7 sends in all,
/// the same bytes (one request_id) each time.
///
/// The relay is pure-ephemeral with no mailbox, so a single request aimed at a sleeping sibling
/// is lost; re-sends keep the frame available for ~35 s while it boots. Every send is a
/// `sync_request`, so every send is of wake class `sync`: the payload type decides the class, and
/// it is the relay, not the sender, that keeps the wake from repeating (`RelayWake`).
public enum ResendSchedule {
    public static let intervalMs: Int64 = 5_000
    public static let maxSends = 7
    /// 7 × 5 s: after this, no send is pending and the attempt is over.
    public static let coverageMs: Int64 = intervalMs * Int64(maxSends)

    public enum WakeClass: String, Sendable {
        /// The push-waking class (WakeClass::Sync): the relay may turn it into an alert push.
        case sync
        /// Every other frame.
        case silent
    }

    /// SPEC.md §7.8 [R7.8-5]: `sync_request` is the sole payload type of class `sync`, compared
    /// byte for byte; every other type (the offer, the ack, every later delta) is `silent`.
    public static func wakeClass(payloadType: String) -> WakeClass {
        if Mutant.on(.syncWakeClassCaseInsensitive) { return payloadType.lowercased() == SyncPayloadType.syncRequest.rawValue ? .sync : .silent }
        return Array(payloadType.utf8) == Array(SyncPayloadType.syncRequest.rawValue.utf8) ? .sync : .silent
    }

    public struct Send: Sendable, Equatable {
        /// 0-based: send i goes out at i × 5,000 ms.
        public var index: Int
        public var atMs: Int64
        public var wake: WakeClass
    }

    public static func send(_ i: Int) -> Send {
        let wake = Mutant.on(.syncOnlyFirstSendWakes) && i > 0 ? WakeClass.silent : wakeClass(payloadType: SyncPayloadType.syncRequest.rawValue)
        return Send(index: i, atMs: Int64(i) * intervalMs, wake: wake)
    }

    /// Every send due by `elapsedMs` (≥ 0): those with `atMs ≤ elapsedMs`.
    public static func due(elapsedMs: Int64) -> [Send] {
        guard elapsedMs >= 0 else { return [] }
        let count = min(Int64(maxSends + (Mutant.on(.syncEightSends) ? 1 : 0)), elapsedMs / intervalMs + 1)
        return (0..<Int(count)).map(send)
    }

    /// When the next send is due, nil once all seven are out.
    public static func nextAtMs(elapsedMs: Int64) -> Int64? {
        let n = due(elapsedMs: elapsedMs).count
        return n < maxSends ? Int64(n) * intervalMs : nil
    }

    /// True from `coverageMs` on.
    public static func exhausted(elapsedMs: Int64) -> Bool { elapsedMs >= coverageMs }
}

/// The relay's wake de-duplication for one target device (SPEC.md §7.8 [R7.8-6]): "the relay then
/// dedups the wake until that device reconnects". A `sync` frame becomes an alert push only when no
/// alert push went to the device since it last reconnected (or ever).
public enum RelayWake {
    public enum Event: String, Sendable, CaseIterable {
        case sync
        case silent
        case reconnect
    }

    /// The indexes of the events that cause an alert push, ascending.
    public static func pushes(_ events: [Event]) -> [Int] {
        var woken = false
        var out: [Int] = []
        for (i, e) in events.enumerated() {
            switch e {
            case .sync:
                if !woken || Mutant.on(.syncRelayNoDedup) { out.append(i) }
                woken = true
            case .silent:
                break
            case .reconnect:
                if !Mutant.on(.syncRelayDedupForever) { woken = false }
            }
        }
        return out
    }
}

/// The requester's re-send schedule (SPEC.md §7.8): send at 0 ms, then every 5 s, 7 sends in all,
/// the same bytes (one request_id) each time.
///
/// The relay is pure-ephemeral with no mailbox, so a single request aimed at a sleeping sibling
/// is lost; re-sends keep the frame available for ~35 s while it boots. Only the first send is
/// marked push-waking: the relay turns it into an alert-class push that can relaunch a
/// force-quit app and then dedups the wake until the device reconnects.
public enum ResendSchedule {
    public static let intervalMs: Int64 = 5_000
    public static let maxSends = 7
    /// 7 × 5 s: after this, no send is pending and the attempt is over.
    public static let coverageMs: Int64 = intervalMs * Int64(maxSends)

    public enum WakeClass: String, Sendable {
        /// The push-waking class (WakeClass::Sync).
        case sync
        /// Every other frame.
        case silent
    }

    public struct Send: Sendable, Equatable {
        /// 0-based: send i goes out at i × 5,000 ms.
        public var index: Int
        public var atMs: Int64
        public var wake: WakeClass
    }

    public static func send(_ i: Int) -> Send {
        Send(index: i, atMs: Int64(i) * intervalMs, wake: i == 0 || Mutant.on(.syncEverySendWakes) ? .sync : .silent)
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

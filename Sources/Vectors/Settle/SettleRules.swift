/// The settle loop's timing constants and rules as one value (SPEC.md §12.1), so the scheduler
/// reads every rule at one seam. `reference` is the normative loop; a mutant changes one field
/// (`current`); the simulator also runs `legacy`, the loop seed 002 §8 measured before its fix.
public struct SettleRules: Sendable, Hashable {
    /// How a repeated write moves a pending debounced emit.
    public enum Debounce: Sendable, Hashable {
        /// Every write re-arms the timer at write + window (a trailing debounce).
        case trailing
        /// The first write arms it; later writes inside the window leave it (a fixed window).
        case fixedWindow
    }

    /// What a device does with a matching digest from a sibling it was reconciling with.
    public enum ReturnOnce: Sendable, Hashable {
        /// Returns its digest once and stops reconciling (the seed's rule).
        case once
        /// Never returns it.
        case never
        /// Returns it but keeps reconciling, so every later matching digest is returned too.
        case notCleared
        /// Returns it whether or not it was reconciling.
        case always
    }

    /// The coalescing window of the debounced emit, in ms (seed 002 §8: 400 ms, formerly 3 s).
    public var debounceMs: UInt64 = 400
    public var debounce: Debounce = .trailing
    /// After applying a response: emit to that sibling at once (true), or only mark the state dirty.
    public var immediateAfterApply = true
    /// The immediate re-advertisement fires after a no-op round too (applied = 0).
    public var readvertiseOnNoop = true
    /// A debounced emit equal to the last emit that reached every sibling is skipped.
    public var skipIdentical = true
    /// The skip also applies to targeted emits (a bug: it brings back the no-op stall).
    public var skipTargeted = false
    public var returnOnce: ReturnOnce = .once
    /// The storm window, in ms (seed 002 §9: ten seconds).
    public var windowMs: UInt64 = 10_000
    /// A round exactly `windowMs` old still counts (a bug: the window is half-open).
    public var windowInclusive = false
    /// The guard trips when the rounds in the window number more than this (seed: eight).
    public var maxRounds = 8
    /// The guard trips at `maxRounds` itself (a bug: "more than eight" read as "eight").
    public var tripAtMax = false
    /// Rounds counted across every sibling instead of per sibling (a bug).
    public var roundsPerDevice = false
    /// The back-off, in ms (seed 002 §9: thirty seconds).
    public var backoffMs: UInt64 = 30_000
    /// The back-off runs from the oldest round in the window instead of the tripping one (a bug).
    public var backoffFromOldestRound = false
    /// A backed-off sibling still gets the device's broadcasts (a bug).
    public var broadcastToBackedOff = false
    /// A backed-off sibling's digests are still pulled (a bug: the guard bounds nothing).
    public var pullWhileBackedOff = false
    /// The device re-advertises to the sibling when its back-off ends.
    public var resumeAfterBackoff = true
    /// The guard logs the divergent namespaces when it trips.
    public var logOnTrip = true
    /// The guard dismisses the "Syncing…" overlay (a bug: the seed keeps it up).
    public var dismissOverlayOnTrip = false
    /// A responder with nothing to send sends an empty frame (a bug: it stays silent).
    public var respondWhenEmpty = false
    /// A responder answers only when rows differ, ignoring tombstones (a bug).
    public var respondOnRowsOnly = false
    /// Times read as signed 64-bit integers (a bug: times at or above 2^63 are refused).
    public var signedTimes = false
    /// An event earlier than the state's clock is accepted (a bug).
    public var acceptClockBackwards = false
    /// Sibling ids compared as the hex text given, not as bytes (a bug: `AB…` and `ab…` differ).
    public var siblingsByHexText = false
    /// At one time, back-off ends fire before the debounce (a bug: R12.5-5 puts the debounce first,
    /// so a sibling whose back-off ends at that time is still backed off for it).
    public var backoffEndsBeforeDebounce = false

    public init() {}

    /// The normative loop (SPEC.md §12).
    public static let reference = SettleRules()

    /// The loop before seed 002 §8's fix: a 3 s debounce, and after applying a response only the
    /// debounced emit that a changed store schedules (so nothing after a no-op round).
    public static var legacy: SettleRules {
        var r = SettleRules()
        r.debounceMs = 3_000
        r.immediateAfterApply = false
        r.readvertiseOnNoop = false
        return r
    }

    /// The reference, or the reference with the active mutant's one change.
    public static var current: SettleRules {
        var r = SettleRules()
        guard let m = Mutant.active, m.format == "settle" else { return r }
        switch m {
        case .settleDebounce3s: r.debounceMs = 3_000
        case .settleDebounceFixedWindow: r.debounce = .fixedWindow
        case .settleApplyDebounced: r.immediateAfterApply = false
        case .settleReadvertiseOnlyWhenApplied: r.readvertiseOnNoop = false
        case .settleIdenticalNotSkipped: r.skipIdentical = false
        case .settleTargetedSkipped: r.skipTargeted = true
        case .settleMatchNeverReturned: r.returnOnce = .never
        case .settleMatchReturnedTwice: r.returnOnce = .notCleared
        case .settleMatchAlwaysReturned: r.returnOnce = .always
        case .settleGuardAtEight: r.tripAtMax = true
        case .settleWindowInclusive: r.windowInclusive = true
        case .settleRoundsPerDevice: r.roundsPerDevice = true
        case .settleBackoff3s: r.backoffMs = 3_000
        case .settleBackoffFromOldestRound: r.backoffFromOldestRound = true
        case .settleBroadcastToBackedOff: r.broadcastToBackedOff = true
        case .settlePullWhileBackedOff: r.pullWhileBackedOff = true
        case .settleNoResumeAfterBackoff: r.resumeAfterBackoff = false
        case .settleNoLogOnTrip: r.logOnTrip = false
        case .settleOverlayDismissedOnStorm: r.dismissOverlayOnTrip = true
        case .settleEmptyResponseSent: r.respondWhenEmpty = true
        case .settleTombstonesIgnored: r.respondOnRowsOnly = true
        case .settleSignedTimes: r.signedTimes = true
        case .settleClockBackwardsAccepted: r.acceptClockBackwards = true
        case .settleSiblingsByHexText: r.siblingsByHexText = true
        case .settleBackoffBeforeDebounce: r.backoffEndsBeforeDebounce = true
        default: break
        }
        return r
    }
}

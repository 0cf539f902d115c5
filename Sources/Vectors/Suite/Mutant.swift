/// Realistic bugs the reference can be switched into, one at a time, to prove the vectors catch
/// them (`conformance serve --mutant NAME`, `conformance mutants`). A mutant that no vector
/// kills means a missing vector: add the vector, never remove the mutant.
///
/// The active mutant is task-local, not a global: it is bound for the extent of one serve loop or
/// one test, and unbound code (generation, verification) can never see it.
public enum Mutant: String, CaseIterable, Sendable {
    // state_digest
    case datesInMilliseconds = "state_digest.dates-in-milliseconds"
    case datesTruncateTowardZero = "state_digest.dates-truncate-toward-zero"
    case hashObservedAt = "state_digest.hash-observed-at"
    case hashPeerPubkey = "state_digest.hash-peer-pubkey"
    case hashResidencyFlag = "state_digest.hash-body-offloaded"
    case hashOffloadHolder = "state_digest.hash-offload-holder"
    case absentEqualsEmpty = "state_digest.absent-equals-empty"
    case peerHashNotNormalized = "state_digest.peer-hash-absent-not-normalized"
    case settingsMapInsertionOrder = "state_digest.settings-map-insertion-order"
    case settingsVersionVectorHashed = "state_digest.settings-version-vector-hashed"
    case oddNodePairedWithItself = "state_digest.odd-node-paired-with-itself"
    case nodeUsesLeafSeparator = "state_digest.node-uses-leaf-separator"
    case emptyRootZeros = "state_digest.empty-root-zeros"
    case foldInInputOrder = "state_digest.fold-in-input-order"
    case textSetUnsorted = "state_digest.text-set-unsorted"
    case calendarEventsHashed = "state_digest.calendar-events-hashed"
    case offloadedBodyHashedAsText = "state_digest.offloaded-body-hashed-as-text"
    case decodeIgnoresVersion = "state_digest.decode-ignores-version"
    case decodeIgnoresTrailingBytes = "state_digest.decode-ignores-trailing-bytes"
    case markOffloadedSkipsHashCheck = "state_digest.mark-offloaded-skips-hash-check"
    case markOffloadedBumpsUpdatedAt = "state_digest.mark-offloaded-bumps-updated-at"
    // reconcile
    case groupSizeFloor = "reconcile.group-size-floor"
    case threshold255 = "reconcile.threshold-255"
    case threshold257 = "reconcile.threshold-257"
    case closedUpperBound = "reconcile.closed-upper-bound"
    case countNotCompared = "reconcile.count-not-compared"
    case emptyNamespaceSendsNothing = "reconcile.empty-namespace-sends-no-bucket"
    case frameWhenNothingDiffers = "reconcile.frame-when-nothing-differs"
    case requireVectorsAndTombstones = "reconcile.require-vectors-and-tombstones"
    case firstLoIsFirstKey = "reconcile.first-lo-is-first-key"
    case rejectUnknownFrameFields = "reconcile.reject-unknown-fields"
    case acceptTooManyBuckets = "reconcile.accept-more-than-256-buckets"
    case acceptNegativeCount = "reconcile.accept-negative-count"
    case tombstonesNotShipped = "reconcile.tombstones-not-shipped"
    case calendarEventsShipped = "reconcile.calendar-events-shipped"

    @TaskLocal public static var active: Mutant?

    /// True when this mutant is the one switched on for the current task.
    @inline(__always)
    public static func on(_ m: Mutant) -> Bool { active == m }

    /// The format whose behaviour the mutant changes.
    public var format: String { String(rawValue.split(separator: ".").first ?? "") }

    /// What the bug is, in a line, for `conformance mutants`.
    public var summary: String {
        switch self {
        case .datesInMilliseconds: return "dates committed in milliseconds instead of whole seconds"
        case .datesTruncateTowardZero: return "dates rounded toward zero instead of floored (negative times)"
        case .hashObservedAt: return "messages.observedAt hashed into the leaf"
        case .hashPeerPubkey: return "messages.peerPubkey hashed into the leaf"
        case .hashResidencyFlag: return "notebook.bodyOffloaded hashed into the leaf"
        case .hashOffloadHolder: return "notebook.offloadHolderPubkey hashed into the leaf"
        case .absentEqualsEmpty: return "an absent optional encoded as its empty value (no presence marker)"
        case .peerHashNotNormalized: return "an absent peerUserIDHash encoded as null instead of the empty byte string"
        case .settingsMapInsertionOrder: return "the settings map written in insertion order, not sorted"
        case .settingsVersionVectorHashed: return "settings version vectors hashed with the values"
        case .oddNodePairedWithItself: return "an odd Merkle node paired with itself instead of promoted"
        case .nodeUsesLeafSeparator: return "interior nodes hashed under the messages leaf separator"
        case .emptyRootZeros: return "an empty namespace's root is 32 zero bytes"
        case .foldInInputOrder: return "leaves folded in input order, not sorted by key"
        case .textSetUnsorted: return "text sets hashed in the order given"
        case .calendarEventsHashed: return "calendar-derived memory events hashed"
        case .offloadedBodyHashedAsText: return "the notebook body hashed as its (empty) text when offloaded"
        case .decodeIgnoresVersion: return "a digest of another wire version accepted"
        case .decodeIgnoresTrailingBytes: return "a digest longer than 417 bytes accepted"
        case .markOffloadedSkipsHashCheck: return "markOffloaded stamps any contentHash"
        case .markOffloadedBumpsUpdatedAt: return "markOffloaded advances updatedAt"
        case .groupSizeFloor: return "bucket group size floor(n/256) instead of ceil"
        case .threshold255: return "fine threshold 255"
        case .threshold257: return "fine threshold 257"
        case .closedUpperBound: return "bucket ranges closed above: lo <= k <= hi"
        case .countNotCompared: return "respond compares roots only, not counts"
        case .emptyNamespaceSendsNothing: return "an empty namespace sends a request with no buckets"
        case .frameWhenNothingDiffers: return "respond sends an empty frame when nothing differs"
        case .requireVectorsAndTombstones: return "a response without vectors or tombstones rejected"
        case .firstLoIsFirstKey: return "the first bucket's lo is the first key, not empty"
        case .rejectUnknownFrameFields: return "unknown frame members rejected instead of ignored"
        case .acceptTooManyBuckets: return "requests with more than 256 buckets accepted"
        case .acceptNegativeCount: return "a negative bucket count accepted"
        case .tombstonesNotShipped: return "respond ships rows but never tombstones"
        case .calendarEventsShipped: return "calendar-derived memory events shipped in responses"
        }
    }
}

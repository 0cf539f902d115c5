import Primitives

/// A sibling's 32-byte device id. `text` is the hex exactly as an input spelled it: the reference
/// compares bytes (SPEC.md §12.2), and only a mutant compares the text.
public struct SiblingID: Sendable, Hashable {
    public static let byteCount = 32
    public var bytes: [UInt8]
    public var text: String

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.text = Hex.encode(bytes)
    }

    init(bytes: [UInt8], text: String) {
        self.bytes = bytes
        self.text = text
    }

    /// One sibling or two: by bytes (the rule), or by the given text under the mutant.
    func same(_ other: SiblingID, _ rules: SettleRules) -> Bool {
        rules.siblingsByHexText ? text.utf8.elementsEqual(other.text.utf8) : bytes == other.bytes
    }

    public static func == (a: SiblingID, b: SiblingID) -> Bool { a.bytes == b.bytes }
    public func hash(into h: inout Hasher) { h.combine(bytes) }
}

/// What one device's scheduler knows about one sibling (SPEC.md §12.2).
public struct SiblingState: Sendable, Hashable {
    public var id: SiblingID
    /// This device pulled from the sibling and has not yet seen a matching digest from it.
    public var reconciling: Bool
    /// When the storm back-off with this sibling ends; nil when not backed off.
    public var backoffUntil: UInt64?
    /// Start times of the rounds with this sibling inside the storm window, oldest first.
    public var rounds: [UInt64]

    public init(id: SiblingID, reconciling: Bool = false, backoffUntil: UInt64? = nil, rounds: [UInt64] = []) {
        self.id = id
        self.reconciling = reconciling
        self.backoffUntil = backoffUntil
        self.rounds = rounds
    }
}

/// The scheduler's whole state (SPEC.md §12.2): the transition function reads nothing else.
public struct SettleState: Sendable, Hashable {
    /// The time of the last event applied (ms); an earlier event is refused.
    public var now: UInt64
    /// This device's own StateDigest (§4.8).
    public var digest: StateDigest
    /// The launch "Syncing…" overlay is up.
    public var overlay: Bool
    /// When the debounced emit fires; nil when none is pending.
    public var debounceAt: UInt64?
    /// The payload of the last emit that reached every sibling.
    public var lastBroadcast: StateDigest?
    /// The account's other devices, in id byte order.
    public var siblings: [SiblingState]

    public init(now: UInt64, digest: StateDigest, overlay: Bool, debounceAt: UInt64? = nil, lastBroadcast: StateDigest? = nil,
                siblings: [SiblingState]) {
        self.now = now
        self.digest = digest
        self.overlay = overlay
        self.debounceAt = debounceAt
        self.lastBroadcast = lastBroadcast
        self.siblings = siblings.sorted { ByteOrder.precedes($0.id.bytes, $1.id.bytes) }
    }

    func index(of id: SiblingID, _ rules: SettleRules) -> Int? {
        siblings.firstIndex { $0.id.same(id, rules) }
    }
}

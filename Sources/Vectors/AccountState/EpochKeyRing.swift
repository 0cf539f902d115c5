/// A device's own epoch keys for one circle and what a KeyCommit it authored itself does to them
/// (SPEC.md §11.7): Haven's `converge_epoch_key`, the own-device branch of `receive_key_commit`,
/// and `prune_epoch_keys`.
public struct EpochKeyRing: Equatable, Sendable {
    /// One epoch's slot: the deterministic winner and the losing keys kept so content sealed under
    /// them still opens (oldest first).
    public struct Slot: Equatable, Sendable {
        public var epoch: UInt64
        public var primary: [UInt8]
        public var alts: [[UInt8]]
        public init(epoch: UInt64, primary: [UInt8], alts: [[UInt8]]) {
            self.epoch = epoch
            self.primary = primary
            self.alts = alts
        }
    }

    public struct Commit: Equatable, Sendable {
        public var epoch: UInt64
        public var epochKey: [UInt8]
        public var circleSecret: [UInt8]
        public init(epoch: UInt64, epochKey: [UInt8], circleSecret: [UInt8]) {
            self.epoch = epoch
            self.epochKey = epochKey
            self.circleSecret = circleSecret
        }
    }

    /// Losers kept per slot.
    public static let altsPerSlot = 4
    /// Epochs kept ([R11.7-5]); the seam of the retention mutants.
    public static var keepEpochs: Int {
        if Mutant.on(.accountRetain3Epochs) { return 3 }
        if Mutant.on(.accountRetain5Epochs) { return 5 }
        return 4
    }

    /// Ascending by epoch, one slot per epoch.
    public private(set) var slots: [Slot]
    /// 32 bytes; all zero means "not generated yet".
    public private(set) var circleSecret: [UInt8]
    public private(set) var myEpoch: UInt64

    public init(slots: [Slot], circleSecret: [UInt8], myEpoch: UInt64) throws(WireError) {
        var seen = Set<UInt64>()
        for (i, s) in slots.enumerated() where !seen.insert(s.epoch).inserted {
            throw WireError(.duplicateKey, "two slots for epoch \(s.epoch)", field: "keys[\(i)].epoch")
        }
        self.slots = slots.sorted { $0.epoch < $1.epoch }
        self.circleSecret = circleSecret
        self.myEpoch = myEpoch
    }

    /// "Numerically larger" for 32-byte keys and secrets ([R11.7-1]): unsigned big-endian, i.e. a
    /// byte-wise comparison from the first byte. The seam of the little-endian mutant.
    public static func isLarger(_ a: [UInt8], than b: [UInt8]) -> Bool {
        if Mutant.on(.accountKeyCompareLittleEndian) { return b.reversed().lexicographicallyPrecedes(a.reversed()) }
        return b.lexicographicallyPrecedes(a)
    }

    /// Haven's `converge_epoch_key` ([R11.7-2]): the larger key holds the slot, the loser is kept
    /// as an alternate (at most 4, the oldest dropped). Returns whether anything was learned.
    static func converge(primary: inout [UInt8]?, alts: inout [[UInt8]], candidate: [UInt8]) -> Bool {
        guard let current = primary else {
            primary = candidate
            return true
        }
        if current == candidate { return false }
        var candidateWins = isLarger(candidate, than: current)
        if Mutant.on(.accountSmallerEpochKeyAdopted) { candidateWins.toggle() }
        let (winner, loser) = candidateWins ? (candidate, current) : (current, candidate)
        var changed = false
        if winner != current {
            primary = winner
            changed = true
        }
        if !alts.contains(loser) {
            if alts.count >= altsPerSlot { alts.removeFirst() }
            alts.append(loser)
            changed = true
        }
        return changed
    }

    /// Applies a KeyCommit this account authored (one of its own devices) ([R11.7-2]…[R11.7-6]).
    /// Returns whether it taught the ring anything that survives pruning.
    @discardableResult
    public mutating func receiveOwnCommit(_ c: Commit) -> Bool {
        let i = slots.firstIndex { $0.epoch == c.epoch }
        var primary = i.map { slots[$0].primary }
        var alts = i.map { slots[$0].alts } ?? []
        let changed = Self.converge(primary: &primary, alts: &alts, candidate: c.epochKey)
        let slot = Slot(epoch: c.epoch, primary: primary ?? c.epochKey, alts: alts)
        if let i { slots[i] = slot } else {
            slots.insert(slot, at: slots.firstIndex { $0.epoch > c.epoch } ?? slots.endIndex)
        }
        let zero = [UInt8](repeating: 0, count: c.circleSecret.count)
        if c.circleSecret != zero && (circleSecret == [UInt8](repeating: 0, count: circleSecret.count) || Self.isLarger(c.circleSecret, than: circleSecret)) {
            circleSecret = c.circleSecret
        }
        myEpoch = max(myEpoch, c.epoch)
        prune()
        if Mutant.on(.accountPrunedCommitReportsNew) { return changed }
        return changed && slots.contains { $0.epoch == c.epoch }
    }

    /// Keeps the `keepEpochs` highest epochs; alternates go with their slot ([R11.7-5]).
    mutating func prune() {
        let keep = Self.keepEpochs
        if slots.count > keep { slots.removeFirst(slots.count - keep) }
    }
}

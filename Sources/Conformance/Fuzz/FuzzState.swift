import Foundation
import Vectors

/// What the fuzz workers share: the next case to claim, the budget, the counts per pair, the
/// differences found and the restart budget. One lock, held only to claim, record or spend.
final class FuzzState: @unchecked Sendable {
    private let lock = NSLock()
    let plan: FuzzPlan
    let options: FuzzOptions
    let start: UInt64
    private var nextK = 0
    private var claimed = 0
    private var retired: [Bool]
    private(set) var counts: [FuzzResult.Counts]
    private(set) var differences: [FuzzDifference] = []
    private var signatures: Set<String> = []
    private var shrinking: [Int] = []
    private(set) var restarts = 0
    private(set) var stopReason: String?
    private(set) var firstDifferenceNanos: UInt64?
    private(set) var lastProgress: UInt64 = 0
    private var judged = 0

    init(plan: FuzzPlan, options: FuzzOptions, start: UInt64) {
        self.plan = plan
        self.options = options
        self.start = start
        retired = Array(repeating: false, count: plan.targets.count)
        counts = Array(repeating: FuzzResult.Counts(), count: plan.targets.count)
    }

    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    var deadline: UInt64? {
        if case .seconds(let s) = options.budget { return start + UInt64(max(0, s) * 1e9) }
        return nil
    }

    /// The next case to generate: `(target, n)` with case number n of that target, or nil when the
    /// budget is spent, the run stopped, or every pair is retired.
    func claim() -> (Int, Int)? {
        lock.lock()
        defer { lock.unlock() }
        let t = plan.targets.count
        guard t > 0, stopReason == nil else { return nil }
        if case .cases(let n) = options.budget, claimed >= n { return nil }
        if let d = deadline, FuzzState.now() >= d { return nil }
        guard retired.contains(false) else { return nil }
        while true {
            let k = nextK
            nextK += 1
            if !retired[k % t] {
                claimed += 1
                return (k % t, k / t)
            }
        }
    }

    func isRetired(_ target: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return retired[target]
    }

    /// The run is over for workers: budget, stop, deadline.
    var finished: Bool {
        lock.lock()
        defer { lock.unlock() }
        if stopReason != nil || !retired.contains(false) { return true }
        if let d = deadline, FuzzState.now() >= d { return true }
        return false
    }

    func record(_ c: FuzzCase, _ v: Verdict) -> (Int, Bool) {
        lock.lock()
        defer { lock.unlock() }
        switch v {
        case .pass: counts[c.target].passed += 1
        case .fail:
            counts[c.target].failed += 1
            if firstDifferenceNanos == nil { firstDifferenceNanos = FuzzState.now() - start }
        case .skipped: counts[c.target].skipped += 1
        }
        if c.mutated { counts[c.target].mutated += 1 }
        judged += 1
        let now = FuzzState.now()
        let tick = now - lastProgress > 100_000_000
        if tick { lastProgress = now }
        return (judged, tick)
    }

    /// Whether a failure with this signature is new for its pair and worth shrinking (the pair is
    /// not retired and has room for one more difference). Claims the room.
    func beginShrink(target: Int, signature: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !retired[target], stopReason == nil, signatures.insert(signature).inserted else { return false }
        let pending = shrinking.filter { $0 == target }.count
        let kept = differences.filter { $0.target == target }.count
        guard kept + pending < options.maxDifferencesPerTarget else { return false }
        shrinking.append(target)
        return true
    }

    func endShrink(_ d: FuzzDifference) {
        lock.lock()
        defer { lock.unlock() }
        if let i = shrinking.firstIndex(of: d.target) { shrinking.remove(at: i) }
        differences.append(d)
        if differences.filter({ $0.target == d.target }).count >= options.maxDifferencesPerTarget { retired[d.target] = true }
        if let n = options.stopAfter, differences.count >= n, stopReason == nil { stopReason = "--stop-after \(n): \(differences.count) difference(s) found" }
    }

    func differenceCount() -> Int {
        lock.lock()
        defer { lock.unlock() }
        return differences.count
    }

    /// Spends one restart; false when the budget is gone (and stops the run).
    func spendRestart() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard restarts < options.maxRestarts else {
            if stopReason == nil { stopReason = "restart budget exhausted (--max-restarts \(options.maxRestarts))" }
            return false
        }
        restarts += 1
        return true
    }
}

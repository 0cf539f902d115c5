import Foundation

/// What the workers share: the next case to take, the results, the restart budget. One lock;
/// workers hold it only to take, record or spend.
final class RunState: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    private let total: Int
    private(set) var records: [Int: (Verdict, String, UInt64)] = [:]
    private(set) var restarts = 0
    private(set) var stopReason: String?
    private(set) var roundTripNanos: UInt64 = 0
    private(set) var spawnNanos: UInt64 = 0
    private var done = 0

    init(total: Int) { self.total = total }

    func take() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard stopReason == nil, next < total else { return nil }
        next += 1
        return next - 1
    }

    /// Spends one restart; false when the budget is gone (and stops the run).
    func spendRestart(max: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard restarts < max else {
            if stopReason == nil { stopReason = "restart budget exhausted (--max-restarts \(max))" }
            return false
        }
        restarts += 1
        return true
    }

    func stop(_ reason: String) {
        lock.lock()
        if stopReason == nil { stopReason = reason }
        lock.unlock()
    }

    func addSpawn(_ nanos: UInt64) {
        lock.lock()
        spawnNanos += nanos
        lock.unlock()
    }

    /// Records a case; returns how many are done.
    func record(_ i: Int, _ v: Verdict, stderr: String, nanos: UInt64) -> Int {
        lock.lock()
        defer { lock.unlock() }
        records[i] = (v, stderr, nanos)
        roundTripNanos += nanos
        done += 1
        return done
    }
}

import Foundation

/// The last `capacity` bytes a testee wrote to stderr. Drained on its own thread so a testee that
/// floods stderr never blocks on a full pipe; stderr is evidence attached to failures, never a
/// failure by itself.
public final class StderrTail: @unchecked Sendable {
    public let capacity: Int
    private let condition = NSCondition()
    private var ring: [UInt8]
    private var start = 0
    private var stored = 0
    /// Bytes written since the process started (a case's mark is this count when it was sent).
    private var total: UInt64 = 0
    private var closed = false

    public init(capacity: Int = 4096) {
        self.capacity = capacity
        ring = [UInt8](repeating: 0, count: capacity)
    }

    func append(_ bytes: UnsafeRawBufferPointer) {
        condition.lock()
        defer { condition.unlock() }
        total += UInt64(bytes.count)
        // Only the last `capacity` bytes of the chunk can survive.
        let chunk = bytes.count > capacity ? UnsafeRawBufferPointer(rebasing: bytes[(bytes.count - capacity)...]) : bytes
        for b in chunk {
            ring[(start + stored) % capacity] = b
            if stored < capacity { stored += 1 } else { start = (start + 1) % capacity }
        }
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (bounded) until the writer side has closed, so a crash report holds the last words.
    func waitClosed(timeout: Double) {
        let until = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        while !closed && condition.wait(until: until) {}
        condition.unlock()
    }

    /// Waits until no byte has arrived for `idle` seconds (at most `limit`): stderr travels on
    /// its own pipe, so what a testee wrote just before a wrong answer may still be in flight.
    public func quiesce(idle: Double = 0.02, limit: Double = 0.25) {
        let until = Date(timeIntervalSinceNow: limit)
        var last = mark
        while Date() < until {
            condition.lock()
            let isClosed = closed
            condition.unlock()
            if isClosed { return }
            Thread.sleep(forTimeInterval: idle)
            let now = mark
            if now == last { return }
            last = now
        }
    }

    public var mark: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return total
    }

    /// What was written since `mark` (bounded by the capacity), as lossy UTF-8; "" when nothing.
    public func tail(since mark: UInt64 = 0) -> String {
        condition.lock()
        defer { condition.unlock() }
        let n = Int(min(UInt64(stored), total &- mark))
        guard n > 0 else { return "" }
        var out = [UInt8]()
        out.reserveCapacity(n)
        for i in (stored - n)..<stored { out.append(ring[(start + i) % capacity]) }
        let cut = total - mark > UInt64(n)
        return (cut ? "…" : "") + String(decoding: out, as: UTF8.self)
    }
}

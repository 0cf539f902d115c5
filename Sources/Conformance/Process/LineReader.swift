import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Splits a testee's stdout into lines on a dedicated thread and queues them, so the runner can
/// wait for the next line with a deadline instead of blocking in `read`.
final class LineReader: @unchecked Sendable {
    enum Event: Sendable, Equatable {
        case line(String)
        /// A line that cannot be a message (too long, not UTF-8): why, and its first bytes.
        case malformed(reason: String, prefix: String)
        case eof
    }

    private let condition = NSCondition()
    private let maxLineBytes: Int
    private var events: [Event] = []
    private var head = 0

    /// Starts reading `fd` until EOF; the reader thread owns and closes it.
    init(fd: Int32, maxLineBytes: Int) {
        self.maxLineBytes = maxLineBytes
        Thread.detachNewThread { [self] in self.pump(fd: fd, maxLineBytes: maxLineBytes) }
    }

    private func push(_ e: Event) {
        condition.lock()
        events.append(e)
        condition.signal()
        condition.unlock()
    }

    private func pump(fd: Int32, maxLineBytes: Int) {
        var pending = [UInt8]()
        var discarding = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            var lineStart = 0
            while let i = LineReader.newline(in: chunk, from: lineStart, to: n) {
                if discarding {
                    discarding = false
                } else {
                    pending.append(contentsOf: chunk[lineStart..<i])
                    emit(&pending)
                }
                lineStart = i + 1
            }
            if !discarding {
                pending.append(contentsOf: chunk[lineStart..<n])
                if pending.count > maxLineBytes {
                    push(.malformed(reason: "line longer than \(maxLineBytes) bytes", prefix: String(decoding: pending.prefix(512), as: UTF8.self)))
                    pending.removeAll()
                    discarding = true
                }
            }
        }
        if !pending.isEmpty && !discarding { emit(&pending) }
        close(fd)
        push(.eof)
    }

    /// The index of the next `\n` in `chunk[from..<to]` (memchr: a per-byte loop is slow on
    /// 16 MiB lines in debug builds).
    static func newline(in chunk: [UInt8], from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        return chunk.withUnsafeBufferPointer { b -> Int? in
            guard let p = memchr(b.baseAddress! + from, 0x0a, to - from) else { return nil }
            return b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func emit(_ pending: inout [UInt8]) {
        // The limit counts every byte before the `\n` (a chunk can complete an over-long line).
        if pending.count > maxLineBytes {
            push(.malformed(reason: "line longer than \(maxLineBytes) bytes", prefix: String(decoding: pending.prefix(512), as: UTF8.self)))
            pending.removeAll(keepingCapacity: true)
            return
        }
        if pending.last == 0x0d { pending.removeLast() }
        if let s = String(validating: pending, as: UTF8.self) {
            push(.line(s))
        } else {
            push(.malformed(reason: "line is not valid UTF-8", prefix: String(decoding: pending.prefix(512), as: UTF8.self)))
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The next event, or nil when `deadline` passes first. EOF is sticky.
    func next(deadline: Date) -> Event? {
        condition.lock()
        defer { condition.unlock() }
        while head == events.count {
            if !condition.wait(until: deadline) && head == events.count { return nil }
        }
        let e = events[head]
        if e != .eof {
            head += 1
            if head > 1024 { events.removeFirst(head); head = 0 }
        }
        return e
    }
}

/// Drains a stderr fd into a `StderrTail` on its own thread.
enum StderrDrain {
    static func start(fd: Int32, into tail: StderrTail) {
        Thread.detachNewThread {
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                chunk.withUnsafeBytes { tail.append(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            }
            close(fd)
            tail.close()
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One line a testee read from the runner (SPEC.md §6.1), before any decoding.
public enum InputLine: Sendable, Equatable {
    /// A line of at most `RunnerProtocol.maxLineBytes` bytes, without its `\n` (and without one
    /// `\r` before it).
    case line([UInt8])
    /// A longer line: only its first bytes were kept (enough to read the case's `id`); the rest
    /// was read and dropped up to its `\n`.
    case tooLong(prefix: [UInt8])
}

/// Splits a file descriptor into `InputLine`s with the 16 MiB limit of SPEC.md §6.1 enforced while
/// reading: a longer line is never held in memory past the limit.
public struct InputLines: Sendable {
    public let fd: Int32
    public let maxLineBytes: Int
    /// Bytes of an over-long line kept for reading its id.
    public static let keptPrefix = 4096

    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var eof = false

    public init(fd: Int32 = 0, maxLineBytes: Int = RunnerProtocol.maxLineBytes) {
        self.fd = fd
        self.maxLineBytes = maxLineBytes
    }

    /// The next line, or nil at EOF. A last line without `\n` counts as a line.
    public mutating func next() -> InputLine? {
        var scanFrom = start
        var dropping = false
        var prefix: [UInt8] = []
        while true {
            if let nl = newline(from: scanFrom) {
                if dropping {
                    start = nl + 1
                    compact()
                    return .tooLong(prefix: prefix)
                }
                var end = nl
                if end > start && buffer[end - 1] == 0x0d { end -= 1 }
                if nl - start > maxLineBytes {
                    let kept = Array(buffer[start..<min(nl, start + InputLines.keptPrefix)])
                    start = nl + 1
                    compact()
                    return .tooLong(prefix: kept)
                }
                let line = Array(buffer[start..<end])
                start = nl + 1
                compact()
                return .line(line)
            }
            if !dropping && buffer.count - start > maxLineBytes {
                // Past the limit without a newline: keep the first bytes, drop the rest as it comes.
                prefix = Array(buffer[start..<(start + InputLines.keptPrefix)])
                dropping = true
            }
            if dropping {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            scanFrom = buffer.count
            if eof || !fill() {
                eof = true
                if dropping { return .tooLong(prefix: prefix) }
                guard start < buffer.count else { return nil }
                var line = Array(buffer[start...])
                if line.last == 0x0d { line.removeLast() }
                start = buffer.count
                return .line(line)
            }
        }
    }

    private func newline(from i: Int) -> Int? {
        guard i < buffer.count else { return nil }
        return buffer.withUnsafeBufferPointer { b -> Int? in
            guard let p = memchr(b.baseAddress! + i, 0x0a, b.count - i) else { return nil }
            return b.baseAddress!.distance(to: p.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// Reads one chunk; false at EOF or on a read error.
    private mutating func fill() -> Bool {
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            buffer.append(contentsOf: chunk[0..<n])
            return true
        }
    }

    private mutating func compact() {
        if start > 1 << 20 || start == buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
    }
}

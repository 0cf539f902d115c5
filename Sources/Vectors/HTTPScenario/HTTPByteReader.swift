/// Buffered reading of HTTP/1.1 bytes, each call bounded by a deadline (monotonic nanoseconds).
/// This class reads bytes already received, the connection closed after them: the request
/// reader run in-process (a raw scenario step played against a reference service, SPEC.md
/// §13.1), the fuzz targets and unit tests. The runner's `SocketReader` is the same reader over
/// a socket: it overrides `fill` only, so both read one grammar with one code.
open class HTTPByteReader {
    package final var buffer: [UInt8] = []
    package final var start = 0
    package final var sawEOF = false

    /// A reader that gets its bytes from `fill` (a subclass's socket).
    public init() {}

    /// A reader over `bytes`, the connection closed after them.
    public init(bytes: [UInt8]) {
        buffer = bytes
        sawEOF = true
    }

    public final var buffered: Int { buffer.count - start }

    public enum Fill { case data, eof, timeout, error(String) }

    /// Reads what is available, waiting until the deadline for at least one byte. Here there is
    /// nothing more to read: the bytes were all given.
    open func fill(deadline: UInt64) -> Fill {
        sawEOF = true
        return .eof
    }

    /// One line without its CRLF (or bare LF); fails past `maxBytes`.
    public final func readLine(maxBytes: Int, deadline: UInt64, what: String) -> Result<[UInt8], TransportFailure> {
        var scanned = 0  // bytes after `start` already searched (fill may move `start`)
        while true {
            if let i = buffer[(start + scanned)...].firstIndex(of: 0x0a) {
                var line = Array(buffer[start..<i])
                if line.last == 0x0d { line.removeLast() }
                start = i + 1
                guard line.count <= maxBytes else { return .failure(TransportFailure(.tooLarge, "\(what) is longer than \(maxBytes) bytes")) }
                return .success(line)
            }
            scanned = buffer.count - start
            if buffer.count - start > maxBytes { return .failure(TransportFailure(.tooLarge, "\(what) is longer than \(maxBytes) bytes")) }
            switch fill(deadline: deadline) {
            case .data: continue
            case .eof: return .failure(TransportFailure(.closed, "the connection closed inside \(what)" + (buffered > 0 ? " (\(buffered) byte(s) of it received)" : "")))
            case .timeout: return .failure(TransportFailure(.timeout, "timed out waiting for \(what)" + (buffered > 0 ? " (\(buffered) byte(s) of it received)" : "")))
            case .error(let e): return .failure(TransportFailure(.closed, "reading \(what): \(e)"))
            }
        }
    }

    /// Exactly n bytes.
    public final func read(_ n: Int, deadline: UInt64, what: String) -> Result<[UInt8], TransportFailure> {
        while buffered < n {
            switch fill(deadline: deadline) {
            case .data: continue
            case .eof: return .failure(TransportFailure(.closed, "the connection closed inside \(what) (\(buffered) of \(n) bytes received)"))
            case .timeout: return .failure(TransportFailure(.timeout, "\(what) incomplete at the deadline (\(buffered) of \(n) bytes received)"))
            case .error(let e): return .failure(TransportFailure(.closed, "reading \(what): \(e)"))
            }
        }
        let out = Array(buffer[start..<(start + n)])
        start += n
        return .success(out)
    }

    /// Everything until the peer closes, at most `cap` bytes.
    public final func readToEOF(cap: Int, deadline: UInt64, what: String) -> Result<[UInt8], TransportFailure> {
        while true {
            if buffered > cap { return .failure(TransportFailure(.tooLarge, "\(what) exceeds the cap of \(cap) bytes (reading stopped)")) }
            switch fill(deadline: deadline) {
            case .data: continue
            case .eof:
                let out = Array(buffer[start...])
                start = buffer.count
                return .success(out)
            case .timeout: return .failure(TransportFailure(.timeout, "\(what) (delimited by the connection's end) still open at the deadline, \(buffered) byte(s) received"))
            case .error(let e): return .failure(TransportFailure(.closed, "reading \(what): \(e)"))
            }
        }
    }
}

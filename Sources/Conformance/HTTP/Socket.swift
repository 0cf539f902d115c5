import Foundation
import Vectors
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Loopback TCP through the C socket API, every wait bounded by a deadline (`poll`), every
/// descriptor non-blocking and close-on-exec. Nothing here can block past its deadline.
package enum Socket {
    /// Monotonic nanoseconds.
    package static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    package static func deadline(after seconds: Double) -> UInt64 { now() &+ UInt64(max(0, seconds) * 1e9) }

    /// Milliseconds left before `deadline` (0 when past), for `poll`.
    static func remainingMillis(_ deadline: UInt64) -> Int32 {
        let t = now()
        guard deadline > t else { return 0 }
        return Int32(min(UInt64(Int32.max), (deadline - t + 999_999) / 1_000_000))
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    static func address(_ host: String, _ port: UInt16) -> sockaddr_in? {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        guard inet_pton(AF_INET, host == "localhost" ? "127.0.0.1" : host, &a.sin_addr) == 1 else { return nil }
        return a
    }

    /// A connected, non-blocking socket, or why not.
    package static func connect(host: String, port: UInt16, deadline: UInt64) -> Result<Int32, TransportFailure> {
        guard var addr = address(host, port) else { return .failure(TransportFailure(.refused, "\(host) is not an IPv4 address")) }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .failure(TransportFailure(.refused, "socket: \(String(cString: strerror(errno)))")) }
        setNonBlocking(fd)
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if rc == 0 { return .success(fd) }
        guard errno == EINPROGRESS else {
            let why = String(cString: strerror(errno))
            close(fd)
            return .failure(TransportFailure(.refused, "connect to \(host):\(port): \(why)"))
        }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        while true {
            let r = poll(&p, 1, remainingMillis(deadline))
            if r < 0 && errno == EINTR { continue }
            if r == 0 { close(fd); return .failure(TransportFailure(.timeout, "connect to \(host):\(port) did not complete")) }
            break
        }
        var err: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len)
        guard err == 0 else {
            close(fd)
            return .failure(TransportFailure(.refused, "connect to \(host):\(port): \(String(cString: strerror(err)))"))
        }
        return .success(fd)
    }

    /// Writes every byte before the deadline.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8], deadline: UInt64) -> TransportFailure? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if n > 0 { offset += n; continue }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                let ms = remainingMillis(deadline)
                if ms == 0 { return TransportFailure(.timeout, "the request could not be written before the deadline") }
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                _ = poll(&p, 1, ms)
                continue
            }
            return TransportFailure(.closed, "the connection was closed while the request was written (\(String(cString: strerror(errno))))")
        }
        return nil
    }

    /// A listening socket on host:port (0 picks a free port); returns the fd and the bound port.
    static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws -> (Int32, UInt16) {
        guard var addr = address(host, port) else { throw SocketError("\(host) is not an IPv4 address") }
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SocketError("socket: \(String(cString: strerror(errno)))") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard rc == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw SocketError("bind \(host):\(port): \(why)")
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let why = String(cString: strerror(errno))
            close(fd)
            throw SocketError("listen: \(why)")
        }
        var bound = sockaddr_in()
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &bound) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return (fd, UInt16(bigEndian: bound.sin_port))
    }

    /// A port nothing listens on right now (bound, read, released): the runner passes it in `PORT`.
    static func freePort(host: String = "127.0.0.1") throws -> UInt16 {
        let (fd, port) = try listen(host: host, port: 0, backlog: 1)
        close(fd)
        return port
    }
}

struct SocketError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

/// `HTTPByteReader` over a non-blocking socket: `fill` waits (bounded by the deadline) for the
/// next bytes; the parsing is the byte reader's own.
final class SocketReader: HTTPByteReader {
    let fd: Int32

    init(fd: Int32) {
        self.fd = fd
        super.init()
    }

    /// Bytes already received, the connection closed after them (the runner's response reading
    /// without a socket: fuzz targets and unit tests).
    override init(bytes: [UInt8]) {
        fd = -1
        super.init(bytes: bytes)
    }

    /// Reads what is available (waiting until the deadline for at least one byte).
    override func fill(deadline: UInt64) -> Fill {
        if sawEOF { return .eof }
        if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                return .data
            }
            if n == 0 { sawEOF = true; return .eof }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK {
                let ms = Socket.remainingMillis(deadline)
                if ms == 0 { return .timeout }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let r = poll(&p, 1, ms)
                if r == 0 { return .timeout }
                continue
            }
            if errno == ECONNRESET { sawEOF = true; return .eof }
            return .error(String(cString: strerror(errno)))
        }
    }

    /// The bytes that follow an answer with no body (a 204, a 304, an answer to HEAD), which a
    /// service should never send: read until the peer closes, `quiet` nanoseconds pass without a
    /// byte, the deadline, or `cap` bytes. With `quiet` 0 only what has already arrived is taken.
    func drainStray(quiet: UInt64, cap: Int, deadline: UInt64) -> [UInt8] {
        drain: while buffered <= cap {
            let until = min(deadline, Socket.now() &+ quiet)
            switch fill(deadline: until) {
            case .data: continue
            case .eof, .timeout, .error: break drain
            }
        }
        let end = min(buffer.count, start + cap)
        let out = Array(buffer[start..<end])
        start = buffer.count
        return out
    }
}

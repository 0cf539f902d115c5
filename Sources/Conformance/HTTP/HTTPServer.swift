import Foundation
import Vectors
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server on a loopback socket for the reference services (`conformance
/// serve-http`): one thread per connection, persistent connections, `Content-Length` and chunked
/// request bodies, and the same caps as the client (a request body above 1 MiB is 413, a header
/// section above 64 KiB is 431). It also plays the deliberately broken services the runner must
/// survive (`Behaviour.broken`).
public final class HTTPServer: @unchecked Sendable {
    public enum Behaviour: Sendable {
        case service(any HTTPService)
        case broken(BrokenKind)
        /// Reads the request head, writes exactly these bytes, closes (tests of the client).
        case scripted([UInt8])
        /// Reads each request whole, answers it with exactly the bytes the closure returns and
        /// closes the connection (tests: services that put on the wire what `HTTPWire.serialize`
        /// never would, such as a 204 with content).
        case wire(@Sendable (HTTPRequest) -> [UInt8])
    }

    /// Bad answers a service can give (SPEC.md §6.13); the runner reports each as a failure.
    public enum BrokenKind: String, Sendable, CaseIterable {
        /// Bytes that are not HTTP.
        case garbage
        /// The connection closed without a byte.
        case close
        /// The request read, then nothing, until the client gives up.
        case hang
        /// `Content-Length: 2147483648`, then bytes for as long as the client reads.
        case hugeLength = "huge-length"
        /// Chunked, 64 KiB chunks for as long as the client reads (2 GB and beyond).
        case hugeChunked = "huge-chunked"
        /// A valid status line, then a chunk size that is not hex.
        case badChunk = "bad-chunk"
        /// The status line and half the headers, then the connection closes.
        case truncated
    }

    public let behaviour: Behaviour
    public let host: String
    public private(set) var port: UInt16 = 0
    /// Seconds a connection may sit idle between requests.
    public var idleTimeout = 15.0
    /// Seconds a request may take to arrive once it has started.
    public var requestTimeout = 10.0

    private var listener: Int32 = -1
    private let lock = NSLock()
    private var connections: Set<Int32> = []
    private var stopped = false
    private let maxConnections = 256

    public init(_ behaviour: Behaviour, host: String = "127.0.0.1") {
        self.behaviour = behaviour
        self.host = host
    }

    /// Binds (port 0 = a free port, read back into `port`) and starts accepting.
    public func start(port requested: UInt16) throws {
        TesteeProcess.ignoreSIGPIPE()
        let (fd, bound) = try Socket.listen(host: host, port: requested)
        listener = fd
        port = bound
        let t = Thread { [self] in acceptLoop() }
        t.start()
    }

    /// Stops accepting and shuts every open connection down.
    ///
    /// Descriptors are only shut down here, never closed: the accept loop closes the listener
    /// and each connection's thread closes its own socket. Closing them here would free the
    /// descriptor number while another thread may still poll or accept on it, and a second
    /// server in the same process (tests start many) could be handed that number for its own
    /// listener: the stopped server would then accept, and refuse, the other one's clients.
    public func stop() {
        lock.lock()
        stopped = true
        if listener >= 0 { shutdown(listener, Int32(SHUT_RDWR)) }
        for fd in connections { shutdown(fd, Int32(SHUT_RDWR)) }
        lock.unlock()
    }

    /// Blocks the calling thread for good (the `serve-http` command's main thread).
    public func wait() -> Never {
        while true { sleep(3600) }
    }

    private func acceptLoop() {
        while true {
            lock.lock()
            let l = listener
            let isStopped = stopped
            if isStopped, l >= 0 { listener = -1 }
            lock.unlock()
            if isStopped { if l >= 0 { close(l) }; return }
            if l < 0 { return }
            var p = pollfd(fd: l, events: Int16(POLLIN), revents: 0)
            let r = poll(&p, 1, 200)
            if r <= 0 { continue }
            let fd = accept(l, nil, nil)
            if fd < 0 { continue }
            Socket.setNonBlocking(fd)
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            lock.lock()
            let full = connections.count >= maxConnections || stopped
            if !full { connections.insert(fd) }
            lock.unlock()
            if full {
                _ = Socket.writeAll(fd, HTTPWire.serialize(HTTPResponse.error(503, "busy", "too many connections"), close: true), deadline: Socket.deadline(after: 1))
                close(fd)
                continue
            }
            Thread { [self] in
                serve(fd)
                // Removed and closed under the lock, so `stop` never shuts down a reused number.
                lock.lock()
                connections.remove(fd)
                close(fd)
                lock.unlock()
            }.start()
        }
    }

    private func serve(_ fd: Int32) {
        let reader = SocketReader(fd: fd)
        if case .broken(let kind) = behaviour { return misbehave(kind, fd: fd, reader: reader) }
        if case .scripted(let bytes) = behaviour {
            _ = HTTPWire.readHead(reader, deadline: Socket.deadline(after: requestTimeout), what: "request")
            _ = Socket.writeAll(fd, bytes, deadline: Socket.deadline(after: requestTimeout))
            return
        }
        switch behaviour {
        case .service, .wire: break
        default: return
        }
        while true {
            // Wait (idle timeout) for the first byte of the next request, then give it the request timeout.
            if reader.buffered == 0 {
                switch reader.fill(deadline: Socket.deadline(after: idleTimeout)) {
                case .data: break
                default: return
                }
            }
            let request: HTTPRequest
            let close: Bool
            switch HTTPRequestReader.next(reader, deadline: Socket.deadline(after: requestTimeout)) {
            case .end: return
            case .refused(let answer): return reply(fd, answer, close: true)
            case .request(let r, let c): request = r; close = c
            }
            if case .wire(let answer) = behaviour {
                _ = Socket.writeAll(fd, answer(request), deadline: Socket.deadline(after: requestTimeout))
                return
            }
            guard case .service(let service) = behaviour else { return }
            let answer = service.handle(request)
            guard Socket.writeAll(fd, HTTPWire.serialize(answer, close: close, headOnly: request.method == "HEAD"), deadline: Socket.deadline(after: requestTimeout)) == nil, !close else { return }
        }
    }

    private func reply(_ fd: Int32, _ r: HTTPResponse, close: Bool) {
        _ = Socket.writeAll(fd, HTTPWire.serialize(r, close: close), deadline: Socket.deadline(after: 2))
    }

    /// The broken services: each reads the request head first (so the client is past writing),
    /// then answers wrongly. Endless answers stop when the client closes or after 60 s.
    private func misbehave(_ kind: BrokenKind, fd: Int32, reader: SocketReader) {
        if kind != .close { _ = HTTPWire.readHead(reader, deadline: Socket.deadline(after: requestTimeout), what: "request") }
        let giveUp = Socket.deadline(after: 60)
        func write(_ s: String) -> Bool { Socket.writeAll(fd, Array(s.utf8), deadline: giveUp) == nil }
        switch kind {
        case .garbage:
            _ = write("\u{1}\u{2}garbage, not HTTP at all\r\n\r\n")
        case .close:
            return
        case .hang:
            // Hold the connection open, reading nothing, until the client leaves.
            while Socket.now() < giveUp {
                if case .eof = reader.fill(deadline: Socket.deadline(after: 0.5)) { return }
            }
        case .hugeLength:
            guard write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2147483648\r\n\r\n") else { return }
            let block = [UInt8](repeating: 0x20, count: 65_536)
            var sent = 0
            while sent < 2_147_483_648, Socket.now() < giveUp, Socket.writeAll(fd, block, deadline: giveUp) == nil { sent += block.count }
        case .hugeChunked:
            guard write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
            let block = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 65_536) + [0x0d, 0x0a]
            while Socket.now() < giveUp, Socket.writeAll(fd, block, deadline: giveUp) == nil {}
        case .badChunk:
            _ = write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
        case .truncated:
            _ = write("HTTP/1.1 200 OK\r\nContent-Type: appl")
        }
    }
}
